#!/usr/bin/env bash
# The web console in a real browser: headless Chromium driven by Selenium through Debian's
# chromedriver signs in (a failed attempt first, then with the keyboard alone), creates a container,
# browses to a record, runs a query with two filters and a sort, edits a record, provokes a conflict,
# restores a version from the record's history, undeletes it from the recycle bin, deletes a user, checks that a form without its CSRF token is refused, and looks at a page in a
# narrow window. It saves a screenshot of each page in $CONSOLE_SCREENSHOTS (default
# .build/console-screenshots). Installs chromium, chromium-driver and selenium when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_browser
new_data_directory

# An administrator, a queryable schema and public records, made the way an operator would.
printf 'console password\n' > "$work/password"
"$stratus" admin create root --data "$data" --password-file "$work/password" >/dev/null
"$stratus" container create --data "$data" --container "$container" >/dev/null
cat > "$work/schema.ckdb" <<'SCHEMA'
DEFINE SCHEMA
    RECORD TYPE Item (
        name STRING QUERYABLE SORTABLE,
        qty  INT64 QUERYABLE SORTABLE
    );
SCHEMA
"$stratus" schema import "$work/schema.ckdb" --data "$data" --container "$container" >/dev/null
cat > "$work/items.json" <<'ITEMS'
{"operations": [
  {"operationType": "create", "record": {"recordName": "apple", "recordType": "Item", "fields": {"name": {"value": "apple"}, "qty": {"value": 3}}}},
  {"operationType": "create", "record": {"recordName": "apricot", "recordType": "Item", "fields": {"name": {"value": "apricot"}, "qty": {"value": 9}}}},
  {"operationType": "create", "record": {"recordName": "avocado", "recordType": "Item", "fields": {"name": {"value": "avocado"}, "qty": {"value": 1}}}},
  {"operationType": "create", "record": {"recordName": "bread", "recordType": "Item", "fields": {"name": {"value": "bread"}, "qty": {"value": 7}}}}
]}
ITEMS
"$stratus" records save --file "$work/items.json" --data "$data" --container "$container" >/dev/null
printf 'user password\n' > "$work/user-password"
"$stratus" user create carol --password-file "$work/user-password" --data "$data" --container "$container" >/dev/null

start_server "$data" --container "$container"
export CONSOLE_URL="http://127.0.0.1:$port" STRATUS_BINARY="$stratus" STRATUS_DATA="$data" STRATUS_CONTAINER="$container"
export CONSOLE_SCREENSHOTS="${CONSOLE_SCREENSHOTS:-$PWD/.build/console-screenshots}"
python3 scripts/lib/console_browser.py

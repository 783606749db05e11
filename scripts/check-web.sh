#!/usr/bin/env bash
# The web example (Examples/Web) in a real browser: headless Chromium driven by Selenium signs a user
# in through the sign-in page in a popup and through a whole-page redirect, saves notes (one with an
# encrypted detail), finds one by query, syncs changes another client made, uploads a file, hears notifications, and looks at the page
# in a narrow window; then dana's "your account" page lists her sessions, signs one out, asks her to confirm
# before a password change (fresh proof) and signs her out. It saves a screenshot of each step in $WEB_SCREENSHOTS (default
# .build/web-screenshots). Installs chromium, chromium-driver and selenium when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_browser
new_data_directory

# The page is served by the server itself, so its origin is the server's: the container lists it.
"$stratus" container create --data "$data" --container "$container" >/dev/null
"$stratus" container web-origin add "http://127.0.0.1:$port" --data "$data" --container "$container" >/dev/null
"$stratus" schema import Examples/Web/schema.ckdb --data "$data" --container "$container" >/dev/null
printf 'web password\n' > "$work/password"
"$stratus" user create dana --password-file "$work/password" --data "$data" --container "$container" >/dev/null

start_server "$data" --container "$container" --examples
export WEB_URL="$base_url/examples/web/index.html?container=$container&apiToken=$api_token" STRATUS_URL="$base_url"
export STRATUS_CONTAINER="$container" STRATUS_API_TOKEN="$api_token"
export WEB_SCREENSHOTS="${WEB_SCREENSHOTS:-$PWD/.build/web-screenshots}"
python3 scripts/lib/web_browser.py
# The "your account" page: sessions listed and one signed out, fresh proof asked for, a password changed.
STRATUS_DATABASE="$data/stratus.sqlite" python3 scripts/lib/account_browser.py

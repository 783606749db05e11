#!/usr/bin/env bash
# Follows the README's Notes walkthrough against a fresh server: two devices, an offline conflict
# resolved by the latest edit on both, and a note from a newer app version refused.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_products stratus notes
stratus="$PWD/.build/debug/stratus"
notes="$PWD/.build/debug/notes"

start_server "$work/data"
API=$("$stratus" container token --data "$work/data" | tail -n 1)
URL=http://127.0.0.1:$port
"$notes" setup --device "$work/phone" --server "$URL" --api-token "$API" --user alice --password "correct horse" --sign-up > /dev/null
"$notes" setup --device "$work/laptop" --server "$URL" --api-token "$API" --user alice --password "correct horse" > /dev/null

expect "saved and synced" "$("$notes" edit --device "$work/phone" "Buy milk")"
expect "Buy milk" "$("$notes" sync --device "$work/laptop")"

stop_server   # both devices are offline now
expect "will sync" "$("$notes" edit --device "$work/phone" "Buy milk and eggs")"
sleep 0.05
expect "will sync" "$("$notes" edit --device "$work/laptop" "Buy oat milk")"
expect "not synced yet" "$("$notes" show --device "$work/phone")"

start_server "$work/data"
expect "Buy milk and eggs" "$("$notes" sync --device "$work/phone")"
expect "Buy oat milk" "$("$notes" sync --device "$work/laptop")"     # the later edit wins...
expect "Buy oat milk" "$("$notes" sync --device "$work/phone")"      # ...on every device
expect "0 change(s) to send" "$("$notes" status --device "$work/laptop")"

# `notes watch` prints the note when another device changes it, with no sync asked for.
"$notes" watch --device "$work/laptop" > "$work/watch.txt" 2>&1 &
watcher=$!
for _ in $(seq 1 50); do grep -q "Buy oat milk" "$work/watch.txt" && break; sleep 0.1; done
"$notes" edit --device "$work/phone" "Buy oat milk and bread" > /dev/null
for _ in $(seq 1 100); do grep -q "and bread" "$work/watch.txt" && break; sleep 0.1; done
kill "$watcher"; wait "$watcher" 2>/dev/null || true
expect "] Buy oat milk and bread" "$(cat "$work/watch.txt")"

# A newer app version writes the note: this version refuses it instead of overwriting it.
TOKEN=$(sed -n 's/.*"webAuthToken":"\([^"]*\)".*/\1/p' "$work/phone/session.json" | sed 's#\\/#/#g')
TAG=$(curl -s -X POST "$URL/database/1/iCloud.dev.stratus/development/private/records/lookup?ckAPIToken=$API" \
  -H "Authorization: Bearer $TOKEN" -d '{"zoneID":{"zoneName":"note-zone"},"records":[{"recordName":"note"}]}' \
  | sed -n 's/.*"recordChangeTag":"\([^"]*\)".*/\1/p')
curl -s -X POST "$URL/database/1/iCloud.dev.stratus/development/private/records/modify?ckAPIToken=$API" \
  -H "Authorization: Bearer $TOKEN" -d '{"zoneID":{"zoneName":"note-zone"},"operations":[{"operationType":"update",
  "record":{"recordName":"note","recordChangeTag":"'"$TAG"'","fields":{"version":{"value":2,"type":"INT64"}}}}]}' > /dev/null
set +e
refused=$("$notes" sync --device "$work/laptop"); status=$?
set -e
[ "$status" -eq 2 ] || { echo "expected exit status 2, got $status: $refused"; exit 1; }
expect "newer version of Notes" "$refused"
expect "not saved" "$("$notes" edit --device "$work/laptop" "overwrite?" 2>&1 || true)"
echo "Notes walkthrough: ok"

#!/usr/bin/env bash
# Runs docs/examples.md's Notes walkthrough against a fresh server: two devices, an offline conflict
# resolved by the latest edit on both; then `notes watch`, and a note from a newer app version refused.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_products stratus notes
stratus="$PWD/.build/debug/stratus"
notes="$PWD/.build/debug/notes"

start_server "$work/stratus-data"

# The block of docs/examples.md as written, in $work, with the server stopped and started where its
# comments say (in this shell, which holds the server).
doc_block notes docs/examples.md \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:\$port#g; s#^API=\$(.build/release/stratus #API=\$(\"\$stratus\" #; s#^notes=.build/debug/notes#notes=\"$notes\"#" \
  | sed 's/^# Stop the server.*/stop_server/; s/^# Start the server again.*/start_server "$work\/stratus-data"/' > "$work/walkthrough.sh"
grep -q '^stop_server$' "$work/walkthrough.sh" && grep -q '^start_server ' "$work/walkthrough.sh" \
  || { echo "the Notes block no longer says where to stop and start the server"; exit 1; }
# Sourced, not under `||`, so that `set -e` stops at the first failing line; what it printed is shown then.
# (The trap prints to the script's own output, 3, since a failure inside leaves the redirection on.)
exec 3>&1
trap 'status=$?; [ "$status" = 0 ] || { cat "$work/out.txt"; echo "the Notes walkthrough failed"; } >&3; [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
pushd "$work" > /dev/null
source "$work/walkthrough.sh" > "$work/out.txt" 2>&1
popd > /dev/null
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"
out=$(cat "$work/out.txt")
for expected in "saved and synced" "will sync" "not synced yet" "0 change(s) to send"; do
  expect "$expected" "$out"
done
# The later edit won, on both devices.
for device in phone laptop; do
  expect "Buy oat milk" "$("$notes" show --device "$work/devices/$device")"
done
URL=http://127.0.0.1:$port
API=$("$stratus" container token --data "$work/stratus-data" | tail -n 1)

# `notes watch` prints the note when another device changes it, with no sync asked for.
"$notes" watch --device "$work/devices/laptop" > "$work/watch.txt" 2>&1 &
watcher=$!
for _ in $(seq 1 50); do grep -q "Buy oat milk" "$work/watch.txt" && break; sleep 0.1; done
"$notes" edit --device "$work/devices/phone" "Buy oat milk and bread" > /dev/null
for _ in $(seq 1 100); do grep -q "and bread" "$work/watch.txt" && break; sleep 0.1; done
kill "$watcher"; wait "$watcher" 2>/dev/null || true
expect "] Buy oat milk and bread" "$(cat "$work/watch.txt")"

# A newer app version writes the note: this version refuses it instead of overwriting it.
TOKEN=$(sed -n 's/.*"webAuthToken":"\([^"]*\)".*/\1/p' "$work/devices/phone/session.json" | sed 's#\\/#/#g')
TAG=$(curl -s -X POST "$URL/database/1/iCloud.dev.stratus/development/private/records/lookup?ckAPIToken=$API" \
  -H "Authorization: Bearer $TOKEN" -d '{"zoneID":{"zoneName":"note-zone"},"records":[{"recordName":"note"}]}' \
  | sed -n 's/.*"recordChangeTag":"\([^"]*\)".*/\1/p')
curl -s -X POST "$URL/database/1/iCloud.dev.stratus/development/private/records/modify?ckAPIToken=$API" \
  -H "Authorization: Bearer $TOKEN" -d '{"zoneID":{"zoneName":"note-zone"},"operations":[{"operationType":"update",
  "record":{"recordName":"note","recordChangeTag":"'"$TAG"'","fields":{"version":{"value":2,"type":"INT64"}}}}]}' > /dev/null
set +e
refused=$("$notes" sync --device "$work/devices/laptop"); status=$?
set -e
[ "$status" -eq 2 ] || { echo "expected exit status 2, got $status: $refused"; exit 1; }
expect "newer version of Notes" "$refused"
expect "not saved" "$("$notes" edit --device "$work/devices/laptop" "overwrite?" 2>&1 || true)"
echo "Notes walkthrough: ok"

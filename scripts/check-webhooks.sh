#!/usr/bin/env bash
# docs/webhooks.md as written: `stratus webhook add` (the webhook-add block) registers the Python receiver
# (the webhook-receiver block) with a real server; a record saved over HTTP reaches the receiver signed, and
# the receiver refuses a delivery whose signature is wrong. The Swift block is compiled and run by GuideTests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
new_data_directory
start_server "$data" --webhook-allow-private
hook_port=$(free_port)

added=$(doc_block webhook-add docs/webhooks.md | sed "s#\./stratus-data#$data#; s#^stratus #$stratus #; s#:9000/#:$hook_port/#" | bash)
secret=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["secret"])' <<< "$added")
expect whsec_ "$secret"

doc_block webhook-receiver docs/webhooks.md > "$work/receiver.py"
WEBHOOK_SECRET="$secret" PORT="$hook_port" python3 "$work/receiver.py" > "$work/receiver.log" 2>&1 &
receiver=$!
trap 'kill "$receiver" 2>/dev/null || true; [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do
  curl -s -o /dev/null "http://127.0.0.1:$hook_port/" && break
  sleep 0.1
done

session=$(curl -sf -X POST "$base_url/auth/1/$container/development/signup?ckAPIToken=$api_token" \
  -d '{"username":"webhook-reader","password":"webhook walkthrough"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["ckWebAuthToken"])')
curl -sf -X POST "$base_url/database/1/$container/development/private/records/modify?ckAPIToken=$api_token" \
  -H "Authorization: Bearer $session" \
  -d '{"operations":[{"operationType":"create","record":{"recordType":"Note","recordName":"hello-webhooks","fields":{"text":{"value":"hi"}}}}]}' > /dev/null

for _ in $(seq 1 100); do
  grep -q "record.saved hello-webhooks" "$work/receiver.log" && break
  sleep 0.2
done
expect "record.saved hello-webhooks" "$(cat "$work/receiver.log")"

# A forged delivery: the receiver answers 401 and prints nothing.
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$hook_port/hook" -H "webhook-id: evt_0_1" \
  -H "webhook-timestamp: $(date +%s)" -H "webhook-signature: v1,AAAA" -d '{"type":"record.saved","data":{"recordName":"forged"}}')
[ "$status" = 401 ] || { echo "a forged delivery was answered $status"; exit 1; }
! grep -q forged "$work/receiver.log" || { echo "the receiver accepted a forged delivery"; exit 1; }
echo "webhooks: docs/webhooks.md's receiver heard a signed record.saved and refused a forged delivery"

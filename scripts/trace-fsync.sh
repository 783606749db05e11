#!/usr/bin/env bash
# Counts the fsync/fdatasync calls the server makes over single-record saves, with strace
# attached to a real `stratus serve`: every acknowledged commit must reach the disk before its
# answer, so there is at least one per save. Prints `figure fsyncs_per_save N` for bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v strace >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq strace
fi
source scripts/lib/walkthrough.sh
need_products stratus
saves=${SAVES:-40}
start_server "$work/data"
api=$api_token
base=$base_url
token=$(curl -s -X POST "$base/auth/1/iCloud.dev.stratus/development/signup?ckAPIToken=$api" \
  -d '{"username":"tracer","password":"tracer-password"}' | sed -n 's/.*"ckWebAuthToken":"\([^"]*\)".*/\1/p')
db="$base/database/1/iCloud.dev.stratus/development/private"
curl -s -o /dev/null -X POST "$db/records/modify?ckAPIToken=$api" -H "Authorization: Bearer $token" \
  -d '{"operations":[{"operationType":"create","record":{"recordName":"warm-up","recordType":"Note"}}]}'

strace -f -c -e trace=fsync,fdatasync -o "$work/strace.txt" -p "$server" 2>/dev/null &
tracer=$!
sleep 1
for i in $(seq 1 "$saves"); do
  answer=$(curl -s -X POST "$db/records/modify?ckAPIToken=$api" -H "Authorization: Bearer $token" \
    -d '{"operations":[{"operationType":"create","record":{"recordName":"n'"$i"'","recordType":"Note"}}]}')
  expect '"recordChangeTag"' "$answer"
done
sleep 0.5
kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
calls=$(awk '$NF=="fsync" || $NF=="fdatasync" {sum += $4} END {print sum+0}' "$work/strace.txt")
echo "$saves acknowledged single-record saves: $calls fsync/fdatasync calls"
python3 -c "print('figure fsyncs_per_save %.2f' % ($calls / $saves))"

#!/usr/bin/env bash
# Runs the README's curl quickstart verbatim against a fresh server and checks what it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_products stratus
start_server "$work/stratus-data"

# The README's block, with its data directory and port pointed at this server.
readme_block quickstart \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$port#; s#--data ./stratus-data#--data $work/stratus-data#; s#.build/release/stratus#$PWD/.build/debug/stratus#" \
  > "$work/quickstart.sh"
(cd "$work" && bash -e -o pipefail quickstart.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "quickstart failed"; exit 1; }
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"
out=$(cat "$work/out.txt")
for expected in '"zoneName":"Notes"' '"recordName":"note-1"' '"moreComing":false' '"serverErrorCode":"CONFLICT"' '"serverRecord"' '"type":"ASSETID"' 'download matches'; do
  expect "$expected" "$out"
done
echo "README quickstart: ok"

#!/usr/bin/env bash
# Runs the README's curl quickstart verbatim against a fresh server and checks what it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$PWD/.build/debug/stratus"
[ -x "$binary" ] || swift build --product stratus

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)
"$binary" serve --data "$work/stratus-data" --port "$port" --log-level error > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do grep -q ckAPIToken "$work/server.log" && break; sleep 0.2; done

# The README's block, with its data directory and port pointed at this server.
sed -n '/<!-- quickstart -->/,/<!-- \/quickstart -->/p' README.md | sed '1,2d;$d' | sed '$d' \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$port#; s#--data ./stratus-data#--data $work/stratus-data#; s#.build/release/stratus#$binary#" \
  > "$work/quickstart.sh"
(cd "$work" && bash -e -o pipefail quickstart.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "quickstart failed"; exit 1; }
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"

for expected in '"zoneName":"Notes"' '"recordName":"note-1"' '"moreComing":false' '"serverErrorCode":"CONFLICT"' '"serverRecord"' '"type":"ASSETID"' 'download matches'; do
  grep -q "$expected" "$work/out.txt" || { cat "$work/out.txt"; echo "quickstart output lacks $expected"; exit 1; }
done
echo "README quickstart: ok"

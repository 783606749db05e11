#!/usr/bin/env bash
# Follows the README's Shopping walkthrough against a fresh server: Alice shares a list with Bob,
# both edit, both see the same list; Bob leaves.
set -euo pipefail
cd "$(dirname "$0")/.."
stratus="$PWD/.build/debug/stratus"
shopping="$PWD/.build/debug/shopping"
{ [ -x "$stratus" ] && [ -x "$shopping" ]; } || { swift build --product stratus && swift build --product shopping; }

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 18082)
"$stratus" serve --data "$work/data" --port "$port" --log-level error > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do grep -q ckAPIToken "$work/server.log" && break; sleep 0.2; done
expect() { grep -qF -- "$1" <<< "$2" || { echo "expected '$1' in: $2"; exit 1; }; }

# The README's block, with its data directory and port pointed at this server.
sed -n '/<!-- shopping -->/,/<!-- \/shopping -->/p' README.md | sed '1,2d;$d' | sed '$d' \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$port#; s#--data ./stratus-data#--data $work/data#; s#.build/release/stratus #$stratus #; s#.build/debug/shopping#$shopping#; s#Examples/Shopping/Shopping.ckdb#$PWD/Examples/Shopping/Shopping.ckdb#" \
  > "$work/walkthrough.sh"
(cd "$work" && bash -e -o pipefail walkthrough.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "walkthrough failed"; exit 1; }
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"
out=$(cat "$work/out.txt")
expect "[ ] milk" "$out"
expect "[x] bread" "$out"
expect "bob joined" "$out"
expect "bob left" "$out"
echo "Shopping walkthrough: ok"

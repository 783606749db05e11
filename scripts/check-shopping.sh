#!/usr/bin/env bash
# Runs docs/examples.md's Shopping walkthrough against a fresh server: Alice shares a list with Bob,
# both edit, both see the same list; Bob leaves; Alice restores the list to before a mistake; Bob
# publishes a product to the public catalogue and Alice's device lists it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_products stratus shopping
start_server "$work/data"

# The block, with its data directory and port pointed at this server.
doc_block shopping docs/examples.md \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$port#; s#--data ./stratus-data#--data $work/data#; s#.build/release/stratus #$PWD/.build/debug/stratus #; s#.build/debug/shopping#$PWD/.build/debug/shopping#; s#Examples/Shopping/Shopping.ckdb#$PWD/Examples/Shopping/Shopping.ckdb#" \
  > "$work/walkthrough.sh"
(cd "$work" && bash -e -o pipefail walkthrough.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "walkthrough failed"; exit 1; }
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"
out=$(cat "$work/out.txt")
expect "[ ] milk" "$out"
expect "[x] bread" "$out"
expect "bob joined" "$out"
expect "bob left" "$out"
expect "0 entries brought back, 1 removed" "$out"
after=$(printf '%s\n' "$out" | sed -n '/1 removed/,$p')
expect "[x] bread" "$after"
if grep -q "a mistake" <<<"$after"; then echo "the restore left 'a mistake' on the list"; exit 1; fi
expect "Cereal: Porridge oats" "$out"
echo "Shopping walkthrough: ok"

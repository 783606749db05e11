#!/usr/bin/env bash
# Runs docs/upgrading.md's block verbatim against a running server and checks what it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_products stratus
start_server "$work/stratus-data"

doc_block upgrade docs/upgrading.md | sed "s#^stratus #$PWD/.build/debug/stratus #" > "$work/upgrade.sh"
(cd "$work" && bash -e -o pipefail upgrade.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "the upgrade block failed"; exit 1; }
[ -z "${VERBOSE:-}" ] || cat "$work/out.txt"
out=$(cat "$work/out.txt")
for expected in 'every migration applied' '0 error(s)' 'backup'; do
  expect "$expected" "$out"
done
[ -f "$work/before-upgrade/manifest.json" ] || { echo "no manifest in the backup"; exit 1; }
[ -f "$work/stratus-data-restored/stratus.sqlite" ] || { echo "nothing restored"; exit 1; }
echo "docs/upgrading.md: ok"

#!/usr/bin/env bash
# The client modules' documentation: each DocC catalog builds with warnings as errors (a broken
# symbol link, an undocumented parameter), and every public declaration has a doc comment.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(StratusClient StratusSync StratusData StratusTesting)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One invocation for all four: the plugin extracts their symbols in one build (half the time of four).
if ! swift package generate-documentation $(printf -- '--target %s ' "${modules[@]}") --warnings-as-errors >"$log" 2>&1; then
    grep -vE "found [0-9]+ file\(s\) which are unhandled|^ +/" "$log" >&2
    echo "error: the documentation of ${modules[*]} does not build cleanly" >&2
    exit 1
fi
graphs=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p')
python3 scripts/lib/undocumented.py "$graphs" "${modules[@]}"
echo "docs: ${modules[*]} build with warnings as errors; every public declaration is documented"

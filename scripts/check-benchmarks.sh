#!/usr/bin/env bash
# The rules that keep benchmark figures comparable across commits, checked over the whole history:
# - a commit that changes a baseline (Benchmarks/StratusBench/Baselines/) changes nothing under Sources/,
#   so a baseline never moves together with the code it judges;
# - a commit that changes Benchmarks/targets.txt only tightens targets (none dropped or loosened).
set -euo pipefail
cd "$(dirname "$0")/.."
baselines=Benchmarks/StratusBench/Baselines
targets=Benchmarks/targets.txt
failed=0
for commit in $(git rev-list HEAD -- "$baselines"); do
  judged=$(git diff-tree --no-commit-id --name-only -r --root "$commit" -- Sources)
  if [ -n "$judged" ]; then
    echo "commit $(git log -1 --format='%h %s' "$commit") changes a baseline and the code it judges:"
    echo "$judged" | sed 's/^/  /'
    failed=1
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for commit in $(git rev-list HEAD -- "$targets"); do
  git show "$commit^:$targets" > "$work/old" 2>/dev/null || continue   # the file's first commit
  git show "$commit:$targets" > "$work/new" 2>/dev/null || { echo "commit $(git log -1 --format=%h "$commit") deletes $targets"; failed=1; continue; }
  if ! problems=$(python3 scripts/lib/bench_results.py check-targets "$work/old" "$work/new"); then
    echo "commit $(git log -1 --format='%h %s' "$commit") loosens $targets:"
    echo "$problems" | sed 's/^/  /'
    failed=1
  fi
done
[ "$failed" = 0 ] && echo "benchmark rules hold: baselines never changed with Sources/, targets only tightened"
exit "$failed"

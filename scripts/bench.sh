#!/usr/bin/env bash
# Builds release and runs every stratus-bench scenario (and scripts/trace-fsync.sh) several times, then
# writes one table to Benchmarks/RESULTS.md: each figure's minimum, median and maximum over the runs, its
# target and whether every run met it, and for a ratio the two absolute figures it divides. The table is
# then compared with the last committed one (the regression guard): every figure whose median is worse
# by more than the larger of the two tables' spreads is marked REGRESSION. A marked figure is fixed, or
# explained by measurement in the commit that publishes the table (its message names the figure).
# Run it before resolving any issue. Each run's full report is kept in Benchmarks/logs/SCENARIO.RUN.txt.
#
#   scripts/bench.sh                      every scenario, 3 runs each, RESULTS.md rewritten and compared
#   scripts/bench.sh --runs 5 push        only these scenarios (the table is printed, RESULTS.md kept)
#   scripts/bench.sh --compare            only compare RESULTS.md with the last committed one
#
# Directions and targets live in Benchmarks/targets.txt (targets may only be tightened); baselines in
# Benchmarks/StratusBench/Baselines/ (never changed with Sources/): scripts/check-benchmarks.sh checks both.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
compare_only=false
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --compare) compare_only=true; shift ;;
    *) scenarios+=("$1"); shift ;;
  esac
done
all=(server query assets sync push requests identity store hostile keys encryption history public webhooks fsync postgres)
[ ${#scenarios[@]} -gt 0 ] || scenarios=("${all[@]}")
results=Benchmarks/RESULTS.md
tool="python3 scripts/lib/bench_results.py"

# Compares a table with the last committed RESULTS.md; prints the comparison (its status: 1 when a figure
# regressed).
compare() {
  local published
  published=$(mktemp)
  if ! git show HEAD:"$results" > "$published" 2>/dev/null; then
    echo "no committed $results to compare with"; rm -f "$published"; return 0
  fi
  local status=0
  echo "## Against the last published table (commit $(git log -1 --format=%h -- "$results"))"
  echo
  $tool compare --targets Benchmarks/targets.txt "$published" "$1" || status=$?
  rm -f "$published"
  return "$status"
}

if $compare_only; then
  compare "$results"
  exit
fi

scripts/install-deps.sh
swift build -c release --product stratus-bench
bench=".build/release/stratus-bench"
mkdir -p Benchmarks/logs

# The postgres scenario: the server and push benchmarks on a PostgreSQL server started here (durable
# settings, a temporary directory, a free port).
postgres_scenario() {
  source scripts/lib/postgres.sh
  start_postgres durable
  timeout "$limit" "$bench" server --backend postgres --database "$POSTGRES_URL"
  timeout "$limit" "$bench" push --backend postgres --database "$POSTGRES_URL"
  stop_postgres
}

# A scenario that runs longer than this (seconds) has hung: it fails the run instead of holding it.
limit=1800

# Runs interleave the scenarios (run 1 of each, then run 2 of each, …), so that a slow spell of the
# machine spreads over all of them instead of sinking one.
for run in $(seq 1 "$runs"); do
  for scenario in "${scenarios[@]}"; do
    echo "== run $run/$runs: stratus-bench $scenario"
    log="Benchmarks/logs/$scenario.$run.txt"
    case "$scenario" in
      fsync) scripts/trace-fsync.sh | tee "$log" ;;
      postgres) (postgres_scenario) | tee "$log" ;;
      *) timeout "$limit" "$bench" "$scenario" | tee "$log" ;;
    esac
  done
done

table=$(mktemp)
{
  echo "# Benchmark results"
  echo
  echo "Written by \`scripts/bench.sh --runs $runs\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, commit $(git rev-parse --short HEAD)."
  echo "Each figure's minimum, median and maximum over $runs runs; a target is met when every run meets it (\"edge\" when"
  echo "only some do). A ratio is measured against a baseline taken in the same run; the last column gives the medians"
  echo "of the two absolute figures it divides. Full reports are in \`Benchmarks/logs/\`."
  echo
  $tool table --targets Benchmarks/targets.txt --logs Benchmarks/logs --runs "$runs" "${scenarios[@]}"
} > "$table"

if [ "${scenarios[*]}" = "${all[*]}" ]; then
  comparison=$(compare "$table") || true
  { cat "$table"; echo; echo "$comparison"; } > "$results"
  cat "$results"
else
  cat "$table"
  echo
  compare "$table" || true
fi
rm -f "$table"

#!/usr/bin/env bash
# Builds release and runs every stratus-bench scenario (and scripts/trace-fsync.sh), then writes one table (figure, value,
# target) to Benchmarks/RESULTS.md. The figures of docs/benchmarks.md come from it. Run it before resolving
# any issue. Each scenario's full report is kept next to the table in Benchmarks/logs/.
#
#   scripts/bench.sh                 every scenario
#   scripts/bench.sh server hostile  only these
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(server query assets sync push store hostile fsync postgres)

swift build -c release --product stratus-bench
bench=".build/release/stratus-bench"
mkdir -p Benchmarks/logs

# The target of each figure; figures without one are shown for context.
declare -A target=(
  [modify_vs_sqlite]=">= 0.3" [changes_vs_sqlite]=">= 0.5"
  [modify_concurrent_16_vs_1]=">= 2.5" [single_save_p50_vs_no_group_commit]="<= 1.1"
  [query_1m_vs_1k]="<= 3"
  [asset_upload_vs_disk]=">= 0.5" [asset_download_vs_disk]=">= 0.5" [asset_rss_growth_mb]="< 20"
  [initial_sync_vs_server]=">= 0.5" [send_vs_server]=">= 0.5" [sync_peak_rss_mb]="<= 200"
  [push_p50_ms_1000]="<= 5" [push_p99_ms_1000]="<= 25" [kb_per_connection]="<= 30"
  [capture_overhead]="<= 1.5" [apply_records_per_s]=">= 50000" [capture_overhead_wal]="<= 1.5" [apply_records_per_s_wal]=">= 50000"
  [hostile_peak_rss_mib]="<= 300" [hostile_5xx]="= 0" [fsyncs_per_save]=">= 1"
  [pg_modify_vs_raw]=">= 0.3" [pg_changes_vs_raw]=">= 0.5" [two_instances_vs_one]=">= 0.9"
  [pg_push_p50_ms_1000]="<= 5" [pg_push_p99_ms_1000]="<= 25" [pg_push_across_p99_ms_1000]="<= 50"
)

# The postgres scenario: the server and push benchmarks on a PostgreSQL server started here (durable
# settings, a temporary directory, a free port).
postgres_scenario() {
  source scripts/lib/postgres.sh
  start_postgres durable
  "$bench" server --backend postgres --database "$POSTGRES_URL"
  "$bench" push --backend postgres --database "$POSTGRES_URL"
  stop_postgres
}

meets() { # value, target → "yes" / "no"
  python3 - "$1" "$2" <<'PY'
import sys
value, target = float(sys.argv[1]), sys.argv[2].split()
op, bound = target[0], float(target[1])
ok = {">=": value >= bound, "<=": value <= bound, "<": value < bound, "=": value == bound}[op]
print("yes" if ok else "no")
PY
}

rows=()
for scenario in "${scenarios[@]}"; do
  echo "== stratus-bench $scenario"
  log="Benchmarks/logs/$scenario.txt"
  case "$scenario" in
    fsync) scripts/trace-fsync.sh | tee "$log" ;;
    postgres) postgres_scenario | tee "$log" ;;
    *) "$bench" "$scenario" | tee "$log" ;;
  esac
  while read -r _ name value; do
    goal="${target[$name]:-}"
    if [ -n "$goal" ]; then
      rows+=("| $scenario | \`$name\` | $value | $goal | $(meets "$value" "$goal") |")
    else
      rows+=("| $scenario | \`$name\` | $value | | |")
    fi
  done < <(grep '^figure ' "$log")
done

{
  echo "# Benchmark results"
  echo
  echo "Written by \`scripts/bench.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, commit $(git rev-parse --short HEAD)."
  echo "Ratios are measured against baselines taken in the same run; full reports are in \`Benchmarks/logs/\`."
  echo
  echo "| scenario | figure | value | target | met |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} > Benchmarks/RESULTS.md
cat Benchmarks/RESULTS.md

#!/usr/bin/env bash
# Fuzzes Stratus's input readers with libFuzzer under AddressSanitizer: the JSON parser, every
# request body the server reads, the schema text parser, query continuation markers and sync
# tokens (Reliability/FuzzTargets). Each target starts from its corpus in Reliability/Corpus and
# keeps what it finds in .build/fuzz/corpus; a failing input is saved in .build/fuzz/crashes and
# the script exits non-zero. `stratus-fuzz TARGET FILE` in an ordinary build replays one.
#
#   scripts/fuzz.sh --minutes 5            every target for 5 minutes (default 1)
#   scripts/fuzz.sh --runs 2000000         every target for 2,000,000 executions
#   scripts/fuzz.sh --target json          one target
#   scripts/fuzz.sh --merge                add inputs that reach new code to Reliability/Corpus
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=1 runs="" merge=0 targets=(json request schema marker token)
while (($#)); do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --target) targets=("$2"); shift 2 ;;
        --merge) merge=1; shift ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

scripts/install-deps.sh
scratch=.build/fuzz
swift build --product stratus-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -v "ld.gold: warning" || true
fuzzer="$scratch/debug/stratus-fuzz"
test -x "$fuzzer"

# Swift's own crash reporter would race the sanitizer's; libFuzzer reports failures itself.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
mkdir -p "$scratch/crashes"
limit=(-max_total_time=$((minutes * 60)))
[[ -n "$runs" ]] && limit=(-runs="$runs")

failed=0 total=0
printf '%-8s %12s %8s %8s %s\n' target executions exec/s corpus result
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    mkdir -p "$corpus"
    log="$scratch/$target.log"
    status=0
    "$fuzzer" "$target" "${limit[@]}" -max_len=16384 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$scratch/crashes/$target-" "$corpus" "Reliability/Corpus/$target" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    size=$(find "$corpus" -type f | wc -l)
    result=ok
    if ((status != 0)); then result="FAILED (see $log)"; failed=1; fi
    total=$((total + ${executions:-0}))
    printf '%-8s %12s %8s %8s %s\n' "$target" "${executions:-?}" "$(( ${executions:-0} / (${seconds:-1} > 0 ? ${seconds:-1} : 1) ))" "$size" "$result"
    if ((merge && status == 0)); then
        "$fuzzer" "$target" -merge=1 "Reliability/Corpus/$target" "$corpus" >>"$log" 2>&1
    fi
done
printf '%-8s %12s\n' total "$total"
exit $failed

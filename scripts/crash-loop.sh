#!/usr/bin/env bash
# Kills a real `stratus serve` with SIGKILL at random moments while 8 clients send atomic batches,
# restarts it on the same files each time, and checks that no batch is torn, no acknowledged batch
# is lost and a change feed followed across the crashes misses nothing. Exits non-zero on any
# violation, printing the seed that replays the kill schedule.
#
#   scripts/crash-loop.sh                      1,000 kills that hit a batch in flight
#   scripts/crash-loop.sh --kills 50 --seed 7  any option of `stratus-sim crash-loop`
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product stratus
swift build -c release --product stratus-sim
exec .build/release/stratus-sim crash-loop "$@"

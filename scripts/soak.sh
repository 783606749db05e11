#!/usr/bin/env bash
# Runs a real `stratus serve` under a steady mix of saves, lookups, change-feed reads, asset uploads
# and 20 push listeners (200 requests/s by default) and prints, each minute, the requests, errors,
# p50/p99 latency, the server's RSS and open file descriptors; at the end the RSS slope and p99 drift
# after warm-up. Exits non-zero if any request failed.
#
#   scripts/soak.sh                  30 minutes
#   scripts/soak.sh --minutes 5      any option of `stratus-sim soak`
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product stratus
swift build -c release --product stratus-sim
exec .build/release/stratus-sim soak "$@"

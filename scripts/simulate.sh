#!/usr/bin/env bash
# Runs the seeded simulation: scenarios of 3 users with 2 devices each (a SyncEngine app and a
# StratusData app) editing, creating and deleting (with assets and cascades), sharing zones (invites,
# permission changes, accepts, leaves, removals), through dropped requests, answers lost after
# commit, throttling, oversized batches, offline spells, app kills, expired change tokens and, one
# scenario in ten, a real `stratus serve` killed with SIGKILL; after each, the invariants (nothing
# lost, nothing duplicated or resurrected, no leaks, every device equal to the server). A failure
# prints its seed and the shortest trace that still fails. Exits non-zero on any failure.
#
#   scripts/simulate.sh                   seeds 1 to 1,000
#   scripts/simulate.sh --seeds 50        any option of `stratus-sim simulate`
#   scripts/simulate.sh --seed 17         replay one seed, printing its trace
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product stratus
swift build -c release --product stratus-sim
[[ " $* " == *" --seeds "* || " $* " == *" --seed "* ]] || set -- --seeds 1000 "$@"
exec .build/release/stratus-sim simulate "$@"

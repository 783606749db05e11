#!/usr/bin/env bash
# Runs the seeded simulation through dropped requests, answers lost after commit, throttling,
# oversized batches, offline spells, app kills, expired change tokens and, one scenario in ten, a real
# `stratus serve` killed with SIGKILL; after each, the invariants (nothing lost, nothing duplicated or
# resurrected, no leaks, every device equal to the server, no device wedged). A failure prints its
# seed and the shortest trace that still fails. Exits non-zero on any failure.
#   --app generic (the default): 3 users with 2 devices each (a SyncEngine app and a StratusData app)
#     editing, creating and deleting (with assets and cascades), sharing zones (invites, permission
#     changes, accepts, leaves, removals);
#   --app notes: 2 users with 3 devices each of the Notes app as it ships (NoteDevice), editing the note
#     and restoring its previous version from the server's history while others edit, some offline;
#   --app shopping: 2 users with 2 devices each of the Shopping app as it ships (ShoppingDevice), each
#     user's list shared read-write with the other: adds, checks, deletes, renames, compactions, weeks passing,
#     and one list restored by its owner to a moment before its compaction (entries deleted and undeleted).
#
#   scripts/simulate.sh                          seeds 1 to 1,000 (generic)
#   scripts/simulate.sh --app notes              seeds 1 to 1,000 of the Notes app
#   scripts/simulate.sh --seeds 50               any option of `stratus-sim simulate`
#   scripts/simulate.sh --app shopping --seed 17 replay one seed, printing its trace
#   scripts/simulate.sh --app notes --seeds 20 --reverting-fix
#                                                the Notes wedge put back: passes only if it is found
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product stratus
swift build -c release --product stratus-sim
[[ " $* " == *" --seeds "* || " $* " == *" --seed "* ]] || set -- --seeds 1000 "$@"
exec .build/release/stratus-sim simulate "$@"

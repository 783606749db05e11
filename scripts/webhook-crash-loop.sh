#!/usr/bin/env bash
# The crash loop with webhooks: kills a real `stratus serve` with SIGKILL at random moments while 8
# clients send atomic batches and the server delivers every commit to a webhook receiver in the
# loop's process; checks the crash loop's invariants and that every committed record was delivered
# at least once, in commit order, signed, and no refused batch was (scripts/crash-loop.sh --webhooks).
#
#   scripts/webhook-crash-loop.sh                      1,000 kills that hit a batch in flight
#   scripts/webhook-crash-loop.sh --kills 50 --seed 7  any option of `stratus-sim crash-loop`
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/crash-loop.sh --webhooks "$@"

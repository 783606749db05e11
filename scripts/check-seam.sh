#!/usr/bin/env bash
# The storage seam's bars (docs/architecture.md): store protocols of at most 15 requirements, no
# driver named above Storage/, the drivers' size, no wall-clock read outside ServerClock.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/lib/seam.py

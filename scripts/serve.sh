#!/usr/bin/env bash
# Runs the Stratus server: embedded SQLite in ./stratus-data, http://127.0.0.1:8080.
# Extra arguments go to `stratus serve` (see `--help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product stratus
exec .build/release/stratus serve "$@"

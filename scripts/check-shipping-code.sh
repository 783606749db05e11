#!/usr/bin/env bash
# Nothing test-only in the libraries apps and servers link: no process killing, no fixed bug put back, no hook
# "for benchmarks". Crash moments and restored bugs reach the sync through StratusSync's package-access
# SyncHarness, which StratusHarness (linked only by tests and tools) implements.
set -euo pipefail
cd "$(dirname "$0")/.."
libraries=(StratusCore StratusClient StratusSync StratusData StratusServer StratusSQLite StratusPostgreSQL)
if grep -rniE 'SIGKILL|reverted ?fix|revertedfix|crash ?point|for benchmarks' "${libraries[@]/#/Sources/}"; then
  echo "error: test-only code in a library target (above)" >&2
  exit 1
fi
echo "shipping code: no SIGKILL, reverted fix, crash point or benchmark hook in ${libraries[*]}"

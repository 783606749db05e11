#!/usr/bin/env bash
# Runs the server test suite against a real PostgreSQL server (started here, on a free port, in a
# temporary directory): every test's server keeps its data in a database of its own. Tests that are
# about SQLite itself (its pragmas, group commit, file size limits, backups of the file) run on
# SQLite only. Fails if no test ran. Expects a debug build (swift build --build-tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
start_postgres
log=$(mktemp)
STRATUS_TEST_POSTGRES="$POSTGRES_URL" swift test --skip-build --filter StratusServerTests 2>&1 | tee "$log" | grep -E "✘|Test run" || true
ran=$(grep -oE "Test run with [0-9]+ tests" "$log" | grep -oE "[0-9]+" || echo 0)
if [ "$ran" -eq 0 ]; then echo "error: the PostgreSQL suite ran no tests" >&2; exit 1; fi
grep -q "✘" "$log" && { echo "error: tests failed on PostgreSQL" >&2; exit 1; }
echo "PostgreSQL suite: $ran tests passed"

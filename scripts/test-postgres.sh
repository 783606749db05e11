#!/usr/bin/env bash
# Runs the server, client, sync and data test suites against a real PostgreSQL server (started here,
# on a free port, in a temporary directory): every test's server (TestServer, TestCloud) keeps its data
# in a database of its own. Tests that are
# about SQLite itself (its pragmas, group commit, file size limits, backups of the file) run on
# SQLite only. Fails if no test ran, and fails (naming the tests still running and printing every
# thread's stack) if the suite is not over within STRATUS_POSTGRES_SUITE_LIMIT seconds (default
# 1,200; it takes about 2.5 minutes here). Expects a debug build (swift build --build-tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
start_postgres
log=$(mktemp)
limit=${STRATUS_POSTGRES_SUITE_LIMIT:-1200}

# In parallel, like the SQLite suite (about 2.5 minutes here), but at most six tests at a time: each
# test runs a server and a database of its own, and with every test started at once a CI run starved
# some for minutes (a 4-second test hit its HTTP client's 60-second deadline, three process-spawning
# tests their 2-minute limits). Six at a time takes no longer in all. Two earlier runs hung here: a
# push WebSocket client lost the server's close and its end of input together (they arrived in one
# read with the 101 response, a swift-websocket bug), so its socket sat in CLOSE-WAIT; the tests'
# client now abandons a silent connection and tries again (PushBoundsTests.connect). The connection it
# abandons may never have sent its request: the server closes such a connection at its idle timeout, and
# at once when it shuts down (FirstRequestDeadline); before, it held the test server's shutdown for ever.
STRATUS_TEST_POSTGRES="$POSTGRES_URL" swift test --skip-build \
  --filter "StratusServerTests|StratusClientTests|StratusSyncTests|StratusDataTests" \
  --experimental-maximum-parallelization-width 6 >"$log" 2>&1 &
suite=$!
waited=0
while kill -0 "$suite" 2>/dev/null && [ "$waited" -lt "$limit" ]; do sleep 5; waited=$((waited + 5)); done
if kill -0 "$suite" 2>/dev/null; then
  echo "error: the PostgreSQL suite is still running after ${limit} s; tests not finished:" >&2
  comm -23 <(grep -oE "Test [A-Za-z0-9_]+\(\) started" "$log" | awk '{print $2}' | sort -u) \
           <(grep -oE "Test [A-Za-z0-9_]+\(\) (passed|failed)" "$log" | awk '{print $2}' | sort -u) >&2
  tests=$(pgrep -f StratusPackageTests.xctest | head -1 || true)
  if [ -n "$tests" ] && command -v gdb >/dev/null; then
    gdb -p "$tests" -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E "^Thread|^#" >&2 || true
  fi
  tail -40 "$log" >&2
  pkill -KILL -f StratusPackageTests.xctest || true
  kill "$suite" 2>/dev/null || true
  exit 1
fi
wait "$suite" || true
grep -E "✘" "$log" || true
ran=$(grep -oE "Test run with [0-9]+ tests" "$log" | grep -oE "[0-9]+" || echo 0)
if [ "$ran" -eq 0 ]; then echo "error: the PostgreSQL suite ran no tests" >&2; tail -40 "$log" >&2; exit 1; fi
grep -q "✘" "$log" && { echo "error: tests failed on PostgreSQL" >&2; exit 1; }
echo "PostgreSQL suite: $ran tests passed"

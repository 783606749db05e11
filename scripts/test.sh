#!/usr/bin/env bash
# Builds everything and runs the whole test suite, then runs the README's and the guides' blocks (the
# curl quickstart, the walkthroughs, deployment, operations) against real servers.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every step below is named on standard error with the time it starts, and has a time limit (in
# seconds, about five times what it takes here), so a step that hangs fails the run by name.
# A step that fails says so on standard output too, so that a log cut to its last lines names it.
# When the run ends, however it ends, each step's duration and the total are printed on standard output.
# (Durations go to a file: a step piped into tail runs in a subshell.)
# With --quick, only the build and the unit and in-process suites on SQLite (`swift test`): what a developer
# runs after a change, in minutes; the build's and the tests' times are printed apart. CI runs it all.
quick=false
[ "${1:-}" = --quick ] && quick=true
started=$SECONDS
times=$(mktemp)
step() {
  local limit=$1; shift; echo "== $(date -u +%H:%M:%S) $*" >&2
  local status=0 begun=$SECONDS
  timeout --kill-after=30 "$limit" "$@" || status=$?
  printf '%6d s  %s%s\n' $((SECONDS - begun)) "$*" "$([ "$status" = 0 ] || echo "  (FAILED, exit $status)")" >> "$times"
  [ "$status" = 0 ] || { echo "== FAILED (exit $status): $*"; echo "== FAILED (exit $status): $*" >&2; }
  return "$status"
}
report_times() {
  echo "== step times"
  cat "$times"; rm -f "$times"
  printf '%6d s  total (%d min)\n' $((SECONDS - started)) $(((SECONDS - started + 59) / 60))
}
trap report_times EXIT
scripts/install-deps.sh
# Python packages the tests use (a real SMTP server for email verification, fido2 for passkeys, schemathesis, selenium).
python3 -c 'import aiosmtpd, fido2, schemathesis, selenium' 2>/dev/null || python3 -m pip install -q -r requirements.txt
step 2400 swift build --build-tests
if $quick; then
  step 1200 swift test --skip-build --experimental-maximum-parallelization-width 8
  exit
fi
step 120 scripts/check-portability.sh
# The storage seam's bars (docs/architecture.md): store protocols, no driver above Storage/, the drivers' size, one clock.
step 60 scripts/check-seam.sh
# The benchmark rules (baselines never changed with the code they judge, targets only tightened) and the
# regression guard's own tests.
step 60 scripts/check-benchmarks.sh
step 60 python3 -m unittest discover -s scripts/lib -p 'test_*.py'
# What an iOS app and its test target build, computed from the manifests: no SwiftNIO, AsyncHTTPClient,
# Hummingbird or postgres-nio for the app, no postgres-nio for TestCloud.
step 120 scripts/check-app-dependencies.sh
step 30 scripts/check-shipping-code.sh
step 900 scripts/check-docs.sh
# At most eight tests at a time: with every test started at once, two cores starved the ones that bound how
# long something may take (ShutdownTests' one-minute guards, rate-limiter refills, five-second URL
# lifetimes) into failing; eight at a time passed 431 of 431 here in 106 s against 144 s with all at once.
step 1200 swift test --skip-build --experimental-maximum-parallelization-width 8
# The transport slice: the client, sync and data suites again with their clouds' containers on URLSessionTransport
# (through FoundationNetworking), the default transport on Apple platforms.
step 600 env STRATUS_TEST_TRANSPORT=urlsession swift test --skip-build --experimental-maximum-parallelization-width 8 \
  --filter "StratusClientTests|StratusSyncTests|StratusDataTests"
# The server, client, sync and data suites again on a real PostgreSQL server (started by the script, in a temporary directory).
step 1500 scripts/test-postgres.sh
# A slice of the crash loop: the real server killed mid-batch 20 times (scripts/crash-loop.sh runs 1,000),
# and once with a record removed behind its back, which the checks must report.
step 900 .build/debug/stratus-sim crash-loop --kills 20 --seed 20261123 | tail -4
step 300 .build/debug/stratus-sim crash-loop --kills 2 --seed 1 --self-test | tail -1
# A slice of the webhook crash loop: 10 kills while every commit is delivered to a receiver in the loop's
# process (scripts/webhook-crash-loop.sh runs 1,000); about 45 s here.
step 600 .build/debug/stratus-sim crash-loop --kills 10 --seed 20261201 --webhooks | grep -E "^webhooks|^torn"
# A slice of the seeded simulation: 30 fixed seeds, about 2 minutes in a debug build here (scripts/simulate.sh
# runs 1,000; 45 until the CI run neared its 45-minute budget), and a self-test in which a device is tampered with behind the sync's back, which the
# invariants must report.
step 1500 .build/debug/stratus-sim simulate --seeds 30 --first-seed 1 | tail -8
step 300 .build/debug/stratus-sim simulate --seeds 1 --first-seed 1 --self-test | grep self-test
# The example apps as they ship in the simulation: 20 seeds of Notes and 12 of Shopping (a Shopping seed
# takes three times a Notes one; scripts/simulate.sh --app notes|shopping runs 1,000), and the Notes wedge put back by a harness only tools link (StratusHarness), which the
# Notes slice must find (a device wedged).
step 900 .build/debug/stratus-sim simulate --app notes --seeds 20 --first-seed 1 | tail -8
step 900 .build/debug/stratus-sim simulate --app shopping --seeds 12 --first-seed 1 | tail -8
step 600 .build/debug/stratus-sim simulate --app notes --seeds 5 --first-seed 1 --reverting-fix | tail -1
# A slice of the soak: 30 seconds at 100 requests/s, which must all succeed (scripts/soak.sh runs 30 minutes).
step 300 .build/debug/stratus-sim soak --minutes 0.5 --rate 100 --report-every 10 --warm-up 0 --seed 20261123 | grep -E "^requests|errors"
# The published API description against a real server: schemathesis with 10 examples per operation
# (scripts/schemathesis.sh runs 100).
step 1200 scripts/schemathesis.sh --examples 10 | grep -E "generated|issues found|failures"
step 600 scripts/check-quickstart.sh
# Every block of the README and the guides is marked and run (Tests/GuideTests runs the Swift ones in swift test
# above); this runs the TLS, operations and PostgreSQL blocks no walkthrough below runs.
step 600 scripts/check-guides.sh
step 600 scripts/check-upgrading.sh
step 600 scripts/check-notes.sh
step 600 scripts/check-shopping.sh
# docs/webhooks.md's blocks: `webhook add` and the Python receiver against a real server (about 2 s).
step 120 scripts/check-webhooks.sh
# Stratus behind Debian's nginx: the quickstart, an asset round trip and a push over the proxied WebSocket.
step 600 scripts/check-nginx.sh
# The web console in headless Chromium (Selenium and Debian's chromedriver): sign-in, containers, a record,
# a query, an edit and a conflict, a user deleted, CSRF refused, a narrow window.
step 900 scripts/check-console.sh
# The web example in headless Chromium: sign-in through the popup and a whole-page redirect, notes saved,
# queried and synced from another client, a file uploaded, notifications heard, a narrow window.
step 900 scripts/check-web.sh
# Passkeys made two independent ways against a real server: Chromium's virtual authenticator on the sign-in and
# account pages, and PyPI's fido2 building each algorithm's credentials and every bad one the server must refuse.
step 300 scripts/check-passkeys.sh
# OpenID Connect against a real provider from PyPI (nanoidp, which enforces PKCE): a native app's
# authorization-code flow handing its ID token to the server, and the web flow in Chromium on the sign-in and
# account pages.
step 300 scripts/check-oidc.sh
# The packaged binary (standard library linked statically) run with an empty environment outside the
# toolchain: the debug build above, its objects linked again statically (seconds, where the release build of
# scripts/package.sh takes 13 minutes cold here; scripts/bench.sh builds release before every resolved issue).
step 600 env STRATUS_PACKAGE_CONFIGURATION=debug scripts/check-package.sh

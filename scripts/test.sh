#!/usr/bin/env bash
# Builds everything and runs the whole test suite, then checks the README's curl quickstart and
# its Notes walkthrough against real servers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Python packages the tests use (a real SMTP server for email verification).
python3 -c 'import aiosmtpd' 2>/dev/null || python3 -m pip install -q -r requirements.txt
swift build --build-tests
swift test --skip-build
scripts/check-quickstart.sh
scripts/check-notes.sh
scripts/check-shopping.sh

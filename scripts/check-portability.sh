#!/usr/bin/env bash
# Every module builds for Apple platforms as well as Linux (what `swift build` on a Mac needs):
# no Linux-only import or call outside a Linux-only `#if` branch, in the server, the CLI, the
# testing module, the clients and the examples (scripts/lib/portability.py reads the `#if` blocks);
# Linux code inside such branches only in the files listed below. The client modules also use no
# underscored module (such as `_NIOFileSystem`), whose API may change under them.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# The files that hold guarded Linux code on purpose.
linux_files=(
    Sources/StratusClient/Transport/URLSessionTransport.swift
    Sources/StratusClient/Push/URLSessionPushSocket.swift
    Sources/StratusHarness/ProcessHarness.swift
    Sources/StratusTesting/ChildProcess.swift
    Sources/StratusServer/Storage/Blobs/FileBlobStore.swift
    Sources/StratusServer/Configuration/ServerConfiguration+Descriptors.swift
    Sources/StratusServer/HTTP/IPAddress.swift
    Sources/StratusServer/Services/Webhooks/WebhookAddressPolicy.swift
)
allow=()
for file in "${linux_files[@]}"; do allow+=(--allow "$file"); done
python3 scripts/lib/portability.py "${allow[@]}" Sources Examples || status=1
for module in StratusClient StratusSync StratusData StratusTesting; do
    if grep -rnE '^\s*import\s+_' "Sources/$module"; then
        echo "error: $module imports an underscored module" >&2; status=1
    fi
done
if swift package describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
bad = [name for name in ("StratusClient", "StratusSync", "StratusData", "StratusTesting")
       if any(d.startswith("_") for d in targets[name].get("product_dependencies", []))]
print("\n".join(bad)); sys.exit(1 if bad else 0)'; then :; else
    echo "error: a client target depends on an underscored product" >&2; status=1
fi
[ $status -eq 0 ] && echo "portability: no unguarded Linux-only API in Sources/ or Examples/ (Linux code in ${#linux_files[@]} listed files); client modules use no underscored module"
exit $status

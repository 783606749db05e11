#!/usr/bin/env bash
# The client modules build for Apple platforms as well as Linux: no underscored module (such as
# `_NIOFileSystem`), and no Glibc or FoundationNetworking import outside a `canImport` guard.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for module in StratusClient StratusSync StratusData StratusTesting; do
    if grep -rnE '^\s*import\s+_' "Sources/$module"; then
        echo "error: $module imports an underscored module" >&2; status=1
    fi
    # Each platform-only import must follow its `#if canImport(...)` line.
    while IFS=: read -r file line _; do
        previous=$(sed -n "$((line - 1))p" "$file")
        if ! grep -qE '^#(if|elseif) canImport\((Glibc|Darwin|FoundationNetworking)\)' <<<"$previous"; then
            echo "error: $file:$line imports a platform module outside a canImport guard" >&2; status=1
        fi
    done < <(grep -rnE '^\s*import\s+(Glibc|Darwin|FoundationNetworking)\b' "Sources/$module" || true)
done
if swift package describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
bad = [name for name in ("StratusClient", "StratusSync", "StratusData", "StratusTesting")
       if any(d.startswith("_") for d in targets[name].get("product_dependencies", []))]
print("\n".join(bad)); sys.exit(1 if bad else 0)'; then :; else
    echo "error: a client target depends on an underscored product" >&2; status=1
fi
[ $status -eq 0 ] && echo "portability: client modules use no underscored or unguarded platform API"
exit $status

#!/usr/bin/env bash
# Builds a release `stratus` with the Swift standard library and Foundation linked statically, so it
# runs on a machine without a Swift toolchain (it needs only glibc, libstdc++ and libsqlite3), and
# packs it with the LICENSE and the files of deploy/ into dist/stratus-VERSION-linux-ARCH.tar.gz.
# scripts/check-package.sh is the test of what this builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# A scratch path of its own: static linking is a different build from `swift build -c release`.
swift build -c release --product stratus --static-swift-stdlib --scratch-path .build/package
binary=.build/package/release/stratus
version=$("$binary" --version)
arch=$(uname -m)
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
name="stratus-$version-linux-$arch"
mkdir -p "$staging/$name" dist
cp "$binary" "$staging/$name/stratus"
strip "$staging/$name/stratus" 2>/dev/null || true
cp LICENSE deploy/stratus.service deploy/Containerfile "$staging/$name/"
tar -czf "dist/$name.tar.gz" -C "$staging" "$name"
cp "$staging/$name/stratus" dist/stratus
echo "dist/$name.tar.gz"

#!/usr/bin/env bash
# Builds a release `stratus` with the Swift standard library and Foundation linked statically, so it
# runs on a machine without a Swift toolchain (it needs only glibc, libstdc++ and libsqlite3), and
# packs it with the LICENSE and the files of deploy/ into dist/stratus-VERSION-linux-ARCH.tar.gz, beside
# its SHA-256 (….tar.gz.sha256, as sha256sum -c reads it) and this version's CHANGELOG.md entry
# (stratus-VERSION-CHANGES.md). One release build. scripts/check-package.sh is the test of what this builds.
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
(cd dist && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
# This version's entry: from its heading to the next release's.
awk -v heading="## [$version]" 'index($0, heading) == 1 { keep = 1; print; next } keep && /^## \[/ { exit } keep { print }' CHANGELOG.md \
  > "dist/stratus-$version-CHANGES.md"
[ -s "dist/stratus-$version-CHANGES.md" ] || { echo "package: CHANGELOG.md has no entry for $version"; exit 1; }
cp "$staging/$name/stratus" dist/stratus
echo "dist/$name.tar.gz"

#!/usr/bin/env bash
# Builds a release `stratus` with the Swift standard library and Foundation linked statically, so it
# runs on a machine without a Swift toolchain (it needs only glibc, libstdc++ and libsqlite3), and
# packs it with the LICENSE and the files of deploy/ into dist/stratus-VERSION-linux-ARCH.tar.gz, beside
# its SHA-256 (….tar.gz.sha256, as sha256sum -c reads it) and this version's CHANGELOG.md entry
# (stratus-VERSION-CHANGES.md). One release build. scripts/check-package.sh is the test of what this builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# STRATUS_PACKAGE_CONFIGURATION=debug packs the debug build instead, its objects linked again statically
# (seconds, where the release build takes 13 minutes cold here): scripts/test.sh checks the packaging that
# way, and scripts/bench.sh builds release before every resolved issue. A release is always release.
case "${STRATUS_PACKAGE_CONFIGURATION:-release}" in
  release)
    # A scratch path of its own: static linking is a different build from `swift build -c release`.
    swift build -c release --product stratus --static-swift-stdlib --scratch-path .build/package
    binary=.build/package/release/stratus ;;
  debug)
    # swiftc links the objects SwiftPM linked, as SwiftPM links them (the entry point renamed so that tests can
    # import the executable), into a path of its own. Not `swift build --static-swift-stdlib` in the debug
    # build's scratch path: that recompiles some dependencies against the static SDK and the next plain
    # `swift build` then fails to link them (cannot find -lCoreFoundation). Objects compiled against the
    # shared Foundation do not name its static parts, so they are named here (in the order they resolve).
    swift build --product stratus
    bin=$(swift build --show-bin-path)
    objects=$bin/stratus.product/Objects.LinkFileList
    [ -f "$objects" ] || { echo "package: SwiftPM left no object list at $objects"; exit 1; }
    mkdir -p .build/package-debug
    binary=.build/package-debug/stratus
    swiftc -static-stdlib -emit-executable -module-name stratus -o "$binary" @"$objects" -L "$bin" \
      -Xlinker --defsym -Xlinker main=stratus_main -lstdc++ -lm -lz \
      -lCoreFoundation -l_FoundationCShims -l_FoundationCollections -l_FoundationICU ;;
  *) echo "package: STRATUS_PACKAGE_CONFIGURATION is release or debug, not '$STRATUS_PACKAGE_CONFIGURATION'"; exit 1 ;;
esac
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

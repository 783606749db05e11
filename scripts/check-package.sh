#!/usr/bin/env bash
# The test of scripts/package.sh: runs docs/deploy.md's package block (the build and its checksum
# check), unpacks the archive outside the repository and the toolchain, checks that the binary loads no Swift library, then runs it with an empty environment
# (no PATH, no LD_LIBRARY_PATH): --version, and a server answering /healthz and /readyz. It also checks
# the systemd unit with systemd-analyze (when present) and that the Containerfile copies only what the
# package holds.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
doc_block package docs/deploy.md > "$work/package.sh"
bash -e -o pipefail "$work/package.sh" > "$work/package.txt" 2>&1 || { cat "$work/package.txt"; echo "package: the block of docs/deploy.md failed"; exit 1; }
archive=$(grep -m1 '^dist/stratus-.*\.tar\.gz$' "$work/package.txt") || { cat "$work/package.txt"; echo "package: no archive named"; exit 1; }
grep -q "$(basename "$archive"): OK" "$work/package.txt" || { echo "package: the block did not check the checksum"; exit 1; }
tar -xzf "$archive" -C "$work"
binary=$(ls "$work"/*/stratus)

if ldd "$binary" | grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch|libBlocksRuntime'; then
  echo "package: the binary loads Swift libraries"; exit 1
fi
version=$(cd "$work" && env -i "$binary" --version)
[ "$version" = "$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/StratusServer/StratusServer.swift)" ] \
  || { echo "package: --version printed '$version'"; exit 1; }
# The version in one place: the changelog's newest release, the README and the getting-started guide's Package.swift name it too.
newest=$(sed -n 's/^## \[\([0-9][^]]*\)\].*/\1/p' CHANGELOG.md | head -1)
[ "$newest" = "$version" ] || { echo "package: CHANGELOG.md's newest release is '$newest', the binary is $version"; exit 1; }
grep -qF "from: \"$version\")" docs/getting-started.md || { echo "package: docs/getting-started.md's Package.swift does not name $version"; exit 1; }
grep -qF "Version \`$version\`" README.md || { echo "package: the README's status does not name $version"; exit 1; }
# The checksum and the changelog entry beside the archive.
(cd "$(dirname "$archive")" && sha256sum -c --quiet "$(basename "$archive").sha256") || { echo "package: the checksum does not match"; exit 1; }
changes="$(dirname "$archive")/stratus-$version-CHANGES.md"
head -1 "$changes" | grep -qF "## [$version]" || { echo "package: $changes is not the $version entry"; exit 1; }
! grep -q '^## \[' <(tail -n +2 "$changes") || { echo "package: $changes holds more than one entry"; exit 1; }

(cd "$work" && exec env -i "$binary" serve --data "$work/data" --port "$port" --ready-json) > "$work/server.log" 2>&1 &
server=$!
wait_until_ready "$work/server.log" || { echo "package: the server did not start"; cat "$work/server.log"; exit 1; }
for probe in healthz readyz; do
  status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/$probe")
  [ "$status" = 200 ] || { echo "package: /$probe answered $status"; exit 1; }
done
kill -TERM "$server"
wait "$server" || { echo "package: the server did not stop cleanly on SIGTERM"; exit 1; }
server=""

if command -v systemd-analyze >/dev/null 2>&1; then
  # The unit as installed: its ExecStart pointed at the unpacked binary.
  sed "s#/usr/local/bin/stratus#$binary#" deploy/stratus.service > "$work/stratus.service"
  systemd-analyze verify "$work/stratus.service"
fi
for source in $(sed -n 's/^COPY \([^-][^ ]*\) .*/\1/p' deploy/Containerfile); do
  [ -e "$source" ] || { echo "package: the Containerfile copies $source, which is not there"; exit 1; }
done
echo "package: $(basename "$archive"), $(du -h "$binary" | cut -f1) binary, runs with an empty environment: ok"

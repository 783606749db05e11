#!/usr/bin/env bash
# The test of scripts/package.sh: builds the package, unpacks it outside the repository and the
# toolchain, checks that the binary loads no Swift library, then runs it with an empty environment
# (no PATH, no LD_LIBRARY_PATH): --version, and a server answering /healthz and /readyz. It also checks
# the systemd unit with systemd-analyze (when present) and that the Containerfile copies only what the
# package holds.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(scripts/package.sh | tail -1)
source scripts/lib/walkthrough.sh
tar -xzf "$archive" -C "$work"
binary=$(ls "$work"/*/stratus)

if ldd "$binary" | grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch|libBlocksRuntime'; then
  echo "package: the binary loads Swift libraries"; exit 1
fi
version=$(cd "$work" && env -i "$binary" --version)
[ "$version" = "$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/StratusServer/StratusServer.swift)" ] \
  || { echo "package: --version printed '$version'"; exit 1; }
# The version in one place: the changelog's newest release and the README's package snippet name it too.
newest=$(sed -n 's/^## \[\([0-9][^]]*\)\].*/\1/p' CHANGELOG.md | head -1)
[ "$newest" = "$version" ] || { echo "package: CHANGELOG.md's newest release is '$newest', the binary is $version"; exit 1; }
grep -qF "from: \"$version\")" README.md || { echo "package: the README's package snippet does not name $version"; exit 1; }
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

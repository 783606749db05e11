#!/usr/bin/env bash
# Installs the system packages Stratus builds against, when they are missing (Debian/Ubuntu).
set -euo pipefail

missing=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
dpkg -s curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} ..."
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "error: the Swift toolchain (6.1 or later) is not on PATH; install it from swift.org first." >&2
  exit 1
fi

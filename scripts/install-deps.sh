#!/usr/bin/env bash
# Installs the system packages Stratus builds against, when they are missing: with apt-get on
# Debian/Ubuntu (through sudo when not root). On macOS the system already has SQLite and curl, so it
# only checks for the Swift toolchain. Where it cannot install, it says exactly what to install.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "error: the Swift toolchain (6.1 or later) is not on PATH; install it from swift.org (on macOS, Xcode 16.3 or later) first." >&2
  exit 1
fi

case "$(uname -s)" in
  Darwin)
    command -v curl >/dev/null 2>&1 || { echo "error: curl is missing (brew install curl)" >&2; exit 1; }
    exit 0 ;;
  Linux) ;;
  *) echo "warning: $(uname -s) is untested; you need SQLite 3 with its headers and curl" >&2; exit 0 ;;
esac

if ! command -v dpkg >/dev/null 2>&1; then
  # Not Debian: check for the files rather than the packages.
  [ -e /usr/include/sqlite3.h ] || { echo "error: install SQLite's development files (sqlite-devel or libsqlite3-dev)" >&2; exit 1; }
  command -v curl >/dev/null 2>&1 || { echo "error: install curl" >&2; exit 1; }
  exit 0
fi

missing=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
dpkg -s curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "error: missing packages and no sudo to install them; as root run: apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "Installing ${missing[*]} ..."
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

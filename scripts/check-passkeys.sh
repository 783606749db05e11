#!/usr/bin/env bash
# Passkeys made two independent ways, against a real server over HTTP: headless Chromium's virtual
# authenticator signs up, signs in and confirms on the sign-in and "your account" pages
# (scripts/lib/passkey_browser.py), and PyPI's fido2 (Yubico) builds credentials of each algorithm and
# every bad one the server must refuse (scripts/lib/passkey_fido2.py), so the verifier is not only
# checked against the Swift test authenticator. Installs chromium, chromium-driver, selenium and
# fido2 when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_browser
python3 -c 'import fido2' 2>/dev/null || python3 -m pip install -q -r requirements.txt
new_data_directory

# Passkeys are made for localhost, a secure context over plain HTTP, at the server's own origin.
origin="http://localhost:$port"
"$stratus" container create --data "$data" --container "$container" >/dev/null
"$stratus" container web-origin add "$origin" --data "$data" --container "$container" >/dev/null
start_server "$data" --container "$container" --webauthn-rp-id localhost --webauthn-origin "$origin"
export STRATUS_URL="$origin" STRATUS_CONTAINER="$container" STRATUS_API_TOKEN="$api_token"
export WEB_SCREENSHOTS="${WEB_SCREENSHOTS:-$PWD/.build/passkey-screenshots}"
python3 scripts/lib/passkey_fido2.py
python3 scripts/lib/passkey_browser.py

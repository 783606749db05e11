#!/usr/bin/env bash
# OpenID Connect sign-in against a real provider from PyPI: nanoidp 3.4.0 (it enforces PKCE), on a free
# loopback port, registered with the server as the provider "nanoidp" (sign-up allowed). A native app's
# flow (scripts/lib/oidc_nanoidp.py) and the web flow in headless Chromium (scripts/lib/oidc_browser.py).
# GitHub's OAuth, and every bad input of each check, are tested by OpenIDTests (swift test) against a local
# provider that records the exchange. Installs chromium, selenium and nanoidp when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/walkthrough.sh
need_browser
python3 -c 'import nanoidp' 2>/dev/null || python3 -m pip install -q -r requirements.txt
new_data_directory

idp_port=$(free_port)
issuer="http://127.0.0.1:$idp_port"
python3 -m nanoidp init "$work/idp" >/dev/null
# Its issuer on this port, and PKCE required of every client.
python3 - "$work/idp/settings.yaml" "$issuer" "$idp_port" <<'PY'
import re, sys
path, issuer, port = sys.argv[1:]
text = open(path).read()
text = re.sub(r'issuer: "[^"]*"', f'issuer: "{issuer}"\n  require_pkce: true', text, count=1)
text = re.sub(r'port: \d+', f'port: {port}', text, count=1)
open(path, "w").write(text)
PY
python3 -m nanoidp --config "$work/idp" --host 127.0.0.1 --port "$idp_port" > "$work/idp.log" 2>&1 &
idp=$!
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; kill "$idp" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -sf "$issuer/.well-known/openid-configuration" >/dev/null && break
  sleep 0.2
done
curl -sf "$issuer/.well-known/openid-configuration" >/dev/null || { echo "nanoidp did not start"; cat "$work/idp.log"; exit 1; }

printf 'demo-secret\n' > "$work/idp-secret"
origin="http://127.0.0.1:$port"
"$stratus" container create --data "$data" --container "$container" >/dev/null
"$stratus" container web-origin add "$origin" --data "$data" --container "$container" >/dev/null
start_server "$data" --container "$container" \
  --oidc-provider "nanoidp issuer=$issuer client-id=demo-client client-secret-file=$work/idp-secret" --oidc-signup nanoidp
export STRATUS_URL="$origin" STRATUS_CONTAINER="$container" STRATUS_API_TOKEN="$api_token" OIDC_ISSUER="$issuer" OIDC_PROVIDER=nanoidp
export WEB_SCREENSHOTS="${WEB_SCREENSHOTS:-$PWD/.build/oidc-screenshots}"
python3 scripts/lib/oidc_nanoidp.py | tee "$work/native.log"
OIDC_NATIVE_USER=$(sed -n 's/^native user: //p' "$work/native.log") python3 scripts/lib/oidc_browser.py

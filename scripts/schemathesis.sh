#!/usr/bin/env bash
# Tests a real `stratus serve` against its published description, docs/openapi.yaml, with
# schemathesis: generated requests for every operation, valid and invalid, checked for server
# errors (5xx), undocumented status codes and content types, and responses that violate the
# described schemas. Exits non-zero on any failure.
#
#   scripts/schemathesis.sh                  100 examples per operation, every phase
#   scripts/schemathesis.sh --examples 10    a smaller run (CI's)
set -euo pipefail
cd "$(dirname "$0")/.."
examples=100
while (($#)); do
  case "$1" in
    --examples) examples="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done

# Examples saved by an earlier run (of an older description) can crash schemathesis: start clean.
rm -rf .hypothesis .schemathesis
scripts/install-deps.sh
python3 -c 'import schemathesis' 2>/dev/null || python3 -m pip install -q -r requirements.txt
source scripts/lib/walkthrough.sh
need_products stratus
# Long polls answer within 2 seconds, so a generated courier request never outwaits the client. Fresh
# proof lasts one second: generated requests cannot delete the signed-in account or change how it signs in
# (they are answered 421, fresh proof required), so every other operation keeps a session to run with.
# Passkeys are set up, so that their options' answers are checked against their schemas too.
start_server "$work/stratus-data" --courier-wait-seconds 2 --fresh-proof-seconds 1 --webauthn-rp-id localhost --webauthn-origin http://localhost:8765
base=$base_url
signup=$(curl -sf -X POST "$base/auth/1/$container/development/signup?ckAPIToken=$api_token" \
  -d '{"username":"schemathesis","password":"correct horse battery","discoverable":true}')
web_token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ckWebAuthToken"])' <<< "$signup")

# The generated requests go to the one container, as the signed-in user; a third of them to
# each database.
cat > "$work/schemathesis.toml" <<TOML
[parameters]
container = "$container"
[auth.openapi.apiToken]
api_key = "$api_token"
[auth.openapi.webAuthToken]
bearer = "$web_token"
TOML

# One worker: with two, schemathesis's own coverage phase crashed here now and then (a KeyError from
# Python's linecache, which its worker threads share), failing a run whose every check had passed.
run() {
  python3 -m schemathesis.cli --config-file "$work/schemathesis.toml" run docs/openapi.yaml --url "$base" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
    --max-examples "$examples" --request-timeout 10 --workers 1 --seed 1 --no-color "$@"
}
status=0
# Signing out (and changing the password or the email, and deleting the account, which a guessed
# password or a stale session cannot do) may end the session the other operations use, so they run on
# their own, last.
ending=(signOut signOutEverywhere signOutSession changePassword changeEmail deleteAccount)
run $(printf -- '--exclude-operation-id %s ' "${ending[@]}") || status=$?
run $(printf -- '--include-operation-id %s ' "${ending[@]}") || status=$?
exit $status

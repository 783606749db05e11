#!/usr/bin/env bash
# The README's and the guides' code blocks. Every block is marked and something runs it
# (scripts/lib/doc_blocks.py audit); the Swift blocks are what Tests/GuideTests compiles and runs
# (generate --check: swift test runs them); the guide's Package.swift loads; the README is at most 12 KB. Then this script runs the
# shell blocks no other check runs, each as written, in a directory of its own, with `stratus` the
# debug binary and `serve` given this run's port and started in the background:
#   docs/deploy.md      TLS served directly, with a certificate from a test authority
#   docs/scaling.md     two instances on one PostgreSQL database, a SQLite directory copied into
#                       another, a dump restored into a third (a PostgreSQL server started here)
#   docs/operations.md  the doctor, backup and restore, export and import, the development loop, an
#                       administrator for the console
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/lib/doc_blocks.py audit
python3 scripts/lib/doc_blocks.py generate --check
# The README is a front page: 12 KB at most; the rest is in docs/.
[ "$(wc -c < README.md)" -le 12288 ] || { echo "README.md is $(wc -c < README.md) bytes, above 12 KB"; exit 1; }
source scripts/lib/walkthrough.sh
source scripts/lib/postgres.sh
need_products stratus
bin="$PWD/.build/debug/stratus"

# The blocks' `stratus`: `serve` runs in the background on this run's port, announcing itself in
# $work/server.log; its process ID goes to $work/server.pid.
stratus() {
  if [ "$1" = serve ]; then
    "$bin" "$@" --port "$port" --ready-json --log-level error > "$work/server.log" 2>&1 &
    echo $! > "$work/server.pid"
  else
    "$bin" "$@"
  fi
}

# Runs the block $1 of the file $2 in the directory $3 (made if missing), after the sed script $4,
# in this shell, so that `set -e` stops at its first failing command and a server it starts is this
# shell's child. Its output goes to $work/$1.txt, which is printed if the script fails.
run_block() {
  mkdir -p "$3"
  doc_block "$1" "$2" | sed "${4:-}" > "$work/$1.sh"
  last_output="$work/$1.txt"
  pushd "$3" > /dev/null
  source "$work/$1.sh" > "$last_output" 2>&1
  popd > /dev/null
}
last_output=/dev/null
cleanup() {
  local status=$?
  [ "$status" = 0 ] || { echo "check-guides failed; the last block printed:"; cat "$last_output"; }
  for pid in "$server" "${second:-}"; do [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; done
  [ -z "${POSTGRES_DIR:-}" ] || stop_postgres
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for the server a block started, and keeps its process ID for the exit trap.
served_by_block() {
  server=$(cat "$work/server.pid")
  wait_until_ready "$work/server.log" || { echo "the server of the block did not start"; cat "$work/server.log"; exit 1; }
}

# docs/getting-started.md's Package.swift: SwiftPM loads it (dump-package fetches no dependency).
app="$work/MyNotes"
mkdir -p "$app/Sources/MyNotes" "$app/Tests/MyNotesTests"
doc_block swift-manifest:manifest docs/getting-started.md > "$app/Package.swift"
(cd "$app" && swift package dump-package) > "$work/manifest.json"
expect '"name" : "MyNotes"' "$(cat "$work/manifest.json")"
expect '"urlString" : "https://git.example.com/stratus.git"' "$(cat "$work/manifest.json")"

# docs/deploy.md: TLS served directly.
tls="$work/tls"
mkdir -p "$tls"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/ca.key" -out "$tls/ca.pem" -days 2 -subj "/CN=Stratus guide CA" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$tls/privkey.pem" -out "$tls/request.csr" -subj "/CN=localhost" 2>/dev/null
openssl x509 -req -in "$tls/request.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
  -extfile <(printf 'subjectAltName=DNS:localhost,IP:127.0.0.1') -out "$tls/fullchain.pem" 2>/dev/null
run_block tls-serve docs/deploy.md "$work/deploy" "s#--host 0.0.0.0#--host 127.0.0.1#; s#--port 8443 ##; s#/etc/stratus/#$tls/#g"
served_by_block
expect "https://" "$base_url"
expect "ok" "$(curl -s --cacert "$tls/ca.pem" "https://localhost:$port/healthz")"
stop_server

# docs/operations.md, against a server on ./stratus-data.
ops="$work/operations"
mkdir -p "$ops"
start_server "$ops/stratus-data"
curl -s -X POST "$base_url/auth/1/$container/development/signup?ckAPIToken=$api_token" \
  -d '{"username":"alice","password":"correct horse battery"}' | grep -q ckWebAuthToken || { echo "sign-up failed"; exit 1; }
run_block doctor docs/operations.md "$ops"
for expected in "ok       data directory" "every migration applied" "ok       public URL" "0 error(s)"; do
  expect "$expected" "$(cat "$last_output")"
done
run_block backup docs/operations.md "$ops"
[ -f "$ops/backups/2026-11-24/manifest.json" ] && [ -f "$ops/stratus-restored/stratus.sqlite" ] || { echo "no backup or no restored store"; exit 1; }
run_block export docs/operations.md "$ops"
expect "alice" "$("$bin" user list --data "$ops/other-data" --container "$container")"
run_block console docs/operations.md "$ops"
expect "root" "$("$bin" admin list --data "$ops/stratus-data")"
stop_server

# The development loop: load ./dev-data (the export above, alice without her password hash), serve,
# sign bob up, and on SIGTERM write both back.
mkdir -p "$ops/dev-data"
cp -R "$ops/app-export" "$ops/dev-data/$container"
run_block dev-loop docs/operations.md "$ops"
served_by_block
curl -s -X POST "$base_url/auth/1/$container/development/signup?ckAPIToken=$api_token" \
  -d '{"username":"bob","password":"battery staple horse"}' | grep -q ckWebAuthToken || { echo "sign-up failed"; exit 1; }
stop_server
for user in alice bob; do
  grep -q "\"username\":\"$user\"" "$ops/dev-data/$container/container.jsonl" || { echo "the development loop did not write $user back"; exit 1; }
done

# docs/scaling.md, on a PostgreSQL server of its own.
start_postgres
trap cleanup EXIT
PATH="$(postgres_bin):$PATH"
for database in stratus stratus_copy; do psql -q "$POSTGRES_URL/postgres" -c "CREATE DATABASE $database"; done
scaling="s#postgres://stratus:secret@db.internal:5432#$POSTGRES_URL#g; s#/etc/stratus/#$work/#g"
run_block scale-serve docs/scaling.md "$work/scale" "$scaling; s#/var/lib/stratus#$work/instance-1#"
served_by_block
first_url=$base_url
second=$server
port=$(free_port)
run_block scale-serve docs/scaling.md "$work/scale" "$scaling; s#/var/lib/stratus#$work/instance-2#"
served_by_block
curl -s -X POST "$first_url/auth/1/$container/development/signup?ckAPIToken=$api_token" \
  -d '{"username":"carol","password":"correct horse battery"}' | grep -q ckWebAuthToken || { echo "sign-up on the first instance failed"; exit 1; }
curl -s -X POST "$base_url/auth/1/$container/development/signin?ckAPIToken=$api_token" \
  -d '{"username":"carol","password":"correct horse battery"}' | grep -q ckWebAuthToken || { echo "the second instance does not know carol"; exit 1; }
run_block copy docs/scaling.md "$ops" "s#:5432/stratus\$#:5432/stratus_copy#; $scaling"
expect "every container verified" "$(cat "$last_output")"
expect "alice" "$("$bin" user list --database "$POSTGRES_URL/stratus_copy" --data "$work/empty" --container "$container")"
run_block pg-backup docs/scaling.md "$work/scale" "$scaling"
expect "carol" "$("$bin" user list --database "$POSTGRES_URL/stratus_restored" --data "$work/empty" --container "$container")"
kill "$second"; wait "$second" 2>/dev/null || true; second=""
stop_server
last_output=/dev/null
echo "guides: every block marked and run; the Package.swift, TLS, the doctor, backup, export, the development loop, the console, two instances on PostgreSQL, copy and dump: ok"

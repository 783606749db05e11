#!/usr/bin/env bash
# Stratus behind Debian's nginx on loopback, as docs/deploy.md's "Behind a reverse proxy" sets it up:
# its nginx block checked by `nginx -t` as written (TLS included, with a test certificate), then served
# on a loopback port without TLS in front of a server started with its serve line, with the README's
# curl quickstart through the proxy (its asset upload and download included), a push over the proxied
# WebSocket, and two clients throttled apart. Installs nginx when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
  else
    echo "check-nginx: nginx is missing; install it (apt-get install nginx-light) and run again"; exit 1
  fi
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
source scripts/lib/walkthrough.sh
need_products stratus
proxy_port=$(free_port)
# docs/deploy.md's serve command for this setup, on this run's ports and data directory.
serve_args=$(doc_block proxy-serve docs/deploy.md | sed -n 's#^stratus serve --host 127.0.0.1 --port 8080 ##p' | sed "s#https://sync.example.com#http://127.0.0.1:$proxy_port#")
[ -n "$serve_args" ] || { echo "docs/deploy.md's proxy-serve block is not 'stratus serve --host 127.0.0.1 --port 8080 …'"; exit 1; }
# shellcheck disable=SC2086
start_server "$work/stratus-data" $serve_args

mkdir -p "$work/nginx/logs" "$work/tls"
# The block as written, with a self-signed certificate where Let's Encrypt's would be: nginx -t.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/tls/privkey.pem" -out "$work/tls/fullchain.pem" -days 2 \
  -subj "/CN=sync.example.com" 2>/dev/null
doc_block nginx docs/deploy.md | sed "s#/etc/letsencrypt/live/sync.example.com/#$work/tls/#" > "$work/nginx/verbatim.conf"
cat > "$work/nginx/test.conf" <<CONF
pid $work/nginx/test.pid;
error_log $work/nginx/logs/test-error.log warn;
events { worker_connections 16; }
http { include $work/nginx/verbatim.conf; }
CONF
"$nginx" -t -q -p "$work/nginx" -c "$work/nginx/test.conf" || { echo "nginx -t refused docs/deploy.md's block"; exit 1; }
doc_block nginx docs/deploy.md \
  | sed "s#listen 443 ssl;#listen 127.0.0.1:$proxy_port;#; /ssl_certificate/d; s#server_name sync.example.com;#server_name localhost;#; s#127.0.0.1:8080#127.0.0.1:$port#" \
  > "$work/nginx/site.conf"
user_line=""
[ "$(id -u)" -ne 0 ] || user_line="user root;"
cat > "$work/nginx/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log $work/nginx/logs/access.log;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  include $work/nginx/site.conf;
}
CONF
"$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
proxy=$!
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; kill "$proxy" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$proxy_port/healthz" && break; sleep 0.1; done

# The quickstart, with every request through the proxy.
readme_block quickstart \
  | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$proxy_port#; s#--data ./stratus-data#--data $work/stratus-data#; s#.build/release/stratus#$PWD/.build/debug/stratus#" \
  > "$work/quickstart.sh"
(cd "$work" && bash -e -o pipefail quickstart.sh) > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "quickstart through nginx failed"; exit 1; }
out=$(cat "$work/out.txt")
for expected in '"zoneName":"Notes"' '"serverErrorCode":"CONFLICT"' "\"url\":\"http://127.0.0.1:$proxy_port/" 'download matches'; do
  expect "$expected" "$out"
done
grep -q 'POST /database/1/iCloud.dev.stratus/development/private/records/modify' "$work/nginx/logs/access.log" \
  || { echo "the quickstart did not go through nginx"; exit 1; }

# A push over the proxied WebSocket: a zone subscription, a save through the proxy, its notification.
api=$("$PWD/.build/debug/stratus" container token --data "$work/stratus-data" | tail -n 1)
auth=$(sed -n 's/.*"ckWebAuthToken":"\([^"]*\)".*/\1/p' "$work/signup.json")
db="http://127.0.0.1:$proxy_port/database/1/iCloud.dev.stratus/development/private"
curl -s -X POST "$db/subscriptions/modify?ckAPIToken=$api" -H "Authorization: Bearer $auth" -d '{"operations":[{"operationType":"create",
  "subscription":{"subscriptionID":"notes","subscriptionType":"zone","zoneID":{"zoneName":"Notes"},"notificationInfo":{"shouldSendContentAvailable":true}}}]}' \
  | grep -q '"subscriptionID":"notes"' || { echo "subscription failed"; exit 1; }
encoded_auth=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$auth")
trigger="curl -s -o /dev/null -X POST '$db/records/modify?ckAPIToken=$api' -H 'Authorization: Bearer $auth' \
  -d '{\"zoneID\":{\"zoneName\":\"Notes\"},\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordName\":\"pushed\",\"recordType\":\"Note\"}}]}'"
pushed=$(timeout 30 python3 scripts/lib/websocket_push.py \
  "ws://127.0.0.1:$proxy_port/push/1/iCloud.dev.stratus/development/websocket?ckAPIToken=$api&ckWebAuthToken=$encoded_auth" 1 "$trigger")
expect '"sid":"notes"' "$pushed"
expect '"zid":"Notes"' "$pushed"
# Two clients behind the proxy (nginx sees them as 127.0.0.2 and 127.0.0.3 and forwards that): the
# first one's wrong passwords throttle it alone; the second signs in.
auth_url="http://127.0.0.1:$proxy_port/auth/1/iCloud.dev.stratus/development"
curl -s -X POST "$auth_url/signup?ckAPIToken=$api" -d '{"username":"owner","password":"right password"}' | grep -q ckWebAuthToken \
  || { echo "sign-up through the proxy failed"; exit 1; }
for guess in $(seq 1 11); do
  last=$(curl -s --interface 127.0.0.2 -X POST "$auth_url/signin?ckAPIToken=$api" -d "{\"username\":\"owner\",\"password\":\"guess $guess\"}")
done
expect '"serverErrorCode":"THROTTLED"' "$last"
other=$(curl -s --interface 127.0.0.3 -X POST "$auth_url/signin?ckAPIToken=$api" -d '{"username":"owner","password":"right password"}')
expect '"ckWebAuthToken"' "$other"
grep -q '^127.0.0.2 ' "$work/nginx/logs/access.log" || { echo "the guesses did not come from 127.0.0.2"; exit 1; }

# Behind an nginx that writes RFC 7239 Forwarded (and passes the client's own X-Forwarded-For on
# untouched), a server told --proxy-header forwarded reads Forwarded alone: guesses under a new forged
# X-Forwarded-For address each time are all the one client's, and throttled.
second_port=$(free_port)
forwarded_port=$(free_port)
"$PWD/.build/debug/stratus" serve --data "$work/forwarded-data" --port "$second_port" --log-level error --ready-json \
  --trusted-proxy 127.0.0.1 --proxy-header forwarded > "$work/forwarded.log" 2>&1 &
second=$!
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; kill "$second" "$proxy" 2>/dev/null || true; rm -rf "$work"' EXIT
saved_base=$base_url; saved_api=$api_token
wait_until_ready "$work/forwarded.log" || { echo "the Forwarded server did not start"; cat "$work/forwarded.log"; exit 1; }
second_api=$api_token; base_url=$saved_base; api_token=$saved_api
cat >> "$work/nginx/site.conf" <<CONF
server {
    listen 127.0.0.1:$forwarded_port;
    location / {
        proxy_pass http://127.0.0.1:$second_port;
        proxy_set_header Forwarded "for=\$remote_addr";
    }
}
CONF
kill -HUP "$proxy"
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$forwarded_port/healthz" && break; sleep 0.1; done
forwarded_url="http://127.0.0.1:$forwarded_port/auth/1/iCloud.dev.stratus/development"
curl -s -X POST "$forwarded_url/signup?ckAPIToken=$second_api" -d '{"username":"owner","password":"right password"}' | grep -q ckWebAuthToken \
  || { echo "sign-up through the Forwarded proxy failed"; exit 1; }
for guess in $(seq 1 11); do
  last=$(curl -s --interface 127.0.0.4 -H "X-Forwarded-For: 198.51.100.$guess" -X POST "$forwarded_url/signin?ckAPIToken=$second_api" \
    -d "{\"username\":\"owner\",\"password\":\"guess $guess\"}")
done
expect '"serverErrorCode":"THROTTLED"' "$last"
other=$(curl -s --interface 127.0.0.5 -X POST "$forwarded_url/signin?ckAPIToken=$second_api" -d '{"username":"owner","password":"right password"}')
expect '"ckWebAuthToken"' "$other"
echo "nginx: quickstart, asset round trip, WebSocket push and per-client throttling through the proxy (X-Forwarded-For and Forwarded): ok"

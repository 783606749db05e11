# Shared by the check-*.sh scripts: built binaries, a fresh server on a free port over a temporary
# data directory, and output checks. Source it from the repository root.
source "$(dirname "${BASH_SOURCE[0]}")/free_port.sh"
repository=$PWD

# Builds the named products unless their debug binaries exist.
need_products() {
  for product in "$@"; do
    [ -x "$PWD/.build/debug/$product" ] || swift build --product "$product"
  done
}

# Installs headless Chromium, Debian's chromedriver and Selenium when missing (the browser checks).
need_browser() {
  if ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
      sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
    else
      echo "chromium is missing; install it (apt-get install chromium chromium-driver) and run again"; exit 1
    fi
  fi
  python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q -r requirements.txt
}

# Sets $stratus (the debug binary, built if missing), $data (a new data directory under $work) and
# $container (the default container's identifier).
new_data_directory() {
  need_products stratus
  stratus="$PWD/.build/debug/stratus"
  data="$work/stratus-data"
  container=iCloud.dev.stratus
  mkdir -p "$data"
}

work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(free_port 2>/dev/null || echo 18080)

# Starts `stratus serve --ready-json` on $port over data directory $1 (more `serve` options may
# follow), waits for its ready line and sets $base_url, $api_token and $container from it.
start_server() {
  "$repository/.build/debug/stratus" serve --data "$1" --port "$port" --log-level error --ready-json "${@:2}" > "$work/server.log" 2>&1 &
  server=$!
  wait_until_ready "$work/server.log" || { echo "server did not start"; cat "$work/server.log"; exit 1; }
}

# Waits (10 seconds at most) for the ready line in the server's output file $1, then sets
# $base_url, $api_token and $container from it.
wait_until_ready() {
  local ready=""
  for _ in $(seq 1 50); do
    ready=$(grep -m1 '^{.*"ckAPIToken"' "$1" || true)
    [ -n "$ready" ] && break
    sleep 0.2
  done
  [ -n "$ready" ] || return 1
  read -r base_url api_token container < <(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(r["url"], r["ckAPIToken"], r["container"])' "$ready")
}

stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

# Fails unless the text $1 occurs in $2.
expect() {
  grep -qF -- "$1" <<< "$2" || { echo "expected '$1' in: $2"; exit 1; }
}

# Prints the README block between <!-- $1 --> and <!-- /$1 --> markers, without the fences.
readme_block() {
  doc_block "$1" README.md
}

# Prints the block between <!-- $1 --> and <!-- /$1 --> markers in the file $2, without the fences.
doc_block() {
  sed -n "/<!-- $1 -->/,/<!-- \/$1 -->/p" "$2" | sed '1,2d;$d' | sed '$d'
}

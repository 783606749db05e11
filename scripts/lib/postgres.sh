# Starts a throwaway PostgreSQL server for tests and benchmarks: PostgreSQL's own binaries
# (installed with apt-get when missing), a cluster in a temporary directory, a free port on
# 127.0.0.1, run as the postgres user when the script runs as root. Source it, then:
#
#   start_postgres            sets POSTGRES_URL (postgres://postgres@127.0.0.1:PORT) and stops the
#                             server when the script exits
#   start_postgres durable    the same with PostgreSQL's durable defaults (for benchmarks)
#
# Otherwise the cluster trades durability for speed (fsync off): it lives only as long as the script.
source "$(dirname "${BASH_SOURCE[0]}")/free_port.sh"

postgres_bin() {
  local initdb
  initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$initdb" ] && command -v initdb >/dev/null 2>&1; then initdb=$(command -v initdb); fi
  if [ -z "$initdb" ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "Installing PostgreSQL ..." >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    initdb=$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)
  fi
  dirname "$initdb"
}

start_postgres() {
  local bin port as=() settings="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${1:-}" = durable ] && settings="-c shared_buffers=256MB"
  bin=$(postgres_bin)
  POSTGRES_DIR=$(mktemp -d /tmp/stratus-postgres.XXXXXX)
  port=$(free_port)
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$POSTGRES_DIR"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$POSTGRES_DIR/data" -A trust -U postgres >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$POSTGRES_DIR/data" -l "$POSTGRES_DIR/log" -w start -o \
    "-p $port -k $POSTGRES_DIR -c listen_addresses=127.0.0.1 -c max_connections=2000 $settings" >/dev/null
  POSTGRES_URL="postgres://postgres@127.0.0.1:$port"
  POSTGRES_STOP=("${as[@]}" "$bin/pg_ctl" -D "$POSTGRES_DIR/data" -m immediate stop)
  trap stop_postgres EXIT
}

stop_postgres() {
  "${POSTGRES_STOP[@]}" >/dev/null 2>&1 || true
  rm -rf "$POSTGRES_DIR"
}

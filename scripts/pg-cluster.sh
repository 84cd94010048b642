#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: `start` prints the DATABASE_URL of a new cluster in a
# temporary folder on a free port, run as the unprivileged `postgres` user; `stop DIR` removes it.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bindir" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
runas() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/svc-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    port=${PGPORT_TEST:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    runas "$bindir/initdb" -D "$dir/data" -U svc --auth=trust --locale=C --encoding=UTF8 >/dev/null
    runas "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    echo "$dir postgres://svc@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=${2:?usage: pg-cluster.sh stop DIR}
    runas "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg-cluster.sh start | stop DIR" >&2
    exit 2
    ;;
esac

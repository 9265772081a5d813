#!/usr/bin/env bash
# Old against new in one run (issue 28's closing figures): an older commit of this repository
# and this checkout, each on a PostgreSQL database of its own with the demo and turn 1
# processed, measured by the same harness, alternating:
#   1. each demo page in one process, uncached: median, p95, size, queries
#      (scripts/bench_inprocess.py, which any checkout can run);
#   2. under load through gunicorn as production runs it (DEBUG off, Redis cache): req/s and
#      p95 at 1 and 10 users, warm (the same URL again) and cold (a new URL each request: the
#      page cache misses), for the old server, the new one with PAGE_CACHE on and off
#      (`manage.py bench_pages`, Debian's wrk);
#   3. the engine's command line on 20,000 departments (`manage.py bench_engine_cli --compare`).
#
#   scripts/bench_old_new.sh [OLD_COMMIT] [SECONDS_PER_LOAD_RUN] [REQUESTS_IN_PROCESS]
#
# EARLIER=COMMIT (default 460c4e3, main before parts 7-9, whose figures issue 28 takes as the
# targets of the uncached pages) is measured in process too, in the same rounds; EARLIER=
# leaves it out.
#
# Needs PostgreSQL on 127.0.0.1:5432 (trust auth), Redis on 127.0.0.1:6379, wrk, and the
# .venv of `./test`. It drops and makes the databases bench_old and bench_new, uses Redis
# database 5, ports 8201-8203, and a worktree of the old commit in /tmp; it leaves nothing
# running. Default OLD_COMMIT: e1faf75, main when issues 24-28 were filed.
set -euo pipefail
cd "$(dirname "$0")/.."
new=$PWD
old_commit="${1:-e1faf75}"
seconds="${2:-5}"
requests="${3:-50}"
python="$new/.venv/bin/python"
gunicorn="$new/.venv/bin/gunicorn"
old=/tmp/bench_old_tree
earlier_commit="${EARLIER-460c4e3}"
earlier=/tmp/bench_earlier_tree

for tree in "$old" "$earlier"; do
  git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
done
git worktree prune
git worktree add --detach --quiet "$old" "$old_commit"
[ -z "$earlier_commit" ] || git worktree add --detach --quiet "$earlier" "$earlier_commit"

export SECRET_KEY=bench-only-not-secret DEBUG=false SECURE_PROXY_SSL_HEADER=true
export CACHE_URL=redis://127.0.0.1:6379/5 ALLOWED_HOSTS="127.0.0.1,localhost"
export CELERY_BROKER_URL= WEB_CONCURRENCY="${WEB_CONCURRENCY:-5}"
"$python" -c "import redis; redis.Redis(db=5).flushdb()"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  git -C "$new" worktree remove --force "$old" 2>/dev/null || true
  git -C "$new" worktree remove --force "$earlier" 2>/dev/null || true
}
trap cleanup EXIT

prepare() {  # tree database
  local tree=$1 db=$2
  PGOPTIONS=--client-min-messages=warning psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists $db" \
    -c "create database $db"
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db"
  (cd "$tree" && "$python" manage.py migrate -v0 --no-input \
    && "$python" manage.py seed_demo >/dev/null \
    && "$python" manage.py process_turn tourmaline --turn 1 >/dev/null \
    && "$python" manage.py collectstatic -v0 --no-input \
    && "$python" manage.py shell --no-imports -c "from django.db import connection
with connection.cursor() as c: c.execute('VACUUM ANALYZE')")
}
prepare "$old" bench_old
prepare "$new" bench_new
[ -z "$earlier_commit" ] || prepare "$earlier" bench_earlier
old_url=postgres://postgres@127.0.0.1:5432/bench_old
new_url=postgres://postgres@127.0.0.1:5432/bench_new

echo "== Old $(git -C "$old" log -1 --format='%h %ad' --date=short)${earlier_commit:+, earlier $earlier_commit (in process only),} against new $(git log -1 --format='%h %ad' --date=short)$(git diff --quiet HEAD || echo ' (with uncommitted changes)'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== 1. In process, uncached, $requests GETs per page after one warm-up; two rounds, alternating"
for round in 1 2; do
  [ -z "$earlier_commit" ] || (cd "$earlier" \
    && DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_earlier \
      "$python" "$new/scripts/bench_inprocess.py" "earlier" "$requests")
  (cd "$old" && DATABASE_URL=$old_url "$python" "$new/scripts/bench_inprocess.py" "old" "$requests")
  (cd "$new" && DATABASE_URL=$new_url "$python" "$new/scripts/bench_inprocess.py" "new" "$requests")
done

echo
echo "== 2. Under load (gunicorn, $WEB_CONCURRENCY sync workers, wrk on the same machine)"
serve() {  # tree database port page_cache
  (cd "$1" && DATABASE_URL="postgres://postgres@127.0.0.1:5432/$2" PAGE_CACHE=$4 \
    GUNICORN_BIND="127.0.0.1:$3" exec "$gunicorn" illumineaucracy.wsgi --log-level warning) &
  pids+=($!)
}
serve "$old" bench_old 8201 false
serve "$new" bench_new 8202 true
serve "$new" bench_new 8203 false
for port in 8201 8202 8203; do
  for _ in $(seq 60); do
    curl -s -o /dev/null "http://127.0.0.1:$port/accounts/login/" && break
    sleep 0.5
  done
done
# A logged-in session of alice in the old database (the new one is made by bench_pages).
old_session=$(cd "$old" && DATABASE_URL=$old_url "$python" manage.py shell --no-imports -c "
from django.contrib.auth import get_user_model
from django.test import Client
client = Client()
client.force_login(get_user_model().objects.get(username='alice'))
print(client.cookies['sessionid'].value)" | tail -1)
DATABASE_URL=$new_url "$python" manage.py bench_pages --seconds "$seconds" --users 1,10 --cold --warmup 3 \
  --server old=http://127.0.0.1:8201 --server new-cache=http://127.0.0.1:8202 \
  --server new-plain=http://127.0.0.1:8203 --session "old=$old_session"

echo
echo "== 3. The engine's command line, 20,000 departments (best of 5, alternating)"
DATABASE_URL=$new_url "$python" manage.py bench_engine_cli --sizes 20000 --runs 5 \
  --compare "$old/manage.py"

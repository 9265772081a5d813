#!/usr/bin/env bash
# Prove the production install (issue 24): a fresh virtualenv with requirements.txt ALONE
# (no requirements-dev.txt, whose test tools bring in packages the site needs too: kombu's
# Redis transport needs `packaging`, and a worker without it never started), a fresh
# PostgreSQL database, and `celery -A illumineaucracy worker -B` against Redis with the
# production settings (DEBUG off). Beat's tick must find the demo's turn 1 due and the worker
# must process it. Exits 0 only then; on any failure it prints the worker's log.
#
# Usage: scripts/check_production_install.sh POSTGRES_URL_WITHOUT_DATABASE REDIS_URL
#   e.g. scripts/check_production_install.sh postgres://postgres@127.0.0.1:5432 redis://127.0.0.1:6379/14
# tests/services/test_production_install.py runs it when the suite runs on real services.
set -euo pipefail
cd "$(dirname "$0")/.."
server=${1:?the PostgreSQL server URL, without a database name}
broker=${2:?the Redis broker URL}
source scripts/venv.sh

work=$(mktemp -d)
database="prodcheck_$$_$RANDOM"
worker_pid=
cleanup() {
  if [ -n "$worker_pid" ]; then
    kill -- "-$worker_pid" 2>/dev/null || kill "$worker_pid" 2>/dev/null || true
    wait "$worker_pid" 2>/dev/null || true
  fi
  psql "$server/postgres" -qc "drop database if exists $database with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

python=$(find_python)
echo "Fresh virtualenv with requirements.txt alone ($("$python" --version))"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt

psql "$server/postgres" -qc "create database $database" >/dev/null
export DJANGO_SETTINGS_MODULE=illumineaucracy.settings
export DEBUG=false
export SECRET_KEY="production-install-check-$RANDOM$RANDOM"
export ALLOWED_HOSTS=localhost
export DATABASE_URL="$server/$database"
export CELERY_BROKER_URL="$broker"
# A queue of this run's own: no other worker on the same Redis takes its messages.
export CELERY_QUEUE="production-install-check-$$-$RANDOM"
export EMAIL_URL="filemail:///$work/mail"
venv_python="$work/venv/bin/python"

"$venv_python" manage.py migrate --no-input >/dev/null
"$venv_python" manage.py seed_demo >/dev/null
# Turn 1 is due a minute ago, and beat's tick last ran an hour ago, so the first tick after
# the worker starts is due at once instead of five minutes later (beat keeps last_run_at
# from the database and copies only the schedule from the settings).
"$venv_python" manage.py shell --no-imports -c '
import datetime as dt
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask
from campaigns.models import Turn
now = timezone.now()
due = Turn.objects.filter(campaign__slug="tourmaline", number=1, status=Turn.Status.OPEN)
assert due.update(deadline=now - dt.timedelta(minutes=1)) == 1, "no open turn 1"
every, _ = IntervalSchedule.objects.get_or_create(every=300, period=IntervalSchedule.SECONDS)
PeriodicTask.objects.update_or_create(
    name="process-due-turns",
    defaults={"task": "campaigns.tasks.process_due_turns", "interval": every,
              "last_run_at": now - dt.timedelta(hours=1)},
)
'

echo "Starting celery -A illumineaucracy worker -B against $broker"
setsid "$work/venv/bin/celery" -A illumineaucracy worker -B --concurrency=1 --loglevel=INFO \
  --schedule="$work/beat-schedule" >"$work/worker.log" 2>&1 &
worker_pid=$!

status() {
  "$venv_python" manage.py shell --no-imports -c '
from campaigns.models import Turn
print(Turn.objects.get(campaign__slug="tourmaline", number=1).status)' | tail -n 1
}
for _ in $(seq 120); do
  if ! kill -0 "$worker_pid" 2>/dev/null; then
    echo "error: the worker exited before processing the due turn. Its log:" >&2
    cat "$work/worker.log" >&2
    exit 1
  fi
  if [ "$(status)" = processed ]; then
    echo "ok: the worker and beat from requirements.txt alone processed the due turn 1"
    exit 0
  fi
  sleep 1
done
echo "error: turn 1 was not processed within two minutes. The worker's log:" >&2
cat "$work/worker.log" >&2
exit 1

"""gunicorn reads this file from the working directory (`gunicorn illumineaucracy.wsgi`).

The check that refuses to serve without SECRET_KEY runs here, in the master, before any
worker is forked: when every worker fails on its own, gunicorn's master can trip over
their exits and print a traceback instead of our one line.

Every figure below can be changed from the environment (docs/operations.md, "Settings"). gunicorn
reads the names it knows itself (`bind`, `workers`, ...) from this module's globals."""

import multiprocessing
import os

# The address to serve; behind a proxy on the same host, 127.0.0.1 is enough.
bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
# Sync workers, one request at a time each: the pages are CPU-bound Python with a few
# milliseconds of SQL, so more processes than cores only queue. Two per core plus one keeps a
# core busy while another worker waits on PostgreSQL. Each worker keeps one database
# connection (CONN_MAX_AGE): size PostgreSQL's max_connections for workers x hosts + Celery.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
# A page is answered in milliseconds; a request still running after 30 s is stuck: the
# master kills that worker and starts another. Slow clients are the proxy's business.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On a restart (deploy), workers finish the requests they have for up to this long.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
# Keep a proxy's connection open between its requests.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle each worker after about this many requests (jittered, so they do not all restart at
# once): a slow leak in any library never grows without bound.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = max_requests // 10
# Load the site in the master before forking (wsgi.py warms it up: views imported, templates
# compiled, catalogues read): every worker starts warm, also one that replaces a recycled
# worker, whose first request otherwise took seconds; that fell in the middle of a load test
# as a p95 of 100 ms on an otherwise 10 ms page. The price: a new release needs a restart of
# gunicorn (SIGHUP reloads the workers from the master's copy of the old code).
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").lower() not in {"false", "0", "no"}
# Logs to standard error, where the process manager collects them, like the app's own.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"


def on_starting(server: object) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")
    from illumineaucracy.serving import refuse_without_secret_key

    refuse_without_secret_key()

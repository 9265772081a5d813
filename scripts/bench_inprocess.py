"""The demo's pages in one process, uncached, for any checkout: run from that checkout's folder.

    cd OTHER_CHECKOUT && DATABASE_URL=... python /path/to/scripts/bench_inprocess.py NAME [N]

`bench_demo_pages` does the same for this checkout, but an older checkout may not have it (nor
the helpers it imports), so this script uses nothing but Django and the URL names every
checkout since parts 1-6 has: it logs in as alice, GETs each page N times after one warm-up and
prints one line per page: median and 95th percentile in ms, size in KB and SQL queries. The
demo must exist with turn 1 processed (scripts/bench_old_new.sh does both). PAGE_CACHE is off
here (a checkout without the page cache ignores the setting).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

PAGES = {
    "login": ("login", [], None),
    "campaign": ("campaign", ["tourmaline"], "alice"),
    "board": ("board", ["tourmaline", "city"], "alice"),
    "orders": ("orders", ["tourmaline"], "alice"),
    "report": ("turn_report", ["tourmaline", 1], "alice"),
}
# Static files by their plain names: no collectstatic needed (as bench_demo_pages does).
PLAIN_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


def figures(client: Client, url: str, requests: int) -> str:
    client.get(url, secure=True)  # warm-up: templates compiled, catalogues read
    seconds, size, queries = [], 0, 0
    for _ in range(requests):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, secure=True)
            seconds.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        size, queries = len(response.content), len(captured)
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[max(0, round(len(ms) * 0.95) - 1)]
    return (
        f"median {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms   "
        f"{size / 1024:6.1f} KB   {queries:3d} queries"
    )


def main() -> None:
    name = sys.argv[1]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    setup_test_environment()  # the test client's response.templates etc., as the tests run
    with override_settings(STORAGES=PLAIN_STATIC, PAGE_CACHE=False, ALLOWED_HOSTS=["*"]):
        for page, (url_name, arguments, viewer) in PAGES.items():
            client = Client()
            if viewer:
                client.force_login(get_user_model().objects.get(username=viewer))
            line = figures(client, reverse(url_name, args=arguments), requests)
            print(f"{page:<9} {name:<6} {line}", flush=True)
            client.logout()


if __name__ == "__main__":
    main()

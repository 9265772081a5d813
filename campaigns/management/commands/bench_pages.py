"""`manage.py bench_pages`: the demo's pages under load, against a running server.

Start the site as production runs it (gunicorn with gunicorn.conf.py, DEBUG off, PostgreSQL),
then point this at it. It makes sure the demo exists with turn 1 processed, logs in as a
player (a session row, its cookie sent by the load), and for each page (board, orders,
campaign, turn report) runs Debian's `wrk` with --connections users for --seconds, then
prints requests per second and the 50th, 95th and 99th percentile latency. Target:
>= 200 requests/s and p95 <= 60 ms per page with 10 users on a 2-core machine.

    DEBUG=false SECURE_PROXY_SSL_HEADER=true SECRET_KEY=... DATABASE_URL=postgres://... \\
        gunicorn illumineaucracy.wsgi --bind 127.0.0.1:8100 &
    manage.py bench_pages --server http://127.0.0.1:8100

The requests carry `X-Forwarded-Proto: https`, as a TLS proxy in front would (so the server
needs SECURE_PROXY_SSL_HEADER=true, else it redirects to https). Several --server NAME=URL
are measured page by page in turn, for a before/after in one run. A server on a database of
its own (an older checkout, whose schema differs) needs a player logged in there: pass that
session's key with --session NAME=KEY. The load generator runs on the same machine and takes
some of its cores.

The page cache: `--users 1,10` measures at each number of users, and `--cold` adds
a run per page and server where every request asks a URL never asked before (a query string
of its own, which the pages ignore): the page cache misses each time, as on the first view
after a change. Against two servers, one with PAGE_CACHE on and one off
(`--server on=URL --server off=URL`), the lines give the cached pages warm and cold and the
uncached ones:

    PAGE_CACHE=true ... gunicorn ... --bind 127.0.0.1:8100 &
    PAGE_CACHE=false ... gunicorn ... --bind 127.0.0.1:8101 &
    manage.py bench_pages --server on=http://127.0.0.1:8100 --server off=http://127.0.0.1:8101 \\
        --users 1,10 --cold
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from campaigns.management.benching import campaign_remove, vacuum, vacuum_note
from campaigns.models import Campaign, Turn
from campaigns.services.demo import demo_create, demo_exists
from campaigns.services.turns import turn_process

SLUG = "tourmaline"
PLAYER = "alice"
# wrk's own summary has no 95th percentile: this prints the figures we report, one per line.
REPORT_LUA = """
done = function(summary, latency, requests)
  io.write(string.format("requests %d\\n", summary.requests))
  io.write(string.format("seconds %.6f\\n", summary.duration / 1e6))
  io.write(string.format("errors %d\\n", summary.errors.status + summary.errors.connect
    + summary.errors.read + summary.errors.write + summary.errors.timeout))
  for _, p in ipairs({50, 95, 99}) do
    io.write(string.format("p%d %.3f\\n", p, latency:percentile(p) / 1000))
  end
end
"""
# --cold: each request a URL of its own, numbered per wrk thread (each thread runs its own
# copy of the script: the same random numbers in each, hence a counter and the thread's id).
COLD_LUA = """
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("id", threads)
end
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, wrk.path .. "?cold=" .. id .. "-" .. n)
end
"""


def demo_after_one_turn() -> Campaign:
    """The demo with turn 1 processed (so its report exists), made if missing."""
    if not demo_exists():
        demo_create()
    campaign = Campaign.objects.get(slug=SLUG)
    vacuum()
    first = campaign.turns.get(number=1)
    if first.status == Turn.Status.OPEN:
        turn_process(campaign_id=campaign.pk, number=1)
    return campaign


def player_session(username: str) -> SessionStore:
    """A logged-in session for `username`, as the log-in view would store it."""
    user = get_user_model().objects.get(username=username)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "illumineaucracy.profile_backend.ProfileModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session


class Command(BaseCommand):
    help = "Load the demo's pages on a running server with wrk; print req/s and p50/p95/p99."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--server", action="append", required=True, help="URL, or NAME=URL (repeatable)"
        )
        parser.add_argument("--seconds", type=int, default=10, help="per page and server")
        parser.add_argument("--connections", type=int, default=10, help="concurrent users")
        parser.add_argument(
            "--users",
            default="",
            help="numbers of concurrent users, e.g. 1,10 (replaces --connections)",
        )
        parser.add_argument(
            "--cold", action="store_true", help="also with a new URL each request (cache misses)"
        )
        parser.add_argument("--threads", type=int, default=2, help="wrk's threads")
        parser.add_argument(
            "--warmup",
            type=int,
            default=2,
            help="seconds of unmeasured load on each page and server first (0: none)",
        )
        parser.add_argument(
            "--session",
            action="append",
            default=[],
            help="NAME=KEY: a logged-in session of that server's own database (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wrk = shutil.which("wrk")
        if wrk is None:
            raise CommandError("needs wrk (Debian: apt-get install wrk)")
        servers = dict(
            s.split("=", 1) if "=" in s.split("://")[0] else (s, s) for s in options["server"]
        )
        sessions = dict(s.split("=", 1) for s in options["session"] if "=" in s)
        if len(sessions) != len(options["session"]) or not sessions.keys() <= servers.keys():
            raise CommandError("--session takes NAME=KEY, NAME one of the --server names")
        users = set(get_user_model().objects.values_list("pk", flat=True))
        made_demo = not demo_exists()
        campaign = demo_after_one_turn()
        session = player_session(PLAYER)
        try:
            self.measure(wrk, servers, campaign, sessions, session, options)
        finally:
            # Nothing left behind: the session, and the demo if this run made it.
            session.delete()
            if made_demo:
                campaign_remove(campaign)
                get_user_model().objects.exclude(pk__in=users).delete()

    def measure(
        self,
        wrk: str,
        servers: dict[str, str],
        campaign: Campaign,
        sessions: dict[str, str],
        session: SessionStore,
        options: dict[str, Any],
    ) -> None:
        pages = {
            "board": reverse("board", args=[SLUG, "city"]),
            "orders": reverse("orders", args=[SLUG]),
            "campaign": reverse("campaign", args=[SLUG]),
            "report": reverse("turn_report", args=[SLUG, 1]),
        }

        def headers_for(server: str) -> dict[str, str]:
            key = sessions.get(server, session.session_key)
            return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={key}", "X-Forwarded-Proto": "https"}

        users = [int(n) for n in options["users"].split(",") if n] or [options["connections"]]
        modes = ["warm", "cold"] if options["cold"] else ["warm"]
        self.stdout.write(
            f"{campaign.name}, as {PLAYER}: {', '.join(map(str, users))} users, "
            f"{options['seconds']} s per page, server, mode and users (wrk on the same "
            f"machine; {vacuum_note()}); warm: the same URL again, cold: a new URL each request"
        )
        with tempfile.TemporaryDirectory() as folder:
            scripts = {"warm": Path(folder) / "report.lua", "cold": Path(folder) / "cold.lua"}
            scripts["warm"].write_text(REPORT_LUA)
            scripts["cold"].write_text(REPORT_LUA + COLD_LUA)
            for page, path in pages.items():
                for name, base in servers.items():
                    url, headers = base.rstrip("/") + path, headers_for(name)
                    check_answers(url, headers)
                    if options["warmup"]:
                        warm_up(wrk, url, headers, scripts["warm"], options, max(users))
                    for mode in modes:
                        for n in users:
                            run = {**options, "connections": n,
                                   "threads": min(options["threads"], n)}  # fmt: skip
                            figures = run_wrk(wrk, url, headers, scripts[mode], run)
                            label = (
                                f"{name} {mode} {n:>2}u"
                                if len(users) > 1 or options["cold"]
                                else name
                            )
                            self.stdout.write(line(page, label, figures))


def check_answers(url: str, headers: dict[str, str]) -> None:
    """The page must answer 200 to the benchmark's requests (not a redirect to log in)."""
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        final = response.geturl()
        if response.status != 200 or final != url:
            raise CommandError(f"{url} answered {response.status} at {final}")


def warm_up(
    wrk: str, url: str, headers: dict[str, str], script: Path, options: dict[str, Any], users: int
) -> None:
    """--warmup seconds of load, not measured: each worker's first requests (its database
    and Redis connections, the page stored once) are not what a server running for hours
    answers, and fell in the first measured run's p95."""
    run = {**options, "seconds": options["warmup"], "connections": users,
           "threads": min(options["threads"], users)}  # fmt: skip
    run_wrk(wrk, url, headers, script, run)


def run_wrk(
    wrk: str, url: str, headers: dict[str, str], script: Path, options: dict[str, Any]
) -> dict[str, float]:
    command = [
        wrk, f"--threads={options['threads']}", f"--connections={options['connections']}",
        f"--duration={options['seconds']}s", "--timeout=10s", f"--script={script}",
        *(f"--header={k}: {v}" for k, v in headers.items()), url,
    ]  # fmt: skip
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures = {k: float(v) for k, v in re.findall(r"^(\w+) ([\d.]+)$", output, re.MULTILINE)}
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    figures["errors"] += int(non_2xx.group(1)) if non_2xx else 0
    return figures


def line(page: str, server: str, f: dict[str, float]) -> str:
    rate = f["requests"] / f["seconds"]
    verdict = "OK" if rate >= 200 and f["p95"] <= 60 and not f["errors"] else "SLOW"
    return (
        f"{page:<9} {server:<14} {rate:7.1f} req/s   p50 {f['p50']:6.1f} ms   "
        f"p95 {f['p95']:6.1f} ms   p99 {f['p99']:6.1f} ms   errors {int(f['errors'])}   {verdict}"
    )

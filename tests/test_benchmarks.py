"""Every `bench_*` command runs, small (issue 15): each prints its figures and leaves nothing
behind in the database (no campaign, account, session or row of any table it made). No
timing is asserted: the figures are for people to read (docs/operations.md, "Benchmarks").

The list of commands is read from campaigns/management/commands/, so a new benchmark fails
`test_every_benchmark_command_has_a_test` until it has one here."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from campaigns.models import CampaignChange

ROOT = Path(__file__).resolve().parents[1]
TESTED = {
    "bench_turns", "bench_order_check", "bench_engine_cli", "bench_burst", "bench_board_import",
    "bench_history", "bench_big_pages", "bench_pages", "bench_demo_pages", "bench_classic_turns",
}  # fmt: skip


def test_every_benchmark_command_has_a_test() -> None:
    commands = {p.stem for p in (ROOT / "campaigns/management/commands").glob("bench_*.py")}
    assert commands == TESTED


def rows() -> dict[str, int]:
    """Rows of every table of the site's own models, accounts and sessions; not the page
    cache's version log (models/changes.py), append-only: removing a benchmark's campaign
    writes to it, and its rows go at the next pruning (services/page_versions.py)."""
    models = [m for m in apps.get_app_config("campaigns").get_models() if m is not CampaignChange]
    models += [apps.get_model("auth", "User"), apps.get_model("sessions", "Session")]
    return {m._meta.label: m.objects.count() for m in models}


def run(command: str, *args: str) -> str:
    """The command's output; the database as it was before it."""
    before = rows()
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    after = rows()
    assert {k: v for k, v in after.items() if before[k] != v} == {}, "left behind"
    return out.getvalue()


@pytest.mark.django_db(transaction=True)  # the turn job and the COPY floor commit
def test_bench_turns_prints_the_job_the_lock_and_the_floor() -> None:
    text = run("bench_turns", "--boards", "2", "--departments", "30", "--orders", "20")
    assert "Building 2 boards x 30 departments, 20 orders" in text
    assert "turn job: " in text and "campaign row lock held" in text
    # Every board is read and resolved in one engine call (services/turn_plans.py).
    assert "SQL queries: " in text and "  every board: " in text
    if connection.vendor == "postgresql":
        assert "tables vacuumed and analysed first" in text
        assert "COPY floor: " in text and "x the COPY floor (target <= 3x)" in text
        written = re.search(r"outcomes: ([0-9.]+) s, ([0-9.]+)x the floor", text)
        assert written is not None and float(written[1]) > 0, text
    else:
        assert "the COPY floor needs PostgreSQL" in text


@pytest.mark.django_db(transaction=True)  # the turn job commits
def test_bench_classic_turns_prints_the_job_its_rates_and_queries() -> None:
    text = run("bench_classic_turns", "--boards", "2", "--groups", "60", "--orders", "40")
    assert "Building 2 classic boards x 60 groups, 40 orders" in text
    assert "turn job: " in text and "campaign row lock held" in text
    rates = re.search(r"([\d,]+) groups/s, ([\d,]+) orders/s", text)
    assert rates is not None and all(int(r.replace(",", "")) > 0 for r in rates.groups()), text
    queries = re.search(r"SQL queries: (\d+) total", text)
    assert queries is not None and int(queries[1]) > 0, text
    # Every order was resolved by the engine: none is left queued.
    statuses = re.search(r"orders: (\{.*\})", text)
    assert statuses is not None and "queued" not in statuses[1] and "succeeded" in statuses[1]


def test_bench_classic_turns_refuses_boards_too_small_for_the_structures() -> None:
    err = io.StringIO()
    call_command("bench_classic_turns", "--groups", "10", stdout=io.StringIO(), stderr=err)
    assert "--groups must be at least 45" in err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_bench_order_check_prints_the_median_and_worst() -> None:
    text = run("bench_order_check", "--departments", "40", "--checks", "20", "--queued", "2")
    assert "order check on 40 departments" in text and "median " in text
    assert " worst " in text and "target 5 ms per check" in text
    pages = re.search(r"order form pages \(GET, median of 5, ms\) on 40 departments: (.*)", text)
    assert pages is not None, text
    kinds = dict(figure.split(" ") for figure in pages[1].split(", "))
    assert set(kinds) == {"add_link", "break_link", "priority", "move", "attempt", "function"}
    assert all(float(ms) > 0 for ms in kinds.values())


def test_bench_engine_cli_prints_departments_per_second() -> None:
    out = io.StringIO()
    call_command("bench_engine_cli", "--sizes", "200", "--runs", "1", stdout=out)
    text = out.getvalue()
    for action in ("spawn-consume", "resolve"):
        assert f"{action}" in text
    assert text.count("departments/s beyond start-up") == 2


@pytest.mark.django_db(transaction=True)
def test_bench_board_import_prints_both_imports() -> None:
    text = run("bench_board_import", "--size", "30")
    assert "JSON import of 30 departments: " in text and "CSV import of 30 departments: " in text
    assert "CSV file: " in text


@pytest.mark.django_db(transaction=True)
def test_bench_history_prints_every_page_for_both_viewers() -> None:
    text = run("bench_history", "--turns", "2", "--big", "12", "--big-turns", "1", "--runs", "1")
    assert "14 departments, 2 turns" in text and "12 departments, 1 turn (" in text
    assert text.count("structure history") == 2 and text.count(" queries") >= 30


@pytest.mark.django_db(transaction=True)
def test_bench_demo_pages_prints_time_and_queries_of_each_page_beside_its_target() -> None:
    text = run("bench_demo_pages", "--requests", "2")
    lines = [line for line in text.splitlines() if " queries " in line]
    assert [line.split()[0] for line in lines] == ["login", "campaign", "board", "orders", "report"]
    assert all(re.search(r"median +[\d.]+ ms .* \d+ queries .*target: median <= \d+ ms", line)
               for line in lines)  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_bench_big_pages_prints_time_and_size_of_the_board_pages_and_the_report() -> None:
    text = run("bench_big_pages", "--boards", "2", "--departments", "130", "--orders", "40",
               "--requests", "2")  # fmt: skip
    assert "2 boards x 130 departments, turn 1 processed" in text
    for role in ("Game master:", "Player:"):
        assert role in text
    for page in ("board page 3", "board page, a search", "board map (JSON", "turn report, first"):
        assert text.count(page) == 2
    assert text.count(" KB ") >= 14 and "median " in text and " p95 " in text
    # Rendered, not served by the page cache (a hit reads 3 rows: session, user, version).
    board_queries = [int(q) for q in re.findall(r"board page.* (\d+) queries", text)]
    assert len(board_queries) == 8 and min(board_queries) > 3, board_queries


@pytest.mark.django_db(transaction=True)
def test_bench_burst_processes_every_campaign_once_per_worker_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.support.processes import database_url, require_real_services

    require_real_services()  # real worker processes share the test database and a queue
    monkeypatch.setenv("DATABASE_URL", database_url())
    text = run("bench_burst", "--campaigns", "4", "--departments", "10", "--workers", "1,2")
    assert "built 4 campaigns of 10 departments" in text
    assert "1 worker(s): 4 campaigns' turn 1" in text and "2 worker(s): 4 campaigns' turn 2" in text
    assert text.count("each exactly once") == 2


@pytest.fixture
def gunicorn(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """The site under gunicorn (gunicorn.conf.py, DEBUG off, 2 workers) on the test database,
    static files by their plain names (tests/support/serving_settings.py: no collectstatic);
    its address. Skips without PostgreSQL (another process must reach the test database) or
    without Debian's wrk."""
    from tests.support.processes import database_url, free_port

    if shutil.which("wrk") is None:
        # ./test installs it: in CI a missing wrk is a broken set-up, not a reason to skip.
        if os.environ.get("REQUIRE_REAL_SERVICES"):
            pytest.fail("Debian's wrk is missing although ./test installs it")
        pytest.skip("needs Debian's wrk (apt-get install wrk; ./test installs it)")
    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "tests.support.serving_settings",
        "DEBUG": "false",
        # This process's key: the command signs the session it logs in with (its hash).
        "SECRET_KEY": settings.SECRET_KEY,
        "SECURE_PROXY_SSL_HEADER": "true",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
    }
    log = (tmp_path / "gunicorn.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "illumineaucracy.wsgi"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                # As a TLS proxy in front would ask (else the site redirects to https).
                probe = urllib.request.Request(
                    f"{url}/accounts/login/", headers={"X-Forwarded-Proto": "https"}
                )
                urllib.request.urlopen(probe, timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError((tmp_path / "gunicorn.log").read_text()) from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_bench_pages_prints_the_rate_and_latencies_of_every_page(gunicorn: str) -> None:
    text = run("bench_pages", "--server", gunicorn, "--seconds", "1", "--connections", "2",
               "--threads", "1")  # fmt: skip
    for page in ("board", "orders", "campaign", "report"):
        assert f"\n{page} " in f"\n{text}", page
    assert text.count(" req/s ") == 4 and text.count("errors 0") == 4


def test_bench_pages_measures_cache_misses_and_several_numbers_of_users(gunicorn: str) -> None:
    """Issue 28: --cold asks a new URL each request (the page cache misses), --users runs
    each page at each number of users; each line names its server, mode and users."""
    text = run("bench_pages", "--server", f"on={gunicorn}", "--seconds", "1", "--users", "1,2",
               "--cold", "--threads", "1")  # fmt: skip
    for page in ("board", "orders", "campaign", "report"):
        for mode in ("warm", "cold"):
            for users in (" 1u", " 2u"):
                assert f"{page:<9} on {mode} {users}" in text, (page, mode, users)
    assert text.count(" req/s ") == 16 and text.count("errors 0") == 16


def test_bench_pages_loads_a_server_with_the_session_it_is_given(gunicorn: str) -> None:
    """--session NAME=KEY (a player logged in on that server's own database) replaces the
    command's own session for that server: a key that logs nobody in is refused by the page,
    and the command stops with that, not a traceback."""
    with pytest.raises(CommandError, match="answered 200 at .*login"):
        call_command("bench_pages", "--server", f"old={gunicorn}", "--session", "old=nobody",
                     "--seconds", "1", stdout=io.StringIO())  # fmt: skip
    with pytest.raises(CommandError, match="NAME=KEY"):
        call_command("bench_pages", "--server", f"old={gunicorn}", "--session", "new=x",
                     stdout=io.StringIO())  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_old_against_new_in_process_script_measures_every_demo_page() -> None:
    """scripts/bench_inprocess.py, run by scripts/bench_old_new.sh in an older checkout too,
    needs nothing but Django and the URL names: here it runs on this checkout's demo, as
    another process reaching the test database (hence PostgreSQL)."""
    from campaigns.management.commands.bench_pages import demo_after_one_turn
    from tests.support.processes import database_url

    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")
    demo_after_one_turn()
    env = {**os.environ, "DATABASE_URL": database_url(), "SECRET_KEY": settings.SECRET_KEY}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/bench_inprocess.py"), "here", "2"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [
        [page, "here"] for page in ("login", "campaign", "board", "orders", "report")
    ]
    assert all(re.search(r"median +[\d.]+ ms +p95 +[\d.]+ ms .* \d+ queries$", line)
               for line in lines)  # fmt: skip

"""What the `bench_*` commands share: timing a page through the whole request, making the
database's statistics fresh before measuring, and removing what a benchmark built."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from campaigns.models import (
    Board,
    Campaign,
    Department,
    Knowledge,
    Link,
    Membership,
    Order,
    Structure,
    Turn,
    TurnRecord,
)

# The tables a turn, a page or an import reads and writes.
TABLES = (Campaign, Board, Department, Link, Order, Turn, TurnRecord, Structure, Membership)


def vacuum() -> None:
    """VACUUM ANALYZE the campaign tables (PostgreSQL; nothing elsewhere), so each run starts
    from the same state: no dead rows of earlier runs to skip, and planner statistics that
    know the rows the benchmark just loaded (without them PostgreSQL plans for empty tables
    and a query that should use an index scans instead)."""
    if connection.vendor != "postgresql":
        return
    tables = ", ".join(m._meta.db_table for m in (*TABLES, Knowledge))
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {tables}")


def vacuum_note() -> str:
    """What the benchmarks print about it."""
    if connection.vendor == "postgresql":
        return "tables vacuumed and analysed first"
    return f"{connection.vendor}: nothing to vacuum"


def campaign_remove(campaign: Campaign) -> None:
    """Delete a benchmark's campaign and the users made for it (named `<slug>-...`, as
    bench_turns.bench_campaign names them): a benchmark leaves nothing behind."""
    Turn.objects.filter(campaign=campaign).delete()
    campaign.delete()
    get_user_model().objects.filter(username__startswith=f"{campaign.slug}-").delete()


@contextmanager
def plain_static() -> Iterator[None]:
    """Static files by their plain names: the manifest of hashed names exists only after
    collectstatic (a lookup in a dict when it does), and a benchmark must not need one."""
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        yield


@dataclass(frozen=True)
class PageFigures:
    """`requests` GETs of one page through the Django test client (middleware, view,
    template): wall-clock milliseconds, the size of the answer and its SQL queries."""

    median_ms: float
    p95_ms: float
    best_ms: float
    kilobytes: float
    queries: int

    def line(self, name: str, target_ms: float, target_kb: float | None = None) -> str:
        fast = self.median_ms <= target_ms
        small = target_kb is None or self.kilobytes <= target_kb
        size = f", <= {target_kb:.0f} KB" if target_kb is not None else ""
        return (
            f"  {name:<40} median {self.median_ms:6.1f} ms  p95 {self.p95_ms:6.1f} ms  "
            f"{self.kilobytes:7.1f} KB  {self.queries:3d} queries  "
            f"{'OK' if fast and small else 'SLOW'} (target: median <= {target_ms:.0f} ms{size})"
        )


def page_figures(client: Client, url: str, requests: int) -> PageFigures:
    """GET `url` once to warm up, then `requests` times; the page must answer 200."""
    client.get(url, secure=True)
    seconds = []
    size = queries = 0
    for _ in range(max(requests, 1)):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, secure=True)
            seconds.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise AssertionError(f"{url}: {response.status_code}")
        size, queries = len(response.content), len(captured)
    ms = sorted(s * 1000 for s in seconds)
    return PageFigures(
        median_ms=statistics.median(ms),
        p95_ms=ms[max(0, round(len(ms) * 0.95) - 1)],
        best_ms=ms[0],
        kilobytes=size / 1024,
        queries=queries,
    )


def order_statuses(campaign: Campaign, number: int) -> dict[str, int]:
    """How many of turn `number`'s orders ended in each status: what the turn job decided."""
    return dict(
        Order.objects.filter(turn__campaign=campaign, turn__number=number)
        .values_list("status")
        .annotate(n=Count("pk"))
    )

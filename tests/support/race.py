"""Run one job in many threads at once, each on its own database connection (PostgreSQL):
the turn job's and the press's concurrency tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connections


def race[T](
    callers: int, job: Callable[[], T], names: list[str] | None = None
) -> list[tuple[T, float]]:
    """Run `job` in `callers` threads released together, each on its own connection.
    Returns (result, seconds it took) per thread; fails on any thread's error."""
    start = threading.Barrier(callers)
    results: list[tuple[T, float]] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            start.wait()
            began = time.monotonic()
            results.append((job(), time.monotonic() - began))
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connections.close_all()

    names = names or [f"caller-{n}" for n in range(callers)]
    threads = [threading.Thread(target=run, name=name) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a caller never finished"
    assert errors == []
    return results

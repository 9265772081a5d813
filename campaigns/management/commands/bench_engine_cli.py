"""`manage.py bench_engine_cli`: the engine's command line (`manage.py engine`) timed as a
user runs it, a fresh process per call, JSON file in and JSON out.

For each size it writes a random board (campaigns/engine/bench.py) to a temporary file and
times `manage.py engine spawn-consume FILE` and `resolve FILE` (half as many orders as
departments), best of --runs, against the same call on a 10-department board: the difference
is the work beyond start-up, and departments per second are counted on it, in wall-clock
time and in the process's CPU time (steadier on a shared machine). Target:
60,000 departments/s on 20,000 departments. `--compare OTHER/manage.py` times another
checkout's command line in the same run, alternating with this one, for a before/after.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from campaigns.engine.bench import random_state


def best_seconds(manage: str, action: str, path: Path, runs: int) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the process), each the best of `runs`. On a shared
    machine the CPU time is the steadier figure: it does not count waiting for a core."""
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        cpu_before = cpu_of_children()
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, manage, "engine", action, str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=Path(manage).parent,  # that checkout's code, not the one in the working folder
        )
        best_wall = min(best_wall, time.perf_counter() - started)
        best_cpu = min(best_cpu, cpu_of_children() - cpu_before)
    return best_wall, best_cpu


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Command(BaseCommand):
    help = "Time `manage.py engine` as a separate process on big boards."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--sizes", default="20000", help="comma-separated, default 20000")
        parser.add_argument("--runs", type=int, default=3, help="best of this many")
        parser.add_argument("--compare", default="", help="another checkout's manage.py")

    def handle(self, *args: Any, **options: Any) -> None:
        ours = str(Path(settings.BASE_DIR) / "manage.py")
        trees = {"this tree": ours} | (
            {"compared": options["compare"]} if options["compare"] else {}
        )
        sizes = [int(n) for n in options["sizes"].split(",")]
        runs = options["runs"]
        with tempfile.TemporaryDirectory() as folder:
            files: dict[tuple[str, int], Path] = {}
            for size in [10, *sizes]:
                for action in ("spawn-consume", "resolve"):
                    orders = size // 2 if action == "resolve" else 0
                    path = Path(folder) / f"{action}-{size}.json"
                    path.write_text(json.dumps(random_state(size, orders=orders)))
                    files[(action, size)] = path
            for action in ("spawn-consume", "resolve"):
                for size in sizes:
                    for name, manage in trees.items():
                        wall_0, cpu_0 = best_seconds(manage, action, files[(action, 10)], runs)
                        wall, cpu = best_seconds(manage, action, files[(action, size)], runs)
                        rate = size / max(wall - wall_0, 1e-9)
                        cpu_rate = size / max(cpu - cpu_0, 1e-9)
                        verdict = "OK" if rate >= 60_000 else "SLOW"
                        self.stdout.write(
                            f"{action:<14} {size:>6} departments  {name:<9}  {wall:6.3f} s "
                            f"(start-up {wall_0:5.3f} s): {rate:>7,.0f} departments/s beyond "
                            f"start-up, {cpu_rate:>7,.0f} by CPU time  {verdict}"
                        )

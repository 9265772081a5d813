"""Real processes for the tests that need them: Celery workers and beat started with
`sys.executable -m celery` against pytest-django's test database, and a private redis-server.

Every worker and beat of one `Cluster` uses the project's Celery app through
tests/services/celery_test_app.py, whose default queue is unique to the cluster: its workers
never take another test's (or a developer's) messages, nor theirs. That module also holds the
fault hooks a test switches on per process through the environment (a slow board, a job held
half-way, a short beat interval, a short visibility timeout); everything else is the
project's own configuration (illumineaucracy/settings.py).

Processes start in their own session, so `kill()` (SIGKILL) takes a worker together with its
pool processes, as a machine losing it would. Waiting is always a bound (`wait_until`), never
a pause that assumes a quiet machine.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from django.db import connection

BASE_DIR = Path(settings.BASE_DIR)
WAIT = 90  # seconds: a bound, not a pause; what it waits for usually takes well under ten
TEST_APP = "tests.services.celery_test_app"


def database_url() -> str:
    """pytest-django's test database (test_<name>), as a URL for another process's settings."""
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{quote(db['USER'] or '', safe='')}{password}@{host}{port}/{db['NAME']}"


def require_real_services() -> None:
    """Skip unless the tests run on PostgreSQL and a Redis broker (CI has both): another
    process can reach the test database only on a server, and a queue only on Redis."""
    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip(
            f"needs CELERY_BROKER_URL=redis://... (CI sets it), not {settings.CELERY_BROKER_URL}"
        )


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Process:
    """One child process with its output in `log`."""

    name: str
    log: Path
    popen: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole session (the worker and its pool processes): no warm
        shutdown, nothing given back to the broker."""
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM (a warm shutdown: the current task finishes or goes back), then SIGKILL."""
        if not self.alive():
            return
        self.popen.terminate()
        try:
            self.popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
        else:
            try:  # pool processes, beat's embedded clock: nothing may outlive the test
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def spawn(name: str, argv: list[str], folder: Path, env: dict[str, str]) -> Process:
    log = folder / f"{name}.log"
    with log.open("ab") as out:
        popen = subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Process(name=name, log=log, popen=popen)


def wait_until(
    done: Callable[[], bool],
    what: str,
    *,
    watch: Iterable[Process] = (),
    timeout: float = WAIT,
    alive: bool = True,
) -> None:
    """Poll `done` until it holds; fail after `timeout` seconds, or at once when a watched
    process exits (if `alive`), with the logs of the watched processes."""
    watched = list(watch)
    deadline = time.monotonic() + timeout
    while not done():
        dead = [p for p in watched if not p.alive()]
        if alive and dead:
            pytest.fail(f"{dead[0].name} exited while waiting for {what}:\n{logs(watched)}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout:.0f} s.\n{logs(watched)}")
        time.sleep(0.1)


def logs(processes: Iterable[Process]) -> str:
    return "\n".join(f"----- {p.name} -----\n{p.output()}" for p in processes)


UUID = "[-0-9a-f]{36}"


def task_results(process: Process, task: str) -> list[str]:
    """What each run of `task` returned, from the worker's log, in order."""
    pattern = rf"{re.escape(task)}\[{UUID}\] succeeded in [\d.]+s: (\w+)"
    return re.findall(pattern, process.output())


def errors_in(text: str) -> list[str]:
    """Lines of a Celery log at level ERROR or worse, and tracebacks with the exception that
    ends each (its first unindented line), so a failing test says what went wrong."""
    found: list[str] = []
    in_traceback = False
    for line in text.splitlines():
        if in_traceback and line and not line[0].isspace():
            found.append(line)
            in_traceback = False
        if "ERROR/" in line or "CRITICAL/" in line or line.startswith("Traceback"):
            found.append(line)
            in_traceback = line.startswith("Traceback")
    return found


@dataclass
class Cluster:
    """Workers and beats of one test, on one private queue of `broker`."""

    folder: Path
    broker: str = field(default_factory=lambda: settings.CELERY_BROKER_URL)
    queue: str = field(default_factory=lambda: f"test-turns-{uuid.uuid4().hex[:12]}")
    processes: list[Process] = field(default_factory=list)
    # The test settings run queued tasks eagerly (in the test's own process); a cluster's
    # tasks go to its workers through the real broker, so that is off while it runs.
    eager_before: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        from illumineaucracy.celery import app

        self.eager_before = bool(app.conf.task_always_eager)
        app.conf.task_always_eager = False

    @property
    def mail_folder(self) -> Path:
        return self.folder / "mail"

    def env(self, **extra: str) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "illumineaucracy.settings",
            "SECRET_KEY": "tests-only-not-a-secret",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": self.broker,
            "TEST_CELERY_QUEUE": self.queue,
            # django-environ drops the first slash of the path: four in all for an absolute one.
            "EMAIL_URL": f"filemail:///{self.mail_folder}",
            "PYTHONUNBUFFERED": "1",
            **extra,
        }

    def celery(self, name: str, args: list[str], env: dict[str, str]) -> Process:
        argv = [sys.executable, "-m", "celery", "-A", TEST_APP, *args]
        process = spawn(name, argv, self.folder, self.env(**env))
        self.processes.append(process)
        return process

    def worker(self, name: str, *, pool: str = "solo", beat: bool = False, **env: str) -> Process:
        """A worker on the cluster's queue (with `beat`, the clock embedded, as `worker -B`
        runs in production). `env` switches on the fault hooks of celery_test_app.py."""
        args = [
            *("worker", f"--pool={pool}", "--concurrency=1", "--loglevel=INFO"),
            *(f"--hostname={name}-{self.queue}@%h", "--without-gossip", "--without-mingle"),
            "--without-heartbeat",
        ]
        if beat:
            args += ["--beat", f"--schedule={self.folder / f'{name}-schedule'}"]
        return self.celery(name, args, env)

    def beat(self, name: str, **env: str) -> Process:
        """`celery beat` with the project's scheduler (settings: CELERY_BEAT_SCHEDULER)."""
        args = ["beat", "--loglevel=INFO", f"--schedule={self.folder / f'{name}-schedule'}"]
        return self.celery(name, args, env)

    def wait_ready(self, *workers: Process) -> None:
        for worker in workers:
            wait_until(
                lambda w=worker: " ready." in w.output(), f"{worker.name} ready", watch=[worker]
            )

    def sent(self) -> str:
        """Every mail the workers have sent so far (one file per connection)."""
        if not self.mail_folder.exists():
            return ""
        return "".join(p.read_text(errors="replace") for p in sorted(self.mail_folder.glob("*")))

    def logs(self) -> str:
        return logs(self.processes)

    def errors(self) -> list[str]:
        return [f"{p.name}: {line}" for p in self.processes for line in errors_in(p.output())]

    def settled(self) -> bool:
        """Every task a worker received has finished, there or (redelivered) elsewhere."""
        text = "".join(p.output() for p in self.processes)
        received = set(re.findall(rf"\[({UUID})\] received", text))
        finished = set(re.findall(rf"\[({UUID})\] (?:succeeded in|raised unexpected)", text))
        return bool(received) and received <= finished

    def wait_until(self, done: Callable[[], bool], what: str, **kw: float) -> None:
        wait_until(done, what, watch=[p for p in self.processes if p.alive()], **kw)

    def stop(self) -> None:
        from illumineaucracy.celery import app

        for process in self.processes:
            process.stop()
        forget_queue(self.broker, self.queue)
        app.conf.task_always_eager = self.eager_before


def forget_queue(broker: str, queue: str) -> None:
    """Remove what kombu keeps in Redis for the queue (messages, its binding)."""
    try:
        client = redis.Redis.from_url(broker, socket_timeout=5)
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
        client.close()
    except redis.ConnectionError:
        pass  # a private redis-server already gone: nothing left to clean


@dataclass
class RedisServer:
    """A redis-server of the test's own on a free port (never the machine's shared one), to
    stop and start again while workers and beat use it. No persistence: a restart loses
    every message, the worst a broker restart can do."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [
            *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
        ]
        self.process = spawn(f"redis-{self.port}", argv, self.folder, dict(os.environ))
        wait_until(self.answers, f"redis-server on port {self.port}", watch=[self.process])

    def answers(self) -> bool:
        try:
            client = redis.Redis.from_url(self.url, socket_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.ConnectionError:
            return False

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()

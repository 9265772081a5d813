"""The settings start safely: production checks pass with the documented variables, and
fail when the secret key is missing; tools run with nothing configured."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The production variables documented in docs/operations.md ("Settings"), with example values.
PRODUCTION_ENV = {
    "SECRET_KEY": "k3P9v-example-only-0aZ8rT2wQx7LmN4bY6cD1eF5gH0jK_sUvW3xYz",
    "ALLOWED_HOSTS": "illumineaucracy.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://illumineaucracy.example.org",
    "DATABASE_URL": "postgres://illumineaucracy:pw@db.example.org:5432/illumineaucracy",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
    "EMAIL_URL": "smtp+tls://gm:pw@mail.example.org:587",
    "DEFAULT_FROM_EMAIL": "Illumineaucracy <gm@example.org>",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a fresh process with exactly these variables (plus PATH)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_deploy_check_passes_with_the_documented_production_variables() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_the_deploy_check_fails_without_a_secret_key() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = manage("check", "--deploy", env=env)
    assert result.returncode != 0
    assert "campaigns.E001" in result.stderr + result.stdout


@pytest.mark.slow
def test_the_engine_command_runs_with_nothing_configured() -> None:
    """ENGINE.md: other tools call `manage.py engine` with no environment at all."""
    seed = "0" * 64
    result = manage("engine", "roll", "--seed", seed, "--key", "1:o1:attack", "--dice", "3", env={})
    assert result.returncode == 0, result.stderr
    assert '"faces"' in result.stdout


@pytest.mark.slow
def test_debug_runs_with_nothing_else_set() -> None:
    result = manage("check", env={"DEBUG": "true"})
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_deploy_check_flags_debug_left_on() -> None:
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", env={**PRODUCTION_ENV, "DEBUG": "true"}
    )
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout


NO_KEY = "refusing to serve the site without SECRET_KEY"


def python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_the_wsgi_application_refuses_to_start_without_a_secret_key() -> None:
    """Each gunicorn worker would make up its own key: sessions signed by one worker would
    be refused by the next. One line says why; no traceback."""
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = python("import illumineaucracy.wsgi", env)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and NO_KEY in lines[0], result.stderr


@pytest.mark.slow
def test_gunicorn_stops_with_one_line_without_a_secret_key() -> None:
    """What an operator sees: gunicorn's own start and stop lines, our reason once, no
    traceback, and gunicorn gives up instead of restarting workers forever."""
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    try:
        result = subprocess.run(
            [gunicorn, "--bind", "127.0.0.1:0", "--workers", "3", "illumineaucracy.wsgi"],
            cwd=ROOT,
            env={"PATH": os.environ.get("PATH", ""), **env},
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("gunicorn kept serving without SECRET_KEY")
    assert result.returncode == 4  # gunicorn's "App failed to load"
    # Once, from the master (gunicorn.conf.py), before any worker is forked.
    assert result.stderr.count(NO_KEY) == 1, result.stderr
    assert "Traceback" not in result.stderr and "Booting worker" not in result.stderr


@pytest.mark.slow
def test_the_wsgi_application_starts_with_debug_and_no_secret_key() -> None:
    result = python(
        "from illumineaucracy.wsgi import application; print(callable(application))",
        {"DEBUG": "true"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


@pytest.mark.slow
def test_the_wsgi_module_warms_the_site_up_and_opens_no_database_connection() -> None:
    """gunicorn loads it in the master (preload_app) and forks every worker from it, a
    recycled worker's replacement too: every template is compiled and every view imported
    before the first request, and no connection is open that two workers could share (the
    documented production database is not even reachable here)."""
    code = """
import runpy, sys
from pathlib import Path
import illumineaucracy.wsgi
from django.db import connections
from django.template import engines
cache = engines["django"].engine.template_loaders[0].get_template_cache
print(len(cache), len(list(Path("templates").rglob("*.html"))))
print(connections["default"].connection is None, "campaigns.web.orders" in sys.modules)
print(runpy.run_path("gunicorn.conf.py")["preload_app"])
"""
    result = python(code, PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    compiled, templates, closed, views, preload = result.stdout.split()
    assert int(compiled) >= int(templates) > 100
    assert (closed, views, preload) == ("True", "True", "True")


@pytest.mark.slow
def test_management_commands_still_run_without_a_secret_key() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def site_url(env: dict[str, str]) -> str:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from illumineaucracy import settings; print(settings.SITE_URL)",
        ],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.slow
def test_mail_links_follow_the_port_the_site_is_served_on() -> None:
    """./run exports PORT (PORT=8001 ./run): links in mail must not point at 8000."""
    assert site_url({"DEBUG": "true"}) == "http://127.0.0.1:8000"
    assert site_url({"DEBUG": "true", "PORT": "8001"}) == "http://127.0.0.1:8001"
    assert (
        site_url({"DEBUG": "true", "PORT": "8001", "SITE_URL": "https://example.org/"})
        == "https://example.org"
    )

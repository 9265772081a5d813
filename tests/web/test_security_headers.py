"""Security headers and logs: every page sends the Content-Security-Policy (no inline script,
no eval), the pages run under it in a real browser with no violation, HSTS `preload` is sent
only with a max-age of a year, and an ordinary 403 logs one line, not a traceback."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Turn
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in
from tests.support.handmade import ClientFor

ROOT = Path(__file__).resolve().parents[2]
YEAR = 31536000


def demo_pages(campaign: Campaign) -> list[str]:
    """Every page of the demo a player or the GM can open with GET."""
    slug = campaign.slug
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    pages = [
        reverse("home"),
        reverse("how_to_play"),
        reverse("campaign", args=[slug]),
        reverse("orders", args=[slug]),
        reverse("turn_report", args=[slug, turn.number - 1]),
        reverse("verify_dice", args=[slug, turn.number - 1]),
        reverse("notification_settings"),
        reverse("extend_deadline", args=[slug]),
        reverse("turn_process", args=[slug]),
    ]
    pages += [reverse("board", args=[slug, board.slug]) for board in campaign.boards.all()]
    # History (issue 11): the board at the start, with its map; the history pages.
    alice = campaign.memberships.get(user__username="alice")
    pages += [
        f"{reverse('board', args=[slug, 'city'])}?turn=0",
        reverse("board_history", args=[slug, "city"]),
        reverse("structure_history", args=[slug, "city", alice.pk]),
        reverse("department_history", args=[slug, "city", "mint"]),
        reverse("compare_turns", args=[slug, "city"]),
    ]
    return pages


def assert_policy(response: Any, url: str) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy, (url, response.status_code, policy)
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_every_demo_page_sends_the_content_security_policy(
    demo: Campaign, client_for: ClientFor, username: str
) -> None:
    client = client_for(username)
    urls = demo_pages(demo)
    assert urls
    for url in urls:
        response = client.get(url)
        # 302: the GM opening the orders page is sent to the campaign page.
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        assert_policy(response, url)


@pytest.mark.django_db
def test_the_public_pages_send_it_too() -> None:
    client = Client()
    for url in (reverse("login"), reverse("password_reset"), "/admin/login/", "/nowhere/"):
        assert_policy(client.get(url), url)


def test_an_ordinary_403_logs_one_line_without_a_traceback(
    demo: Campaign, client_for: ClientFor, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client_for("alice").get(reverse("extend_deadline", args=[demo.slug]))

    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    record = records[0]
    assert record.exc_info is None and record.exc_text is None
    line = logging.Formatter().format(record)
    assert "\n" not in line
    assert line.startswith("Forbidden (Permission denied): /c/tourmaline/deadline/")
    assert "Only the campaign's GM may do this." in line


def settings_value(name: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = f"from django.conf import settings; print(settings.{name})"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DJANGO_SETTINGS_MODULE": "illumineaucracy.settings",
            "SECRET_KEY": "x" * 50,
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seconds", "preload"), [(None, "False"), ("60", "False"), (str(YEAR), "True")]
)
def test_hsts_preload_is_on_by_default_only_with_a_max_age_of_a_year(
    seconds: str | None, preload: str
) -> None:
    env = {} if seconds is None else {"SECURE_HSTS_SECONDS": seconds}
    result = settings_value("SECURE_HSTS_PRELOAD", env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == preload


@pytest.mark.slow
def test_asking_for_preload_with_a_shorter_max_age_refuses_to_start() -> None:
    result = settings_value(
        "SECURE_HSTS_PRELOAD", {"SECURE_HSTS_PRELOAD": "true", "SECURE_HSTS_SECONDS": "60"}
    )
    assert result.returncode != 0
    assert "SECURE_HSTS_PRELOAD needs SECURE_HSTS_SECONDS of at least 31536000" in result.stderr


@BROWSER_MARKS[0]
@BROWSER_MARKS[1]
@pytest.mark.parametrize("username", ["alice", "gm"])
def test_the_main_pages_run_in_a_browser_with_no_policy_violation(
    live_server: Any, transactional_db: None, browser: Any, username: str
) -> None:
    """Chromium reports every blocked script, style or eval on the console ("Refused to
    ..."), and as a securitypolicyviolation event; neither may happen on any main page."""
    from campaigns.services.demo import demo_create

    campaign = demo_create()
    page = log_in(browser, live_server.url, username, DESKTOP)
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    for url in [*demo_pages(campaign), reverse("login")]:
        response = page.goto(f"{live_server.url}{url}")
        assert "default-src 'self'" in response.headers.get("content-security-policy", ""), url
        page.evaluate(
            "() => document.addEventListener('securitypolicyviolation', e => "
            "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
        )
        page.wait_for_load_state("load")
    # Opening the navbar on a phone-sized page runs Bootstrap's collapse, which sets styles.
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}{reverse('home')}")
    page.locator(".navbar-toggler").click()
    page.locator("#main-nav").wait_for(state="visible")
    violations = [line for line in console if "Content Security Policy" in line or "CSP" in line]
    assert violations == [], violations
    # A player's 403 on a GM page shows up as a failed resource; nothing else may.
    errors = [
        line
        for line in console
        if line.startswith(("error", "pageerror")) and "status of 403" not in line
    ]
    assert errors == [], console

    # The listener does see a violation: an inline script added to the page is refused.
    page.evaluate(
        "() => document.body.append(Object.assign(document.createElement('script'), "
        "{textContent: 'window.inlineRan = true'}))"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.inlineRan === undefined")
    assert any("Content Security Policy" in line for line in console), console

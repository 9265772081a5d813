"""Pages no other browser test opens, in a real browser (Debian's chromium, Playwright):
a player changes her password from her profile, then forgets it and sets a new one from the
link in the mail; she opens a department's history from her board's history; the GM previews
the turn and extends its deadline. Each page in the site's own look (not the admin's), with
screenshots in test-output/."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS
PASSWORD = "tourmaline"


def test_a_player_changes_her_password_then_resets_it_from_the_mail(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()
    get_user_model().objects.filter(username="alice").update(email="alice@example.com")
    base = live_server.url
    alice = log_in(browser, base, "alice", PHONE)
    alice.goto(f"{base}{reverse('profile')}")
    alice.get_by_role("link", name="Change your password").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Change your password")
    alice.fill("#id_old_password", "not her password")
    alice.fill("#id_new_password1", "a Bureau of New Secrets 9")
    alice.fill("#id_new_password2", "a Bureau of New Secrets 9")
    alice.get_by_role("button", name="Change password").click()
    expect(alice.locator(".invalid-feedback").first).to_be_visible()  # refused, stays
    alice.fill("#id_old_password", PASSWORD)
    alice.fill("#id_new_password1", "a Bureau of New Secrets 9")
    alice.fill("#id_new_password2", "a Bureau of New Secrets 9")
    shot(alice, "password-change-phone")
    alice.get_by_role("button", name="Change password").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Password changed")
    alice_now = get_user_model().objects.get(username="alice")
    assert alice_now.check_password("a Bureau of New Secrets 9")

    visitor = browser.new_page(viewport=DESKTOP)
    visitor.goto(f"{base}{reverse('login')}")
    visitor.get_by_role("link", name="Forgot your password?").click()
    visitor.fill("#id_email", "alice@example.com")
    shot(visitor, "password-reset-desktop")
    visitor.get_by_role("button", name="Send the link").click()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Check your mail")
    assert len(mail.outbox) == 1, [m.subject for m in mail.outbox]
    link = re.search(r"https?://\S+", mail.outbox[0].body)
    assert link is not None, mail.outbox[0].body
    visitor.goto(link.group(0))
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Set a new password")
    visitor.fill("#id_new_password1", "Another Long Password 7")
    visitor.fill("#id_new_password2", "Another Long Password 7")
    visitor.get_by_role("button", name="Set the password").click()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Password set")
    shot(visitor, "password-reset-complete-desktop")
    visitor.goto(link.group(0))  # a used link says so, in words
    expect(visitor.locator("[data-refusal]")).to_contain_text("used already")
    assert get_user_model().objects.get(username="alice").check_password("Another Long Password 7")


def test_a_player_reads_a_departments_history_and_the_gm_previews_and_extends(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    alice.goto(f"{base}{reverse('board_history', args=[campaign.slug, 'city'])}")
    alice.get_by_role("link", name="The Mint", exact=True).first.click()
    expect(alice.get_by_role("heading", level=1)).to_contain_text("The Mint")
    shot(alice, "department-history-desktop")

    gm = log_in(browser, base, "gm", DESKTOP)
    gm.goto(f"{base}{reverse('campaign', args=[campaign.slug])}")
    gm.get_by_role("link", name="Preview turn 1").click()
    expect(gm.locator("#preview-banner")).to_contain_text("Preview, nothing is saved.")
    shot(gm, "turn-preview-gm-desktop")
    gm.goto(f"{base}{reverse('campaign', args=[campaign.slug])}")
    gm.get_by_role("link", name="Extend the deadline…").click()
    expect(gm.get_by_role("heading", level=1)).to_have_text("Extend the deadline of turn 1")
    shot(gm, "extend-deadline-gm-desktop")
    gm.get_by_role("button", name="Extend the deadline").click()  # as the form stands
    expect(gm.locator(".alert-success, .alert-danger, .invalid-feedback").first).to_be_visible()
    shot(gm, "extend-deadline-answered-gm-desktop")

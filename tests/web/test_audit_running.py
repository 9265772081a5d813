"""Issue 25, the audit log (RULES R53): the GM's running of a campaign (start, pause,
resume, a deadline extended, a turn processed now) and announcements are each logged once,
with who and the values before and after; and the log shows every entry's before and after
in words, never as a dict's repr ({'hidden': True})."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags

from campaigns.models import AuditEntry, Campaign, Membership, Turn
from campaigns.services.audit import audit_record
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    MembershipFactory,
    StructureFactory,
)
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def logged(campaign: Campaign) -> list[AuditEntry]:
    """The campaign's schedule and announcement entries, oldest first."""
    kinds = [AuditEntry.Action.SCHEDULE, AuditEntry.Action.ANNOUNCEMENT]
    return list(campaign.audit.filter(action__in=kinds).order_by("at", "pk"))


def log_table(client: Client, slug: str = SLUG) -> str:
    """The audit page's table, as text."""
    page = client.get(reverse("audit_log", args=[slug])).content.decode()
    table = page.split("<table")[1].split("</table>")[0]
    return " ".join(html.unescape(strip_tags("<table" + table)).split())


def test_the_gms_pause_resume_extension_processing_and_announcement_are_each_logged(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, gm_user = client_for("gm"), get_user_model().objects.get(username="gm")
    turn = demo.turns.get(status=Turn.Status.OPEN)
    old = turn.deadline
    zone = ZoneInfo(demo.time_zone)
    new = (old + dt.timedelta(days=2)).astimezone(zone).replace(second=0, microsecond=0)

    gm.post(reverse("campaign_pause", args=[SLUG]))
    gm.post(reverse("campaign_resume", args=[SLUG]))
    gm.post(reverse("extend_deadline", args=[SLUG]),
            {"number": turn.number, "deadline": new.strftime("%Y-%m-%dT%H:%M")})  # fmt: skip
    gm.post(reverse("turn_process", args=[SLUG]), {"number": turn.number, "confirm": "on"})
    gm.post(reverse("announcement_new", args=[SLUG]), {"text": "The Mint is closed today."})

    entries = logged(demo)
    assert [(e.target, e.before, e.after) for e in entries] == [
        ("campaign paused", {"status": "running"}, {"status": "paused"}),
        ("campaign resumed", {"status": "paused"}, {"status": "running"}),
        (f"deadline of turn {turn.number}", {"deadline": old.isoformat()},
         {"deadline": new.astimezone(dt.UTC).isoformat()}),
        (f"turn {turn.number} processed now",
         {"status": "open", "deadline": new.astimezone(dt.UTC).isoformat()},
         {"status": "processed", "opened_turn": turn.number + 1,
          "deadline": demo.turns.get(number=turn.number + 1).deadline.isoformat()}),
        ("announcement", {}, {"text": "The Mint is closed today."}),
    ]  # fmt: skip
    assert {e.actor for e in entries} == {gm_user}
    # Refused (it is running; no such open turn): nothing done, nothing logged.
    gm.post(reverse("campaign_resume", args=[SLUG]))
    gm.post(reverse("turn_process", args=[SLUG]), {"number": 99, "confirm": "on"})
    assert logged(demo) == entries
    table = log_table(gm)
    assert (
        "Start, pause, deadlines and processing: campaign paused status: Running status: Paused"
        in table
    )
    assert f"turn {turn.number} processed now" in table
    new_text = f"{new:%H:%M}"
    assert f"deadline: {new.strftime('%a')} {new.day} {new:%b %Y}, {new_text}" in table
    assert "Announcements: announcement — text: The Mint is closed today." in table


def test_resuming_after_the_deadline_passed_logs_the_deadline_it_moved(
    demo: Campaign, client_for: ClientFor
) -> None:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    gm = client_for("gm")
    gm.post(reverse("campaign_pause", args=[SLUG]))
    passed = turn.deadline - dt.timedelta(days=30)
    Turn.objects.filter(pk=turn.pk).update(deadline=passed)
    gm.post(reverse("campaign_resume", args=[SLUG]))
    resumed = logged(demo)[-1]
    turn.refresh_from_db()
    assert turn.deadline > passed
    assert resumed.before == {"status": "paused", "deadline": passed.isoformat()}
    assert resumed.after == {"status": "running", "deadline": turn.deadline.isoformat()}


def test_the_start_is_logged_with_the_first_deadline(client: Client) -> None:
    gm = MembershipFactory(role=Membership.Role.GM, campaign=CampaignFactory(slug="fresh"))
    structure = StructureFactory(board=BoardFactory(campaign=gm.campaign))
    DepartmentFactory(board=structure.board, structure=structure, home=True)
    client.force_login(gm.user)
    client.post(reverse("campaign_start", args=["fresh"]))
    (entry,) = logged(gm.campaign)
    first = gm.campaign.turns.get(number=1)
    assert (entry.actor, entry.target) == (gm.user, "campaign started")
    assert entry.before == {"status": "draft"}
    assert entry.after == {"status": "running", "turn": 1, "deadline": first.deadline.isoformat()}
    table = log_table(client, "fresh")
    assert "campaign started status: Draft deadline: " in table  # the after, by key
    assert " status: Running turn: 1" in table


# One entry of every kind, before and after as the services write them (services/*.py).
EVERY_KIND: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "settings": ("campaign settings", {"deadline_weekday": 4, "early_processing": False},
                 {"deadline_weekday": 5, "early_processing": True}),
    "alignments": ("alignment catalogue", {"alignments": [{"name": "Government",
                   "opposite": "Communist", "self_opposed": False}]}, {"alignments": []}),
    "board": ("board City", {}, {"imported": "city", "departments": 12, "links": 3}),
    "members": ("invitation #3", {"revoked": False}, {"revoked": True}),
    "rollback": ("turn 2", {"seed": "ab12", "commitment": "cd34", "status": "processed"},
                 {"commitment": "ef56", "status": "open", "orders_queued_again": 3,
                  "orders_discarded": 0}),
    "campaign": ("campaign ended", {"status": "running"},
                 {"status": "finished", "last_turn": 4, "orders_discarded": 1}),
    "department": ("City: The Mint", {"functions": {"coinage": {"effect": 2}},
                   "alignments": ["Government"], "controller": None, "home": True},
                   {"removed": True}),
    "link": ("The Mint: funding order", {"order": ["treasury", "temple"]},
             {"order": ["temple", "treasury"]}),
    "structure": ("structures on City", {"alice": ["mint", "temple"]}, {"alice": ["mint"]}),
    "knowledge": ("knowledge on City", {"alice": {"mint": 1}}, {"alice": {"mint": 2}}),
    "press": ("message 2 of conversation #1", {"sender": "alice", "text": "Psst."},
              {"hidden": True}),
    "shticks": ("alice", {}, {"granted": {"kind": "production", "department": "mint", "n": 1}}),
    "envelopes": ("alice", {}, {"contingency": 4, "condition": "date", "turn": None,
                  "date": "2026-05-01", "department": None, "level": None}),
    "goals": ("alice", {"kind": "control", "n": 3, "count": 1}, {}),
    "offices": ("City: Mayor", {}, {"name": "Mayor", "shticks": [{"kind": "link_limit", "n": 1}],
                "holder": None, "deputy": None, "alignment": ""}),
    "schedule": ("deadline of turn 2", {"deadline": "2026-03-04T17:00:00+00:00"},
                 {"deadline": "2026-03-06T17:00:00+00:00"}),
    "announcement": ("announcement", {}, {"text": "Hear ye."}),
}  # fmt: skip


def test_every_kind_of_entry_shows_its_before_and_after_in_words(
    demo: Campaign, client_for: ClientFor
) -> None:
    assert set(EVERY_KIND) == set(AuditEntry.Action.values), "a kind of entry is not shown here"
    gm_user = get_user_model().objects.get(username="gm")
    for action, (target, before, after) in EVERY_KIND.items():
        audit_record(campaign=demo, actor=gm_user, action=action, target=target, before=before,
                     after=after)  # fmt: skip
    table = log_table(client_for("gm"))
    for repr_mark in ("{", "}", "':", '":', "True", "False", "None"):
        assert repr_mark not in table, (repr_mark, table)
    for words in (
        "hidden from the players: yes",
        "sender: alice text: Psst.",
        "early processing: no",
        "alignments: (name: Government, opposite: Communist, self-opposed: no)",
        "functions: coinage: (effect: 2)",
        "knowledge on City alice: mint: 1 alice: mint: 2",
        "status: Processed",
        "status: Open for orders",
        "deadline: Wed 4 Mar 2026, 18:00 CET",  # the demo's zone is Berlin's
        "date: 1 May 2026",
        "controller: none",
        "text: Hear ye.",
    ):
        assert words in table, (words, table)
    # What the action already says is not said twice ("Board: board City").
    for twice in ("campaign settings", "alignment catalogue", "board City"):
        assert twice not in table, (twice, table)


def test_the_log_is_in_german_for_a_german_reader(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    gm.post(reverse("campaign_pause", args=[SLUG]))
    gm.cookies.load({"django_language": "de"})
    table = log_table(gm)
    assert re.search(r"Kampagne pausiert Status: Läuft Status: Pausiert", table), table

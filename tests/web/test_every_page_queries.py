"""Every page of the site costs the same number of SQL queries however many departments,
orders, attempts, notices, audit entries, invitations and turns the campaign has (issue 15):
no query per row anywhere. Each page is counted on the demo after turn 1 with one of each,
then again after the campaign grew by GROWTH more of each; the counts must be equal. (The
board page, the orders page and the turn report have their own, finer tests:
test_board_queries.py, tests/selectors/test_page_queries.py.)"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import AuditEntry, Invitation, Notice, Order, Turn
from tests.selectors.test_page_queries import grow
from tests.support.demo import Played, member, open_turn, play_turn_one
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
GROWTH = 25

# (user, URL name, arguments); "{order}" and "{attempt}" are filled in per campaign.
PAGES = [
    ("alice", "home", []),
    ("alice", "how_to_play", []),
    ("alice", "campaign", [SLUG]),
    ("gm", "campaign", [SLUG]),
    ("alice", "board", [SLUG, "city"]),
    ("gm", "board", [SLUG, "harbour"]),
    ("alice", "orders", [SLUG]),
    ("alice", "turn_report", [SLUG, 1]),
    ("gm", "turn_report", [SLUG, 1]),
    ("alice", "verify_dice", [SLUG, 1]),
    ("alice", "notification_settings", []),
    *(("alice", "order_new", [SLUG, "city", kind]) for kind in
      ("add_link", "break_link", "priority", "move", "attempt", "function")),
    ("alice", "order_edit", [SLUG, "{order}"]),
    ("alice", "order_reinforce", [SLUG, "{attempt}"]),
    ("alice", "department_defence", [SLUG, "city", "mint"]),
    ("alice", "campaign_new", []),
    ("gm", "campaign_settings", [SLUG]),
    ("gm", "campaign_alignments", [SLUG]),
    ("gm", "audit_log", [SLUG]),
    ("gm", "board_import", [SLUG]),
    ("gm", "board_export", [SLUG, "city", "json"]),
    ("gm", "board_export", [SLUG, "city", "csv"]),
    ("gm", "players", [SLUG]),
    ("gm", "turn_preview", [SLUG]),
    ("gm", "turn_rollback", [SLUG]),
    ("gm", "campaign_end", [SLUG]),
    ("gm", "turn_process", [SLUG]),
    ("gm", "extend_deadline", [SLUG]),
    ("gm", "campaign_archive", [SLUG]),
    # RULES parts 7 and 8 (issue 12).
    ("alice", "dossier", [SLUG]),
    ("bob", "campaign", [SLUG]),  # hand-overs offered to him, with their accept buttons
    ("bob", "orders", [SLUG]),
    *(("alice", "order_new", [SLUG, "city", kind]) for kind in
      ("perceive", "gift", "handover", "accept")),
    ("gm", "member_edit", [SLUG, "{alice}"]),
    ("gm", "shtick_new", [SLUG, "{alice}", "production"]),
    ("gm", "goal_new", [SLUG, "{alice}", "control_aligned"]),
    ("gm", "contingency_new", [SLUG, "{alice}", "knowledge"]),
    ("gm", "department_envelopes", [SLUG, "city", "temple"]),
    ("gm", "turn_report", [SLUG, 1]),
]  # fmt: skip


def grow_everything(played: Played, extra: int) -> None:
    """grow() (departments, orders, attempts on alice, turns) plus notices, audit entries
    and invitations."""
    campaign = played.campaign
    turn = open_turn(campaign)
    grow(campaign, turn, extra=extra)
    # grow() numbers its processed turns after the open one; the open turn stays the last.
    last = campaign.turns.exclude(pk=turn.pk).order_by("-number").first()
    assert last is not None
    Turn.objects.filter(pk=turn.pk).update(number=max(turn.number, last.number + 1))
    alice = member(campaign, "alice")
    Notice.objects.bulk_create(
        Notice(player=alice, turn=turn, text=f"Notice {i}", url="/") for i in range(extra)
    )
    AuditEntry.objects.bulk_create(
        AuditEntry(campaign=campaign, action=AuditEntry.Action.SETTINGS, target=f"t{i}")
        for i in range(extra)
    )
    Invitation.objects.bulk_create(
        Invitation(campaign=campaign, expires_at=timezone.now() + dt.timedelta(days=1))
        for _ in range(extra)
    )
    grow_intrigue(played, extra)


def grow_intrigue(played: Played, extra: int) -> None:
    """RULES parts 7 and 8: alice's shticks, goals with progress, intel envelopes on the
    Temple in her dossier, sealed envelopes opened in turn 1 and still sealed; hand-overs
    alice offers bob in the open turn."""
    from campaigns.models import (
        ContingencyEnvelope,
        DossierEntry,
        Goal,
        GoalProgress,
        IntelEnvelope,
        Shtick,
    )

    campaign = played.campaign
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    city = campaign.boards.get(slug="city")
    temple = city.departments.get(slug="temple")
    turn_1, turn = campaign.turns.get(number=1), open_turn(campaign)
    Shtick.objects.bulk_create(
        Shtick(member=alice, kind="dice", department=temple,
               data={"kind": "dice", "roll": "attack", "department": "temple", "amount": i})
        for i in range(extra)
    )  # fmt: skip
    goals = Goal.objects.bulk_create(
        Goal(member=alice, kind="control", data={"n": i + 1}) for i in range(extra)
    )
    GoalProgress.objects.bulk_create(
        GoalProgress(goal=g, turn=turn_1, value=1, met=False) for g in goals
    )
    envelopes = IntelEnvelope.objects.bulk_create(
        IntelEnvelope(department=temple, text=f"Intel {i}", target=3) for i in range(extra)
    )
    DossierEntry.objects.bulk_create(
        DossierEntry(member=alice, envelope=e, turn=turn_1) for e in envelopes
    )
    ContingencyEnvelope.objects.bulk_create(
        ContingencyEnvelope(member=alice, text=f"Sealed {i}", condition="joins",
                            department=temple, opened_turn=turn_1 if i % 2 else None)
        for i in range(extra)
    )  # fmt: skip
    watch = city.departments.get(slug="mint")
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=alice, kind=Order.Kind.HANDOVER, seq=300 + i,
              payload={"department": watch.slug, "to": bob.player_id})
        for i in range(extra)
    )  # fmt: skip


def url_for(played: Played, name: str, args: list[object]) -> str:
    turn = open_turn(played.campaign)
    alice, bob = member(played.campaign, "alice"), member(played.campaign, "bob")
    city = played.campaign.boards.get(slug="city")
    fill = {
        "{alice}": lambda: alice.pk,
        "{order}": lambda: Order.objects.get_or_create(
            turn=turn, board=city, player=alice, kind=Order.Kind.FUNCTION, seq=0,
            payload={"department": "mint", "function": "coinage", "stat": "effect"},
        )[0].pk,
        "{attempt}": lambda: Order.objects.get_or_create(
            turn=turn, board=city, player=bob, kind=Order.Kind.ATTEMPT, seq=0,
            payload={"attacker": "guild-hall", "target": "mint"},
        )[0].pk,
    }  # fmt: skip
    return reverse(name, args=[fill[a]() if a in fill else a for a in args])


def queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


@pytest.mark.parametrize(("user", "name", "args"), PAGES, ids=lambda v: str(v))
def test_the_page_costs_the_same_queries_whatever_the_campaign_holds(
    client_for: ClientFor, user: str, name: str, args: list[object]
) -> None:
    played = play_turn_one()
    url = url_for(played, name, args)
    client = client_for(user)
    grow_everything(played, 1)  # one of each: an empty list may skip its query
    small = queries_for(client, url)
    grow_everything(played, GROWTH)
    assert Turn.objects.filter(campaign=played.campaign).count() > GROWTH
    large = queries_for(client, url)
    assert small == large, f"{url}: {small} queries, {large} after growing by {GROWTH}"

"""A campaign that grows (issue 15): everything a page may list, more of it, so a test can ask
each page for its SQL queries before and after and find any query per row
(tests/web/test_every_page_queries.py)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.models import (
    Announcement,
    AuditEntry,
    Campaign,
    Department,
    Invitation,
    Knowledge,
    Membership,
    Notice,
    Order,
    Turn,
)
from campaigns.press.services.press import channel_ensure
from campaigns.words.notices import NOTICES, notice_fields
from tests.support.demo import member, open_turn
from tests.support.press import grow as grow_messages
from tests.support.press import talk


def grow(campaign: Campaign, turn: Turn, *, extra: int) -> None:
    """`extra` more departments on the city board (known to alice), `extra` more orders of
    alice's in `turn` (queued, cancelled and resolved with a reason), `extra` attempts of bob
    on alice's departments, and `extra` past turns."""
    city = campaign.boards.get(slug="city")
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    first = Department.objects.filter(board=city, slug__startswith="extra-").count()
    added = Department.objects.bulk_create(
        Department(board=city, slug=f"extra-{first + i}", name=f"Extra Office {first + i}",
                   consumes_type="money", consumes_amount=1, produces_type="people",
                   produces_amount=1)
        for i in range(extra)
    )  # fmt: skip
    Knowledge.objects.bulk_create(Knowledge(player=alice, department=d, level=2) for d in added)
    mint = {"department": "mint", "function": "coinage", "stat": "effect"}
    statuses = [Order.Status.QUEUED, Order.Status.CANCELLED, Order.Status.REJECTED]
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=alice, kind=Order.Kind.FUNCTION, payload=mint,
              seq=100 + i, status=statuses[i % 3],
              result={"reason": "mint already made a function roll this turn (R45)"})
        for i in range(extra)
    )  # fmt: skip
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=bob, kind=Order.Kind.ATTEMPT, seq=200 + i,
              payload={"attacker": "guild-hall", "target": "city-watch"})
        for i in range(extra)
    )  # fmt: skip
    last = campaign.turns.order_by("-number").first()
    assert last is not None
    Turn.objects.bulk_create(
        Turn(campaign=campaign, number=last.number + 1 + i, status=Turn.Status.PROCESSED,
             opened_at=timezone.now(), deadline=timezone.now() - dt.timedelta(days=1),
             seed="0" * 64, commitment="")
        for i in range(extra)
    )  # fmt: skip


def grow_everything(campaign: Campaign, extra: int) -> None:
    """grow() (departments known to alice, alice's orders, bob's attempts on alice, turns),
    and `extra` more of each: notices, audit entries, invitations, members, announcements,
    conversations alice is in, messages in the public channel and in each conversation."""
    turn = open_turn(campaign)
    grow(campaign, turn, extra=extra)
    # grow() numbers its processed turns after the open one; the open turn stays the last.
    last = campaign.turns.exclude(pk=turn.pk).order_by("-number").first()
    assert last is not None
    Turn.objects.filter(pk=turn.pk).update(number=max(turn.number, last.number + 1))
    alice, gm = member(campaign, "alice"), member(campaign, "gm")
    # Text-only notices (older rows) and coded ones, put into words when shown (issue 25).
    coded = [notice_fields(code, words.example) for code, words in NOTICES.items()]
    Notice.objects.bulk_create(
        Notice(player=alice, turn=turn, url="/",
               **(coded[i % len(coded)] if i % 2 == 0 else {"text": f"Notice {i}"}))
        for i in range(extra)
    )  # fmt: skip
    AuditEntry.objects.bulk_create(
        AuditEntry(campaign=campaign, action=AuditEntry.Action.SETTINGS, target=f"t{i}")
        for i in range(extra)
    )
    Invitation.objects.bulk_create(
        Invitation(campaign=campaign, expires_at=timezone.now() + dt.timedelta(days=1))
        for _ in range(extra)
    )
    grow_members(campaign, extra)
    Announcement.objects.bulk_create(
        Announcement(campaign=campaign, author=gm, text=f"Announcement {i}") for i in range(extra)
    )
    grow_messages(channel_ensure(campaign=campaign), "bob", extra)
    for i in range(extra):
        talk(campaign, "bob", ["alice"], f"Psst {i}", subject=f"Deal {i}")
    for conversation in campaign.conversations.filter(is_public=False):
        grow_messages(conversation, "bob", extra)
    grow_election(campaign, turn, extra)
    grow_intrigue(campaign, extra)


def grow_election(campaign: Campaign, turn: Turn, extra: int) -> None:
    """R80: bob's ticket, and `extra` more support orders of alice's for it, queued."""
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    city = campaign.boards.get(slug="city")
    guild = {"candidate": "guild-hall", "running_mate": "printing-press"}
    Order.objects.create(turn=turn, board=city, player=bob, kind=Order.Kind.NOMINATE,
                         payload=guild, seq=300)  # fmt: skip
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=alice, kind=Order.Kind.SUPPORT, seq=400 + i,
              payload={"department": "mint", "ticket": "guild-hall"})
        for i in range(extra)
    )  # fmt: skip


def grow_members(campaign: Campaign, extra: int) -> None:
    """`extra` more players (each with an account) and observers."""
    users = get_user_model().objects
    first = Membership.objects.filter(campaign=campaign).count()
    made = users.bulk_create(
        users.model(username=f"grown-{campaign.pk}-{first + i}") for i in range(2 * extra)
    )
    roles = [Membership.Role.PLAYER, Membership.Role.OBSERVER]
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=user, role=roles[i % 2]) for i, user in enumerate(made)
    )


def grow_intrigue(campaign: Campaign, extra: int) -> None:
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
        IntelEnvelope(department=temple, campaign_id=campaign.pk, text=f"Intel {i}", target=3)
        for i in range(extra)
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

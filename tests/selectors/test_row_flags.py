"""The flags written as SQL (selectors/row_flags.py, press_unread's read mark) say what the
ORM's Exists and Subquery said: each checked against the ORM's own expression, on rows where
it is true and rows where it is false."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    Conversation,
    Department,
    DossierEntry,
    IntelEnvelope,
    Membership,
    Notice,
    Order,
    Participant,
    PlayerTurn,
    Turn,
)
from campaigns.press.selectors.press_unread import unread_counts
from campaigns.press.services.press import channel_ensure, conversation_read
from campaigns.selectors import row_flags
from tests.support.demo import member
from tests.support.press import say, talk


def orm_opened_envelopes() -> Exists:
    return Exists(DossierEntry.objects.filter(member=OuterRef("pk"))) | Exists(
        ContingencyEnvelope.objects.filter(member=OuterRef("pk"), opened_turn__isnull=False)
    )


def orm_turn_flags(viewer: Membership) -> dict[str, Exists]:
    queued = Order.objects.filter(status=Order.Status.QUEUED, kind=Order.Kind.HANDOVER)
    unread = Notice.objects.filter(player=viewer, read_at__isnull=True)
    ready = PlayerTurn.objects.filter(player=viewer, ready_at__isnull=False)
    return {
        "handovers": Exists(queued.filter(turn=OuterRef("pk"))),
        "unread_notices": Exists(unread.filter(turn=OuterRef("pk"))),
        "ready": Exists(ready.filter(turn=OuterRef("pk"))),
    }


def orm_unread_counts(user: object) -> dict[int, int]:
    """press_unread.unread_counts as the ORM wrote it before its read mark became SQL."""
    mark = Participant.objects.filter(conversation=OuterRef("pk"), member__user=user)
    news = Q(messages__seq__gt=F("last_read"), messages__hidden_at__isnull=True) & ~Q(
        messages__sender__user=user
    )
    rows = (
        Conversation.objects.filter(campaign__memberships__user=user)
        .filter(Q(is_public=True) | Q(Exists(mark)))
        .annotate(last_read=Coalesce(Subquery(mark.values("last_read_seq")[:1]), 0))
        .filter(last_seq__gt=F("last_read"))
        .values("campaign_id")
        .annotate(unread=Count("messages", filter=news))
        .order_by()
    )
    return {row["campaign_id"]: row["unread"] for row in rows if row["unread"]}


def some_of_each(demo: Campaign) -> None:
    """Alice: an envelope opened, a notice unread, orders ready; carol: a contingency
    envelope opened; bob: one sealed, a notice read, and a hand-over queued."""
    alice, bob, carol = (member(demo, name) for name in ("alice", "bob", "carol"))
    turn = demo.turns.get(status=Turn.Status.OPEN)
    start = demo.turns.get(number=0)
    dept = Department.objects.filter(board__campaign=demo).order_by("pk").first()
    assert dept is not None
    envelope = IntelEnvelope.objects.create(department=dept, text="secret", target=3, grants=1)
    DossierEntry.objects.create(member=alice, envelope=envelope, turn=start)
    ContingencyEnvelope.objects.create(
        member=carol, text="open", condition="turn", turn_number=0, opened_turn=start
    )
    ContingencyEnvelope.objects.create(member=bob, text="sealed", condition="turn", turn_number=9)
    Notice.objects.create(player=alice, turn=turn, text="Unread.")
    Notice.objects.create(player=bob, turn=turn, text="Read.", read_at=timezone.now())
    PlayerTurn.objects.update_or_create(
        turn=turn, player=alice, defaults={"ready_at": timezone.now()}
    )
    Order.objects.create(
        turn=turn, board=dept.board, player=bob, kind=Order.Kind.HANDOVER, payload={}, seq=900
    )


def test_membership_and_turn_flags_are_the_orms(demo: Campaign) -> None:
    some_of_each(demo)
    members = Membership.objects.filter(campaign=demo)
    by_sql = dict(members.annotate(f=row_flags.opened_envelopes()).values_list("pk", "f"))
    by_orm = dict(members.annotate(f=orm_opened_envelopes()).values_list("pk", "f"))
    assert by_sql == by_orm
    assert sorted(by_sql.values()) == [False, False, True, True]  # alice's and carol's
    for viewer in members:
        turns = Turn.objects.filter(campaign=demo).order_by("pk")
        fields = ["pk", "handovers", "unread_notices", "ready"]
        sql = list(turns.annotate(**row_flags.turn_flags(viewer.pk)).values_list(*fields))
        orm = list(turns.annotate(**orm_turn_flags(viewer)).values_list(*fields))
        assert sql == orm
    alices = Turn.objects.annotate(**row_flags.turn_flags(member(demo, "alice").pk))
    assert alices.filter(handovers=True, unread_notices=True, ready=True).count() == 1


def test_unread_counts_are_the_orms(demo: Campaign) -> None:
    private = talk(demo, "alice", ["bob"], "One")
    say(demo, "alice", private, "Two")
    say(demo, "bob", private, "Three")
    channel = channel_ensure(campaign=demo)
    say(demo, "carol", channel, "Hello all")
    say(demo, "gm", channel, "Hello from the GM")
    conversation_read(member=member(demo, "bob"), conversation=private, seq=1)
    counts = {}
    for user in get_user_model().objects.filter(memberships__campaign=demo):
        counts[user.get_username()] = unread_counts(user)
        assert counts[user.get_username()] == orm_unread_counts(user)
    # Not a comparison of two empty answers: bob has read some of what alice has not.
    assert counts["bob"] and counts["alice"] and counts["bob"] != counts["alice"]

"""RULES R52: the GM undoes the last processed turn; and the GM's preview of the open turn,
which runs the real turn job and saves nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail

from campaigns.models import AuditEntry, Department, Knowledge, Notice, Order, Turn, TurnRecord
from campaigns.selectors.state import board_state
from campaigns.services.preview import turn_preview
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import turn_process
from tests.support.demo import Played, member, submit

pytestmark = pytest.mark.django_db


def boards_now(campaign: Any) -> dict[str, dict[str, Any]]:
    """Each board as the engine would read it now (no orders)."""
    return {b.slug: board_state(b) for b in campaign.boards.all()}


def knowledge_now(campaign: Any) -> set[tuple[int, str, int]]:
    rows = Knowledge.objects.filter(department__board__campaign=campaign)
    return set(rows.values_list("player_id", "department__slug", "level"))


def undo(played: Played, **kwargs: Any) -> Turn:
    gm = member(played.campaign, "gm").user
    return turn_rollback(campaign=played.campaign, actor=gm, number=1, **kwargs)


def test_r52_the_boards_go_back_to_what_the_turn_job_read(played: Played) -> None:
    records = {r.board.slug: r.before for r in TurnRecord.objects.filter(turn=played.turn)}
    undo(played)
    now = boards_now(played.campaign)
    for slug, before in records.items():
        assert now[slug]["departments"] == before["departments"]
        assert now[slug]["links"] == before["links"]
    assert not TurnRecord.objects.filter(turn=played.turn).exists()


def test_r52_what_players_knew_goes_back_too(played: Played) -> None:
    """Alice kept City Watch's card after Carol captured it (a loss leaves it `known`);
    with the turn undone she controls it again and the stored row from the loss is gone."""
    alice = played.members["alice"]
    assert Knowledge.objects.filter(player=alice, department__slug="city-watch").exists()
    undo(played)
    assert not Knowledge.objects.filter(player=alice, department__slug="city-watch").exists()
    assert Department.objects.get(slug="city-watch").structure.player == alice


def test_r52_the_orders_are_queued_again_and_the_turn_reopens_with_new_dice(
    played: Played,
) -> None:
    old_seed, old_commitment = played.turn.seed, played.turn.commitment
    payloads = {o.pk: o.payload for o in Order.objects.filter(turn=played.turn)}
    turn = undo(played)
    assert turn.status == Turn.Status.OPEN and turn.processed_at is None
    assert turn.seed != old_seed and turn.commitment != old_commitment
    orders = Order.objects.filter(turn=played.turn)
    assert {o.pk: o.payload for o in orders} == payloads
    assert {o.status for o in orders} == {Order.Status.QUEUED}
    assert all(o.result == {} for o in orders)
    assert not played.campaign.turns.filter(number=2).exists()


def test_r52_the_old_seed_stays_published_in_the_audit_log_and_the_notice(
    played: Played, django_capture_on_commit_callbacks: Any
) -> None:
    old_seed = played.turn.seed
    with django_capture_on_commit_callbacks(execute=True):
        undo(played)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ROLLBACK)
    assert entry.before["seed"] == old_seed
    assert entry.target == "turn 1"
    for name in ("alice", "bob", "carol"):
        notice = Notice.objects.get(
            player=played.members[name], turn=played.turn, text__contains="undid"
        )
        assert old_seed in notice.text
    assert sorted(m.to[0] for m in mail.outbox) == [
        "alice@example.com",
        "bob@example.com",
        "carol@example.com",
    ]


def test_r52_processing_again_with_the_old_seed_gives_the_same_turn(played: Played) -> None:
    """Consistency: the restored board, orders and knowledge are exactly what the turn job
    read, so the same seed gives the same result (a new seed gives new dice, as it should)."""
    first = {r.board.slug: (r.state, r.report) for r in TurnRecord.objects.filter(turn=played.turn)}
    old_seed = played.turn.seed
    turn = undo(played)
    Turn.objects.filter(pk=turn.pk).update(seed=old_seed)  # only a test may do this
    assert turn_process(campaign_id=played.campaign.pk, number=1) is not None
    again = {r.board.slug: (r.state, r.report) for r in TurnRecord.objects.filter(turn=played.turn)}
    assert again == first
    assert played.campaign.turns.get(number=2).status == Turn.Status.OPEN


def test_r52_a_new_seed_then_processes_once_and_opens_turn_two(played: Played) -> None:
    undo(played)
    assert turn_process(campaign_id=played.campaign.pk, number=1) is not None
    assert turn_process(campaign_id=played.campaign.pk, number=1) is None
    assert TurnRecord.objects.filter(turn__campaign=played.campaign, turn__number=1).count() == 2
    assert list(played.campaign.turns.values_list("number", "status")) == [
        (0, "processed"),
        (1, "processed"),
        (2, "open"),
    ]


def test_r52_orders_of_the_open_turn_are_discarded_only_when_the_gm_says_so(
    played: Played,
) -> None:
    submit(played.campaign, "alice", Order.Kind.FUNCTION, {
        "department": "mint", "function": "coinage", "stat": "effect"
    })  # fmt: skip
    with pytest.raises(ValueError, match="already has 1 queued order"):
        undo(played)
    assert played.campaign.turns.get(number=2).orders.count() == 1
    assert TurnRecord.objects.filter(turn=played.turn).exists()
    undo(played, discard_orders=True)
    assert not played.campaign.turns.filter(number=2).exists()


def test_r52_only_the_last_processed_turn_can_be_undone(played: Played) -> None:
    turn_process(campaign_id=played.campaign.pk, number=2)
    with pytest.raises(ValueError, match="Turn 1 is not the last processed turn"):
        undo(played)
    assert played.campaign.turns.get(number=1).status == Turn.Status.PROCESSED


def test_r52_the_start_cannot_be_undone(demo: Any) -> None:
    with pytest.raises(ValueError, match="turn 0"):
        turn_rollback(campaign=demo, actor=member(demo, "gm").user, number=0)


def test_r52_a_department_added_since_makes_the_gm_undo_that_first(played: Played) -> None:
    Department.objects.create(
        board=played.campaign.boards.get(slug="city"), slug="new", name="New Desk"
    )
    with pytest.raises(ValueError, match="New Desk"):
        undo(played)
    assert played.campaign.turns.get(number=1).status == Turn.Status.PROCESSED


def test_the_preview_runs_the_turn_and_saves_nothing(
    demo: Any, django_capture_on_commit_callbacks: Any
) -> None:
    submit(demo, "carol", Order.Kind.ATTEMPT, {"attacker": "thieves-guild", "target": "city-watch"})
    turn = demo.turns.get(number=1)
    boards, knowledge = boards_now(demo), knowledge_now(demo)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report = turn_preview(campaign=demo, viewer=member(demo, "gm"))
    assert report is not None and report.number == 1 and report.full_view
    (attempt,) = [o for b in report.boards for o in b.orders if o.kind == Order.Kind.ATTEMPT]
    assert attempt.status in ("succeeded", "failed")
    assert attempt.rolls  # rolled with the throwaway seed
    assert report.seed != turn.seed  # the real seed was neither used nor shown
    fresh = Turn.objects.get(pk=turn.pk)
    assert (fresh.status, fresh.seed, fresh.commitment) == (turn.status, turn.seed, turn.commitment)
    assert boards_now(demo) == boards and knowledge_now(demo) == knowledge
    assert Order.objects.get(kind=Order.Kind.ATTEMPT).status == Order.Status.QUEUED
    assert not TurnRecord.objects.filter(turn=turn).exists()
    assert not demo.turns.filter(number=2).exists()
    assert callbacks == [] and mail.outbox == []


def test_r52_an_extended_turn_processed_early_comes_back_with_its_extension(
    played: Played,
) -> None:
    """The GM extended turn 1 past the deadline turn 2 got when turn 1 was processed early
    (R30): undone, turn 1 is due when the GM's extension said, not sooner."""
    following = played.campaign.turns.get(number=2)
    extended = following.deadline + timedelta(days=2)
    Turn.objects.filter(pk=played.turn.pk).update(deadline=extended)
    assert undo(played).deadline == extended

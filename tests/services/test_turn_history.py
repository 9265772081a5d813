"""What the turn job keeps for history (RULES R51-R53): each board's state before and after
the turn, and every member's knowledge levels before and after it; and a player who loses a
department keeps its card (R50)."""

from __future__ import annotations

import pytest

from campaigns.models import Department, Knowledge, TurnRecord
from campaigns.services.turns import turn_process
from tests.support.demo import Played, member

pytestmark = pytest.mark.django_db

KNOWN, CONTROLLED = Knowledge.Level.KNOWN, Knowledge.Level.CONTROLLED


def structure_of(state: dict, slug: str) -> str | None:
    return next(d["structure"] for d in state["departments"] if d["slug"] == slug)


def test_r51_the_record_keeps_the_board_before_and_after_the_capture(played: Played) -> None:
    alice, carol = played.members["alice"], played.members["carol"]
    record = TurnRecord.objects.get(turn=played.turn, board__slug="city")
    assert structure_of(record.before, "city-watch") == alice.player_id
    assert structure_of(record.state, "city-watch") == carol.player_id
    assert "orders" not in record.before and "seed" not in record.before


def test_r50_the_player_who_lost_a_department_still_knows_its_card(played: Played) -> None:
    alice = played.members["alice"]
    watch = Department.objects.get(slug="city-watch")
    assert Knowledge.objects.get(player=alice, department=watch).level == KNOWN
    record = TurnRecord.objects.get(turn=played.turn, board__slug="city")
    assert "city-watch" not in record.knowledge_before.get(str(alice.pk), {})
    assert record.knowledge[str(alice.pk)]["city-watch"] == KNOWN


def test_r51_knowledge_before_and_after_are_every_members_stored_levels(played: Played) -> None:
    record = TurnRecord.objects.get(turn=played.turn, board__slug="city")
    stored = {
        (str(k.player_id), k.department.slug): k.level
        for k in Knowledge.objects.filter(department__board__slug="city", level__gt=0)
    }
    flat = {
        (m, slug): lvl for m, levels in record.knowledge.items() for slug, lvl in levels.items()
    }
    assert flat == stored
    assert len(flat) > 5  # the demo's players know several departments of the city


def test_a_stored_controlled_level_is_never_lowered_by_a_loss(demo) -> None:  # type: ignore[no-untyped-def]
    """Only levels below `known` are raised; a row at `controlled` (kept from an import, say)
    stays as it was."""
    from tests.support.demo import play_turn_one

    def create_with_row():  # type: ignore[no-untyped-def]
        Knowledge.objects.update_or_create(
            player=member(demo, "alice"),
            department=Department.objects.get(slug="city-watch"),
            defaults={"level": CONTROLLED},
        )
        return demo

    played = play_turn_one(create_with_row)
    alice = played.members["alice"]
    assert Knowledge.objects.get(player=alice, department__slug="city-watch").level == CONTROLLED


def test_r53_a_gm_change_between_turns_is_in_the_next_records_before(played: Played) -> None:
    """The previous record's state is what turn 2 started from; the GM's change after it is
    in turn 2's `before`, so history can tell the two apart."""
    mint = Department.objects.get(slug="mint")
    mint.money = 41
    mint.save(update_fields=["money"])
    turn_process(campaign_id=played.campaign.pk, number=2)
    one = TurnRecord.objects.get(turn=played.turn, board__slug="city")
    two = TurnRecord.objects.get(turn__campaign=played.campaign, turn__number=2, board__slug="city")

    def money(state: dict) -> int:
        return next(d["stash"]["money"] for d in state["departments"] if d["slug"] == "mint")

    assert money(one.state) != 41
    assert money(two.before) == 41


def test_the_start_records_the_opening_board_as_before_and_after_spawn(demo) -> None:  # type: ignore[no-untyped-def]
    zero = TurnRecord.objects.filter(turn__campaign=demo, turn__number=0)
    assert zero.count() == 2
    for record in zero:
        assert record.before["departments"]
        assert {d["slug"] for d in record.before["departments"]} == {
            d["slug"] for d in record.state["departments"]
        }
        assert record.knowledge == record.knowledge_before

"""RULES parts 7-9 through the real turn job (services/turns.py): perception checks and intel
envelopes (R70, R71), gifts and hand-overs (R62), secret goals (R61), R43 across the boards of
a campaign, elections (R80) and contingency envelopes (R72), each also undone by a rollback
(R52)."""

from __future__ import annotations

import pytest

from campaigns.elections.services.offices import election_schedule, office_save
from campaigns.intrigue.services.characters import goal_set, shtick_grant
from campaigns.intrigue.services.envelopes import contingency_create, envelope_create
from campaigns.models import (
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    GoalProgress,
    Knowledge,
    Notice,
    Office,
    Order,
    Structure,
    TurnRecord,
)
from campaigns.selectors.order_checks import OrderRefused
from campaigns.selectors.turns import turn_inputs_fingerprint
from campaigns.services.orders import orders_submit
from campaigns.services.preview import turn_preview
from campaigns.services.rollback import turn_rollback
from tests.support.intrigue import Plot, open_turn, plot_game, process, seed_making

pytestmark = pytest.mark.django_db

SECRET = "ENVELOPE-TEXT-SENTINEL"
Level = Knowledge.Level


@pytest.fixture
def game() -> Plot:
    """The plot campaign, where bob's guild can pay for an attempt on the orphanage and
    knows it (R50), on both boards."""
    game = plot_game()
    Department.objects.filter(slug="guild").update(money=4, impress=3)
    for board in game.boards:
        orphanage = Department.objects.get(board=board, slug="orphanage")
        Knowledge.objects.create(player=game.bob, department=orphanage, level=Level.KNOWN)
    return game


def level(member, dept: Department) -> int:  # type: ignore[no-untyped-def]
    row = Knowledge.objects.filter(player=member, department=dept).first()
    return row.level if row else Level.UNKNOWN


def undo(game: Plot, number: int) -> None:
    turn_rollback(campaign=game.campaign, actor=game.gm.user, number=number, discard_orders=True)


# --- R70, R71: perception and intel envelopes ---------------------------------------------


def test_a_perception_check_opens_the_envelopes_its_total_meets_and_that_are_addressed_to_it(
    game: Plot,
) -> None:
    guild = game.department("guild")
    gm = game.gm.user
    game.alice.perception = 30  # 3d6 + 30 meets 33 whatever the dice
    game.alice.save()
    met = envelope_create(department=guild, actor=gm, text=SECRET, target=33,
                          grants=Level.KNOWN)  # fmt: skip
    too_high = envelope_create(department=guild, actor=gm, text="too high", target=49)
    for_bob = envelope_create(department=guild, actor=gm, text="bob's", target=3,
                              audience=[game.bob])  # fmt: skip
    for_alice = envelope_create(department=guild, actor=gm, text="hers", target=3,
                                audience=[game.alice])  # fmt: skip
    check = game.order(game.alice, Order.Kind.PERCEIVE, department="guild")

    turn = process(game)

    check.refresh_from_db()
    assert (check.status, sorted(check.result["envelopes"])) == (
        "succeeded",
        sorted([met.engine_id, for_alice.engine_id]),
    )
    opened = DossierEntry.objects.filter(member=game.alice)
    assert {e.envelope_id for e in opened} == {met.pk, for_alice.pk}
    assert {(e.turn_id, e.order_id) for e in opened} == {(turn.pk, check.pk)}
    assert not DossierEntry.objects.filter(envelope__in=[too_high, for_bob]).exists()
    assert level(game.alice, guild) == Level.KNOWN  # what `met` grants (R71)
    (notice,) = Notice.objects.filter(player=game.alice, kind=Notice.Kind.ENVELOPE)
    assert "2 intel envelopes" in notice.text and SECRET not in notice.text
    assert not Notice.objects.filter(player=game.bob, kind=Notice.Kind.ENVELOPE).exists()


def test_an_envelope_opens_once_and_a_second_check_changes_nothing(game: Plot) -> None:
    guild = game.department("guild")
    envelope_create(department=guild, actor=game.gm.user, text=SECRET, target=3)
    game.order(game.alice, Order.Kind.PERCEIVE, department="guild")
    process(game)
    game.order(game.alice, Order.Kind.PERCEIVE, department="guild")

    second = process(game)

    assert DossierEntry.objects.filter(member=game.alice).count() == 1
    assert not Notice.objects.filter(turn=second, kind=Notice.Kind.ENVELOPE).exists()


def test_rollback_takes_back_the_dossier_the_grant_and_the_notice(game: Plot) -> None:
    guild = game.department("guild")
    envelope_create(department=guild, actor=game.gm.user, text=SECRET, target=3,
                    grants=Level.RUMOURED)  # fmt: skip
    game.order(game.alice, Order.Kind.PERCEIVE, department="guild")
    turn = process(game)
    assert level(game.alice, guild) == Level.RUMOURED

    undo(game, turn.number)

    assert not DossierEntry.objects.exists()
    assert level(game.alice, guild) == Level.UNKNOWN
    assert not Notice.objects.filter(kind=Notice.Kind.ENVELOPE).exists()
    assert Order.objects.get(kind=Order.Kind.PERCEIVE).status == Order.Status.QUEUED


# --- R62: deals -----------------------------------------------------------------------------


def test_a_gift_moves_tokens_between_two_players_and_names_each_side_to_the_other(
    game: Plot,
) -> None:
    Department.objects.filter(slug="guild").update(money=0)  # room for the gift (R36)
    mint, guild = game.department("mint"), game.department("guild")
    before = (mint.money, guild.money)
    gift = game.order(game.alice, Order.Kind.GIFT, **{"from": "mint", "to": "guild",
                                                       "tokens": {"money": 1}})  # fmt: skip
    turn = process(game)

    gift.refresh_from_db()
    assert gift.status == "succeeded", gift.result
    # Spawn and consume follow the gift and keep each stash within its capacity (R36), so the
    # guild's Money is what it keeps plus what it discards, compared with board 1 (no gift).
    with_gift, without = (TurnRecord.objects.get(turn=turn, board=b) for b in game.boards)

    def guild_money(record: TurnRecord) -> int:
        kept = {d["slug"]: d for d in record.state["departments"]}["guild"]["stash"]["money"]
        return kept + record.report["departments"]["guild"]["discarded"]["money"]

    assert guild_money(with_gift) == guild_money(without) + 1
    assert before == (mint.money, guild.money)  # the board 0 rows before the turn
    assert level(game.bob, mint) == level(game.alice, guild) == Level.RUMOURED


def test_a_hand_over_without_its_accept_changes_nothing(game: Plot) -> None:
    handover = game.order(game.alice, Order.Kind.HANDOVER, department="watch",
                          to=game.bob.player_id)  # fmt: skip
    turn = process(game)

    handover.refresh_from_db()
    assert handover.status == "failed"
    record = TurnRecord.objects.get(turn=turn, board=game.boards[0])
    owners = {d["slug"]: d["structure"] for d in record.state["departments"]}
    assert owners["watch"] == game.alice.player_id


def test_a_hand_over_with_its_accept_moves_the_department(game: Plot) -> None:
    game.order(game.alice, Order.Kind.HANDOVER, department="watch", to=game.bob.player_id)
    game.order(game.bob, Order.Kind.ACCEPT, department="watch", **{"from": game.alice.player_id})
    # Bob links his guild to it in the same link phase, so it stays in his structure (R13).
    game.order(game.bob, Order.Kind.ADD_LINK, **{"from": "guild", "to": "watch"})

    process(game)

    watch = game.department("watch")
    assert watch.structure.player_id == game.bob.pk
    assert level(game.bob, watch) == Level.KNOWN  # R62: fully known to its new controller


def test_a_hand_over_to_a_player_without_a_structure_on_that_board_makes_one(
    game: Plot,
) -> None:
    """board_changes knew only the board's existing structures: the department used to be
    written uncontrolled without a word."""
    carol = game.carol.player_id
    for slug in ("mint", "watch"):
        game.order(game.alice, Order.Kind.HANDOVER, department=slug, to=carol)
        game.order(game.carol, Order.Kind.ACCEPT, department=slug,
                   **{"from": game.alice.player_id})  # fmt: skip
    game.order(game.carol, Order.Kind.ADD_LINK, **{"from": "mint", "to": "watch"})
    assert not Structure.objects.filter(player=game.carol).exists()

    process(game)

    made = Structure.objects.get(player=game.carol)
    assert made.board == game.boards[0]
    assert set(made.departments.values_list("slug", flat=True)) == {"mint", "watch"}


# --- R61: goals; R43 across boards ----------------------------------------------------------


def test_an_attempts_won_goal_counts_across_turns_and_rollback_undoes_it(game: Plot) -> None:
    goal = goal_set(member=game.bob, actor=game.gm.user, data={"kind": "attempts_won", "n": 2})
    control = goal_set(member=game.alice, actor=game.gm.user, data={"kind": "control", "n": 3})
    attempt = game.order(game.bob, Order.Kind.ATTEMPT, attacker="guild", target="orphanage")
    seed_making(game, attempt, "succeeded")

    first = process(game)
    goal.refresh_from_db()
    assert goal.count == 1
    assert list(GoalProgress.objects.filter(turn=first).order_by("goal").values_list(
        "goal", "value", "met")) == [(goal.pk, 1, False), (control.pk, 6, True)]  # fmt: skip
    # (Alice controls 3 departments on each board: a goal counts every board, R61.)
    attempt = game.order(game.bob, Order.Kind.ATTEMPT, attacker="guild", target="orphanage",
                         board=1)  # fmt: skip
    seed_making(game, attempt, "succeeded")

    second = process(game)
    goal.refresh_from_db()
    assert goal.count == 2
    assert GoalProgress.objects.get(goal=goal, turn=second).met

    undo(game, second.number)
    goal.refresh_from_db()
    assert goal.count == 1
    assert not GoalProgress.objects.filter(turn__number=second.number).exists()
    assert GoalProgress.objects.filter(turn=first).count() == 2


def test_a_second_linking_attempt_on_another_board_is_rejected_r43(game: Plot) -> None:
    game.order(game.bob, Order.Kind.ATTEMPT, attacker="guild", target="orphanage", board=0)
    second = game.order(game.bob, Order.Kind.ATTEMPT, attacker="guild", target="orphanage",
                        board=1)  # fmt: skip

    process(game)

    second.refresh_from_db()
    assert second.status == "rejected"
    assert "per turn (R43)" in second.result["reason"]


def test_the_order_check_refuses_a_second_attempt_on_another_board_at_once(game: Plot) -> None:
    turn = open_turn(game)
    payload = {"attacker": "guild", "target": "orphanage"}
    orders_submit(player=game.bob, turn=turn, board=game.boards[0], kind="attempt",
                  payload=payload)  # fmt: skip
    with pytest.raises(OrderRefused, match="R43"):
        orders_submit(player=game.bob, turn=turn, board=game.boards[1], kind="attempt",
                      payload=payload)  # fmt: skip


def test_an_attempts_shtick_allows_a_second_attempt_on_another_board(game: Plot) -> None:
    shtick_grant(member=game.bob, actor=game.gm.user, data={"kind": "attempts", "amount": 1})
    turn = open_turn(game)
    payload = {"attacker": "guild", "target": "orphanage"}
    for board in game.boards:
        orders_submit(player=game.bob, turn=turn, board=board, kind="attempt", payload=payload)

    process(game)

    assert not Order.objects.filter(kind="attempt", status="rejected").exists()


# --- R80: elections -------------------------------------------------------------------------


def test_an_election_makes_the_winners_candidate_the_holder_and_its_alignment_counts(
    game: Plot,
) -> None:
    gm = game.gm.user
    board = game.boards[0]
    Department.objects.filter(board=board, structure__player=game.alice).update(impress=3)
    Department.objects.filter(board=board, slug="guild").update(alignments=["Government"])
    mayor = office_save(board=board, actor=gm, name="Mayor", alignment="Government")
    turn = open_turn(game)
    election_schedule(office=mayor, number=turn.number, actor=gm)
    game.order(game.alice, Order.Kind.NOMINATE, candidate="watch", running_mate="treasury")
    game.order(game.bob, Order.Kind.NOMINATE, candidate="guild", running_mate="press")
    for slug in ("mint", "treasury", "watch"):
        game.order(game.alice, Order.Kind.SUPPORT, department=slug, ticket="watch")
    game.order(game.bob, Order.Kind.SUPPORT, department="guild", ticket="guild")

    process(game)

    mayor.refresh_from_db()
    assert (mayor.holder.slug, mayor.deputy.slug) == ("watch", "treasury")
    result = Election.objects.get(office=mayor).result
    assert (result["winner"], result["decided_by"]) == ("watch", "support")
    assert TurnRecord.objects.get(turn=turn, board=board).report["election"] == result
    # R80/R6: the holder counts the office's alignment, identical to the guild's: TN 7 - 1.
    Department.objects.filter(board=board, slug="watch").update(people=2)
    attempt = game.order(game.alice, Order.Kind.ATTEMPT, attacker="watch", target="guild")
    process(game)
    attempt.refresh_from_db()
    assert attempt.result["rolls"][0]["tn"] == 6, attempt.result

    undo(game, turn.number + 1)
    undo(game, turn.number)
    mayor.refresh_from_db()
    assert (mayor.holder, mayor.deputy) == (None, None)
    election = Election.objects.get(office=mayor)
    assert (election.number, election.result) == (turn.number, None)  # still scheduled


def test_players_are_told_when_a_turn_with_an_election_opens(game: Plot) -> None:
    mayor = office_save(board=game.boards[0], actor=game.gm.user, name="Mayor",
                        alignment="Government")  # fmt: skip
    number = open_turn(game).number + 1
    election_schedule(office=mayor, number=number, actor=game.gm.user)
    assert not Notice.objects.filter(text__contains="Mayor").exists()

    process(game)

    told = Notice.objects.filter(turn__number=number, text__contains="election for Mayor")
    assert {n.player_id for n in told} == {game.alice.pk, game.bob.pk, game.carol.pk}


# --- R72: contingency envelopes -------------------------------------------------------------


def test_a_contingency_envelope_opens_once_on_a_capture_and_never_twice(game: Plot) -> None:
    orphanage = game.department("orphanage")
    sealed = contingency_create(member=game.bob, actor=game.gm.user, text=SECRET,
                                condition="joins", department=orphanage)  # fmt: skip
    other = contingency_create(member=game.alice, actor=game.gm.user, text="hers",
                               condition="joins", department=orphanage)  # fmt: skip
    attempt = game.order(game.bob, Order.Kind.ATTEMPT, attacker="guild", target="orphanage")
    seed_making(game, attempt, "succeeded")

    first = process(game)
    sealed.refresh_from_db()
    assert sealed.opened_turn == first
    assert ContingencyEnvelope.objects.get(pk=other.pk).opened_turn is None
    (notice,) = Notice.objects.filter(kind=Notice.Kind.ENVELOPE)
    assert notice.player == game.bob and SECRET not in notice.text

    second = process(game)  # the orphanage stays bob's: it joined once
    sealed.refresh_from_db()
    assert sealed.opened_turn == first
    assert not Notice.objects.filter(turn=second, kind=Notice.Kind.ENVELOPE).exists()

    undo(game, second.number)
    undo(game, first.number)
    sealed.refresh_from_db()
    assert sealed.opened_turn is None
    assert not Notice.objects.filter(kind=Notice.Kind.ENVELOPE).exists()


def test_a_turn_numbered_envelope_opens_with_that_turn(game: Plot) -> None:
    number = open_turn(game).number
    later = contingency_create(member=game.alice, actor=game.gm.user, text="later",
                               condition="turn", turn_number=number + 1)  # fmt: skip
    now = contingency_create(member=game.alice, actor=game.gm.user, text="now",
                             condition="turn", turn_number=number)  # fmt: skip

    process(game)

    assert ContingencyEnvelope.objects.get(pk=now.pk).opened_turn.number == number
    assert ContingencyEnvelope.objects.get(pk=later.pk).opened_turn is None


def test_an_office_holder_and_a_progress_row_are_kept_in_the_records(game: Plot) -> None:
    """The record keeps the state's parts 7-9 for its board: the office (for the turn report
    and a rollback) and every goal."""
    mayor = office_save(board=game.boards[0], actor=game.gm.user, name="Mayor",
                        alignment="Government", holder=game.department("mint"))  # fmt: skip
    goal_set(member=game.alice, actor=game.gm.user, data={"kind": "control", "n": 2})
    turn = process(game)
    city, harbour = (TurnRecord.objects.get(turn=turn, board=b) for b in game.boards)
    assert city.before["offices"] == [
        {"id": mayor.engine_id, "name": "Mayor", "alignment": "Government", "shticks": [],
         "holder": "mint", "deputy": None}
    ]  # fmt: skip
    assert harbour.before["offices"] == []
    assert city.before["goals"] == harbour.before["goals"]
    assert Office.objects.get(pk=mayor.pk).holder.slug == "mint"


def test_the_preview_plays_parts_7_to_9_and_saves_none_of_it(game: Plot) -> None:
    gm = game.gm.user
    guild = game.department("guild")
    envelope_create(department=guild, actor=gm, text=SECRET, target=3, grants=Level.KNOWN)
    contingency_create(member=game.alice, actor=gm, text=SECRET, condition="turn",
                       turn_number=open_turn(game).number)  # fmt: skip
    goal_set(member=game.alice, actor=gm, data={"kind": "control", "n": 2})
    mayor = office_save(board=game.boards[0], actor=gm, name="Mayor", alignment="Government")
    election_schedule(office=mayor, number=open_turn(game).number, actor=gm)
    game.order(game.alice, Order.Kind.PERCEIVE, department="guild")
    game.order(game.alice, Order.Kind.NOMINATE, candidate="mint", running_mate="treasury")
    notices = Notice.objects.count()

    report = turn_preview(campaign=game.campaign, viewer=game.gm)

    assert report is not None
    assert not DossierEntry.objects.exists() and not GoalProgress.objects.exists()
    assert not ContingencyEnvelope.objects.filter(opened_turn__isnull=False).exists()
    assert Election.objects.get().result is None
    assert Office.objects.get().holder is None
    assert level(game.alice, guild) == Level.UNKNOWN and Notice.objects.count() == notices


@pytest.mark.django_db(transaction=True)
def test_the_inputs_fingerprint_sees_every_row_of_parts_7_to_9(game: Plot, postgres: None) -> None:
    """A GM change to what the job reads beside the boards, made while the job resolves in
    its snapshot, makes it resolve again under the lock (services/turns.py). Each change
    commits on its own, as the GM's do (a row's version is its transaction's)."""
    turn = open_turn(game)
    gm = game.gm.user
    seen = [turn_inputs_fingerprint(game.campaign.pk, turn.pk)]
    changes = [
        lambda: shtick_grant(member=game.alice, actor=gm, data={"kind": "attempts", "amount": 1}),
        lambda: goal_set(member=game.bob, actor=gm, data={"kind": "control", "n": 2}),
        lambda: envelope_create(department=game.department("guild"), actor=gm, text="x",
                                target=5, audience=[game.alice]),
        lambda: office_save(board=game.boards[0], actor=gm, name="Mayor", alignment="Government"),
        lambda: election_schedule(office=Office.objects.get(), number=turn.number, actor=gm),
        lambda: type(game.alice).objects.filter(pk=game.alice.pk).update(perception=4),
    ]  # fmt: skip
    for change in changes:
        change()
        seen.append(turn_inputs_fingerprint(game.campaign.pk, turn.pk))
    assert len(set(seen)) == len(seen)


def test_an_envelopes_grant_only_ever_raises_what_the_player_knows(game: Plot) -> None:
    guild = game.department("guild")
    Knowledge.objects.create(player=game.alice, department=guild, level=Level.KNOWN)
    envelope_create(department=guild, actor=game.gm.user, text=SECRET, target=3,
                    grants=Level.RUMOURED)  # fmt: skip
    game.order(game.alice, Order.Kind.PERCEIVE, department="guild")

    process(game)

    assert DossierEntry.objects.filter(member=game.alice).count() == 1
    assert level(game.alice, guild) == Level.KNOWN

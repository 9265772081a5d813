"""report_defence: each defend roll of a turn read back into the standing defence it spent
(RULES R21, R43 step 4, R47), on the board as it stood at that roll, rebuilt from the
turn's record: hand-overs (R62), earlier captures (R44), R13's departures, what moves and
gifts may have brought (R42, R62). Each case is resolved by the engine, then read back from
what the site stores: the state before, the Order rows, the report, the controllers after.

Players are "p1" (alice), "p2" (bob), "p3" (carol), as the site names them (Membership pk 1,
2, 3); order ids are the Order pks.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from campaigns.engine import resolve
from campaigns.engine.attempts import DefenceRead
from campaigns.models import Order
from campaigns.selectors.report_account import defence_text
from campaigns.selectors.report_defence import defences
from campaigns.selectors.report_view_models import DefenceView
from tests.engine.boards import dept, state

Json = dict[str, Any]
ALICE, BOB, CAROL = "p1", "p2", "p3"
NONE = {"money": 0, "people": 0, "authority": 0}
SHTICK = {"kind": "dice", "roll": "defend", "department": None, "amount": 1}


def mint(slug: str = "mint", owner: str = ALICE) -> Json:
    """An attacker whose every die succeeds (linking 6 at TN 7), with money to pay."""
    return dept(
        slug, structure=owner, home=True, produces=("money", 1), impress=1,
        functions={"linking": 6}, stash={"money": 9}, capacity=20,
    )  # fmt: skip


def watch(**fields: Any) -> Json:
    """Bob's target: Obstruct 2, needs 1 Money (an attempt costs 2 Money)."""
    base: Json = {"structure": BOB, "home": True, "consumes": ("money", 1), "obstruct": 2,
                  "capacity": 10}  # fmt: skip
    return dept("watch", **(base | fields))


def order(pk: int, player: str, kind: str, **payload: Any) -> Order:
    return Order(pk=pk, player_id=int(player[1:]), kind=kind, payload=payload)


def attempt(pk: int, player: str, attacker: str, target: str = "watch", **more: Any) -> Order:
    return order(pk, player, Order.Kind.ATTEMPT, attacker=attacker, target=target, **more)


def engine_order(o: Order) -> Json:
    return {**o.payload, "id": o.engine_id, "player": f"p{o.player_id}", "kind": o.kind,
            "seq": o.pk}  # fmt: skip


def read(departments: list[Json], orders: list[Order], links=(), **beside: Any) -> dict:
    """Resolve, then read every defend roll back as the report does."""
    told = state(departments, links, [engine_order(o) for o in orders], settings={
        "attempts_per_turn": 3}) | beside  # fmt: skip
    result = resolve(told)
    before = {k: v for k, v in told.items() if k not in ("orders", "seed", "turn")}
    after = {d["slug"]: d.get("structure") for d in result["departments"]}
    found = defences(before, orders, result["report"], after)
    return {"result": result, **found}


def test_a_mixed_defence_by_type_and_the_default_cost() -> None:
    defender = watch(stash={"money": 1, "people": 1, "authority": 3},
                     defence={"money": 2, "people": 1, "authority": 1})  # fmt: skip
    found = read([mint(), defender], [attempt(1, ALICE, "mint")])
    defence = found["1"]
    assert defence.read is not None
    assert defence.read.spent == {"money": 1, "people": 1, "authority": 1}
    assert not defence.uncontrolled
    assert defence.paid == {"money": 2, "people": 0, "authority": 0}  # R43: 2 x 1 Money


def test_an_uncontrolled_target_spends_the_gms_setting() -> None:
    defender = watch(structure=None, home=False, stash={"people": 2}, defence={"people": 1})
    defence = read([mint(), defender], [attempt(1, ALICE, "mint")])["1"]
    assert defence.uncontrolled
    assert defence.read is not None and defence.read.spent == {**NONE, "people": 1}


def test_a_department_handed_over_first_spends_nothing_and_has_its_new_controllers_shticks() -> (
    None
):
    """R62: bob hands the watch to carol in the link phase: its standing defence is cleared,
    and carol's defend shtick counts, not bob's."""
    defender = watch(stash={"people": 2}, defence={"people": 2})
    orders = [
        order(1, BOB, Order.Kind.HANDOVER, department="watch", to=CAROL),
        order(2, CAROL, Order.Kind.ACCEPT, department="watch", **{"from": BOB}),
        attempt(3, ALICE, "mint"),
    ]
    guild = dept("guild", structure=CAROL, home=True, produces=("money", 1))
    found = read([mint(), defender, guild], orders, links=[("guild", "watch")],
                 players={CAROL: {"shticks": [SHTICK]}})  # fmt: skip
    assert found["result"]["report"]["orders"]["1"]["status"] == "succeeded"
    defence = found["3"]
    assert defence.read is not None
    assert defence.read.spent == NONE and defence.read.shtick_dice == 1


def test_a_second_attack_after_a_capture_reads_the_new_controller() -> None:
    """R44: the first attempt (by R43's order) captures the watch (3 successes against 1
    die at most); the second meets it in the capturer's structure, its standing defence
    cleared, alice's shtick counting where it is hers."""
    defender = watch(stash={"people": 3}, defence={"people": 1}, obstruct=0)
    orders = [attempt(1, ALICE, "mint"), attempt(2, CAROL, "thieves")]
    strong = [mint() | {"impress": 3}, mint("thieves", CAROL) | {"impress": 3}]  # 3 successes
    found = read([*strong, defender], orders,
                 players={ALICE: {"shticks": [SHTICK]}})  # fmt: skip
    report = found["result"]["report"]
    first, second = report["attempt_order"]
    assert report["orders"][first]["status"] == "succeeded"
    before_capture, after_capture = found[first].read, found[second].read
    assert before_capture is not None and after_capture is not None
    assert before_capture.spent == {**NONE, "people": 1}
    assert before_capture.shtick_dice == 0  # bob's: no shtick
    assert after_capture.spent == NONE
    # Alice's shtick counts where alice's mint captured it first.
    assert after_capture.shtick_dice == (1 if first == "1" else 0)


def test_an_office_holder_gone_by_r13_gives_no_shtick() -> None:
    """Bob's archive holds the office (a defend die) but has no link in his structure: it
    leaves at the end of the link phase (R13), before the attempt. No capture of bob's could
    have stranded it later, so the roll is read without the office's die."""
    mayor = {"id": "mayor", "name": "Mayor", "alignment": "Government", "holder": "archive",
             "deputy": None, "shticks": [SHTICK]}  # fmt: skip
    archive = dept("archive", structure=BOB, produces=("people", 1))
    defender = watch(stash={"people": 1}, defence={"people": 1})
    found = read([mint(), defender, archive], [attempt(1, ALICE, "mint")], offices=[mayor])
    assert found["result"]["departments"][2]["structure"] is None
    defence = found["1"]
    assert defence.read is not None
    assert defence.read.spent == {**NONE, "people": 1} and defence.read.shtick_dice == 0


def test_a_gift_first_counts_in_what_the_stash_may_have_held() -> None:
    """A gift of Authority reached the watch before the attempt: 2 skill from a defence of
    1 Money and 1 Authority, with only 1 Money held before the turn, is read as both."""
    defender = watch(stash={"money": 1}, defence={"money": 1, "authority": 1})
    gift = order(1, CAROL, Order.Kind.GIFT, to="watch", tokens={"authority": 1},
                 **{"from": "guild"})  # fmt: skip
    guild = dept("guild", structure=CAROL, home=True, stash={"authority": 1}, capacity=5)
    found = read([mint(), defender, guild], [gift, attempt(2, ALICE, "mint")])
    assert found["result"]["report"]["orders"]["1"]["status"] == "succeeded"
    defence = found["2"]
    assert defence.read is not None
    assert defence.read.spent == {"money": 1, "people": 0, "authority": 1}


def test_a_second_defence_may_leave_its_split_untold() -> None:
    """Two attacks that cannot win (Impress 0: no dice) on a watch holding 1 Money and 2
    Authority, set to spend 1 of each. The first defence spends both; the second has only
    Authority left, but the report knows the stash only as before the turn: its 1 skill is
    Money or Authority."""
    defender = watch(stash={"money": 1, "authority": 2}, defence={"money": 1, "authority": 1})
    weak = [mint() | {"impress": 0}, mint("thieves", CAROL) | {"impress": 0}]
    found = read([*weak, defender], [attempt(1, ALICE, "mint"), attempt(2, CAROL, "thieves")])
    first, second = found["result"]["report"]["attempt_order"]
    assert found[first].read is not None
    assert found[first].read.spent == {"money": 1, "people": 0, "authority": 1}
    later = found[second].read
    assert later is not None and later.spent == NONE
    assert (later.unsplit, later.among) == (1, ("money", "authority"))


def test_nothing_is_read_where_the_target_is_not_on_the_board() -> None:
    found = read([mint(), watch()], [attempt(1, ALICE, "mint", target="nowhere")])
    assert "1" not in found


def test_an_office_holder_stranded_by_this_very_capture_still_counted_at_the_roll() -> None:
    """Bob's archive (the office's holder) is linked in his structure only from the watch.
    Alice's attempt captures the watch, which strands the archive (R13) after the roll: the
    archive is uncontrolled after the turn, and the report cannot tell when it left, so it
    reads both boards. Without the office's die the roll would need 2 People of a setting
    of 1: only the board with it gives a reading, and that is the one."""
    mayor = {"id": "mayor", "name": "Mayor", "alignment": "Government", "holder": "archive",
             "deputy": None, "shticks": [SHTICK]}  # fmt: skip
    archive = dept("archive", structure=BOB, consumes=("people", 1))
    defender = watch(stash={"people": 1}, defence={"people": 1}, obstruct=0,
                     produces=("people", 1))  # fmt: skip
    found = read([mint() | {"impress": 3}, defender, archive], [attempt(1, ALICE, "mint")],
                 links=[("watch", "archive")], offices=[mayor])  # fmt: skip
    after = {d["slug"]: d["structure"] for d in found["result"]["departments"]}
    assert (after["watch"], after["archive"]) == (ALICE, None)
    defence = found["1"]
    assert defence.read is not None
    assert defence.read.spent == {**NONE, "people": 1} and defence.read.shtick_dice == 1


# --- In words (report_account.defence_text) ---------------------------------------------------


def words(read: DefenceRead | None, *, dice: int = 5, skill: int = 1, gm: bool = False) -> str:
    return defence_text(DefenceView("The Tax Office", dice, skill, read, gm))


def spent(money: int = 0, people: int = 0, authority: int = 0) -> dict[str, int]:
    return {"money": money, "people": people, "authority": authority}


def test_the_defence_in_words() -> None:
    head = "The Tax Office rolled 5 dice at skill 1 "
    assert words(DefenceRead(3, 0, 0, spent(money=1, people=2))) == (
        head + "(Obstruct 3, 1 Money and 2 People of its standing defence)"
    )
    assert words(DefenceRead(3, 0, 0, spent())) == (
        head + "(Obstruct 3, nothing of its standing defence)"
    )
    assert words(DefenceRead(2, 0, 0, spent(people=1)), gm=True) == (
        head + "(Obstruct 2, 1 People of the defence the GM set for it)"
    )
    assert words(DefenceRead(2, 0, 0, spent()), gm=True) == (
        head + "(Obstruct 2, nothing of the defence the GM set for it)"
    )
    assert words(DefenceRead(2, 1, 2, spent(people=1))) == (
        head + "(Obstruct 2, 1 People of its standing defence, 1 die and 2 skill from shticks)"
    )
    assert words(DefenceRead(2, 0, 0, spent(people=1), 1, ("money", "authority"))) == (
        head + "(Obstruct 2, 1 People and 1 Money or Authority of its standing defence)"
    )
    assert words(DefenceRead(2, 0, 0, spent(money=1, authority=1), 1, ("money", "authority"))) == (
        head + "(Obstruct 2, 1 Money, 1 Authority and 1 more Money or Authority of its standing "
        "defence)"
    )
    assert words(None, dice=1, skill=0) == (
        "The Tax Office rolled 1 die at skill 0 (its Obstruct, its standing defence spent and "
        "any shticks)"
    )


def test_the_defence_in_german() -> None:
    with translation.override("de"):
        text = words(DefenceRead(3, 1, 0, spent(money=2, people=1)))
    assert "Obstruct" not in text and "standing" not in text and "shticks" not in text, text

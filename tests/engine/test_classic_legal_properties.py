"""Two-way property test of campaigns.engine.classic.legal against `resolve` on classic boards
(RULES R94-R97, ENGINE.md part 10), on random boards (strategies_classic.py):

(a) every choice `legal_choices` offers, as an order alone (a give with the receiver's accept
    on a free arrow), with amounts drawn within its bounds, is not "rejected" by `resolve`;
(b) every order `resolve` does not reject is among the choices offered to its player. The
    candidates are random orders of every kind, legal and illegal mixed, each alone or beside
    a random accept of another player.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies_classic import classic_orders, classic_states  # noqa: E402

from campaigns.engine import EngineError, resolve  # noqa: E402
from campaigns.engine.classic.legal import (  # noqa: E402
    AttackChoice,
    GroupChoice,
    InterfereChoice,
    PlayerChoice,
    TransferChoice,
)
from campaigns.engine.classic.orders import KINDS, parse_order  # noqa: E402
from campaigns.engine.classic.state import parse_classic  # noqa: E402
from campaigns.engine.legal import legal_choices  # noqa: E402  (the site's entry: it dispatches)
from campaigns.engine.orders import Order  # noqa: E402

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def order_from(draw: st.DrawFn, state: Json, player: str, kind: str, choice: Any) -> list[Json]:
    """The choice as an order of `player` (and the receiver's accept for a give)."""
    order: Json = {"id": "o1", "player": player, "kind": kind}
    if isinstance(choice, AttackChoice):
        order.update(group=choice.group, target=choice.target, aim=choice.aim)
        order["assist"] = draw(st.lists(st.sampled_from(choice.assistants), unique=True)) if (
            choice.assistants
        ) else []  # fmt: skip
        budget = choice.most
        spend = draw(st.integers(0, budget))
        after = draw(st.integers(0, budget - spend)) if choice.aim == "control" else draw(
            st.integers(0, 30)
        )  # fmt: skip
        left = budget - spend - (after if choice.aim == "control" else 0)
        most_illuminati = left if choice.shared else choice.most_illuminati
        order.update(spend=spend, transfer_after=after)
        order["spend_illuminati"] = draw(st.integers(0, most_illuminati))
    elif isinstance(choice, GroupChoice):
        order["group"] = choice.group
        if kind == "move_group":
            order["to"] = choice.to
        if kind == "accept":
            order["parent"] = choice.to
        if kind == "defend":
            order.update(spend=draw(st.integers(0, 20)), spend_illuminati=draw(st.integers(0, 20)))
    elif isinstance(choice, InterfereChoice):
        order.update(target=choice.target, side=choice.side, amount=draw(st.integers(0, 20)))
        if choice.for_players:
            order["for"] = draw(st.sampled_from(choice.for_players))
    elif isinstance(choice, TransferChoice):
        order.update(**{"from": choice.source, "to": choice.dest})
        order.update(amount=draw(st.integers(0, choice.most)), action=draw(st.booleans()))
    elif kind == "give_group":
        assert isinstance(choice, PlayerChoice) and choice.to_player and choice.group
        order.update(group=choice.group, to_player=choice.to_player)
        board = parse_classic(state)
        parents = [g.slug for g in board.structure(choice.to_player) if board.free_arrow(g.slug)]
        accept = {"id": "o2", "player": choice.to_player, "kind": "accept",
                  "group": choice.group, "parent": draw(st.sampled_from(parents))}  # fmt: skip
        return [order, accept]
    elif kind == "gift":
        assert isinstance(choice, PlayerChoice)
        order.update(to_player=choice.to_player, amount=draw(st.integers(0, choice.most)))
    return [order]


@SETTINGS
@given(st.data())
def test_every_offered_choice_is_accepted_by_resolve(data: st.DataObject) -> None:
    """R94-R97 (a): whatever legal.py offers, resolve does not reject."""
    state = data.draw(classic_states())
    player = data.draw(st.sampled_from([p["id"] for p in state["players"]]))
    legal = legal_choices(state, player)
    for kind in KINDS:
        choices = legal.choices(kind)
        assert bool(choices) == (legal.why_not(kind) is None), kind
        if not choices:
            continue
        choice = data.draw(st.sampled_from(choices))
        orders = order_from(data.draw, state, player, kind, choice)
        report = resolve({**state, "orders": orders})["report"]["orders"]
        assert report["o1"]["status"] != "rejected", (kind, orders, report)
        if kind == "give_group":
            assert report["o2"]["status"] == "succeeded"


@SETTINGS
@given(st.data())
def test_every_order_resolve_accepts_is_offered(data: st.DataObject) -> None:
    """R94-R97 (b): whatever resolve does not reject, legal.py offered."""
    state = data.draw(classic_states())
    orders = [data.draw(classic_orders(state))]
    if data.draw(st.booleans()):
        accept = data.draw(classic_orders(state, "o2"))
        accept.update(kind="accept", group=orders[0].get("group"), parent=accept.get("group"))
        orders.append(accept)
    report = resolve({**state, "orders": orders})["report"]["orders"]
    board = parse_classic(state)
    for index, raw in enumerate(orders):
        if report[raw["id"]]["status"] == "rejected":
            continue
        order = parse_order(Order.parse(raw, index), board)
        assert legal_choices(state, order.player).offers(order), (raw, report)


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 5), st.text(max_size=4),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=2), st.none()),
    st.sampled_from(("alice", "bob", "alice-ill", "g0", "structure", "table", "deck")),
)  # fmt: skip
FIELDS = ("slug", "power", "resistance", "arrows", "alignments", "treasury", "place",
          "controller", "parent", "illuminati", "bonuses")  # fmt: skip


@SETTINGS
@given(st.data())
def test_a_malformed_classic_board_is_an_input_error_never_a_crash(data: st.DataObject) -> None:
    """ENGINE.md part 10: bad input raises EngineError (exit 2 with one line), nothing else."""
    state = data.draw(classic_states())
    target = data.draw(st.sampled_from(state["groups"]))
    target[data.draw(st.sampled_from(FIELDS))] = data.draw(JUNK)
    if data.draw(st.booleans()):
        state[data.draw(st.sampled_from(("deck", "players", "settings", "destroyed_by")))] = (
            data.draw(JUNK)
        )
    try:
        resolve(state)
    except EngineError as error:
        assert "\n" not in str(error)

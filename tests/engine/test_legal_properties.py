"""Two-way property test of campaigns.engine.legal against campaigns.engine.resolve (RULES
R10-R14, R41-R46), on random boards (strategies.py) with random queued orders of the player:

(a) every choice `legal_choices` offers, turned into an order queued after the player's other
    orders, is not "rejected" by `resolve` (with a throwaway seed);
(b) every order `resolve` accepts (status != rejected) is among the choices offered. The
    candidates come from strategies.one_order: random pairs, paths and amounts, legal and
    illegal mixed, not only from the choices.

Every example checks every kind on one board (drawing boards is most of the time), so each
kind gets 500 derandomized examples (stable in CI, no database); R46 has its own test.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import TYPES, boards, one_order  # noqa: E402
from strategies_election import ELECTION_KINDS, election_order, offices  # noqa: E402
from strategies_intrigue import intrigue_order  # noqa: E402

from campaigns.engine import resolve  # noqa: E402
from campaigns.engine.legal import KINDS, Legal, MoveChoice, legal_choices  # noqa: E402

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
QUEUED_KINDS = ("add_link", "break_link", "priority", "move", "move", "function")
# ENGINE.md parts 7-8 kinds the player may have queued too (plan runs through them).
QUEUED_DEALS = ("perceive", "gift", "gift", "handover", "accept")
THROWAWAY_SEED = "ab" * 32


@st.composite
def setups(draw: st.DrawFn) -> tuple[Json, str]:
    """A board, a player with a structure on it, and a few of that player's queued orders
    (the kinds `legal` plans through: links, moves, function rolls)."""
    state = draw(boards())
    owners = sorted({d["structure"] for d in state["departments"] if d["structure"]})
    assume(owners)
    player = draw(st.sampled_from(owners))
    queued = [
        draw(one_order(state, f"q{i}", [], QUEUED_KINDS)) for i in range(draw(st.integers(0, 3)))
    ]
    queued += [
        draw(intrigue_order(state, f"d{i}", QUEUED_DEALS)) for i in range(draw(st.integers(0, 2)))
    ]
    others = draw(offers(state, player))
    if draw(st.booleans()):  # an election this turn (R80), with other players' nominations
        others += draw(election(state, player))
        queued += [
            draw(election_order(state | {"orders": others}, f"v{i}", ELECTION_KINDS))
            for i in range(draw(st.integers(0, 3)))
        ]
    for seq, order in enumerate(queued):
        order["player"], order["seq"] = player, seq
    state["orders"] = queued + others
    state["seed"] = THROWAWAY_SEED
    return state, player


@st.composite
def election(draw: st.DrawFn, state: Json, player: str) -> list[Json]:
    """R80: offices and an election in `state`, media functions on some departments; returns
    a few nominations by other players (public, so the site passes them)."""
    state["offices"] = draw(offices(state))
    state["election"] = {"office": "mayor"}
    for dept in state["departments"]:
        if draw(st.integers(0, 3)) == 0:
            dept["functions"] = {**dept["functions"], "Media": 1}
    slugs = [d["slug"] for d in state["departments"]]
    nominations = []
    for i in range(draw(st.integers(0, 2))):
        pair = draw(st.lists(st.sampled_from(slugs), min_size=2, max_size=2, unique=True))
        nominator = draw(st.sampled_from([p for p in ("alice", "bob", "carol") if p != player]))
        nomination = {"id": f"t{i}", "player": nominator, "kind": "nominate"}
        nomination |= {"candidate": pair[0], "running_mate": pair[1]}
        nominations.append(nomination | {"seq": draw(st.integers(0, 4))})
    return nominations


@st.composite
def offers(draw: st.DrawFn, state: Json, player: str) -> list[Json]:
    """R62: hand-overs other players offer the player (the site passes them with the
    player's own orders, so that the player may accept them)."""
    theirs = [d for d in state["departments"] if d["structure"] not in (None, player)]
    found = []
    for i in range(draw(st.integers(0, 2)) if theirs else 0):
        dept = draw(st.sampled_from(theirs))
        offer = {"id": f"h{i}", "player": dept["structure"], "kind": "handover"}
        offer |= {"department": dept["slug"], "to": player, "seq": draw(st.integers(0, 4))}
        found.append(offer)
    return found


def outcome(state: Json, order: Json) -> Json:
    trial = copy.deepcopy(state)
    trial["orders"].append({**order, "id": "cand", "seq": 1000})
    result: Json = resolve(trial)["report"]["orders"]["cand"]
    return result


def candidate(draw: st.DrawFn, state: Json, player: str, kind: str) -> Json:
    if kind in QUEUED_DEALS:
        order = draw(intrigue_order(state, "cand", (kind,)))
    elif kind in ELECTION_KINDS:
        order = draw(election_order(state, "cand", (kind,)))
    else:
        order = draw(one_order(state, "cand", ["siege"], (kind,)))
    order["player"] = player
    return order


def tokens_of(value: object) -> dict[str, int]:
    assert isinstance(value, dict)
    return {t: value.get(t, 0) for t in TYPES}


def move_offered(moves: list[MoveChoice], order: Json) -> bool:
    return any(
        m.start == order["from"]
        and list(m.path) == order["path"]
        and m.accepts(tokens_of(order["tokens"]))
        for m in moves
    )


def carried(draw: st.DrawFn, choice: MoveChoice) -> dict[str, int]:
    pool = [t for t in TYPES for _ in range(choice.unmoved[t])]
    size = draw(st.integers(choice.least, choice.most))
    tokens = dict.fromkeys(TYPES, 0)
    for t in draw(st.permutations(pool))[:size]:
        tokens[t] += 1
    return tokens


def within(draw: st.DrawFn, stash: dict[str, int]) -> dict[str, int]:
    return {t: draw(st.integers(0, stash[t])) for t in TYPES}


def check_link_kind(state: Json, player: str, legal: Legal, data: st.DataObject, kind: str) -> None:
    """R10-R12, R14 (add_link), R14 (break_link)."""
    offered = legal.choices(kind)
    assert bool(offered) != (kind in legal.why_not)
    if offered:
        choice = data.draw(st.sampled_from(offered))
        order = {"player": player, "kind": kind, "from": choice.supplier, "to": choice.consumer}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, kind)
    if outcome(state, order)["status"] != "rejected":
        assert any((c.supplier, c.consumer) == (order["from"], order["to"]) for c in offered)


def check_priority(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R12, R41."""
    if legal.priority:
        choice = data.draw(st.sampled_from(legal.priority))
        named = list(data.draw(st.sampled_from(choice.orderings())))
        order = {"player": player, "kind": "priority", "department": choice.supplier}
        assert outcome(state, {**order, "consumers": named})["status"] != "rejected"
    order = candidate(data.draw, state, player, "priority")
    if outcome(state, order)["status"] == "rejected":
        return
    offered = [c for c in legal.priority if c.supplier == order["department"]]
    if offered:
        assert offered[0].accepts(order["consumers"])
    else:  # fewer than two consumers: accepted, but it must change nothing (R41)
        before = resolve(copy.deepcopy(state))["links"]
        trial = copy.deepcopy(state)
        trial["orders"].append({**order, "id": "cand", "seq": 1000})
        assert resolve(trial)["links"] == before


def check_move(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R42, R36."""
    if legal.move:
        choice = data.draw(st.sampled_from(legal.move))
        order = {"player": player, "kind": "move", "from": choice.start}
        order |= {"path": list(choice.path), "tokens": carried(data.draw, choice)}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "move")
    if outcome(state, order)["status"] != "rejected":
        assert move_offered(legal.move, order), order


def check_attempt(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R43, R11."""
    if legal.attempt:
        choice = data.draw(st.sampled_from(legal.attempt))
        order = {"player": player, "kind": "attempt", "attacker": choice.attacker}
        order |= {"target": choice.target, "spend": within(data.draw, choice.stash)}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "attempt")
    if outcome(state, order)["status"] != "rejected":
        assert any(
            (c.attacker, c.target) == (order["attacker"], order["target"]) for c in legal.attempt
        )
        assert legal.attempt_refusal(order["attacker"], order["target"]) is None


def check_function(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R45, R22."""
    if legal.function:
        choice = data.draw(st.sampled_from(legal.function))
        names = [name for name, _ in choice.functions] + ["bribe a judge"]
        order = {"player": player, "kind": "function", "department": choice.department}
        order |= {"function": data.draw(st.sampled_from(names)), "stat": "impress"}
        order["spend"] = within(data.draw, choice.stash)
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "function")
    if outcome(state, order)["status"] != "rejected":
        assert any(c.department == order["department"] for c in legal.function)


def check_perceive(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R70: one check per department per player per turn."""
    if legal.perceive:
        choice = data.draw(st.sampled_from(legal.perceive))
        order = {"player": player, "kind": "perceive", "department": choice.department}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "perceive")
    if outcome(state, order)["status"] != "rejected":
        assert any(c.department == order["department"] for c in legal.perceive), order


def check_gift(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R62, R42, R36."""
    if legal.gift:
        choice = data.draw(st.sampled_from(legal.gift))
        to = data.draw(st.sampled_from(sorted(choice.rooms)))
        pool = [t for t in TYPES for _ in range(choice.unmoved[t])]
        size = data.draw(st.integers(1, choice.most(to)))
        tokens = dict.fromkeys(TYPES, 0)
        for t in data.draw(st.permutations(pool))[:size]:
            tokens[t] += 1
        order = {"player": player, "kind": "gift", "from": choice.start, "to": to}
        order["tokens"] = tokens
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "gift")
    if outcome(state, order)["status"] != "rejected":
        assert any(
            c.start == order["from"] and c.accepts(order["to"], tokens_of(order["tokens"]))
            for c in legal.gift
        ), order


def check_handover(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R62: an offered hand-over succeeds once the receiver accepts; one resolve does not
    reject is offered (without the accept it fails, which is not a rejection)."""
    if legal.handover:
        choice = data.draw(st.sampled_from(legal.handover))
        # No queued order names mallory: her accept answers only this hand-over (an accept
        # naming the player's own earlier hand-over of the department would make that one
        # go first, and this one then hands over nothing).
        receiver = "mallory"
        trial = copy.deepcopy(state)
        trial["orders"] += [
            {"id": "cand", "player": player, "kind": "handover", "seq": 1000}
            | {"department": choice.department, "to": receiver},
            {"id": "yes", "player": receiver, "kind": "accept", "seq": 1000}
            | {"department": choice.department, "from": player},
        ]
        assert resolve(trial)["report"]["orders"]["cand"]["status"] == "succeeded", choice
    order = candidate(data.draw, state, player, "handover")
    if outcome(state, order)["status"] != "rejected":
        assert isinstance(order["to"], str) and order["to"] not in ("", player)
        assert any(c.department == order["department"] for c in legal.handover), order


def check_accept(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R62: an offered accept succeeds; one resolve does not reject is offered."""
    if legal.accept:
        choice = data.draw(st.sampled_from(legal.accept))
        order = {"player": player, "kind": "accept", "department": choice.department}
        order["from"] = choice.giver
        assert outcome(state, order)["status"] == "succeeded", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "accept")
    if data.draw(st.booleans()):  # aim at an offer of the state now and then
        offered = [o for o in state["orders"] if o["kind"] == "handover" and o["to"] == player]
        if offered:
            offer = data.draw(st.sampled_from(offered))
            order |= {"department": offer["department"], "from": offer["player"]}
    if outcome(state, order)["status"] != "rejected":
        assert any(
            (c.department, c.giver) == (order["department"], order["from"]) for c in legal.accept
        ), order


def check_ticket_kind(state: Json, player: str, legal: Legal, data: st.DataObject, kind: str):
    """R80: nominate and running_mate: a candidate and any other department of the
    electorate as running mate."""
    offered = legal.choices(kind)
    if offered:
        choice = data.draw(st.sampled_from(offered))
        mates = [s for s in choice.electorate if choice.accepts(s)]
        order = {"player": player, "kind": kind, "candidate": choice.candidate}
        order["running_mate"] = data.draw(st.sampled_from(mates))
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, kind)
    if outcome(state, order)["status"] != "rejected":
        assert any(
            c.candidate == order["candidate"] and c.accepts(order["running_mate"]) for c in offered
        ), order


def check_support(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R80: one support per department, doubled only by a media department."""
    if legal.support:
        choice = data.draw(st.sampled_from(legal.support))
        order = {"player": player, "kind": "support", "department": choice.department}
        order["ticket"] = data.draw(st.sampled_from(choice.tickets))
        if choice.doubles and data.draw(st.booleans()):
            order["double"] = True
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "support")
    if outcome(state, order)["status"] != "rejected":
        assert any(
            c.department == order["department"]
            and c.accepts(order["ticket"], order.get("double") is True)
            for c in legal.support
        ), order


def check_vote(state: Json, player: str, legal: Legal, data: st.DataObject) -> None:
    """R80: one vote per player, for a ticket."""
    if legal.vote:
        choice = data.draw(st.sampled_from(legal.vote))
        order = {"player": player, "kind": "vote", "ticket": choice.ticket}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "vote")
    if outcome(state, order)["status"] != "rejected":
        assert any(c.ticket == order["ticket"] for c in legal.vote), order


@SETTINGS
@given(setups(), st.data())
def test_every_kind_is_offered_iff_resolve_accepts_it(setup: tuple[Json, str], data) -> None:
    """One board per example, every kind checked on it: 500 examples per kind. Each empty
    list has its one-line reason, and only then."""
    state, player = setup
    legal = legal_choices(state, player)
    for kind in KINDS:
        assert bool(legal.choices(kind)) != (kind in legal.why_not), kind
    check_link_kind(state, player, legal, data, "add_link")
    check_link_kind(state, player, legal, data, "break_link")
    check_priority(state, player, legal, data)
    check_move(state, player, legal, data)
    check_attempt(state, player, legal, data)
    check_function(state, player, legal, data)
    check_perceive(state, player, legal, data)
    check_gift(state, player, legal, data)
    check_handover(state, player, legal, data)
    check_accept(state, player, legal, data)
    check_ticket_kind(state, player, legal, data, "nominate")
    check_ticket_kind(state, player, legal, data, "running_mate")
    check_support(state, player, legal, data)
    check_vote(state, player, legal, data)


@st.composite
def sieges(draw: st.DrawFn) -> tuple[Json, str, str]:
    """A setup plus a payable, legal attempt "siege" by mallory's new `zatt` (no links, so on
    no path) on one of the player's departments."""
    state, player = draw(setups())
    targets = [
        d for d in state["departments"] if d["structure"] == player and d["consumes"] is not None
    ]
    assume(targets)
    target = draw(st.sampled_from(targets))
    kind = target["consumes"]["type"]
    state["departments"].append(
        {"slug": "zatt", "name": "Zatt", "effect": 0, "obstruct": 0, "impress": 1,
         "consumes": None, "produces": {"type": kind, "amount": 1}, "structure": "mallory",
         "home": True, "stash": {t: 9 if t == kind else 0 for t in TYPES},
         "moved": dict.fromkeys(TYPES, 0), "defence": {}, "functions": {}, "alignments": []}
    )  # fmt: skip
    state["settings"]["attempts_per_turn"] = max(1, state["settings"]["attempts_per_turn"])
    state["settings"]["max_out_links"] = max(1, state["settings"]["max_out_links"])
    siege = {"id": "siege", "player": "mallory", "kind": "attempt", "seq": 0}
    siege |= {"attacker": "zatt", "target": target["slug"]}
    assume(legal_choices(state, "mallory").attempt_refusal("zatt", target["slug"]) is None)
    state["orders"].append(siege)
    return state, player, target["slug"]


@SETTINGS
@given(sieges(), st.data())
def test_reinforce_r46_offered_iff_accepted(siege: tuple[Json, str, str], data) -> None:
    state, player, target = siege
    legal: Legal = legal_choices(state, player)
    offered = legal.reinforce(target)
    assert bool(offered) == (legal.reinforce_why_not(target) is None)
    if offered:
        choice = data.draw(st.sampled_from(offered))
        order = {"player": player, "kind": "reinforce", "answers": "siege", "from": choice.start}
        order |= {"path": list(choice.path), "tokens": carried(data.draw, choice)}
        assert outcome(state, order)["status"] != "rejected", (choice, outcome(state, order))
    order = candidate(data.draw, state, player, "reinforce")
    if data.draw(st.integers(0, 3)):
        order["answers"] = "siege"
    if outcome(state, order)["status"] != "rejected":
        assert order["answers"] == "siege" and move_offered(offered, order), order

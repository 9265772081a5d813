"""Hypothesis strategies for ENGINE.md parts 7-8 (RULES R60-R62, R70-R71): players with
Perception and shticks of the R60 catalogue, envelopes, goals, several boards in one state,
and orders of the kinds perceive, gift, handover and accept, legal and illegal mixed. Built on
strategies.py's random boards."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from strategies import PLAYERS, STATS, TYPES, boards, one_order

from campaigns.engine.sheets import KINDS

Json = dict[str, Any]
BOARDS = ("city", "harbour")
ROLLS = ("attack", "defend", "function", "perception")
SHTICK_KINDS = KINDS  # the R60 catalogue, every kind
# Shticks that change no roll: token bookkeeping checks can use them unchanged.
ROLL_FREE = ("production", "attempts", "link_limit", "cross_board", "perception", "text")
INTRIGUE_KINDS = ("perceive", "gift", "gift", "handover", "accept")


def room(dept: Json) -> int:
    """R36/R42: capacity (or the produced amount where none is given) less the stash."""
    capacity = dept.get("capacity")
    if capacity is None:
        capacity = dept["produces"]["amount"] if dept["produces"] else 0
    return int(capacity) - sum(dept["stash"].values())


def slugs_of(state: Json) -> list[str]:
    return [d["slug"] for d in state["departments"]]


@st.composite
def shticks(draw: st.DrawFn, state: Json, kinds: tuple[str, ...] = SHTICK_KINDS) -> Json:
    """One shtick; a department it names is often one of the state's, now and then another."""
    kind = draw(st.sampled_from(kinds))
    somewhere = st.sampled_from([*slugs_of(state), "elsewhere"])
    shtick: Json = {"kind": kind}
    if kind in ("production", "attempts", "perception", "dice", "skill"):
        shtick["amount"] = draw(st.integers(0, 3))
    if kind == "production":
        shtick["department"] = draw(somewhere)
    elif kind in ("dice", "skill"):
        shtick["roll"] = draw(st.sampled_from(ROLLS))
        shtick["department"] = draw(st.one_of(st.none(), somewhere))
    elif kind == "link_limit":
        shtick["department"] = draw(somewhere)
        for key in ("out", "in"):
            if draw(st.booleans()):
                shtick[key] = draw(st.integers(0, 4))
    elif kind == "cross_board":
        shtick["boards"] = draw(st.sampled_from([list(BOARDS), ["city", "islands"]]))
    elif kind == "text":
        shtick["text"] = draw(st.text(max_size=20))
    return shtick


@st.composite
def players(draw: st.DrawFn, state: Json, kinds: tuple[str, ...] = SHTICK_KINDS) -> Json:
    """ENGINE.md `players` for some of the players."""
    chosen = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3))
    return {
        player: {
            "perception": draw(st.integers(0, 3)),
            "shticks": draw(st.lists(shticks(state, kinds), max_size=4)),
        }
        for player in chosen
    }


@st.composite
def envelopes(draw: st.DrawFn, state: Json) -> list[Json]:
    count = draw(st.integers(0, 4))
    return [
        {
            "id": f"e{i}",
            "department": draw(st.sampled_from(slugs_of(state))),
            "target": draw(st.integers(0, 24)),
            "audience": draw(st.one_of(st.none(), st.lists(st.sampled_from(PLAYERS), unique=True))),
            "grants": draw(st.sampled_from([None, "rumoured", "known"])),
        }
        for i in range(count)
    ]


@st.composite
def goals(draw: st.DrawFn) -> list[Json]:
    found = []
    for i in range(draw(st.integers(0, 4))):
        goal: Json = {"id": f"g{i}", "player": draw(st.sampled_from(PLAYERS))}
        goal["kind"] = draw(
            st.sampled_from(["control", "control_aligned", "hold", "stat_total", "attempts_won"])
        )
        goal["n"] = draw(st.integers(0, 8))
        if goal["kind"] == "control_aligned":
            goal["alignment"] = draw(st.sampled_from(["Government", "criminal", "Weird"]))
        elif goal["kind"] == "hold":
            goal["type"] = draw(st.sampled_from(TYPES))
        elif goal["kind"] == "stat_total":
            goal["stat"] = draw(st.sampled_from(STATS))
        elif draw(st.booleans()):
            goal["count"] = draw(st.integers(0, 3))
        found.append(goal)
    return found


def orderer(draw: st.DrawFn, state: Json) -> tuple[dict[str, Json], list[str], str, list[str]]:
    """(departments by slug, slugs, the ordering player: mostly one with a structure, and
    that player's departments, or every one if they have none)."""
    depts = {d["slug"]: d for d in state["departments"]}
    slugs = list(depts)
    owners = sorted({d["structure"] for d in depts.values() if d["structure"]}) or list(PLAYERS)
    player = draw(st.sampled_from(owners if draw(st.integers(0, 5)) else list(PLAYERS)))
    mine = [s for s, d in depts.items() if d["structure"] == player] or slugs
    return depts, slugs, player, mine


@st.composite
def intrigue_order(draw: st.DrawFn, state: Json, oid: str, kinds: tuple[str, ...]) -> Json:
    """One order of a part 7-8 kind, mostly well aimed, sometimes not."""
    depts, slugs, player, mine = orderer(draw, state)
    theirs = [s for s, d in depts.items() if d["structure"] not in (None, player)] or slugs
    others = [p for p in PLAYERS if p != player]
    anyone = st.sampled_from([*others, *others, *others, "", player])  # mostly another player
    kind = draw(st.sampled_from(kinds))
    order: Json = {"id": oid, "player": player, "kind": kind}
    if kind == "perceive":
        order["department"] = draw(st.sampled_from([*slugs, "nowhere"]))
    elif kind == "gift":
        order["from"] = draw(st.sampled_from(mine if draw(st.integers(0, 5)) else slugs))
        roomy = [s for s in theirs if s in depts and room(depts[s]) > 0]
        order["to"] = draw(st.sampled_from(roomy if roomy and draw(st.integers(0, 4)) else slugs))
        giver = depts.get(order["from"])
        held = [t for t in TYPES if giver and giver["stash"][t] > giver["moved"][t]]
        if held and draw(st.integers(0, 3)):  # mostly one or two tokens the giver may give
            order["tokens"] = {draw(st.sampled_from(held)): draw(st.integers(1, 2))}
        else:
            least = 0 if draw(st.integers(0, 9)) else -1  # now and then a negative amount
            order["tokens"] = {t: draw(st.integers(least, 2)) for t in TYPES}
    elif kind == "handover":
        order["department"] = draw(st.sampled_from(mine if draw(st.integers(0, 5)) else slugs))
        order["to"] = draw(anyone)
    else:  # accept: of another player's department, usually
        order["department"] = draw(st.sampled_from(theirs if draw(st.integers(0, 5)) else slugs))
        owner = depts[order["department"]]["structure"] if order["department"] in depts else None
        order["from"] = owner if owner and draw(st.integers(0, 4)) else draw(anyone)
    if draw(st.integers(0, 3)) == 0:
        order["seq"] = draw(st.integers(0, 10))
    return order


@st.composite
def intrigue_boards(
    draw: st.DrawFn,
    *,
    shtick_kinds: tuple[str, ...] = SHTICK_KINDS,
    old_kinds: tuple[str, ...] = ("add_link", "break_link", "move", "attempt", "function"),
    max_orders: int = 10,
) -> Json:
    """A random board, sometimes split over two boards, with players, envelopes and goals,
    and a mix of orders of every kind (each accept sometimes answering a real hand-over)."""
    state = draw(boards())
    if draw(st.booleans()):
        for dept in state["departments"]:
            dept["board"] = draw(st.sampled_from(BOARDS))
    state["players"] = draw(players(state, shtick_kinds))
    state["envelopes"] = draw(envelopes(state))
    state["goals"] = draw(goals())
    orders = []
    for i in range(draw(st.integers(0, max_orders))):
        if old_kinds and draw(st.booleans()):
            orders.append(draw(one_order(state, f"o{i}", [], old_kinds)))
        else:
            orders.append(draw(intrigue_order(state, f"o{i}", INTRIGUE_KINDS)))
    for order in [o for o in orders if o["kind"] == "handover"]:
        if isinstance(order["to"], str) and order["to"] and draw(st.booleans()):
            answer = {"id": f"{order['id']}ok", "player": order["to"], "kind": "accept"}
            answer |= {"department": order["department"], "from": order["player"]}
            orders.append(answer)
    state["orders"] = draw(st.permutations(orders))
    return state

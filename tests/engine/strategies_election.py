"""Hypothesis strategies for ENGINE.md part 9 (RULES R80): offices with an alignment, shticks,
holder and deputy; an election; and orders of the kinds nominate, running_mate, support and
vote, mostly well aimed, sometimes not. Built on strategies.py's random boards."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from strategies import PLAYERS, boards, one_order
from strategies_intrigue import orderer, shticks

Json = dict[str, Any]
ELECTION_KINDS = ("nominate", "running_mate", "support", "support", "vote")
OFFICE_ALIGNMENTS = ("Government", "Communist", "Criminal", "Fanatic", "Weird")


@st.composite
def offices(draw: st.DrawFn, state: Json) -> list[Json]:
    slugs = [d["slug"] for d in state["departments"]]
    found = []
    for office_id in draw(st.sampled_from([["mayor"], ["mayor", "harbourmaster"]])):
        found.append(
            {
                "id": office_id,
                "name": office_id.title(),
                "alignment": draw(st.sampled_from(OFFICE_ALIGNMENTS)),
                "shticks": draw(st.lists(shticks(state), max_size=2)),
                "holder": draw(st.one_of(st.none(), st.sampled_from(slugs))),
                "deputy": draw(st.one_of(st.none(), st.sampled_from(slugs))),
            }
        )
    return found


@st.composite
def election_order(draw: st.DrawFn, state: Json, oid: str, kinds: tuple[str, ...]) -> Json:
    """One order of an election kind, mostly well aimed, sometimes not."""
    depts, slugs, player, mine = orderer(draw, state)
    anywhere = st.sampled_from([*slugs, "nowhere"] if not draw(st.integers(0, 9)) else slugs)
    # Tickets are named by candidates: earlier nominations of the state, or any department.
    named = [o["candidate"] for o in state["orders"] if o["kind"] == "nominate"] or slugs
    ticket = st.sampled_from(named if draw(st.integers(0, 4)) else slugs)
    kind = draw(st.sampled_from(kinds))
    order: Json = {"id": oid, "player": player, "kind": kind}
    if kind == "nominate":
        order["candidate"] = draw(anywhere)
        order["running_mate"] = draw(anywhere)
    elif kind == "running_mate":
        order["candidate"] = draw(st.sampled_from(mine if draw(st.integers(0, 3)) else named))
        order["running_mate"] = draw(anywhere)
    elif kind == "support":
        order["department"] = draw(st.sampled_from(mine if draw(st.integers(0, 5)) else slugs))
        order["ticket"] = draw(ticket)
        if draw(st.integers(0, 2)) == 0:
            order["double"] = draw(st.sampled_from([True, True, False, "yes"]))
            media = [s for s in mine if s in depts and "media" in str(depts[s]["functions"])]
            if media and draw(st.integers(0, 3)):
                order["department"] = draw(st.sampled_from(media))
    else:
        order["ticket"] = draw(ticket)
    if draw(st.integers(0, 3)) == 0:
        order["seq"] = draw(st.integers(0, 10))
    return order


@st.composite
def election_boards(draw: st.DrawFn, max_orders: int = 12) -> Json:
    """A random board with offices, an election of the first office, some departments with a
    media function, and orders: attempts, moves and function rolls mixed with the election's
    (so captures come before it and doubled media lose their roll)."""
    state = draw(boards())
    for dept in state["departments"]:
        if draw(st.integers(0, 3)) == 0:
            dept["functions"] = {**dept["functions"], draw(st.sampled_from(["media", "Media"])): 1}
    state["offices"] = draw(offices(state))
    state["election"] = {"office": "mayor"}
    slugs = [d["slug"] for d in state["departments"]]
    for i in range(draw(st.integers(0, 3))):  # a few well-formed nominations to start with
        candidate, mate = draw(
            st.lists(st.sampled_from(slugs), min_size=2, max_size=2, unique=True)
        )
        nomination = {"id": f"n{i}", "player": draw(st.sampled_from(PLAYERS)), "kind": "nominate"}
        state["orders"].append(nomination | {"candidate": candidate, "running_mate": mate})
    for i in range(draw(st.integers(0, max_orders))):
        if draw(st.integers(0, 2)) == 0:
            kinds = ("attempt", "function", "function", "move")
            state["orders"].append(draw(one_order(state, f"o{i}", [], kinds)))
        else:
            state["orders"].append(draw(election_order(state, f"o{i}", ELECTION_KINDS)))
    return state

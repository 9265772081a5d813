"""Hypothesis strategies for classic boards (RULES part 10, ENGINE.md part 10): random legal
boards of 2-3 players and random orders of every classic kind, legal and illegal mixed.

Boards are legal: whole numbers >= 0, alignments by R5, every group in a structure hangs on a
group of the same player with a free arrow (so no cycle, no more children than arrows), one
Illuminati per player at the root, the deck lists exactly the groups in it. Orders are mostly
well typed but name unknown players and slugs, negative amounts and wrong sides now and then.
"""

from __future__ import annotations

from typing import Any

from classic_boards import SEED
from hypothesis import strategies as st
from strategies import alignments

from campaigns.engine.classic.orders import KINDS, SLUGS

PLAYERS = ("alice", "bob", "carol")
Json = dict[str, Any]


@st.composite
def bonuses(draw: st.DrawFn) -> list[Json]:
    bonus = st.fixed_dictionaries(
        {
            "aim": st.sampled_from(("control", "neutralize", "destroy", "any")),
            "amount": st.integers(0, 4),
            "scope": st.sampled_from(("any", "own")),
            "alignment": st.sampled_from((None, "Criminal", "Weird", "Government")),
        }
    )
    return draw(st.lists(bonus, max_size=2))


@st.composite
def classic_states(draw: st.DrawFn) -> Json:
    """A legal classic board (R91, R92) with an empty order list."""
    players = list(PLAYERS[: draw(st.integers(2, 3))])
    groups: list[Json] = []
    children: dict[str, int] = {}
    arrows: dict[str, int] = {}
    owner: dict[str, str] = {}
    for player in players:
        slug = f"{player}-ill"
        groups.append(
            {
                "slug": slug, "name": slug, "illuminati": True,
                "power": draw(st.integers(0, 10)), "transferable": draw(st.integers(0, 8)),
                "resistance": None, "income": draw(st.integers(0, 9)), "arrows": 4,
                "alignments": [], "treasury": draw(st.integers(0, 12)), "place": "structure",
                "controller": player, "parent": None, "bonuses": draw(bonuses()),
            }
        )  # fmt: skip
        children[slug], arrows[slug], owner[slug] = 0, 4, player
    for i in range(draw(st.integers(0, 9))):
        slug = f"g{i}"
        place = draw(st.sampled_from(("structure", "structure", "structure", "table", "deck",
                                      "destroyed")))  # fmt: skip
        controller = parent = None
        if place == "structure":
            player = draw(st.sampled_from(players))
            free = [s for s, p in owner.items() if p == player and children[s] < arrows[s]]
            if free:
                parent, controller = draw(st.sampled_from(free)), player
                children[parent] += 1
            else:
                place = "table"
        n_arrows = draw(st.integers(0, 3))
        groups.append(
            {
                "slug": slug, "name": slug, "power": draw(st.integers(0, 6)),
                "transferable": draw(st.integers(0, 4)), "resistance": draw(st.integers(0, 8)),
                "income": draw(st.integers(0, 4)), "arrows": n_arrows,
                "alignments": draw(alignments()),
                "treasury": draw(st.integers(0, 10)) if place == "structure" else 0,
                "place": place, "controller": controller, "parent": parent,
                "bonuses": draw(bonuses()),
            }
        )  # fmt: skip
        if place == "structure" and controller is not None:
            children[slug], arrows[slug], owner[slug] = 0, n_arrows, controller
    deck = [g["slug"] for g in groups if g["place"] == "deck"]
    return {
        "ruleset": "classic", "turn": draw(st.integers(1, 9)), "seed": SEED,
        "players": [{"id": p} for p in players], "groups": groups,
        "deck": draw(st.permutations(deck)), "orders": [],
    }  # fmt: skip


# The fields naming a group, per kind: the engine's own table (none for gift and pass).
KIND_FIELDS = {kind: SLUGS.get(kind, ()) for kind in KINDS}
AMOUNTS = {
    "attack": ("spend", "spend_illuminati", "transfer_after"),
    "defend": ("spend", "spend_illuminati"),
    "interfere": ("amount",),
    "transfer": ("amount",),
    "gift": ("amount",),
}


@st.composite
def classic_orders(draw: st.DrawFn, state: Json, oid: str = "o1") -> Json:
    """One order of any classic kind, mostly well formed, often illegal."""
    players = [p["id"] for p in state["players"]]
    slugs = [g["slug"] for g in state["groups"]]
    kind = draw(st.sampled_from((*KIND_FIELDS, "bogus")))
    player = draw(st.sampled_from((*players, *players, "mallory")))
    order: Json = {"id": oid, "player": player, "kind": kind}
    own = [g["slug"] for g in state["groups"] if g["controller"] == player]
    slug = st.sampled_from((*own, *own, *own, *slugs, "nowhere"))
    in_play = [
        g["slug"] for g in state["groups"]
        if not g.get("illuminati") and g["place"] in ("structure", "table")
    ]  # fmt: skip
    target = st.sampled_from((*in_play, *in_play, *in_play, *slugs, "nowhere"))
    for name in KIND_FIELDS.get(kind, ()):
        order[name] = draw(target if name == "target" else slug)
    small = st.integers(0, 3)
    amount = st.one_of(small, small, small, small, st.integers(0, 12), st.just(-1))
    for name in AMOUNTS.get(kind, ()):
        if name == "amount" or draw(st.booleans()):
            order[name] = draw(amount)
    if kind == "attack":
        aims = ("control", "neutralize", "destroy")
        order["aim"] = draw(st.sampled_from((*aims, *aims, "conquer")))
        order["assist"] = draw(st.lists(slug, max_size=2))
    if kind == "interfere":
        order["for"] = draw(st.sampled_from((*players, "mallory")))
        order["side"] = draw(st.sampled_from(("attack", "defend", "defend", "both")))
    if kind in ("give_group", "gift"):
        order["to_player"] = draw(st.sampled_from((*players, "mallory")))
    if kind == "transfer":
        order["action"] = draw(st.booleans())
    return order

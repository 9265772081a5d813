"""A classic board file (RULES R90-R99, ENGINE.md part 10) as the GM imports it: players by
user name (alice and bob, the demo's), two structures, groups on the table, in the deck and
destroyed. Treasuries and goals hold sentinel-like numbers a page must not show to others."""

from __future__ import annotations

import copy
from typing import Any

# R99 secrets, chosen to be found as plain substrings of a page (no page shows such numbers
# otherwise).
ALICE_TREASURY = 7301
BOB_TREASURY = 7302
MAFIA_TREASURY = 7303
ALICE_GOAL = 7304


def group(slug: str, **fields: Any) -> dict[str, Any]:
    """A group on the table; `fields` override."""
    base: dict[str, Any] = {
        "slug": slug, "name": slug.replace("-", " ").title(), "power": 2, "transferable": 1,
        "resistance": 3, "income": 2, "arrows": 1, "alignments": [], "treasury": 0,
        "place": "table", "controller": None, "parent": None,
    }  # fmt: skip
    base.update(fields)
    return base


def classic_file(slug: str = "cabal", name: str = "The Cabal") -> dict[str, Any]:
    """alice: the Bavarian Illuminati holding the Mafia; bob: the Gnomes of Zurich holding the
    CIA; the Yuppies on the table; the KGB and the Cycle Gangs in the deck (in that order);
    the Moonies destroyed, by alice."""
    groups = [
        group("bavarians", name="Bavarian Illuminati", illuminati=True, power=10,
              transferable=10, resistance=None, income=9, arrows=4, treasury=ALICE_TREASURY,
              place="structure", controller="alice",
              bonuses=[{"aim": "destroy", "amount": 2, "scope": "any", "alignment": None}]),
        group("gnomes", name="Gnomes of Zurich", illuminati=True, power=7, transferable=7,
              resistance=None, income=12, arrows=4, treasury=BOB_TREASURY,
              place="structure", controller="bob"),
        group("mafia", name="The Mafia", power=6, transferable=0, resistance=7, income=6,
              arrows=3, alignments=["Criminal"], treasury=MAFIA_TREASURY, place="structure",
              controller="alice", parent="bavarians"),
        group("cia", name="CIA", power=6, transferable=4, resistance=5, income=0, arrows=2,
              alignments=["Government", "Violent"], treasury=3, place="structure",
              controller="bob", parent="gnomes"),
        group("yuppies", name="Yuppies", power=1, transferable=1, resistance=4, income=5,
              alignments=["Conservative"]),
        group("kgb", name="KGB", place="deck"),
        group("cycle-gangs", name="Cycle Gangs", place="deck"),
        group("moonies", name="Moonies", place="destroyed"),
    ]  # fmt: skip
    return copy.deepcopy(
        {
            "ruleset": "classic", "slug": slug, "name": name,
            "players": [{"id": "alice", "goal": {"kind": "power", "amount": ALICE_GOAL}},
                        {"id": "bob"}],
            "groups": groups,
            "deck": ["kgb", "cycle-gangs"],
            "destroyed_by": {"alice": 1},
        }
    )  # fmt: skip


def classic_board_in(campaign: Any, slug: str = "cabal") -> Any:
    """`classic_file()` imported into `campaign` by its GM, as the import page does; alice
    and bob must be players of it."""
    from campaigns.models import Membership
    from campaigns.services.setup import board_import_by_gm

    gm = Membership.objects.filter(campaign=campaign, role=Membership.Role.GM).first()
    assert gm is not None
    return board_import_by_gm(campaign=campaign, actor=gm.user, data=classic_file(slug=slug))


# The crawl's classic board (tests/support/crawl.py): sentinels that no other page shows.
CRAWL_CLASSIC = "cabal"
CRAWL_TREASURIES = {  # group -> (its controller, or None on the table; its treasury)
    "bavarians": ("alice", 731001),
    "mafia": ("alice", 731002),
    "gnomes": ("bob", 732001),
    "cia": ("bob", 732002),
    "discordians": ("carol", 735001),
    "yuppies": (None, 734001),
}
CRAWL_GOALS = {"alice": 733001, "bob": 733002, "carol": 733003}
DECK_NAMES = ("Deck Sentinel Alpha", "Deck Sentinel Beta")


def crawl_classic_file() -> dict[str, Any]:
    """`classic_file()` with carol too (the Discordians), every treasury and goal a sentinel,
    and the deck's groups named so that a page naming them is found out (R99)."""
    data = classic_file(slug=CRAWL_CLASSIC)
    data["groups"].append(
        group("discordians", name="Discordian Society", illuminati=True, power=8,
              transferable=8, resistance=None, income=8, arrows=4, place="structure",
              controller="carol")
    )  # fmt: skip
    for raw in data["groups"]:
        if raw["slug"] in CRAWL_TREASURIES:
            raw["treasury"] = CRAWL_TREASURIES[raw["slug"]][1]
        if raw["slug"] == "kgb":
            raw["name"] = DECK_NAMES[0]
        if raw["slug"] == "cycle-gangs":
            raw["name"] = DECK_NAMES[1]
    data["players"] = [
        {"id": p, "goal": {"kind": "money", "amount": n}} for p, n in CRAWL_GOALS.items()
    ]
    return data


def classic_secrets(username: str | None) -> tuple[list[str], list[str]]:
    """R99: (what `username` may read on the crawl's classic board: their treasuries and
    goal; what they must never read). `username` None: a role that is no player (the
    observer, the outsider, a visitor). The deck's order is nobody's: its names never show."""
    own = [str(n) for g, (who, n) in CRAWL_TREASURIES.items() if who and who == username]
    own += [str(n) for who, n in CRAWL_GOALS.items() if who == username]
    every = [str(n) for _, n in CRAWL_TREASURIES.values()] + [str(n) for n in CRAWL_GOALS.values()]
    return own, [s for s in every if s not in own] + list(DECK_NAMES)


def gm_classic_secrets() -> tuple[list[str], list[str]]:
    """R99: the GM reads every treasury and goal; the deck's order still not on a page."""
    every = [str(n) for _, n in CRAWL_TREASURIES.values()] + [str(n) for n in CRAWL_GOALS.values()]
    return every, list(DECK_NAMES)


# R98: alice's goal in `classic_won`, met by her treasuries (7301 + 7303) and secret (R99).
WON_GOAL = 7305


def classic_won(campaign: Any) -> Any:
    """`classic_board_in(campaign)` with two groups enough to win (R98: `win_groups` 2) and
    alice's goal of WON_GOAL MB, then turn 1 processed with no orders: alice wins by her goal
    and her groups, bob by his groups. The board."""
    from campaigns.models import ClassicBoard
    from campaigns.services.turns import turn_process

    board = classic_board_in(campaign)
    row = ClassicBoard.objects.get(board=board)
    row.state["settings"] = {"win_groups": 2}
    alice = next(p for p in row.state["players"] if p.get("goal"))
    alice["goal"] = {"kind": "money", "amount": WON_GOAL}
    row.save()
    assert turn_process(campaign_id=campaign.pk, number=1) is not None
    return board

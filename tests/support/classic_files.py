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
# The crawl's classic turn 1 (tests/support/crawl.py `classic_turn_queued`): megabucks its
# orders name -> who may read them (R99: they tell what left a secret treasury): alice's
# attack spends the first from her Illuminati, bob's standing defence the second, carol's
# interference the third; carol gifts bob the fourth, which the receiver reads too.
CRAWL_SPENT = {730501: ("alice",), 730502: ("bob",), 730503: ("carol",), 730504: ("carol", "bob")}
# One group per player is drawn at the end of turn 1 (R93): these, so that the deck's
# sentinel-named groups stay in the deck.
DRAWN_FIRST = ("crawl-drawn-1", "crawl-drawn-2", "crawl-drawn-3")


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
        {"id": p, "goal": {"kind": "power", "amount": n}} for p, n in CRAWL_GOALS.items()
    ]
    # Power goals: nobody reaches one, so the crawl's classic turn 1 makes no winner (money
    # goals would be met at once by the sentinel treasuries).
    data["groups"] += [group(slug, place="deck") for slug in DRAWN_FIRST]
    data["deck"] = [*DRAWN_FIRST, *data["deck"]]
    return data


def classic_secrets(username: str | None) -> tuple[list[str], list[str]]:
    """R99: (what `username` may read on the crawl's classic board: their treasuries, goal
    and the megabucks of their turn-1 orders and of gifts to them; what they must never
    read). `username` None: a role that is no player (the
    observer, the outsider, a visitor). The deck's order is nobody's: its names never show."""
    own = [str(n) for g, (who, n) in CRAWL_TREASURIES.items() if who and who == username]
    own += [str(n) for who, n in CRAWL_GOALS.items() if who == username]
    own += [str(n) for n, readers in CRAWL_SPENT.items() if username in readers]
    return own, [s for s in every_classic_secret() if s not in own] + list(DECK_NAMES)


def every_classic_secret() -> list[str]:
    return [
        *(str(n) for _, n in CRAWL_TREASURIES.values()),
        *(str(n) for n in CRAWL_GOALS.values()),
        *(str(n) for n in CRAWL_SPENT),
    ]


def gm_classic_secrets() -> tuple[list[str], list[str]]:
    """R99: the GM reads every treasury, goal and order's megabucks; the deck's order still
    not on a page."""
    return every_classic_secret(), list(DECK_NAMES)


# `classic_file()` as the spreadsheet the board-import page documents
# (campaigns/classic/selectors/board_files.py): one line per group, each player's goal and
# count of destroyed groups on their Illuminati's line, the deck's lines top first.
CLASSIC_CSV = """\
slug,name,illuminati,power,transferable,resistance,income,arrows,alignments,bonuses,place,controller,parent,treasury,goal,groups_destroyed
bavarians,Bavarian Illuminati,yes,10,10,,9,4,,destroy 2,structure,alice,,7301,power 7304,1
gnomes,Gnomes of Zurich,yes,7,7,,12,4,,,structure,bob,,7302,,
mafia,The Mafia,,6,0,7,6,3,Criminal,,structure,alice,bavarians,7303,,
cia,CIA,,6,4,5,0,2,Government; Violent,,structure,bob,gnomes,3,,
yuppies,Yuppies,,1,1,4,5,1,Conservative,,table,,,0,,
kgb,KGB,,2,1,3,2,1,,,deck,,,0,,
cycle-gangs,Cycle Gangs,,2,1,3,2,1,,,deck,,,0,,
moonies,Moonies,,2,1,3,2,1,,,destroyed,,,0,,
"""  # noqa: E501


def classic_csv_with(slug: str, column: str, value: str) -> str:
    """CLASSIC_CSV with one cell changed: `column` of the line of group `slug`."""
    lines = CLASSIC_CSV.splitlines()
    header = lines[0].split(",")
    for index, line in enumerate(lines[1:], start=1):
        cells = line.split(",")
        if cells[0] == slug:
            cells[header.index(column)] = value
            lines[index] = ",".join(cells)
    return "\n".join(lines) + "\n"


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

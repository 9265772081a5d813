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

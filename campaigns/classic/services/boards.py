"""Import a classic board (RULES R90-R92) from a file: ENGINE.md part 10's state plus, at top
level, the board's `slug` and `name`, with `"ruleset": "classic"`. Players (`players[].id`,
a group's `controller`, the keys of `destroyed_by`) are named by the user names of the
campaign's players; the board stores them by engine id (models/classic.py).

The file is checked whole before anything is written: what the site needs (the board's
address and name, each group's slug and name, players who are players here, numbers a
database column holds, no unknown keys) is listed problem by problem, then the engine's own
parser reviews the state as the turn job would read it (its first problem, one line).
Nothing is saved unless both find nothing. Top-level keys beginning with "_" are notes for
people, not kept."""

from __future__ import annotations

import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.classic.selectors.state import classic_engine_state
from campaigns.engine import EngineError
from campaigns.engine.classic.state import parse_classic
from campaigns.models import Board, Campaign, ClassicBoard, Membership
from campaigns.models.campaign import engine_player_id
from campaigns.services.boards import (
    BIG_MAX,
    NAME_MAX,
    BoardImportError,
    Place,
    bad_name,
    bad_slug,
    board_problems,
    board_taken,
    player_problems,
    valid_slug,
    valid_text,
)
from campaigns.words.game import problem_text

# ENGINE.md part 10's keys, and the site's own (`slug`, `name` of the board; a group's
# `description`).
TOP_KEYS = frozenset(
    ("ruleset", "slug", "name", "settings", "players", "groups", "deck", "destroyed_by")
)
GROUP_KEYS = frozenset(
    ("slug", "name", "illuminati", "power", "transferable", "resistance", "income", "arrows",
     "alignments", "treasury", "place", "controller", "parent", "bonuses", "description")
)  # fmt: skip
NUMBERS = ("power", "transferable", "resistance", "income", "arrows", "treasury")
DESCRIPTION_MAX = 4000
PLAYER_KEYS = frozenset(("id", "goal"))
# A top-level key beginning with this is a note for people (the demo's `_about`, the golden
# files' `_why`): allowed, and not kept.
NOTE = "_"
ENGINE_ID = re.compile(r"\bp\d+\b")
# A word of a problem that may be a group's slug (the engine names the group it is about
# first, in any language: "group mafia: ...").
WORD = re.compile(r"(?<![\w-])[a-z0-9][a-z0-9-]*(?![\w-])")


def classic_board_import(
    *, campaign: Campaign, data: dict[str, Any], players: dict[str, Membership]
) -> Board:
    """Create the classic board `data` describes (`players`: user name -> membership of a
    player of the campaign). BoardImportError listing every problem, nothing written."""
    stored = classic_board_check(campaign=campaign, data=data, players=players)
    try:
        with transaction.atomic():
            board = Board.objects.create(
                campaign=campaign, slug=data["slug"], name=data["name"], ruleset="classic"
            )
            ClassicBoard.objects.create(board=board, state=stored)
    except IntegrityError:
        # Another import took the slug between the check and the insert.
        raise BoardImportError([board_taken(campaign, data["slug"])]) from None
    return board


def classic_board_check(
    *, campaign: Campaign, data: dict[str, Any], players: dict[str, Membership]
) -> dict[str, Any]:
    """The document to store for the file (players by engine id), or BoardImportError."""
    problems = board_problems(campaign, data) + player_problems(campaign, players)
    unknown = [k for k in extra(data, TOP_KEYS) if not k.startswith(NOTE)]
    problems += [_("file: unknown field %(key)s") % {"key": repr(k)} for k in unknown]
    ids = {name: engine_player_id(m.pk) for name, m in players.items()}
    problems += player_entry_problems(data.get("players"), ids)
    places: list[Place | None] = [None] * len(problems)
    groups = data.get("groups")
    if isinstance(groups, list):
        for index, raw in enumerate(groups):
            if isinstance(raw, dict):
                found = group_problems(index, raw, ids)
                problems += found
                places += [("groups", index)] * len(found)
    stored = renamed(data, ids)
    if not problems:
        problems = classic_review(campaign, stored, ids)
        places = [group_place(p, groups) for p in problems]
    if problems:
        raise BoardImportError(problems, places)
    return stored


def classic_review(campaign: Campaign, stored: dict[str, Any], ids: dict[str, str]) -> list[str]:
    """The engine's review of a classic board's document (players by engine id) as the turn
    job would read it: nothing, or its first problem in words, players named by user name
    (`ids`: user name -> engine id). The import and the GM's editor both save only past it."""
    catalogue = [a.as_engine() for a in campaign.alignments.order_by("pk")]
    try:
        parse_classic(classic_engine_state(stored, catalogue=catalogue))
    except EngineError as error:
        return [named_back(problem_text(str(error)), ids)]
    return []


def group_place(problem: str, groups: object) -> Place | None:
    """The group an engine problem names first ("group mafia: ..."), so the page can give
    its line."""
    if not isinstance(groups, list):
        return None
    slugs = [g.get("slug") if isinstance(g, dict) else None for g in groups]
    named = next((w for w in WORD.findall(problem) if w in slugs), None)
    return None if named is None else ("groups", slugs.index(named))


def named_back(problem: str, ids: dict[str, str]) -> str:
    """The engine names players by engine id ("p7"); the GM's file by user name."""
    names = {pid: name for name, pid in ids.items()}
    return ENGINE_ID.sub(lambda m: names.get(m.group(0), m.group(0)), problem)


def extra(raw: dict[str, Any], known: frozenset[str]) -> list[str]:
    return sorted(str(key) for key in raw if key not in known)


def player_entry_problems(value: object, ids: dict[str, str]) -> list[str]:
    """R13 as R90 reads it: each player of the file is a player of the campaign."""
    if not isinstance(value, list):
        return [] if value is None else [_("players: must be a list of objects")]
    problems = []
    for raw in value:
        if not isinstance(raw, dict):
            continue  # the engine says so
        name = raw.get("id")
        if isinstance(name, str) and name not in ids:
            problems.append(not_playing(_("player %(id)s") % {"id": name}, name, ids))
        problems += [
            _("player %(id)s: unknown field %(key)s") % {"id": name, "key": repr(k)}
            for k in extra(raw, PLAYER_KEYS)
        ]
    return problems


def not_playing(what: str, name: str, ids: dict[str, str]) -> str:
    known = ", ".join(sorted(ids)) or _("none yet")
    return _(
        "%(what)s: %(name)s is not a player of this campaign (its players: %(known)s); "
        "invite them as a player first (R90)."
    ) % {"what": what, "name": repr(name), "known": known}


def group_problems(index: int, raw: dict[str, Any], ids: dict[str, str]) -> list[str]:
    """What the engine does not check but the site needs, for one group (R91)."""
    slug = raw.get("slug")
    what = (
        _("group %(slug)s") % {"slug": slug}
        if isinstance(slug, str) and slug
        else _("group #%(n)s") % {"n": index + 1}
    )
    problems = []
    if isinstance(slug, str) and slug and not valid_slug(slug):
        problems.append(bad_slug(what, "R91"))
    if not valid_text(raw.get("name"), NAME_MAX, required=True):
        problems.append(bad_name(what, "R91"))
    if not valid_text(raw.get("description", ""), DESCRIPTION_MAX):
        problems.append(
            _("%(what)s: description must be a text of at most %(n)s characters")
            % {"what": what, "n": DESCRIPTION_MAX}
        )
    for key in NUMBERS:
        value = raw.get(key)
        if type(value) is int and value > BIG_MAX:
            problems.append(
                _("%(what)s: %(key)s must be at most %(n)s")
                % {"what": what, "key": key, "n": BIG_MAX}
            )
    controller = raw.get("controller")
    if isinstance(controller, str) and controller not in ids:
        problems.append(not_playing(what, controller, ids))
    problems += [
        _("%(what)s: unknown field %(key)s") % {"what": what, "key": repr(k)}
        for k in extra(raw, GROUP_KEYS)
    ]
    return problems


def known(name: object, ids: dict[str, str]) -> bool:
    return isinstance(name, str) and name in ids


def renamed(data: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """The file as the document kept: without the board's own keys, players by engine id
    (a name that is no player's is left as it is: a problem already lists it)."""
    stored = {
        k: v
        for k, v in data.items()
        if k not in ("slug", "name", "ruleset") and not str(k).startswith(NOTE)
    }
    if isinstance(data.get("players"), list):
        stored["players"] = [
            {**p, "id": ids[p["id"]]} if isinstance(p, dict) and known(p.get("id"), ids) else p
            for p in data["players"]
        ]
    if isinstance(data.get("groups"), list):
        stored["groups"] = [
            {**g, "controller": ids.get(g["controller"], g["controller"])}
            if isinstance(g, dict) and isinstance(g.get("controller"), str)
            else g
            for g in data["groups"]
        ]
    if isinstance(data.get("destroyed_by"), dict):
        stored["destroyed_by"] = {ids.get(k, k): v for k, v in data["destroyed_by"].items()}
    stored.setdefault("deck", [])
    stored.setdefault("destroyed_by", {})
    return stored

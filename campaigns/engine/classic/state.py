"""A classic board (RULES R90-R92, ENGINE.md part 10): parsed from and written back to the
JSON state. Every problem with the state itself is an EngineError of one line."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..board import Catalogue
from ..errors import EngineError
from ..refusals import Refusal, refuse
from ..values import objects, text, whole

PLACES = ("structure", "table", "deck", "destroyed")
AIMS = ("control", "neutralize", "destroy")
BONUS_AIMS = (*AIMS, "any")
GOAL_AMOUNTS = ("power", "transferable", "money", "destroyed")
# R98: the number of groups that wins, by the number of players.
WIN_GROUPS = {1: 13, 2: 13, 3: 13, 4: 12, 5: 10, 6: 9}
LATER_WIN_GROUPS = 8


@dataclass(frozen=True, slots=True)
class Bonus:
    """R91: +amount to attacks of one aim (or any), of the controller or of the group only."""

    aim: str
    amount: int
    scope: str
    alignment: str | None


@dataclass(frozen=True, slots=True)
class Goal:
    """R98: one Illuminati's goal; `amount` 0 and no alignments where the kind has none."""

    kind: str
    amount: int = 0
    alignment: str | None = None
    alignments: tuple[str, ...] = ()


@dataclass(slots=True)
class Group:
    """R91/R92: a group card and its place; an Illuminati has `resistance` None."""

    slug: str
    power: int
    transferable: int
    resistance: int | None
    income: int
    arrows: int
    alignments: tuple[str, ...]
    bonuses: tuple[Bonus, ...]
    illuminati: bool
    treasury: int
    place: str
    controller: str | None
    parent: str | None
    raw: dict[str, Any] = field(repr=False)


@dataclass(slots=True)
class Classic:
    """The whole classic board: players in input order, groups by slug (in input order)."""

    turn: int
    players: list[str]
    goals: dict[str, Goal | None]
    groups: dict[str, Group]
    deck: list[str]
    destroyed_by: dict[str, int]
    win_groups: int
    catalogue: Catalogue

    def children(self, slug: str) -> list[Group]:
        return [g for g in self.groups.values() if g.place == "structure" and g.parent == slug]

    def free_arrow(self, slug: str) -> bool:
        """R92: the group holds fewer children than its arrows."""
        return len(self.children(slug)) < self.groups[slug].arrows

    def subtree(self, slug: str) -> list[Group]:
        """R92: every group below `slug` (not the group itself)."""
        below: list[Group] = []
        stack = [slug]
        while stack:
            for child in self.children(stack.pop()):
                below.append(child)
                stack.append(child.slug)
        return below

    def structure(self, player: str) -> Iterator[Group]:
        return (
            g for g in self.groups.values() if g.place == "structure" and g.controller == player
        )

    def illuminati(self, player: str) -> Group:
        return next(g for g in self.structure(player) if g.illuminati)

    def depth(self, group: Group) -> int:
        """R92: the arrows between a group in a structure and its Illuminati."""
        steps = 0
        while group.parent is not None:
            group = self.groups[group.parent]
            steps += 1
        return steps

    def owns(self, player: str, slug: object) -> bool:
        """The slug names a group in `player`'s structure."""
        group = self.groups.get(slug) if isinstance(slug, str) else None
        return group is not None and group.place == "structure" and group.controller == player


def default_win_groups(players: int) -> int:
    """R98: N by the number of players (ENGINE.md: 1-3: 13, 4: 12, 5: 10, 6: 9, more: 8)."""
    return WIN_GROUPS.get(players, LATER_WIN_GROUPS)


def parse_classic(state: dict[str, Any]) -> Classic:
    """R90-R92: the classic board in `state`, checked (ENGINE.md part 10, input errors)."""
    catalogue = Catalogue.parse(state.get("alignments"))
    players, goals = parse_players(state.get("players"), catalogue)
    groups: dict[str, Group] = {}
    for raw in objects(state.get("groups"), "groups"):
        group = parse_group(raw, catalogue)
        if group.slug in groups:
            raise EngineError(refuse("classic_duplicate_group", slug=group.slug))
        groups[group.slug] = group
    deck = parse_deck(state.get("deck"), groups)
    settings = state.get("settings") or {}
    if not isinstance(settings, dict):
        raise EngineError(refuse("classic_settings_object"))
    win = settings.get("win_groups")
    win_groups = default_win_groups(len(players)) if win is None else whole(win, "win_groups", 1)
    destroyed_by = parse_destroyed_by(state.get("destroyed_by"))
    turn = whole(state.get("turn", 0), "turn")
    board = Classic(turn, players, goals, groups, deck, destroyed_by, win_groups, catalogue)
    check_structures(board)
    return board


def parse_players(value: object, catalogue: Catalogue) -> tuple[list[str], dict[str, Goal | None]]:
    players: list[str] = []
    goals: dict[str, Goal | None] = {}
    for raw in objects(value, "players"):
        pid = text(raw.get("id"), "each player's id")
        if pid in goals:
            raise EngineError(refuse("classic_duplicate_player", player=pid))
        players.append(pid)
        goals[pid] = parse_goal(raw.get("goal"), pid, catalogue)
    return players, goals


def parse_goal(value: object, player: str, catalogue: Catalogue) -> Goal | None:
    """R98: one of the goal kinds of ENGINE.md part 10."""
    if value is None:
        return None
    what = f"player {player}: goal"
    if not isinstance(value, dict):
        raise EngineError(refuse("classic_goal_object", player=player))
    kind = value.get("kind")
    if kind == "groups":
        return Goal("groups")
    if kind in GOAL_AMOUNTS:
        return Goal(kind, whole(value.get("amount"), f"{what} amount"))
    if kind in ("alignment", "in_play"):
        name = known_alignment(value.get("alignment"), f"{what} alignment", catalogue)
        return Goal(kind, whole(value.get("amount"), f"{what} amount"), name)
    if kind == "every_alignment":
        names = value.get("alignments")
        if not isinstance(names, list):
            raise EngineError(refuse("classic_goal_alignments", player=player))
        listed = tuple(known_alignment(n, f"{what} alignment", catalogue) for n in names)
        return Goal(kind, alignments=listed)
    raise EngineError(refuse("classic_goal_kind", player=player, goal_kind=kind))


def known_alignment(value: object, what: str, catalogue: Catalogue) -> str:
    name = text(value, what).casefold()
    if name not in catalogue.names:
        raise EngineError(refuse("classic_unknown_alignment", what=what, alignment=value))
    return name


def parse_group(raw: dict[str, Any], catalogue: Catalogue) -> Group:
    """R91/R92: one group; numbers are whole and >= 0."""
    slug = text(raw.get("slug"), "each group's slug")
    what = f"group {slug}:"
    illuminati = raw.get("illuminati", False) is True
    resistance = raw.get("resistance")
    if illuminati and resistance is not None:
        raise EngineError(refuse("classic_illuminati_resistance", slug=slug))
    alignments = raw.get("alignments") or []
    if not isinstance(alignments, list) or not all(isinstance(a, str) for a in alignments):
        raise EngineError(refuse("classic_group_alignments", slug=slug))
    try:
        catalogue.check_department(alignments)
    except EngineError as error:
        raise EngineError(refuse("classic_in_group", slug=slug, inner=str(error))) from None
    place = raw.get("place")
    if place not in PLACES:
        raise EngineError(refuse("classic_place", slug=slug))
    controller, parent = raw.get("controller"), raw.get("parent")
    if place != "structure" and (controller is not None or parent is not None):
        raise EngineError(no_parent(place, slug))
    return Group(
        slug=slug,
        power=whole(raw.get("power"), f"{what} power"),
        transferable=whole(raw.get("transferable"), f"{what} transferable"),
        resistance=None if illuminati else whole(resistance, f"{what} resistance"),
        income=whole(raw.get("income"), f"{what} income"),
        arrows=whole(raw.get("arrows"), f"{what} arrows"),
        alignments=tuple(a.casefold() for a in alignments),
        bonuses=tuple(
            parse_bonus(b, slug, what, catalogue)
            for b in objects(raw.get("bonuses"), f"{what} bonuses")
        ),
        illuminati=illuminati,
        treasury=whole(raw.get("treasury", 0), f"{what} treasury"),
        place=place,
        controller=None if controller is None else text(controller, f"{what} controller"),
        parent=None if parent is None else text(parent, f"{what} parent"),
        raw=raw,
    )


def no_parent(place: str, slug: str) -> Refusal:
    """R92: the refusal of a group off the structures that names a controller or a parent."""
    if place == "table":
        return refuse("classic_table_no_parent", slug=slug)
    if place == "deck":
        return refuse("classic_deck_no_parent", slug=slug)
    return refuse("classic_destroyed_no_parent", slug=slug)


def parse_bonus(raw: dict[str, object], slug: str, what: str, catalogue: Catalogue) -> Bonus:
    """R91: a bonus; without `scope` it has scope `any` (ENGINE.md part 10)."""
    aim, scope, alignment = raw.get("aim"), raw.get("scope", "any"), raw.get("alignment")
    if aim not in BONUS_AIMS:
        raise EngineError(refuse("classic_bonus_aim", slug=slug))
    if scope not in ("any", "own"):
        raise EngineError(refuse("classic_bonus_scope", slug=slug))
    if alignment is not None:
        alignment = known_alignment(alignment, f"{what} a bonus's alignment", catalogue)
    amount = whole(raw.get("amount"), f"{what} a bonus's amount")
    return Bonus(str(aim), amount, str(scope), alignment)


def parse_deck(value: object, groups: dict[str, Group]) -> list[str]:
    """R92: the deck's slugs, top first: exactly the groups whose place is `deck`."""
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise EngineError(refuse("classic_deck_list"))
    in_deck = [g.slug for g in groups.values() if g.place == "deck"]
    if len(set(value)) != len(value) or set(value) != set(in_deck):
        raise EngineError(refuse("classic_deck_groups"))
    return list(value)


def parse_destroyed_by(value: object) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise EngineError(refuse("classic_destroyed_object"))
    return {text(k, "destroyed_by player"): whole(n, f"destroyed_by {k}") for k, n in value.items()}


def check_structures(board: Classic) -> None:
    """R91/R92: each player one Illuminati at the root; parents of the same player; no cycle;
    no group with more children than arrows."""
    for group in board.groups.values():
        if group.illuminati and (group.place != "structure" or group.parent is not None):
            raise EngineError(refuse("classic_illuminati_root", slug=group.slug))
        if group.place != "structure":
            continue
        if group.controller not in board.goals:
            raise EngineError(
                refuse("classic_no_controller", slug=group.slug, controller=group.controller)
            )
        if group.illuminati:
            continue
        parent = board.groups.get(group.parent) if group.parent is not None else None
        if parent is None or parent.place != "structure" or parent.controller != group.controller:
            raise EngineError(refuse("classic_parent_structure", slug=group.slug))
    for player in board.players:
        if sum(1 for g in board.structure(player) if g.illuminati) != 1:
            raise EngineError(refuse("classic_one_illuminati", player=player))
    for group in board.groups.values():
        if len(board.children(group.slug)) > group.arrows:
            raise EngineError(refuse("classic_too_many_children", slug=group.slug))
        if group.place == "structure":
            check_no_cycle(board, group)


def check_no_cycle(board: Classic, group: Group) -> None:
    """R92: walking up from a group reaches its Illuminati."""
    seen = {group.slug}
    while group.parent is not None:
        group = board.groups[group.parent]
        if group.slug in seen:
            raise EngineError(refuse("classic_cycle", slug=group.slug))
        seen.add(group.slug)


def classic_json(state: dict[str, Any], board: Classic) -> dict[str, Any]:
    """The state written back: every key as it came in, the groups' places and treasuries,
    the deck and `destroyed_by` as they are now."""
    result = {k: copy.deepcopy(v) for k, v in state.items() if k not in ("groups", "report")}
    groups = []
    for group in board.groups.values():
        raw = copy.deepcopy(group.raw)
        raw.update(
            treasury=group.treasury,
            place=group.place,
            controller=group.controller,
            parent=group.parent,
        )
        groups.append(raw)
    result["groups"] = groups
    result["deck"] = list(board.deck)
    result["destroyed_by"] = dict(sorted(board.destroyed_by.items()))
    return result

"""What a player may pick in the order forms (RULES R41-R47): their own departments, the
targets they know under R50, the paths along existing links, their departments' functions.
Reads only, from `OrderContext`, built once per request from the planned board
(services.order_checks.planned_state); the engine checks the order again on submission."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Any

from campaigns.engine.board import TYPES
from campaigns.models import Board, Membership, Turn
from campaigns.selectors.order_checks import planned_state
from campaigns.selectors.visibility import Level, department_rows, level_of, viewer_knowledge

Choices = list[tuple[str, str]]
MAX_PATH = 5  # longest move offered: 5 steps need 5 tokens and leave 4 drops to choose
OTHER = "__other__"  # the function choice "something else" (R45)


@dataclass
class OrderContext:
    """What the forms need about one board for one player: the engine state (read only for
    choices), each department's level (R50) and name."""

    player: Membership
    turn: Turn
    board: Board
    state: dict[str, Any]
    levels: dict[str, Level]

    @classmethod
    def build(cls, player: Membership, turn: Turn, board: Board) -> OrderContext:
        rows = list(department_rows(board=board))
        knowledge = viewer_knowledge(player, board=board)
        levels = {d.slug: level_of(d, player, knowledge) for d in rows}
        return cls(
            player, turn, board, planned_state(player=player, turn=turn, board=board), levels
        )

    @property
    def departments(self) -> dict[str, dict[str, Any]]:
        return {d["slug"]: d for d in self.state["departments"]}

    def name(self, slug: str) -> str:
        return str(self.departments[slug]["name"])

    def own(self) -> list[dict[str, Any]]:
        return [d for d in self.state["departments"] if self.levels[d["slug"]] == Level.CONTROLLED]

    def out_links(self) -> dict[str, list[str]]:
        links: dict[str, list[str]] = {}
        ranked = sorted(self.state["links"], key=lambda link: link["priority"])
        for link in ranked:
            links.setdefault(link["from"], []).append(link["to"])
        return links

    def paths(self, start: str, longest: int, end: str | None = None) -> list[list[str]]:
        """R42: simple paths from `start` along existing links, through departments the
        player knows (R50), at most `longest` steps; ending at `end` if given."""
        links = self.out_links()
        found: list[list[str]] = []

        def walk(path: list[str]) -> None:
            here = path[-1] if path else start
            for nxt in links.get(here, []):
                if nxt == start or nxt in path or self.levels[nxt] < Level.KNOWN:
                    continue
                route = [*path, nxt]
                if end is None or nxt == end:
                    found.append(route)
                if len(route) < longest:
                    walk(route)

        walk([])
        return found

    def unmoved(self, slug: str) -> int:
        dept = self.departments[slug]
        return sum(dept["stash"].get(t, 0) - dept["moved"].get(t, 0) for t in TYPES)

    def routes(self, end: str | None = None) -> Choices:
        choices = []
        for dept in self.own():
            longest = min(MAX_PATH, self.unmoved(dept["slug"]))
            for path in self.paths(dept["slug"], longest, end):
                label = " → ".join(self.name(s) for s in [dept["slug"], *path])
                choices.append((",".join([dept["slug"], *path]), label))
        return choices


def dept_choices(depts: list[dict[str, Any]]) -> Choices:
    return [(d["slug"], d["name"]) for d in depts]


def link_add_choices(ctx: OrderContext) -> Choices:
    """R41: links between two of the player's departments, the supplier producing what the
    consumer consumes, that do not exist yet."""
    own = ctx.own()
    links = ctx.out_links()
    return [
        (f"{s['slug']}|{c['slug']}", f"{s['name']} → {c['name']}")
        for s in own
        for c in own
        if s is not c
        and s["produces"]
        and c["consumes"]
        and s["produces"]["type"] == c["consumes"]["type"]
        and c["slug"] not in links.get(s["slug"], [])
    ]


def link_break_choices(ctx: OrderContext) -> Choices:
    """R41: the existing links between two of the player's departments."""
    own = {d["slug"] for d in ctx.own()}
    return [
        (f"{s}|{c}", f"{ctx.name(s)} → {ctx.name(c)}")
        for s, consumers in ctx.out_links().items()
        for c in consumers
        if s in own and c in own
    ]


def priority_choices(ctx: OrderContext) -> Choices:
    """R12/R41: every order of the consumers of each own supplier with 2 to 4 of them."""
    links = ctx.out_links()
    choices = []
    for dept in ctx.own():
        consumers = links.get(dept["slug"], [])
        if len(consumers) < 2 or len(consumers) > 4:
            continue
        for perm in permutations(consumers):
            names = ", ".join(ctx.name(c) for c in perm)
            choices.append((f"{dept['slug']}|{','.join(perm)}", f"{dept['name']}: {names}"))
    return choices


def function_choices(ctx: OrderContext) -> Choices:
    """R45/R22: each own department's functions, and something else (OTHER)."""
    choices = []
    for dept in ctx.own():
        for name, skill in sorted(dept["functions"].items()):
            choices.append((f"{dept['slug']}|{name}", f"{dept['name']}: {name} (skill {skill})"))
        choices.append((f"{dept['slug']}|{OTHER}", f"{dept['name']}: something else"))
    return choices


def attempt_choices(ctx: OrderContext) -> tuple[Choices, Choices]:
    """R43 (R50): attackers (own, producing, with a free outgoing link) and targets (known,
    not the player's, consuming what an attacker produces)."""
    links = ctx.out_links()
    max_out = ctx.state["settings"]["max_out_links"]
    attackers = [d for d in ctx.own() if d["produces"] and len(links.get(d["slug"], [])) < max_out]
    produced = {d["produces"]["type"] for d in attackers}
    targets = [
        d
        for d in ctx.state["departments"]
        if Level.KNOWN <= ctx.levels[d["slug"]] < Level.CONTROLLED
        and d["consumes"]
        and d["consumes"]["type"] in produced
    ]
    return dept_choices(attackers), dept_choices(targets)

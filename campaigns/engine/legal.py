"""Every legal choice of every order kind for one player (RULES R10-R14, R41-R46), after the
player's queued orders (`plan`). The engine is the one source of what is legal: the order
forms offer these choices, and `resolve` accepts exactly them (tests/engine/
test_legal_properties.py checks both directions). Choices carry slugs; naming and R50
filtering are the caller's business. Reasons never name a department.

Bounds (documented, not rules): moves are listed up to `longest` steps if given (the form
has drop fields for 5 steps); a supplier's consumers are offered in every order up to
MAX_PRIORITY_ORDERED of them (24 orderings), beyond that as "this one first" (the engine
accepts a partial list: the named consumers first, the rest after them as before, R41)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations
from typing import Any

from . import classic
from .attempts import attempt_problem, cost_due
from .board import Board, Department, Tokens
from .classic.legal import ClassicLegal
from .classic.legal import legal_choices as classic_legal_choices
from .cli_io import state_json
from .legal_deals import (
    AcceptChoice,
    GiftChoice,
    HandoverChoice,
    PerceiveChoice,
    accept_choices,
    carries,
    deal_reason,
    gift_choices,
    handover_choices,
    perceive_choices,
)
from .legal_election import (
    NominateChoice,
    RunningMateChoice,
    SupportChoice,
    VoteChoice,
    election_reason,
    nominate_choices,
    running_mate_choices,
    support_choices,
    vote_choices,
)
from .legal_reinforce import reinforce_reason
from .orders import room, unmoved
from .plan import Plan, plan
from .refusals import refuse

MAX_PRIORITY_ORDERED = 4
KINDS = (
    "add_link",
    "break_link",
    "priority",
    "move",
    "attempt",
    "function",
    "perceive",
    "gift",
    "handover",
    "accept",
    "nominate",
    "running_mate",
    "support",
    "vote",
)
# Kinds that need no department of the player's own (their reasons are in legal_deals and
# legal_election).
OPEN_KINDS = ("perceive", "accept", "nominate", "vote")
ELECTION_KINDS = ("nominate", "running_mate", "support", "vote")
NO_DEPARTMENT = refuse("no_department")
# The two attempt reasons about departments outside the structure (callers hide them, R50).
NO_TARGET = refuse("no_target")
NO_FREE_TARGET = refuse("targets_full")


@dataclass(frozen=True, slots=True)
class LinkChoice:
    supplier: str
    consumer: str


@dataclass(frozen=True, slots=True)
class PriorityChoice:
    """R12/R41: a supplier and its consumers as ranked now (first fed first)."""

    supplier: str
    consumers: tuple[str, ...]

    def orderings(self) -> list[tuple[str, ...]]:
        if len(self.consumers) <= MAX_PRIORITY_ORDERED:
            return list(permutations(self.consumers))
        return [(c,) for c in self.consumers]

    def accepts(self, named: list[str]) -> bool:
        """R41: any consumers of this supplier, each at most once, go first."""
        return len(set(named)) == len(named) and set(named) <= set(self.consumers)


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """R42: from `start` along `path`, carrying `least`..`most` tokens, at most `unmoved` of
    each type (`most` already respects every capacity on the way, R36)."""

    start: str
    path: tuple[str, ...]
    unmoved: Tokens
    least: int
    most: int

    def accepts(self, tokens: Tokens) -> bool:
        return carries(tokens, self.unmoved, self.least, self.most)


@dataclass(frozen=True, slots=True)
class AttemptChoice:
    """R43: a legal attacker->target pair, its cost (default type) and the attacker's stash,
    which must cover cost + spend."""

    attacker: str
    target: str
    cost: int
    cost_type: str
    stash: Tokens


@dataclass(frozen=True, slots=True)
class FunctionChoice:
    """R45/R22: a department that may still roll: its functions (for 7s, their skill) or
    anything else (for 9s, skill 0); it may spend up to its stash."""

    department: str
    functions: tuple[tuple[str, int], ...]
    stash: Tokens


FUNCTION_TN = 7
OTHER_TN = 9


class Choices[T]:
    """A kind's list of Legal, computed the first time it is read (a descriptor)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.kind = name

    def __get__(self, legal: Legal, owner: type | None = None) -> list[T]:
        return legal.choices(self.kind)


class Legal:
    """The choices of every kind; `why_not[kind]` is set exactly when a list is empty.
    `planned` is the board after the link and move phases (ENGINE.md), for attempt_pools.

    Each kind's list (and its reason, and `planned`) is computed when first read: an order
    form shows one kind, and on a board of 1,000 departments computing every kind took
    several times as long as the plan itself. Every list is read from the same plan, and
    none changes it, so the order they are computed in does not matter."""

    add_link: Choices[LinkChoice] = Choices()
    break_link: Choices[LinkChoice] = Choices()
    priority: Choices[PriorityChoice] = Choices()
    move: Choices[MoveChoice] = Choices()
    attempt: Choices[AttemptChoice] = Choices()
    function: Choices[FunctionChoice] = Choices()
    perceive: Choices[PerceiveChoice] = Choices()
    gift: Choices[GiftChoice] = Choices()
    handover: Choices[HandoverChoice] = Choices()
    accept: Choices[AcceptChoice] = Choices()
    nominate: Choices[NominateChoice] = Choices()
    running_mate: Choices[RunningMateChoice] = Choices()
    support: Choices[SupportChoice] = Choices()
    vote: Choices[VoteChoice] = Choices()

    def __init__(
        self, player: str, state: dict[str, Any], planned: Plan, longest: int | None
    ) -> None:
        self.player = player
        self.plan = planned
        self.state = state
        self.longest = longest
        self.why_not = WhyNot(self)
        self._lists: dict[str, list[Any]] = {}

    def choices(self, kind: str) -> list[Any]:
        if kind not in self._lists:
            self._lists[kind] = CHOOSERS[kind](self)
        return self._lists[kind]

    @cached_property
    def planned(self) -> dict[str, Any]:
        return state_json(self.state, self.plan.board)

    def reinforce(self, target: str) -> list[MoveChoice]:
        """R46: the moves that end at the target (the controller's one free move); none for
        a department the player does not control (a link may lead into another structure)."""
        dept = self.plan.board.departments.get(target)
        if dept is None or dept.structure != self.player:
            return []
        return [m for m in self.move if m.path[-1] == target]

    def reinforce_why_not(self, target: str) -> str | None:
        """R46: why there is no reinforcement of `target` (legal_reinforce.py), or None."""
        if self.reinforce(target):
            return None
        return reinforce_reason(self.plan.board, self.player, target, self.longest)

    def attempt_refusal(self, attacker: str, target: str) -> str | None:
        """R43: the engine's reason why this pair may not attempt, or None if it may."""
        if any(c.attacker == attacker and c.target == target for c in self.attempt):
            return None
        if "attempt" in self.why_not and self.plan.attempts:
            return self.why_not["attempt"]
        board = self.plan.board
        if attacker not in board.departments or target not in board.departments:
            return refuse("not_targetable")
        if board.departments[attacker].structure != self.player:
            return refuse("not_yours", dept=attacker)
        problem = attempt_problem(
            board, self.player, board.departments[attacker], board.departments[target]
        )
        return problem or self.why_not.get("attempt")


def legal_choices(
    state: dict[str, Any], player: str, *, longest: int | None = None
) -> Legal | ClassicLegal:
    """R10-R14, R41-R46: every legal choice of every kind for `player` on this ENGINE.md
    state, after their queued orders in `state["orders"]` (each kind computed when first
    read). On a classic board (R90, `"ruleset": "classic"`) the classic kinds instead
    (R94-R97, engine/classic/legal.py: `choices(kind)` and `why_not(kind)` for each of its
    `KINDS`; `longest` does not apply). EngineError on bad input."""
    if classic.is_classic(state):
        return classic_legal_choices(state, player)
    return standard_legal_choices(state, player, longest=longest)


def standard_legal_choices(
    state: dict[str, Any], player: str, *, longest: int | None = None
) -> Legal:
    """`legal_choices` on a board of RULES parts 1-9, for callers that hold one."""
    return Legal(player, state, plan(state, player), longest)


class WhyNot(Mapping[str, str]):
    """Legal.why_not: kind -> the reason its list is empty, for exactly the kinds whose list
    is empty; each computed when first asked for."""

    def __init__(self, legal: Legal) -> None:
        self._legal = legal
        self._reasons: dict[str, str] = {}

    def __getitem__(self, kind: str) -> str:
        if kind not in CHOOSERS or self._legal.choices(kind):
            raise KeyError(kind)
        if kind not in self._reasons:
            self._reasons[kind] = reason(kind, self._legal.plan, self._legal.player)
        return self._reasons[kind]

    def __iter__(self) -> Iterator[str]:
        return (kind for kind in KINDS if not self._legal.choices(kind))

    def __len__(self) -> int:
        return sum(1 for _ in self)


# R41-R46, R62, R70, R80: how each kind's list is computed from the plan. The link kinds
# read the board after the link phase (plan.links), the others after the move phase.
CHOOSERS: dict[str, Callable[[Legal], list[Any]]] = {
    "add_link": lambda legal: add_link_choices(legal.plan.links, legal.player),
    "break_link": lambda legal: break_link_choices(legal.plan.links, legal.player),
    "priority": lambda legal: priority_choices(legal.plan.links, legal.player),
    "move": lambda legal: move_choices(legal.plan.board, legal.player, legal.longest),
    "attempt": lambda legal: attempt_choices(legal.plan.board, legal.player, legal.plan.attempts),
    "function": lambda legal: function_choices(legal.plan.board, legal.player, legal.plan.rolled),
    "perceive": lambda legal: perceive_choices(legal.plan.board, legal.plan.perceived),
    "gift": lambda legal: gift_choices(legal.plan.board, legal.player),
    "handover": lambda legal: handover_choices(legal.plan),
    "accept": lambda legal: accept_choices(legal.state, legal.plan, legal.player),
    "nominate": lambda legal: nominate_choices(legal.plan.election, legal.player),
    "running_mate": lambda legal: running_mate_choices(legal.plan.election, legal.player),
    "support": lambda legal: support_choices(legal.plan.election, legal.player),
    "vote": lambda legal: vote_choices(legal.plan.election, legal.player),
}
assert set(CHOOSERS) == set(KINDS)


def own(board: Board, player: str) -> list[Department]:
    return [d for d in board.departments.values() if d.structure == player]


def add_link_choices(board: Board, player: str) -> list[LinkChoice]:
    """R10-R12, R14: new links between two of the player's departments. Only the consumers
    of what each supplier produces are weighed (R10 refuses the rest): with 200 departments
    that is a third of the 40,000 pairs, which were most of the add_link form's time."""
    mine = own(board, player)
    consumers: dict[str, list[Department]] = {}
    for c in mine:
        if c.consumes:
            consumers.setdefault(c.consumes[0], []).append(c)
    return [
        LinkChoice(s.slug, c.slug)
        for s in mine
        if s.produces
        for c in consumers.get(s.produces[0], ())
        if board.link_problem(s, c) is None
    ]


def break_link_choices(board: Board, player: str) -> list[LinkChoice]:
    """R14, R50: the existing links with at least one end in the player's structure."""
    return [
        LinkChoice(s.slug, c)
        for s in board.departments.values()
        for c in board.out_links.get(s.slug, ())
        if player in (s.structure, board.departments[c].structure)
    ]


def priority_choices(board: Board, player: str) -> list[PriorityChoice]:
    """R12/R41: the player's suppliers with two or more consumers (with fewer, a priority
    order is accepted but changes nothing, so it is not offered)."""
    return [
        PriorityChoice(d.slug, tuple(board.out_links[d.slug]))
        for d in own(board, player)
        if len(board.out_links.get(d.slug, ())) >= 2
    ]


def move_choices(board: Board, player: str, longest: int | None) -> list[MoveChoice]:
    """R42, R36: simple paths of existing links from each of the player's departments (start
    excluded), at most as many steps as it has unmoved tokens, through departments each with
    room for at least the one token dropped (or left) there."""
    found: list[MoveChoice] = []
    for start in own(board, player):
        free = unmoved(start)
        steps = sum(free.values()) if longest is None else min(longest, sum(free.values()))
        for path in walks(board, start.slug, steps):
            last = board.departments[path[-1]]
            most = min(sum(free.values()), room(board, last) + len(path) - 1)
            found.append(MoveChoice(start.slug, tuple(path), free, len(path), most))
    return found


def walks(board: Board, start: str, steps: int) -> list[list[str]]:
    """Simple paths from `start` (excluded) of 1..steps links into departments with room."""
    found: list[list[str]] = []

    def extend(path: list[str]) -> None:
        for nxt in board.out_links.get(path[-1] if path else start, ()):
            if nxt == start or nxt in path or room(board, board.departments[nxt]) < 1:
                continue
            found.append([*path, nxt])
            if len(path) + 1 < steps:
                extend([*path, nxt])

    if steps >= 1:
        extend([])
    return found


def attempt_choices(board: Board, player: str, queued: int) -> list[AttemptChoice]:
    """R43, R11: the legal attacker->target pairs, unless the player's queued attempts
    already reach the per-turn limit."""
    if queued >= board.attempt_limit(player):
        return []
    found = []
    for attacker in own(board, player):
        if len(board.out_links.get(attacker.slug, ())) >= board.out_limit(attacker):
            continue  # attempt_problem would say so for every target (R11): ask once
        for target in board.departments.values():
            if attempt_problem(board, player, attacker, target) is None:
                cost, kind = cost_due(target)
                found.append(
                    AttemptChoice(attacker.slug, target.slug, cost, kind, dict(attacker.stash))
                )
    return found


def function_choices(board: Board, player: str, rolled: frozenset[str]) -> list[FunctionChoice]:
    """R45/R22: the player's departments without a function roll this turn."""
    return [
        FunctionChoice(d.slug, tuple(sorted(d.functions.items())), dict(d.stash))
        for d in own(board, player)
        if d.slug not in rolled
    ]


def reason(kind: str, planned: Plan, player: str) -> str:
    """A one-line reason a player understands for an empty list (naming no department)."""
    board = planned.links if kind in ("add_link", "break_link", "priority") else planned.board
    if kind in ELECTION_KINDS and (planned.election is None or kind in OPEN_KINDS):
        return election_reason(kind, planned.election, player)
    if kind in OPEN_KINDS:
        return deal_reason(kind, board, player)
    if not own(board, player):
        return NO_DEPARTMENT
    if kind in ELECTION_KINDS:
        return election_reason(kind, planned.election, player)
    if kind in ("gift", "handover"):
        return deal_reason(kind, board, player)
    if kind == "add_link":
        return add_link_reason(board, player)
    if kind == "attempt":
        return attempt_reason(board, player, planned.attempts)
    return {
        "break_link": refuse("nothing_to_break"),
        "priority": refuse("nothing_to_rank"),
        "move": move_reason(board, player),
        "function": refuse("all_rolled"),
    }[kind]


def add_link_reason(board: Board, player: str) -> str:
    mine = own(board, player)
    pairs = [(s, c) for s in mine for c in mine if board.type_problem(s, c) is None]
    if not pairs:
        typed = any(
            s is not c and s.produces and c.consumes and s.produces[0] == c.consumes[0]
            for s in mine
            for c in mine
        )
        if typed:
            return refuse("all_links_exist")
        return refuse("nothing_matches")
    if all(len(board.out_links.get(s.slug, ())) >= board.out_limit(s) for s, _ in pairs):
        return refuse("none_free_out")
    if all(len(board.in_links.get(c.slug, ())) >= board.in_limit(c) for _, c in pairs):
        n = board.settings.max_in_links
        return refuse("consumers_full", limit=n)
    fitting = [
        (s, c)
        for s, c in pairs
        if len(board.out_links.get(s.slug, ())) < board.out_limit(s)
        and len(board.in_links.get(c.slug, ())) < board.in_limit(c)
    ]
    if fitting:  # within the limits, so only the boards stand between them (R2)
        return refuse("boards_apart")
    return refuse("no_free_pair")


def move_reason(board: Board, player: str) -> str:
    mine = own(board, player)
    if not any(sum(unmoved(d).values()) for d in mine):
        return refuse("nothing_unmoved")
    if not any(board.out_links.get(d.slug) for d in mine if sum(unmoved(d).values())):
        return refuse("no_way_out")
    return refuse("all_full")


def attempt_reason(board: Board, player: str, queued: int) -> str:
    limit = board.attempt_limit(player)
    if queued >= limit:
        return refuse("attempts_queued", queued=queued, limit=limit)
    mine = own(board, player)
    producers = [d for d in mine if d.produces]
    if not producers:
        return refuse("nothing_produced")
    free = [d for d in producers if len(board.out_links.get(d.slug, ())) < board.out_limit(d)]
    if not free:
        return refuse("none_free_out_attempt")
    kinds = {d.produces[0] for d in free if d.produces}
    if not any(
        t.structure != player and t.consumes and t.consumes[0] in kinds
        for t in board.departments.values()
    ):
        return NO_TARGET
    return NO_FREE_TARGET

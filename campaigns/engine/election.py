"""The election round (RULES R80, ENGINE.md part 9): nominations, running mates, the players'
support and votes, then the uncontrolled departments, then the result, which puts the winning
ticket's candidate and running mate into the office at once. Resolved after the linking
attempts and before the function rolls.

`Election` holds the round's state and judges the players' orders one by one (each raises
OrderRejected with its reason, changing nothing); `resolve.py` runs it in the turn and `plan.py`
runs the same methods to tell the order forms what is legal.

The electorate is every department of the state, or of the office's `board` where the office
names one (the engine's reading for a state of several boards: RULES R80 speaks of "a
department of the board").
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .attempts import BASE_TN, attack_pool, defence_pool
from .board import Board, Department, no_tokens
from .cli_io import parse_board
from .errors import EngineError, OrderRejected
from .odds import attack_wins
from .orders import Order, Outcome
from .refusals import refuse
from .resolution import Resolution
from .sheets import Office

# Each kind by seq then position, in this order (ENGINE.md part 9).
KINDS = ("nominate", "running_mate", "support", "vote")
MEDIA = "media"


def doubled_refusal(slug: str) -> str:
    """Why the function roll of a department that doubled its support is rejected (R80): said
    by resolve.py when it rejects it, and by the site before the deadline."""
    return refuse("doubled_already", dept=slug)


def power(dept: Department, double: bool) -> int:
    """R80 step 2: a supporter's power, its Impress, doubled by `media`."""
    return dept.impress * (2 if double else 1)


@dataclass(slots=True)
class Ticket:
    """A candidate's ticket: who nominated it, its running mate, its support so far (power and
    the departments that gave it) and the players' votes."""

    candidate: str
    running_mate: str
    nominator: str
    support: int = 0
    supporters: list[str] = field(default_factory=list)
    votes: int = 0
    powers: dict[str, int] = field(default_factory=dict)  # each supporter's part of `support`

    def as_report(self) -> dict[str, Any]:
        return {
            "running_mate": self.running_mate,
            "support": self.support,
            "supporters": sorted(self.supporters),
        }


def digest(seed: str, message: str) -> str:
    """R80's verifiable roll-off: HMAC-SHA256(seed, message) in hex; the lowest wins."""
    return hmac.new(bytes.fromhex(seed), message.encode(), hashlib.sha256).hexdigest()


@dataclass(slots=True)
class Election:
    """One election round on the working board."""

    board: Board
    office: Office
    tickets: dict[str, Ticket] = field(default_factory=dict)  # candidate -> ticket
    nominators: set[str] = field(default_factory=set)
    supported: set[str] = field(default_factory=set)
    doubled: set[str] = field(default_factory=set)
    voters: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, board: Board) -> Election | None:
        """The round the state schedules, or None."""
        office = next((o for o in board.sheets.offices if o.id == board.election), None)
        return None if office is None else cls(board, office)

    def elector(self, slug: object) -> Department:
        """A department of the electorate (the office's board, if it names one)."""
        dept = self.board.department(slug)
        if self.office.board is not None and dept.board != self.office.board:
            raise OrderRejected(
                refuse("not_on_office_board", dept=dept.slug, office=self.office.id)
            )
        return dept

    def ticket(self, candidate: object) -> Ticket:
        if not isinstance(candidate, str) or candidate not in self.tickets:
            raise OrderRejected(refuse("no_such_ticket", dept=candidate))
        return self.tickets[candidate]

    def pair(self, order: Order) -> tuple[Department, Department]:
        candidate = self.elector(order.fields.get("candidate"))
        mate = self.elector(order.fields.get("running_mate"))
        if candidate.slug == mate.slug:
            raise OrderRejected(refuse("mate_is_candidate"))
        return candidate, mate

    # --- the players' orders ------------------------------------------------------------

    def nominate(self, order: Order) -> Outcome:
        """R80 step 1: one accepted nomination per player; a candidate already nominated
        keeps its first ticket."""
        candidate, mate = self.pair(order)
        player = order.player or ""
        if player in self.nominators:
            raise OrderRejected(refuse("nominated_already"))
        if candidate.slug in self.tickets:
            raise OrderRejected(refuse("candidate_already", dept=candidate.slug))
        self.tickets[candidate.slug] = Ticket(candidate.slug, mate.slug, player)
        self.nominators.add(player)
        return Outcome()

    def running_mate(self, order: Order) -> Outcome:
        """R80 step 1: the candidate's controller, when another player nominated it, names the
        running mate; the last accepted one counts."""
        candidate, mate = self.pair(order)
        ticket = self.ticket(candidate.slug)
        if candidate.structure != order.player:
            raise OrderRejected(refuse("not_yours_election", dept=candidate.slug))
        if ticket.nominator == order.player:
            raise OrderRejected(refuse("mate_stays"))
        ticket.running_mate = mate.slug
        return Outcome()

    def support(self, order: Order) -> Outcome:
        """R80 step 2: one of the player's departments (controlled now) supports one ticket
        with its Impress, doubled by `double` for a department with a function named
        `media` (which then gives up its function roll this turn)."""
        dept = self.elector(order.fields.get("department"))
        if dept.structure != order.player:
            raise OrderRejected(refuse("not_yours_election", dept=dept.slug))
        ticket = self.ticket(order.fields.get("ticket"))
        double = order.fields.get("double")
        if double is not None and not isinstance(double, bool):
            raise OrderRejected(refuse("double_bool"))
        if double and dept.function_skill(MEDIA) is None:
            raise OrderRejected(refuse("no_media", dept=dept.slug, function=MEDIA))
        if dept.slug in self.supported:
            raise OrderRejected(refuse("supports_already", dept=dept.slug))
        self.back(ticket, dept, bool(double))
        if double:
            self.doubled.add(dept.slug)
        return Outcome()

    def vote(self, order: Order) -> Outcome:
        """R80 step 4: one vote per player, counted only to break a tie."""
        ticket = self.ticket(order.fields.get("ticket"))
        if (order.player or "") in self.voters:
            raise OrderRejected(refuse("voted_already"))
        ticket.votes += 1
        self.voters.add(order.player or "")
        return Outcome()

    def handler(self, kind: str) -> Callable[[Order], Outcome]:
        handlers: dict[str, Callable[[Order], Outcome]] = {
            "nominate": self.nominate,
            "running_mate": self.running_mate,
            "support": self.support,
            "vote": self.vote,
        }
        return handlers[kind]

    def back(self, ticket: Ticket, dept: Department, double: bool = False) -> None:
        ticket.support += power(dept, double)
        ticket.powers[dept.slug] = power(dept, double)
        ticket.supporters.append(dept.slug)
        self.supported.add(dept.slug)

    # --- the uncontrolled and the result -------------------------------------------------

    def uncontrolled(self, seed: str, turn: int) -> None:
        """R80 step 3, in slug order: an uncontrolled candidate or running mate supports its
        own ticket (of several, the one with most support so far, then the lowest candidate
        slug); then every other uncontrolled department supports the ticket whose candidate
        or running mate has the greatest exact chance to win a linking attempt on it."""
        if not self.tickets:
            return
        free = sorted(
            d.slug
            for d in self.board.departments.values()
            if d.structure is None and d.slug not in self.supported and self.on_board(d)
        )
        members = {s for t in self.tickets.values() for s in (t.candidate, t.running_mate)}
        for slug in [s for s in free if s in members]:
            own = [t for t in self.tickets.values() if slug in (t.candidate, t.running_mate)]
            own.sort(key=lambda t: (-t.support, t.candidate))
            self.back(own[0], self.board.departments[slug])
        for slug in [s for s in free if s not in members]:
            dept = self.board.departments[slug]
            chances = {c: self.chance(t, dept) for c, t in self.tickets.items()}
            best = min(  # greatest chance; equal chances: lowest roll-off digest
                self.tickets,
                key=lambda c: (-chances[c], digest(seed, f"{turn}:election:{slug}:{c}")),
            )
            self.back(self.tickets[best], dept)

    def on_board(self, dept: Department) -> bool:
        return self.office.board is None or dept.board == self.office.board

    def chance(self, ticket: Ticket, target: Department) -> Fraction:
        return best_chance(self.board, (ticket.candidate, ticket.running_mate), target)

    def result(self, seed: str, turn: int) -> tuple[Ticket | None, str | None]:
        """R80 step 4: most support; ties: the candidate's greater Impress, then most votes,
        then the lowest digest of "<turn>:election:<candidate>". Returns the winner and what
        decided it."""
        if not self.tickets:
            return None, None
        tied = list(self.tickets.values())
        for decided_by, score in (
            ("support", lambda t: t.support),
            ("impress", lambda t: self.board.departments[t.candidate].impress),
            ("vote", lambda t: t.votes),
        ):
            top = max(score(t) for t in tied)
            tied = [t for t in tied if score(t) == top]
            if len(tied) == 1:
                return tied[0], decided_by
        tied.sort(key=lambda t: digest(seed, f"{turn}:election:{t.candidate}"))
        return tied[0], "roll-off"

    def report(self, winner: Ticket | None, decided_by: str | None) -> dict[str, Any]:
        """ENGINE.md `report.election`."""
        return {
            "office": self.office.id,
            "winner": winner.candidate if winner else None,
            "decided_by": decided_by,
            "tickets": {c: t.as_report() for c, t in self.tickets.items()},
        }


def by_kind(orders: list[Order]) -> list[Order]:
    """ENGINE.md part 9: nominations, then running mates, support and votes, each kind by
    seq then position (the orders come sorted so)."""
    return [o for kind in KINDS for o in orders if o.kind == kind]


def no_election() -> Outcome:
    raise OrderRejected(refuse("no_election"))


def resolve_election(res: Resolution, orders: list[Order]) -> set[str]:
    """R80 on the working board: the players' orders, the uncontrolled, the result, the
    office. Returns the departments that doubled their support (their function roll is
    rejected); `res.election` gets report.election when the state has an election."""
    election = Election.of(res.board)
    if election is None:
        for order in orders:
            res.run(order, no_election)
        return set()
    for order in by_kind(orders):
        res.run(order, election.handler(str(order.kind)), order)
    election.uncontrolled(res.seed, res.turn)
    winner, decided_by = election.result(res.seed, res.turn)
    if winner is not None:  # at once: the function rolls of this turn see the new holder
        election.office.holder = winner.candidate
        election.office.deputy = winner.running_mate
    res.election = election.report(winner, decided_by)
    return election.doubled


def best_chance(board: Board, members: tuple[str, str], target: Department) -> Fraction:
    """R80 step 3 with R43: the better exact chance of a ticket's candidate and running mate
    to win a linking attempt on `target`: Impress dice with its linking skill for TN 7 +
    opposed - identical (the offices' alignments as they stand before this election's
    result) against Obstruct dice, skill 0, TN 7; nothing spent, no shticks, ties to the
    defender. The engine's own pools and odds (attempts.py, odds.py)."""
    dice, skill = defence_pool(board, target, no_tokens(), shticks=False)
    best = Fraction(0)
    for slug in members:
        pool = attack_pool(board, board.departments[slug], target, no_tokens(), shticks=False)
        chance = attack_wins(
            attack_dice=pool.dice,
            attack_skill=pool.skill,
            attack_tn=pool.tn,
            defend_dice=dice,
            defend_skill=skill,
            defend_tn=BASE_TN,
        )
        best = max(best, chance)
    return best


def ticket_chances(
    state: dict[str, Any], tickets: Mapping[str, str], department: str
) -> dict[str, Fraction]:
    """R80 step 3 for a turn report ("why did this department support that ticket"): each
    ticket's exact chance on `department`, as the election weighed it. `state` is the state
    resolve returned but with `offices` as they went in (the alignments before this election;
    structures and stats are as the election saw them), `tickets` maps each candidate to its
    running mate (report.election). EngineError on bad input."""
    return election_chances(state, tickets, [department])[department]


def election_chances(
    state: dict[str, Any], tickets: Mapping[str, str], departments: Iterable[str]
) -> dict[str, dict[str, Fraction]]:
    """ticket_chances for several departments, reading the state once: department ->
    candidate -> chance."""
    board = parse_board(state)
    wanted = list(departments)
    if not all(slug in board.departments for slug in wanted) or not all(
        slug in board.departments for pair in tickets.items() for slug in pair
    ):
        raise EngineError(refuse("election_departments"))
    return {
        slug: {
            candidate: best_chance(board, (candidate, mate), board.departments[slug])
            for candidate, mate in tickets.items()
        }
        for slug in wanted
    }


def support_powers(state: dict[str, Any], supporters: Mapping[str, bool]) -> dict[str, int]:
    """R80 step 2 for a turn report: each supporter's power as the election counted it
    (`supporters`: slug -> whether it doubled). EngineError on bad input."""
    board = parse_board(state)
    if not all(slug in board.departments for slug in supporters):
        raise EngineError(refuse("supporters_departments"))
    return {slug: power(board.departments[slug], double) for slug, double in supporters.items()}

"""Legal choices of the election's order kinds (RULES R80, ENGINE.md part 9) for one player
after the queued orders (`plan` runs the state's election orders through `Election`, the
same judge `resolve` uses). Structures are as the link and move phases leave them: a capture
by a linking attempt this turn may still change who controls a candidate or a supporter."""

from __future__ import annotations

from dataclasses import dataclass

from .election import MEDIA, Election
from .refusals import refuse


@dataclass(frozen=True, slots=True)
class NominateChoice:
    """R80: a candidate the player may nominate, with any other department of the
    electorate as running mate."""

    candidate: str
    electorate: tuple[str, ...]

    def accepts(self, running_mate: str) -> bool:
        return running_mate != self.candidate and running_mate in self.electorate


@dataclass(frozen=True, slots=True)
class RunningMateChoice(NominateChoice):
    """R80: a ticket of the player's candidate that another player nominated; any other
    department of the electorate may become its running mate."""


@dataclass(frozen=True, slots=True)
class SupportChoice:
    """R80: a department of the player's that may still support one of `tickets`, doubled
    only if `doubles` (a function named media; its function roll is then given up)."""

    department: str
    tickets: tuple[str, ...]
    doubles: bool

    def accepts(self, ticket: str, double: bool = False) -> bool:
        return ticket in self.tickets and (self.doubles or not double)


@dataclass(frozen=True, slots=True)
class VoteChoice:
    ticket: str


def electorate(election: Election) -> tuple[str, ...]:
    return tuple(d.slug for d in election.board.departments.values() if election.on_board(d))


def nominate_choices(election: Election | None, player: str) -> list[NominateChoice]:
    if election is None or player in election.nominators:
        return []
    voters = electorate(election)
    if len(voters) < 2:
        return []
    return [NominateChoice(slug, voters) for slug in voters if slug not in election.tickets]


def running_mate_choices(election: Election | None, player: str) -> list[RunningMateChoice]:
    if election is None:
        return []
    voters = electorate(election)
    departments = election.board.departments
    return [
        RunningMateChoice(t.candidate, voters)
        for t in election.tickets.values()
        if departments[t.candidate].structure == player and t.nominator != player
    ]


def support_choices(election: Election | None, player: str) -> list[SupportChoice]:
    if election is None or not election.tickets:
        return []
    tickets = tuple(election.tickets)
    return [
        SupportChoice(d.slug, tickets, d.function_skill(MEDIA) is not None)
        for d in election.board.departments.values()
        if d.structure == player and election.on_board(d) and d.slug not in election.supported
    ]


def vote_choices(election: Election | None, player: str) -> list[VoteChoice]:
    if election is None or player in election.voters:
        return []
    return [VoteChoice(candidate) for candidate in election.tickets]


def election_reason(kind: str, election: Election | None, player: str) -> str:
    """One line, naming no department, for an empty list of an election kind."""
    if election is None:
        return refuse("no_election")
    if kind == "nominate":
        if player in election.nominators:
            return refuse("nominated_already")
        if len(electorate(election)) < 2:
            return refuse("ticket_needs_two")
        return refuse("all_candidates")
    if kind == "running_mate":
        return refuse("no_mate_ticket")
    if kind == "vote":
        if player in election.voters:
            return refuse("voted_already")
        return refuse("no_ticket_yet")
    if not election.tickets:
        return refuse("no_ticket_yet")
    return refuse("all_support")

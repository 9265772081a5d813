"""The election in a turn report (RULES R80, R50, R51, R23): the office, the tickets with their
support and their supporters as far as the viewer knew them at that turn, how each
uncontrolled department went and why (the exact chances the engine weighed, as fractions:
engine/election.py `election_chances`, never a second copy of the odds), what decided the
result, and the roll-offs' keys and digests, which the verify page recomputes.

R50 at the turn (report_visibility.Knowing): a department is named where the viewer knew it
at least as `rumoured`; a supporter's power, a candidate's Impress and a chance (which rest on
the cards involved) only where they knew every card at least as `known`; a roll-off key names
departments by slug, so it is shown only where they knew each of them as `known` (its digest
is shown in any case). Totals of support are the election's announced result."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campaigns.engine.election import digest, election_chances, support_powers
from campaigns.engine.errors import EngineError
from campaigns.models import Order, Turn, TurnRecord
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.report_visibility import Knowing
from campaigns.selectors.state import own_board
from campaigns.selectors.visibility import Level
from campaigns.words.election import follower_text, fraction_text, result_text

# The keys a state needs for the engine to weigh the election again (no shticks count).
WEIGHED = ("turn", "settings", "alignments", "departments", "links", "election")


@dataclass(frozen=True)
class Digest:
    """One roll-off entry (R80, R23): the key where the viewer may read it, its digest."""

    ticket: str
    key: str | None
    value: str
    chosen: bool


@dataclass(frozen=True)
class SupporterLine:
    name: str  # UNNAMED for a department the viewer did not know
    power: int | None  # None where its card was hidden


@dataclass(frozen=True)
class TicketResult:
    candidate: str
    running_mate: str
    support: int
    supporters: list[SupporterLine]  # those the viewer had heard of
    unknown: int  # supporters the viewer had never heard of
    votes: int
    impress: int | None  # the candidate's (the first tie-break), where its card was known
    winner: bool


@dataclass(frozen=True)
class ChanceLine:
    ticket: str
    chance: Fraction | None  # None where a card it rests on was hidden

    @property
    def text(self) -> str:
        return fraction_text(self.chance)


@dataclass(frozen=True)
class FollowerLine:
    """R80 step 3: one uncontrolled department the viewer knew of, and why it went so."""

    text: str
    chances: list[ChanceLine]
    rolloff: list[Digest]

    @property
    def chances_seen(self) -> bool:
        """Whether any of its chances may be shown (none: the line is left out)."""
        return any(c.chance is not None for c in self.chances)


@dataclass(frozen=True)
class ElectionResult:
    office: str
    alignment: str
    text: str  # who won and why (or that nobody was nominated)
    decided_by: str | None
    tickets: list[TicketResult]
    followers: list[FollowerLine]
    unknown_followers: int  # uncontrolled supporters the viewer had never heard of
    rolloff: list[Digest]  # the result's roll-off (decided_by "roll-off")


def election_result(record: TurnRecord, turn: Turn, knowing: Knowing) -> ElectionResult | None:
    """The record (of `turn`)'s election as the viewer may see it, or None if the turn held
    none on this board. One query (the turn's election orders on the board) when it held
    one."""
    found = record.report.get("election")
    if not isinstance(found, dict):
        return None
    state = own_board(record.state)
    weighed = weighed_state(state, record.before)
    tickets: dict[str, Any] = found.get("tickets") or {}
    doubled, votes = election_orders(record)
    supporters = {s: s in doubled for t in tickets.values() for s in t.get("supporters", [])}
    try:
        powers = support_powers(weighed, supporters)
    except EngineError:  # a department gone since: its power is not shown
        powers = {}
    office = next((o for o in state.get("offices", []) if o.get("id") == found.get("office")), {})
    winner = found.get("winner")
    name = knowing.name
    deputy = tickets.get(winner, {}).get("running_mate") if winner else None
    results = [
        ticket_result(candidate, ticket, powers, votes, state, knowing, winner)
        for candidate, ticket in tickets.items()
    ]
    impress = {c: int(card(state, c).get("impress", 0)) for c in tickets}
    return ElectionResult(
        office=str(office.get("name", "")),
        alignment=str(office.get("alignment", "")),
        text=result_text(
            str(office.get("name", "")),
            name(winner) if winner else None,
            name(deputy),
            found.get("decided_by"),
        ),
        decided_by=found.get("decided_by"),
        tickets=results,
        **followers(weighed, tickets, turn, knowing),
        rolloff=result_rolloff(found, results, list(tickets), turn, knowing, impress),
    )


def weighed_state(state: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """The board as the election weighed it: structures and cards as after the turn (no
    phase after the election changes them), the offices as they went in (ENGINE.md:
    alignments before this election's result)."""
    weighed = {key: state[key] for key in WEIGHED if key in state}
    weighed["offices"] = before.get("offices", state.get("offices", []))
    return weighed


def election_orders(record: TurnRecord) -> tuple[set[str], dict[str, int]]:
    """The departments whose support was doubled, and each ticket's votes: the turn's
    election orders on the board that succeeded. One query."""
    rows = Order.objects.filter(
        turn_id=record.turn_id,
        board_id=record.board_id,
        status=Order.Status.SUCCEEDED,
        kind__in=[Order.Kind.SUPPORT, Order.Kind.VOTE],
    ).values_list("kind", "payload")
    doubled: set[str] = set()
    votes: dict[str, int] = {}
    for kind, payload in rows:
        if kind == Order.Kind.SUPPORT and payload.get("double") is True:
            doubled.add(str(payload.get("department")))
        elif kind == Order.Kind.VOTE:
            votes[str(payload.get("ticket"))] = votes.get(str(payload.get("ticket")), 0) + 1
    return doubled, votes


def card(state: dict[str, Any], slug: str) -> dict[str, Any]:
    return next((d for d in state.get("departments", []) if d.get("slug") == slug), {})


def ticket_result(
    candidate: str,
    ticket: dict[str, Any],
    powers: dict[str, int],
    votes: dict[str, int],
    state: dict[str, Any],
    knowing: Knowing,
    winner: str | None,
) -> TicketResult:
    known = knowing.level(candidate) >= Level.KNOWN
    lines = [
        SupporterLine(
            knowing.name(slug),
            powers.get(slug) if knowing.level(slug) >= Level.KNOWN else None,
        )
        for slug in ticket.get("supporters", [])
    ]
    named = [line for line in lines if line.name != str(UNNAMED)]
    return TicketResult(
        candidate=knowing.name(candidate),
        running_mate=knowing.name(ticket.get("running_mate")),
        support=int(ticket.get("support", 0)),
        # By name: the order of slugs would say something of them.
        supporters=sorted(named, key=lambda s: s.name),
        unknown=len(lines) - len(named),
        votes=votes.get(candidate, 0),
        impress=card(state, candidate).get("impress") if known else None,
        winner=candidate == winner,
    )


def followers(
    weighed: dict[str, Any], tickets: dict[str, Any], turn: Turn, knowing: Knowing
) -> dict[str, Any]:
    """R80 step 3: each uncontrolled supporter the viewer knew of, in slug order as the
    engine took them, and how many they had never heard of."""
    owners = {d["slug"]: d.get("structure") for d in weighed.get("departments", [])}
    members = {s for c, t in tickets.items() for s in (c, t.get("running_mate"))}
    backed = {s: c for c, t in tickets.items() for s in t.get("supporters", [])}
    free = sorted(s for s in backed if s in owners and owners[s] is None)
    mates = {c: str(t.get("running_mate")) for c, t in tickets.items()}
    weighing = [s for s in free if s not in members]
    try:
        chances = election_chances(weighed, mates, weighing) if weighing else {}
    except EngineError:
        chances = {}
    lines, unknown = [], 0
    for slug in free:
        if knowing.level(slug) < Level.RUMOURED:
            unknown += 1
            continue
        lines.append(follower(slug, backed[slug], chances.get(slug), mates, turn, knowing))
    return {"followers": lines, "unknown_followers": unknown}


def follower(
    slug: str,
    chosen: str,
    chances: dict[str, Fraction] | None,
    mates: dict[str, str],
    turn: Turn,
    knowing: Knowing,
) -> FollowerLine:
    name = knowing.name
    if chances is None:  # on a ticket: its own
        text = follower_text(name(slug), name(chosen), own=True, tied=False)
        return FollowerLine(text, [], [])
    best = max(chances.values())
    tied = [c for c, chance in chances.items() if chance == best]
    seen = knowing.level(slug) >= Level.KNOWN
    lines = [
        ChanceLine(name(c), chance if seen and cards_known(knowing, c, mates[c]) else None)
        for c, chance in chances.items()
    ]
    rolloff = []
    if len(tied) > 1:
        keys = {c: f"{turn.number}:election:{slug}:{c}" for c in tied}
        rolloff = [
            Digest(
                name(c),
                keys[c] if keys_shown(knowing, slug, c) else None,
                digest(turn.seed, keys[c]),
                c == chosen,
            )
            for c in tied
        ]
    text = follower_text(name(slug), name(chosen), own=False, tied=len(tied) > 1)
    return FollowerLine(text, lines, rolloff)


def cards_known(knowing: Knowing, *slugs: str) -> bool:
    return all(knowing.level(s) >= Level.KNOWN for s in slugs)


def keys_shown(knowing: Knowing, *slugs: str) -> bool:
    """A key names departments by slug: shown only where the viewer knew each as known."""
    return cards_known(knowing, *slugs)


def result_rolloff(
    found: dict[str, Any],
    results: list[TicketResult],
    candidates: list[str],
    turn: Turn,
    knowing: Knowing,
    impress: dict[str, int],
) -> list[Digest]:
    """R80 step 4: the roll-off that decided the result: the digest of each ticket still
    tied on support, then its candidate's Impress, then votes (the ones the engine drew
    from), lowest first."""
    if found.get("decided_by") != "roll-off":
        return []
    drawn = list(zip(candidates, results, strict=True))
    for score in (
        lambda c, t: t.support,
        lambda c, t: impress.get(c, 0),
        lambda c, t: t.votes,
    ):
        top = max(score(c, t) for c, t in drawn)
        drawn = [(c, t) for c, t in drawn if score(c, t) == top]
    keys = {c: f"{turn.number}:election:{c}" for c, __ in drawn}
    return sorted(
        (
            Digest(
                knowing.name(c),
                keys[c] if keys_shown(knowing, c) else None,
                digest(turn.seed, keys[c]),
                c == found.get("winner"),
            )
            for c, __ in drawn
        ),
        key=lambda d: d.value,
    )

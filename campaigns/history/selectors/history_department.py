"""A department's history: its controller, links, stash and status turn by turn,
as far as the viewer saw it at each turn (RULES R50, R51). Read from the turn records."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.history.selectors.history_events import (
    Event,
    Moment,
    board_moments,
    controller_name,
    gm_card_events,
    gm_link_events,
    hand_change_cause,
    link_events,
    namer,
)
from campaigns.models import Board, Membership
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.board_map import People, people_of
from campaigns.selectors.board_views import live_levels
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Amount, Level, amount
from campaigns.words import game

MONEY_PEOPLE_AUTHORITY = ("money", "people", "authority")


@dataclass(frozen=True)
class DepartmentTurn:
    """One turn of one department, holding only what the viewer's level then shows."""

    number: int
    name: str
    level: Level
    controller: str | None  # None: uncontrolled (or, below `known`, not shown: see `known`)
    suppliers: list[str]
    consumers: list[str]
    stash: list[Amount] | None  # `controlled` only, as the three below
    status: str | None
    chain_length: int | None
    capacity: int | None
    events: list[Event]

    @property
    def known(self) -> bool:
        return self.level >= Level.KNOWN

    @property
    def level_label(self) -> str:
        return self.level.label


@dataclass(frozen=True)
class DepartmentHistory:
    name: str
    turns: list[DepartmentTurn]


def hand_event(m: Moment, slug: str, people: People) -> list[Event]:
    """The department changing hands in the turn, with the cause, where its controller is
    part of what the viewer sees (`known`)."""
    old, new = m.before.owner(slug), m.after.owner(slug)
    if old == new or m.after.level(slug) < Level.KNOWN:
        return []
    name = namer(m.after)(slug)
    cause = hand_change_cause(slug, new, m.orders)
    previous = controller_name(m.before, slug, people)
    if new is None:
        return [Event(m.number, "lost", game.lost_text(name, cause, None))]
    text = game.gained_text(name, cause, previous)
    return [Event(m.number, "gained", f"{controller_name(m.after, slug, people)}: {text}")]


def gm_hand_event(m: Moment, slug: str, people: People) -> list[Event]:
    """The GM moving the department to another structure between the turns (R53)."""
    if m.previous is None or m.previous.owner(slug) == m.before.owner(slug):
        return []
    if min(m.previous.level(slug), m.before.level(slug)) < Level.KNOWN:
        return []
    old = controller_name(m.previous, slug, people)
    new = controller_name(m.before, slug, people)
    text = game.gm_hand_text(namer(m.before)(slug), old, new)
    return [Event(m.number, "gm", text)]


def attempts_on(m: Moment, slug: str) -> list[Event]:
    """Attempts by or on the department that the viewer may know of: their own, those on
    their own department (R46: the attacker's name only), every one for the GM."""
    events = []
    for order in m.orders:
        p = order.payload
        if order.kind != "attempt" or slug not in (p.get("attacker"), p.get("target")):
            continue
        ours = engine_player_id(order.player_id) == m.after.me
        defended = m.before.owner(str(p.get("target"))) == m.after.me
        if not (m.after.everything or ours or defended):
            continue
        name = namer(m.after)
        attacker = str(p.get("attacker"))
        attacking = name(attacker)
        if defended and not ours and attacking == UNNAMED:
            attacking = str(m.after.departments.get(attacker, {}).get("name", UNNAMED))
        text = game.attempt_history_text(
            attacking, name(p.get("target")), order.status, suffered=defended and not ours
        )
        events.append(Event(m.number, "attempt", text))
    return events


def department_turn(m: Moment, slug: str, people: People) -> DepartmentTurn | None:
    snapshot = m.after
    level = snapshot.level(slug)
    data = snapshot.departments.get(slug)
    if data is None or level < Level.RUMOURED:
        return None
    # Every link listed is seen (R50): both ends `known`, or one end the viewer's own and the
    # other at least `rumoured`, which may then be named.
    name = namer(snapshot)
    sees_links = level >= Level.KNOWN
    private = level >= Level.CONTROLLED
    figures = snapshot.figures.get(slug, {})
    stash = data.get("stash") or {}
    events = []
    if level >= Level.KNOWN:
        events = [
            *gm_hand_event(m, slug, people),
            *gm_link_events(m, {slug}),
            *gm_card_events(m, {slug}),
            *hand_event(m, slug, people),
            *attempts_on(m, slug),
            *link_events(m, {slug}),
        ]
    return DepartmentTurn(
        number=m.number,
        name=str(data.get("name", "")),
        level=level,
        controller=controller_name(snapshot, slug, people),
        suppliers=[name(s) for s in snapshot.suppliers_of(slug)] if sees_links else [],
        consumers=[name(c) for c in snapshot.consumers_of(slug)] if sees_links else [],
        stash=[a for k in MONEY_PEOPLE_AUTHORITY if (a := amount(k, int(stash.get(k, 0))))]
        if private
        else None,
        status=str(figures.get("status", "")) if private else None,
        chain_length=int(figures.get("chain_length", 1)) if private else None,
        capacity=data.get("capacity") if private else None,
        events=events,
    )


def department_history(board: Board, viewer: Membership, slug: str) -> DepartmentHistory | None:
    """`slug`'s history on `board` as `viewer` saw it; None (a 404) unless the viewer has
    seen it at least `known` at some turn or now: below that its slug is not theirs to
    know, so an unknown and a missing department answer alike. Five queries."""
    moments = board_moments(board, viewer)
    now = live_levels(board, viewer, slug=slug).get(slug)
    seen = [m.after.level(slug) for m in moments if slug in m.after.departments]
    if max([*seen, now[0] if now else Level.UNKNOWN], default=Level.UNKNOWN) < Level.KNOWN:
        return None
    people = people_of(board.campaign)
    turns = [t for m in moments if (t := department_turn(m, slug, people)) is not None]
    name = now[1] if now else turns[-1].name
    return DepartmentHistory(name=name, turns=turns)

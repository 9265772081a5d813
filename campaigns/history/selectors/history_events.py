"""What happened on a board, turn by turn, read from the turn records (RULES R51-R53) and
seen through one viewer's levels at each turn (R50, R51).

A `Moment` is one recorded turn as the viewer knew it: the board before the turn (as the
turn job read it: the previous turn's state plus the GM's changes, R53), after it, and the
orders resolved in it. The event builders compare the two, so the GM's changes between turns
(previous `state` -> this `before`) are told apart from the turn's own (this `before` ->
`state`), and events that happened and were undone within the turn (a link made and removed
by a capture, a department captured and taken back) are told too, from the orders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaigns.history.selectors.history_records import Recorded, board_records, resolved_orders
from campaigns.models import Board, Membership, Order
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.board_map import People, pairs
from campaigns.selectors.board_views import Pair, Snapshot, record_snapshot, state_levels
from campaigns.selectors.report_board_changes import links_made
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level, sees_everything
from campaigns.words import game

STASH = ("money", "people", "authority")
CARD = ("effect", "obstruct", "impress", "consumes", "produces", "functions", "alignments")


@dataclass(frozen=True)
class Moment:
    """One recorded turn of a board as the viewer knew it (R51)."""

    number: int
    before: Snapshot  # as the turn job read it, with the levels stored before the turn
    after: Snapshot  # after the turn, with the levels stored after it
    orders: list[Order]
    previous: Snapshot | None  # the previous turn's `after`; None for turn 0


def before_snapshot(record: Recorded, after: Snapshot, viewer: Membership) -> Snapshot:
    return Snapshot(
        board_id=record.board_id,
        number=after.number,
        state=record.before if record.before["departments"] else record.state,
        figures={},
        levels=state_levels(viewer, record.before, record.knowledge_before),
        me=after.me,
        everything=after.everything,
    )


def board_moments(board: Board, viewer: Membership) -> list[Moment]:
    """Every recorded turn of `board` as `viewer` knew it, turn 0 first. Two queries."""
    orders = resolved_orders(board=board)
    moments: list[Moment] = []
    for record in board_records(board, before=True):
        after = record_snapshot(record, viewer)
        moments.append(
            Moment(
                number=record.number,
                before=before_snapshot(record, after, viewer),
                after=after,
                orders=orders.get((board.pk, record.number), []),
                previous=moments[-1].after if moments else None,
            )
        )
    return moments


Namer = Callable[[object], str]


def namer(snapshot: Snapshot, at_least: Level = Level.RUMOURED) -> Namer:
    """A department's name where the viewer's level at that moment shows it, else UNNAMED."""

    def name(slug: object) -> str:
        data = snapshot.departments.get(str(slug))
        if data is None or snapshot.level(str(slug)) < at_least:
            return str(UNNAMED)
        return str(data.get("name", slug))

    return name


def controller_name(snapshot: Snapshot, slug: str, people: People) -> str | None:
    """Who controls `slug` at that moment, where the viewer's level shows it (`known`)."""
    owner = snapshot.owner(slug)
    if owner is None or snapshot.level(slug) < Level.KNOWN:
        return None
    return people.names.get(owner, "a player")


def decisive_order(slug: str, orders: list[Order]) -> Order | None:
    """The last succeeded attempt on `slug` or hand-over of it this turn: what moved it."""
    found = None
    for order in orders:
        p = order.payload
        if order.status != Order.Status.SUCCEEDED:
            continue
        if (order.kind == Order.Kind.ATTEMPT and p.get("target") == slug) or (
            order.kind == "handover" and p.get("department") == slug
        ):
            found = order
    return found


def hand_change_cause(slug: str, new_owner: str | None, orders: list[Order]) -> str:
    """Why `slug` changed hands within a turn: a capture (R44), a hand-over, or it left a
    structure with no link left (R13)."""
    order = decisive_order(slug, orders)
    if order is not None:
        return "capture" if order.kind == Order.Kind.ATTEMPT else "handover"
    return "unlinked" if new_owner is None else "gm"


@dataclass(frozen=True)
class Event:
    number: int
    kind: str  # gained, lost, link, attempt, gm
    text: str
    within_turn: bool = False  # happened and was undone within the turn


def orders_by(orders: list[Order], player: str, kind: str) -> list[Order]:
    return [o for o in orders if o.kind == kind and engine_player_id(o.player_id) == player]


def hand_events(m: Moment, player: str, people: People) -> list[Event]:
    """Departments the structure gained and lost in the turn, with the cause."""
    name = namer(m.after)
    before, after = m.before.held_by(player), m.after.held_by(player)
    events = []
    for slug in sorted(after - before):
        cause = hand_change_cause(slug, player, m.orders)
        previous = controller_name(m.before, slug, people)
        events.append(Event(m.number, "gained", game.gained_text(name(slug), cause, previous)))
    for slug in sorted(before - after):
        cause = hand_change_cause(slug, m.after.owner(slug), m.orders)
        new = controller_name(m.after, slug, people)
        events.append(Event(m.number, "lost", game.lost_text(name(slug), cause, new)))
    for order in m.orders:
        target = str(order.payload.get("target"))
        if order.kind != Order.Kind.ATTEMPT or order.status != Order.Status.SUCCEEDED:
            continue
        ours = engine_player_id(order.player_id) == player
        if (ours and target not in after) or (not ours and target in before & after):
            text = game.undone_capture_text(name(target), ours=ours)
            events.append(Event(m.number, "gained" if ours else "lost", text, within_turn=True))
    return events


def attempt_events(m: Moment, player: str) -> list[Event]:
    """Linking attempts the structure made, and those made on it (R43, R46)."""
    name = namer(m.after)
    mine_before = m.before.held_by(player)
    events = []
    for order in m.orders:
        if order.kind != Order.Kind.ATTEMPT:
            continue
        attacker, target = str(order.payload.get("attacker")), str(order.payload.get("target"))
        if engine_player_id(order.player_id) == player:
            text = game.attempt_history_text(
                name(attacker), name(target), order.status, suffered=False
            )
        elif target in mine_before and order.status != Order.Status.REJECTED:
            # R46: the defender was told the attacking department's name, whatever they know.
            attacking = str(m.after.departments.get(attacker, {}).get("name", str(UNNAMED)))
            text = game.attempt_history_text(attacking, name(target), order.status, suffered=True)
        else:
            continue
        events.append(Event(m.number, "attempt", text))
    return events


def link_events(m: Moment, departments: set[str], made: set[Pair] | None = None) -> list[Event]:
    """Links touching `departments` made, broken, or made and broken again in the turn, as
        far as the viewer sees them at the end of the turn or, for a link gone, before it (R50,
    R51: a link of one of their departments then is seen, its other end named)."""
    made = links_made(m.orders) if made is None else made
    old, new = pairs(m.before.state), pairs(m.after.state)
    changes = [("added", p) for p in new - old] + [("removed", p) for p in old - new]
    changes += [("undone", p) for p in made - old - new]
    events = []
    for change, (s, c) in sorted(changes, key=lambda x: (x[1], x[0])):
        # R51: a link as the viewer saw it while it was there: one made, after the turn;
        # one broken, before it (a link of a department captured this turn, which the
        # capture removed, R44, was never the captor's).
        seen_in = {
            "added": seeing(s, c, m.after),
            "removed": seeing(s, c, m.before),
            # Made and gone within the turn: theirs if an end was theirs before it.
            "undone": seeing(s, c, m.after)
            or (m.before if m.before.would_see_link(s, c) else None),
        }[change]
        if {s, c} & departments and seen_in is not None:
            name = namer(seen_in)
            text = game.link_history_text(name(s), name(c), change)
            events.append(Event(m.number, "link", text, within_turn=change == "undone"))
    return events


def seeing(supplier: str, consumer: str, *snapshots: Snapshot) -> Snapshot | None:
    """The first of `snapshots` in which the viewer sees the link (R50: both ends `known`,
    or one end theirs and the other then `rumoured`, named by it), or None."""
    return next((s for s in snapshots if s.sees_link(supplier, consumer)), None)


def gm_events(m: Moment, departments: Callable[[Snapshot], set[str]]) -> list[Event]:
    """What the GM changed between the previous turn and this one (R53) for a structure
    (`departments` of a snapshot): the previous record's `state` against this record's
    `before`, seen through the viewer's levels before the turn."""
    if m.previous is None:
        return []
    old, new = m.previous, m.before
    name = namer(new, Level.KNOWN)
    events = []
    for slug in sorted(departments(new) - departments(old)):
        events.append(Event(m.number, "gm", game.gained_text(name(slug), "gm", None)))
    for slug in sorted(departments(old) - departments(new)):
        events.append(Event(m.number, "gm", game.lost_text(name(slug), "gm", None)))
    touched = departments(old) | departments(new)
    return events + gm_link_events(m, touched) + gm_card_events(m, touched)


def gm_link_events(m: Moment, touched: set[str]) -> list[Event]:
    """Links touching `touched` the GM made or removed between the turns (R53)."""
    if m.previous is None:
        return []
    old, new = m.previous, m.before
    events = []
    for s, c in sorted(pairs(new.state) ^ pairs(old.state)):
        change = "added" if (s, c) in pairs(new.state) else "removed"
        seen_in = seeing(s, c, new if change == "added" else old)
        if {s, c} & touched and seen_in is not None:
            name = namer(seen_in)
            text = game.link_history_text(name(s), name(c), change, by_gm=True)
            events.append(Event(m.number, "gm", text))
    return events


def gm_card_events(m: Moment, touched: set[str]) -> list[Event]:
    """Cards and stashes of `touched` the GM changed between the turns (R53), where the
    viewer controlled the department on both sides (a stash is `controlled` only)."""
    if m.previous is None:
        return []
    old, new = m.previous, m.before
    name = namer(new, Level.KNOWN)
    events = []
    for slug in sorted(touched & set(old.departments) & set(new.departments)):
        if min(old.level(slug), new.level(slug)) >= Level.CONTROLLED:
            was, now = old.departments[slug], new.departments[slug]
            events += card_and_stash_changes(m.number, name(slug), was, now)
    return events


def card_and_stash_changes(
    number: int, name: str, old: dict[str, Any], new: dict[str, Any]
) -> list[Event]:
    events = []
    if any(old.get(key) != new.get(key) for key in CARD):
        events.append(Event(number, "gm", game.card_change_text(name)))
    before, after = old.get("stash") or {}, new.get("stash") or {}
    stash = [(k, int(before.get(k, 0)), int(after.get(k, 0))) for k in STASH]
    if changed := [(k, a, b) for k, a, b in stash if a != b]:
        events.append(Event(number, "gm", game.stash_change_text(name, changed)))
    return events


def structure_events(m: Moment, player: str, people: People) -> list[Event]:
    """Everything the structure of `player` went through in one turn."""

    def theirs(snapshot: Snapshot) -> set[str]:
        return set(snapshot.held_by(player))

    touched = theirs(m.before) | theirs(m.after)
    return [
        *gm_events(m, theirs),
        *attempt_events(m, player),
        *hand_events(m, player, people),
        *link_events(m, touched),
    ]


def may_follow(viewer: Membership, player: Membership) -> bool:
    """Whose structure's history the viewer may read: a player's, their own; every
    player's for the GM, or in a campaign the GM has opened (R51)."""
    is_player = player.role == Membership.Role.PLAYER
    return is_player and (sees_everything(viewer) or viewer.pk == player.pk)

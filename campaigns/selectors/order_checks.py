"""Checking players' orders THROUGH THE ENGINE (RULES R40, R46, R50), never by a second copy
of the rules: the board's current state (selectors.state.board_state) plus the player's own
queued orders of the turn and the new one is resolved with a throwaway seed, and a "rejected"
outcome refuses the order with the engine's reason (R40). The throwaway seed means no die of
the real turn can leak through a submission. Reasons about departments the player does not
control are filtered by R50 (safe_reason) before they reach the player.

Reads only: the writes that call these checks are in services.orders.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import engine
from campaigns.engine.joined import SEP, departments_named, order_renamed, qualifier, reason_in
from campaigns.engine.refusals import parse, refuse
from campaigns.engine.scope import deciding, named_departments, sliceable
from campaigns.models import Board, Campaign, Department, Link, Membership, Order, Turn
from campaigns.selectors.state import (
    BoardRows,
    board_rows_near,
    board_state,
    campaign_state,
    order_state,
)
from campaigns.selectors.state_beyond_boards import BesideRows, Present, present
from campaigns.selectors.visibility import Level, Seen, level_of, seen_departments
from campaigns.words import game

Kind = Order.Kind

NEW_ID = "new"
# R50: engine refusals (their codes, engine/refusals.py) that state only card facts (known at
# level `known`) may name a department the player knows but does not control; any other
# reason about such a department (its links, its stash) is replaced by GENERIC.
CARD_FACTS = frozenset(
    {"not_consumed", "not_produced", "already_yours", "not_yours", "not_yours_link",
     "not_yours_election"}
)  # fmt: skip
GENERIC = gettext_lazy(
    "That department cannot be targeted this way now (details you cannot see, R50)."
)


QUALIFIED = re.compile(rf"[\w-]{SEP}[\w-]")
# R50: whether a link to or from one of the player's departments exists is theirs to know
# (they see every such link), so this refusal may name both its ends when one is theirs.
NO_OWN_LINK = "no_link"


class OrderRefused(Exception):
    """The order was not stored; the message is safe to show the player (R50)."""


def turn_check_open(turn: Turn, now: dt.datetime) -> None:
    """R31/R40: orders only while the turn is open and before its deadline."""
    if turn.status != Turn.Status.OPEN:
        raise OrderRefused(
            _(
                "Turn %(n)s is %(status)s: it takes no more "
                "orders. Nothing was stored; queue your orders for the next turn."
            )
            % {"n": turn.number, "status": str(turn.get_status_display()).lower()}
        )
    if now >= turn.deadline:
        raise OrderRefused(
            _(
                "The deadline of turn %(n)s has passed; the turn is being processed. "
                "Nothing was stored; queue your orders for the next turn."
            )
            % {"n": turn.number}
        )


def attempt_check_cutoff(campaign: Campaign, turn: Turn, now: dt.datetime) -> None:
    """R46: linking attempts are queued at least the cut-off before the deadline."""
    cutoff = turn.deadline - dt.timedelta(hours=campaign.attempt_cutoff_hours)
    if now > cutoff:
        raise OrderRefused(
            _(
                "Linking attempts must be queued at least %(hours)s hours "
                "before the deadline, so the defender can reinforce (R46)."
            )
            % {"hours": campaign.attempt_cutoff_hours}
        )


def queued_orders(*, player: Membership, turn: Turn, board: Board | None = None) -> list[Order]:
    """The player's queued orders of `turn` in sequence order (on one board if given)."""
    rows = Order.objects.filter(player=player, turn=turn, status=Order.Status.QUEUED)
    rows = rows.filter(board=board) if board is not None else rows.select_related("board")
    return list(rows.order_by("seq", "pk"))


# R80: the kinds of the election round; another player's are part of every player's check.
ELECTION_KINDS = (Kind.NOMINATE, Kind.RUNNING_MATE, Kind.SUPPORT, Kind.VOTE)


@dataclass(frozen=True)
class OrdersAround:
    """What a check of a player's order on a board reads of the turn's queued orders, each
    list in sequence order: the player's own (on every board: elsewhere_attempts needs the
    others'); the other players' election orders on the board (R80: nominations and tickets
    are public, engine/plan.py, and a support, a vote or a running mate names another
    player's ticket, so the engine judges a player's orders with them); and the hand-overs
    other players offer the player there (R62: the engine judges an accept against them)."""

    mine: list[Order]
    public: list[Order]
    offered: list[Order]


# orders_around's one query, written out: it runs on every submission and every order form,
# and the ORM took several times longer to build it than the database to answer it. The
# hand-overs of the board are all read (a few a turn at most): which of them are offered to
# the player is decided in Python, the same on SQLite and PostgreSQL.
AROUND = """
SELECT o.*, b.name AS board_name, b.slug AS board_slug
FROM {order} o JOIN {board} b ON b.id = o.board_id
WHERE o.turn_id = %s AND o.status = %s
  AND (o.player_id = %s OR (o.board_id IN ({boards}) AND o.kind IN ({kinds})))
ORDER BY o.seq, o.id
"""


def orders_around(player: Membership, turn: Turn, board: Board) -> OrdersAround:
    """OrdersAround in one query (an order check runs on every submission: each query saved
    is a round trip saved), each order with its board."""
    return orders_around_boards(player, turn, [board])[board.pk]


def orders_around_boards(
    player: Membership, turn: Turn, boards: list[Board]
) -> dict[int, OrdersAround]:
    """Board id -> its OrdersAround, for several boards in one query (the orders page)."""
    kinds = [*ELECTION_KINDS, Kind.HANDOVER]
    sql = AROUND.format(
        order=Order._meta.db_table,
        board=Board._meta.db_table,
        boards=", ".join(["%s"] * len(boards)),
        kinds=", ".join(["%s"] * len(kinds)),
    )
    params = [turn.pk, Order.Status.QUEUED, player.pk, *(b.pk for b in boards), *kinds]
    mine: list[Order] = []
    public: dict[int, list[Order]] = {b.pk: [] for b in boards}
    offered: dict[int, list[Order]] = {b.pk: [] for b in boards}
    read: dict[int, Board] = {}
    campaign_id = boards[0].campaign_id if boards else None
    for order in Order.objects.raw(sql, params):
        order.board = read.setdefault(
            order.board_id,
            Board(
                pk=order.board_id,
                campaign_id=campaign_id,
                name=order.board_name,
                slug=order.board_slug,
            ),
        )
        if order.player_id == player.pk:
            mine.append(order)
        elif order.board_id not in public:
            continue
        elif order.kind in ELECTION_KINDS:
            public[order.board_id].append(order)
        elif order.payload.get("to") == player.player_id:  # a hand-over offered (R62)
            offered[order.board_id].append(order)
    return {b.pk: OrdersAround(mine, public[b.pk], offered[b.pk]) for b in boards}


def trial_state(
    board: Board,
    turn: Turn,
    orders: list[Order],
    beside: BesideRows | None = None,
    rows: BoardRows | None = None,
) -> dict[str, Any]:
    """The whole board as it is now, with `orders`, a throwaway seed: dice outcomes of the
    turn's real seed must not leak through a submission check (R23). For the order forms,
    which list every legal choice on the board; `rows` if read already (state.boards_rows)."""
    state = board_state(board, turn=turn, orders=orders, rows=rows, beside_rows=beside)
    state["seed"] = secrets.token_hex(32)
    return state


def trial_near(
    board: Board, turn: Turn, orders: list[dict[str, Any]], parts: Present | None = None
) -> dict[str, Any]:
    """`orders` (ENGINE.md) on the part of the board that decides them (engine.scope), as
    it is now, with a throwaway seed (R23): what checking an order resolves. A few queries
    and a small state, whatever the size of the board."""
    parts = parts if parts is not None else present(board.campaign_id)
    state = board_state(board, turn=turn, rows=board_rows_near(board, orders), parts=parts)
    if not sliceable(state, orders):  # parts 7-9 reach further than a slice (engine.scope)
        state = board_state(board, turn=turn, parts=parts)
    state["orders"] = orders
    state["seed"] = secrets.token_hex(32)
    return state


def elsewhere_attempts(board: Board, others: list[Order]) -> list[dict[str, Any]]:
    """R43: the player's queued linking attempts on the campaign's other boards, as a
    state of `board` holds them (their departments named "<board>/<slug>", so the engine
    counts them against the per-turn limit without finding them on this board)."""
    return [
        order_renamed(order_state(o), qualifier(o.board.slug))
        for o in others
        if o.board_id != board.pk and o.kind == Kind.ATTEMPT
    ]


def trial_of(
    board: Board, turn: Turn, kind: str, orders: list[dict[str, Any]], others: list[Order]
) -> tuple[dict[str, Any], str | None]:
    """The state that decides a new order of `kind` on `board` (with the player's orders of
    this board, `orders`), and the board its names are relative to in a joined state (None
    when the state is the board's own). A campaign of one board: the board (or the slice of
    it) as trial_near. Several boards: with none of parts 7-9, the slice plus the player's
    attempts elsewhere (R43 counts them); with any, every board joined as the turn job joins
    them (engine/joined.py), with the player's orders on each."""
    parts = present(board.campaign_id)
    if parts.boards <= 1:
        return trial_near(board, turn, deciding(orders, kind), parts), None
    if not parts:
        foreign = elsewhere_attempts(board, others)
        return trial_near(board, turn, deciding(foreign + orders, kind), parts), None
    boards = list(Board.objects.filter(campaign_id=board.campaign_id).select_related("campaign"))
    by_board: dict[int, list[dict[str, Any]]] = {board.pk: orders}
    for order in others:
        if order.board_id != board.pk:
            by_board.setdefault(order.board_id, []).append(order_state(order))
    state = campaign_state(boards, turn=turn, orders=by_board)
    state["seed"] = secrets.token_hex(32)
    return state, board.slug


def outcome_of(state: dict[str, Any], order_id: str) -> dict[str, Any]:
    result: dict[str, Any] = engine.resolve(state)["report"]["orders"][order_id]
    return result


def order_check(
    *,
    player: Membership,
    turn: Turn,
    board: Board,
    kind: str,
    payload: dict[str, Any],
    seq: int,
    replacing: Order | None = None,
) -> None:
    """R40: raise OrderRefused if the engine rejects this order after the player's other
    queued orders of the turn on this board. Only "rejected" counts: an attempt that may fail
    on dice, or may not be able to pay, is the player's risk (it is checked again at
    resolution)."""
    around = orders_around(player, turn, board)
    public = ticket_nominated(kind, payload, [*around.public, *around.mine], board)
    names_only_visible_departments(
        board=board, player=player, payload=payload, kind=kind, public=public
    )
    others = [o for o in around.mine if o != replacing]
    orders = [order_state(o) for o in [*around.public, *others] if o.board_id == board.pk]
    # R62: with the hand-overs offered to the player (an accept takes one; a link may then be
    # added to the department it brings), as the order forms see them (order_context.py).
    orders += [order_state(o) for o in around.offered]
    new = {**payload, "id": NEW_ID, "player": player.player_id, "kind": kind, "seq": seq}
    answered = None
    if kind == Kind.REINFORCE:
        answers = str(payload.get("answers", ""))
        answered = Order.objects.filter(
            pk=int(answers) if answers.isdigit() else None,
            turn=turn,
            board=board,
            kind=Kind.ATTEMPT,
            status=Order.Status.QUEUED,
        ).first()
        if answered is None:
            raise OrderRefused(_("There is no queued linking attempt to answer (R46)."))
        new["answers"] = answered.engine_id
        orders.append(order_state(answered))
    orders.append(new)
    state, joined = trial_of(board, turn, kind, orders, others)
    outcome = outcome_of(state, NEW_ID)
    if (
        outcome["status"] == "rejected"
        and answered is not None
        and code_of(outcome.get("reason")) == "attempt_gone"
    ):
        # The attempt itself would not be made (it cannot pay, say): that is the attacker's
        # business and must not leak (R50). Judge the reinforcement as the move it is (R42),
        # ending at the target (R46), on one board or on the boards joined.
        outcome = reinforce_as_move(state, answered.engine_id)
    if outcome["status"] == "rejected":
        reason = outcome.get("reason") or ""
        if joined is not None:
            reason = reason_in(reason, joined)
        raise OrderRefused(safe_reason(reason, board=board, player=player))


def refusal(
    *,
    player: Membership,
    turn: Turn,
    board: Board,
    kind: str,
    payload: dict[str, Any],
    seq: int,
    replacing: Order | None = None,
) -> str | None:
    """R40: why the engine would refuse this order now (R50-safe, as order_check says it),
    or None if it would take it."""
    try:
        order_check(
            player=player, turn=turn, board=board, kind=kind, payload=payload, seq=seq,
            replacing=replacing,
        )  # fmt: skip
    except OrderRefused as refused:
        return str(refused)
    return None


def code_of(reason: str | None) -> str | None:
    """The refusal code of an engine reason (None for none, or for text no code says)."""
    refusal = parse(reason or "")
    return None if refusal is None else refusal.code


def reinforce_as_move(state: dict[str, Any], answered_id: str) -> dict[str, Any]:
    """The new reinforcement's outcome as a move ending at the target of the attempt it
    answers, without that attempt. Both orders are read from `state`, so their departments are
    named as the state names them (a joined state qualifies them by board)."""
    orders = {o["id"]: o for o in state["orders"]}
    new, target = orders[NEW_ID], orders[answered_id].get("target")
    path = new.get("path") or []
    if not path or path[-1] != target:
        return {"status": "rejected", "reason": refuse("must_end_at_target", target=target)}
    state["orders"] = [o for o in state["orders"] if o["id"] not in (NEW_ID, answered_id)]
    state["orders"].append({**new, "kind": Kind.MOVE})
    return outcome_of(state, NEW_ID)


def ticket_nominated(
    kind: str, payload: dict[str, Any], queued: list[Order], board: Board
) -> frozenset[str]:
    """R80: the ticket a support or a vote names, where a queued nomination on the board
    names it as candidate. Tickets are public: the election page shows every one, named or
    not, and the forms offer each by an opaque reference (elections/web/election_choices.py), so a
    player may name one whose candidate they have never heard of (R50 hides its name, not
    that it runs). Whether it is a ticket is the engine's to say."""
    ticket = payload.get("ticket")
    if kind not in (Kind.SUPPORT, Kind.VOTE) or not isinstance(ticket, str):
        return frozenset()
    nominated = any(
        o.board_id == board.pk
        and o.kind == Kind.NOMINATE
        and isinstance(o.payload, dict)
        and o.payload.get("candidate") == ticket
        for o in queued
    )
    return frozenset({ticket}) if nominated else frozenset()


def names_only_visible_departments(
    *,
    board: Board,
    player: Membership,
    payload: dict[str, Any],
    kind: str | None = None,
    public: frozenset[str] = frozenset(),
) -> None:
    """R50: an order naming a department the player does not know of at all gets the same
    GENERIC refusal whether that department exists or not; otherwise the engine's "no
    department 'x'" against a filtered reason would tell them which hidden slugs exist.
    A name "<board>/<slug>" is a department of another board of the campaign (a cross-board
    order, R60). With `kind`, only the fields that name departments for that kind count (a
    hand-over's "to" names a player). `public`: names any player may give (ticket_nominated)."""
    named = (
        set(departments_named({**payload, "kind": kind}) if kind else named_departments([payload]))
        - public
    )
    if not named:
        return
    seen = seen_departments(board, player, named)
    if own_links(board, seen, links_named(kind, payload)):
        return  # R50: the other end of a link of theirs is named to them
    for name in named:
        if name not in seen or seen[name].level < Level.RUMOURED:
            raise OrderRefused(str(GENERIC))


def links_named(kind: str | None, payload: dict[str, Any]) -> list[tuple[object, object]]:
    """The links an order names as (supplier, consumer): a break_link's, a priority's from
    its supplier to each consumer it ranks (R41); none for any other kind."""
    if kind == Order.Kind.BREAK_LINK:
        return [(payload.get("from"), payload.get("to"))]
    consumers = payload.get("consumers")
    if kind == Order.Kind.PRIORITY and isinstance(consumers, list):
        return [(payload.get("department"), consumer) for consumer in consumers]
    return []


def own_links(board: Board, seen: dict[str, Seen], links: list[tuple[object, object]]) -> bool:
    """Whether each of `links` is a link of the board with an end the player controls (R50:
    they know it, its other end by name). One query, only then."""
    ends = {end for link in links for end in link}
    if not links or not all(isinstance(end, str) and end in seen for end in ends):
        return False
    if any(max(seen[str(end)].level for end in link) < Level.CONTROLLED for link in links):
        return False
    wanted = Q()
    for supplier, consumer in set(links):
        wanted |= Q(supplier__slug=supplier, consumer__slug=consumer)
    found = Link.objects.filter(wanted, board=board, consumer__board=board).count()
    return found == len(set(links))


def departments_by_name(board: Board, names: set[str]) -> dict[str, Department]:
    """The departments `names` name from `board` (a plain slug: of the board; "<board>/<slug>":
    of that board of the campaign), with their structures. One query."""
    wanted = Q(board=board, slug__in=[n for n in names if SEP not in n])
    for name in names:
        if SEP in name:
            other, slug = name.split(SEP, 1)
            wanted |= Q(board__campaign_id=board.campaign_id, board__slug=other, slug=slug)
    found = Department.objects.filter(wanted).select_related("structure", "board")
    return {d.slug if d.board_id == board.pk else f"{d.board.slug}{SEP}{d.slug}": d for d in found}


def safe_reason(
    reason: str,
    *,
    board: Board,
    player: Membership,
    loaded: tuple[list[Department], dict[int, int]] | None = None,
    levels: Mapping[str, Level] | None = None,
) -> str:
    """R50: the engine's reason with slugs replaced by names; a reason that concerns a
    department the player does not control is shown only if it states card facts of a
    department they know, else replaced by a generic message. `loaded`: the board's
    departments (with their structures) and the player's knowledge, if the caller has them
    already (a report filters many reasons). `levels`: slug -> level where the caller knows
    better than today's tables (a report: what the player controlled during that turn, so
    "your department was captured earlier this turn" reaches them, R51)."""
    if QUALIFIED.search(reason):
        # (A department of another board, "<board>/<slug>": names across boards are not
        # filtered here, so none is shown.)
        return str(GENERIC)
    if loaded is None:
        # Only the departments the reason can name: its words (a slug is a whole word).
        seen = seen_departments(board, player, set(game.WORDS.findall(reason)))
    else:
        departments, knowledge = loaded
        rows = {d.slug: d for d in departments}
        seen = {
            slug: Seen(rows[slug].name, level_of(rows[slug], player, knowledge))
            for slug in game.slugs_named(reason, rows)
        }

    def level_of_named(slug: str) -> Level:
        if levels and slug in levels:
            return levels[slug]
        return seen[slug].level if slug in seen else Level.UNKNOWN

    refusal = parse(reason)
    code = None if refusal is None else refusal.code
    if refusal is not None and code == NO_OWN_LINK:
        ends = [level_of_named(refusal.params[end]) for end in ("supplier", "consumer")]
        if max(ends) >= Level.CONTROLLED and min(ends) >= Level.RUMOURED:
            return game.with_names(reason, {slug: d.name for slug, d in seen.items()})
    for slug in game.slugs_named(reason, seen):
        level = level_of_named(slug)
        if level < Level.CONTROLLED and (level < Level.KNOWN or code not in CARD_FACTS):
            return str(GENERIC)
    return game.with_names(reason, {slug: d.name for slug, d in seen.items()})


def board_report(orders: list[Order], board_id: int) -> dict[str, Any]:
    on_board = sorted((o for o in orders if o.board_id == board_id), key=lambda o: o.seq)
    state = trial_near(on_board[0].board, on_board[0].turn, [order_state(o) for o in on_board])
    report: dict[str, Any] = engine.resolve(state)["report"]["orders"]
    return report


def rejected_ids(orders: list[Order]) -> set[str]:
    """R40: engine ids of the orders the engine rejects in their current sequence (for
    orders_reorder, which refuses a sequence that rejects an order accepted before)."""
    found: set[str] = set()
    for board_id in {o.board_id for o in orders}:
        report = board_report(orders, board_id)
        found |= {pk for pk, out in report.items() if out["status"] == "rejected"}
    return found


def rejected_reason(order: Order, orders: list[Order]) -> str:
    return str(board_report(orders, order.board_id)[order.engine_id].get("reason", ""))

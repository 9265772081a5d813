"""Deals between players (RULES R62, ENGINE.md part 8): gifts of tokens in the move phase,
and hand-overs of a department with the receiver's consent at the start of the link phase.
Like every handler, each checks the whole order before it changes anything (R40)."""

from __future__ import annotations

from .board import Board, Department, no_tokens
from .errors import OrderRejected
from .orders import Order, Outcome, arrive, check_room, check_unmoved, order_tokens, own_department
from .refusals import refuse


def gift(board: Board, order: Order) -> Outcome:
    """R62: unmoved tokens from one of the giver's departments to a department of another
    player's structure, at least one; they count as moved there, and the receiver's capacity
    bounds them as it bounds the last department of a move (R42, R36)."""
    giver = own_department(board, order.player, order.fields.get("from"))
    receiver = board.department(order.fields.get("to"))
    if receiver.structure is None or receiver.structure == order.player:
        raise OrderRejected(refuse("not_another_players", dept=receiver.slug))
    tokens = order_tokens(order.fields.get("tokens"), "tokens")
    if not sum(tokens.values()):
        raise OrderRejected(refuse("empty_gift"))
    check_unmoved(giver, tokens)
    check_room(board, receiver, sum(tokens.values()), "gift_over_capacity")
    for kind, n in tokens.items():
        giver.stash[kind] -= n
    arrive(receiver, tokens)
    return Outcome()


def matches(accept: Order, handover: Order) -> bool:
    """ENGINE.md: the receiver's accept names the department and the giver."""
    return (
        accept.player is not None
        and accept.player == handover.fields.get("to")
        and accept.fields.get("department") == handover.fields.get("department")
        and accept.fields.get("from") == handover.player
    )


def handover(board: Board, order: Order, accepts: list[Order], handed: set[str]) -> Outcome:
    """R62: the giver's department joins the receiver's structure if the receiver queued the
    matching accept. Without it the order is legal but `failed` (like an attempt that cannot
    pay: nothing changes). A department goes over at most once a turn (the engine's reading
    of "a department already handed over this turn is not the giver's": neither its old
    giver nor its new holder may hand it on the same turn)."""
    dept = own_department(board, order.player, order.fields.get("department"))
    receiver = order.fields.get("to")
    if not isinstance(receiver, str) or not receiver:
        raise OrderRejected(refuse("handover_no_receiver"))
    if receiver == order.player:
        raise OrderRejected(refuse("handover_to_controller"))
    if dept.slug in handed:
        raise OrderRejected(refuse("handed_over_already", dept=dept.slug))
    if not any(matches(accept, order) for accept in accepts):
        return Outcome("failed", refuse("not_accepted", player=receiver, dept=dept.slug))
    hand_over(board, dept, receiver)
    handed.add(dept.slug)
    return Outcome()


def hand_over(board: Board, dept: Department, receiver: str) -> None:
    """R62: every link between the department and its old structure goes, and it joins the
    receiver's structure as a non-home department (R13 applies at the end of the link phase).
    As at a capture (R44), its standing defence was its old controller's, so it is cleared;
    its stash, moved tokens and capacity stay."""
    board.cut_from_structure(dept)
    dept.structure = receiver
    dept.home = False
    dept.defence = no_tokens()

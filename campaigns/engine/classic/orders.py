"""Classic orders as queued (ENGINE.md part 10): each raw order parsed into one shape, or the
reason it is rejected before anything else and never counted (step 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import OrderRejected
from ..orders import Order
from ..refusals import refuse
from .state import AIMS, Classic

ACTIONS = ("attack", "move_group", "give_group")  # and a transfer with `action: true`
STANDING = ("defend", "interfere", "accept")
KINDS = (
    "attack",
    "defend",
    "interfere",
    "transfer",
    "move_group",
    "give_group",
    "accept",
    "drop",
    "gift",
    "pass",
)
# Per kind: the fields naming a group (required, then optional lists), and the amounts
# (required ones first).
SLUGS = {
    "attack": ("group", "target"),
    "defend": ("group",),
    "interfere": ("target",),
    "transfer": ("from", "to"),
    "move_group": ("group", "to"),
    "give_group": ("group",),
    "accept": ("group", "parent"),
    "drop": ("group",),
}
REQUIRED_AMOUNTS = {"interfere": ("amount",), "transfer": ("amount",), "gift": ("amount",)}
OPTIONAL_AMOUNTS = {
    "attack": ("spend", "spend_illuminati", "transfer_after"),
    "defend": ("spend", "spend_illuminati"),
}


@dataclass(frozen=True, slots=True)
class ClassicOrder:
    """A parsed classic order. Slug fields hold existing slugs; amounts are whole numbers."""

    id: str
    player: str
    kind: str
    seq: int
    index: int
    slugs: dict[str, str]
    amounts: dict[str, int]
    assist: tuple[str, ...] = ()
    aim: str = ""
    side: str = ""
    for_player: str | None = None
    to_player: str | None = None
    action: bool = False

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.seq, self.index)

    def slug(self, name: str) -> str:
        return self.slugs[name]

    def amount(self, name: str) -> int:
        return self.amounts.get(name, 0)

    @property
    def is_action(self) -> bool:
        """R94: attacks, moves, gives and transfers marked as actions."""
        return self.kind in ACTIONS or (self.kind == "transfer" and self.action)


def parse_order(order: Order, board: Classic) -> ClassicOrder:
    """Step 0 (ENGINE.md part 10): the order's fields, or OrderRejected with the reason."""
    if order.player not in board.goals:
        raise OrderRejected(refuse("classic_not_a_player"))
    kind = order.kind
    if kind not in KINDS:
        raise OrderRejected(refuse("classic_unknown_kind", order_kind=kind))
    raw = order.fields
    amounts = parse_amounts(raw, kind)
    slugs = {name: known_slug(raw.get(name), name, board) for name in SLUGS.get(kind, ())}
    extra: dict[str, Any] = {}
    if kind == "attack":
        extra["assist"] = parse_assist(raw.get("assist"), board)
        if raw.get("aim") not in AIMS:
            raise OrderRejected(refuse("classic_bad_aim"))
        extra["aim"] = raw["aim"]
    if kind == "interfere":
        extra.update(parse_side(raw, order.player, board))
    if kind in ("give_group", "gift"):
        to_player = raw.get("to_player")
        if not isinstance(to_player, str):
            raise OrderRejected(refuse("classic_to_player"))
        extra["to_player"] = to_player
    if kind == "transfer":
        action = raw.get("action", False)
        if not isinstance(action, bool):
            raise OrderRejected(refuse("classic_action_bool"))
        extra["action"] = action
    return ClassicOrder(
        order.id, order.player, kind, order.seq, order.index, slugs, amounts, **extra
    )


def parse_amounts(raw: dict[str, Any], kind: str) -> dict[str, int]:
    amounts: dict[str, int] = {}
    for name in REQUIRED_AMOUNTS.get(kind, ()) + OPTIONAL_AMOUNTS.get(kind, ()):
        value = raw.get(name)
        if value is None and name in OPTIONAL_AMOUNTS.get(kind, ()):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise OrderRejected(refuse("classic_whole_number", field=name))
        if value < 0:
            raise OrderRejected(refuse("classic_negative", field=name))
        amounts[name] = value
    return amounts


def known_slug(value: object, name: str, board: Classic) -> str:
    if not isinstance(value, str):
        raise OrderRejected(refuse("classic_names_group", field=name))
    if value not in board.groups:
        raise OrderRejected(refuse("classic_no_such_group", field=name, value=value))
    return value


def parse_assist(value: object, board: Classic) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise OrderRejected(refuse("classic_assist_list"))
    return tuple(known_slug(slug, "assist", board) for slug in value)


def parse_side(raw: dict[str, Any], player: str, board: Classic) -> dict[str, Any]:
    """Step 0: `side` is attack or defend; side attack names another player in `for`."""
    side = raw.get("side")
    if side not in ("attack", "defend"):
        raise OrderRejected(refuse("classic_bad_side"))
    for_player = raw.get("for")
    if side == "defend":
        return {"side": side}
    if not isinstance(for_player, str) or for_player == player or for_player not in board.goals:
        raise OrderRejected(refuse("classic_interfere_other"))
    return {"side": side, "for_player": for_player}

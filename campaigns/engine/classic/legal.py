"""Every legal choice of every classic order kind for one player (RULES R94-R97), on the board
as it stands at the start of the turn's resolution, each order taken alone. The engine is the
one source of what is legal: the order forms offer these choices and `resolve` accepts exactly
them (tests/engine/test_classic_legal_properties.py checks both directions). Amounts are
offered as bounds (`most`); standing orders accept any amount (they spend as far as the
treasuries then hold, R96)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import EngineError, OrderRejected
from ..orders import Order
from ..refusals import refuse
from .attack import aim_problem
from .moves import (
    accept_problem,
    defend_problem,
    drop_problem,
    gift_problem,
    give_problem,
    interfere_problem,
    move_problem,
    transfer_problem,
)
from .orders import KINDS, ClassicOrder, parse_order
from .state import AIMS, Classic, parse_classic


@dataclass(frozen=True, slots=True)
class AttackChoice:
    """R95: an attack of `group` on `target` with `aim`; any assistants of `assistants`, and MB
    up to the treasuries (`shared`: the Illuminati attacks, one treasury pays for both)."""

    group: str
    target: str
    aim: str
    assistants: tuple[str, ...]
    most: int
    most_illuminati: int
    shared: bool

    def accepts(self, order: ClassicOrder) -> bool:
        if (order.slug("group"), order.slug("target"), order.aim) != (
            self.group, self.target, self.aim,
        ):  # fmt: skip
            return False
        if len(set(order.assist)) != len(order.assist) or not set(order.assist) <= set(
            self.assistants
        ):
            return False
        due = order.amount("spend") + (
            order.amount("transfer_after") if self.aim == "control" else 0
        )
        if self.shared:
            return due + order.amount("spend_illuminati") <= self.most
        return due <= self.most and order.amount("spend_illuminati") <= self.most_illuminati


@dataclass(frozen=True, slots=True)
class GroupChoice:
    """One group (`defend`, `drop`) or a group and the group it goes to (`move_group`,
    `accept`: `to` is the parent)."""

    group: str
    to: str | None = None

    def accepts(self, order: ClassicOrder) -> bool:
        other = order.slugs.get("to", order.slugs.get("parent"))
        return order.slug("group") == self.group and other == self.to


@dataclass(frozen=True, slots=True)
class InterfereChoice:
    """R96: interference on `target`; side `attack` for one of `for_players`."""

    target: str
    side: str
    for_players: tuple[str, ...] = ()

    def accepts(self, order: ClassicOrder) -> bool:
        if (order.slug("target"), order.side) != (self.target, self.side):
            return False
        return self.side == "defend" or order.for_player in self.for_players


@dataclass(frozen=True, slots=True)
class TransferChoice:
    """R97: MB from `source` to `dest`, at most `most`, as an action or free."""

    source: str
    dest: str
    most: int

    def accepts(self, order: ClassicOrder) -> bool:
        same = (order.slug("from"), order.slug("to")) == (self.source, self.dest)
        return same and order.amount("amount") <= self.most


@dataclass(frozen=True, slots=True)
class PlayerChoice:
    """A group given to (`give_group`, it needs their accept) or MB gifted to (`gift`, at
    most `most`) another player; `pass` has neither."""

    to_player: str | None = None
    group: str | None = None
    most: int = 0

    def accepts(self, order: ClassicOrder) -> bool:
        if order.kind == "pass":
            return True
        if order.to_player != self.to_player:
            return False
        if order.kind == "give_group":
            return order.slug("group") == self.group
        return order.amount("amount") <= self.most


Choice = AttackChoice | GroupChoice | InterfereChoice | TransferChoice | PlayerChoice
NO_GROUP = refuse("classic_only_illuminati")
REASONS = {
    "attack": refuse("classic_no_attack"),
    "defend": NO_GROUP,
    "interfere": refuse("classic_nothing_in_play"),
    "transfer": NO_GROUP,
    "move_group": refuse("classic_no_move"),
    "give_group": refuse("classic_no_give"),
    "accept": refuse("classic_no_accept"),
    "drop": NO_GROUP,
    "gift": refuse("classic_no_other_player"),
    "pass": "",
}


class ClassicLegal:
    """The choices of one player, per kind (`KINDS`), and why a kind has none."""

    def __init__(self, board: Classic, player: str) -> None:
        if player not in board.goals:
            raise EngineError(f"no player {player!r} on this board")
        self.board, self.player = board, player
        self._choices: dict[str, list[Any]] = {kind: LISTS[kind](board, player) for kind in KINDS}

    def choices(self, kind: str) -> list[Any]:
        return self._choices[kind]

    def why_not(self, kind: str) -> str | None:
        """The reason `kind` offers nothing, or None when it offers something."""
        return None if self._choices[kind] else REASONS[kind]

    def offers(self, order: ClassicOrder) -> bool:
        """Some choice of the order's kind accepts it."""
        return any(choice.accepts(order) for choice in self._choices[order.kind])

    def refusal(self, raw: dict[str, Any]) -> str | None:
        """Why the player's order `raw` (ENGINE.md part 10's fields and `kind`) is not one
        of the choices offered, or None when it is: the order forms' one check."""
        try:
            order = parse_order(Order.parse({**raw, "id": "form", "player": self.player}, 0),
                                self.board)  # fmt: skip
        except OrderRejected as rejected:
            return str(rejected)
        if self.offers(order):
            return None
        return self.why_not(order.kind) or refuse("classic_not_legal")


def legal_choices(state: dict[str, Any], player: str) -> ClassicLegal:
    """RULES R94-R97: every legal choice of `player` on the classic board `state`."""
    return ClassicLegal(parse_classic(state), player)


def mine(board: Classic, player: str) -> list[str]:
    return [g.slug for g in board.structure(player)]


def others(board: Classic, player: str) -> list[str]:
    return [p for p in board.players if p != player]


def attack_choices(board: Classic, player: str) -> list[AttackChoice]:
    """R95: every attacker of the player's with P > 0, every target fitting each aim."""
    illuminati = board.illuminati(player)
    found = []
    for slug in mine(board, player):
        attacker = board.groups[slug]
        if attacker.power == 0:
            continue
        helpers = tuple(s for s in mine(board, player) if s != slug)
        for target in board.groups.values():
            for aim in AIMS:
                if aim_problem(board, player, attacker, target, aim) is None:
                    found.append(
                        AttackChoice(
                            slug,
                            target.slug,
                            aim,
                            helpers,
                            attacker.treasury,
                            illuminati.treasury,
                            attacker is illuminati,
                        )  # fmt: skip
                    )
    return found


def defend_choices(board: Classic, player: str) -> list[GroupChoice]:
    return [GroupChoice(s) for s in board.groups if defend_problem(board, player, s) is None]


def drop_choices(board: Classic, player: str) -> list[GroupChoice]:
    return [GroupChoice(s) for s in board.groups if drop_problem(board, player, s) is None]


def interfere_choices(board: Classic, player: str) -> list[InterfereChoice]:
    found = []
    for slug in board.groups:
        if interfere_problem(board, slug) is None:
            found.append(InterfereChoice(slug, "defend"))
            if others(board, player):
                found.append(InterfereChoice(slug, "attack", tuple(others(board, player))))
    return found


def transfer_choices(board: Classic, player: str) -> list[TransferChoice]:
    slugs = mine(board, player)
    return [
        TransferChoice(a, b, board.groups[a].treasury)
        for a in slugs
        for b in slugs
        if transfer_problem(board, player, a, b, 0) is None
    ]


def move_choices(board: Classic, player: str) -> list[GroupChoice]:
    slugs = mine(board, player)
    return [
        GroupChoice(a, b) for a in slugs for b in slugs if move_problem(board, player, a, b) is None
    ]


def give_choices(board: Classic, player: str) -> list[PlayerChoice]:
    """R97: a group of the player's to another player with a free arrow somewhere (who must
    also accept it that turn)."""
    receivers = [
        p for p in others(board, player) if any(board.free_arrow(s) for s in mine(board, p))
    ]
    return [
        PlayerChoice(to, slug)
        for slug in mine(board, player)
        for to in receivers
        if give_problem(board, player, slug, to) is None
    ]


def accept_choices(board: Classic, player: str) -> list[GroupChoice]:
    return [
        GroupChoice(slug, parent)
        for slug in board.groups
        for parent in mine(board, player)
        if accept_problem(board, player, slug, parent) is None
    ]


def gift_choices(board: Classic, player: str) -> list[PlayerChoice]:
    most = board.illuminati(player).treasury
    return [
        PlayerChoice(to, most=most)
        for to in others(board, player)
        if not gift_problem(board, player, to, 0)
    ]


def pass_choices(board: Classic, player: str) -> list[PlayerChoice]:
    return [PlayerChoice()]


LISTS: dict[str, Callable[[Classic, str], list[Any]]] = {
    "attack": attack_choices,
    "defend": defend_choices,
    "interfere": interfere_choices,
    "transfer": transfer_choices,
    "move_group": move_choices,
    "give_group": give_choices,
    "accept": accept_choices,
    "drop": drop_choices,
    "gift": gift_choices,
    "pass": pass_choices,
}

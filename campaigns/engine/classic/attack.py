"""Attacks (RULES R95, R96): who may attack what, the need term by term, and the outcome."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..dice import roll_faces
from ..errors import OrderRejected
from ..refusals import refuse
from .moves import attackable
from .odds import succeeds
from .orders import ClassicOrder
from .places import destroy, hang, to_table
from .state import Classic, Group
from .turn import Turn

# R95: the defence a target gains from its closeness to another player's Illuminati, by depth.
CLOSENESS = {1: 10, 2: 5, 3: 2}
PER_ALIGNMENT = 4
NEUTRALIZE = 6
GROUP_MB = 2  # R96: each MB from the target's own treasury counts 2
Terms = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Need:
    """R95: the attack and the defence as named terms; the attack succeeds on 2d6 <= need."""

    attack_terms: Terms
    defence_terms: Terms

    @property
    def attack(self) -> int:
        return sum(n for _, n in self.attack_terms)

    @property
    def defence(self) -> int:
        return sum(n for _, n in self.defence_terms)

    @property
    def need(self) -> int:
        return self.attack - self.defence


@dataclass(frozen=True, slots=True)
class Aid:
    """What others add when the attack resolves (R96): interference for and against, and the
    target's standing defence in MB from its own treasury and from its Illuminati."""

    interference_for: int = 0
    defend_group: int = 0
    defend_illuminati: int = 0
    interference_against: int = 0


def need_terms(
    board: Classic, player: str, order: ClassicOrder, aid: Aid = Aid()
) -> Need:  # fmt: skip
    """R95: attack = P + T of each assistant + MB + bonuses + interference for + alignments
    (+6 to neutralize); defence = R (destroy: P) + closeness + 2 per MB of the target's
    treasury + 1 per MB of its Illuminati + interference against + alignments."""
    attacker, target = board.groups[order.slug("group")], board.groups[order.slug("target")]
    aim = order.aim
    identical, opposed = board.catalogue.counts(attacker.alignments, target.alignments)
    for_attack, for_defence = (opposed, identical) if aim == "destroy" else (identical, opposed)
    attack = (
        ("power", attacker.power),
        ("assistants", sum(board.groups[s].transferable for s in order.assist)),
        ("money", order.amount("spend") + order.amount("spend_illuminati")),
        ("bonuses", bonuses(board, player, attacker, target, aim)),
        ("interference", aid.interference_for),
        ("alignments", PER_ALIGNMENT * for_attack),
        ("neutralize", NEUTRALIZE if aim == "neutralize" else 0),
    )
    base = target.power if aim == "destroy" else target.resistance or 0
    defence = (
        ("power" if aim == "destroy" else "resistance", base),
        ("closeness", closeness(board, player, target)),
        ("group_money", GROUP_MB * aid.defend_group),
        ("illuminati_money", aid.defend_illuminati),
        ("interference", aid.interference_against),
        ("alignments", PER_ALIGNMENT * for_defence),
    )
    return Need(attack, defence)


def bonuses(board: Classic, player: str, attacker: Group, target: Group, aim: str) -> int:
    """R91/R95: bonuses of scope `any` of the attacking player's structure and of scope `own`
    of the attacker, for this aim (or any), against a target holding their alignment."""
    total = 0
    for group in board.structure(player):
        for bonus in group.bonuses:
            if bonus.scope == "own" and group is not attacker:
                continue
            if bonus.aim not in (aim, "any"):
                continue
            if bonus.alignment is None or bonus.alignment in target.alignments:
                total += bonus.amount
    return total


def closeness(board: Classic, player: str, target: Group) -> int:
    """R95: +10 / 5 / 2 for a target at depth 1 / 2 / 3 of another player's structure."""
    if target.place != "structure" or target.controller == player:
        return 0
    return CLOSENESS.get(board.depth(target), 0)


def attack_problem(
    board: Classic, used: Iterable[str], player: str, order: ClassicOrder
) -> str | None:
    """R95: why the attack cannot be made now, or None."""
    used = set(used)
    attacker = board.groups[order.slug("group")]
    if not board.owns(player, attacker.slug):
        return refuse("classic_attacker_not_yours")
    if attacker.power == 0:
        return refuse("classic_no_power")
    if attacker.slug in used:
        return refuse("classic_attacked_already")
    if len(set(order.assist)) != len(order.assist):
        return refuse("classic_assistant_twice")
    for slug in order.assist:
        if not board.owns(player, slug):
            return refuse("classic_assistant_not_yours")
        if slug == attacker.slug:
            return refuse("classic_self_assist")
        if slug in used:
            return refuse("classic_assistant_used")
    return aim_problem(board, player, attacker, board.groups[order.slug("target")], order.aim) or (
        pay_problem(board, player, order)
    )


def aim_problem(
    board: Classic, player: str, attacker: Group, target: Group, aim: str
) -> str | None:
    """R95: the targets each aim allows."""
    if not attackable(target):
        return refuse("classic_not_attackable")
    if aim == "control":
        if board.owns(player, target.slug):
            return refuse("classic_controlled_already")
        if not board.free_arrow(attacker.slug):
            return refuse("classic_attacker_no_arrow")
    elif aim == "neutralize":
        if target.place != "structure" or target.controller == player:
            return refuse("classic_neutralize_other")
    elif target.power == 0:
        return refuse("classic_destroy_powerless")
    elif target is attacker:
        return refuse("classic_destroy_self")
    return None


def pay_problem(board: Classic, player: str, order: ClassicOrder) -> str | None:
    """R95: `spend` (+ `transfer_after` to control) from the attacker, `spend_illuminati` from
    the Illuminati; one treasury when the Illuminati attacks."""
    attacker = board.groups[order.slug("group")]
    illuminati = board.illuminati(player)
    due = order.amount("spend") + (order.amount("transfer_after") if order.aim == "control" else 0)
    due_illuminati = order.amount("spend_illuminati")
    if attacker is illuminati:
        due, due_illuminati = due + due_illuminati, 0
    if due > attacker.treasury or due_illuminati > illuminati.treasury:
        return refuse("classic_cannot_pay")
    return None


def resolve_attack(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R95/R96: pay, gather defence and interference, roll 2d6 and apply the outcome."""
    board, player = turn.board, order.player
    problem = attack_problem(board, turn.used, player, order)
    if problem:
        raise OrderRejected(problem)
    attacker, target = board.groups[order.slug("group")], board.groups[order.slug("target")]
    attacker.treasury -= order.amount("spend")
    board.illuminati(player).treasury -= order.amount("spend_illuminati")
    turn.used.update((attacker.slug, *order.assist))
    need = need_terms(board, player, order, gather_aid(turn, order, target))
    key = f"{turn.turn}:{order.id}:attack"
    faces = roll_faces(turn.seed, key, 2, 6)
    roll = {"key": key, "dice": 2, "sides": 6, "faces": faces, "total": sum(faces)}
    entry: dict[str, Any] = {
        "status": "failed",
        "attack": need.attack,
        "defence": need.defence,
        "need": need.need,
        "rolls": [roll],
    }
    if succeeds(sum(faces), need.need):
        entry["status"] = "succeeded"
        apply_success(board, order, attacker, target)
    else:
        entry["reason"] = f"rolled {sum(faces)}, needed {need.need} or less, at most 10 (R95)"
    return entry


def gather_aid(turn: Turn, order: ClassicOrder, target: Group) -> Aid:
    """R96: the target's controller's first unused standing defence on it (if the target is
    in another player's structure), then every unused interference on it of another player,
    in seat order; each spends as far as its treasuries hold now."""
    board, player = turn.board, order.player
    group_mb = illuminati_mb = 0
    owner = target.controller
    if target.place == "structure" and owner is not None and owner != player:
        for defend in turn.unused("defend"):
            if defend.player == owner and defend.slug("group") == target.slug:
                group_mb = min(defend.amount("spend"), target.treasury)
                illuminati = board.illuminati(owner)
                illuminati_mb = min(defend.amount("spend_illuminati"), illuminati.treasury)
                target.treasury -= group_mb
                illuminati.treasury -= illuminati_mb
                turn.spent[defend.id] = group_mb + illuminati_mb
                break
    sides = {"attack": 0, "defend": 0}
    for interfere in turn.unused("interfere"):
        if interfere.player == player or interfere.slug("target") != target.slug:
            continue
        if interfere.side == "attack" and interfere.for_player != player:
            continue
        illuminati = board.illuminati(interfere.player)
        amount = min(interfere.amount("amount"), illuminati.treasury)
        illuminati.treasury -= amount
        turn.spent[interfere.id] = amount
        sides[interfere.side] += amount
    return Aid(sides["attack"], group_mb, illuminati_mb, sides["defend"])


def apply_success(board: Classic, order: ClassicOrder, attacker: Group, target: Group) -> None:
    """R95: control hangs the target (keeping half its treasury, then `transfer_after`) on
    the attacker; neutralize sends it to the table; destroy destroys it and counts it."""
    if order.aim == "control":
        target.treasury //= 2
        hang(board, target, attacker.slug, order.player)
        moved = order.amount("transfer_after")
        attacker.treasury -= moved
        target.treasury += moved
    elif order.aim == "neutralize":
        to_table(board, target)
    else:
        destroy(board, target)
        board.destroyed_by[order.player] = board.destroyed_by.get(order.player, 0) + 1

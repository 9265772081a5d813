"""Linking attempts' rules in one place (RULES R6, R11, R21, R43, R47): who may attempt whom,
what it costs, and the two dice pools. `resolve.attempt`/`check_attempt` roll with these
functions and the order forms' odds preview reads them (`attempt_pools`), so the preview can
never disagree with the resolution. `defence_read` reads a defend roll back into the tokens
it spent, for the turn report (ENGINE.md reports the pool, not the tokens)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import STAT_TYPE, TYPES, Board, Department, Tokens, no_tokens
from .cli_io import parse_board, parse_tokens
from .errors import EngineError, OrderRejected
from .orders import pool_for, shortfall
from .refusals import refuse

BASE_TN = 7  # R6/R22/R43: rolls are for 7s before alignments
ATTACK_STAT = "impress"  # R43 step 3: the attacker's roll
DEFEND_STAT = "obstruct"  # R43 step 4: the target's roll


def attempt_problem(
    board: Board, player: str | None, attacker: Department, target: Department
) -> str | None:
    """R43, R11, R2: why `attacker` (already known to be the player's) may not attempt
    `target`, or None. The target must be outside the player's structure and consume what
    the attacker produces; the attacker needs a free outgoing link; R44's new link
    attacker->target must fit the target's incoming limit once its links from its old
    structure are gone; and a target on another board needs the player's cross_board shtick
    (R60). Limits are the departments' own where a link_limit shtick replaces them (R60)."""
    if target.structure == player:
        return refuse("already_yours", target=target.slug)
    if len(board.out_links.get(attacker.slug, ())) >= board.out_limit(attacker):
        return refuse("attacker_no_free_out", attacker=attacker.slug)
    if not (target.consumes and attacker.produces and target.consumes[0] == attacker.produces[0]):
        return refuse("not_consumed", target=target.slug, attacker=attacker.slug)
    staying = [
        s
        for s in board.in_links.get(target.slug, ())
        if s != attacker.slug
        and (target.structure is None or board.departments[s].structure != target.structure)
    ]
    if len(staying) >= board.in_limit(target):
        return refuse("target_no_free_in", target=target.slug)
    return board.crossing_problem(player, attacker, target)


def cost_due(target: Department) -> tuple[int, str]:
    """R43 step 1: 2 x the target's consumed amount, by default of the type it consumes."""
    if target.consumes is None:
        raise OrderRejected(refuse("consumes_nothing", target=target.slug))
    return 2 * target.consumes[1], target.consumes[0]


def cost_tokens(target: Department, named: object) -> Tokens:
    """R43 step 1: the cost as tokens: the order's own types (same total) or the default."""
    total, default = cost_due(target)
    if named is None:
        cost = no_tokens()
        cost[default] = total
        return cost
    cost = parse_tokens(named, "cost", OrderRejected)
    if (named_total := sum(cost.values())) != total:
        raise OrderRejected(refuse("wrong_cost", cost=total, named=named_total))
    return cost


@dataclass(frozen=True, slots=True)
class AttackPool:
    """R43 step 3: Impress dice, Linking skill + extra skill, TN 7 + opposed - identical.
    `stat` is the stat rolled; each token of its type (`die_type`, R21) adds a die."""

    dice: int
    skill: int
    tn: int
    identical: int
    opposed: int
    stat: str = ATTACK_STAT

    @property
    def die_type(self) -> str:
        return STAT_TYPE[self.stat]


def attack_pool(
    board: Board, attacker: Department, target: Department, spend: Tokens, *, shticks: bool = True
) -> AttackPool:
    """R43 step 3, R6, R21: the attacker's pool with `spend` spent on it; alignments with
    the offices' (R80), and its controller's attack shticks (R60) unless `shticks` is False
    (R80's election chances leave them out)."""
    identical, opposed = board.catalogue.counts(
        board.alignments(attacker), board.alignments(target)
    )
    dice, extra = pool_for(attacker, ATTACK_STAT, spend)
    if shticks:
        more_dice, more_skill = board.sheets.roll_bonus(
            attacker.structure, "attack", attacker.slug, board.departments
        )
        dice, extra = dice + more_dice, extra + more_skill
    linking = attacker.function_skill("linking") or 0
    return AttackPool(dice, linking + extra, BASE_TN + opposed - identical, identical, opposed)


def defence_spent(target: Department) -> Tokens:
    """R47: the standing defence, spent as far as the stash allows."""
    return {k: min(target.defence[k], target.stash[k]) for k in TYPES}


def defence_pool(
    board: Board, target: Department, defence: Tokens, *, shticks: bool = True
) -> tuple[int, int]:
    """R43 step 4: (dice, skill) of the target's Obstruct roll for 7, skill 0 + spend, plus
    its controller's defend shticks (R60) unless `shticks` is False."""
    dice, skill = pool_for(target, DEFEND_STAT, defence)
    if shticks:
        more_dice, more_skill = board.sheets.roll_bonus(
            target.structure, "defend", target.slug, board.departments
        )
        dice, skill = dice + more_dice, skill + more_skill
    return dice, skill


@dataclass(frozen=True, slots=True)
class DefenceRead:
    """R43 step 4 read back from a defend roll: what made its pool (R21, R47, R60, R80).
    ENGINE.md reports the roll's dice and skill, not the tokens spent, and the turn report
    tells the defender where their tokens went. `spent` holds the tokens of the standing
    defence spent, each type where the bounds tell it; `unsplit` tokens more were spent for
    skill, of the types `among` (two or more), in a split the roll cannot tell (only a bound
    of the stash was known). `shtick_dice`/`shtick_skill`: what the controller's shticks
    and offices added."""

    obstruct: int
    shtick_dice: int
    shtick_skill: int
    spent: Tokens
    unsplit: int = 0
    among: tuple[str, ...] = ()
    stat: str = DEFEND_STAT

    @property
    def die_type(self) -> str:
        return STAT_TYPE[self.stat]

    @property
    def total(self) -> int:
        return sum(self.spent.values()) + self.unsplit


def defence_read(
    state: dict[str, Any], target: str, *, dice: int, skill: int
) -> DefenceRead | None:
    """R21, R43 step 4, R47 backwards: the tokens `target` spent on a defend roll of `dice`
    dice at `skill`, on an ENGINE.md `state` as it stood at that roll: its structures decide
    which shticks and offices count (`defence_pool`), its `defence` is the setting spent
    from, and the target's `stash` is what it held then, or more (a bound: what it may have
    held). Each token of the associated type is a die, each other one a point of skill, so
    the pool without tokens (the engine's own `defence_pool`) leaves exactly what was spent;
    the standing defence as that stash allows it (`defence_spent`) bounds each type, which
    tells the types apart where the bounds meet. None where no spending within those bounds
    gives that pool: the state is not the one the roll was made on. EngineError on bad
    input."""
    board = parse_board(state)
    if target not in board.departments:
        raise EngineError(refuse("odds_unknown_department", slug=target))
    dept = board.departments[target]
    base_dice, base_skill = defence_pool(board, dept, no_tokens())
    own = STAT_TYPE[DEFEND_STAT]
    most = defence_spent(dept)
    dice_tokens, skill_tokens = dice - base_dice, skill - base_skill
    others = [t for t in TYPES if t != own and most[t]]
    if not 0 <= dice_tokens <= most[own]:
        return None
    if not 0 <= skill_tokens <= sum(most[t] for t in others):
        return None
    spent = no_tokens()
    spent[own] = dice_tokens
    # Each other type spent at least what the others' bounds cannot account for, and at
    # most its own bound: where the two meet, the roll tells its count.
    rest = {t: sum(most[u] for u in others if u != t) for t in others}
    low = {t: max(0, skill_tokens - rest[t]) for t in others}
    high = {t: min(most[t], skill_tokens) for t in others}
    open_types = tuple(t for t in others if low[t] != high[t])
    for t in others:
        spent[t] = low[t]
    return DefenceRead(
        obstruct=dept.obstruct,
        shtick_dice=base_dice - dept.obstruct,
        shtick_skill=base_skill,
        spent=spent,
        unsplit=skill_tokens - sum(low.values()),
        among=open_types,
    )


@dataclass(frozen=True, slots=True)
class AttemptPools:
    """Everything a player is shown before an attempt (R43, R6, R47): both pools, the cost
    and whether the attacker's stash covers cost + spend (`short`: type -> (held, needed)).
    `paid` is the cost as the order would pay it: the types it names, else the default
    (`cost_type`), none where `cost_problem`; `cost_named` is the sum it names (None if it
    names none), and `cost_problem` the engine's reason when that sum or the types are
    wrong. `spent` is the extra tokens: with `paid`, what the attempt takes from the
    attacker's stash."""

    attack: AttackPool
    defend_dice: int
    defend_skill: int
    defence_known: bool
    cost: int
    cost_type: str
    cost_problem: str | None
    short: dict[str, tuple[int, int]]
    paid: Tokens
    cost_named: int | None
    spent: Tokens
    defend_stat: str = DEFEND_STAT

    @property
    def defend_die_type(self) -> str:
        """R21: each token of this type the target spends adds a die to its roll."""
        return STAT_TYPE[self.defend_stat]

    @property
    def taken(self) -> Tokens:
        """R43 steps 1 and 3: cost and extra tokens, what the attacker's stash pays."""
        return {t: self.paid[t] + self.spent[t] for t in TYPES}

    @property
    def covered(self) -> bool:
        return not self.short and self.cost_problem is None

    @property
    def base_tn(self) -> int:
        """R6/R43: the target number before alignments (the defender rolls for it)."""
        return BASE_TN


def attempt_pools(
    state: dict[str, Any],
    attacker: str,
    target: str,
    *,
    spend: object = None,
    cost: object = None,
    defence_known: bool = False,
) -> AttemptPools:
    """R43, R6, R21, R47 on an ENGINE.md state, for a preview: the pools as `attempt` rolls
    them (the target's standing defence counts only if `defence_known`, else none is
    assumed). The shticks and offices in the state count (R60, R80): a caller previewing for
    one player passes only what that player may know of the others' (R50). Legality is not
    checked here (see `legal`). EngineError on bad input."""
    board = parse_board(state)
    if attacker not in board.departments or target not in board.departments:
        raise EngineError(refuse("odds_not_departments"))
    att, tgt = board.departments[attacker], board.departments[target]
    spent = parse_tokens(spend, "spend")
    total, kind = cost_due_or_zero(tgt)
    try:
        paid, problem = cost_tokens(tgt, cost), None
    except OrderRejected as rejected:
        paid, problem = no_tokens(), str(rejected)
    defence = defence_spent(tgt) if defence_known else no_tokens()
    dice, skill = defence_pool(board, tgt, defence)
    return AttemptPools(
        attack=attack_pool(board, att, tgt, spent),
        defend_dice=dice,
        defend_skill=skill,
        defence_known=defence_known,
        cost=total,
        cost_type=kind,
        cost_problem=problem,
        short=shortfall(att, {t: paid[t] + spent[t] for t in TYPES}),
        paid=paid,
        cost_named=named_sum(cost),
        spent=spent,
    )


def named_sum(cost: object) -> int | None:
    """The number of tokens an order's cost names; None if it names none (or junk)."""
    if cost is None:
        return None
    try:
        return sum(parse_tokens(cost, "cost").values())
    except EngineError:
        return None


def cost_due_or_zero(target: Department) -> tuple[int, str]:
    """The preview of a target that consumes nothing (no attempt can be made on it)."""
    return cost_due(target) if target.consumes else (0, TYPES[0])

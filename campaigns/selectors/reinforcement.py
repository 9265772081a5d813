"""R46: the reinforcements the defender of an attacked department may queue, as they may see
them (R50), or in words why there is none. The attack notice (services/orders.py) promises a
reinforcement only when this offers one, and the reinforcement form offers exactly these
routes, so the two cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.engine.joined import SEP
from campaigns.engine.legal import Legal, MoveChoice
from campaigns.engine.legal_reinforce import NO_LINK
from campaigns.reasons import site_refusal
from campaigns.selectors.order_context import OrderContext
from campaigns.words import game

# R50: the engine has routes, but each passes a department the defender does not know.
UNSEEN = site_refusal("unseen_way")


@dataclass(frozen=True)
class Reinforcement:
    """The routes offered (start and path, ending at the target), or `reason`: why there is
    none, in the engine's English, naming no department (the attack notice stores it and
    says it in its reader's language, campaigns/words/notices.py)."""

    routes: list[MoveChoice]
    reason: str | None

    @property
    def why_not(self) -> str | None:
        """`reason` as a sentence in the active language."""
        return None if self.reason is None else game.with_names(self.reason, {})


def reinforcement(ctx: OrderContext, target: str, legal: Legal | None = None) -> Reinforcement:
    """The defender's routes to `target` on `ctx`'s board after their queued orders."""
    legal = legal or ctx.legal()
    routes = [
        m
        for m in legal.reinforce(target)
        if ctx.controlled(m.start) and all(ctx.known(s) for s in m.path)
    ]
    if routes:
        return Reinforcement(routes, None)
    if SEP in target and target not in ctx.names:
        # A target on another board (a cross_board shtick, R60) that no link of this board
        # reaches: the board's state holds no stub of it, so the engine cannot say more.
        reason = NO_LINK
    else:
        reason = legal.reinforce_why_not(target) or UNSEEN
    return Reinforcement([], reason)

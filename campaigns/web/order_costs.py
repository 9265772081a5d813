"""What each queued order of the orders page will take from the player's stashes, and an
attempt's chance (RULES R43, R45, R62, R6), as the engine counts them: read from the order
forms' contexts (selectors.order_context), which the page builds anyway, so no row costs a
query. No rules arithmetic here: the numbers are the engine's (engine/attempts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.engine.cli_io import parse_tokens
from campaigns.engine.errors import EngineError
from campaigns.engine.joined import SEP
from campaigns.models import Order
from campaigns.selectors.order_context import OrderContext
from campaigns.web.attempt_preview import attempt_preview
from campaigns.words import labels

Kind = Order.Kind
# The field of each kind that names tokens leaving the player's stashes (R45: spent on a
# function roll; R62: given away). A move carries tokens within the structure: no cost.
SPENT_FIELD = {Kind.FUNCTION: "spend", Kind.GIFT: "tokens"}


@dataclass(frozen=True)
class RowCost:
    """`cost`: the tokens in words ("" for none); for an attempt, its chance to win as a
    percentage, if the attacker cannot pay, what is missing (R43), and if it cannot win,
    why (its row is marked: it still spends its cost and the week's attempt)."""

    cost: str
    chance: str | None = None
    missing: str | None = None
    hopeless: str | None = None


def row_costs(contexts: dict[str, OrderContext]) -> dict[int, RowCost]:
    """Order id -> its cost, for every queued order of the player on every board."""
    costs: dict[int, RowCost] = {}
    for ctx in contexts.values():
        if ctx.board.is_classic:  # R90: megabucks, not tokens; its order's words say them
            continue
        me = ctx.player.player_id
        for order in ctx.state["orders"]:
            if order.get("player") == me and str(order.get("id", "")).isdigit():
                costs[int(order["id"])] = row_cost(ctx, order)
    return costs


def tokens_named(value: object) -> dict[str, int]:
    try:
        return parse_tokens(value, "tokens")
    except EngineError:
        return {}


def row_cost(ctx: OrderContext, order: dict[str, Any]) -> RowCost:
    kind = order.get("kind")
    if kind != Kind.ATTEMPT:
        field = SPENT_FIELD.get(str(kind))
        return RowCost(labels.tokens_text(tokens_named(order.get(field))) if field else "")
    target = str(order.get("target", ""))
    # R50: the odds show the target's Obstruct; an attempt names only targets the player
    # knows, but knowledge may have changed since it was queued.
    if not (ctx.known(target) or SEP in target):
        return RowCost(labels.tokens_text(tokens_named(order.get("spend"))))
    try:
        preview = attempt_preview(ctx, order)
    except (EngineError, KeyError):  # the attacker or target is gone from the board
        return RowCost(labels.tokens_text(tokens_named(order.get("spend"))))
    return RowCost(
        labels.tokens_text(preview.pools.taken), preview.percent, preview.missing, preview.hopeless
    )

"""A classic board's section of the turn report (RULES R93-R99): the seat order, each order
in the order the engine resolved it with its dice (verifiable: 2d6, R23), the income paid,
the groups drawn and who won. Built from the turn's record and order rows the report has
read already: no query of its own.

What a member reads (R99): every group and where it went is public, so every player's
attacks are listed with their target, aim, dice and outcome; a gift of megabucks or of a
group to the reader is theirs to read, amount and all (their treasury shows it); the
figures of an attack (attack, defence, need) and the megabucks of any order only for its own
player, since they tell what was spent from secret treasuries; income only of the reader's
own groups. The GM, and everyone once the GM opens the campaign (R51), reads everything."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.classic.selectors.orders import CLASSIC_KINDS
from campaigns.models import Order, TurnRecord
from campaigns.selectors.report_orders import verify_url
from campaigns.selectors.report_view_models import RollView
from campaigns.words.classic import classic_choice_text, classic_order_text, classic_reason

# The rolls of a classic attack: two dice of six sides (ENGINE.md part 10).
CLASSIC_DICE, CLASSIC_SIDES = 2, 6
PUBLIC_KINDS = (Order.Kind.CLASSIC_ATTACK,)
# The kinds whose text does not say what they are ("from X to Y; 4 MB"): the report names
# them (an attack's text says "attacks", a pass's "Pass").
LABELLED_KINDS = tuple(
    k for k in CLASSIC_KINDS if k not in (Order.Kind.CLASSIC_ATTACK, Order.Kind.CLASSIC_PASS)
)
TO_PLAYER_KINDS = (Order.Kind.CLASSIC_GIFT, Order.Kind.CLASSIC_GIVE)
STANDING_KINDS = (Order.Kind.CLASSIC_DEFEND, Order.Kind.CLASSIC_INTERFERE)


@dataclass(frozen=True)
class ClassicEvent:
    """One order's outcome. `orders` of a BoardReport hold these for a classic board, so the
    report's list of verifiable rolls (TurnReport.rolls) takes theirs too."""

    player: str
    kind_label: str
    text: str
    status: str
    status_label: str
    reason: str
    figures: tuple[int, int, int] | None  # attack, defence, need: its own player's only
    rolls: list[RollView]
    mine: bool
    # A standing defence's or interference's megabucks spent on the attack it met (R96):
    # its own player's only, like every figure of money.
    spent: int | None = None
    # An attack another player made: its figures are theirs (R99), the page says so.
    figures_hidden: bool = False
    is_function: bool = False  # the report's GM note form is for R45's function rolls only


@dataclass(frozen=True)
class ClassicBoardReport:
    name: str
    slug: str
    seat_order: list[str]
    orders: list[ClassicEvent]
    income: list[tuple[str, int]]
    drawn: list[str]
    winners: list[tuple[str, list[str]]]
    classic: bool = True
    # What the standard sections have and a classic one has not (the report's shared code
    # reads them from every board).
    attacks: list[Any] = field(default_factory=list)
    election: Any = None
    pages: Any = None
    account: list[Any] = field(default_factory=list)


def classic_board_report(
    record: TurnRecord, orders: list[Order], *, viewer_id: str, full: bool,
    players: dict[str, str], number: int, campaign: Any,
) -> ClassicBoardReport:  # fmt: skip
    """The section of `record`'s classic board for a viewer whose engine player id is
    `viewer_id` (`full`: sees everything); `orders`: the board's order rows the report read
    (the viewer's own, every player's attacks and gifts)."""
    state, report = record.state, record.report
    names = {g["slug"]: g["name"] for g in state.get("groups", [])}
    # A reason names only what is public: no group in the deck (R99).
    in_play = {g["slug"]: g["name"] for g in state.get("groups", []) if g.get("place") != "deck"}
    controllers = {g["slug"]: g.get("controller") for g in state.get("groups", [])}
    group = lambda slug: names.get(str(slug), str(slug))  # noqa: E731
    player = lambda pid: players.get(str(pid), str(pid))  # noqa: E731
    resolved = list(report.get("orders", {}))
    position = {order_id: index for index, order_id in enumerate(resolved)}
    events = [
        classic_event(order, viewer_id=viewer_id, full=full, group=group, player=player,
                      number=number, campaign=campaign, names={**in_play, **players})
        for order in sorted(orders, key=lambda o: position.get(o.engine_id, len(position)))
        if full or order.player.player_id == viewer_id or order.kind in PUBLIC_KINDS
        or to_viewer(order, viewer_id)
    ]  # fmt: skip
    income = [
        (group(slug), amount)
        for slug, amount in report.get("income", {}).items()
        if full or controllers.get(slug) == viewer_id
    ]
    return ClassicBoardReport(
        name=record.board.name,
        slug=record.board.slug,
        seat_order=[player(pid) for pid in report.get("seat_order", [])],
        orders=events,
        income=income,
        drawn=[group(slug) for slug in report.get("drawn", [])],
        winners=[(player(w["player"]), list(w.get("by", []))) for w in report.get("winners", [])],
    )


def to_viewer(order: Order, viewer_id: str) -> bool:
    """A gift of megabucks or of a group to the viewer (R97): theirs to read, amount and
    all, since their own treasury shows the amount anyway."""
    return order.kind in TO_PLAYER_KINDS and order.payload.get("to_player") == viewer_id


def classic_event(
    order: Order, *, viewer_id: str, full: bool, group: Any, player: Any, number: int,
    campaign: Any, names: dict[str, str],
) -> ClassicEvent:  # fmt: skip
    mine = order.player.player_id == viewer_id
    result = order.result or {}
    own = mine or full
    text = (
        classic_order_text(order.kind, order.payload, group, player)
        if own or to_viewer(order, viewer_id)
        else classic_choice_text(order.kind, order.payload, group, player)
    )
    figures = None
    if own and result.get("need") is not None:
        figures = (int(result["attack"]), int(result["defence"]), int(result["need"]))
    rolls = [
        RollView(
            key=str(roll["key"]),
            dice=int(roll.get("dice", CLASSIC_DICE)),
            skill=None,
            tn=None,
            faces=list(roll.get("faces", [])),
            successes=None,
            verify_url=verify_url(
                campaign, number, str(roll["key"]), CLASSIC_DICE, sides=CLASSIC_SIDES
            ),
        )  # fmt: skip
        for roll in result.get("rolls", [])
    ]
    reason = str(result.get("reason", "")) if own else ""
    spent = result.get("spent") if own and order.kind in STANDING_KINDS else None
    return ClassicEvent(
        player=player(order.player.player_id),
        kind_label=str(Order.Kind(order.kind).label) if order.kind in LABELLED_KINDS else "",
        text=text,
        status=order.status,
        status_label=str(Order.Status(order.status).label)
        if order.status in Order.Status.values
        else order.status,
        reason=classic_reason(reason, names) if reason else "",
        figures=figures,
        rolls=rolls,
        mine=mine,
        spent=int(spent) if isinstance(spent, int) else None,
        figures_hidden=not own and order.kind == Order.Kind.CLASSIC_ATTACK,
    )

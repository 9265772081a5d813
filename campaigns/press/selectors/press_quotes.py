"""A quoted order in a message (press, RULES R62): a link to the reader's own order form,
prefilled with the fields the sender's form held, nothing more.

R50: the fields hold department slugs, and a slug is more than the sender typed. A field
naming a department the reader knows below `known` (on the quote's board) is left out of
the reader's link, so the site puts no hidden department into their page; their order form
offers only what they may see anyway."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.models import Board, Campaign, Membership, Order
from campaigns.selectors.board_views import node_key
from campaigns.selectors.visibility import (
    Level,
    department_rows,
    is_gm,
    level_of,
    viewer_knowledge,
)

# A field's value names departments by slug, alone or joined ("a,b,c", "a|b,c").
TOKEN = re.compile(r"[^\w-]+")


@dataclass(frozen=True)
class QuoteView:
    summary: str  # "Move on The City"
    label: str  # the link's words
    url: str | None  # None for members who queue no orders (the GM, observers)


@dataclass(frozen=True)
class Quotes:
    """What quote links need for one reader: board names (public to every member) and, per
    board, the slugs the reader may not see."""

    reader: Membership
    boards: dict[str, str]
    hidden: dict[str, frozenset[str]]
    # R62: below `rumoured`: an accept names a department the offer made rumoured to them,
    # by its id (`pks`, board -> slug -> id), not its slug.
    unheard: dict[str, frozenset[str]]
    pks: dict[str, dict[str, int]]


def quotes_for(reader: Membership) -> Quotes:
    """Three queries (one for the GM)."""
    campaign = reader.campaign
    boards = dict(Board.objects.filter(campaign=campaign).values_list("slug", "name"))
    hidden: dict[str, set[str]] = {slug: set() for slug in boards}
    unheard: dict[str, set[str]] = {slug: set() for slug in boards}
    pks: dict[str, dict[str, int]] = {slug: {} for slug in boards}
    if not is_gm(reader):
        knowledge = viewer_knowledge(reader, board__campaign=campaign)
        for dept in department_rows(board__campaign=campaign).select_related("board"):
            pks[dept.board.slug][dept.slug] = dept.pk
            level = level_of(dept, reader, knowledge)
            if level < Level.KNOWN:
                hidden[dept.board.slug].add(dept.slug)
                # The election's forms name departments by their opaque keys (R80).
                hidden[dept.board.slug].add(node_key(dept.board_id, dept.slug))
            if level < Level.RUMOURED:
                unheard[dept.board.slug].add(dept.slug)
    return Quotes(
        reader,
        boards,
        {b: frozenset(s) for b, s in hidden.items()},
        {b: frozenset(s) for b, s in unheard.items()},
        pks,
    )


def quote_view(quote: dict[str, object], quotes: Quotes) -> QuoteView | None:
    board, kind, fields = quote.get("board"), quote.get("kind"), quote.get("fields")
    if board not in quotes.boards or kind not in Order.Kind.values or not isinstance(fields, dict):
        return None
    board, kind = str(board), str(kind)
    summary = _("%(kind)s on %(board)s") % {
        "kind": Order.Kind(kind).label,
        "board": quotes.boards[board],
    }
    label = _("Order form: %(order)s, prefilled") % {"order": summary}
    reader = quotes.reader
    if reader.role != Membership.Role.PLAYER:
        return QuoteView(summary=summary, label=label, url=None)
    kind, fields = for_reader(kind, fields, quote.get("by"), quotes, board)
    if kind == Order.Kind.ACCEPT:
        label = _("Order form: %(order)s, prefilled") % {
            "order": _("%(kind)s on %(board)s")
            % {"kind": Order.Kind(kind).label, "board": quotes.boards[board]}
        }
    shown = {
        name: values
        for name, values in fields.items()
        if isinstance(values, list) and not names_hidden(values, quotes.hidden[board])
    }
    path = reverse("order_new", args=[reader.campaign.slug, board, kind])
    return QuoteView(summary=summary, label=label, url=f"{path}?{urlencode(shown, doseq=True)}")


def for_reader(
    kind: str, fields: dict[str, object], by: object, quotes: Quotes, board: str
) -> tuple[str, dict[str, object]]:
    """R62: a quoted deal as the reader would answer it. A gift: the reader's own gift form
    with the sender's giving department as its receiver (a gift in return). A hand-over to
    the reader: their accept form with that offer chosen, the department by its id where
    they have heard of it (R50), and the giver only where press names senders (under grey
    press it would say who wrote). Other kinds as they are."""
    reader = quotes.reader
    if kind == Order.Kind.GIFT:
        return kind, {"receiver": fields["giver"]} if "giver" in fields else {}
    if kind != Order.Kind.HANDOVER or fields.get("receiver") != [reader.player_id]:
        return kind, fields
    named = isinstance(by, str) and reader.campaign.press_rules != Campaign.PressRules.GREY
    department = fields.get("department")
    slug = str(department[0]) if isinstance(department, list) and department else ""
    pk = quotes.pks[board].get(slug)
    if named and pk is not None and slug not in quotes.unheard[board]:
        return Order.Kind.ACCEPT, {"offer": [f"{pk}|{by}"]}
    return Order.Kind.ACCEPT, {}


def names_hidden(values: list[object], hidden: frozenset[str]) -> bool:
    return any(token in hidden for value in values for token in TOKEN.split(str(value)))

"""The order forms of a classic board (RULES R90, R94-R97): a player queues each kind the
engine offers; an attack's preview shows its need term by term and its exact chance (R95),
without the defender's treasury or standing defence (R99: secret, so counted as none)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.classic.selectors.orders import (
    CLASSIC_KINDS,
    ClassicOrderContext,
    classic_order_context,
)
from campaigns.classic.web.order_forms import ClassicOrderForm
from campaigns.engine.errors import EngineError
from campaigns.models import Board, Membership, Order, Turn
from campaigns.selectors import orders as order_reads
from campaigns.selectors.order_checks import OrderRefused
from campaigns.services import orders as service
from campaigns.web.access import board_of, open_turn_of, player_of, posted
from campaigns.words.classic import term_word
from campaigns.words.labels import in_text, percent_text


@dataclass(frozen=True)
class AttackPreview:
    """R95: the need's terms in words (only those that are not 0), the need, the chance."""

    attack: list[tuple[str, int]]
    defence: list[tuple[str, int]]
    attack_total: int
    defence_total: int
    need: int
    percent: str
    fraction: str


def attack_preview_of(ctx: ClassicOrderContext, payload: dict[str, Any]) -> AttackPreview:
    found = ctx.preview(payload)
    attack = [(term_word(t), n) for t, n in found["attack"] if n or t == "power"]
    defence = [(term_word(t), n) for t, n in found["defence"] if n or t in ("resistance", "power")]
    chance = found["chance"]
    return AttackPreview(
        attack, defence, sum(n for _, n in attack), sum(n for _, n in defence), found["need"],
        percent_text(100 * float(chance)), f"{chance.numerator}/{chance.denominator}",
    )  # fmt: skip


def edited_order(request: HttpRequest, viewer: Membership, board: Board, kind: str) -> Order | None:
    """The viewer's queued order `?order=<id>` of `kind` on `board`, None without the
    parameter; 404 for anything else (another player's orders do not exist for them)."""
    raw = request.GET.get("order")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Http404("no such order")
    order = order_reads.own_order(viewer, int(raw))
    if order is None or (order.board_id, order.kind) != (board.pk, kind):
        raise Http404("no such order")
    if order.status != Order.Status.QUEUED:
        raise Http404("no such queued order")
    return order


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def classic_order(request: HttpRequest, slug: str, board_slug: str, kind: str) -> HttpResponse:
    """One classic order's form; POST queues it (the engine judges it first) or, for an
    attack with "Preview", shows its need and chance instead."""
    viewer = player_of(request, slug)
    board = board_of(viewer, board_slug)
    if not board.is_classic or kind not in CLASSIC_KINDS:
        raise Http404("no such order kind on this board")
    turn = open_turn_of(viewer)
    if turn.status != Turn.Status.OPEN:
        messages.error(request, _("The turn takes no orders now."))
        return redirect("orders", slug)
    ctx = classic_order_context(viewer, turn, board)
    # R40: `?order=<id>` edits the viewer's queued order of this kind on this board.
    editing = edited_order(request, viewer, board, kind)
    initial = ClassicOrderForm.initial_from(kind, editing.payload) if editing else None
    form = ClassicOrderForm(posted(request), ctx=ctx, kind=kind, initial=initial)
    preview = None
    if request.method == "POST" and form.is_valid():
        if kind == Order.Kind.CLASSIC_ATTACK and "preview" in request.POST:
            try:
                preview = attack_preview_of(ctx, form.payload())
            except EngineError as problem:
                form.add_error(None, ctx.reason_words(str(problem)))
        else:
            try:
                if editing is not None:
                    service.order_edit(player=viewer, order=editing, payload=form.payload())
                else:
                    service.orders_submit(
                        player=viewer, turn=turn, board=board, kind=kind,
                        payload=form.payload(),
                        client_token=form.cleaned_data.get("client_token") or "",
                    )  # fmt: skip
            except (OrderRefused, ValidationError) as refused:
                form.add_error(None, str(refused) if isinstance(refused, OrderRefused) else refused)
            else:
                title = str(Order.Kind(kind).label)
                messages.success(request, _("%(title)s: queued.") % {"title": title})
                return redirect("orders", slug)
    title = (_("Edit %(kind)s on %(board)s") if editing else _("%(kind)s on %(board)s")) % {
        "kind": in_text(str(Order.Kind(kind).label)) if editing else str(Order.Kind(kind).label),
        "board": board.name,
    }  # fmt: skip
    context = {
        "campaign": viewer.campaign,
        "form": form,
        "title": title,
        "kind_words": in_text(str(Order.Kind(kind).label)),
        "preview": preview,
        "is_attack": kind == Order.Kind.CLASSIC_ATTACK,
        # R97: the accept form offers every group in play; only one given to the player
        # this turn comes to them, and the orders page lists those with one button each.
        "is_accept": kind == Order.Kind.CLASSIC_ACCEPT,
        "is_give": kind == Order.Kind.CLASSIC_GIVE,
    }
    return render(request, "classic/order_form.html", context)

"""The weekly order pages (RULES R40-R47). Views check who may do what, read through the
selectors and write through services.orders; the engine judges the orders."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.classic.selectors.offers import GroupOffer, classic_gives, classic_group_offers
from campaigns.classic.selectors.orders import (
    ClassicOffer,
    classic_kinds_offered,
    classic_order_context,
)
from campaigns.elections.web.election_warnings import election_warnings, preview_posts
from campaigns.models import Board, Membership, Order, Turn
from campaigns.selectors import order_checks
from campaigns.selectors import orders as order_reads
from campaigns.selectors.order_checks import OrderRefused
from campaigns.selectors.order_context import OrderContext, order_contexts
from campaigns.selectors.pages import BoardLink
from campaigns.selectors.reinforcement import reinforcement
from campaigns.services import orders as service
from campaigns.web.access import (
    board_of,
    found,
    member_of,
    not_a_player,
    open_turn_of,
    player_of,
    posted,
)
from campaigns.web.order_choices import form_choices, kinds_offered, why_not
from campaigns.web.order_costs import row_costs
from campaigns.web.order_form_base import NOT_PREFILLED, OrderForm
from campaigns.web.order_forms import FORMS, AttemptForm, DefenceForm, ReinforceForm
from campaigns.web.post_only import post_only
from campaigns.words.labels import in_text

Kind = Order.Kind


def classic_offers(viewer: Membership, turn: Turn, board: Board) -> list[ClassicOffer]:
    return classic_kinds_offered(classic_order_context(viewer, turn, board))


def classic_group_offers_of(
    viewer: Membership, turn: Turn, contexts: dict[str, OrderContext]
) -> list[GroupOffer]:
    """R97: the groups given to the viewer this turn on every classic board, each with the
    one button that accepts it (one query for the gifts, none without a classic board)."""
    classic = [c.board for c in contexts.values() if c.board.is_classic]
    if not classic:
        return []
    gives = classic_gives(viewer, turn)
    if not gives:
        return []
    return [
        offer
        for board in classic
        for offer in classic_group_offers(classic_order_context(viewer, turn, board), gives)
    ]


def own_order(viewer: Membership, pk: int) -> Order:
    """The viewer's own order, else 404: another player's orders do not exist for them."""
    return found(order_reads.own_order(viewer, pk), "no such order")


@require_safe
@login_required
def orders(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's week: queued orders (R40), forms per board, readiness, attacks (R46)."""
    viewer = member_of(request, slug)
    if viewer.role != Membership.Role.PLAYER:
        return not_a_player(request, viewer)  # the GM and observers: the campaign page
    turn = open_turn_of(viewer)
    contexts = order_contexts(viewer, turn) if turn.status == Turn.Status.OPEN else {}
    # The boards the contexts read, in the same order (by name): not read again.
    boards = [
        BoardLink(name=c.board.name, slug=c.board.slug, classic=c.board.is_classic)
        for c in contexts.values()
    ]
    # The turn's orders the contexts read with those around the player: not read again.
    shared = next((c.shared for c in contexts.values() if c.shared is not None), None)
    page = order_reads.orders_page(viewer, turn, boards or None, shared and shared.orders)
    context: dict[str, Any] = {
        "campaign": viewer.campaign,
        "page": page,
        # R41-R47: per board, each kind's button, or in one line why there is nothing to order;
        # a classic board (R90) its own kinds (R94-R97, classic_kinds_offered), the third item.
        "offers": [
            (b, None, classic_offers(viewer, turn, contexts[b.slug].board))
            if contexts[b.slug].board.is_classic
            else (b, kinds_offered(contexts[b.slug]), None)
            for b in page.boards
            if b.slug in contexts
        ],
        "group_offers": classic_group_offers_of(viewer, turn, contexts),
        # Linking attempts' cutoff (R46) and standing defence of departments (R47) are
        # parts 1-9's: a campaign of classic boards only does not mention them (R90).
        "standard_boards": any(not c.board.is_classic for c in contexts.values()),
        # R80: queued orders the election would reject, and the election page while it runs.
        "warnings": election_warnings(contexts),
        "election": any(ctx.state.get("election") for ctx in contexts.values()),
        # R43, R45, R62: what each queued order spends, and an attempt's odds (R6).
        "costs": row_costs(contexts),
        # R46: for each attack on the viewer, why no reinforcement can be queued, if none can
        # (the button would open a form with nothing to choose).
        "no_reinforcement": {
            attack.pk: reinforcement(contexts[attack.board], attack.target).why_not
            for attack in page.attacks
            if attack.board in contexts
        },
    }
    return render(request, "campaigns/orders/orders.html", context)


def order_form_page(
    request: HttpRequest,
    viewer: Membership,
    form: OrderForm,
    *,
    title: str,
    submit: Any,
    saved: dict[str, Any] | None = None,
) -> HttpResponse:
    """POST: validate, hand to the service; a refusal is a form error and stores nothing.
    The attempt form's "Preview" button re-renders with the odds (R43) instead. `saved`:
    the fields of the order being edited, so saving it unchanged says so."""
    preview = None
    posts: list[str] = []  # R80: offices the previewed attempt's departments hold
    if request.method == "POST":
        if isinstance(form, AttemptForm) and "preview" in request.POST:
            preview = form.preview()
            posts = preview_posts(form.ctx, form.payload()) if preview else []
        elif form.is_valid():
            was_ready = order_reads.is_ready(viewer, form.ctx.turn)
            try:
                submit(form.payload(), form.cleaned_data.get("client_token") or "")
            except ValidationError as invalid:
                form.add_error(None, invalid)
            except OrderRefused as refused:
                form.add_error(None, str(refused))
            else:
                done = (
                    _("%(title)s: nothing changed.")
                    if saved is not None and service.same_fields(form.payload(), saved)
                    else _("%(title)s: queued.")
                )
                messages.success(request, done % {"title": title})
                # A form posted twice changes nothing the second time: ready stays.
                tell_if_unready(
                    request, was_ready and not order_reads.is_ready(viewer, form.ctx.turn)
                )
                return redirect("orders", viewer.campaign.slug)
    quotable = form.kind in FORMS
    context = {
        "campaign": viewer.campaign,
        "form": form,
        "title": title,
        "preview": preview,
        "preview_posts": posts,
        "is_attempt": isinstance(form, AttemptForm),
        # Press: the form's fields as a quoted order in a message (press/web/press.py).
        "quote_url": reverse(
            "press_quote", args=[viewer.campaign.slug, form.ctx.board.slug, form.kind]
        )
        if quotable
        else None,
    }
    return render(request, "campaigns/orders/order_form.html", context)


def say_if_nothing_to_choose(form: OrderForm) -> None:
    """A form whose kind has no legal choice now, opened from a bookmark or an older page
    after the GM changed a stash or another tab used the tokens: the page gives the orders
    page's reason for offering no button, instead of empty lists."""
    if not form_choices(form.ctx, form.kind, form.legal):
        form.nothing_to_choose(why_not(form.ctx, form.kind, form.legal))


def prefill(form: OrderForm, query: QueryDict) -> None:
    """A link to a new order's form may carry the form's fields in its query string (a
    quoted order, press/web/press.py): they become the form's initial values, nothing more. The
    form still offers only what the engine allows and R50 shows; a value it does not
    offer is simply not selected."""
    for name, field in form.fields.items():
        if name in NOT_PREFILLED or name not in query:
            continue
        multiple = isinstance(field, forms.MultipleChoiceField)
        form.initial[name] = query.getlist(name) if multiple else query.get(name)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def order_new(request: HttpRequest, slug: str, board_slug: str, kind: str) -> HttpResponse:
    viewer = player_of(request, slug)
    if kind not in FORMS:
        raise Http404("no such order kind")
    turn = open_turn_of(viewer)
    board = board_of(viewer, board_slug)
    ctx = OrderContext.build(viewer, turn, board)
    form = FORMS[kind](posted(request), ctx=ctx)
    say_if_nothing_to_choose(form)
    if request.method != "POST":
        prefill(form, request.GET)

    def submit(payload: dict[str, Any], token: str) -> Order:
        return service.orders_submit(
            player=viewer, turn=turn, board=board, kind=kind, payload=payload, client_token=token
        )

    return order_form_page(
        request,
        viewer,
        form,
        title=_("%(kind)s on %(board)s") % {"kind": Kind(kind).label, "board": board.name},
        submit=submit,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def order_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    viewer = player_of(request, slug)
    order = own_order(viewer, pk)
    if order.status != Order.Status.QUEUED:
        messages.error(request, _("Only queued orders can be changed."))
        return redirect("orders", slug)
    if order.board.is_classic:  # R90: its form is the classic one (classic/web/orders.py)
        url = reverse("classic_order", args=[slug, order.board.slug, order.kind])
        return redirect(f"{url}?order={order.pk}")
    ctx = OrderContext.build(viewer, order.turn, order.board)
    cls = ReinforceForm if order.kind == Kind.REINFORCE else FORMS[order.kind]
    extra: dict[str, Any] = {}
    if cls is ReinforceForm:
        extra["attempt"] = found(order_reads.answered_attempt(order), "no such attempt")
    form = cls(posted(request), ctx=ctx, initial=cls.initial_from(order.payload), **extra)
    if cls is not ReinforceForm:  # it says why itself (R46)
        say_if_nothing_to_choose(form)

    def submit(payload: dict[str, Any], token: str) -> Order:
        return service.order_edit(player=viewer, order=order, payload=payload)

    title = _("Edit %(kind)s on %(board)s") % {
        "kind": in_text(order.get_kind_display()),
        "board": order.board.name,
    }
    return order_form_page(
        request, viewer, form, title=title, submit=submit, saved=dict(order.payload)
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def order_reinforce(request: HttpRequest, slug: str, attempt_pk: int) -> HttpResponse:
    """R46: only the target's controller, only for a queued attempt of the open turn."""
    viewer = player_of(request, slug)
    turn = open_turn_of(viewer)
    attempts = order_reads.attempts_against(viewer, turn)
    attempt = next((a for a in attempts if a.pk == attempt_pk), None)
    if attempt is None:
        return reinforcement_gone(request, viewer, turn, attempt_pk)
    ctx = OrderContext.build(viewer, turn, attempt.board)
    form = ReinforceForm(posted(request), ctx=ctx, attempt=attempt)

    def submit(payload: dict[str, Any], token: str) -> Order:
        return service.orders_submit(
            player=viewer, turn=turn, board=attempt.board, kind=Kind.REINFORCE,
            payload=payload, client_token=token,
        )  # fmt: skip

    target = ctx.name(attempt.payload.get("target"))
    return order_form_page(
        request, viewer, form, title=_("Reinforce %(target)s") % {"target": target}, submit=submit
    )


def reinforcement_gone(
    request: HttpRequest, viewer: Membership, turn: Turn, attempt_pk: int
) -> HttpResponse:
    """The link of an attack notice (R46) whose attempt is no longer queued against the
    viewer: from a past turn, the report of that turn, where the notice stands; from this
    turn (the attacker withdrew it), the orders page saying so. A link the viewer was never
    sent is a 404, like any attempt of another player's."""
    slug = viewer.campaign.slug
    told = order_reads.notice_turn(viewer, reverse("order_reinforce", args=[slug, attempt_pk]))
    if told is None:
        raise Http404("no such attempt against your departments")
    if told.pk != turn.pk and told.status == Turn.Status.PROCESSED:
        return redirect(reverse("turn_report", args=[slug, told.number]) + "#turn-notices")
    messages.info(
        request,
        _("That attack is no longer queued against you: there is nothing to reinforce."),
    )
    return redirect("orders", slug)


def refused_to_message(request: HttpRequest, action: Any, done: str = "") -> bool:
    """Run a service call; a refusal becomes an error message, success the `done` one."""
    try:
        action()
    except OrderRefused as refused:
        messages.error(request, str(refused))
        return False
    if done:
        messages.success(request, done)
    return True


def tell_if_unready(request: HttpRequest, was_ready: bool) -> None:
    """Changing orders clears "ready" (services.orders.order_changed): say so."""
    if was_ready:
        messages.info(
            request,
            _(
                "Your orders changed, so you are no longer marked ready. "
                "Mark them ready again when you are done."
            ),
        )


def orders_change(
    request: HttpRequest, viewer: Membership, turn: Turn, action: Any, done: str = ""
) -> None:
    """A service call that changes the viewer's orders, with the messages it deserves."""
    was_ready = order_reads.is_ready(viewer, turn)
    if refused_to_message(request, action, done):
        tell_if_unready(request, was_ready and not order_reads.is_ready(viewer, turn))


@post_only("orders", "slug")
@login_required
def order_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    viewer = player_of(request, slug)
    order = own_order(viewer, pk)
    orders_change(
        request, viewer, order.turn,
        lambda: service.order_cancel(player=viewer, order=order),
        done=_("%(kind)s on %(board)s: cancelled.")
        % {"kind": order.get_kind_display(), "board": order.board.name},
    )  # fmt: skip
    return redirect("orders", slug)


@post_only("orders", "slug")
@login_required
def order_shift(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Move one order up or down the player's sequence (R40)."""
    viewer = player_of(request, slug)
    order = own_order(viewer, pk)
    ids = [o.pk for o in order_checks.queued_orders(player=viewer, turn=order.turn)]
    if order.pk in ids:
        i = ids.index(order.pk)
        j = i - 1 if request.POST.get("direction") == "up" else i + 1
        if 0 <= j < len(ids):
            ids[i], ids[j] = ids[j], ids[i]
    orders_change(
        request, viewer, order.turn,
        lambda: service.orders_reorder(player=viewer, turn=order.turn, order_ids=ids),
    )  # fmt: skip
    return redirect("orders", slug)


@post_only("orders", "slug")
@login_required
def turn_ready(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = player_of(request, slug)
    turn = open_turn_of(viewer)
    ready = request.POST.get("ready") == "1"
    done = (
        _("Marked ready: your orders are complete. Changing any order clears this.")
        if ready
        else _("No longer marked ready.")
    )
    refused_to_message(
        request, lambda: service.turn_mark_ready(player=viewer, turn=turn, ready=ready), done
    )
    return redirect("orders", slug)


@post_only("campaign", "slug")
@login_required
def notices_read(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = member_of(request, slug)
    service.notices_mark_read(player=viewer)
    return redirect(viewer.campaign)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def department_defence(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> HttpResponse:
    """R47: the standing defence of one of the player's own departments (404 otherwise).
    A setting beyond the stash is kept (the stash may grow by then) but the player is told."""
    viewer = player_of(request, slug)
    board = board_of(viewer, board_slug)
    row = found(order_reads.own_department(viewer, board.pk, dept_slug), "not your department")
    dept = order_reads.defence_view(row)
    assert dept.private is not None
    initial = {f"defence_{a.kind}": a.amount for a in dept.private.defence}
    form = DefenceForm(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = service.department_set_defence(
                player=viewer, department=row, defence=form.defence()
            )
        except OrderRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(
                request, _("Standing defence of %(name)s saved.") % {"name": dept.name}
            )
            private = order_reads.defence_view(saved).private
            if beyond := private.defence_beyond_stash if private else []:
                messages.warning(
                    request,
                    _(
                        "%(name)s holds less %(kinds)s than that now: when it is "
                        "attacked it spends only what it holds then (R47)."
                    )
                    % {"name": dept.name, "kinds": _(" and ").join(str(k) for k in beyond)},
                )
            return redirect("orders", slug)
    context = {
        "campaign": viewer.campaign,
        "form": form,
        "dept": dept,
        "action": reverse("department_defence", args=[slug, board_slug, dept_slug]),
    }
    return render(request, "campaigns/orders/defence.html", context)

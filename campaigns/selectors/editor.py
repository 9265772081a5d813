"""Reads for the GM's board and department editor (RULES R4, R10-R13, R53): the engine's
review of a change put into words, what a department looks like in the audit log, and the
editor's pages. The GM sees everything (R50), so these name every department.

Every page is a fixed number of queries whatever the number of departments."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from campaigns.engine.board import DEFAULT_ALIGNMENTS
from campaigns.engine.edit import review
from campaigns.engine.scope import SLUG_FIELDS, SLUG_LIST_FIELDS
from campaigns.models import Board, Campaign, Department, Link, Membership, Order, Turn
from campaigns.models.board import Resource
from campaigns.selectors.state import board_state
from campaigns.selectors.visibility import department_rows
from campaigns.words import game

DEPARTMENTS_PER_PAGE = 50


# --- The engine's review in words -----------------------------------------------------------------


def player_names(campaign: Campaign) -> dict[str, str]:
    """The engine's player id -> the player's name, for every member (one query)."""
    members = campaign.memberships.select_related("user")
    return {m.player_id: m.display_name for m in members}


def change_review(
    board: Board,
    before: dict[str, Any],
    after: dict[str, Any],
    *,
    new_links: Iterable[tuple[str, str]] = (),
    watch: Iterable[str] = (),
) -> tuple[list[str], list[str]]:
    """The engine's verdict on a GM's change of `board` (engine/edit.py), as (refusals,
    notes) for the GM, departments by name and players by name, with the rule ids."""
    verdict = review(before, after, new_links=new_links, watch=watch)
    names = {d["slug"]: d["name"] for d in before["departments"]}
    names.update({d["slug"]: d["name"] for d in after["departments"]})
    refusals = [game.with_names(verdict.refusal, names)] if verdict.refusal else []
    if verdict.stranded:
        players = player_names(board.campaign)
        refusals += [
            game.stranded_text(names[s.slug], players.get(s.structure, s.structure))
            for s in verdict.stranded
        ]
    # R36 discards only at the next spawn: the GM may mean the tokens to be spent first.
    notes = [
        game.discard_text(names[slug], d.tokens, d.capacity) for slug, d in verdict.discards.items()
    ]
    notes += [game.unfunded_text(names[slug], t) for slug, t in verdict.unfunded.items()]
    return refusals, notes


# --- A department as the audit log keeps it -------------------------------------------------------


def resource_text(kind: str, amount: int) -> str:
    return f"{Resource(kind).label} {amount}" if kind and amount else "nothing"


def department_record(dept: Department) -> dict[str, Any]:
    """Every field the GM edits, as plain JSON (the audit log's before and after, R53).
    `structure` must be loaded with its player and user (department_rows does)."""
    controller = dept.structure.player.user.get_username() if dept.structure_id else None
    return {
        "slug": dept.slug,
        "name": dept.name,
        "description": dept.description,
        "effect": dept.effect,
        "obstruct": dept.obstruct,
        "impress": dept.impress,
        "consumes": resource_text(dept.consumes_type, dept.consumes_amount),
        "produces": resource_text(dept.produces_type, dept.produces_amount),
        "functions": dict(dept.functions),
        "alignments": list(dept.alignments),
        "flaws": dept.flaws,
        "stash": dept.stash,
        "controller": controller,
        "home": dept.home,
    }


def changed_fields(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict, dict]:
    """Only what changed, on both sides (the slug always, to say which department)."""
    keys = [k for k in after if before.get(k) != after[k]]
    return (
        {"slug": before.get("slug"), **{k: before.get(k) for k in keys}},
        {"slug": after.get("slug"), **{k: after[k] for k in keys}},
    )


# --- Lookups --------------------------------------------------------------------------------------


def department_for(board: Board, slug: str) -> Department | None:
    return department_rows(board=board, slug=slug).first()


def department_by_pk(board: Board, pk: int) -> Department | None:
    return Department.objects.filter(board=board, pk=pk).first()


def link_for(board: Board, pk: int) -> Link | None:
    return Link.objects.filter(board=board, pk=pk).select_related("supplier", "consumer").first()


def active_players(campaign: Campaign) -> list[Membership]:
    """The players who may hold a structure (R13), by name: one query."""
    members = campaign.memberships.filter(role=Membership.Role.PLAYER).select_related("user")
    return sorted(members, key=lambda m: m.display_name.casefold())


def catalogue_names(campaign: Campaign) -> list[str]:
    """Every alignment of the campaign's catalogue (R5), opposites included, in catalogue
    order: what a department may hold. A campaign without a catalogue of its own plays
    with the default one (selectors/state.py), so that is what is offered."""
    return names_of([a.as_engine() for a in campaign.alignments.order_by("pk")])


def names_of(catalogue: list[dict[str, object]]) -> list[str]:
    """`catalogue_names` of a catalogue already read (the default one if it is empty)."""
    entries = catalogue or DEFAULT_ALIGNMENTS
    names: list[str] = []
    for entry in entries:
        for name in (entry.get("name"), entry.get("opposite")):
            if isinstance(name, str) and name.casefold() not in {n.casefold() for n in names}:
                names.append(name)
    return names


# --- The board editor -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DepartmentLine:
    name: str
    slug: str
    controller: str | None
    home: bool
    consumes: str
    produces: str
    links: int


@dataclass(frozen=True)
class BoardEditorPage:
    board: Board
    departments: Page[Department]
    lines: list[DepartmentLine]
    played: bool  # the board has turn records (R51): it cannot be removed


def board_editor_page(board: Board, *, page: object = 1) -> BoardEditorPage:
    """One page of the board's departments, by name, with their links counted: 4 queries."""
    rows = (
        department_rows(board=board)
        .annotate(
            outgoing=Count("out_links", distinct=True),
            incoming=Count("in_links", distinct=True),
        )
        .order_by("name", "slug")
    )
    departments = Paginator(rows, DEPARTMENTS_PER_PAGE).get_page(page)
    lines = [
        DepartmentLine(
            name=d.name,
            slug=d.slug,
            controller=d.structure.player.display_name if d.structure_id else None,
            home=d.home,
            consumes=resource_text(d.consumes_type, d.consumes_amount),
            produces=resource_text(d.produces_type, d.produces_amount),
            links=d.outgoing + d.incoming,
        )
        for d in departments
    ]
    return BoardEditorPage(board, departments, lines, board.records.exists())


# --- One department's page ------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkLine:
    """A link of the department's page: `partner` is the other end, by name."""

    pk: int
    partner: str
    resource: str
    priority: int
    first: bool
    last: bool


@dataclass(frozen=True)
class DepartmentLinks:
    outgoing: list[LinkLine]  # its consumers, first fed first (R12)
    incoming: list[LinkLine]  # its suppliers


def department_links(dept: Department) -> DepartmentLinks:
    """The department's links both ways: one query."""
    rows = list(
        Link.objects.filter(Q(supplier=dept) | Q(consumer=dept))
        .select_related("supplier", "consumer")
        .order_by("priority", "pk")
    )
    out = [link for link in rows if link.supplier_id == dept.pk]
    into = sorted((link for link in rows if link.consumer_id == dept.pk), key=lambda x: x.pk)

    def line(link: Link, partner: Department, index: int, total: int) -> LinkLine:
        kind = link.supplier.produces_type
        resource = Resource(kind).label if kind else ""
        return LinkLine(link.pk, partner.name, resource, index, index == 0, index == total - 1)

    return DepartmentLinks(
        outgoing=[line(x, x.consumer, i, len(out)) for i, x in enumerate(out)],
        incoming=[line(x, x.supplier, i, len(into)) for i, x in enumerate(into)],
    )


def partner_choices(board: Board, dept: Department) -> list[tuple[int, str]]:
    """Every other department of the board, for checking a posted new link: the engine
    judges the pair (R10-R11) and says why one cannot be made. One query."""
    rows = Department.objects.filter(board=board).exclude(pk=dept.pk).order_by("name", "slug")
    return list(rows.values_list("pk", "name"))


def link_offers(dept: Department, direction: str) -> list[tuple[int, str]]:
    """The departments a new link of `dept` may join (R10): `out`, those that consume what
    it produces; `in`, those that produce what it consumes; neither it nor one it is
    already linked with that way. Each with its resources, so the GM sees why it fits. One
    query, none for a department that produces (or consumes) nothing."""
    out = direction == "out"
    kind = dept.produces_type if out else dept.consumes_type
    if not kind:
        return []
    rows = Department.objects.filter(board_id=dept.board_id).exclude(pk=dept.pk)
    if out:
        rows = rows.filter(consumes_type=kind).exclude(in_links__supplier=dept)
    else:
        rows = rows.filter(produces_type=kind).exclude(out_links__consumer=dept)
    fields = ("pk", "name", "consumes_type", "consumes_amount", "produces_type", "produces_amount")
    return [
        (pk, _("%(name)s (consumes %(consumes)s, produces %(produces)s)")
         % {"name": name, "consumes": amount_text(ct, ca), "produces": amount_text(pt, pa)})
        for pk, name, ct, ca, pt, pa in rows.order_by("name", "slug").values_list(*fields)
    ]  # fmt: skip


def no_offer_text(dept: Department, direction: str) -> str:
    """Why `link_offers` offers nothing, in words (R10)."""
    if direction == "out":
        if not dept.produces_type:
            return _("%(name)s produces nothing, so it supplies no department (R10).") % {
                "name": dept.name
            }
        text = _("No other department of this board consumes %(type)s without it (R10).")
        return text % {"type": Resource(dept.produces_type).label}
    if not dept.consumes_type:
        return _("%(name)s consumes nothing, so no department supplies it (R10).") % {
            "name": dept.name
        }
    text = _("No other department of this board produces %(type)s for it (R10).")
    return text % {"type": Resource(dept.consumes_type).label}


def amount_text(kind: str, amount: int) -> str:
    """'Money 2', or 'nothing', in the reader's language."""
    return f"{Resource(kind).label} {amount}" if kind and amount else _("nothing")


# --- What a removal takes with it -----------------------------------------------------------------


def orders_naming(board: Board, slug: str) -> int:
    """Queued orders of the open turn on `board` that name department `slug` (R40: they
    will be rejected when the turn is processed, as naming no department of the board)."""
    queued = Order.objects.filter(
        board=board, status=Order.Status.QUEUED, turn__status=Turn.Status.OPEN
    )
    count = 0
    for payload in queued.values_list("payload", flat=True):
        named = [payload.get(f) for f in SLUG_FIELDS]
        for field in SLUG_LIST_FIELDS:
            if isinstance(payload.get(field), list):
                named += payload[field]
        count += slug in named
    return count


@dataclass(frozen=True)
class DepartmentRemoval:
    links: list[str]  # "A → B", both ways
    known_by: int  # members with a stored level for it (R50)
    orders: int  # queued orders naming it (rejected at processing, R40)
    blocked: list[str]  # why the engine would refuse the removal (R13), in words


def department_removal(dept: Department) -> DepartmentRemoval:
    """What removing `dept` takes with it, and whether the engine would let it go (the
    board's state without it and its links, reviewed as services/editor.py will)."""
    links = department_links(dept)
    board = dept.board
    state = board_state(board)
    gone = dept.slug
    after = {
        **state,
        "departments": [d for d in state["departments"] if d["slug"] != gone],
        "links": [x for x in state["links"] if gone not in (x["from"], x["to"])],
    }
    if "offices" in state:  # R80: a post it holds falls vacant (Office's on_delete)
        after["offices"] = [
            {**o, **{post: None for post in ("holder", "deputy") if o.get(post) == gone}}
            for o in state["offices"]
        ]
    blocked, __ = change_review(board, state, after)
    return DepartmentRemoval(
        links=[f"{dept.name} → {x.partner}" for x in links.outgoing]
        + [f"{x.partner} → {dept.name}" for x in links.incoming],
        known_by=dept.knowledge.filter(level__gt=0).count(),
        orders=orders_naming(board, dept.slug),
        blocked=blocked,
    )


@dataclass(frozen=True)
class BoardRemoval:
    departments: int
    links: int
    structures: list[str]  # the players who have one on it
    orders: int  # queued orders of the open turn on it (removed with it)
    played: bool  # it has turn records (R51): it cannot be removed


def board_removal(board: Board) -> BoardRemoval:
    structures = (
        board.structures.select_related("player__user")
        .annotate(held=Count("departments"))
        .filter(held__gt=0)
        .order_by("player__pk")
    )
    return BoardRemoval(
        departments=board.departments.count(),
        links=board.links.count(),
        structures=[s.player.display_name for s in structures],
        orders=board.orders.filter(status=Order.Status.QUEUED).count(),
        played=board.records.exists(),
    )

"""RULES R50 (fog of war) and R51 (history): what one viewer may know of a department, now
or at a past turn, and nothing more.

The level rule (`level_from`, applied to the live rows by `level_of` and to a turn's record
by `levels_at`), the rule for seeing a link (`link_visible`, `priority_visible`) and the copy
of a department into a view-model holding only the fields its level allows (`view_of`) live
here and nowhere else; `selectors` builds the pages with them and `selectors.reports` adds a
turn's history on top.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from django.db import connection
from django.db.models import Q, QuerySet

from campaigns.engine.joined import SEP
from campaigns.models import Board, Department, Knowledge, Membership, Structure
from campaigns.models.board import Resource

Level = Knowledge.Level


# --- Levels ------------------------------------------------------------------------------------


def is_gm(membership: Membership) -> bool:
    return membership.role == Membership.Role.GM


def department_rows(*where: Q, **filters: object) -> QuerySet[Department]:
    """Departments with everything a view needs, so no view-model triggers a query."""
    return Department.objects.filter(*where, **filters).select_related("structure__player__user")


def sees_everything(viewer: Membership) -> bool:
    """R50: the GM sees everything. R51: once the GM has opened the campaign, so does every
    member, of every turn."""
    return is_gm(viewer) or viewer.campaign.opened


def sees_classic_secret(viewer: Membership, owner: str | None) -> bool:
    """R99: a treasury on a classic board is seen by the group's controller, a goal by its
    player (`owner`, an engine player id; None for a group no one controls), the GM, and,
    once the GM has opened the campaign (R51), every member."""
    if sees_everything(viewer):
        return True
    return owner is not None and viewer.role == Membership.Role.PLAYER and owner == viewer.player_id


def level_from(*, everything: bool, controls: bool, stored: int) -> Level:
    """The R50 rule itself: whoever sees everything, or controls the department, sees it
    all; anyone else sees what their stored level says, capped at `known`. The cap matters:
    "controlled" follows the structure, never a stored row, so a row left at 3 after a
    department was captured away cannot show its new owner's stash."""
    if everything or controls:
        return Level.CONTROLLED
    return Level(max(Level.UNKNOWN, min(stored, Level.KNOWN)))


def level_of(dept: Department, viewer: Membership, knowledge: dict[int, int]) -> Level:
    """R50 now: `level_from` with the department's live structure and the viewer's
    Knowledge rows (department id -> level, `viewer_knowledge`)."""
    controls = dept.structure_id is not None and dept.structure.player_id == viewer.pk
    return level_from(
        everything=sees_everything(viewer),
        controls=controls,
        stored=knowledge.get(dept.pk, Level.UNKNOWN),
    )


def levels_at(
    viewer: Membership, owners: dict[str, str | None], knowledge: dict[str, dict[str, int]]
) -> dict[str, Level]:
    """R51: the viewer's level of each department of a recorded board, as they knew it then
    and never through what they learned later: `level_from` with the structures of that
    turn's state (`owners`: slug -> engine player id) and the levels stored with that turn
    (a TurnRecord's `knowledge` or `knowledge_before`: {"<membership id>": {slug: level}})."""
    everything = sees_everything(viewer)
    me = viewer.player_id
    stored = knowledge.get(str(viewer.pk), {})
    return {
        slug: level_from(
            everything=everything,
            controls=owner is not None and owner == me,
            stored=int(stored.get(slug, Level.UNKNOWN)),
        )
        for slug, owner in owners.items()
    }


def link_visible(supplier: Level, consumer: Level) -> bool:
    """R50: a link is seen when both its ends are seen at least `known` (which includes every
    link inside the viewer's own structure), and always when one end is the viewer's own: its
    other end is then at least `rumoured` (`with_own_links`), named and nothing more."""
    if max(supplier, consumer) >= Level.CONTROLLED:
        return min(supplier, consumer) >= Level.RUMOURED
    return min(supplier, consumer) >= Level.KNOWN


def with_own_links(levels: dict[str, Level], links: Iterable[tuple[str, str]]) -> dict[str, Level]:
    """R50: players know their own departments with every link to or from them, so the
    other end of such a link is at least `rumoured` to them (its name, never its card): the
    levels (slug -> level) of a board raised so, `links` being its (supplier, consumer)
    pairs at the same moment. Only departments `levels` holds are raised. A new dict."""
    raised = dict(levels)
    for supplier, consumer in links:
        for mine, other in ((supplier, consumer), (consumer, supplier)):
            if levels.get(mine) == Level.CONTROLLED and raised.get(other) == Level.UNKNOWN:
                raised[other] = Level.RUMOURED
    return raised


def priority_visible(supplier: Level) -> bool:
    """R12 under R50: a link's funding priority is the supplier's controller's business."""
    return supplier >= Level.CONTROLLED


def viewer_knowledge(viewer: Membership, **department_filters: object) -> dict[int, int]:
    """Department id -> the viewer's stored level (R50); one query."""
    filters = {f"department__{k}": v for k, v in department_filters.items()}
    rows = Knowledge.objects.filter(player=viewer, **filters)
    return dict(rows.values_list("department_id", "level"))


class Seen(NamedTuple):
    """A department as one viewer may name it: its name, their level of it (R50) and its
    board's name (where it matters: a department of another board, R60)."""

    name: str
    level: Level
    board_name: str = ""


# seen_departments in one query: an order check runs it on every submission, and the ORM
# took longer to build the two queries it replaces than the database took to answer them.
SEEN = """
SELECT d.slug, b.slug, d.name, s.player_id, k.level, b.name
FROM {department} d
JOIN {board} b ON b.id = d.board_id
LEFT JOIN {structure} s ON s.id = d.structure_id
LEFT JOIN {knowledge} k ON k.department_id = d.id AND k.player_id = %s
WHERE b.campaign_id = %s AND ({wanted})
"""


def seen_departments(board: Board, viewer: Membership, names: Iterable[str]) -> dict[str, Seen]:
    """name -> Seen for each of `names` that names a department: a plain slug one of
    `board`, "<board>/<slug>" one of that board of the campaign (a cross-board name, R60).
    Names of no department are left out. One query."""
    plain = sorted(n for n in set(names) if SEP not in n)
    qualified = sorted(tuple(n.split(SEP, 1)) for n in set(names) if SEP in n)
    wanted: list[str] = []
    params: list[object] = [viewer.pk, board.campaign_id]
    if plain:
        wanted.append(f"(d.board_id = %s AND d.slug IN ({', '.join(['%s'] * len(plain))}))")
        params += [board.pk, *plain]
    for other, slug in qualified:
        wanted.append("(b.slug = %s AND d.slug = %s)")
        params += [other, slug]
    if not wanted:
        return {}
    sql = SEEN.format(
        wanted=" OR ".join(wanted),
        **{m.__name__.lower(): m._meta.db_table for m in (Department, Board, Structure, Knowledge)},
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    everything = sees_everything(viewer)
    return {
        (slug if board_slug == board.slug else f"{board_slug}{SEP}{slug}"): Seen(
            name,
            level_from(everything=everything, controls=owner == viewer.pk, stored=stored or 0),
            board_name,
        )
        for slug, board_slug, name, owner, stored, board_name in rows
    }


def knowledge_snapshot(campaign_id: int) -> dict[int, dict[str, dict[str, int]]]:
    """R51: every stored level of a campaign, as the turn job records it with each turn:
    board id -> {"<membership id>": {"<department slug>": level}}. One query."""
    rows = Knowledge.objects.filter(department__board__campaign_id=campaign_id, level__gt=0)
    snapshot: dict[int, dict[str, dict[str, int]]] = {}
    for board_id, member, slug, level in rows.values_list(
        "department__board_id", "player_id", "department__slug", "level"
    ).order_by("department__board_id", "player_id", "department__slug"):
        snapshot.setdefault(board_id, {}).setdefault(str(member), {})[slug] = level
    return snapshot


# --- A department at a level -------------------------------------------------------------------


@dataclass(frozen=True)
class Amount:
    kind: str
    label: str
    amount: int


def amount(kind: str, value: int) -> Amount | None:
    if not kind or not value:
        return None
    return Amount(kind=kind, label=Resource(kind).label, amount=value)


@dataclass(frozen=True)
class Card:
    """R50 `known`: the full card. No stash, flaws or turn figures."""

    description: str
    effect: int
    obstruct: int
    impress: int
    consumes: Amount | None
    produces: Amount | None
    functions: list[tuple[str, int]]
    alignments: list[str]
    controller: str | None  # the controlling player's name; None: uncontrolled


@dataclass(frozen=True)
class Private:
    """R50 `controlled`: what only the controller (and the GM) may see."""

    stash: list[Amount]
    flaws: str
    status: str
    chain_length: int
    capacity: int | None
    home: bool
    defence: list[Amount]  # the standing defence (R47): the controller's own setting

    @property
    def defence_beyond_stash(self) -> list[str]:
        """R47: the types whose standing defence exceeds what the department holds now
        (only what it holds when attacked is spent)."""
        held = {a.kind: a.amount for a in self.stash}
        return [a.label for a in self.defence if a.amount > held.get(a.kind, 0)]


@dataclass(frozen=True)
class DepartmentView:
    """One department at the viewer's level: `rumoured` carries the name only (not even the
    slug, which could say more than the name), `known` adds `card`, `controlled` adds
    `private`. Unknown departments get no view at all."""

    name: str
    level: Level
    mine: bool
    slug: str | None = None
    card: Card | None = None
    private: Private | None = None
    node: str = ""  # the board map's opaque id of this department (board_views.node_key)

    @property
    def level_label(self) -> str:
        return self.level.label


class Facts(NamedTuple):
    """Everything there is to know of one department at one moment, before R50 picks what a
    viewer may see of it (`view_of`): its card (what `known` shows) and its private side
    (what only `controlled` shows). From its live row (`facts_of_row`) or from a turn's
    record (`facts_of_state`), so both go through the same `view_of`."""

    slug: str
    name: str
    card: Card
    private: Private


def stash_amounts(stash: dict[str, int]) -> list[Amount]:
    """Every type, zeros included: a stash is shown whole."""
    return [Amount(kind=k, label=lbl, amount=int(stash.get(k, 0))) for k, lbl in Resource.choices]


def defence_amounts(defence: dict[str, int]) -> list[Amount]:
    return [a for k, _ in Resource.choices if (a := amount(k, int(defence.get(k, 0))))]


def facts_of_row(dept: Department) -> Facts:
    """A live row (from `department_rows`, so its controller costs no query)."""
    card = Card(
        description=dept.description,
        effect=dept.effect,
        obstruct=dept.obstruct,
        impress=dept.impress,
        consumes=amount(dept.consumes_type, dept.consumes_amount),
        produces=amount(dept.produces_type, dept.produces_amount),
        functions=sorted(dept.functions.items()),
        alignments=list(dept.alignments),
        controller=dept.structure.player.display_name if dept.structure_id else None,
    )
    private = Private(
        stash=stash_amounts(dept.stash),
        flaws=dept.flaws,
        status=dept.status,
        chain_length=dept.chain_length,
        capacity=dept.capacity,
        home=dept.home,
        defence=defence_amounts(dept.defence),
    )
    return Facts(dept.slug, dept.name, card, private)


def resource_amount(value: object) -> Amount | None:
    """An ENGINE.md `consumes` / `produces` object as an Amount (None for null)."""
    if not isinstance(value, dict):
        return None
    return amount(str(value.get("type", "")), int(value.get("amount", 0)))


class CardTexts(Protocol):
    """What a department's card holds beside the engine's state: a live row, or its texts
    read as plain values (board_views.CardText)."""

    description: str
    flaws: str


def facts_of_state(
    data: dict[str, Any],
    figures: dict[str, Any],
    row: CardTexts | None,
    controller: str | None,
) -> Facts:
    """A department as a turn's record holds it: `data` its entry in the state (ENGINE.md),
    `figures` its spawn-consume report entry (status, chain length), `row` its live row for
    what the engine does not carry (description, flaws; blank if it is gone), `controller`
    the name of the player its `structure` names."""
    functions = {str(k): int(v) for k, v in (data.get("functions") or {}).items()}
    card = Card(
        description=row.description if row else "",
        effect=int(data.get("effect", 0)),
        obstruct=int(data.get("obstruct", 0)),
        impress=int(data.get("impress", 0)),
        consumes=resource_amount(data.get("consumes")),
        produces=resource_amount(data.get("produces")),
        functions=sorted(functions.items()),
        alignments=[str(a) for a in data.get("alignments") or []],
        controller=controller,
    )
    private = Private(
        stash=stash_amounts(data.get("stash") or {}),
        flaws=row.flaws if row else "",
        status=str(figures.get("status", "")),
        chain_length=int(figures.get("chain_length", 1)),
        capacity=int(data["capacity"]) if data.get("capacity") is not None else None,
        home=bool(data.get("home", False)),
        defence=defence_amounts(data.get("defence") or {}),
    )
    slug = str(data["slug"])
    return Facts(slug, str(data.get("name", slug)), card, private)


def view_of(facts: Facts, level: Level, *, mine: bool) -> DepartmentView | None:
    """Copy into the view-model exactly the fields `level` allows (R50)."""
    if level <= Level.UNKNOWN:
        return None
    if level == Level.RUMOURED:
        return DepartmentView(name=facts.name, level=level, mine=False)
    private = facts.private if level >= Level.CONTROLLED else None
    return DepartmentView(
        name=facts.name, level=level, mine=mine, slug=facts.slug, card=facts.card, private=private
    )


def department_view(dept: Department, level: Level, *, mine: bool) -> DepartmentView | None:
    """A live department at `level` (R50): `view_of` its row."""
    return view_of(facts_of_row(dept), level, mine=mine)

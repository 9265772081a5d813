"""RULES R50 (fog of war): what one viewer may know of a department, and nothing more.

The level rule (`level_of`) and the copy of a department into a view-model holding only the
fields its level allows (`department_view`) live here and nowhere else; `selectors` builds
the pages with them and `selectors.reports` adds a turn's history on top.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from campaigns.models import Department, Knowledge, Membership
from campaigns.models.board import Resource

Level = Knowledge.Level


# --- Levels ------------------------------------------------------------------------------------


def is_gm(membership: Membership) -> bool:
    return membership.role == Membership.Role.GM


def department_rows(**filters: object) -> QuerySet[Department]:
    """Departments with everything a view needs, so no view-model triggers a query."""
    return Department.objects.filter(**filters).select_related("structure__player__user")


def level_of(dept: Department, viewer: Membership, knowledge: dict[int, int]) -> Level:
    """R50: the GM sees everything; a player controls what is in their structure; anything
    else is what their Knowledge row says, capped at `known`. The cap matters: "controlled"
    follows the structure, never a stored row, so a row left at 3 after a department was
    captured away cannot show its new owner's stash."""
    if is_gm(viewer):
        return Level.CONTROLLED
    if dept.structure_id is not None and dept.structure.player_id == viewer.pk:
        return Level.CONTROLLED
    stored = knowledge.get(dept.pk, Level.UNKNOWN)
    return Level(max(Level.UNKNOWN, min(stored, Level.KNOWN)))


def viewer_knowledge(viewer: Membership, **department_filters: object) -> dict[int, int]:
    """Department id -> the viewer's stored level (R50); one query."""
    filters = {f"department__{k}": v for k, v in department_filters.items()}
    rows = Knowledge.objects.filter(player=viewer, **filters)
    return dict(rows.values_list("department_id", "level"))


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

    @property
    def level_label(self) -> str:
        return self.level.label


def department_view(dept: Department, level: Level, *, mine: bool) -> DepartmentView | None:
    """Copy into the view-model exactly the fields `level` allows (R50)."""
    if level <= Level.UNKNOWN:
        return None
    if level == Level.RUMOURED:
        return DepartmentView(name=dept.name, level=level, mine=False)
    controller = dept.structure.player.display_name if dept.structure_id else None
    card = Card(
        description=dept.description,
        effect=dept.effect,
        obstruct=dept.obstruct,
        impress=dept.impress,
        consumes=amount(dept.consumes_type, dept.consumes_amount),
        produces=amount(dept.produces_type, dept.produces_amount),
        functions=sorted(dept.functions.items()),
        alignments=list(dept.alignments),
        controller=controller,
    )
    private = None
    if level >= Level.CONTROLLED:
        private = Private(
            stash=[
                Amount(kind=k, label=lbl, amount=getattr(dept, k)) for k, lbl in Resource.choices
            ],
            flaws=dept.flaws,
            status=dept.status,
            chain_length=dept.chain_length,
            capacity=dept.capacity,
            home=dept.home,
            defence=[a for k, _ in Resource.choices if (a := amount(k, dept.defence.get(k, 0)))],
        )
    return DepartmentView(
        name=dept.name, level=level, mine=mine, slug=dept.slug, card=card, private=private
    )

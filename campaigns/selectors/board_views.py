"""A board at one moment as one viewer may see it: now (the live rows, RULES R50) or after a
processed turn (its TurnRecord, R51), in one shape, the `Snapshot`, so the board page, the
map, the history pages and the export all read a past turn exactly as they read the present.

Every builder here runs a fixed number of queries whatever the size of the board.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.crypto import salted_hmac

from campaigns.history.selectors.history_records import Recorded
from campaigns.models import Board, Campaign, Department, Membership
from campaigns.models.board import Resource
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.board_live_rows import live_rows
from campaigns.selectors.state import COLUMNS, department_state
from campaigns.selectors.visibility import (
    CardTexts,
    DepartmentView,
    Level,
    facts_of_state,
    level_from,
    level_of,
    levels_at,
    link_visible,
    priority_visible,
    sees_everything,
    view_of,
    viewer_knowledge,
    with_own_links,
)

Pair = tuple[str, str]  # (supplier slug, consumer slug)
STRUCTURE = COLUMNS.index("structure_id")


def node_key(board_id: int, slug: str) -> str:
    """An opaque, stable id for a department on the map and in the page: the map must
    identify a `rumoured` department, whose slug R50 hides (a slug may say more than the
    name), and the same department must keep its id from turn to turn for a stable layout."""
    return keyed(settings.SECRET_KEY, board_id, slug)


@lru_cache(maxsize=100_000)
def keyed(secret: str, board_id: int, slug: str) -> str:
    """node_key, remembered: a big board's map and history ask for the same keys often.
    The secret is an argument so that a new SECRET_KEY is never answered from the cache."""
    message = f"{board_id}:{slug}"
    return salted_hmac("campaigns.board-map.node", message, secret=secret).hexdigest()[:16]


class Member(NamedTuple):
    """What the pages name and colour a member by (a Membership's player_id and
    display_name), read as plain values: a model per member, with its user, cost more than
    the rest of the board page's reads of them."""

    pk: int
    role: str
    player_id: str  # engine_player_id
    display_name: str


def members_of(campaign: Campaign) -> list[Member]:
    """Every member of `campaign`, by id: one query, once per campaign object (a request's:
    its report reads the names for the text and again for the maps)."""
    found: list[Member] | None = getattr(campaign, "_members_read", None)
    if found is None:
        sql = MEMBERS.format(
            membership=Membership._meta.db_table, user=get_user_model()._meta.db_table
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [campaign.pk])
            found = [
                Member(pk, role, engine_player_id(pk), Membership.name_of(character, username))
                for pk, role, character, username in cursor
            ]
        campaign._members_read = found  # type: ignore[attr-defined]
    return found


# members_of's read, written as SQL: the board page, the report and the history pages ask,
# and the ORM took longer to build the join than the database to answer it.
MEMBERS = """
SELECT m.id, m.role, m.character_name, u.username
FROM {membership} m JOIN {user} u ON u.id = m.user_id
WHERE m.campaign_id = %s ORDER BY m.id
"""


def player_names(campaign: Campaign) -> dict[str, str]:
    """Engine player id -> the player's display name, for every member. One query at most."""
    return {m.player_id: m.display_name for m in members_of(campaign)}


@dataclass(frozen=True)
class Snapshot:
    """One board after turn `number` (None: now), with the viewer's level of each of its
    departments: R50 with the live rows now, R51 (the levels recorded with that turn) for a
    past turn. `state` is in the ENGINE.md format; `figures` is each department's
    spawn-consume report entry (status, chain length)."""

    board_id: int
    number: int | None
    state: dict[str, Any]
    figures: dict[str, dict[str, Any]]
    levels: dict[str, Level]
    me: str  # the viewer's engine player id
    everything: bool  # the GM, or a campaign the GM has opened (R51)

    @cached_property
    def departments(self) -> dict[str, dict[str, Any]]:
        return {d["slug"]: d for d in self.state.get("departments", [])}

    def level(self, slug: str) -> Level:
        return self.levels.get(slug, Level.UNKNOWN)

    def owner(self, slug: str) -> str | None:
        data = self.departments.get(slug)
        return data.get("structure") if data else None

    @cached_property
    def holdings(self) -> dict[str | None, frozenset[str]]:
        """Engine player id (None: uncontrolled) -> the slugs in that structure (R13)."""
        held: dict[str | None, set[str]] = {}
        for slug, data in self.departments.items():
            held.setdefault(data.get("structure"), set()).add(slug)
        return {owner: frozenset(slugs) for owner, slugs in held.items()}

    def held_by(self, player: str) -> frozenset[str]:
        return self.holdings.get(player, frozenset())

    def mine(self, slug: str) -> bool:
        """In the viewer's own structure (never for the GM, who has none)."""
        return self.owner(slug) == self.me

    def links(self) -> list[tuple[str, str, int]]:
        """(supplier, consumer, priority) of every link, seen or not."""
        # A link written without a priority (null in a stored state) ranks as 0, as a missing one
        # does: the GM's map once failed with a 500 on such a link in a browser test run.
        return [(lk["from"], lk["to"], int(lk.get("priority") or 0)) for lk in self.state["links"]]

    @cached_property
    def link_set(self) -> frozenset[Pair]:
        return frozenset((lk["from"], lk["to"]) for lk in self.state.get("links", []))

    def sees_link(self, supplier: str, consumer: str) -> bool:
        """R50: both ends `known`; or a link there at this moment with one end the viewer's
        (not one that was never theirs: a department's links before they captured it)."""
        supplier_level, consumer_level = self.level(supplier), self.level(consumer)
        if min(supplier_level, consumer_level) >= Level.KNOWN:
            return True
        there = (supplier, consumer) in self.link_set
        return there and link_visible(supplier_level, consumer_level)

    def would_see_link(self, supplier: str, consumer: str) -> bool:
        """Whether a link between these two would be seen at this moment, had it existed
        then (R50: one to or from a department of the viewer's is always seen)."""
        ends = with_own_links(
            {supplier: self.level(supplier), consumer: self.level(consumer)},
            [(supplier, consumer)],
        )
        return link_visible(ends[supplier], ends[consumer])

    @cached_property
    def seen_links(self) -> list[tuple[str, str, int]]:
        return [(s, c, p) for s, c, p in self.links() if self.sees_link(s, c)]

    def visible_links(self) -> list[tuple[str, str, int]]:
        """(supplier, consumer, priority) of every link the viewer sees (R50)."""
        return self.seen_links

    @cached_property
    def seen_ends(self) -> dict[str, tuple[list[str], list[str]]]:
        """slug -> (its suppliers sorted, its consumers by priority) over the seen links."""
        ends: dict[str, tuple[list[str], list[str]]] = {}
        for s, c, _ in sorted(self.seen_links, key=lambda k: (k[2], k[0], k[1])):
            ends.setdefault(c, ([], []))[0].append(s)
            ends.setdefault(s, ([], []))[1].append(c)
        for suppliers, _ in ends.values():
            suppliers.sort()
        return ends

    def suppliers_of(self, slug: str) -> list[str]:
        return self.seen_ends.get(slug, ([], []))[0]

    def consumers_of(self, slug: str) -> list[str]:
        return self.seen_ends.get(slug, ([], []))[1]


class CardText(NamedTuple):
    """What the engine's state does not hold of a department (facts_of_state's `row`)."""

    description: str
    flaws: str


class Live(NamedTuple):
    snapshot: Snapshot
    texts: dict[str, CardText]  # slug -> its card's texts
    names: dict[str, str]  # engine player id -> name, of each player controlling a department


def live_snapshot(board: Board, viewer: Membership) -> Live:
    """The board now (R50), with each department's card texts and its controller's name:
    2 queries (departments with the viewer's Knowledge rows, links; board_live_rows)."""
    everything = sees_everything(viewer)
    rows, links = live_rows(board, viewer)
    departments, players, names, texts, levels, figures = [], {}, {}, {}, {}, {}
    for row in rows:
        columns = row.columns
        slug, structure = columns[1], columns[STRUCTURE]
        if structure:
            players[structure] = engine_player_id(row.member)
            names[players[structure]] = Membership.name_of(row.character, row.username)
        departments.append(columns)
        texts[slug] = CardText(row.description, row.flaws)
        figures[slug] = {"status": columns[-2], "chain_length": columns[-1]}
        levels[slug] = level_from(
            everything=everything,
            controls=row.member is not None and row.member == viewer.pk,
            stored=Level.UNKNOWN if row.stored is None else row.stored,
        )
    state = {
        "departments": [department_state(row, players) for row in departments],
        "links": [{"from": s, "to": c, "priority": p} for s, c, p in links],
    }
    snapshot = Snapshot(
        board_id=board.pk,
        number=None,
        state=state,
        figures=figures,
        levels=with_own_links(levels, link_pairs(state)),
        me=viewer.player_id,
        everything=everything,
    )
    return Live(snapshot, texts, names)


def live_levels(
    board: Board, viewer: Membership, **filters: object
) -> dict[str, tuple[Level, str]]:
    """slug -> (the viewer's level now, the name) of the board's departments (`filters`
    narrow them): what a history page needs of the present, without the whole board. One
    query, and one for the viewer's Knowledge rows unless they see everything."""
    knowledge = {} if sees_everything(viewer) else viewer_knowledge(viewer, board=board)
    rows = Department.objects.filter(board=board, **filters).select_related("structure")
    return {d.slug: (level_of(d, viewer, knowledge), d.name) for d in rows}


def owners_of(state: dict[str, Any]) -> dict[str, str | None]:
    """slug -> the engine player id of its structure (None: uncontrolled)."""
    return {d["slug"]: d.get("structure") for d in state.get("departments", [])}


def link_pairs(state: dict[str, Any]) -> list[Pair]:
    """(supplier, consumer) of every link of an ENGINE.md state."""
    return [(link["from"], link["to"]) for link in state.get("links", [])]


def state_levels(
    viewer: Membership, state: dict[str, Any], knowledge: dict[str, Any]
) -> dict[str, Level]:
    """R51: the viewer's levels of a recorded board, `knowledge` being the levels stored with
    it, raised by the links of their departments then (R50, `with_own_links`)."""
    return with_own_links(levels_at(viewer, owners_of(state), knowledge), link_pairs(state))


def record_snapshot(record: Recorded, viewer: Membership) -> Snapshot:
    """The board after the record's turn as `viewer` knew it then (R51): the record's state
    and the levels recorded with it. No query."""
    return Snapshot(
        board_id=record.board_id,
        number=record.number,
        state=record.state,
        figures=record.report.get("departments", {}),
        levels=state_levels(viewer, record.state, record.knowledge),
        me=viewer.player_id,
        everything=sees_everything(viewer),
    )


# --- The board as cards and a list of links ----------------------------------------------------


@dataclass(frozen=True)
class LinkView:
    supplier: str
    consumer: str
    resource: str
    priority: int | None  # only for the supplier's controller and the GM (R12)
    edge: str = ""  # the map's id of this link (node keys of both ends)


@dataclass(frozen=True)
class BoardView:
    name: str
    slug: str
    full_view: bool  # the GM (or an opened campaign, R51): every department at full detail
    departments: list[DepartmentView]
    links: list[LinkView] = field(default_factory=list)

    @property
    def mine(self) -> list[DepartmentView]:
        return [d for d in self.departments if d.mine]

    @property
    def others_known(self) -> list[DepartmentView]:
        return [d for d in self.departments if not d.mine and d.level >= Level.KNOWN]

    @property
    def rumoured(self) -> list[DepartmentView]:
        return [d for d in self.departments if d.level == Level.RUMOURED]

    @property
    def others(self) -> list[DepartmentView]:
        """Every department seen that is not the viewer's: known ones and rumours."""
        return [d for d in self.departments if not d.mine]


def edge_key(board_id: int, supplier: str, consumer: str) -> str:
    return f"{node_key(board_id, supplier)}-{node_key(board_id, consumer)}"


def resource_label(data: dict[str, Any] | None, key: str = "produces") -> str:
    """The label of what a department produces (the type its links carry, R10)."""
    produces = (data or {}).get(key) or {}
    kind = produces.get("type", "")
    return Resource(kind).label if kind in Resource.values else ""


def link_label(snapshot: Snapshot, supplier: str, consumer: str) -> str:
    """The type a seen link carries (R10): what its supplier produces, read from the
    consumer's card (what it consumes, the same type) when the supplier is only `rumoured`
    (R50: a rumour is a name, not a card)."""
    if snapshot.level(supplier) >= Level.KNOWN:
        return resource_label(snapshot.departments.get(supplier))
    if snapshot.level(consumer) >= Level.KNOWN:
        return resource_label(snapshot.departments.get(consumer), "consumes")
    return ""


def board_view_of(
    board: Board,
    snapshot: Snapshot,
    rows: Mapping[str, CardTexts],
    names: dict[str, str],
    only: list[str] | None = None,
) -> BoardView:
    """The cards and links of `snapshot` as its viewer may see them (R50/R51). `rows` give
    what the engine state does not hold (description, flaws); `names` the players' names.
    `only`: just these departments, in this order, and the links that touch them (a page of
    a big board, board_listing). No query."""
    slugs = sorted(snapshot.departments) if only is None else only
    departments = []
    for slug in slugs:
        level = snapshot.level(slug)
        if level <= Level.UNKNOWN:
            continue  # view_of shows nothing of it (R50): its card is not even built
        data = snapshot.departments[slug]
        owner = data.get("structure")
        facts = facts_of_state(
            data,
            snapshot.figures.get(slug, {}),
            rows.get(slug),
            names.get(owner, "a player") if owner else None,
        )
        view = view_of(facts, level, mine=snapshot.mine(slug))
        if view is not None:
            departments.append(dataclasses.replace(view, node=node_key(board.pk, slug)))
    shown = None if only is None else set(only)
    links = [
        LinkView(
            supplier=snapshot.departments[s]["name"],
            consumer=snapshot.departments[c]["name"],
            resource=link_label(snapshot, s, c),
            priority=priority if priority_visible(snapshot.level(s)) else None,
            edge=edge_key(board.pk, s, c),
        )
        for s, c, priority in sorted(snapshot.visible_links(), key=lambda k: (k[0], k[2], k[1]))
        if shown is None or s in shown or c in shown
    ]
    return BoardView(
        name=board.name,
        slug=board.slug,
        full_view=snapshot.everything,
        departments=departments,
        links=links,
    )

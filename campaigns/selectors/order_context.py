"""What the order forms read about one board for one player (RULES R40-R47, R50): the engine
state with the player's queued orders, each department's level (R50) and name, and the
engine's legal choices (campaigns.engine.legal), which are the only source of what may be
ordered. Reads only; built once per request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.engine.legal import Legal, standard_legal_choices
from campaigns.intrigue.selectors.order_cross import Cross, cross_choices, crossing_boards
from campaigns.models import Alignment, Board, Campaign, Membership, Turn
from campaigns.models.campaign import engine_player_id, membership_pk_of
from campaigns.selectors.order_checks import (
    OrdersAround,
    elsewhere_attempts,
    queued_orders,
    trial_state,
)
from campaigns.selectors.state import COLUMNS, BoardRows, boards_rows
from campaigns.selectors.state_beyond_boards import BesideRows, beside_rows
from campaigns.selectors.state_beyond_boards_batch import beside_batch
from campaigns.selectors.turn_orders import TurnOrders, turn_orders
from campaigns.selectors.visibility import (
    Level,
    level_from,
    seen_departments,
    sees_everything,
    viewer_knowledge,
    with_own_links,
)

MAX_PATH = 5  # the longest move the form offers: it has drop fields for 4 departments passed


@dataclass
class OrderContext:
    """One board for one player: `state` is the board now with the player's queued orders
    and the other players' queued election orders (R80: tickets are public), ENGINE.md, a
    throwaway seed; `levels` what they know of each department (R50)."""

    player: Membership
    turn: Turn
    board: Board
    state: dict[str, Any]
    levels: dict[str, Level]
    names: dict[str, str]
    # R43: the player's queued attempts on the campaign's other boards, which count against
    # the per-turn limit here too (order_checks.elsewhere_attempts).
    elsewhere: list[dict[str, Any]] = field(default_factory=list)
    # R50: a department's id, the form value where its slug may not show (a department the
    # player knows only as `rumoured`: its name, never its slug).
    pks: dict[str, int] = field(default_factory=dict)
    _legal: dict[str | None, Legal] = field(default_factory=dict, repr=False)
    _players: list[tuple[str, str]] | None = field(default=None, repr=False)
    _cross: dict[str | None, Cross | None] = field(default_factory=dict, repr=False)
    # What the contexts of one request share (the other players, read once for all boards).
    shared: BoardsRead | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        player: Membership,
        turn: Turn,
        board: Board,
        beside: BesideRows | None = None,
        boards: BoardsRead | None = None,
    ) -> OrderContext:
        """`beside`: what lies beside the campaign's boards (parts 7-9), and `boards` what
        the contexts read of each board, if the caller has read them for several boards at
        once (order_contexts)."""
        if boards is None:
            boards = boards_read(player, turn, [board])
        rows = boards.rows[board.pk]
        knowledge = boards.knowledge
        everything = sees_everything(player)
        levels = {
            slug: level_from(
                everything=everything,
                controls=owner is not None and owner == player.pk,
                stored=knowledge.get(pk, Level.UNKNOWN),
            )
            for pk, slug, _, owner in rows
        }
        names = {slug: name for _, slug, name, _ in rows}
        # R62: with the hand-overs other players offer this player here, so the engine can
        # say which of them an accept would take (engine/plan.py reads them with the accepts).
        around = boards.around[board.pk]
        queued = around.mine
        own = [o for o in queued if o.board_id == board.pk]
        state = trial_state(
            board, turn, [*around.public, *own, *around.offered], beside, boards.state[board.pk]
        )
        # R50: the other end of a link of theirs is at least `rumoured` (named, and the link
        # may be broken).
        levels = with_own_links(levels, [(lk["from"], lk["to"]) for lk in state["links"]])
        far_ends(state, board, player, levels, names)
        elsewhere = elsewhere_attempts(board, queued)
        return cls(player, turn, board, state, levels, names, elsewhere,
                   pks={slug: pk for pk, slug, _, _ in rows}, shared=boards)  # fmt: skip

    def name(self, slug: str) -> str:
        return self.names[slug]

    def slug_of(self, pk: object) -> str | None:
        """The slug of the board's department with id `pk` (a form's value), or None."""
        return next((slug for slug, found in self.pks.items() if str(found) == str(pk)), None)

    def queued(self, kind: str) -> list[dict[str, Any]]:
        """The player's queued orders of one kind, as the engine sees them (not the
        hand-overs offered to them, which the state holds too)."""
        me = self.player.player_id
        return [o for o in self.state["orders"] if o.get("kind") == kind and o["player"] == me]

    def other_players(self) -> list[tuple[str, str]]:
        """R62: (engine player id, name) of every other player of the campaign, who may
        receive a hand-over (one query, once per request)."""
        if self._players is None and self.shared is not None:
            self._players = self.shared.players
        if self._players is None:
            rows = Membership.objects.filter(
                campaign_id=self.player.campaign_id, role=Membership.Role.PLAYER
            ).exclude(pk=self.player.pk)
            self._players = [
                (m.player_id, m.display_name)
                for m in rows.select_related("user").order_by("user__username", "pk")
            ]
            if self.shared is not None:
                self.shared.players = self._players
        return self._players

    def legal(self, without: str | None = None) -> Legal:
        """The engine's choices after the player's queued orders; `without`: the engine id
        of an order being edited, which must not count against itself (R43, R45)."""
        if without not in self._legal:
            orders = [o for o in self.state["orders"] if o["id"] != without]
            state = {**self.state, "orders": [*self.elsewhere, *orders]}
            self._legal[without] = standard_legal_choices(
                state, self.player.player_id, longest=MAX_PATH
            )
        return self._legal[without]

    def edited_by(self, legal: Legal) -> str | None:
        """The `without` that `legal` was computed for (the order being edited, or None)."""
        return next((w for w, found in self._legal.items() if found is legal), None)

    def cross(self, without: str | None = None) -> Cross | None:
        """R2, R60: the choices from this board to another one, for a player holding a
        cross_board shtick naming it (None otherwise); the other boards' departments they
        name join `levels` and `names` ("<board>/<slug>"). `without`: as for `legal`."""
        if without not in self._cross:
            found = None
            if crossing_boards(self.state, self.player.player_id, self.board.slug):
                queued = [
                    o for o in queued_orders(player=self.player, turn=self.turn)
                    if o.engine_id != without
                ]  # fmt: skip
                found = cross_choices(self.player, self.turn, self.board, queued, longest=MAX_PATH)
                far_named(self.board, self.player, found.far(), self.levels, self.names)
            self._cross[without] = found
        return self._cross[without]

    def controlled(self, slug: str) -> bool:
        return self.levels.get(slug, Level.UNKNOWN) == Level.CONTROLLED

    def known(self, slug: str) -> bool:
        """R50: the player may pick it on a path or as a target (their own included)."""
        return self.levels.get(slug, Level.UNKNOWN) >= Level.KNOWN


def far_named(
    board: Board,
    player: Membership,
    names: set[str],
    levels: dict[str, Level],
    known: dict[str, str],
) -> None:
    """Other boards' departments ("<board>/<slug>") into `levels` and `known` (their names),
    as the viewer knows them now (R50): one query, only if there are any."""
    wanted = names - known.keys()
    if not wanted:
        return
    for name, seen in seen_departments(board, player, wanted).items():
        levels[name] = seen.level
        known[name] = f"{seen.name} ({seen.board_name})"


def far_ends(
    state: dict[str, Any],
    board: Board,
    player: Membership,
    levels: dict[str, Level],
    names: dict[str, str],
) -> None:
    """The departments of other boards the board's links reach (a cross-board link, RULES
    R60; their stubs in the state, "<board>/<slug>"), added to `levels` and `names`: one
    query, only where there is such a link."""
    far_named(board, player, {d["slug"] for d in state["departments"] if "board" in d},
              levels, names)  # fmt: skip


def order_contexts(player: Membership, turn: Turn) -> dict[str, OrderContext]:
    """Board slug -> the forms' context of each board of the player's campaign (for the
    orders page's offers): a fixed number of queries per board, and what lies beside the
    boards (parts 7-9) read once for all of them."""
    campaign = player.campaign
    # One query for the boards, the catalogue of alignments, parts 7-9, the player's
    # knowledge and the other players' names (R62's receivers).
    batch = beside_batch(campaign.pk, boards=None, number=turn.number, viewer=player.pk)
    boards = batch.boards or []
    # One campaign object for every board: its catalogue of alignments is read once.
    alignments_read(campaign, batch.alignments or [])
    for board in boards:
        board.campaign = campaign
    beside = beside_rows(batch)
    read = boards_read(player, turn, boards, batch.knowledge)
    read.players = [
        (engine_player_id(pk), Membership.name_of(character, username))
        for pk, character, username in sorted(batch.names, key=lambda n: (n[2], n[0]))
        if pk != player.pk
    ]
    return {board.slug: OrderContext.build(player, turn, board, beside, read) for board in boards}


def alignments_read(campaign: Campaign, alignments: list[Alignment]) -> None:
    """Hand `campaign` its catalogue of alignments (R5) as read, as prefetch_related does
    (`campaign.alignments.all()` answers from it), so the states built for each board do
    not ask for it again."""
    cached = campaign.alignments.all()
    cached._result_cache = alignments  # type: ignore[attr-defined]
    cached._prefetch_done = True  # type: ignore[attr-defined]
    if not hasattr(campaign, "_prefetched_objects_cache"):
        campaign._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    campaign._prefetched_objects_cache["alignments"] = cached  # type: ignore[attr-defined]


@dataclass
class BoardsRead:
    """What the order contexts read of each of a campaign's boards, for all of them at once:
    board id -> its departments (pk, slug, name, controlling member's pk), the player's stored
    knowledge (department id -> level), the queued orders around the player (R62, R80) and
    the rows of its state; the campaign's other players once read (other_players); and the
    turn's orders the orders page lists, read with those around the player."""

    rows: dict[int, list[tuple[int, str, str, int | None]]]
    knowledge: dict[int, int]
    around: dict[int, OrdersAround]
    state: dict[int, BoardRows]
    players: list[tuple[str, str]] | None = None
    orders: TurnOrders | None = None  # the turn's orders as the orders page lists them


def boards_read(
    player: Membership, turn: Turn, boards: list[Board], knowledge: dict[int, int] | None = None
) -> BoardsRead:
    """BoardsRead in 5 queries, however many boards (4 with the player's `knowledge` of
    the campaign's departments, read already)."""
    ids = [b.pk for b in boards]
    state = boards_rows(boards)
    orders = turn_orders(player, turn, boards)
    # Plain values, not model instances: on a board of 1,000 departments, building a
    # department, structure, membership and user object per row cost more than the query.
    # The state's rows hold them: pk, slug, name and the structure (its controller, R13).
    structure = COLUMNS.index("structure_id")
    rows = {
        pk: [
            (row[0], row[1], row[2], membership_pk_of(read.players.get(row[structure])))
            for row in read.departments
        ]
        for pk, read in state.items()
    }
    return BoardsRead(
        rows=rows,
        knowledge=viewer_knowledge(player, board_id__in=ids) if knowledge is None else knowledge,
        around=orders.around,
        state=state,
        orders=orders,
    )

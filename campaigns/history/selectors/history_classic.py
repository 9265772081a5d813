"""A classic board's history pages (RULES R51, R90-R99): the overview, turn by turn, and two
turns compared, read from the turn records (history_classic_records), never recomputed.

What a member reads (R99): every group's place and controller is public, so everyone reads
who held how many groups, what moved, what was destroyed and what was drawn. A player's
treasuries (their total here) are theirs: shown to that player, the GM and, once the GM
opens the campaign (R51), to every member, through visibility.py's `sees_classic_secret`
only. The deck is shown by its size; which group lies where in it, by nobody. Two queries
(the records, the members) whatever the number of turns or groups."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.history.selectors.history_classic_records import (
    DECK,
    DESTROYED,
    STRUCTURE,
    TABLE,
    ClassicGroup,
    ClassicRecorded,
    classic_recorded,
)
from campaigns.models import Board, Membership
from campaigns.selectors.board_views import player_names
from campaigns.selectors.visibility import sees_classic_secret


@dataclass(frozen=True)
class PlayerTurn:
    """One player after one turn: the groups they controlled (R98 counts the Illuminati) and
    the MB across their treasuries; `treasury` None where the viewer may not see it (R99)."""

    player: str
    name: str
    mine: bool
    groups: int
    treasury: int | None


@dataclass(frozen=True)
class ClassicTurn:
    number: int
    players: list[PlayerTurn]
    table: int
    destroyed: int
    deck: int  # its size only


@dataclass(frozen=True)
class ClassicHistory:
    turns: list[ClassicTurn]  # turn 0 (the start) first

    @property
    def numbers(self) -> list[int]:
        return [t.number for t in self.turns]

    @property
    def players(self) -> list[tuple[str, str, bool]]:
        """(engine id, name, the viewer's own) of every player of any turn, for the
        overview's columns."""
        seen: dict[str, tuple[str, str, bool]] = {}
        for turn in self.turns:
            for p in turn.players:
                seen.setdefault(p.player, (p.player, p.name, p.mine))
        return list(seen.values())

    def rows(self) -> list[tuple[ClassicTurn, list[PlayerTurn | None]]]:
        """Latest turn first, each with its players in the columns' order (None: no such
        player that turn)."""
        columns = [player for player, _, _ in self.players]
        rows = []
        for turn in reversed(self.turns):
            of = {p.player: p for p in turn.players}
            rows.append((turn, [of.get(player) for player in columns]))
        return rows


def is_mine(viewer: Membership, player: str) -> bool:
    return viewer.role == Membership.Role.PLAYER and viewer.player_id == player


def player_turns(
    record: ClassicRecorded, viewer: Membership, names: dict[str, str]
) -> list[PlayerTurn]:
    held: dict[str, list[ClassicGroup]] = {p: [] for p in record.players}
    for group in record.groups.values():
        if group.place == STRUCTURE and group.controller is not None:
            held.setdefault(group.controller, []).append(group)
    return [
        PlayerTurn(
            player=player,
            name=names.get(player, player),
            mine=is_mine(viewer, player),
            groups=len(groups),
            treasury=sum(g.treasury for g in groups)
            if sees_classic_secret(viewer, player)
            else None,
        )
        for player, groups in held.items()
    ]


def classic_turn(record: ClassicRecorded, viewer: Membership, names: dict[str, str]) -> ClassicTurn:
    places = [g.place for g in record.groups.values()]
    return ClassicTurn(
        number=record.number,
        players=player_turns(record, viewer, names),
        table=places.count(TABLE),
        destroyed=places.count(DESTROYED),
        deck=places.count(DECK),
    )


def classic_history(board: Board, viewer: Membership) -> ClassicHistory:
    """Every processed turn of classic `board` as `viewer` may read it (see the module's
    text). Two queries."""
    names = player_names(board.campaign)
    return ClassicHistory([classic_turn(r, viewer, names) for r in classic_recorded(board)])


@dataclass(frozen=True)
class GroupChange:
    """One group from the first turn compared to the second, its places in words."""

    slug: str
    name: str
    before: str
    after: str


@dataclass(frozen=True)
class ClassicComparison:
    first: int
    second: int
    moved: list[GroupChange]  # changed controller, parent or place (not destroyed, not drawn)
    destroyed: list[GroupChange]
    drawn: list[GroupChange]  # entered from the deck
    first_turn: ClassicTurn
    second_turn: ClassicTurn

    @property
    def changed(self) -> bool:
        return bool(self.moved or self.destroyed or self.drawn)

    @property
    def pairs(self) -> list[PlayerPair]:
        """Each player of either turn, after the first and after the second."""
        before = {p.player: p for p in self.first_turn.players}
        after = {p.player: p for p in self.second_turn.players}
        players = [*before, *(p for p in after if p not in before)]
        return [
            PlayerPair(
                name=(after.get(p) or before[p]).name,
                mine=(after.get(p) or before[p]).mine,
                before=before.get(p),
                after=after.get(p),
            )
            for p in players
        ]


@dataclass(frozen=True)
class PlayerPair:
    name: str
    mine: bool
    before: PlayerTurn | None
    after: PlayerTurn | None


Describe = Callable[[ClassicGroup | None], str]


def place_words(record: ClassicRecorded, names: dict[str, str]) -> Describe:
    """Where a group of `record` lies, in words: whose structure and under which group, on
    the table, destroyed, or face down in the deck (never where in it)."""

    def describe(group: ClassicGroup | None) -> str:
        if group is None:
            return _("not on the board")
        if group.place == STRUCTURE:
            who = names.get(group.controller or "", group.controller or "?")
            parent = record.groups.get(group.parent or "")
            if parent is None:
                return _("heads %(player)s's power structure") % {"player": who}
            return _("in %(player)s's power structure, under %(parent)s") % {
                "player": who,
                "parent": parent.name,
            }
        if group.place == DESTROYED:
            return _("destroyed")
        if group.place == DECK:
            return _("in the deck")
        return _("on the table")

    return describe


def where(group: ClassicGroup | None) -> tuple[str, str | None, str | None]:
    if group is None:
        return "", None, None
    return group.place, group.controller, group.parent


def out_of_sight(group: ClassicGroup | None) -> bool:
    """Not on the board that turn, or face down in the deck: nothing a player saw (R99)."""
    return group is None or group.place == DECK


def classic_compare(
    board: Board, viewer: Membership, first: int, second: int
) -> ClassicComparison | None:
    """Classic `board` after turn `first` and after turn `second`: the groups that changed
    controller or place, were destroyed or entered from the deck; None if either turn has no
    record. A group in the deck at both turns is not named (R99). Two queries."""
    records = {r.number: r for r in classic_recorded(board, [first, second])}
    if first not in records or second not in records:
        return None
    a, b = records[first], records[second]
    names = player_names(board.campaign)
    was, now = place_words(a, names), place_words(b, names)
    moved, destroyed, drawn = [], [], []
    for slug in [*a.groups, *(s for s in b.groups if s not in a.groups)]:
        old, new = a.groups.get(slug), b.groups.get(slug)
        if where(old) == where(new) or out_of_sight(old) and out_of_sight(new):
            continue
        named = new or old
        assert named is not None
        change = GroupChange(slug, named.name, was(old), now(new))
        if old is not None and old.place == DECK:
            drawn.append(change)
        elif new is not None and new.place == DESTROYED:
            destroyed.append(change)
        else:
            moved.append(change)
    by_name = lambda changes: sorted(changes, key=lambda c: (c.name, c.slug))  # noqa: E731
    return ClassicComparison(
        first=first,
        second=second,
        moved=by_name(moved),
        destroyed=by_name(destroyed),
        drawn=by_name(drawn),  # by name, not as the state lists them
        first_turn=classic_turn(a, viewer, names),
        second_turn=classic_turn(b, viewer, names),
    )

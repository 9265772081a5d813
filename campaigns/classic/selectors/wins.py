"""Who won which classic board in a processed turn, and how (RULES R98), as the engine's
report in the turn's TurnRecord says it: `report.winners`, `[{"player": id, "by": ["goal",
"groups"]}]` (ENGINE.md part 10).

Public to every member, like the report's win notice: the fact of a win and its kind. Not
the figures of a goal (R99: a goal is its player's and the GM's only): "by" names the kind of
condition met, never what the goal asked or how far the player got. Read for the campaign page
and the turn mail, in at most two queries whatever the size of the boards: the winners are
read out of the JSON in the database, not the whole report."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.models import Board, Campaign, Turn, TurnRecord
from campaigns.selectors.board_views import player_names


@dataclass(frozen=True)
class ClassicWin:
    """One classic board's winners in a turn: (player's name, conditions met), sorted as
    the engine sorts them; a condition is "goal" or "groups"."""

    board_name: str
    board_slug: str
    winners: list[tuple[str, list[str]]]


@dataclass(frozen=True)
class WinNotice:
    """The campaign page's notice of the last processed turn's wins. `pending`: the GM has
    neither ended the campaign nor played on after it (R98: the GM decides); `played_on`:
    the GM plays on after it and the campaign runs."""

    number: int
    wins: list[ClassicWin]
    pending: bool
    played_on: bool


def classic_wins(campaign: Campaign, number: int) -> list[ClassicWin]:
    """The classic boards that someone won in `campaign`'s turn `number`, by board name. One
    query, and one more for the players' names when there is a win."""
    records = TurnRecord.objects.filter(turn__campaign=campaign, turn__number=number)
    rows = (
        records.filter(board__ruleset=Board.Ruleset.CLASSIC)
        .order_by("board__name", "board_id")
        .values_list("board__name", "board__slug", "report__winners")
    )
    found = [(name, slug, winners) for name, slug, winners in rows if winners]
    if not found:
        return []
    names = player_names(campaign)
    return [
        ClassicWin(
            board_name=name,
            board_slug=slug,
            winners=[
                (
                    names.get(str(w.get("player")), str(w.get("player"))),
                    [str(by) for by in w.get("by", [])],
                )
                for w in winners
                if isinstance(w, dict)
            ],
        )
        for name, slug, winners in found
        if isinstance(winners, list)
    ]


def win_notice(campaign: Campaign, over: list[Turn]) -> WinNotice | None:
    """The notice of the wins of the last processed turn among `over` (the turns that are
    over, latest first), None when nobody won in it."""
    last = next((t for t in over if t.status == Turn.Status.PROCESSED), None)
    if last is None:
        return None
    wins = classic_wins(campaign, last.number)
    if not wins:
        return None
    going = campaign.status in (Campaign.Status.RUNNING, Campaign.Status.PAUSED)
    # Once the campaign has ended, the win is its last word, whatever the GM chose before.
    played_on = (
        going and campaign.played_on_after is not None and campaign.played_on_after >= last.number
    )
    return WinNotice(
        number=last.number, wins=wins, pending=going and not played_on, played_on=played_on
    )

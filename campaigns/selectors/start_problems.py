"""Can the campaign start (RULES R13, R31)? What is missing, in words for the GM, so the
campaign page can list it instead of starting a campaign nobody can play."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.engine import EngineError
from campaigns.engine.edit import stranded_in
from campaigns.models import Board, Campaign, Department
from campaigns.selectors.editor import active_players, player_names
from campaigns.selectors.setup import engine_problems
from campaigns.selectors.state import board_state
from campaigns.words import game


def start_problems(campaign: Campaign) -> list[str]:
    """Everything that stops `campaign` from starting: no board, no player, a player with no
    department on any board (R13), a board the engine refuses, a department that would
    leave its structure at the first link phase (R13). Empty: it can start. A few queries
    per board, none per department."""
    boards = list(campaign.boards.order_by("name"))
    players = active_players(campaign)
    problems = []
    if not boards:
        problems.append(_("There is no board yet: add a board or import one."))
    if not players:
        problems.append(_("There are no players yet: invite some (Players and invitations)."))
    holding = set(
        Department.objects.filter(board__campaign=campaign, structure__isnull=False)
        .values_list("structure__player_id", flat=True)
        .distinct()
    )
    problems += [
        _(
            "%(name)s holds no department on any board: give them their starting "
            "departments on a board's Structures page (R13)."
        )
        % {"name": p.display_name}
        for p in players
        if p.pk not in holding
    ]
    refused = engine_problems(campaign)
    problems += refused
    if not refused:
        names = player_names(campaign)
        for board in boards:
            problems += board_stranded(board, names)
    return problems


def board_stranded(board: Board, players: dict[str, str]) -> list[str]:
    """R13 on one board, in words, prefixed with the board's name."""
    state = board_state(board)
    names = {d["slug"]: d["name"] for d in state["departments"]}
    try:
        found = stranded_in(state)
    except EngineError as error:  # engine_problems has said so already
        return [game.with_names(str(error), names)]
    return [
        f"{board}: {game.stranded_text(names[s.slug], players.get(s.structure, s.structure))}"
        for s in found
    ]

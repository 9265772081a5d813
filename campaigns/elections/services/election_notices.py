"""Telling the players of an election (RULES R80): when the GM schedules one for the open
turn (elections/services/offices.py) and when the turn job opens a turn that holds one
(services/turns.py)."""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import Election, Membership, Notice, Turn
from campaigns.words.notices import ELECTION, notice_fields


def election_announce(turn: Turn) -> int:
    """R80: tell every player, in the app, that `turn` holds an election (when the GM
    schedules one for the open turn, and when a turn with one opens), in words when read
    (words/notices.py). Returns how many were told. Two queries when there is no election."""
    election = (
        Election.objects.filter(campaign_id=turn.campaign_id, number=turn.number)
        .select_related("office__board")
        .first()
    )
    if election is None:
        return 0
    office = election.office
    players = list(
        Membership.objects.filter(
            campaign_id=turn.campaign_id, role=Membership.Role.PLAYER
        ).select_related("campaign")
    )
    said = notice_fields(
        ELECTION, {"n": turn.number, "office": office.name, "board": office.board.name}
    )
    notices = [
        Notice(player=player, turn=turn, url=reverse("election", args=[player.campaign.slug]),
               **said)
        for player in players
    ]  # fmt: skip
    Notice.objects.bulk_create(notices)
    return len(players)

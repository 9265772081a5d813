"""Telling the players of an election (RULES R80): when the GM schedules one for the open
turn (services/offices.py) and when the turn job opens a turn that holds one
(services/turns.py)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.models import Election, Membership, Notice, Turn
from campaigns.selectors.profile import language_of


def election_announce(turn: Turn) -> int:
    """R80: tell every player, in the app, that `turn` holds an election (when the GM
    schedules one for the open turn, and when a turn with one opens). Returns how many were
    told. Two queries when there is no election."""
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
        ).select_related("user__profile", "campaign")
    )
    notices = []
    for player in players:
        with translation.override(language_of(player.user)):
            text = _(
                "Turn %(n)s holds an election for %(office)s on %(board)s (R80): nominate a "
                "ticket, give it your departments' support, and vote."
            ) % {"n": turn.number, "office": office.name, "board": office.board.name}
        notices.append(
            Notice(player=player, turn=turn, text=text, url=player.campaign.get_absolute_url())
        )
    Notice.objects.bulk_create(notices)
    return len(players)

"""The GM's preview of a turn: what the queued orders would do if the turn were processed
now, with a throwaway seed.

The real turn job runs (services/turns.py: one code path, so the preview cannot drift from
what processing will do) inside a transaction that is then rolled back: nothing is saved,
no message is sent (on-commit callbacks die with the rollback), and the open turn keeps its
own secret seed, which the preview never uses or shows."""

from __future__ import annotations

import secrets
from dataclasses import replace

from django.db import transaction

from campaigns.engine.dice import commitment
from campaigns.models import Campaign, Membership, Turn
from campaigns.selectors.report_view_models import TurnReport
from campaigns.selectors.reports import turn_report
from campaigns.services.turns import turn_process


def turn_preview(*, campaign: Campaign, viewer: Membership) -> TurnReport | None:
    """The report the GM would read if the open turn were processed now (None: no open
    turn). Holds the campaign row lock while it runs, like the turn job itself."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        turn = locked.turns.filter(status=Turn.Status.OPEN).first()
        if turn is None:
            return None
        turn.seed = secrets.token_hex(32)  # throwaway: the real seed stays unused and secret
        turn.commitment = commitment(turn.seed)
        turn.save(update_fields=["seed", "commitment"])
        turn_process(campaign_id=locked.pk, number=turn.number)
        report = turn_report(Turn.objects.get(pk=turn.pk), viewer)
        transaction.set_rollback(True)
    # A classic board's draws in a preview are the deck's next cards, still face down: no
    # page shows the deck's order (R99), the GM's preview included.
    boards = [
        replace(board, drawn=[]) if getattr(board, "classic", False) else board
        for board in report.boards
    ]
    return replace(report, boards=boards)

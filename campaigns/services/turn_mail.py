"""The mail of a processed turn (RULES R31 step 4), sent by its own Celery task after the
turn's transaction has committed, so a slow or broken mail server never holds up, fails or
repeats a turn job.

The turn's transaction is the single source of truth: it sets `Turn.mail_owed`. Whoever sends
first claims the turn with a conditional UPDATE (owed -> not owed) and only that call sends:
the task run twice, or queued both by the job and by the tick's sweep (tasks.py), sends once.
A worker that dies between the claim and the last mail loses the rest of that turn's mail:
at most once, never twice.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.utils.translation import gettext as _

from campaigns.models import Turn
from campaigns.services.notifications import notify_gms, notify_turn_processed
from illumineaucracy.celery import app

log = logging.getLogger(__name__)

SEND_TASK = "campaigns.tasks.send_turn_mail"
# A turn processed this long after its deadline was missed (the service was down).
LATE_AFTER = dt.timedelta(hours=1)


def turn_mail_later(turn_id: int) -> None:
    """Queue the turn's mail task (call after commit). Looked up by name: services never
    import tasks (the layers run tasks -> services; apps.py registers them in every
    process). If the broker cannot take it, the tick's sweep queues it again later."""
    app.tasks[SEND_TASK].delay(turn_id)


def turn_mail_send(*, turn_id: int) -> int:
    """Send the mail of processed turn `turn_id` unless another call already has: every
    member's "turn processed" mail and, for a turn processed late, the GMs' notice. Returns
    how many mails went out (0 when the turn's mail was claimed before)."""
    claimed = Turn.objects.filter(pk=turn_id, mail_owed=True).update(mail_owed=False)
    if not claimed:
        return 0
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    campaign = turn.campaign
    try:
        sent = notify_turn_processed(campaign, turn.number)
        if turn.processed_at and turn.processed_at - turn.deadline > LATE_AFTER:
            notify_gms(campaign, lambda: late_words(turn))
            sent += 1
    except Exception:
        # The turn is done whatever happens here: a mail server that is down is logged, not
        # raised (a retry would find the mail claimed and send nothing anyway).
        log.exception("could not send the mail of %s", turn)
        return 0
    return sent


def late_words(turn: Turn) -> tuple[str, str]:
    """The GMs' notice of a turn processed late, in the active language: (subject, body)."""
    assert turn.processed_at is not None
    subject = _("Turn %(n)s was processed late") % {"n": turn.number}
    body = _(
        "The deadline of turn %(n)s was %(deadline)s UTC; the turn job ran at %(ran)s UTC "
        "(the service was down or paused). Missed turns are processed in order, once each."
    ) % {
        "n": turn.number,
        "deadline": f"{turn.deadline:%Y-%m-%d %H:%M}",
        "ran": f"{turn.processed_at:%Y-%m-%d %H:%M}",
    }
    return subject, body

"""Celery tasks: each takes ids (or nothing) and calls one service.

Delivery is at-least-once (acks late): a task may run twice, which the turn job makes
harmless by deciding in the database, under a row lock, whether the turn has run.
"""

from celery import shared_task
from django.utils import timezone

from campaigns.selectors.turns import (
    turns_due,
    turns_owing_mail,
    turns_ready_for_early_processing,
)
from campaigns.services.turn_mail import turn_mail_send
from campaigns.services.turns import turn_process_safely


@shared_task
def process_due_turns() -> int:
    """The beat tick (every few minutes): queue the turn job for every campaign whose
    current turn's deadline has passed. Returns how many were queued."""
    due = turns_due()
    due += [t for t in turns_ready_for_early_processing() if t not in due]  # all players ready
    for campaign_id, number in due:
        process_turn.delay(campaign_id, number)
    # Mail the turn job queued but nobody has sent (its process died after the commit, or
    # the broker was down): sent once whoever queues it (services/turn_mail.py).
    for turn_id in turns_owing_mail():
        send_turn_mail.delay(turn_id)
    return len(due)


@shared_task
def process_turn(campaign_id: int, turn_number: int) -> bool:
    """Run the turn job once for one turn. If the service was down for weeks, the turn it
    opens is already due too: queue it now, so missed turns run in order, once each."""
    opened = turn_process_safely(campaign_id=campaign_id, number=turn_number)
    if opened is not None and opened.deadline <= timezone.now():
        process_turn.delay(campaign_id, opened.number)
    return opened is not None


@shared_task
def send_turn_mail(turn_id: int) -> int:
    """R31 step 4, after the turn's commit: the turn's mail, once (claimed in the database).
    Returns how many mails went out."""
    return turn_mail_send(turn_id=turn_id)


@shared_task
def send_reminders() -> int:
    """The reminder tick (every 5 minutes): remind players with no orders before the
    deadline, once per deadline (services/reminders.py decides in the database, so two
    ticks at once still send one mail). Returns how many mails went out."""
    from campaigns.services.reminders import reminders_send

    return reminders_send()


@shared_task
def send_press_digests() -> int:
    """The press digest tick (every 10 minutes): mail each user their unread messages, at
    most once an hour (press/services/press_mail.py claims each user by a conditional update, so
    two ticks at once still send one mail). Returns how many users were mailed."""
    from campaigns.press.services.press_mail import press_digests_send

    return press_digests_send()


@shared_task
def prune_campaign_changes() -> int:
    """The page cache's tick (hourly): keep each campaign's version rows few
    (services/page_versions.py). Returns how many campaigns were pruned."""
    from campaigns.services.page_versions import campaign_changes_prune

    return campaign_changes_prune()

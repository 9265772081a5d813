"""Which turns the scheduled job may process now (RULES R30-R31): past their deadline, or
(early processing) every player ready for the grace period. Reads only; the job that
processes them is services.turns."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.db.models import Count, Max, Q
from django.utils import timezone

from campaigns.models import (
    Alignment,
    Board,
    Campaign,
    ClassicBoard,
    Department,
    Election,
    Goal,
    IntelEnvelope,
    Knowledge,
    Link,
    Membership,
    Office,
    Order,
    Shtick,
    Structure,
    Turn,
)

# After the last player marks ready, wait this long before processing early: a last-second
# change of mind is still possible.
EARLY_GRACE = dt.timedelta(minutes=10)


def turns_due(now: dt.datetime | None = None) -> list[tuple[int, int]]:
    """(campaign id, turn number) of every running campaign's open turn past its deadline."""
    now = now or timezone.now()
    return list(
        Turn.objects.filter(
            status=Turn.Status.OPEN,
            deadline__lte=now,
            campaign__status=Campaign.Status.RUNNING,
        )
        .order_by("deadline")
        .values_list("campaign_id", "number")
    )


def scheduled_turn_is_due(campaign: Campaign, turn: Turn, now: dt.datetime) -> bool:
    """May the scheduled job process this open turn now? Only while the campaign runs, and
    once the deadline has passed or (early processing) every player has been ready for the
    grace period."""
    if campaign.status != Campaign.Status.RUNNING:
        return False
    if turn.deadline <= now:
        return True
    ready = turns_ready_for_early_processing(now, campaign_id=campaign.pk)
    return (campaign.pk, turn.number) in ready


def turns_ready_for_early_processing(
    now: dt.datetime | None = None, *, campaign_id: int | None = None
) -> list[tuple[int, int]]:
    """(campaign id, turn number) of open turns of running campaigns with early processing
    on, where every player is ready and the last of them became ready EARLY_GRACE ago
    (of one campaign only, with `campaign_id`)."""
    now = now or timezone.now()
    only = {} if campaign_id is None else {"campaign_id": campaign_id}
    is_player = Q(campaign__memberships__role=Membership.Role.PLAYER)
    ready = Q(
        player_turns__ready_at__isnull=False, player_turns__player__role=Membership.Role.PLAYER
    )
    # One query for every campaign: the two joins multiply rows, hence the distinct counts.
    turns = (
        Turn.objects.filter(
            status=Turn.Status.OPEN,
            campaign__status=Campaign.Status.RUNNING,
            campaign__early_processing=True,
            **only,
        )
        .annotate(
            players=Count("campaign__memberships", filter=is_player, distinct=True),
            ready=Count("player_turns", filter=ready, distinct=True),
            last_ready=Max("player_turns__ready_at", filter=ready),
        )
        .values_list("campaign_id", "number", "players", "ready", "last_ready")
    )
    return [
        (campaign_id, number)
        for campaign_id, number, players, ready_count, last in turns
        if players and ready_count == players and last <= now - EARLY_GRACE
    ]


def turn_inputs_fingerprint(campaign_id: int, turn_id: int) -> str | None:
    """PostgreSQL: a digest of the version (xmin) of every row the turn job reads for this
    turn before it takes the lock: the campaign and its alignments, boards, structures,
    departments, links and stored knowledge, the turn and its orders, and what ENGINE.md
    parts 7-9 read beside the boards (selectors/state_beyond_boards.py): the members
    (Perception), their shticks and goals, the envelopes and their audiences, the offices
    and elections, and each classic board's state. Any
    insert, update or delete of one of them changes it (a row merely locked does not). One
    query. None on other databases."""
    if connection.vendor != "postgresql":
        return None
    table = {m.__name__: m._meta.db_table for m in (Alignment, Board, Campaign, Department,
             Knowledge, Link, Order, Structure, Turn, Membership, Shtick, Goal,
             IntelEnvelope, Office, Election, ClassicBoard)}  # fmt: skip
    audience = IntelEnvelope.audience.through._meta.db_table
    parts = [
        f"SELECT 'campaign' || x.id || ':' || x.xmin FROM {table['Campaign']} x WHERE x.id = %(c)s",
        f"SELECT 'turn' || x.id || ':' || x.xmin FROM {table['Turn']} x WHERE x.id = %(t)s",
        f"SELECT 'order' || x.id || ':' || x.xmin FROM {table['Order']} x WHERE x.turn_id = %(t)s",
        f"SELECT 'alignment' || x.id || ':' || x.xmin FROM {table['Alignment']} x "
        "WHERE x.campaign_id = %(c)s",
        f"SELECT 'board' || x.id || ':' || x.xmin FROM {table['Board']} x "
        "WHERE x.campaign_id = %(c)s",
    ]
    for name in ("Department", "Link", "Structure"):
        parts.append(
            f"SELECT '{name}' || x.id || ':' || x.xmin FROM {table[name]} x "
            f"JOIN {table['Board']} b ON b.id = x.board_id WHERE b.campaign_id = %(c)s"
        )
    for name in ("Knowledge", "IntelEnvelope"):
        parts.append(
            f"SELECT '{name}' || x.id || ':' || x.xmin FROM {table[name]} x "
            f"JOIN {table['Department']} d ON d.id = x.department_id "
            f"JOIN {table['Board']} b ON b.id = d.board_id WHERE b.campaign_id = %(c)s"
        )
    parts.append(
        f"SELECT 'audience' || x.id || ':' || x.xmin FROM {audience} x "
        f"JOIN {table['Membership']} m ON m.id = x.membership_id WHERE m.campaign_id = %(c)s"
    )
    parts.append(
        f"SELECT 'member' || x.id || ':' || x.xmin FROM {table['Membership']} x "
        "WHERE x.campaign_id = %(c)s"
    )
    for name in ("Shtick", "Goal"):
        parts.append(
            f"SELECT '{name}' || x.id || ':' || x.xmin FROM {table[name]} x "
            f"JOIN {table['Membership']} m ON m.id = x.member_id WHERE m.campaign_id = %(c)s"
        )
    parts.append(  # R90: a classic board's state (models/classic.py)
        f"SELECT 'classic' || x.board_id || ':' || x.xmin FROM {table['ClassicBoard']} x "
        f"JOIN {table['Board']} b ON b.id = x.board_id WHERE b.campaign_id = %(c)s"
    )
    parts.append(
        f"SELECT 'office' || x.id || ':' || x.xmin FROM {table['Office']} x "
        f"JOIN {table['Board']} b ON b.id = x.board_id WHERE b.campaign_id = %(c)s"
    )
    parts.append(
        f"SELECT 'election' || x.id || ':' || x.xmin FROM {table['Election']} x "
        "WHERE x.campaign_id = %(c)s"
    )
    sql = (
        "SELECT md5(string_agg(v, ',' ORDER BY v)) FROM ("
        + " UNION ALL ".join(parts)
        + ") AS rows_read(v)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"c": campaign_id, "t": turn_id})
        (digest,) = cursor.fetchone()
    return str(digest)


# The tick queues the mail of a processed turn again when its own queueing has not been
# claimed after this long (the process died between the commit and the queueing, or the
# broker was down): services/turn_mail.py sends it once whoever queues it.
MAIL_SWEEP_AFTER = dt.timedelta(minutes=2)


def turns_owing_mail(now: dt.datetime | None = None) -> list[int]:
    """Ids of processed turns whose mail has not been claimed for MAIL_SWEEP_AFTER."""
    now = now or timezone.now()
    return list(
        Turn.objects.filter(mail_owed=True, processed_at__lte=now - MAIL_SWEEP_AFTER)
        .order_by("processed_at")
        .values_list("pk", flat=True)
    )

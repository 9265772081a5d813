"""Keep the page cache's version rows (models/changes.py) few."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count

from campaigns.models import Campaign, CampaignChange

# A campaign is pruned once it holds more rows than this. Well above 1 on purpose: a
# pruning removes PRUNE_OVER rows or more and adds one marker, so its (max, count) can never
# equal a pair read just before it commits, even if a writer's row with a higher id than the
# marker commits in the same instant (then the max is that row's, but the count differs
# unless PRUNE_OVER - 1 other rows committed in the same instant).
PRUNE_OVER = 200


def campaign_changes_prune(*, over: int = PRUNE_OVER) -> int:
    """Each campaign with more than `over` change rows: its rows deleted and one fresh marker
    row inserted, in one transaction, so the campaign's max id moves past every id it had
    (no earlier version can come back). Takes no row lock any writer waits on: writers only
    insert into this table. The rows of campaigns that no longer exist go too (a removed
    campaign's pages are never asked for again). Returns how many campaigns were pruned."""
    gone = CampaignChange.objects.exclude(campaign_id__in=Campaign.objects.values("pk"))
    gone.delete()
    crowded = list(
        CampaignChange.objects.values("campaign_id")
        .annotate(n=Count("id"))
        .filter(n__gt=over)
        .values_list("campaign_id", flat=True)
    )
    for campaign_id in crowded:
        with transaction.atomic():
            marker = CampaignChange.objects.create(campaign_id=campaign_id)
            CampaignChange.objects.filter(campaign_id=campaign_id, id__lt=marker.pk).delete()
    return len(crowded)

"""The version a cached page is keyed by (web/page_cache.py), read in one query."""

from __future__ import annotations

from django.db import connection

from campaigns.models.changes import TABLE

# The viewer's membership of the page's campaign, and (max id, count) of the change rows of
# every campaign the viewer belongs to: the page shows this campaign, and the navbar counts
# unread messages in all of them. The user's own name, language and time zone come through
# the same rows (their profile's trigger adds a row to each of their campaigns).
_VERSION_SQL = f"""
SELECT m.id, m.role, v.top, v.n
FROM campaigns_membership m
JOIN campaigns_campaign c ON c.id = m.campaign_id
CROSS JOIN (
    SELECT max(cc.id) AS top, count(*) AS n FROM {TABLE} cc
    WHERE cc.campaign_id IN (SELECT campaign_id FROM campaigns_membership WHERE user_id = %s)
) v
WHERE m.user_id = %s AND c.slug = %s
"""


def page_version(*, user_id: int, slug: str) -> str | None:
    """The viewer's version of the campaign `slug`'s pages, or None if they are not a
    member (their pages are then never cached). Read before the page is rendered: under
    read committed the page is then at least as new as its key."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [user_id, user_id, slug])
        row = cursor.fetchone()
    if row is None:
        return None
    member, role, top, count = row
    return f"{member}.{role}.{top}.{count}"

"""Issue 25, blocker 4 (RULES R50): the GM links one of Alice's departments to departments
she does not know: her City Watch (People) to Carol's Temple of the Eye, which she knows
only as `rumoured`, and to Carol's Thieves' Guild, which she does not know at all. Both
consume People, so each costs the City Watch People every turn."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Department
from campaigns.services.editor import link_add

FAR = {"temple": "The Temple of the Eye", "thieves-guild": "The Thieves' Guild"}
STATS = ("effect", "obstruct", "impress")


def gm_links_alices_watch(campaign: Campaign) -> None:
    """The GM's two links (R53): city-watch -> temple, city-watch -> thieves-guild."""
    board = campaign.boards.get(slug="city")
    gm = get_user_model().objects.get(username="gm")
    watch = Department.objects.get(board=board, slug="city-watch")
    for slug in FAR:
        consumer = Department.objects.get(board=board, slug=slug)
        link_add(board=board, actor=gm, supplier=watch, consumer=consumer)


def stat_sentinels(campaign: Campaign) -> list[str]:
    """Unlikely numbers in the far ends' card stats (R50: `rumoured` hides the card), which
    no page of Alice's may show."""
    markers = []
    for i, slug in enumerate(FAR):
        dept = Department.objects.get(board__campaign=campaign, slug=slug)
        for j, stat in enumerate(STATS):
            value = 31700 + 10 * i + j  # smallint on PostgreSQL: at most 32767
            setattr(dept, stat, value)
            markers.append(str(value))
        dept.save(update_fields=list(STATS))
    return markers

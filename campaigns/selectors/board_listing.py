"""A big board's departments a page at a time, searchable: the board page of a
board of 1,000 departments lists the ones the viewer sees in a table of PAGE_SIZE rows,
filtered by `?q=` on what the table shows of each (name, controller, status) and paged by
`?page=`, on the server, so it works without JavaScript.

What a search may match is decided here from the viewer's levels (RULES R50 now, R51 at a
past turn), exactly as the table shows it: the name of any department seen; the controller
from `known` (a rumour has none); the status only from `controlled`. A search therefore
never tells a viewer anything the table would not: a search for a hidden controller's name
finds nothing it should not. No query.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext

from campaigns.selectors.board_views import Snapshot
from campaigns.selectors.visibility import Level

PAGE_SIZE = 50
# A board of more departments than this (as the viewer sees it) is listed a page at a time
# in a table, and its map is fetched on its own (a 1,000-department map is 400 KB of JSON).
BIG = 120
QUERY_LENGTH = 100  # longer searches are cut: a name is far shorter


@dataclass(frozen=True)
class Listing:
    """One page of the departments a viewer sees, after the search."""

    query: str
    page: Page  # of slugs
    seen: int  # departments the viewer sees at all (before the search)

    @property
    def slugs(self) -> list[str]:
        return list(self.page.object_list)


def is_big(snapshot: Snapshot) -> bool:
    return seen_count(snapshot) > BIG


def seen_count(snapshot: Snapshot) -> int:
    return sum(1 for slug in snapshot.departments if snapshot.level(slug) >= Level.RUMOURED)


def search_text(snapshot: Snapshot, slug: str, names: dict[str, str]) -> str:
    """What the table shows of one department, lower-cased, for `?q=` to match: its name;
    from `known` its controller (the viewer's own: "you" and their name; none:
    "uncontrolled"); from `controlled` its status (R50)."""
    data = snapshot.departments[slug]
    level = snapshot.level(slug)
    words = [str(data.get("name", ""))]
    if level >= Level.KNOWN:
        owner = data.get("structure")
        if snapshot.mine(slug):
            words.append(gettext("you"))
        words.append(names.get(owner, "") if owner else gettext("uncontrolled"))
    if level >= Level.CONTROLLED:
        words.append(str(snapshot.figures.get(slug, {}).get("status", "")))
    return " ".join(words).casefold()


def department_listing(
    snapshot: Snapshot, names: dict[str, str], *, query: str, page: object
) -> Listing:
    """The page `page` (anything: a bad one gives the first or the last) of the departments
    the viewer sees whose search text holds every word of `query`; the viewer's own first,
    then by slug, as the board's cards are ordered."""
    query = " ".join(query.split())[:QUERY_LENGTH]
    words = query.casefold().split()
    seen = sorted(
        (slug for slug in snapshot.departments if snapshot.level(slug) >= Level.RUMOURED),
        key=lambda slug: (not snapshot.mine(slug), slug),
    )
    found = [
        slug
        for slug in seen
        if not words or all(w in search_text(snapshot, slug, names) for w in words)
    ]
    return Listing(query=query, page=Paginator(found, PAGE_SIZE).get_page(page), seen=len(seen))

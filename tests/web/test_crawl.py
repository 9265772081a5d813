"""Every page of the site, found from the URL configuration, for every role: the fog-of-war
crawl (RULES R50, R23) and the authorization matrix.

The list of pages is not written here: it comes from Django's URL resolver
(tests/support/urls.py). What is written is PAGES, in tests/support/crawl_pages.py, one line
per URL name: which URLs of that name to visit in the world of tests/support/crawl.py, and the
status each role must get for a GET and for a POST. A URL name that is in neither PAGES nor
EXEMPT fails `test_every_url_of_the_site_is_crawled_or_exempt`, with the line to add.

Adding a page (say `history`, at /c/<slug>/history/):

    "history":                 Page(CAMPAIGN, "302 - 200 200 404 200",  NO_POST),

`CAMPAIGN` says where to go (reverse("history", args=[slug])); the other `where`s, in
tests/support/crawl.py, cover boards, orders, attempts, reports...; a page with path values
of a new kind gets a `where` of its own there: a function (world, name) -> [(url, owner or
None)].

The columns of `get` and `post` are the roles, always in this order:

    anon      not logged in
    owner     the player whose object the URL names (an order, a department, an attempt
              against them); "-" where the URL names nobody's
    player    any other player of the campaign (all three, where the URL names nobody's)
    observer  an observer of the campaign (olga)
    outsider  the GM of another campaign (gm2), who is no member of this one
    gm        the campaign's own GM

Every GET answer, whatever its status, is then searched for what the role may not know
(tests/support/fog.py `leaks`, with the levels computed from the demo's files, not from the
selectors): players by their R50 levels (reports by their levels during the turn), the
observer and the outsider and a visitor by no level at all; and by nobody, the open turn's
seed. And every player must see, somewhere, all that their level allows: a name for
`rumoured`, the card for `known`, flaws and stash for `controlled`; so a level capped too low
fails as surely as one raised too high.
"""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.models import Department
from tests.support.classic_files import classic_secrets, gm_classic_secrets
from tests.support.crawl import (
    SLUG,
    World,
    crawl_world,
    department_slugs,
    figure,
    record_markers,
)
from tests.support.crawl_pages import (
    EXEMPT,
    PAGES,
    USERS,
    column_of,
)
from tests.support.fog import (
    CARDS,
    CONTROLLED,
    KNOWLEDGE,
    KNOWN,
    NAMES,
    PLAYERS,
    RUMOURED,
    UNKNOWN,
    every_intrigue_secret,
    intrigue_markers,
    leaks,
    private_markers,
    sentinels_for,
    shows,
)
from tests.support.urls import site_patterns

# --- the list is complete -------------------------------------------------------------------


# The `where` to suggest for a new URL name, by its path values.
SUGGESTED = {
    (): "SITE",
    ("slug",): "CAMPAIGN",
    ("board_slug", "slug"): "BOARDS",
    ("number", "slug"): "TURNS",
}


def test_every_url_of_the_site_is_crawled_or_exempt() -> None:
    patterns = site_patterns()
    missing = sorted(set(patterns) - set(PAGES) - set(EXEMPT))
    lines = []
    for name in missing:
        params = tuple(sorted(patterns[name]))
        where = SUGGESTED.get(params, "WHERE")
        line = f'    "{name}": Page({where}, "302 - 200 200 404 200", NO_POST),'
        if where == "WHERE":
            line += f"  # WHERE: write one for its path values {list(params)}, like ORDERS"
        lines.append(line)
    assert not missing, (
        "These URL names are new to the fog-of-war crawl and the authorization matrix. Add one "
        "line each to PAGES in tests/support/crawl_pages.py with the status every role must get "
        "(columns: anon owner player observer outsider gm; NO_POST for a page that only "
        "shows, NO_GET for an action), for example:\n"
        + "\n".join(lines)
        + '\nor to EXEMPT with the reason it is not crawled: "name": "why".'
    )
    assert sorted((set(PAGES) | set(EXEMPT)) - set(patterns)) == [], "listed, no such URL name"
    assert set(PAGES) & set(EXEMPT) == set()
    assert all(reason.strip() for reason in EXEMPT.values())


# --- the world and the roles ----------------------------------------------------------------


@pytest.fixture
def world(db: None) -> World:
    return crawl_world()


def clients(world: World) -> Iterator[tuple[str, str, Client]]:
    """(user, their column for a URL of nobody's, a client logged in as them)."""
    from django.contrib.auth import get_user_model

    for column, username in USERS.items():
        client = Client()
        if username:
            client.force_login(get_user_model().objects.get(username=username))
        yield username, column, client


# The URLs the page cache answered (issue 28), for the crawl to show it read cached pages.
CACHE_HITS: list[str] = []


def visit(client: Client, method: str, url: str) -> tuple[int, str]:
    """One request in a savepoint rolled back at once, so every role meets the same world (a
    POST may cancel an order or pause the campaign); the client's cookies are restored too
    (a POST to log out ends its session), and the throttles start afresh."""
    cookies = client.cookies.output(header="", sep=";")
    cache.clear()  # the log-in and password-reset throttles count in the cache
    with transaction.atomic():
        response = getattr(client, method)(url)
        transaction.set_rollback(True)
    if getattr(response, "page_cache_hit", False):
        CACHE_HITS.append(url)
    client.cookies.clear()
    client.cookies.load(cookies)
    # A page may repeat the address the viewer asked for (a 404, the language switch's
    # "back to this page"): that tells them nothing they did not type.
    text = response.content.decode(errors="replace").replace(url, "")
    return response.status_code, text


# --- the authorization matrix ---------------------------------------------------------------


@pytest.mark.slow  # the crawl world and every page of it: minutes, not for the fast loop
def test_every_role_gets_the_status_written_down_for_every_page(world: World) -> None:
    """Every URL of PAGES, GET and POST (an empty form), as every role: the status in the
    table, and nothing else. A 404 for a campaign the viewer is not in is the answer for one
    that does not exist (web/access.py), so ids cannot be probed."""
    users = list(clients(world))
    wrong = []
    visited = 0
    for name, page in PAGES.items():
        urls = page.urls(world, name)
        assert urls, f"{name}: the world has nothing to visit"
        for url, owner in urls:
            for username, user_column, client in users:
                column = column_of(user_column, username, owner)
                for method in ("get", "post"):
                    expected = page.expected(method, column)
                    assert expected is not None, f"{name}: a '-' where {url} has an owner"
                    status, _ = visit(client, method, url)
                    visited += 1
                    if status != expected:
                        who = username or "anonymous"
                        wrong.append(
                            f"{name}: {method.upper()} {url} as {who} ({column}): {status}, "
                            f"expected {expected}"
                        )
    assert visited > 500
    assert not wrong, "\n".join(wrong)


# --- the fog-of-war crawl -------------------------------------------------------------------


def owners_now(world: World) -> dict[str, str | None]:
    """Who controls each department now, from the rows (turn 1 moved the City Watch)."""
    rows = Department.objects.filter(board__campaign=world.campaign)
    return {
        d.slug: d.structure.player.user.username if d.structure_id else None
        for d in rows.select_related("structure__player__user")
    }


def stored_knowledge() -> dict[str, dict[str, int]]:
    """The demo's stored levels with the world's extra rows (tests/support/crawl.py)."""
    from tests.support.crawl import EXTRA_KNOWLEDGE

    knowledge = {p: dict(levels) for p, levels in KNOWLEDGE.items()}
    for player, slug, level in EXTRA_KNOWLEDGE:
        knowledge[player][slug] = level
    return knowledge


def player_levels(world: World, username: str) -> dict[str, dict[str, int]]:
    """What `username` may see: "now" on the pages of the open turn; on the reports of
    turn 0 (the start) and turn 1, the levels of that turn: a department controlled before
    or after it counts as controlled, one controlled only later as known (R50, R51)."""
    from tests.support.fog import demo_levels

    knowledge = stored_knowledge()
    start = demo_levels(knowledge=knowledge)[username]
    # A player who lost a department in turn 1 keeps its card (the turn job stores `known`).
    after = {p: dict(levels) for p, levels in knowledge.items()}
    owners = owners_now(world)
    for slug, card in CARDS.items():
        if card.owner in after and owners.get(slug) != card.owner:
            after[card.owner][slug] = max(after[card.owner].get(slug, UNKNOWN), KNOWN)
    now = demo_levels(owners, after)[username]
    turn_1 = {slug: max(start[slug], now[slug]) for slug in CARDS}
    return {"now": now, "0": start, "1": turn_1}


def which_levels(url: str) -> str:
    """The report and verify pages of a turn show that turn; everything else, now."""
    for number in ("0", "1"):
        if f"/turn/{number}/" in url:
            return number
    return "now"


def told_of(world: World, username: str) -> list[str]:
    """R46: attacking departments the player was told of (by name only): those attacking
    them this turn, and in turn 1 the Thieves' Guild that took Alice's City Watch."""
    told = [o.payload["attacker"] for p, o in world.attempts.items() if p == username]
    return told + (["thieves-guild"] if username == "alice" else [])


@pytest.mark.slow  # the crawl world and every page of it: minutes, not for the fast loop
@pytest.mark.parametrize("role", list(USERS))
def test_the_crawl_shows_every_role_what_its_level_allows_and_nothing_more(
    world: World, role: str
) -> None:
    from django.contrib.auth import get_user_model

    username = USERS[role]
    client = Client()
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    seed = world.turn.seed  # turn 2's, still secret (R23)
    markers = private_markers(world.campaign)
    for slug, extra in record_markers(world.campaign).items():
        markers[slug] = [*markers[slug], *extra]
    nothing = {slug: UNKNOWN for slug in CARDS}
    levels = player_levels(world, username) if role in PLAYERS else None
    # R50, R51, R60, R61, R71, R72: a character's secrets are theirs and the GM's.
    intrigue = intrigue_markers(world.campaign)
    own, hidden = (
        intrigue[username] if role in PLAYERS else ([], every_intrigue_secret(world.campaign))
    )
    if username:
        # A first visit stamps the viewer's last visit, kept: the visits below then write
        # nothing, and the second read of each page comes from the page cache (issue 28).
        client.get(reverse("home"))
    CACHE_HITS.clear()
    pages: dict[str, tuple[int, str]] = {}
    read_first: dict[str, tuple[int, str]] = {}
    for name, page in PAGES.items():
        for url, _ in page.urls(world, name):
            read_first[url] = visit(client, "get", url)
            pages[url] = visit(client, "get", url)
    assert len(pages) > 40
    # R99: a classic board's treasuries and goals are their owner's and the GM's; the deck's
    # order nobody's (its groups' names never show).
    classic_own, classic_hidden = (
        gm_classic_secrets()
        if role == "gm"
        else classic_secrets(username if role in PLAYERS else None)
    )
    if role in PLAYERS or role == "gm":
        assert len(CACHE_HITS) >= 4, CACHE_HITS  # the campaign, boards, orders, reports
    problems = {}
    reads = [(url, "", page) for url, page in pages.items()]
    reads += [(url, "first read, ", page) for url, page in read_first.items()]
    for url, which, (status, text) in reads:
        if role == "gm":  # R50: the GM sees everything; not the open seed (R23)
            found = [f"secret {seed[:12]}…"] if seed in text else []
        else:
            seen = levels[which_levels(url)] if levels else nothing
            found = leaks(
                text, seen, markers, allowed_names=told_of(world, username),
                secrets=[seed, *hidden], url=url,
            )  # fmt: skip
        # The GM's archive keeps the deck whole, in order: a campaign must come back from it.
        deck_kept = role == "gm" and url.endswith("/archive.json")
        found += [
            f"classic secret {m}"
            for m in classic_hidden
            if shows(m, html.unescape(text)) and not deck_kept
        ]
        if found:
            problems[f"{url} ({which}{status})"] = found
    assert not problems, "\n".join(f"{url}: {found}" for url, found in problems.items())
    shown = "\n".join(text for status, text in pages.values() if status == 200)
    plain = html.unescape(shown)
    assert [m for m in classic_own if not shows(m, plain)] == [], "their own classic secrets"
    if levels:
        assert missing_from(shown, levels["now"], markers) == [], "what the level allows"
        assert [m for m in own if m not in plain] == [], "their own secrets (R60-R72)"
        # The report of turn 1: the figures of what the player controls after it.
        report = pages[reverse("turn_report", args=[SLUG, 1])][1]
        figures = report_figures(world)
        mine = [slug for slug, level in levels["now"].items() if level == CONTROLLED]
        assert [f"{m} of {s}" for s in mine for m in figures[s] if not shows(m, report)] == []
    elif role == "gm":  # the detector works: the GM's pages show every secret
        assert missing_from(shown, dict.fromkeys(CARDS, CONTROLLED), markers) == []
        assert [m for m in every_intrigue_secret(world.campaign) if m not in plain] == []


def missing_from(text: str, levels: dict[str, int], markers: dict[str, list[str]]) -> list[str]:
    """What `levels` allows and `text` does not show: the name of every department at least
    `rumoured`, the card (description) of every one at least `known`, the flaws and every
    figure of every one `controlled`."""
    plain = html.unescape(text)
    missing = []
    for slug, level in levels.items():
        if level >= RUMOURED and NAMES[slug] not in plain:
            missing.append(f"name of {slug} ({level})")
        if level >= KNOWN and f"DESC-{slug}-SENTINEL" not in plain:
            missing.append(f"card of {slug} ({level})")
        if level == CONTROLLED:
            missing += [f"{m} of {slug}" for m in markers[slug] if not shows(m, plain)]
    return missing


def report_figures(world: World) -> dict[str, list[str]]:
    """slug -> the turn-1 figures its controller's report shows (tests/support/crawl.py):
    status, chain length, capacity, produced."""
    out = {}
    for i, slug in enumerate(department_slugs(world.campaign)):
        values = sentinels_for(i, slug)
        out[slug] = [
            str(values["status"]),
            str(values["chain_length"]),
            str(values["capacity"]),
            str(figure("produced", i)),
        ]
    return out

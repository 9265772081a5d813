"""Every page of the site, found from the URL configuration, for every role: the fog-of-war
crawl (RULES R50, R23) and the authorization matrix.

The list of pages is not written here: it comes from Django's URL resolver
(tests/support/urls.py). What is written here is PAGES, one line per URL name: which URLs of
that name to visit in the world of tests/support/crawl.py, and the status each role must get
for a GET and for a POST. A URL name that is in neither PAGES nor EXEMPT fails
`test_every_url_of_the_site_is_crawled_or_exempt`, with the line to add.

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.models import Department
from tests.support.crawl import (
    ATTEMPTS,
    BOARDS,
    CAMPAIGN,
    CHARACTER_ROWS,
    CONVERSATIONS,
    DEFENCES,
    DEPARTMENTS,
    ELECTIONS,
    ENVELOPES,
    EXPORTS,
    GM,
    INVITE,
    JOIN,
    KINDS,
    LINKS,
    MEMBER_FORMS,
    MEMBERS,
    MESSAGES,
    NOTE,
    OBSERVER,
    OFFICE_SHTICK_FORMS,
    OFFICE_SHTICKS,
    OFFICES,
    ORDERS,
    OUTSIDER,
    POLLS,
    QUOTES,
    RESET,
    SECRET_DEPARTMENTS,
    SITE,
    SLUG,
    STRUCTURES,
    TURNS,
    Urls,
    World,
    crawl_world,
    department_slugs,
    figure,
    record_markers,
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

COLUMNS = ("anon", "owner", "player", "observer", "outsider", "gm")
USERS = {
    "anon": "",
    **{p: p for p in PLAYERS},
    "observer": OBSERVER,
    "outsider": OUTSIDER,
    "gm": GM,
}

# Where to go for one URL name: the URLs of that name, each with the player it belongs to
# (None: nobody's).
Where = Callable[[World, str], Urls]


@dataclass(frozen=True)
class Page:
    """The URLs of one name (`where`) and what each role gets from them for a GET and for
    a POST of an empty form (columns: COLUMNS)."""

    where: Where
    get: str
    post: str

    def urls(self, world: World, name: str) -> Urls:
        return self.where(world, name)

    def expected(self, method: str, column: str) -> int | None:
        cell = dict(zip(COLUMNS, getattr(self, method).split(), strict=True))[column]
        return None if cell == "-" else int(cell)


NO_POST = "405 - 405 405 405 405"  # a page that only shows (require_safe)
# An action (web/post_only.py): a GET is sent on to the page the action belongs to, which
# then answers each role as that page does.
NO_GET = "302 - 302 302 302 302"
NO_GET_OWNED = "302 302 302 302 302 302"  # the same, where the URL names someone's
NO_POST_OWNED = "405 405 405 405 405 405"  # a page that only shows, where the URL names someone's
GM_ONLY_OWNED = "302 403 403 403 404 200"  # the GM's page about someone's department...
GM_ACTS_OWNED = "302 403 403 403 404 302"  # ... and the GM's action on it
THEIRS = "302 200 404 404 404 200"  # only its owner (and the GM) may read it

# One line per URL name: where to go, then what each role gets for a GET and for a POST.
# Columns: anon owner player observer outsider gm (see the module's docstring).
# The GM's own pages: log in first; players and observers 403; another campaign's GM 404.
GM_PAGE = "302 - 403 403 404 200"
# fmt: off
PAGES: dict[str, Page] = {
    # Accounts (Django's own views, and the throttled password reset).
    "login":                   Page(SITE,     "200 - 200 200 200 200",  "200 - 200 200 200 200"),
    "logout":                  Page(SITE,     NO_GET,                   "302 - 302 302 302 302"),
    "password_change":         Page(SITE,     "302 - 200 200 200 200",  "302 - 200 200 200 200"),
    "password_change_done":    Page(SITE,     "302 - 200 200 200 200",  "302 - 405 405 405 405"),
    "password_reset":          Page(SITE,     "200 - 200 200 200 200",  "200 - 200 200 200 200"),
    "password_reset_done":     Page(SITE,     "200 - 200 200 200 200",  NO_POST),
    "password_reset_confirm":  Page(RESET,    "302 - 302 302 302 302",  "302 - 302 302 302 302"),
    "password_reset_complete": Page(SITE,     "200 - 200 200 200 200",  NO_POST),
    # The site.
    "home":                    Page(SITE,     "200 - 200 200 200 200",  NO_POST),
    "favicon":                 Page(SITE,     "302 - 302 302 302 302",  NO_POST),
    "how_to_play":             Page(SITE,     "200 - 200 200 200 200",  NO_POST),
    "notification_settings":   Page(SITE,     "302 - 200 200 200 200",  "302 - 302 302 302 302"),
    "campaign_new":            Page(SITE,     "302 - 200 200 200 200",  "302 - 200 200 200 200"),
    "invitation_join":         Page(JOIN,     "200 - 200 200 200 200",  "200 - 302 302 302 302"),
    # A campaign (RULES R30, R50).
    "campaign":                Page(CAMPAIGN, "302 - 200 200 404 200",  NO_POST),
    "board":                   Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "campaign_start":          Page(CAMPAIGN, NO_GET,                   "302 - 403 403 404 302"),
    "campaign_pause":          Page(CAMPAIGN, NO_GET,                   "302 - 403 403 404 302"),
    "campaign_resume":         Page(CAMPAIGN, NO_GET,                   "302 - 403 403 404 302"),
    "turn_process":            Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "extend_deadline":         Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    # Turn reports and the dice (R23, R45, R51).
    "turn_report":             Page(TURNS,    "302 - 200 200 404 200",  NO_POST),
    "turn_report_note":        Page(NOTE,     NO_GET,                   "302 - 403 403 404 302"),
    "verify_dice":             Page(TURNS,    "302 - 200 200 404 200",  NO_POST),
    # The week's orders (R40-R47): only players queue them.
    "orders":                  Page(CAMPAIGN, "302 - 200 302 404 302",  NO_POST),
    "order_new":               Page(KINDS,    "302 - 200 403 404 403",  "302 - 200 403 404 403"),
    "order_edit":              Page(ORDERS,   "302 200 404 403 404 403", "302 200 404 403 404 403"),
    "order_cancel":            Page(ORDERS,   NO_GET_OWNED,            "302 302 404 403 404 403"),
    "order_shift":             Page(ORDERS,   NO_GET_OWNED,            "302 302 404 403 404 403"),
    "order_reinforce":         Page(ATTEMPTS, "302 200 404 403 404 403", "302 200 404 403 404 403"),
    "turn_ready":              Page(CAMPAIGN, NO_GET,                   "302 - 302 403 404 403"),
    "notices_read":            Page(CAMPAIGN, NO_GET,                   "302 - 302 302 404 302"),
    "department_defence":      Page(DEFENCES, "302 200 404 403 404 403", "302 302 404 403 404 403"),
    # The GM's set-up (R5, R53).
    "campaign_settings":       Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_alignments":     Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "audit_log":               Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    "board_import":            Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "board_export":            Page(EXPORTS,  "302 - 403 403 404 200",  NO_POST),
    "players":                 Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "invitation_withdraw":     Page(INVITE,   NO_GET,                   "302 - 403 403 404 302"),
    # The GM's editor (web/editor.py, web/members.py): the GM only.
    "board_new":               Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "board_edit":              Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "board_delete":            Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 302"),
    "department_new":          Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "department_edit":         Page(DEPARTMENTS, GM_ONLY_OWNED,         GM_ONLY_OWNED),
    "department_delete":       Page(DEPARTMENTS, GM_ONLY_OWNED,         GM_ACTS_OWNED),
    "link_new":                Page(DEPARTMENTS, NO_GET_OWNED,          "302 403 403 403 404 302"),
    "link_delete":             Page(LINKS,    NO_GET,                   "302 - 403 403 404 302"),
    "link_move":               Page(LINKS,    NO_GET,                   "302 - 403 403 404 302"),
    "board_structures":        Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 302"),
    "board_knowledge":         Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "board_knowledge_bulk":    Page(BOARDS,   NO_GET,                   "302 - 403 403 404 302"),
    "member_edit":             Page(MEMBERS,  GM_ONLY_OWNED,            GM_ONLY_OWNED),
    "member_replace":          Page(MEMBERS,  NO_GET_OWNED,             GM_ACTS_OWNED),
    "member_remove":           Page(MEMBERS,  GM_ONLY_OWNED,            GM_ACTS_OWNED),
    # Running a campaign (web/running.py): the GM only.
    "turn_preview":            Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    "turn_rollback":           Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_end":            Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_open":           Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_archive":        Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    # History (web/history.py): members, each through their own levels (R51).
    "board_history":           Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "board_map_layout":        Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "board_map_data":          Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "compare_turns":           Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "history_export":          Page(CAMPAIGN, "302 - 200 200 404 200",  NO_POST),
    "structure_history":       Page(STRUCTURES, "302 200 404 404 404 200", NO_POST_OWNED),
    "department_history":      Page(SECRET_DEPARTMENTS, THEIRS,         NO_POST_OWNED),
    # RULES parts 7 and 8 (web/intrigue.py, web/intrigue_gm.py): a player's dossier; the
    # GM's shticks, goals and envelopes.
    "dossier":                 Page(CAMPAIGN, "302 - 200 403 404 403",  NO_POST),
    "characters":              Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    "shtick_new":              Page(MEMBER_FORMS, GM_ONLY_OWNED,        GM_ONLY_OWNED),
    "shtick_remove":           Page(CHARACTER_ROWS, NO_GET_OWNED,       GM_ACTS_OWNED),
    "goal_new":                Page(MEMBER_FORMS, GM_ONLY_OWNED,        GM_ONLY_OWNED),
    "goal_remove":             Page(CHARACTER_ROWS, NO_GET_OWNED,       GM_ACTS_OWNED),
    "contingency_new":         Page(MEMBER_FORMS, GM_ONLY_OWNED,        GM_ONLY_OWNED),
    "contingency_remove":      Page(CHARACTER_ROWS, NO_GET_OWNED,       GM_ACTS_OWNED),
    "department_envelopes":    Page(DEPARTMENTS, GM_ONLY_OWNED,         GM_ONLY_OWNED),
    "envelope_remove":         Page(ENVELOPES, NO_GET_OWNED,            GM_ACTS_OWNED),
    # Press and profiles (web/press.py, web/press_gm.py, web/profile.py).
    "press":                   Page(CAMPAIGN, "302 - 200 200 404 200",  NO_POST),
    "press_new":               Page(CAMPAIGN, "302 - 200 200 404 200",  "302 - 200 200 404 200"),
    "press_conversation":      Page(CONVERSATIONS, THEIRS,              THEIRS),
    "press_poll":              Page(POLLS,    THEIRS,                   NO_POST_OWNED),
    "press_quote":             Page(QUOTES,   NO_GET,                   "302 - 302 302 404 302"),
    "press_rules":             Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "press_hide":              Page(MESSAGES, NO_GET,                   "302 - 403 403 404 302"),
    "announcement_new":        Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "press_overview":          Page(SITE,     "302 - 200 200 200 200",  NO_POST),
    "profile":                 Page(SITE,     "302 - 200 200 200 200",  "302 - 302 302 302 302"),
    "set_language":            Page(SITE,     NO_GET,                   "302 - 302 302 302 302"),
    "signup":                  Page(SITE,     "200 - 200 200 200 200",  "200 - 200 200 200 200"),
    # The election round (R80, web/elections.py): every member reads the election; the GM
    # keeps the offices.
    "election":                Page(CAMPAIGN, "302 - 200 200 404 200",  NO_POST),
    "board_offices":           Page(BOARDS,   "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "office_edit":             Page(OFFICES,  "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "office_remove":           Page(OFFICES,  NO_GET,                   "302 - 403 403 404 302"),
    "office_shtick_new":       Page(OFFICE_SHTICK_FORMS, GM_PAGE,         GM_PAGE),
    "office_shtick_remove":    Page(OFFICE_SHTICKS, NO_GET,             "302 - 403 403 404 302"),
    "election_schedule":       Page(OFFICES,  NO_GET,                   "302 - 403 403 404 302"),
    "election_cancel":         Page(ELECTIONS, NO_GET,                  "302 - 403 403 404 302"),
}
# fmt: on

# URL names not crawled, each with the reason. (The admin is left out by site_patterns:
# Django's own, staff only; test_fog_pages.py checks that players cannot reach it.)
EXEMPT: dict[str, str] = {}


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
        "line each to PAGES in tests/web/test_crawl.py with the status every role must get "
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


def column_of(user_column: str, username: str, owner: str | None) -> str:
    if user_column in PLAYERS:
        return "owner" if owner == username else "player"
    return user_column


def visit(client: Client, method: str, url: str) -> tuple[int, str]:
    """One request in a savepoint rolled back at once, so every role meets the same world (a
    POST may cancel an order or pause the campaign); the client's cookies are restored too
    (a POST to log out ends its session), and the throttles start afresh."""
    cookies = client.cookies.output(header="", sep=";")
    cache.clear()  # the log-in and password-reset throttles count in the cache
    with transaction.atomic():
        response = getattr(client, method)(url)
        transaction.set_rollback(True)
    client.cookies.clear()
    client.cookies.load(cookies)
    # A page may repeat the address the viewer asked for (a 404, the language switch's
    # "back to this page"): that tells them nothing they did not type.
    text = response.content.decode(errors="replace").replace(url, "")
    return response.status_code, text


# --- the authorization matrix ---------------------------------------------------------------


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
    pages: dict[str, tuple[int, str]] = {}
    for name, page in PAGES.items():
        for url, _ in page.urls(world, name):
            pages[url] = visit(client, "get", url)
    assert len(pages) > 40
    problems = {}
    for url, (status, text) in pages.items():
        if role == "gm":  # R50: the GM sees everything; not the open seed (R23)
            found = [f"secret {seed[:12]}…"] if seed in text else []
        else:
            seen = levels[which_levels(url)] if levels else nothing
            found = leaks(
                text, seen, markers, allowed_names=told_of(world, username),
                secrets=[seed, *hidden], url=url,
            )  # fmt: skip
        if found:
            problems[f"{url} ({status})"] = found
    assert not problems, "\n".join(f"{url}: {found}" for url, found in problems.items())
    shown = "\n".join(text for status, text in pages.values() if status == 200)
    plain = html.unescape(shown)
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

"""The crawl's table (tests/web/test_crawl.py): for every URL name, where to go in the world of
tests/support/crawl.py and the status each role must get for a GET and for a POST (PAGES), the
URL names not crawled (EXEMPT), and the roles (COLUMNS, USERS).

The columns of a Page's `get` and `post` are the roles, always in this order (COLUMNS):
anon, owner (the player whose object the URL names; "-" where it names nobody's), player,
observer, outsider (the GM of another campaign), gm. tests/web/test_crawl.py's docstring says
how to add a page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.support.crawl import (
    ATTEMPTS,
    BOARDS,
    BOARDS_AND_CLASSIC,
    CAMPAIGN,
    CAMPAIGN_AND_CLASSIC_FILE,
    CHARACTER_ROWS,
    CLASSIC_GROUPS,
    CLASSIC_ORDER_KINDS,
    CLASSIC_PLAYERS,
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
    STRUCTURES,
    TURNS,
    Urls,
    World,
)
from tests.support.fog import (
    PLAYERS,
)

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
    "board":                   Page(BOARDS_AND_CLASSIC, "302 - 200 200 404 200",  NO_POST),
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
    "classic_order":           Page(CLASSIC_ORDER_KINDS, "302 - 200 403 404 403",
                                    "302 - 200 403 404 403"),
    "order_edit":              Page(ORDERS,   "302 200 404 403 404 403", "302 200 404 403 404 403"),
    "order_cancel":            Page(ORDERS,   NO_GET_OWNED,            "302 302 404 403 404 403"),
    "order_shift":             Page(ORDERS,   NO_GET_OWNED,            "302 302 404 403 404 403"),
    "order_reinforce":         Page(ATTEMPTS, "302 200 404 403 404 403", "302 200 404 403 404 403"),
    "turn_ready":              Page(CAMPAIGN, NO_GET,                   "302 - 302 403 404 403"),
    "notices_read":            Page(CAMPAIGN, NO_GET,                   "302 - 302 302 404 302"),
    "department_defence":      Page(DEFENCES, "302 200 404 403 404 403", "302 302 404 403 404 403"),
    # Issue 25: the board map's order menu, the player's own (only players give orders).
    "order_map_menu":          Page(BOARDS,   "302 - 200 403 404 403",  NO_POST),
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
    "classic_group_edit":      Page(CLASSIC_GROUPS, GM_ONLY_OWNED,      GM_ONLY_OWNED),
    "classic_player_edit":     Page(CLASSIC_PLAYERS, GM_ONLY_OWNED,     GM_ONLY_OWNED),
    "member_edit":             Page(MEMBERS,  GM_ONLY_OWNED,            GM_ONLY_OWNED),
    "member_replace":          Page(MEMBERS,  NO_GET_OWNED,             GM_ACTS_OWNED),
    "member_remove":           Page(MEMBERS,  GM_ONLY_OWNED,            GM_ACTS_OWNED),
    # Running a campaign (web/running.py): the GM only.
    "turn_preview":            Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    "turn_rollback":           Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_end":            Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_open":           Page(CAMPAIGN, "302 - 403 403 404 200",  "302 - 403 403 404 200"),
    "campaign_play_on":        Page(CAMPAIGN, NO_GET,                   "302 - 403 403 404 302"),
    "campaign_archive":        Page(CAMPAIGN, "302 - 403 403 404 200",  NO_POST),
    # History (history/web/history.py): members, each through their own levels (R51).
    "board_history":           Page(BOARDS_AND_CLASSIC, "302 - 200 200 404 200",  NO_POST),
    "board_map_layout":        Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "board_map_data":          Page(BOARDS,   "302 - 200 200 404 200",  NO_POST),
    "compare_turns":           Page(BOARDS_AND_CLASSIC, "302 - 200 200 404 200",  NO_POST),
    "history_export":          Page(CAMPAIGN_AND_CLASSIC_FILE, "302 - 200 200 404 200",  NO_POST),
    "structure_history":       Page(STRUCTURES, "302 200 404 404 404 200", NO_POST_OWNED),
    "department_history":      Page(SECRET_DEPARTMENTS, THEIRS,         NO_POST_OWNED),
    # RULES parts 7 and 8 (intrigue/web/intrigue.py, intrigue/web/intrigue_gm.py): a player's
    # dossier; the
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
    # Press and profiles (press/web/press.py, press/web/press_gm.py, accounts/web/profile.py).
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
    # The election round (R80, elections/web/elections.py): every member reads the election; the GM
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


def column_of(user_column: str, username: str, owner: str | None) -> str:
    if user_column in PLAYERS:
        return "owner" if owner == username else "player"
    return user_column

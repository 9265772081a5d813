"""Every page of the site costs the same number of SQL queries however many departments,
orders, attempts, notices, audit entries, invitations, turns, members, announcements,
conversations and messages the campaign has (issue 15): no query per row anywhere.

The list of pages is not written here: it comes from Django's URL resolver
(tests/support/urls.py), like the fog-of-war crawl's. What is written here is PAGES, one
entry per URL name: who asks for which URL of that name. Each is counted on the demo after
turn 1 with one of each thing, then again after the campaign grew by GROWTH more of each
(tests/support/growth.py); the counts must be equal. A URL name in neither PAGES nor EXEMPT
fails `test_every_url_name_has_a_query_count_check_or_a_reason`. (The board page, the orders
page and the turn report also have finer tests: test_board_queries.py, test_big_pages.py,
tests/selectors/test_page_queries.py.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Invitation, Office, Order, Turn
from tests.support.demo import Played, member, open_turn, play_turn_one, reset_link
from tests.support.growth import grow_everything
from tests.support.handmade import ClientFor
from tests.support.press import talk
from tests.support.urls import site_patterns

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
GROWTH = 25
ANON = ""  # not logged in

# URL name -> [(user, path arguments)]; "{...}" arguments are filled per campaign (FILL), a
# last one starting with "?" is the query string.
# fmt: off
PAGES: dict[str, list[tuple[str, list[object]]]] = {
    # Accounts (Django's own views, the throttled password reset, signing up).
    "login":                   [(ANON, [])],
    "password_change":         [("alice", [])],
    "password_change_done":    [("alice", [])],
    "password_reset":          [(ANON, [])],
    "password_reset_done":     [(ANON, [])],
    "password_reset_confirm":  [(ANON, ["{reset}"])],
    "password_reset_complete": [(ANON, [])],
    "signup":                  [(ANON, [])],
    "invitation_join":         [(ANON, ["{token}"]), ("alice", ["{token}"])],
    # The site and a campaign.
    "home":                    [(ANON, []), ("alice", [])],
    "how_to_play":             [("alice", [])],
    "notification_settings":   [("alice", [])],
    "profile":                 [("alice", [])],
    "campaign_new":            [("alice", [])],
    "campaign":                [("alice", [SLUG]), ("gm", [SLUG]),
                                ("bob", [SLUG])],  # hand-overs offered to him, to accept
    "board":                   [("alice", [SLUG, "city"]), ("gm", [SLUG, "city"])],
    "turn_process":            [("gm", [SLUG])],
    "extend_deadline":         [("gm", [SLUG])],
    # Reports and the dice.
    "turn_report":             [("alice", [SLUG, 1]), ("gm", [SLUG, 1])],
    "verify_dice":             [("alice", [SLUG, 1])],
    # Orders.
    "orders":                  [("alice", [SLUG]), ("bob", [SLUG])],
    "order_new":               [("alice", [SLUG, "city", kind]) for kind in
                                ("add_link", "break_link", "priority", "move", "attempt",
                                 "function", "perceive", "gift", "handover", "accept",
                                 "nominate", "running_mate", "support", "vote")],
    "order_edit":              [("alice", [SLUG, "{order}"])],
    "order_reinforce":         [("alice", [SLUG, "{attempt}"])],
    "department_defence":      [("alice", [SLUG, "city", "mint"])],
    "order_map_menu":          [("alice", [SLUG, "city"]), ("bob", [SLUG, "city"])],
    # The GM's set-up and editor.
    "campaign_settings":       [("gm", [SLUG])],
    "campaign_alignments":     [("gm", [SLUG])],
    "audit_log":               [("gm", [SLUG])],
    "board_import":            [("gm", [SLUG])],
    "board_export":            [("gm", [SLUG, "city", "json"]), ("gm", [SLUG, "city", "csv"])],
    "players":                 [("gm", [SLUG])],
    "board_new":               [("gm", [SLUG])],
    "board_edit":              [("gm", [SLUG, "city"])],
    "board_delete":            [("gm", [SLUG, "city"])],
    "department_new":          [("gm", [SLUG, "city"])],
    "department_edit":         [("gm", [SLUG, "city", "mint"])],
    "department_delete":       [("gm", [SLUG, "city", "mint"])],
    "board_structures":        [("gm", [SLUG, "city"])],
    "board_knowledge":         [("gm", [SLUG, "city"])],
    "member_edit":             [("gm", [SLUG, "{bob}"])],
    "member_remove":           [("gm", [SLUG, "{bob}"])],
    # Running a campaign.
    "turn_preview":            [("gm", [SLUG])],
    "turn_rollback":           [("gm", [SLUG])],
    "campaign_end":            [("gm", [SLUG])],
    "campaign_open":           [("gm", [SLUG])],
    "campaign_archive":        [("gm", [SLUG])],
    # History.
    "board_history":           [("alice", [SLUG, "city"])],
    "board_map_layout":        [("alice", [SLUG, "city"])],
    "board_map_data":          [("alice", [SLUG, "city"]), ("gm", [SLUG, "city"])],
    "compare_turns":           [("alice", [SLUG, "city"])],
    "history_export":          [("alice", [SLUG])],
    "structure_history":       [("alice", [SLUG, "city", "{alice}"])],
    "department_history":      [("alice", [SLUG, "city", "mint"])],
    # Press.
    "press":                   [("alice", [SLUG]), ("gm", [SLUG])],
    "press_new":               [("alice", [SLUG])],
    "press_conversation":      [("alice", [SLUG, "{conversation}"])],
    "press_poll":              [("alice", [SLUG, "{conversation}", "?after=0"])],
    "press_rules":             [("gm", [SLUG])],
    "announcement_new":        [("gm", [SLUG])],
    "press_overview":          [("alice", [])],
    # RULES parts 7 and 8 (issue 12): the dossier, the GM's characters and envelopes.
    "dossier":                 [("alice", [SLUG])],
    "characters":              [("gm", [SLUG])],
    "shtick_new":              [("gm", [SLUG, "{alice}", "production"])],
    "goal_new":                [("gm", [SLUG, "{alice}", "control_aligned"])],
    "contingency_new":         [("gm", [SLUG, "{alice}", "knowledge"])],
    "department_envelopes":    [("gm", [SLUG, "city", "temple"])],
    # The election round (R80): turn 2 holds the demo's Mayor election.
    "election":                [("alice", [SLUG]), ("gm", [SLUG])],
    "board_offices":           [("gm", [SLUG, "city"])],
    "office_edit":             [("gm", [SLUG, "city", "{office}"])],
    "office_shtick_new":       [("gm", [SLUG, "city", "{office}", "link_limit"])],
}
# fmt: on

ACTION = "an action (POST only, no page of its own): it answers with a redirect to a page above"
EXEMPT: dict[str, str] = {
    name: ACTION
    for name in [
        "logout", "campaign_start", "campaign_pause", "campaign_resume", "turn_report_note",
        "order_cancel", "order_shift", "turn_ready", "notices_read", "invitation_withdraw",
        "link_new", "link_delete", "link_move", "board_knowledge_bulk", "member_replace",
        "press_quote", "press_hide", "set_language", "office_remove", "election_schedule",
        "election_cancel", "shtick_remove", "goal_remove", "contingency_remove",
        "envelope_remove", "office_shtick_remove", "campaign_play_on",
    ]
}  # fmt: skip
EXEMPT["favicon"] = "a redirect to the static icon, read from no campaign"
EXEMPT["classic_group_edit"] = EXEMPT["classic_player_edit"] = (
    "the grown world has no classic board: tests/web/test_classic_editor.py counts the GM's "
    "editor pages' queries on a classic board before and after it grows by 40 groups"
)
EXEMPT["classic_order"] = (
    "the grown world has no classic board: tests/web/test_classic_page_queries.py counts "
    "every kind's form, and every other classic page, before and after a classic board grows "
    "by groups and orders"
)


def test_every_url_name_has_a_query_count_check_or_a_reason() -> None:
    names = set(site_patterns())
    missing = sorted(names - set(PAGES) - set(EXEMPT))
    assert not missing, (
        "These URL names have no query-count check. Add each to PAGES in "
        "tests/web/test_every_page_queries.py (who asks for which URL), or to EXEMPT with the "
        f"reason: {missing}"
    )
    assert sorted((set(PAGES) | set(EXEMPT)) - names) == [], "listed, no such URL name"
    assert set(PAGES) & set(EXEMPT) == set()
    assert all(reason.strip() for reason in EXEMPT.values())


Fill = Callable[[Played], object]
FILL: dict[str, Fill] = {
    "{order}": lambda p: Order.objects.get_or_create(
        turn=open_turn(p.campaign), board=p.campaign.boards.get(slug="city"),
        player=member(p.campaign, "alice"), kind=Order.Kind.FUNCTION, seq=0,
        payload={"department": "mint", "function": "coinage", "stat": "effect"},
    )[0].pk,
    "{attempt}": lambda p: Order.objects.get_or_create(
        turn=open_turn(p.campaign), board=p.campaign.boards.get(slug="city"),
        player=member(p.campaign, "bob"), kind=Order.Kind.ATTEMPT, seq=0,
        payload={"attacker": "guild-hall", "target": "mint"},
    )[0].pk,
    "{office}": lambda p: Office.objects.get(board__campaign=p.campaign, board__slug="city").pk,
    "{alice}": lambda p: member(p.campaign, "alice").pk,
    "{bob}": lambda p: member(p.campaign, "bob").pk,
    "{conversation}": lambda p: talk(p.campaign, "alice", ["bob"], "Hello", "Terms").pk,
    "{token}": lambda p: Invitation.objects.create(
        campaign=p.campaign, uses=100, expires_at=open_turn(p.campaign).deadline
    ).token,
}  # fmt: skip


def url_for(played: Played, name: str, args: list[object]) -> str:
    if args == ["{reset}"]:
        return reset_link(played.campaign, "alice")
    query = str(args[-1]) if args and str(args[-1]).startswith("?") else ""
    path = [FILL[a](played) if a in FILL else a for a in args if a != query]  # type: ignore[index]
    return reverse(name, args=path) + query


def queries_for(client: Client, url: str) -> int:
    """The queries of one GET; a page may answer with a redirect (the password-reset link
    moves its token into the session), never with an error."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code in (200, 302), (url, response.status_code)
    return len(queries)


CASES = [(name, user, args) for name, visits in PAGES.items() for user, args in visits]


@pytest.mark.parametrize(("name", "user", "args"), CASES, ids=lambda v: str(v))
def test_the_page_costs_the_same_queries_whatever_the_campaign_holds(
    client_for: ClientFor, name: str, user: str, args: list[object]
) -> None:
    played = play_turn_one()
    grow_everything(played.campaign, 1)  # one of each: an empty list may skip its query
    url = url_for(played, name, args)
    client = client_for(user) if user else Client()
    small = queries_for(client, url)
    grow_everything(played.campaign, GROWTH)
    assert Turn.objects.filter(campaign=played.campaign).count() > GROWTH
    if args == ["{reset}"]:
        url = url_for(played, name, args)  # the token is used up once the session holds it
        client = Client()
    large = queries_for(client, url)
    assert small == large, f"{url}: {small} queries, {large} after growing by {GROWTH}"

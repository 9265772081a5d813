"""Bad input never gets a 500 (the brief's standard): every form and every POST endpoint of
the site, fed hostile values in its own field names, and every URL with hostile path values.

Surviving does not count unless the view read the input (tests/support/hostile.py): each
example ends with the endpoint's form bound to it and shown again, with what a valid post
does visible afterwards, or with a refusal message that request added; never a 403, 404 or
405, a redirect to the login page, or a redirect that did and said nothing. Each endpoint
says which of these it expects. Each example runs in a savepoint that is rolled back, so
every example meets the same state (an order cancelled by one example is there for the
next). The test client re-raises any exception a view lets through, so a traceback fails
the test even before the status check.

Examples per endpoint: HOSTILE_EXAMPLES distinct bodies (10 by default; .ci/run sets 100),
derandomized so CI is repeatable. Run with HOSTILE_EXAMPLES=500 to search harder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import (
    Announcement,
    Board,
    Campaign,
    Department,
    Invitation,
    Link,
    Membership,
    Message,
    Order,
    Turn,
)
from campaigns.web.order_forms import FORMS
from tests.support.demo import Played, reset_link
from tests.support.hostile import (
    DONE,
    FORM,
    REFUSED,
    SLUG,
    Endpoint,
    World,
    audited,
    board_as_asked,
    campaign_status,
    csv_as_asked,
    deadline_moved,
    defence_as_posted,
    forget_messages,
    gone,
    grew,
    hidden,
    language_as_posted,
    logged_out,
    note_as_posted,
    notices_read,
    order_edited,
    order_moved,
    order_status,
    outcome,
    password_changed,
    profile_as_posted,
    quote_kept,
    ready_as_asked,
    redirected_to,
    removed,
    settings_as_posted,
    turn_one,
    week_world,
    withdrawn,
)
from tests.support.hostile import played_world as played_world_of
from tests.support.urls import site_patterns, site_url_names

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "10"))
# A few examples repeat a body sent already (two ways of drawing the same dictionary); they are
# skipped, and the margin makes sure EXAMPLES distinct bodies are sent.
HOSTILE = settings(
    max_examples=EXAMPLES + EXAMPLES // 2 + 5,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PATHS = settings(HOSTILE, max_examples=EXAMPLES)
NASTY_TEXT = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "9" * 40,
    "-9" * 20,
    "1.5",
    "1e9",
    "NaN",
    "null",
    "true",
    "on",
    "[]",
    '{"money": 1}',
    "\x00",
    "city\x00watch",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "ünïcödé ☃",
    "city-watch",
    "guild-hall",
    "temple",
    "harbour-master",
    "no-such-department",
    "money",
    "people",
    "authority",
    "effect",
    "linking",
    "__other__",
    "up",
    "down",
    "alice",
    "alice@example.com",
    "2027-03-28T02:30",
    "2026-12-01T18:00",
    "9999-12-31T23:59",
    "x" * 5000,
]
nasty = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=30))
MISSING = object()  # the field is left out of the post
value = st.one_of(nasty, st.lists(nasty, min_size=0, max_size=4), st.just(MISSING))
# Fields of other forms of this site, sent where they do not belong.
FOREIGN_FIELDS = ["preview", "ready", "direction", "number", "key", "confirm", "id", "player"]


def hostile_body(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Every one of the form's own fields with a hostile value (one, several for multi-value
    fields such as a move's path, or none), plus some foreign fields."""
    own = st.fixed_dictionaries({name: value for name in fields})
    foreign = st.dictionaries(st.sampled_from(FOREIGN_FIELDS), nasty, max_size=3)
    return st.builds(
        lambda mine, theirs: {k: v for k, v in {**theirs, **mine}.items() if v is not MISSING},
        own,
        foreign,
    )


# --- the worlds the endpoints live in (tests/support/hostile.py) --------------------------------


@pytest.fixture
def week(demo: Campaign) -> World:
    return week_world(demo)


@pytest.fixture
def played_world(played: Played) -> World:
    return played_world_of(played)


# --- every form and POST endpoint ---------------------------------------------------------


def turn_url(name: str, *extra: Any) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, *extra])


def editor_url(name: str, *extra: Any) -> Callable[[World], str]:
    """A URL of the GM's editor on the city board; `extra` may hold callables of the world."""
    return lambda w: reverse(
        name, args=[SLUG, "city", *(e(w) if callable(e) else e for e in extra)]
    )


def order_url(name: str, which: Callable[[World], Order]) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, which(w).pk])


def mint_link(w: World) -> int:
    return Link.objects.get(supplier__slug="mint", consumer__slug="treasury").pk


def bob_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, w.member("bob").pk])


def expects(*outcomes: str) -> frozenset[str]:
    return frozenset(outcomes)


# What each endpoint's valid post, or its refusal, looks like (tests/support/hostile.py).
FORM_OR_DONE = expects(FORM, DONE)
DONE_OR_REFUSED = expects(DONE, REFUSED)
ANY = expects(FORM, DONE, REFUSED)
CARD = ("name", "description", "effect", "obstruct", "impress", "consumes_type",
        "consumes_amount", "produces_type", "produces_amount", "alignments", "flaws", "money",
        "people", "authority", "controller", "home",
        *(f"functions-{f}" for f in ("TOTAL_FORMS", "INITIAL_FORMS", "MAX_NUM_FORMS",
                                     "0-name", "0-skill", "0-DELETE", "1-name")))  # fmt: skip
EDITOR_ENDPOINTS = [
    Endpoint("board_new", "gm", turn_url("board_new"), None, expects=FORM_OR_DONE,
             done=grew(Board)),
    Endpoint("board_edit", "gm", editor_url("board_edit"), expects=FORM_OR_DONE, done=audited),
    Endpoint("board_delete", "gm", editor_url("board_delete"), (), expects=DONE_OR_REFUSED,
             done=gone(Board, slug="city")),
    Endpoint("department_new", "gm", editor_url("department_new"), ("slug", *CARD),
             expects=FORM_OR_DONE, done=grew(Department)),
    Endpoint("department_edit", "gm", editor_url("department_edit", "mint"), CARD,
             expects=FORM_OR_DONE, done=audited),
    Endpoint("department_delete", "gm", editor_url("department_delete", "archives"), (),
             expects=DONE_OR_REFUSED, done=gone(Department, slug="archives")),
    Endpoint("link_new", "gm", editor_url("link_new", "mint"), ("direction", "partner"),
             expects=DONE_OR_REFUSED, done=grew(Link)),
    Endpoint("link_delete", "gm", editor_url("link_delete", "mint", mint_link), (),
             expects=DONE_OR_REFUSED, done=gone(Link, supplier__slug="mint",
                                                 consumer__slug="treasury")),
    Endpoint("link_move", "gm", editor_url("link_move", "mint", mint_link), ("direction",),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("board_structures", "gm", editor_url("board_structures"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("board_knowledge", "gm", editor_url("board_knowledge"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("board_knowledge_bulk", "gm", editor_url("board_knowledge_bulk"),
             ("member", "department", "level", "how"), expects=DONE_OR_REFUSED, done=audited),
    Endpoint("member_edit", "gm", bob_url("member_edit"), expects=FORM_OR_DONE, done=audited),
    Endpoint("member_replace", "gm", bob_url("member_replace"), ("successor", "knowledge"),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("member_remove", "gm", bob_url("member_remove"), (), expects=DONE_OR_REFUSED,
             done=removed),
]  # fmt: skip


ORDER_FORMS = [
    Endpoint(f"order_new {board} {kind}", "alice", turn_url("order_new", board, kind),
             expects=FORM_OR_DONE, done=grew(Order))
    for board in ("city", "harbour")
    for kind in FORMS
]  # fmt: skip
CAMPAIGN_ENDPOINTS = [
    Endpoint("order_edit", "alice", order_url("order_edit", lambda w: w.order),
             expects=FORM_OR_DONE, done=order_edited),
    Endpoint("order_cancel", "alice", order_url("order_cancel", lambda w: w.order), (),
             expects=DONE_OR_REFUSED, done=order_status(Order.Status.CANCELLED)),
    Endpoint("order_shift", "alice", order_url("order_shift", lambda w: w.later[0]),
             ("direction",), expects=DONE_OR_REFUSED, done=order_moved),
    Endpoint("order_reinforce", "alice", order_url("order_reinforce", lambda w: w.attempt),
             expects=FORM_OR_DONE, done=grew(Order)),
    Endpoint("department_defence", "alice",
             turn_url("department_defence", "city", "city-watch"), expects=FORM_OR_DONE,
             done=defence_as_posted),
    Endpoint("turn_ready", "alice", turn_url("turn_ready"), ("ready",),
             expects=DONE_OR_REFUSED, done=ready_as_asked),
    Endpoint("notices_read", "alice", turn_url("notices_read"), (), expects=expects(DONE),
             done=notices_read),
    Endpoint("notification_settings", "alice", lambda w: reverse("notification_settings"),
             expects=FORM_OR_DONE, done=settings_as_posted),
    Endpoint("turn_process", "gm", turn_url("turn_process"), expects=ANY,
             done=turn_one(Turn.Status.PROCESSED)),
    Endpoint("extend_deadline", "gm", turn_url("extend_deadline"), expects=FORM_OR_DONE,
             done=deadline_moved),
    # The demo runs: starting it again or resuming it is refused.
    Endpoint("campaign_start", "gm", turn_url("campaign_start"), (), expects=expects(REFUSED)),
    Endpoint("campaign_pause", "gm", turn_url("campaign_pause"), (), expects=expects(DONE),
             done=campaign_status(Campaign.Status.PAUSED)),
    Endpoint("campaign_resume", "gm", turn_url("campaign_resume"), (),
             expects=expects(REFUSED)),
    Endpoint("turn_report_note", "gm",
             lambda w: reverse("turn_report_note", args=[SLUG, 1, w.roll.pk]),
             tuple(f"note-{{pk}}-{field}" for field in ("gm_note", "publish")),
             world="played", expects=DONE_OR_REFUSED, done=note_as_posted),
    Endpoint("verify_dice", "alice", turn_url("verify_dice", 1), ("key", "dice"),
             world="played", method="get"),
    # History (issue 11): the pages that read their query string.
    Endpoint("board", "alice", turn_url("board", "city"), ("turn",), world="played",
             method="get", expects=DONE_OR_REFUSED, done=board_as_asked),
    Endpoint("compare_turns", "gm", turn_url("compare_turns", "city"), ("first", "second"),
             world="played", method="get"),
    Endpoint("history_export", "alice", turn_url("history_export"), ("board",),
             world="played", method="get", expects=DONE_OR_REFUSED, done=csv_as_asked),
    Endpoint("campaign_new", "alice", lambda w: reverse("campaign_new"),
             expects=FORM_OR_DONE, done=grew(Campaign)),
    Endpoint("board_import", "gm", turn_url("board_import"), expects=FORM_OR_DONE,
             done=grew(Board)),
    Endpoint("campaign_settings", "gm", turn_url("campaign_settings"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("campaign_alignments", "gm", turn_url("campaign_alignments"),
             tuple(f"alignments-{field}" for field in (
                 "TOTAL_FORMS", "INITIAL_FORMS", "MAX_NUM_FORMS", "0-name", "0-opposite",
                 "0-self_opposed", "0-DELETE", "1-name")),
             expects=FORM_OR_DONE, done=audited),
    Endpoint("players", "gm", turn_url("players"), expects=FORM_OR_DONE,
             done=grew(Invitation)),
    Endpoint("turn_rollback", "gm", turn_url("turn_rollback"), ("number", "confirm", "discard"),
             "played", expects=FORM_OR_DONE, done=turn_one(Turn.Status.OPEN)),
    Endpoint("campaign_end", "gm", turn_url("campaign_end"), expects=ANY,
             done=campaign_status(Campaign.Status.FINISHED)),
    # The demo has not ended: opening it is refused.
    Endpoint("campaign_open", "gm", turn_url("campaign_open"), expects=expects(FORM, REFUSED)),
    Endpoint("invitation_withdraw", "gm",
             lambda w: reverse("invitation_withdraw", args=[SLUG, w.invitation.pk]), (),
             expects=expects(DONE), done=withdrawn),
    Endpoint("invitation_join", "",
             lambda w: reverse("invitation_join", args=[w.invitation.token]),
             expects=FORM_OR_DONE, done=grew(Membership)),
]  # fmt: skip
PRESS_AND_ACCOUNTS = [
    # Press (web/press.py, web/press_gm.py) and the profile (web/profile.py).
    Endpoint("press_new", "alice", turn_url("press_new"), expects=FORM_OR_DONE,
             done=grew(Message)),
    Endpoint("press_conversation", "alice",
             lambda w: reverse("press_conversation", args=[SLUG, w.conversation.pk]),
             expects=FORM_OR_DONE, done=grew(Message)),
    Endpoint("press_quote", "alice", turn_url("press_quote", "city", "move"),
             ("route", "tokens_money", "tokens_people", "tokens_authority", "drop_1", "drop_2"),
             expects=expects(DONE), done=quote_kept),
    Endpoint("press_rules", "gm", turn_url("press_rules"), expects=FORM_OR_DONE, done=audited),
    Endpoint("press_hide", "gm",
             lambda w: reverse("press_hide", args=[SLUG, w.conversation.messages.get().pk]), (),
             expects=expects(DONE), done=hidden),
    Endpoint("announcement_new", "gm", turn_url("announcement_new"), expects=FORM_OR_DONE,
             done=grew(Announcement)),
    Endpoint("profile", "alice", lambda w: reverse("profile"), expects=FORM_OR_DONE,
             done=profile_as_posted),
    Endpoint("set_language", "alice", lambda w: reverse("set_language"), ("language", "next"),
             expects=DONE_OR_REFUSED, done=language_as_posted),
    Endpoint("login", "", lambda w: reverse("login")),
    Endpoint("signup", "", lambda w: reverse("signup"), expects=FORM_OR_DONE,
             done=grew(Membership.user.field.related_model)),
    Endpoint("logout", "alice", lambda w: reverse("logout"), (), expects=expects(DONE),
             done=logged_out),
    Endpoint("password_reset", "", lambda w: reverse("password_reset"), expects=FORM_OR_DONE,
             done=redirected_to("password_reset_done")),
    Endpoint("password_change", "alice", lambda w: reverse("password_change"),
             expects=FORM_OR_DONE, done=password_changed),
    Endpoint("password_reset_confirm", "", lambda w: reset_link(w.campaign, "alice"),
             expects=FORM_OR_DONE, done=password_changed),
]  # fmt: skip
ENDPOINTS = [*ORDER_FORMS, *CAMPAIGN_ENDPOINTS, *EDITOR_ENDPOINTS, *PRESS_AND_ACCOUNTS]


def field_names(endpoint: Endpoint, client: Client, url: str, world: World) -> list[str]:
    if endpoint.fields is not None:
        pk = world.roll.pk if world.roll else 0
        return [name.format(pk=pk) for name in endpoint.fields]
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return list(response.context["form"].fields)


def client_as(username: str, client_for: Callable[[str], Client]) -> Client:
    return client_for(username) if username else Client()


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_form_reads_hostile_input_and_answers_without_crashing(
    endpoint: Endpoint, request: pytest.FixtureRequest, client_for
) -> None:
    """Each of EXAMPLES distinct hostile bodies ends in an outcome its endpoint expects:
    its form bound and shown again, its action done as asked, or a refusal said."""
    world: World = request.getfixturevalue("week" if endpoint.world == "week" else "played_world")
    url = endpoint.url(world)
    client = client_as(endpoint.who, client_for)
    fields = field_names(endpoint, client, url, world)
    if endpoint.name == "password_reset_confirm":
        # The mail's link keeps the token in the session and moves on to the form's own URL.
        url = client.get(url)["Location"]
    if endpoint.fields is None:
        assert fields, f"{url} shows a form without fields"
    send = client.get if endpoint.method == "get" else client.post
    reached: dict[str, str] = {}  # each distinct body sent: its outcome
    failing: list[str] = []  # once an example failed, hypothesis shrinks it: send them all

    @HOSTILE
    @given(hostile_body(fields))
    def post_garbage(body: dict[str, Any]) -> None:
        if endpoint.method == "get" and not body.get("key"):
            body["key"] = ""  # verify-the-dice reads its form only when a key is sent
        key = json.dumps(body, sort_keys=True, default=repr)
        if key in reached or (len(reached) >= EXAMPLES and not failing):
            return  # a body sent already, or enough of them: nothing new to learn
        failing.append(key)
        cache.clear()  # the throttles count in the cache: each example starts afresh
        forget_messages(client)
        with transaction.atomic():
            response = send(url, body)
            result = outcome(endpoint, response, world, body) if response.status_code < 500 else ""
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, body, response.status_code)
        assert result in endpoint.expects, (url, body, result)
        reached[key] = result
        failing.remove(key)

    post_garbage()
    # Hypothesis runs more examples than EXAMPLES (HOSTILE) because some repeat a body.
    assert len(reached) >= EXAMPLES, f"only {len(reached)} distinct bodies reached {url}"
    if endpoint in ORDER_FORMS:
        # An order form answers hostile input with its errors, not only with redirects.
        assert FORM in reached.values(), (url, sorted(set(reached.values())))


# Pages that only show (GET): the path fuzz below still reaches them. The admin has its own
# forms, tested by Django; staff only.
SHOW_ONLY = {
    "home",
    "how_to_play",
    "campaign",
    "orders",
    "turn_report",
    "password_change_done",
    "password_reset_done",
    "password_reset_complete",
    "audit_log",
    "board_export",
    "turn_preview",
    "campaign_archive",
    "press",
    "press_poll",
    "press_overview",
    "board_map_layout",
    "board_history",
    "structure_history",
    "department_history",
}


def test_every_url_of_the_site_is_a_hostile_endpoint_or_shows_only() -> None:
    """A new form joins this test or the test fails: every named URL outside the admin is an
    endpoint above or a page that only shows."""
    listed = {e.name.split()[0] for e in ENDPOINTS}
    assert site_url_names() - listed - SHOW_ONLY == set()
    assert SHOW_ONLY <= site_url_names()  # no stale entries


# --- hostile values in the URL's own path ---------------------------------------------------


# Values a converter accepts: names of real things (this campaign's, and slugs that exist
# nowhere), ids of real rows and of none, and numbers past any database's integers.
REAL_SLUGS = ["tourmaline", "city", "harbour", "city-watch", "guild-hall", *FORMS, "gm", "x"]
PATH_VALUES = {
    "SlugConverter": st.one_of(
        st.sampled_from(REAL_SLUGS), st.from_regex(r"\A[-a-zA-Z0-9_]{1,60}\Z")
    ),
    "IntConverter": st.one_of(
        st.integers(min_value=0, max_value=50),
        st.integers(min_value=2**31 - 2, max_value=2**31 + 2),
        st.integers(min_value=2**63 - 2, max_value=10**30),
    ),
    "StringConverter": st.from_regex(r"\A[^/\x00]{1,60}\Z"),
}


def fuzzed_paths() -> list[str]:
    return sorted(name for name, params in site_patterns().items() if params)


@pytest.mark.django_db
@pytest.mark.parametrize("name", fuzzed_paths())
def test_hostile_path_values_get_an_answer_not_a_crash(week: World, client_for, name: str) -> None:
    params = site_patterns()[name]
    assert params  # the URL has path values to fuzz
    clients = {who: client_as(who, client_for) for who in ["", "alice", "gm"]}
    kwargs = st.fixed_dictionaries({k: PATH_VALUES[c] for k, c in params.items()})

    @PATHS
    @given(kwargs, st.sampled_from(sorted(clients)), st.sampled_from(["get", "post"]))
    def visit(values: dict[str, Any], who: str, method: str) -> None:
        url = reverse(name, kwargs=values)
        with transaction.atomic():
            response = getattr(clients[who], method)(url)
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, who, method, response.status_code)

    visit()

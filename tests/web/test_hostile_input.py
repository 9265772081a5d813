"""Bad input never gets a 500 (the brief's standard): every form and every POST endpoint of
the site, fed hostile values in its own field names, and every URL with hostile path values.

A refusal does not count as surviving: each example must reach the form or the action (a
re-rendered bound form, or the redirect of an action done or refused with a message), never
a 403, 404 or 405 that stopped it before the input was read. Each example runs in a savepoint
that is rolled back, so every example meets the same state (an order cancelled by one example
is there for the next). The test client re-raises any exception a view lets through, so a
traceback fails the test even before the status check.

Examples per endpoint: HOSTILE_EXAMPLES (10 by default; .ci/run sets 100), derandomized so CI
is repeatable. Run with HOSTILE_EXAMPLES=500 to search harder.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, ContingencyEnvelope, Conversation, Invitation, Order, Turn
from campaigns.selectors.press import conversation_for
from campaigns.services.orders import orders_submit
from campaigns.services.players import invitation_create
from campaigns.services.press import channel_ensure, message_send
from campaigns.web.intrigue_forms import GOAL_FORMS
from campaigns.web.order_forms import FORMS
from campaigns.web.shtick_forms import SHTICK_FORMS
from tests.support.demo import Played, member, reset_link
from tests.support.urls import site_patterns, site_url_names

SLUG = "tourmaline"
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "10"))
HOSTILE = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
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


# --- the worlds the endpoints live in ---------------------------------------------------------


@dataclass
class World:
    """What the endpoints' URLs need: the demo's open turn with an order of Alice's and an
    attempt of Carol's on Alice (week), or turn 1 played (for the GM's note on a roll)."""

    campaign: Campaign
    order: Order | None = None
    attempt: Order | None = None
    roll: Order | None = None
    invitation: Invitation | None = None
    conversation: Conversation | None = None  # the public channel, with one message


@pytest.fixture
def week(demo: Campaign) -> World:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    city = demo.boards.get(slug="city")

    def submit(player: str, attacker: str, target: str) -> Order:
        return orders_submit(
            player=member(demo, player),
            turn=turn,
            board=city,
            kind=Order.Kind.ATTEMPT,
            payload={"attacker": attacker, "target": target},
        )

    gm = member(demo, "gm").user
    return World(
        demo,
        order=submit("alice", "city-watch", "guild-hall"),
        attempt=submit("carol", "thieves-guild", "city-watch"),
        invitation=invitation_create(campaign=demo, actor=gm, role="player", uses=5, days=7),
        conversation=channel_with_a_message(demo),
    )


def channel_with_a_message(campaign: Campaign) -> Conversation:
    channel = channel_ensure(campaign=campaign)
    bob = member(campaign, "bob")
    message_send(member=bob, conversation=conversation_for(bob, channel.pk), text="Hello")
    return channel


@pytest.fixture
def played_world(played: Played) -> World:
    return World(played.campaign, roll=played.orders["alice_roll"])


@pytest.fixture
def election_world(demo: Campaign) -> World:
    """Turn 2 open with the Mayor's election and the three players' tickets (R80): the
    election's forms have choices to be fed the wrong way."""
    from tests.support.election import TICKETS, election_turn, queue_election

    election_turn(demo)
    queue_election(demo, TICKETS)
    return World(demo)


WORLDS = {"week": "week", "played": "played_world", "election": "election_world"}


# --- every form and POST endpoint ---------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """One form or POST endpoint: who posts, where, and the field names it reads (None: the
    fields of the form its GET page shows)."""

    name: str
    who: str  # a username; "" for an anonymous visitor
    url: Callable[[World], str]
    fields: tuple[str, ...] | None = None
    world: str = "week"
    method: str = "post"


def turn_url(name: str, *extra: Any) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, *extra])


def editor_url(name: str, *extra: Any) -> Callable[[World], str]:
    """A URL of the GM's editor on the city board; `extra` may hold callables of the world."""
    return lambda w: reverse(
        name, args=[SLUG, "city", *(e(w) if callable(e) else e for e in extra)]
    )


def mint_link(w: World) -> int:
    from campaigns.models import Link

    return Link.objects.get(supplier__slug="mint", consumer__slug="treasury").pk


def bob(w: World) -> int:
    return member(w.campaign, "bob").pk


CARD = ("name", "description", "effect", "obstruct", "impress", "consumes_type",
        "consumes_amount", "produces_type", "produces_amount", "alignments", "flaws", "money",
        "people", "authority", "controller", "home",
        *(f"functions-{f}" for f in ("TOTAL_FORMS", "INITIAL_FORMS", "MAX_NUM_FORMS",
                                     "0-name", "0-skill", "0-DELETE", "1-name")))  # fmt: skip
EDITOR_ENDPOINTS = [
    Endpoint("board_new", "gm", turn_url("board_new")),
    Endpoint("board_edit", "gm", editor_url("board_edit")),
    Endpoint("board_delete", "gm", editor_url("board_delete"), ()),
    Endpoint("department_new", "gm", editor_url("department_new"), ("slug", *CARD)),
    Endpoint("department_edit", "gm", editor_url("department_edit", "mint"), CARD),
    Endpoint("department_delete", "gm", editor_url("department_delete", "archives"), ()),
    Endpoint("link_new", "gm", editor_url("link_new", "mint"), ("direction", "partner")),
    Endpoint("link_delete", "gm", editor_url("link_delete", "mint", mint_link), ()),
    Endpoint("link_move", "gm", editor_url("link_move", "mint", mint_link), ("direction",)),
    Endpoint("board_structures", "gm", editor_url("board_structures")),
    Endpoint("board_knowledge", "gm", editor_url("board_knowledge")),
    Endpoint(
        "board_knowledge_bulk",
        "gm",
        editor_url("board_knowledge_bulk"),
        ("member", "department", "level", "how"),
    ),
    Endpoint("member_edit", "gm", lambda w: reverse("member_edit", args=[SLUG, bob(w)])),
    Endpoint(
        "member_replace",
        "gm",
        lambda w: reverse("member_replace", args=[SLUG, bob(w)]),
        ("successor", "knowledge"),
    ),
    Endpoint("member_remove", "gm", lambda w: reverse("member_remove", args=[SLUG, bob(w)]), ()),
]


def mayor(w: World) -> int:
    from campaigns.models import Office

    return Office.objects.get(board__campaign=w.campaign).pk


def election_row(w: World) -> int:
    from campaigns.models import Election

    return Election.objects.get(campaign=w.campaign, number=2).pk


# The election round (R80, web/elections.py): the GM's offices of the city board.
OFFICE_ENDPOINTS = [
    Endpoint("board_offices", "gm", editor_url("board_offices")),
    Endpoint("office_edit", "gm", editor_url("office_edit", mayor)),
    Endpoint("office_remove", "gm", editor_url("office_remove", mayor), ()),
    *(
        Endpoint(f"office_shtick_new {kind}", "gm", editor_url("office_shtick_new", mayor, kind))
        for kind in SHTICK_FORMS
    ),
    Endpoint("office_shtick_remove", "gm", editor_url("office_shtick_remove", mayor, 0), ()),
    Endpoint("election_schedule", "gm", editor_url("election_schedule", mayor), ("number",)),
    Endpoint(
        "election_cancel",
        "gm",
        lambda w: reverse("election_cancel", args=[SLUG, election_row(w)]),
        (),
    ),
]


def bobs(view: str, *extra: Any) -> Callable[[World], str]:
    """A URL of the GM's pages of bob's character; `extra` may hold callables of the world."""
    return lambda w: reverse(
        view, args=[SLUG, bob(w), *(e(w) if callable(e) else e for e in extra)]
    )


def first_of(model: str) -> Callable[[World], int]:
    """The id of bob's first shtick, goal or sealed envelope (the demo gives him each)."""

    def pk(w: World) -> int:
        from campaigns import models

        row = getattr(models, model).objects.filter(member__pk=bob(w)).order_by("pk").first()
        assert row is not None, model
        return int(row.pk)

    return pk


def temple_envelope(w: World) -> int:
    from campaigns.models import IntelEnvelope

    return IntelEnvelope.objects.filter(department__slug="temple").values_list("pk", flat=True)[0]


# RULES parts 7 and 8: the GM's forms of a character and a department (web/intrigue_gm.py).
INTRIGUE_ENDPOINTS = [
    *(Endpoint(f"shtick_new {kind}", "gm", bobs("shtick_new", kind)) for kind in SHTICK_FORMS),
    Endpoint("shtick_remove", "gm", bobs("shtick_remove", first_of("Shtick")), ()),
    *(Endpoint(f"goal_new {kind}", "gm", bobs("goal_new", kind)) for kind in GOAL_FORMS),
    Endpoint("goal_remove", "gm", bobs("goal_remove", first_of("Goal")), ()),
    *(
        Endpoint(f"contingency_new {condition}", "gm", bobs("contingency_new", condition))
        for condition in ContingencyEnvelope.Condition.values
    ),
    Endpoint(
        "contingency_remove", "gm", bobs("contingency_remove", first_of("ContingencyEnvelope")), ()
    ),
    Endpoint("department_envelopes", "gm", editor_url("department_envelopes", "temple")),
    Endpoint("envelope_remove", "gm", editor_url("envelope_remove", "temple", temple_envelope), ()),
]


ORDER_FORMS = [
    Endpoint(f"order_new {board} {kind}", "alice", turn_url("order_new", board, kind))
    for board in ("city", "harbour")
    for kind in FORMS
]
# The election's forms while an election runs (on turn 1 of `week` they have no choice).
ELECTION_FORMS = [
    Endpoint(
        f"order_new city {kind} (election)",
        "bob",
        turn_url("order_new", "city", kind),
        world="election",
    )  # fmt: skip
    for kind in ("nominate", "running_mate", "support", "vote")
]
ENDPOINTS = [
    *ORDER_FORMS,
    *ELECTION_FORMS,
    Endpoint("order_edit", "alice", lambda w: reverse("order_edit", args=[SLUG, w.order.pk])),
    Endpoint(
        "order_cancel", "alice", lambda w: reverse("order_cancel", args=[SLUG, w.order.pk]), ()
    ),
    Endpoint(
        "order_shift",
        "alice",
        lambda w: reverse("order_shift", args=[SLUG, w.order.pk]),
        ("direction",),
    ),
    Endpoint(
        "order_reinforce",
        "alice",
        lambda w: reverse("order_reinforce", args=[SLUG, w.attempt.pk]),
    ),
    Endpoint("department_defence", "alice", turn_url("department_defence", "city", "city-watch")),
    Endpoint("turn_ready", "alice", turn_url("turn_ready"), ("ready",)),
    Endpoint("notices_read", "alice", turn_url("notices_read"), ()),
    Endpoint("notification_settings", "alice", lambda w: reverse("notification_settings")),
    Endpoint("turn_process", "gm", turn_url("turn_process")),
    Endpoint("extend_deadline", "gm", turn_url("extend_deadline")),
    Endpoint("campaign_start", "gm", turn_url("campaign_start"), ()),
    Endpoint("campaign_pause", "gm", turn_url("campaign_pause"), ()),
    Endpoint("campaign_resume", "gm", turn_url("campaign_resume"), ()),
    Endpoint(
        "turn_report_note",
        "gm",
        lambda w: reverse("turn_report_note", args=[SLUG, 1, w.roll.pk]),
        tuple(f"note-{{pk}}-{field}" for field in ("gm_note", "publish")),
        world="played",
    ),
    Endpoint(
        "verify_dice",
        "alice",
        turn_url("verify_dice", 1),
        ("key", "dice", "digest_key"),
        world="played",
        method="get",
    ),
    # History (issue 11): the pages that read their query string.
    Endpoint(
        "board",
        "alice",
        turn_url("board", "city"),
        ("turn", "q", "page"),
        world="played",
        method="get",
    ),
    Endpoint(
        "board_map_data",
        "alice",
        turn_url("board_map_data", "city"),
        ("turn",),
        world="played",
        method="get",
    ),
    # Issue 15: a big report's board and page (a small one ignores them).
    Endpoint(
        "turn_report",
        "alice",
        turn_url("turn_report", 1),
        ("board", "page"),
        world="played",
        method="get",
    ),
    Endpoint(
        "compare_turns",
        "gm",
        turn_url("compare_turns", "city"),
        ("first", "second"),
        world="played",
        method="get",
    ),
    Endpoint(
        "history_export",
        "alice",
        turn_url("history_export"),
        ("board",),
        world="played",
        method="get",
    ),  # fmt: skip
    Endpoint("campaign_new", "alice", lambda w: reverse("campaign_new")),
    Endpoint("board_import", "gm", turn_url("board_import")),
    Endpoint("campaign_settings", "gm", turn_url("campaign_settings")),
    Endpoint(
        "campaign_alignments",
        "gm",
        turn_url("campaign_alignments"),
        tuple(
            f"alignments-{field}"
            for field in (
                "TOTAL_FORMS",
                "INITIAL_FORMS",
                "MAX_NUM_FORMS",
                "0-name",
                "0-opposite",
                "0-self_opposed",
                "0-DELETE",
                "1-name",
            )
        ),
    ),
    Endpoint("players", "gm", turn_url("players")),
    Endpoint(
        "turn_rollback", "gm", turn_url("turn_rollback"), ("number", "confirm", "discard"), "played"
    ),
    Endpoint("campaign_end", "gm", turn_url("campaign_end")),
    Endpoint("campaign_open", "gm", turn_url("campaign_open")),
    Endpoint(
        "invitation_withdraw",
        "gm",
        lambda w: reverse("invitation_withdraw", args=[SLUG, w.invitation.pk]),
        (),
    ),
    Endpoint(
        "invitation_join", "", lambda w: reverse("invitation_join", args=[w.invitation.token])
    ),
    *EDITOR_ENDPOINTS,
    *OFFICE_ENDPOINTS,
    *INTRIGUE_ENDPOINTS,
    # Press (web/press.py, web/press_gm.py) and the profile (web/profile.py).
    Endpoint("press_new", "alice", turn_url("press_new")),
    Endpoint(
        "press_conversation",
        "alice",
        lambda w: reverse("press_conversation", args=[SLUG, w.conversation.pk]),
    ),
    Endpoint(
        "press_quote",
        "alice",
        turn_url("press_quote", "city", "move"),
        ("route", "tokens_money", "tokens_people", "tokens_authority", "drop_1", "drop_2"),
    ),
    Endpoint("press_rules", "gm", turn_url("press_rules")),
    Endpoint(
        "press_hide",
        "gm",
        lambda w: reverse("press_hide", args=[SLUG, w.conversation.messages.get().pk]),
        (),
    ),
    Endpoint("announcement_new", "gm", turn_url("announcement_new")),
    Endpoint("profile", "alice", lambda w: reverse("profile")),
    Endpoint("set_language", "alice", lambda w: reverse("set_language"), ("language", "next")),
    Endpoint("login", "", lambda w: reverse("login")),
    Endpoint("signup", "", lambda w: reverse("signup")),
    Endpoint("logout", "alice", lambda w: reverse("logout"), ()),
    Endpoint("password_reset", "", lambda w: reverse("password_reset")),
    Endpoint("password_change", "alice", lambda w: reverse("password_change")),
    Endpoint("password_reset_confirm", "", lambda w: reset_link(w.campaign, "alice")),
]


def reached(response: Any) -> bool:
    """The input was read: a bound form shown again with its errors, or the action's redirect
    (done, or refused with a message). A 403, 404 or 405 never read it."""
    if response.status_code == 302:
        return True
    if response.status_code != 200:
        return False
    form = response.context.get("form") if response.context else None
    return form is None or form.is_bound


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
    world: World = request.getfixturevalue(WORLDS[endpoint.world])
    url = endpoint.url(world)
    client = client_as(endpoint.who, client_for)
    fields = field_names(endpoint, client, url, world)
    if endpoint.name == "password_reset_confirm":
        # The mail's link keeps the token in the session and moves on to the form's own URL.
        url = client.get(url)["Location"]
    if endpoint.fields is None:
        assert fields, f"{url} shows a form without fields"
    send = client.get if endpoint.method == "get" else client.post
    statuses: list[int] = []

    @HOSTILE
    @given(hostile_body(fields))
    def post_garbage(body: dict[str, Any]) -> None:
        if endpoint.method == "get" and not body.get("key"):
            body["key"] = ""  # verify-the-dice reads its form only when a key is sent
        cache.clear()  # the throttles count in the cache: each example starts afresh
        with transaction.atomic():
            response = send(url, body)
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, body, response.status_code)
        assert reached(response), (url, body, response.status_code)
        statuses.append(response.status_code)

    post_garbage()
    assert len(statuses) >= min(EXAMPLES, 10)
    if endpoint in ORDER_FORMS or endpoint in ELECTION_FORMS:
        # An order form answers hostile input with its errors, not only with redirects.
        assert 200 in statuses, (url, statuses)


# Pages that only show (GET): the path fuzz below still reaches them. The admin has its own
# forms, tested by Django; staff only.
SHOW_ONLY = {
    "home",
    "how_to_play",
    "campaign",
    "orders",
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
    "election",
    "dossier",
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

    @HOSTILE
    @given(kwargs, st.sampled_from(sorted(clients)), st.sampled_from(["get", "post"]))
    def visit(values: dict[str, Any], who: str, method: str) -> None:
        url = reverse(name, kwargs=values)
        with transaction.atomic():
            response = getattr(clients[who], method)(url)
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, who, method, response.status_code)

    visit()

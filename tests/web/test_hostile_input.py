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

Examples per endpoint: HOSTILE_EXAMPLES distinct bodies (10 by default; .ci/run sets 30),
derandomized so CI is repeatable. Run with HOSTILE_EXAMPLES=500 to search harder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.classic.selectors.orders import CLASSIC_KINDS
from campaigns.models import Campaign
from campaigns.web.order_forms import FORMS
from tests.support.demo import Played
from tests.support.hostile import (
    COUNTED,
    FORM,
    GROWN,
    Endpoint,
    World,
    forget_messages,
    outcome,
    week_world,
)
from tests.support.hostile import played_world as played_world_of
from tests.support.hostile_endpoints import ELECTION_FORMS, ENDPOINTS, ORDER_FORMS
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


@pytest.fixture
def election_world(demo: Campaign) -> World:
    """Turn 2 open with the Mayor's election and the three players' tickets (R80): the
    election's forms have choices to be fed the wrong way."""
    from tests.support.election import TICKETS, election_turn, queue_election

    election_turn(demo)
    queue_election(demo, TICKETS)
    return World(demo)


@pytest.fixture
def classic_world(demo: Campaign) -> World:
    """Turn 1 open with a classic board (tests/support/classic_files.py) of alice's and
    bob's: its order forms (RULES R94-R97) have choices to be fed the wrong way."""
    from tests.support.classic_files import classic_board_in

    classic_board_in(demo)
    return World(demo)


WORLDS = {
    "week": "week",
    "played": "played_world",
    "election": "election_world",
    "classic": "classic_world",
}


# --- every form and POST endpoint (tests/support/hostile_endpoints.py) -------------------------


def field_names(endpoint: Endpoint, client: Client, url: str, world: World) -> list[str]:
    if endpoint.fields is not None:
        pk = world.roll.pk if world.roll else 0
        return [name.format(pk=pk) for name in endpoint.fields]
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return list(response.context["form"].fields)


def client_as(username: str, client_for: Callable[[str], Client]) -> Client:
    return client_for(username) if username else Client()


@pytest.mark.slow  # hostile examples for every form or path: out of the fast loop
@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_form_reads_hostile_input_and_answers_without_crashing(
    endpoint: Endpoint, request: pytest.FixtureRequest, client_for
) -> None:
    """Each of EXAMPLES distinct hostile bodies ends in an outcome its endpoint expects:
    its form bound and shown again, its action done as asked, or a refusal said."""
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
    if endpoint in ORDER_FORMS or endpoint in ELECTION_FORMS:
        # An order form answers hostile input with its errors, not only with redirects.
        assert FORM in reached.values(), (url, sorted(set(reached.values())))


# Pages that only show (GET): the path fuzz below still reaches them. The admin has its own
# forms, tested by Django; staff only.
SHOW_ONLY = {
    "home",
    "favicon",  # a redirect to the static icon: it reads no input
    "how_to_play",
    "campaign",
    "orders",
    "password_change_done",
    "password_reset_done",
    "password_reset_complete",
    "board_export",
    "turn_preview",
    "campaign_archive",
    "press",
    "press_poll",
    "press_overview",
    "board_map_layout",
    "order_map_menu",  # the map's order menu (issue 25): it reads no query string
    "board_history",
    "structure_history",
    "department_history",
    "dossier",
    "election",
    "characters",
}


def test_every_url_of_the_site_is_a_hostile_endpoint_or_shows_only() -> None:
    """A new form joins this test or the test fails: every named URL outside the admin is an
    endpoint above or a page that only shows."""
    listed = {e.name.split()[0] for e in ENDPOINTS}
    assert site_url_names() - listed - SHOW_ONLY == set()
    assert SHOW_ONLY <= site_url_names()  # no stale entries


def test_every_model_an_endpoint_watches_grow_is_counted_when_a_world_is_built() -> None:
    """An endpoint whose success is 'a row was added' needs that model's count from before."""
    assert GROWN - set(COUNTED) == set()


# --- hostile values in the URL's own path ---------------------------------------------------


# Values a converter accepts: names of real things (this campaign's, and slugs that exist
# nowhere), ids of real rows and of none, and numbers past any database's integers.
REAL_SLUGS = [
    "tourmaline", "city", "harbour", "city-watch", "guild-hall", *FORMS, *CLASSIC_KINDS, "gm", "x"
]  # fmt: skip
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


@pytest.mark.slow  # hostile examples for every form or path: out of the fast loop
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


# --- bodies no page can read, and NUL bytes (issue 24) ----------------------------------------

CSRF_SECRET = "hostilecsrfsecret" + "x" * 15  # Django takes the 32-character secret as a token
BOUNDARY = "hostile-boundary"


def everything() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what a request wrote shows as a difference."""
    from django.apps import apps

    return {
        model._meta.label: list(model._base_manager.order_by("pk").values_list())
        for model in apps.get_models()
    }


# Sent beside the form's own fields: an endpoint without fields gets the hostile value too.
STRAY = "stray"


def urlencoded(fields: list[str], value: str) -> bytes:
    pairs = [("csrfmiddlewaretoken", CSRF_SECRET), *((n, value) for n in [*fields, STRAY])]
    return "&".join(f"{quote(k)}={v}" for k, v in pairs).encode("ascii")


def multipart(fields: list[str], value: bytes) -> bytes:
    pairs = [("csrfmiddlewaretoken", CSRF_SECRET.encode()), *((n, value) for n in [*fields, STRAY])]
    parts = [
        b'--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
        % (BOUNDARY.encode(), name.encode(), data)
        for name, data in pairs
    ]
    return b"".join(parts) + b"--%s--\r\n" % BOUNDARY.encode()


FORM_TYPE = "application/x-www-form-urlencoded"
# (content type, body of the endpoint's fields): a charset other than UTF-8 or none Python
# knows, and bytes that are not UTF-8 in a form body and in a multipart one.
UNREADABLE: list[tuple[str, Callable[[list[str]], bytes]]] = [
    (f"{FORM_TYPE}; charset=utf-16", lambda f: urlencoded(f, "x")),
    (f"{FORM_TYPE}; charset=latin-1", lambda f: urlencoded(f, "%E9")),
    (f"{FORM_TYPE}; charset=bogus-charset", lambda f: urlencoded(f, "x")),
    (FORM_TYPE, lambda f: urlencoded(f, "%FF%FE")),
    (f"{FORM_TYPE}; charset=utf-8", lambda f: urlencoded(f, "alice%C3")),
    (f"multipart/form-data; boundary={BOUNDARY}", lambda f: multipart(f, b"\xff\xfealice")),
    (f"multipart/form-data; boundary={BOUNDARY}; charset=utf-16", lambda f: multipart(f, b"x")),
]


@pytest.mark.slow  # hostile examples for every form or path: out of the fast loop
@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_every_form_refuses_a_body_it_cannot_read_and_writes_nothing(
    endpoint: Endpoint, request: pytest.FixtureRequest, client_for
) -> None:
    """A body declaring another charset than UTF-8, or whose bytes are not UTF-8, gets the
    400 page and changes nothing, with the CSRF check on as in production (its second
    reading of such a body made Django's own 400 page a 500)."""
    world: World = request.getfixturevalue(WORLDS[endpoint.world])
    url = endpoint.url(world)
    client = client_as(endpoint.who, client_for)
    fields = field_names(endpoint, client, url, world)
    if endpoint.name == "password_reset_confirm":
        url = client.get(url)["Location"]
    client.handler.enforce_csrf_checks = True
    client.cookies["csrftoken"] = CSRF_SECRET
    for content_type, body in UNREADABLE:
        cache.clear()
        with transaction.atomic():
            before = everything()
            response = client.generic("POST", url, body(fields), content_type=content_type)
            after = everything()
            transaction.set_rollback(True)
        assert response.status_code == 400, (url, content_type, response.status_code)
        assert "400.html" in [t.name for t in response.templates], (url, content_type)
        assert after == before, (url, content_type)


def holding_nul(rows: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    """The tables with a NUL byte in some value (PostgreSQL refuses them in text)."""
    return [label for label, values in rows.items() if "\\x00" in repr(values)]


@pytest.mark.slow  # hostile examples for every form or path: out of the fast loop
@pytest.mark.django_db
@pytest.mark.parametrize(
    "endpoint", [e for e in ENDPOINTS if e.method == "post"], ids=lambda e: e.name
)
def test_a_nul_in_any_field_gets_the_form_or_a_refusal_and_is_never_stored(
    endpoint: Endpoint, request: pytest.FixtureRequest, client_for
) -> None:
    """A NUL byte in each field in turn (alone, in a word, and as one of several values), and
    in all of them at once: an outcome the endpoint expects, and no NUL written anywhere
    (PostgreSQL would refuse it with a 500; SQLite would keep it)."""
    world: World = request.getfixturevalue(WORLDS[endpoint.world])
    url = endpoint.url(world)
    client = client_as(endpoint.who, client_for)
    fields = field_names(endpoint, client, url, world)
    if endpoint.name == "password_reset_confirm":
        url = client.get(url)["Location"]
    nul_values: list[Any] = ["\x00", "city\x00watch", ["city-watch", "\x00"]]
    bodies = [{name: nul} for name in fields for nul in nul_values]
    bodies.append(dict.fromkeys(fields, "guild\x00hall"))
    assert holding_nul(everything()) == []
    for body in bodies:
        cache.clear()
        forget_messages(client)
        with transaction.atomic():
            response = client.post(url, body)
            result = outcome(endpoint, response, world, body)
            stored = holding_nul(everything())
            transaction.set_rollback(True)
        assert result in endpoint.expects, (url, body, result)
        assert stored == [], (url, body, stored)


@pytest.mark.slow  # hostile examples for every form or path: out of the fast loop
@pytest.mark.django_db
@pytest.mark.parametrize("name", fuzzed_paths())
def test_a_nul_in_any_path_value_is_refused_not_a_crash(week: World, client_for, name: str) -> None:
    """A NUL byte in each of the URL's path values in turn: a 400 or a 404, never the
    database's refusal as a 500 (PostgreSQL refuses NUL in text: `/join/%00/` was one)."""
    params = sorted(site_patterns()[name])
    samples = {"SlugConverter": "tourmaline", "IntConverter": 1, "StringConverter": "json"}
    kinds = site_patterns()[name]
    for param in params:
        marker = {"SlugConverter": "zzmarker", "IntConverter": 987654, "StringConverter": "zzm"}
        values = {k: samples[kinds[k]] for k in params}
        values[param] = marker[kinds[param]]
        url = reverse(name, kwargs=values)
        for nul in ("%00", f"{marker[kinds[param]]}%00", "%00x"):
            hostile = url.replace(str(marker[kinds[param]]), nul, 1)
            for who in ("", "alice", "gm"):
                for method in ("get", "post"):
                    client = client_as(who, client_for)
                    response = getattr(client, method)(hostile)
                    assert response.status_code in (400, 404), (hostile, who, method)

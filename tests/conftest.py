"""Every fixture the suite shares, in one place (pytest-django adds db, client, live_server).

The builders behind them live in tests/support/ (demo.py: the demo campaign and turn 1
played; handmade.py: a hand-made board; fog.py: the fog-of-war sentinels; turn_job.py:
campaigns for the turn-job tests; ledger.py: what the fault matrix checks after a fault;
processes.py: real Celery workers, beats and a private redis-server; browser.py: Debian's
chromium) and tests/factories.py (one factory_boy factory per model). Django is imported
inside the fixtures, so the engine tests still run without it (`pytest tests/engine -p
no:django`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import browser  # noqa: F401  (the `browser` fixture)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from tests.support.demo import Played
    from tests.support.handmade import ClientFor, HandBoard
    from tests.support.history import ThreeTurns
    from tests.support.processes import Cluster


# Tests that take seconds: the crawl, hostile input, browsers, the fault matrix (marked slow,
# out of the fast loop), and the property tests (hypothesis marks them; in the fast loop).
FIRST_MARKS = ("slow", "browser", "faults", "hypothesis")


@pytest.hookimpl(trylast=True)  # after hypothesis marks its tests and pytest-django sorts
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first, each group in its usual order (the sort is stable). CI's
    processes (pytest-xdist, work stealing) then start the long tests early, and the last
    minutes are the short tests spread over every process, instead of a crawl of a minute and
    a half that began near the end (web/ comes last in the usual order). The order is the same
    in every process, as xdist requires."""
    items.sort(key=lambda item: not any(item.get_closest_marker(m) for m in FIRST_MARKS))


@pytest.fixture(autouse=True)
def no_throttle_counts_from_earlier_tests() -> None:
    """Each test starts with no throttle counts: they live in the cache (accounts.py), which
    outlives a test's database, and every sign-up (the page or an invitation link) counts
    against the test client's one address, so earlier tests' accounts would be refused."""
    from django.conf import settings

    if settings.configured:
        from django.core.cache import cache, caches

        cache.clear()
        # The page cache too (issue 28): a test's rolled-back rows give their ids (and so a
        # campaign version) to the next test's, which must not meet the pages of the last.
        caches["pages"].clear()


@pytest.fixture(autouse=True)
def site_language_after_each_test() -> Iterator[None]:
    """Each test leaves the site's default language active: a request activates its reader's
    language for the whole thread (LocaleMiddleware, accounts/web/preferences.py) and nothing undoes
    it, so a German page read in one test made the next test's services speak German."""
    yield
    from django.conf import settings

    if settings.configured:
        from django.utils import translation

        translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def demo(db: None) -> Campaign:
    """Tourmaline (services/demo.py): gm, alice, bob, carol; turn 1 open."""
    from campaigns.services.demo import demo_create

    return demo_create()


@pytest.fixture
def client_for(db: None) -> ClientFor:
    """A test client logged in as the named user."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    def make(username: str) -> Client:
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        return client

    return make


@pytest.fixture
def hand_board(db: None) -> HandBoard:
    """A small board built by hand (tests/support/handmade.py) for the page tests."""
    from tests.support.handmade import hand_board_create

    return hand_board_create()


@pytest.fixture
def played(db: None) -> Played:
    """Turn 1 of the demo played (tests/support/demo.py: several players' orders, a rejected
    one, Carol's attempt capturing Alice's City Watch)."""
    from tests.support.demo import play_turn_one

    return play_turn_one()


@pytest.fixture
def fogged(demo: Campaign) -> Campaign:
    """The demo, turn 1 open, every department's hidden fields holding sentinels."""
    from tests.support.fog import sentinelize

    sentinelize(demo)
    return demo


@pytest.fixture
def played_fogged(db: None, django_capture_on_commit_callbacks: Any) -> Played:
    """`played`, with mails sent after commit, and flaws and descriptions holding sentinels
    from the start (the turn job recomputes the figures, so those are checked against the
    report's own tables)."""
    from campaigns.services.demo import demo_create
    from tests.support.demo import play_turn_one
    from tests.support.fog import sentinelize

    def create_with_sentinels() -> Campaign:
        campaign = demo_create()
        sentinelize(campaign, fields=["description", "flaws"])
        return campaign

    with django_capture_on_commit_callbacks(execute=True):
        return play_turn_one(create_with_sentinels)


@pytest.fixture
def three_turns(db: None) -> ThreeTurns:
    """The demo after three processed turns (tests/support/history.py): captures in turns 1
    and 2, a link made and gone within turn 2, GM changes before turn 3."""
    from tests.support.history import play_three_turns

    return play_three_turns()


@pytest.fixture
def crossed(demo: Campaign) -> Campaign:
    """Turn 1 of the demo processed with a link from the city's City Watch to the harbour's
    Spice House (tests/support/intrigue.py: a cross_board shtick, RULES R60)."""
    from tests.support.intrigue import cross_board_link

    return cross_board_link(demo)


@pytest.fixture
def postgres() -> None:
    """Skip unless the tests run on PostgreSQL (DATABASE_URL=postgres://...): row locks,
    concurrent connections and other processes sharing the test database need it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")


@pytest.fixture
def cluster(transactional_db: None, tmp_path: Path) -> Iterator[Cluster]:
    """Real Celery workers and beats for one test (tests/support/processes.py), on a queue
    of their own against the test database; every process is stopped at the end. Skips
    unless the tests run on PostgreSQL and Redis."""
    from tests.support.processes import Cluster, require_real_services

    require_real_services()
    cluster = Cluster(folder=tmp_path)
    try:
        yield cluster
    finally:
        cluster.stop()

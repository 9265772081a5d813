"""A page served through the page cache is byte for byte the page rendered without
it (CSRF tokens aside), for every role, after any sequence of changes to the campaign.

Random sequences of steps (tests/support/page_cache.py: orders queued, edited, cancelled,
marked ready; the turn job; undo; the GM's department, stash, link, knowledge, shtick,
envelope and office edits; a player joining by invitation; messages; a member's language) run
on the demo with turn 1 played. After each step every cached page is fetched through the
cache; each one the cache answered (stored by an earlier step) is rendered again with
PAGE_CACHE off, and the two must match (a miss is the view's own answer rendered then: only
a hit can be stale). A "nothing" step changes nothing, so some pages
always come from the cache. Runs on PostgreSQL in CI, where the triggers write the versions.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign
from tests.support.demo import member, play_turn_one
from tests.support.page_cache import ROLES, STEPS, pages, pages_served, step_run

SEQUENCES = settings(
    max_examples=10,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
steps = st.lists(
    st.tuples(st.sampled_from(sorted(STEPS)), st.integers(0, 5)), min_size=2, max_size=5
)


@pytest.mark.parametrize("name", sorted(STEPS))
def test_every_step_changes_the_demo_at_least_once(played: Campaign, name: str) -> None:
    """A step the site refused every time would prove nothing: each one, tried with a few
    picks, is taken at least once."""
    assert any(step_run(played, name, pick) for pick in range(4)), name


@pytest.fixture
def played(db: None) -> Campaign:
    return play_turn_one().campaign


def test_cached_pages_are_the_pages_rendered_without_the_cache(played: Campaign) -> None:
    campaign = played
    clients = {}
    for role in ROLES:
        clients[role] = Client()
        clients[role].force_login(member(campaign, role).user)
    seen: dict[str, Any] = {"sequences": 0, "served": 0, "hits": 0, "steps": set()}

    @SEQUENCES
    @given(steps)
    def run(sequence: list[tuple[str, int]]) -> None:
        caches["pages"].clear()  # ids come back after a rollback: each sequence starts cold
        with transaction.atomic():
            for name, pick in [("start", 0), *sequence]:
                if name != "start":
                    step_run(campaign, name, pick)
                    seen["steps"].add(name)
                wanted = [(role, url) for role in ROLES for url in pages(campaign)]
                with override_settings(PAGE_CACHE=True):
                    served = pages_served(clients, wanted)
                # A miss is the view's own answer, rendered now: only a hit can be stale.
                hits = [(page.role, page.url) for page in served if page.hit]
                with override_settings(PAGE_CACHE=False):
                    rendered = pages_served(clients, hits)
                for page, fresh in zip([p for p in served if p.hit], rendered, strict=True):
                    assert (page.status, page.body) == (fresh.status, fresh.body), (
                        name, pick, page.role, page.url,
                    )  # fmt: skip
                seen["served"] += len(served)
                seen["hits"] += len(hits)
            transaction.set_rollback(True)
        seen["sequences"] += 1

    run()
    print(
        f"page cache: {seen['sequences']} sequences, {seen['served']} pages served, "
        f"{seen['hits']} of them from the cache and compared with a fresh render; "
        f"steps drawn: {sorted(seen['steps'])}"
    )
    assert seen["sequences"] >= 10
    # Pages stored by an earlier step were compared: a step whose change left the version
    # where it was would have served a stale page here.
    assert seen["hits"] > 0, seen

"""The status badge of a turn report's order reads from the reader's side: a function roll
counts its successes (the engine calls it `succeeded` even with none), and an attempt that
failed on the reader's department is a defence that held, while its attacker reads failed."""

from __future__ import annotations

import re

from campaigns.models import Order
from tests.support.demo import Played
from tests.support.handmade import ClientFor
from tests.support.history import play_turn
from tests.support.report_pages import page, report_url


def badge(content: str, order: Order) -> str:
    entry = content.split(f'id="order-{order.engine_id}"')[1]
    found = re.search(r"<span class=\"badge ([^\"]*)\" data-status>([^<]*)</span>", entry)
    assert found, f"no badge for order {order.pk}"
    return f"{found[1]}|{found[2]}"


def failed_take_back(played: Played) -> Order:
    """Turn 2: Alice's Mint tries to take back the City Watch Carol captured in turn 1, and
    Carol's defence holds."""
    attempt = {"attacker": "mint", "target": "city-watch"}
    play_turn(played, 2, [("alice", Order.Kind.ATTEMPT, attempt)], "failed")
    return Order.objects.get(turn__number=2, kind=Order.Kind.ATTEMPT)


def test_a_function_roll_shows_its_successes_not_succeeded(
    played: Played, client_for: ClientFor
) -> None:
    for name, player in [("alice_roll", "alice"), ("bob_roll", "bob")]:
        order = played.order(name)
        (roll,) = order.result["rolls"]
        n = roll["successes"]
        words = f"{n} success" if n == 1 else f"{n} successes"
        tone = "text-bg-success" if n else "text-bg-secondary"
        assert badge(page(client_for(player), report_url(played)), order) == f"{tone}|{words}"


def test_the_german_badge_counts_successes_too(played: Played, client_for: ClientFor) -> None:
    order = played.order("alice_roll")
    n = order.result["rolls"][0]["successes"]
    client = client_for("alice")
    client.cookies.load({"django_language": "de"})
    shown = badge(page(client, report_url(played)), order).split("|")[1]
    assert shown == (f"{n} Erfolg" if n == 1 else f"{n} Erfolge")


def test_the_defender_of_a_failed_attempt_reads_held_its_attacker_failed(
    played: Played, client_for: ClientFor
) -> None:
    order = failed_take_back(played)
    assert order.status == Order.Status.FAILED
    carol = page(client_for("carol"), report_url(played, 2))
    assert 'id="attacks-city"' in carol
    assert badge(carol, order) == "text-bg-success|held"
    alice = page(client_for("alice"), report_url(played, 2))
    assert badge(alice, order) == "text-bg-warning|failed"
    gm = page(client_for("gm"), report_url(played, 2))
    assert badge(gm, order) == "text-bg-warning|failed"


def reason_class(content: str, order: Order) -> str:
    entry = content.split(f'id="order-{order.engine_id}"')[1]
    found = re.search(r"<div class=\"small ([^\"]*)\" data-reason>", entry)
    assert found, f"no reason for order {order.pk}"
    return found[1]


def test_the_reason_of_a_defence_that_held_is_not_shown_as_an_error_to_the_defender(
    played: Played, client_for: ClientFor
) -> None:
    order = failed_take_back(played)
    carol = page(client_for("carol"), report_url(played, 2))
    assert reason_class(carol, order) == "text-success-emphasis"
    alice = page(client_for("alice"), report_url(played, 2))
    assert reason_class(alice, order) == "text-danger"

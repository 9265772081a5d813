"""A classic board's order forms (RULES R94-R97, ENGINE.md part 10; issue 27): the orders
page offers each kind the engine offers (or says in one line why not), every form offers only
legal.py's choices by name, refuses anything else writing nothing, and an attack's preview
shows its need term by term and its exact chance without the defender's treasury (R99)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.engine.classic.preview import attack_preview
from campaigns.models import Campaign, ClassicBoard, Order
from tests.support.classic_files import BOB_TREASURY, MAFIA_TREASURY, classic_board_in, group
from tests.support.demo import member
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db

ATTACK = {"choice": "mafia|yuppies|control", "assist": ["bavarians"], "spend": "3"}


def form_url(campaign: Campaign, kind: str) -> str:
    return reverse("classic_order", args=[campaign.slug, "cabal", kind])


def queued(campaign: Campaign) -> list[Order]:
    return list(Order.objects.filter(board__slug="cabal", status="queued"))


def test_the_orders_page_offers_the_classic_kinds_and_says_why_not_r94(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)
    page = client_for("alice").get(reverse("orders", args=[demo.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    for kind in ("attack", "pass", "transfer", "mb_gift", "drop", "defend", "interfere"):
        assert f'data-classic-kind="{kind}"' in html, kind
    words = text_of(page)
    assert "The site does not take orders for such boards yet" not in words
    # alice's only group to move, the Mafia, hangs on the only other group she has: no move
    # has a choice, and the page says why in one line.
    assert 'data-why-not="move_group"' in html
    assert "no group of yours can move to a free arrow of another (R97)" in words


def test_the_attack_form_names_groups_and_previews_the_need_without_secrets_r95_r99(
    demo: Campaign, client_for: Any
) -> None:
    board = classic_board_in(demo)
    client = client_for("alice")
    page = client.get(form_url(demo, "attack"))
    assert page.status_code == 200
    words = text_of(page)
    assert "The Mafia attacks Yuppies to control" in words
    # Bob's Illuminati cannot be attacked (R95); nothing names a group in the deck.
    assert "attacks Gnomes of Zurich" not in words and "KGB" not in words

    shown = client.post(form_url(demo, "attack"), {**ATTACK, "preview": "1"})
    assert shown.status_code == 200
    words = text_of(shown)
    alice = member(demo, "alice").player_id
    state = {**ClassicBoard.objects.get(board=board).state, "ruleset": "classic"}
    payload = {"group": "mafia", "target": "yuppies", "aim": "control",
               "assist": ["bavarians"], "spend": 3}  # fmt: skip
    expected = attack_preview(state, {"player": alice, "kind": "attack", **payload})
    assert f"Need: {expected['need']} or less" in words
    chance = expected["chance"]
    assert f"{chance.numerator}/{chance.denominator}" in words
    assert "megabucks spent: 3" in words and "resistance: 4" in words
    assert "assistants' transferable power: 10" in words
    assert "treasuries and standing defence are secret" in words
    assert str(BOB_TREASURY) not in shown.content.decode()
    assert queued(demo) == []  # a preview stores nothing


def test_a_posted_attack_is_queued_listed_by_name_and_cancellable_r40(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)
    client = client_for("alice")
    done = client.post(form_url(demo, "attack"), ATTACK)
    assert done.status_code == 302
    [order] = queued(demo)
    assert (order.kind, order.player.user.username) == ("attack", "alice")
    assert order.payload == {"group": "mafia", "target": "yuppies", "aim": "control",
                             "assist": ["bavarians"], "spend": 3}  # fmt: skip
    words = text_of(client.get(reverse("orders", args=[demo.slug])))
    assert "The Mafia attacks Yuppies to control; helped by Bavarian Illuminati" in words
    cancel = client.post(reverse("order_cancel", args=[demo.slug, order.pk]))
    assert cancel.status_code == 302
    order.refresh_from_db()
    assert order.status == "cancelled"


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("pass", {"confirm": "on"}),
        ("transfer", {"choice": "bavarians|mafia", "amount": "4", "action": "on"}),
        ("mb_gift", {"choice": "BOB", "amount": "2"}),
        ("drop", {"choice": "mafia"}),
        ("defend", {"choice": "mafia", "spend": "1"}),
    ],
)
def test_each_kind_queues_what_the_engine_offers_r97(
    demo: Campaign, client_for: Any, kind: str, data: dict[str, str]
) -> None:
    classic_board_in(demo)
    data = {k: v.replace("BOB", member(demo, "bob").player_id) for k, v in data.items()}
    done = client_for("alice").post(form_url(demo, kind), data)
    assert done.status_code == 302, text_of(done)
    [order] = queued(demo)
    assert order.kind == kind


@pytest.mark.parametrize(
    ("kind", "data", "says"),
    [
        # Not offered: the Gnomes are an Illuminati (R95); the KGB is in the deck.
        ("attack", {"choice": "mafia|gnomes|control"}, "Select a valid choice"),
        ("attack", {"choice": "mafia|kgb|control"}, "Select a valid choice"),
        # More than the Mafia's treasury (R95): the engine refuses it.
        (
            "attack",
            {"choice": "mafia|yuppies|control", "spend": str(MAFIA_TREASURY + 1)},
            "not one the rules allow now",
        ),
        # The attacker cannot assist itself: said so, not just "not a legal choice".
        (
            "attack",
            {"choice": "mafia|yuppies|control", "assist": ["mafia"]},
            "The Mafia makes the attack, so it cannot also assist it (R95)",
        ),
        ("transfer", {"choice": "mafia|cia", "amount": "1"}, "Select a valid choice"),
        ("mb_gift", {"choice": "nobody", "amount": "1"}, "Select a valid choice"),
        ("drop", {"choice": "bavarians"}, "Select a valid choice"),
    ],
)
def test_anything_not_offered_is_refused_in_words_and_nothing_stored(
    demo: Campaign, client_for: Any, kind: str, data: dict[str, Any], says: str
) -> None:
    classic_board_in(demo)
    page = client_for("alice").post(form_url(demo, kind), data)
    assert page.status_code == 200
    assert says in text_of(page)
    assert queued(demo) == []


def test_a_classic_kind_on_a_standard_board_or_an_unknown_kind_is_not_found(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)
    client = client_for("alice")
    assert (
        client.get(reverse("classic_order", args=[demo.slug, "city", "attack"])).status_code == 404
    )
    assert client.get(form_url(demo, "attempt")).status_code == 404


def test_the_attack_form_reads_as_many_queries_on_a_larger_board(
    demo: Campaign, client_for: Any
) -> None:
    """A fixed number of queries whatever the number of groups (issue 27)."""
    board = classic_board_in(demo)
    client = client_for("alice")

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(form_url(demo, "attack")).status_code == 200
        return len(queries)

    small = count()
    row = ClassicBoard.objects.get(board=board)
    row.state["groups"] += [group(f"extra-{n}", name=f"Extra {n}") for n in range(40)]
    row.save()
    assert count() == small


def test_the_classic_offers_and_the_attack_preview_read_in_german(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)
    client = client_for("alice")
    client.cookies.load({"django_language": "de"})
    words = text_of(client.get(reverse("orders", args=[demo.slug])))
    assert "Megataler-Transfer" in words and "Passen" in words
    assert "keine Ihrer Gruppen kann an einen freien Pfeil einer anderen wechseln" in words
    shown = text_of(client.post(form_url(demo, "attack"), {**ATTACK, "preview": "1"}))
    assert "The Mafia greift Yuppies an, Ziel: Kontrolle" in shown  # names are data
    assert "übertragbare Macht der Helfer: 10" in shown and "Erfolgschance" in shown


def test_a_classic_order_is_edited_on_its_own_form_prefilled_r40(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)
    client = client_for("alice")
    assert client.post(form_url(demo, "pass"), {}).status_code == 200  # not confirmed
    assert queued(demo) == []
    assert client.post(form_url(demo, "attack"), ATTACK).status_code == 302
    [order] = queued(demo)
    opened = client.get(reverse("order_edit", args=[demo.slug, order.pk]), follow=True)
    assert opened.status_code == 200
    assert opened.context["form"].initial["choice"] == "mafia|yuppies|control"
    assert opened.context["form"].initial["spend"] == 3
    edit = f"{form_url(demo, 'attack')}?order={order.pk}"
    assert client.post(edit, {**ATTACK, "spend": "5"}).status_code == 302
    [edited] = queued(demo)
    assert edited.pk == order.pk and edited.payload["spend"] == 5
    # Not hers, not this kind, or no number: no such order.
    bob = client_for("bob")
    assert bob.get(edit).status_code == 404
    assert client.get(f"{form_url(demo, 'transfer')}?order={order.pk}").status_code == 404
    assert client.get(f"{form_url(demo, 'attack')}?order=x%00").status_code == 404
    assert client.get(f"{form_url(demo, 'attack')}?order=99999999999999999999").status_code == 404


def test_the_orders_page_reads_as_many_queries_with_more_classic_orders_and_groups(
    demo: Campaign, client_for: Any
) -> None:
    """The classic offers and the queued classic orders by name: a fixed number of queries."""
    board = classic_board_in(demo)
    client = client_for("alice")
    client.post(form_url(demo, "attack"), ATTACK)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("orders", args=[demo.slug])).status_code == 200
        return len(queries)

    one = count()
    for data in ({"choice": "bavarians|mafia", "amount": "1"},
                 {"choice": "mafia|bavarians", "amount": "2"}):  # fmt: skip
        assert client.post(form_url(demo, "transfer"), data).status_code == 302
    row = ClassicBoard.objects.get(board=board)
    row.state["groups"] += [group(f"extra-{n}", name=f"Extra {n}") for n in range(40)]
    row.save()
    assert len(queued(demo)) == 3
    assert count() == one


def test_a_player_without_a_structure_on_the_board_is_told_why_for_every_kind_r92(
    demo: Campaign, client_for: Any
) -> None:
    classic_board_in(demo)  # alice's and bob's: carol plays no structure on it
    client = client_for("carol")
    html = client.get(reverse("orders", args=[demo.slug])).content.decode()
    assert "data-classic-kind=" not in html
    assert html.count("you play no structure on this board") == 10
    page = client.post(form_url(demo, "pass"), {"confirm": "on"})
    assert page.status_code == 200 and "you play no structure on this board" in text_of(page)
    assert queued(demo) == []


def test_a_form_opened_for_an_earlier_turn_stores_nothing(demo: Campaign, client_for: Any) -> None:
    classic_board_in(demo)
    page = client_for("alice").post(form_url(demo, "drop"), {"choice": "mafia", "turn": "0"})
    assert page.status_code == 200
    assert "This form was opened for turn 0, which is over" in text_of(page)
    assert queued(demo) == []


def test_the_classic_demos_orders_page_shows_only_what_its_board_has_r90(
    client_for: Any,
) -> None:
    """A campaign whose only board is classic: no linking attempts, so no R46 cut-off, and no
    standard board's standing defence (R47: a classic board's is an order, R96, offered with
    the others); a campaign with a standard board keeps both."""
    from campaigns.services.demo import demo_create
    from campaigns.services.demo_classic import classic_demo_create

    tourmaline = demo_create()
    underside = classic_demo_create()
    client = client_for("alice")
    page = client.get(reverse("orders", args=[underside.slug]))
    words, html = text_of(page), page.content.decode()
    assert "Orders stay editable, reorderable and cancellable until then." in words
    assert "Linking attempts" not in words and "R46" not in words
    assert 'id="defence"' not in html and "Standing defence (R47)" not in words
    assert 'data-classic-kind="defend"' in html  # R96: the classic board's own defence
    standard = text_of(client.get(reverse("orders", args=[tourmaline.slug])))
    assert "Linking attempts must be queued at least 24 hours before it (R46)." in standard
    assert "Standing defence (R47)" in standard

"""Issue 25, blocker 4 (RULES R50): a player always sees the links of their own departments,
the far end named (and nothing more of it), and may break them; the report says what such
a link costs them. tests/support/own_links.py sets the GM's links up."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Order
from campaigns.services.turns import turn_process
from tests.support.demo import member
from tests.support.fog import LINKS, demo_levels, leaks, private_markers, sentinelize
from tests.support.own_links import FAR, gm_links_alices_watch, stat_sentinels

SLUG = "tourmaline"
NEW_LINKS = [("city-watch", slug) for slug in FAR]


@pytest.fixture
def linked(demo: Campaign) -> Campaign:
    gm_links_alices_watch(demo)
    return demo


def text(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_board_page_lists_her_links_with_the_far_ends_named(
    linked: Campaign, client_for
) -> None:
    response = client_for("alice").get(reverse("board", args=[SLUG, "city"]))
    view = response.context["board"]
    links = {(lk.supplier, lk.consumer): lk for lk in view.links}
    for name in FAR.values():
        link = links[("The City Watch", name)]
        assert link.resource == "People" and link.priority is not None  # her supplier's
    rumours = {d.name: d for d in view.rumoured}
    for name in FAR.values():  # named, as a rumour: no card, no slug, no stash
        assert (rumours[name].card, rumours[name].private, rumours[name].slug) == (None,) * 3
    assert "The Thieves' Guild" in text(response)


def test_the_board_map_draws_them_to_name_only_nodes(linked: Campaign, client_for) -> None:
    data = client_for("alice").get(reverse("board_map_data", args=[SLUG, "city"])).json()
    nodes = {n["label"]: n for n in data["nodes"]}
    for name in FAR.values():
        assert set(nodes[name]) == {"id", "label", "level"} and nodes[name]["level"] == "rumoured"
    watch = nodes["The City Watch"]["id"]
    edges = {(e["source"], e["target"]): e for e in data["edges"]}
    for name in FAR.values():
        edge = edges[(watch, nodes[name]["id"])]
        assert edge["type"] == "People"  # what the City Watch produces, her own card
        assert edge["funded"] is None  # the far end's status is its controller's


def test_the_break_link_form_offers_them_by_name_and_queues_the_order(
    linked: Campaign, client_for
) -> None:
    client = client_for("alice")
    url = reverse("order_new", args=[SLUG, "city", Order.Kind.BREAK_LINK])
    choices = dict(
        (label, value) for value, label in client.get(url).context["form"].fields["link"].choices
    )
    for name in FAR.values():
        value = choices[f"The City Watch → {name}"]
        assert "temple" not in value and "thieves" not in value  # a rumour has no slug
    response = client.post(url, {"link": choices["The City Watch → The Thieves' Guild"]})
    assert response.status_code == 302, response.content.decode()[:2000]
    order = Order.objects.get(kind=Order.Kind.BREAK_LINK, player=member(linked, "alice"))
    assert order.payload == {"from": "city-watch", "to": "thieves-guild"}


def test_the_report_says_what_her_links_cost_and_to_whom(linked: Campaign, client_for) -> None:
    turn_process(campaign_id=linked.pk, number=1)
    response = client_for("alice").get(reverse("turn_report", args=[SLUG, 1]))
    [city] = [b for b in response.context["report"].boards if b.slug == "city"]
    [watch] = [d for d in city.departments if d.name == "The City Watch"]
    assert watch.supplied, "the City Watch supplied nobody"
    assert {s.source for s in watch.supplied} <= set(FAR.values())
    assert all(s.type_label == "People" and s.amount > 0 for s in watch.supplied)
    content = text(response)
    first = watch.supplied[0]
    assert f"{first.amount} People to {first.source}" in content


def test_no_page_of_hers_shows_more_of_the_far_ends_than_their_names(
    linked: Campaign, client_for
) -> None:
    """R50 (fog): the board page, its map and its order menu, the break_link and priority
    forms, the turn's report and the history hold the far ends' names and nothing of their
    cards (stats, description) nor their private side (stash, flaws, figures); R51: turn 0,
    before the GM's links, does not even name the Thieves' Guild."""
    sentinelize(linked, fields=["description", "flaws"])
    stats = stat_sentinels(linked)
    client = client_for("alice")
    levels = demo_levels(links=[*LINKS, *NEW_LINKS])["alice"]
    assert {levels[slug] for slug in FAR} == {1}  # the oracle: rumoured, not known
    markers = private_markers(linked)
    city = [SLUG, "city"]
    urls = [
        reverse("board", args=city),
        reverse("board_map_data", args=city),
        reverse("order_new", args=[*city, Order.Kind.BREAK_LINK]),
        reverse("order_new", args=[*city, Order.Kind.PRIORITY]),
        reverse("order_map_menu", args=city),
    ]
    turn_process(campaign_id=linked.pk, number=1)
    urls += [
        reverse("turn_report", args=[SLUG, 1]),
        reverse("board_history", args=city),
        reverse("structure_history", args=[*city, member(linked, "alice").pk]),
        reverse("department_history", args=[*city, "city-watch"]),
        reverse("board_map_data", args=city) + "?turn=1",
    ]
    pages = {url: text(client.get(url)) for url in urls}
    for url, content in pages.items():
        assert leaks(content, levels, markers) == [], url
        assert [s for s in stats if s in content] == [], url
    assert "The Thieves' Guild" in pages[reverse("board", args=city)]
    turn_zero = text(client.get(reverse("board_map_data", args=city) + "?turn=0"))
    assert "The Thieves' Guild" not in turn_zero  # R51: unknown to her then, and no link yet


def test_the_priority_form_names_a_rumoured_consumer_by_id_and_queues_the_order(
    linked: Campaign, client_for
) -> None:
    """R50: the City Watch now supplies two departments she knows only by rumour; its
    funding priority (R12, R41) is hers to set, and the form's values carry their ids, as
    the break_link form's do, never their slugs."""
    client = client_for("alice")
    url = reverse("order_new", args=[SLUG, "city", Order.Kind.PRIORITY])
    choices = client.get(url).context["form"].fields["ordering"].choices
    watch = [(value, label) for value, label in choices if value.startswith("city-watch|")]
    assert len(watch) == 2  # the two orders of her two consumers
    page = text(client.get(url))
    assert "temple" not in page and "thieves-guild" not in page
    order_named = "The Thieves' Guild, The Temple of the Eye"
    value = next(v for v, label in watch if label.endswith(order_named))
    response = client.post(url, {"ordering": value})
    assert response.status_code == 302, response.context["form"].errors
    order = Order.objects.get(kind=Order.Kind.PRIORITY, player=member(linked, "alice"))
    assert order.payload == {"department": "city-watch", "consumers": ["thieves-guild", "temple"]}
    # Editing it: the form shows the queued order chosen.
    edit = client.get(reverse("order_edit", args=[SLUG, order.pk])).context["form"]
    assert edit.initial["ordering"] == value

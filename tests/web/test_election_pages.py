"""The election round on the site (RULES R80, R50): the election page before the deadline, the
four order forms (nominate, running mate, support doubled or not, vote) offering only the
engine's legal choices a player may see, the orders page warning of what the election would
reject, and the turn report naming the winner and why. The demo's Mayor of Tourmaline, elected
in turn 2 (tests/support/election.py)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Department, Notice, Order, Turn
from campaigns.selectors.board_views import node_key
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.services.turns import turn_process
from tests.support.demo import member
from tests.support.election import SUPPORT, TICKETS, election_turn, queue_election
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


@pytest.fixture
def election(demo: Campaign, django_capture_on_commit_callbacks: Any) -> Campaign:
    """Turn 2 open with the Mayor's election (its players told at once, and by mail)."""
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        election_turn(demo)
    return demo


def key(campaign: Campaign, slug: str) -> str:
    return node_key(campaign.boards.get(slug="city").pk, slug)


def form_of(client: Client, kind: str) -> Any:
    response = client.get(reverse("order_new", args=[SLUG, "city", kind]))
    assert response.status_code == 200
    return response.context["form"]


def post(client: Client, kind: str, data: dict[str, Any]) -> Any:
    return client.post(reverse("order_new", args=[SLUG, "city", kind]), {**data, "turn": 2})


def text_of(response: Any) -> str:
    return html.unescape(response.content.decode())


def options(form: Any, field: str) -> list[tuple[str, str]]:
    """Every (value, label) of a select, its groups flattened."""
    found = []
    for value, label in form.fields[field].choices:
        found += label if isinstance(label, list) else [(value, label)]
    return found


# --- Told, and the page before the deadline -------------------------------------------------


def test_players_are_told_of_the_election_on_the_campaign_page_and_in_the_mail(
    election: Campaign, client_for: ClientFor
) -> None:
    notice = Notice.objects.get(player=member(election, "alice"), turn__number=2)
    assert "election for Mayor of Tourmaline" in notice.text
    assert notice.url == reverse("election", args=[SLUG])
    page = text_of(client_for("alice").get(reverse("campaign", args=[SLUG])))
    assert "election for Mayor of Tourmaline" in page
    assert "Election for Mayor of Tourmaline, turn 2" in page  # the link to the election page
    mails = {m.to[0]: m.body for m in mail.outbox}
    assert "Turn 2 holds an election for Mayor of Tourmaline" in mails["alice@example.com"]
    assert reverse("election", args=[SLUG]) in mails["alice@example.com"]
    assert "holds an election" not in mails["gm@example.com"]  # the GM does not vote


def test_the_election_page_shows_the_tickets_and_hides_what_alice_does_not_know(
    election: Campaign, client_for: ClientFor
) -> None:
    queue_election(election, TICKETS + SUPPORT)
    page = text_of(client_for("alice").get(reverse("election", args=[SLUG])))
    assert "Election for Mayor of Tourmaline on The City of Tourmaline, turn 2" in page
    # Her own ticket in full; bob's Guild Hall she knows (power 3), his Printing Press not at
    # all: a department she does not know, unknown support, its power (2 doubled) hidden.
    assert "The Mint" in page and "The Guild Hall" in page
    assert "The Printing Press" not in page and "Seminary" not in page
    assert page.count(str(UNNAMED)) >= 3  # two running mates and the doubled supporter
    assert "The Guild Hall: 3" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert "unknown support" in page
    assert "The Temple of the Eye" in page  # heard of: named, its power hidden
    assert "2 votes" not in page and page.count("1 vote") == 2


def test_an_observer_sees_tickets_of_departments_unknown_to_them(
    election: Campaign, client_for: ClientFor
) -> None:
    from tests.factories import MembershipFactory

    MembershipFactory(campaign=election, role="observer", user__username="olga")
    queue_election(election, TICKETS)
    page = text_of(client_for("olga").get(reverse("election", args=[SLUG])))
    assert "The Mint" not in page and "The Guild Hall" not in page
    assert page.count(str(UNNAMED)) == 6
    assert 'id="election-orders"' not in page  # nothing to order


def test_without_an_election_the_page_says_so_and_lists_the_next(
    demo: Campaign, client_for: ClientFor
) -> None:
    page = text_of(client_for("bob").get(reverse("election", args=[SLUG])))
    assert "There is no election in the open turn." in page
    assert "Turn 2: Mayor of Tourmaline on The City of Tourmaline" in page


# --- The forms ------------------------------------------------------------------------------


def test_the_nominate_form_offers_departments_alice_has_heard_of_by_key_never_by_slug(
    election: Campaign, client_for: ClientFor
) -> None:
    form = form_of(client_for("alice"), Order.Kind.NOMINATE)
    offered = options(form, "candidate")
    names = [label for __, label in offered]
    assert "The Temple of the Eye" in names  # rumoured: a name is enough to nominate
    assert "The Printing Press" not in names  # unknown to her
    slugs = set(Department.objects.values_list("slug", flat=True))
    assert not slugs & {value for value, __ in offered}
    assert key(election, "temple") in {value for value, __ in offered}


def test_three_players_nominate_support_and_vote_through_the_forms(
    election: Campaign, client_for: ClientFor
) -> None:
    alice, bob, carol = (client_for(n) for n in ("alice", "bob", "carol"))
    for client, candidate, mate in [
        (alice, "mint", "treasury"),
        (bob, "guild-hall", "printing-press"),
        (carol, "temple", "seminary"),
    ]:
        data = {"candidate": key(election, candidate), "running_mate": key(election, mate)}
        assert post(client, Order.Kind.NOMINATE, data).status_code == 302
    groups = form_of(bob, Order.Kind.SUPPORT).fields["support"].choices
    doubled = {group: [lb for v, lb in opts if v.endswith("|1")] for group, opts in groups}
    # Only the Printing Press has a media function; its doubled choices say what they cost.
    assert [g for g, found in doubled.items() if found] == ["The Printing Press (Impress 2)"]
    assert all(
        label.endswith("doubled (media): no function roll for The Printing Press this turn")
        for label in doubled["The Printing Press (Impress 2)"]
    )
    press_for_guild = f"{key(election, 'printing-press')}|{key(election, 'guild-hall')}|1"
    assert post(bob, Order.Kind.SUPPORT, {"support": press_for_guild}).status_code == 302
    vote = {"ticket": key(election, "guild-hall")}
    assert post(bob, Order.Kind.VOTE, vote).status_code == 302
    queued = {o.kind: o.payload for o in Order.objects.filter(player=member(election, "bob"))}
    nominated = {"candidate": "guild-hall", "running_mate": "printing-press"}
    assert queued[Order.Kind.NOMINATE] == nominated
    assert queued[Order.Kind.SUPPORT] == {
        "department": "printing-press", "ticket": "guild-hall", "double": True}  # fmt: skip
    assert queued[Order.Kind.VOTE] == {"ticket": "guild-hall"}
    # One vote per player (R80): the form has nothing left, and a second post is refused.
    assert options(form_of(bob, Order.Kind.VOTE), "ticket") == []
    assert post(bob, Order.Kind.VOTE, vote).status_code == 200
    assert Order.objects.filter(kind=Order.Kind.VOTE).count() == 1


def test_a_candidates_controller_names_a_different_running_mate(
    election: Campaign, client_for: ClientFor
) -> None:
    """Carol nominates Bob's Printing Press with her Temple; Bob names his Guild Hall."""
    nominated = {"candidate": "printing-press", "running_mate": "temple"}
    queue_election(election, [("carol", "nominate", nominated)])
    bob = client_for("bob")
    form = form_of(bob, Order.Kind.RUNNING_MATE)
    ticket = "The Printing Press with The Temple of the Eye"
    assert options(form, "candidate") == [(key(election, "printing-press"), ticket)]
    data = {"candidate": key(election, "printing-press"),
            "running_mate": key(election, "guild-hall")}  # fmt: skip
    assert post(bob, Order.Kind.RUNNING_MATE, data).status_code == 302
    same = {**data, "running_mate": key(election, "printing-press")}
    response = post(bob, Order.Kind.RUNNING_MATE, same)
    assert "another department than the candidate" in text_of(response)
    # Carol, who nominated it, has no running mate to name.
    assert options(form_of(client_for("carol"), Order.Kind.RUNNING_MATE), "candidate") == []


def test_an_order_naming_a_department_not_offered_is_refused_and_nothing_stored(
    election: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    for value in ("printing-press", key(election, "printing-press"), "x|y|1", ""):
        data = {"candidate": value, "running_mate": key(election, "mint")}
        response = post(alice, Order.Kind.NOMINATE, data)
        assert response.status_code == 200
        assert "The Printing Press" not in text_of(response)
    assert not Order.objects.filter(kind=Order.Kind.NOMINATE).exists()


def test_editing_a_support_order_shows_its_choice_selected(
    election: Campaign, client_for: ClientFor
) -> None:
    queue_election(election, TICKETS)
    (order,) = queue_election(election, [SUPPORT[3]])  # the Printing Press, doubled
    response = client_for("bob").get(reverse("order_edit", args=[SLUG, order.pk]))
    form = response.context["form"]
    wanted = f"{key(election, 'printing-press')}|{key(election, 'guild-hall')}|1"
    assert form.initial["support"] == wanted
    assert re.search(rf'value="{re.escape(wanted)}"[^>]*checked', response.content.decode())


# --- The orders page before the deadline ----------------------------------------------------


def test_the_orders_page_says_a_doubled_department_loses_its_function_roll(
    election: Campaign, client_for: ClientFor
) -> None:
    turn = election.turns.get(status=Turn.Status.OPEN)
    roll = Order.objects.create(
        turn=turn, board=election.boards.get(slug="city"), player=member(election, "bob"),
        kind=Order.Kind.FUNCTION, seq=0,
        payload={"department": "printing-press", "function": "media", "stat": "impress"},
    )  # fmt: skip
    queue_election(election, TICKETS + [SUPPORT[3]])
    page = text_of(client_for("bob").get(reverse("orders", args=[SLUG])))
    assert "This turn holds an election" in page
    warning = re.search(rf'id="order-{roll.pk}".*?data-warning>(.*?)</div>', page, re.S)
    assert warning is not None
    assert "The Printing Press doubled its election support this turn" in warning.group(1)
    assert "doubled (media): The Printing Press gives up its function roll" in page


def test_the_orders_page_warns_when_a_supported_ticket_is_withdrawn(
    election: Campaign, client_for: ClientFor
) -> None:
    nomination, *__ = queue_election(election, TICKETS)
    queue_election(election, [("alice", "support", {"department": "mint", "ticket": "guild-hall"})])
    Order.objects.filter(pk=nomination.pk).delete()  # not this one: alice's own stays
    bobs = Order.objects.get(player=member(election, "bob"), kind=Order.Kind.NOMINATE)
    bobs.status = Order.Status.CANCELLED
    bobs.save()
    page = text_of(client_for("alice").get(reverse("orders", args=[SLUG])))
    assert "The ticket it names is not nominated now" in page


# --- The report ------------------------------------------------------------------------------


@pytest.fixture
def elected(election: Campaign) -> Campaign:
    queue_election(election, TICKETS + SUPPORT)
    assert turn_process(campaign_id=election.pk, number=2) is not None
    return election


def election_section(client: Client) -> str:
    page = text_of(client.get(reverse("turn_report", args=[SLUG, 2])))
    found = re.search(r'id="election-city".*?</section>', page, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", found.group(0))


def test_the_report_names_the_winner_and_why_as_each_player_knew_it(
    elected: Campaign, client_for: ClientFor
) -> None:
    bobs = election_section(client_for("bob"))
    assert ("The Guild Hall holds Mayor of Tourmaline, with The Printing Press as deputy: "
            "it had the most support") in bobs  # fmt: skip
    assert "The Printing Press (4)" in bobs  # his own, doubled
    alices = election_section(client_for("alice"))
    assert f"with {UNNAMED} as deputy" in alices and "Printing Press" not in alices
    assert "The Guild Hall (3)" in alices and "unknown support" in alices
    # The uncontrolled: each one she knows of, with the chances she may see.
    assert "The Tax Office supports The Guild Hall" in alices
    assert "uncontrolled departments you do not know supported tickets too" in alices


def test_the_gm_sees_every_chance_as_a_fraction(elected: Campaign, client_for: ClientFor) -> None:
    gms = election_section(client_for("gm"))
    chances = re.findall(r"Chances: (.*?)</span>", gms)
    assert len(chances) == 5  # the five uncontrolled departments followed the best chance
    assert all("?" not in line and re.search(r"\d+/\d+ \(", line) for line in chances)


def test_a_roll_off_is_reported_with_its_key_and_recomputed_on_the_verify_page(
    election: Campaign, client_for: ClientFor
) -> None:
    """Every department of the city at Impress 0: no support anywhere, so the result and
    every uncontrolled department go to the roll-off (R80)."""
    Department.objects.filter(board__slug="city").update(impress=0)
    queue_election(election, TICKETS[:2])
    assert turn_process(campaign_id=election.pk, number=2) is not None
    gm = client_for("gm")
    section = election_section(gm)
    assert "the verifiable roll-off chose it" in section
    key_text = re.search(r"<code>(2:election:[\w-]+)</code>", section)
    assert key_text is not None
    page = text_of(gm.get(reverse("verify_dice", args=[SLUG, 2]), {"digest_key": key_text[1]}))
    assert "Matches the digest in your report." in page
    from campaigns.engine.election import digest

    seed = election.turns.get(number=2).seed
    assert digest(seed, key_text[1]) in page
    # A key names departments by slug: a player sees the keys of those she knows as known
    # (her Mint, bob's Guild Hall, the Tax Office), of the others only the digests.
    alices = election_section(client_for("alice"))
    assert "2:election:tax-office:mint" in alices and "2:election:guild-hall" in alices
    assert "2:election:orphanage" not in alices  # only heard of: named, no key
    assert "The Orphanage supports" in alices and "rebel-cell" not in alices


def test_the_report_of_an_election_costs_the_same_queries_however_many_take_part(
    elected: Campaign, client_for: ClientFor
) -> None:
    """The report of turn 2 (five uncontrolled departments) and of turn 3, the Mayor elected
    again with 25 more uncontrolled departments, all known to alice, following the tickets."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaigns.elections.services.offices import election_schedule
    from campaigns.models import Knowledge, Office

    city = elected.boards.get(slug="city")
    extra = Department.objects.bulk_create(
        Department(board=city, slug=f"ward-{i}", name=f"Ward {i}", impress=1, obstruct=1)
        for i in range(25)
    )
    Knowledge.objects.bulk_create(
        Knowledge(player=member(elected, "alice"), department=d, level=2) for d in extra
    )
    election_schedule(office=Office.objects.get(), number=3, actor=member(elected, "gm").user)
    queue_election(elected, TICKETS + SUPPORT)
    assert turn_process(campaign_id=elected.pk, number=3) is not None
    counts = {}
    for user in ("alice", "gm"):
        client = client_for(user)
        for number in (2, 3):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse("turn_report", args=[SLUG, number]))
            assert response.status_code == 200
            counts[user, number] = len(queries)
        assert counts[user, 2] == counts[user, 3], counts
    page = text_of(client_for("alice").get(reverse("turn_report", args=[SLUG, 3])))
    assert "Ward 24 supports" in page


def test_a_quoted_election_order_leaves_out_the_keys_of_departments_the_reader_does_not_know(
    election: Campaign,
) -> None:
    """Press quotes (R62) of the election's forms carry department keys, not slugs: a reader's
    link leaves out those of departments they know below `known`, as it does slugs (R50)."""
    from campaigns.press.selectors.press_quotes import quote_view, quotes_for

    fields = {"candidate": [key(election, "guild-hall")],
              "running_mate": [key(election, "printing-press")]}  # fmt: skip
    quote = {"board": "city", "kind": Order.Kind.NOMINATE, "fields": fields}
    view = quote_view(quote, quotes_for(member(election, "alice")))
    assert view is not None and view.url is not None
    assert key(election, "guild-hall") in view.url  # she knows its card
    assert key(election, "printing-press") not in view.url

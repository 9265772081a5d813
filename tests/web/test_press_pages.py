"""The press pages (RULES R62): players told the rules before they write, two players talking
through the forms under each rule, grey press, the GM's reading, hiding and announcements,
new messages by polling, paging and query counts, and plain text with safe links."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Conversation, Message
from campaigns.press.services.press import channel_ensure, press_rules_set
from tests.support.conversation_pages import conversation_url, start
from tests.support.demo import member
from tests.support.handmade import ClientFor
from tests.support.press import grow, say, talk

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
ALICE, BOB, CAROL = "Alice Ambergris, Comptroller", "Bob Brackwater, Guildmaster", "Mother Carol"


def text_of(response: Any) -> str:
    """The page's text as a reader sees it: tags out, entities and spaces normalised."""
    assert response.status_code == 200, response.status_code
    words = re.sub(r"<[^>]*>", " ", response.content.decode())
    return " ".join(html.unescape(words).split())


def rules(campaign: Campaign, value: str, gm_reads: bool = False) -> None:
    press_rules_set(
        campaign=campaign, actor=member(campaign, "gm").user, rules=value, gm_reads=gm_reads
    )


@pytest.mark.parametrize(
    ("value", "told"),
    [
        ("full", "Players may write to each other privately and in the public channel."),
        ("public", "Players may write only in the public channel"),
        ("none", "Players may not write to each other"),
        ("grey", "Grey press: nobody sees who wrote a message but its sender and the GM."),
    ],
)
def test_players_are_told_the_rules_before_they_write(
    demo: Campaign, client_for: ClientFor, value: str, told: str
) -> None:
    rules(demo, value, gm_reads=value == "grey")
    alice = client_for("alice")
    channel = channel_ensure(campaign=demo)
    for url in [
        reverse("press", args=[SLUG]),
        reverse("press_new", args=[SLUG]),
        conversation_url(channel.pk),
    ]:
        page = text_of(alice.get(url))
        assert told in page, url
        reads = "The GM can read every conversation" if value == "grey" else "read only by"
        assert reads in page, url


def test_alice_and_bob_talk_through_the_forms_and_carol_sees_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice, bob = client_for("alice"), client_for("bob")
    response = start(alice, ["bob"], "The Mint for the Docks?", "A deal")
    talk_row = Conversation.objects.get(subject="A deal")
    assert response["Location"] == conversation_url(talk_row.pk)
    bob_page = text_of(bob.get(conversation_url(talk_row.pk)))
    assert ALICE in bob_page and "The Mint for the Docks?" in bob_page
    assert bob.post(conversation_url(talk_row.pk), {"text": "Done."}).status_code == 302
    alice_page = text_of(alice.get(conversation_url(talk_row.pk)))
    assert BOB in alice_page and "Done." in alice_page
    assert client_for("carol").get(conversation_url(talk_row.pk)).status_code == 404
    assert "A deal" not in text_of(client_for("carol").get(reverse("press", args=[SLUG])))


def test_grey_press_hides_the_sender_from_the_receiver_but_not_from_the_gm(
    demo: Campaign, client_for: ClientFor
) -> None:
    rules(demo, "grey", gm_reads=True)
    talk_row = talk(demo, "alice", ["bob", "carol"], "Carol will betray you, Bob.")
    url = conversation_url(talk_row.pk)
    for name in ("bob", "carol"):
        page = text_of(client_for(name).get(url))
        assert "Anonymous" in page and "Carol will betray you, Bob." in page
        assert ALICE not in page and "alice" not in page.lower().replace("alice ambergris", "")
        assert "not shown under grey press" in page  # nor who is in it
    alice_page = text_of(client_for("alice").get(url))
    assert "You" in alice_page and BOB in alice_page  # she chose whom to write to
    gm_page = text_of(client_for("gm").get(url))
    assert ALICE in gm_page and "Anonymous" not in gm_page


def test_a_closed_rule_shows_why_instead_of_a_composer_and_refuses_a_post(
    demo: Campaign, client_for: ClientFor
) -> None:
    talk_row = talk(demo, "alice", ["bob"], "Before")
    rules(demo, "public")
    bob = client_for("bob")
    page = text_of(bob.get(conversation_url(talk_row.pk)))
    assert "only the public channel now: this conversation is closed" in page
    assert 'id="composer"' not in bob.get(conversation_url(talk_row.pk)).content.decode()
    response = bob.post(conversation_url(talk_row.pk), {"text": "Sneaky"})
    assert "this conversation is closed" in text_of(response)
    assert "New conversation" not in text_of(bob.get(reverse("press", args=[SLUG])))
    assert "allows no private conversations" in text_of(start(bob, ["alice"], "New one"))
    assert Message.objects.count() == 1


def test_messages_are_plain_text_with_safe_links(demo: Campaign, client_for: ClientFor) -> None:
    channel = channel_ensure(campaign=demo)
    say(
        demo,
        "carol",
        channel,
        "<script>alert(1)</script> <b>bold</b> see https://example.org/a?b=1&c=2. "
        'and javascript:alert(2) and "https://x.test/"onmouseover=1\nnext line',
    )
    raw = client_for("alice").get(conversation_url(channel.pk)).content.decode()
    body = raw[raw.index('id="messages"') :]
    assert "<script>alert(1)" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<b>bold</b>" not in body
    assert (
        '<a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer" '
        'target="_blank">https://example.org/a?b=1&amp;c=2</a>.' in body
    )
    assert 'href="javascript' not in body
    assert '<a href="https://x.test/" rel' in body and "onmouseover=1" in body
    assert "onmouseover=1<br>next line" in body


def test_a_conversation_of_a_thousand_messages_pages_in_the_same_queries(
    demo: Campaign, client_for: ClientFor
) -> None:
    talk_row = talk(demo, "alice", ["bob"], "First")
    grow(talk_row, "alice", 9)
    bob, url = client_for("bob"), conversation_url(talk_row.pk)
    bob.get(url)  # the session, the read mark
    with CaptureQueriesContext(connection) as few:
        assert bob.get(url).status_code == 200
    grow(talk_row, "bob", 990)
    bob.get(url)
    with CaptureQueriesContext(connection) as many:
        response = bob.get(url)
    assert len(many) == len(few), [q["sql"] for q in many.captured_queries]
    page = response.content.decode()
    assert page.count('data-seq="') == 50
    assert 'id="m-1000"' in page and 'id="m-951"' in page and 'id="m-950"' not in page
    older = text_of(bob.get(f"{url}?before=951"))
    assert "Note 950" in older and "Note 901" in older and "Note 900" not in older
    assert "First" in text_of(bob.get(f"{url}?before=51"))
    for junk in ["x", "-1", "99999999999999999999"]:
        assert bob.get(f"{url}?before={junk}").status_code == 200


def test_the_press_index_costs_the_same_queries_however_many_conversations(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice, url = client_for("alice"), reverse("press", args=[SLUG])
    talk(demo, "bob", ["alice"], "One")
    alice.get(url)
    with CaptureQueriesContext(connection) as few:
        alice.get(url)
    for n in range(12):
        talk(demo, "bob" if n % 2 else "carol", ["alice"], f"Talk {n}", f"Subject {n}")
    with CaptureQueriesContext(connection) as many:
        page = text_of(alice.get(url))
    assert len(many) == len(few)
    assert page.count("1 unread") == 13


def test_unread_counts_in_the_navbar_and_per_conversation_go_when_read(
    demo: Campaign, client_for: ClientFor
) -> None:
    talk_row = talk(demo, "alice", ["bob"], "One")
    say(demo, "alice", talk_row, "Two")
    say(demo, "carol", channel_ensure(campaign=demo), "Hello all")
    bob = client_for("bob")
    home = bob.get(reverse("home")).content.decode()
    assert re.search(r'id="nav-messages">Messages <span[^>]*data-unread>3<', home)
    index = text_of(bob.get(reverse("press", args=[SLUG])))
    assert "2 unread" in index and "1 unread" in index
    overview = text_of(bob.get(reverse("press_overview")))
    assert "Tourmaline 3 unread" in overview
    bob.get(conversation_url(talk_row.pk))
    home = bob.get(reverse("home")).content.decode()
    assert re.search(r'id="nav-messages">Messages <span[^>]*data-unread>1<', home)
    # Alice wrote two of the three: only Carol's is news to her.
    home = client_for("alice").get(reverse("home")).content.decode()
    assert re.search(r'id="nav-messages">Messages <span[^>]*data-unread>1<', home)


def test_polling_brings_new_messages_and_marks_them_read(
    demo: Campaign, client_for: ClientFor
) -> None:
    talk_row = talk(demo, "alice", ["bob"], "One")
    bob = client_for("bob")
    poll = reverse("press_poll", args=[SLUG, talk_row.pk])
    page = bob.get(conversation_url(talk_row.pk)).content.decode()
    assert f'data-poll="{poll}"' in page and 'data-last-seq="1"' in page
    assert bob.get(poll, {"after": 1}).status_code == 204
    say(demo, "alice", talk_row, "Two <i>")
    fragment = bob.get(poll, {"after": 1})
    assert fragment.status_code == 200
    body = fragment.content.decode()
    assert 'id="m-2"' in body and "Two &lt;i&gt;" in body and "One" not in body
    assert talk_row.participants.get(member__user__username="bob").last_read_seq == 2
    for junk in ["", "x", "-3"]:
        assert bob.get(poll, {"after": junk}).status_code == 404
    assert client_for("carol").get(poll, {"after": 0}).status_code == 404


def test_the_gm_hides_a_message_players_see_that_it_was_hidden(
    demo: Campaign, client_for: ClientFor
) -> None:
    channel = channel_ensure(campaign=demo)
    message = say(demo, "carol", channel, "Rude words")
    gm = client_for("gm")
    hide = reverse("press_hide", args=[SLUG, message.pk])
    assert client_for("alice").post(hide).status_code == 403
    response = gm.post(hide)
    assert response["Location"] == f"{conversation_url(channel.pk)}#m-1"
    alice_page = text_of(client_for("alice").get(conversation_url(channel.pk)))
    assert "Hidden by the GM." in alice_page and "Rude words" not in alice_page
    assert "Rude words" in text_of(gm.get(conversation_url(channel.pk)))
    audit = text_of(gm.get(reverse("audit_log", args=[SLUG])))
    assert "Rude words" in audit
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PRESS).count() == 1


def test_the_gm_reads_a_private_conversation_only_when_the_setting_says_so(
    demo: Campaign, client_for: ClientFor
) -> None:
    talk_row = talk(demo, "alice", ["bob"], "Private words")
    gm = client_for("gm")
    assert gm.get(conversation_url(talk_row.pk)).status_code == 404
    assert "Private words" not in text_of(gm.get(reverse("press", args=[SLUG])))
    response = gm.post(
        reverse("press_rules", args=[SLUG]), {"rules": "full", "gm_reads": "on"}, follow=True
    )
    assert "Press rules saved." in text_of(response)
    page = text_of(gm.get(conversation_url(talk_row.pk)))
    assert "Private words" in page and "you are not in it" in page
    assert f"With {ALICE}, {BOB}" in text_of(gm.get(reverse("press", args=[SLUG])))


def test_the_gms_announcement_is_on_the_campaign_page_of_every_member(
    demo: Campaign, client_for: ClientFor, mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    url = reverse("announcement_new", args=[SLUG])
    assert client_for("alice").get(url).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("gm").post(url, {"text": "Rules change: see https://example.org"})
    assert response.status_code == 302
    for name in ("alice", "bob", "carol", "gm"):
        page = client_for(name).get(reverse("campaign", args=[SLUG])).content.decode()
        assert "Rules change: see" in page and 'href="https://example.org"' in page
    assert len(mailoutbox) == 3


def test_a_quoted_order_links_to_the_order_form_prefilled(
    demo: Campaign, client_for: ClientFor
) -> None:
    """A move (R42) quoted from its form: the message carries a link to the order form with
    the fields in the query string; the form reads them as initial values, nothing more."""
    alice = client_for("alice")
    move = {"route": "treasury,mint,city-watch", "tokens_authority": "2", "drop_1": "authority"}
    quote = reverse("press_quote", args=[SLUG, "city", "move"])
    assert alice.post(quote, {**move, "client_token": "x", "turn": "1"}).status_code == 302
    index = text_of(alice.get(reverse("press", args=[SLUG])))
    assert "Ready to quote in your next message: Move on The City of Tourmaline." in index
    start(alice, ["bob"], "I will do this for you", "Quote", attach_quote="on")
    message = Message.objects.get()
    assert message.quote == {
        "board": "city",
        "kind": "move",
        "fields": {
            "route": ["treasury,mint,city-watch"],
            "tokens_authority": ["2"],
            "drop_1": ["authority"],
        },
        "by": member(demo, "alice").player_id,
    }
    page = alice.get(conversation_url(message.conversation_id)).content.decode()
    link = re.search(
        r'<a class="icon-link" href="([^"]+)">Order form: Move on The City of Tourmaline', page
    )
    assert link is not None
    form_url = html.unescape(link.group(1))
    assert form_url.startswith(reverse("order_new", args=[SLUG, "city", "move"]) + "?")
    form = alice.get(form_url).context["form"]
    assert form["route"].value() == "treasury,mint,city-watch"
    assert form["tokens_authority"].value() == "2" and form["drop_1"].value() == "authority"
    assert form["client_token"].value() != "x"
    # Bob's form offers none of Alice's routes: nothing is selected, nothing breaks.
    bob_form = client_for("bob").get(form_url)
    assert bob_form.status_code == 200
    offered = [v for v, _ in bob_form.context["form"].fields["route"].choices]
    assert "treasury,mint,city-watch" not in offered
    # The quote went with the message: the next one carries none.
    assert "Ready to quote" not in text_of(alice.get(reverse("press", args=[SLUG])))
    # A GM who reads press sees the quote without a link: the GM queues no orders.
    rules(demo, "full", gm_reads=True)
    gm_page = client_for("gm").get(conversation_url(message.conversation_id)).content.decode()
    assert "Order form: Move on The City of Tourmaline, prefilled" in gm_page
    assert "?route=" not in gm_page


def test_a_quote_of_an_unknown_kind_or_board_is_404(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    for board, kind in [("city", "reinforce"), ("city", "nonsense"), ("atlantis", "move")]:
        response = alice.post(reverse("press_quote", args=[SLUG, board, kind]), {})
        assert response.status_code == 404, (board, kind)


def test_an_order_form_link_with_junk_in_its_query_still_opens_the_form(
    demo: Campaign, client_for: ClientFor
) -> None:
    from campaigns.web.order_forms import FORMS

    alice = client_for("alice")
    junk = {"route": "<script>", "tokens_money": "lots", "turn": "99", "client_token": "x"}
    for kind, form_class in FORMS.items():
        query = {**junk, **{name: "\x01 nonsense ' \" <b>" for name in form_class.base_fields}}
        query.update(turn="99", client_token="x")
        response = alice.get(reverse("order_new", args=[SLUG, "city", kind]), query)
        assert response.status_code == 200, kind
        form = response.context["form"]
        assert not form.is_bound and form["turn"].value() == 1  # how it was opened: not taken
        assert "<b>" not in response.content.decode().split('id="main-nav"')[1], kind


def test_the_overview_costs_the_same_queries_however_many_campaigns(
    demo: Campaign, client_for: ClientFor
) -> None:
    from tests.factories import MembershipFactory

    bob, url = client_for("bob"), reverse("press_overview")
    bob.get(url)
    with CaptureQueriesContext(connection) as few:
        bob.get(url)
    user = member(demo, "bob").user
    for _ in range(5):
        MembershipFactory(user=user)
    with CaptureQueriesContext(connection) as many:
        page = text_of(bob.get(url))
    assert len(many) == len(few)
    assert page.count("all read") == 6

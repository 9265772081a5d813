"""RULES R50 through press: a message shows what its sender typed and nothing the site adds.

Alice writes to Bob naming a department Bob has never heard of, and quotes a move along her
own departments (two of which Bob knows below `known`). Every press page Bob reaches, the
new-messages fragment and his mail digest show the name Alice typed and nothing else his
level hides: no slug, no card, no sentinel, no link to a board or department; the quoted
order's link leaves out the field that names departments hidden from him."""

from __future__ import annotations

import datetime as dt
import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Message
from campaigns.press.services.press import channel_ensure
from campaigns.press.services.press_mail import DIGEST_GRACE, press_digests_send
from tests.support.demo import member
from tests.support.fog import NAMES, demo_levels, leaks, private_markers
from tests.support.handmade import ClientFor
from tests.support.press import say

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
MOVE = {"route": "treasury,mint,city-watch", "tokens_authority": "2", "drop_1": "authority"}


def bob_unknown(levels: dict[str, int]) -> str:
    """A department Bob has never heard of, which Alice knows (so she can name it)."""
    alice = demo_levels()["alice"]
    return next(s for s, lvl in sorted(levels.items()) if lvl == 0 and alice[s] >= 1)


def test_bob_reads_alices_words_and_nothing_his_level_hides(
    fogged: Campaign, client_for: ClientFor, django_capture_on_commit_callbacks
) -> None:
    levels = demo_levels()["bob"]
    typed = bob_unknown(levels)
    alice = client_for("alice")
    alice.post(reverse("press_quote", args=[SLUG, "city", "move"]), MOVE)
    pks = [member(fogged, "bob").pk]
    text = f"Beware {NAMES[typed]}. I will move this way: see the order."
    response = alice.post(
        reverse("press_new", args=[SLUG]),
        {"recipients": pks, "subject": "Fair warning", "text": text, "attach_quote": "on"},
    )
    assert response.status_code == 302
    message = Message.objects.get()
    assert message.quote["fields"]["route"] == [MOVE["route"]]
    say(fogged, "carol", channel_ensure(campaign=fogged), f"Who controls {NAMES[typed]}?")

    bob = client_for("bob")
    conversation = reverse("press_conversation", args=[SLUG, message.conversation_id])
    pages = {
        url: bob.get(url).content.decode()
        for url in [
            reverse("press", args=[SLUG]),
            conversation,
            reverse("press_overview"),
            reverse("campaign", args=[SLUG]),
        ]
    }
    pages["poll"] = bob.get(
        reverse("press_poll", args=[SLUG, message.conversation_id]), {"after": 0}
    ).content.decode()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        press_digests_send(now=timezone.now() + DIGEST_GRACE + dt.timedelta(minutes=1))
    [digest] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    pages["digest"] = f"{digest.subject}\n{digest.body}"

    markers = private_markers(fogged)
    problems = {
        url: leaks(page, levels, markers, allowed_names=[typed]) for url, page in pages.items()
    }
    assert {url: found for url, found in problems.items() if found} == {}
    assert NAMES[typed] in html.unescape(pages[conversation])  # shown as typed
    assert NAMES[typed] in pages["digest"]

    # The site adds no link: in the messages, only the quoted order's link to Bob's form.
    listed = pages[conversation][pages[conversation].index('id="messages"') :]
    links = re.findall(r'href="([^"]+)"', listed.split("</ul>")[0])
    order_form = reverse("order_new", args=[SLUG, "city", "move"])
    assert [urlsplit(html.unescape(u)).path for u in links] == [order_form]
    # ... which leaves out the route (The Treasury and The City Watch are hidden from Bob)
    # and keeps the rest as Alice sent it.
    query = parse_qs(urlsplit(html.unescape(links[0])).query)
    assert query == {"tokens_authority": ["2"], "drop_1": ["authority"]}
    assert (levels["treasury"], levels["city-watch"]) < (2, 2)


def test_alice_sees_her_own_quote_whole(fogged: Campaign, client_for: ClientFor) -> None:
    """The sender knows every department of her own route: her link keeps it."""
    alice = client_for("alice")
    alice.post(reverse("press_quote", args=[SLUG, "city", "move"]), MOVE)
    channel = channel_ensure(campaign=fogged)
    alice.post(
        reverse("press_conversation", args=[SLUG, channel.pk]),
        {"text": "My plan", "attach_quote": "on"},
    )
    page = alice.get(reverse("press_conversation", args=[SLUG, channel.pk])).content.decode()
    link = re.search(r'<a class="icon-link" href="([^"]+)"', page)
    assert link is not None
    assert parse_qs(urlsplit(html.unescape(link.group(1))).query) == {
        key: [value] for key, value in MOVE.items()
    }
    # Carol knows The City Watch but not The Treasury: the route is left out for her too.
    carol = client_for("carol").get(reverse("press_conversation", args=[SLUG, channel.pk]))
    carol_link = re.search(r'<a class="icon-link" href="([^"]+)"', carol.content.decode())
    assert carol_link is not None and "route" not in carol_link.group(1)

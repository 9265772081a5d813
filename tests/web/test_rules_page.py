"""The "How to play" page (/rules/) and rule ids as links (campaigns/templatetags/rules.py).

Players cannot read the rulebook (docs/rules.md): every rule id it defines has an anchor on
the rules page, and every "R43" a page shows (static text, order refusals and reasons,
notices, messages, the turn report) is a link to that anchor. User text stays escaped on the way."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.messages.storage.base import Message
from django.template.loader import get_template, render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Department, Notice, Order, Turn
from campaigns.services.orders import orders_submit
from campaigns.templatetags.rules import RULE_IDS, rule_links
from campaigns.web.order_forms import FORMS
from campaigns.web.rules import LANGUAGES as RULES_LANGUAGES
from campaigns.web.rules import rules_parts
from tests.support.demo import Played, play_turn_one
from tests.support.handmade import ClientFor

# The rulebook, in the repository: a test that reads it fails (never skips) without it.
RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SLUG = "tourmaline"
ID = re.compile(r"\bR\d+\b")
# Not text the site writes: a textarea holds what the player typed, to edit it.
SKIP = {"script", "style", "title", "head", "template", "textarea"}


class VisibleText(HTMLParser):
    """Each text node a reader sees, with the href of the link it is in (or None); the ids
    of every element; the href of every link."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[tuple[str, str | None]] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.link: str | None = None
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if named.get("id"):
            self.ids.add(str(named["id"]))
        if tag in SKIP:
            self.skipping += 1
        if tag == "a":
            self.link = named.get("href") or ""
            self.hrefs.append(self.link)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP:
            self.skipping = max(0, self.skipping - 1)
        if tag == "a":
            self.link = None

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append((data, self.link))


def parse(html: str) -> VisibleText:
    parser = VisibleText()
    parser.feed(html)
    return parser


def unlinked_ids(html: str) -> list[str]:
    """Rule ids in visible text that are not the text of a link to their own anchor."""
    wrong = []
    for text, href in parse(html).texts:
        for found in ID.findall(text):
            if href != f"/rules/#{found}":
                wrong.append(f"{found} in {text.strip()[:80]!r} (link: {href})")
    return wrong


def rules_anchors(client: Client) -> set[str]:
    response = client.get(reverse("how_to_play"))
    assert response.status_code == 200
    return parse(response.content.decode()).ids


# --- The rules page --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rules_page_is_open_to_everyone_and_linked_from_the_navbar_and_home() -> None:
    client = Client()
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "How to play" in html
    home = client.get(reverse("home")).content.decode()
    nav = home.split("</nav>")[0]
    assert 'href="/rules/"' in nav, "the navbar links the rules page"
    assert home.count('href="/rules/"') >= 2, "the home page links it too"


@pytest.mark.django_db
def test_every_rule_rules_md_defines_has_an_anchor_and_no_other_does() -> None:
    anchors = rules_anchors(Client())
    defined = {f"R{n}" for n in range(1, 100) if f"R{n}" in RULE_IDS}
    assert {a for a in anchors if re.fullmatch(r"R\d+", a)} == defined
    in_md = set(re.findall(r"^\*\*(R\d+)\b", RULES_MD.read_text(), flags=re.M))
    assert defined == in_md


@pytest.mark.django_db
def test_every_rule_id_on_the_rules_page_links_to_its_anchor() -> None:
    html = Client().get(reverse("how_to_play")).content.decode()
    assert unlinked_ids(html) == []
    for part in range(1, 11):
        assert f'id="part-{part}"' in html


@pytest.mark.django_db
def test_every_language_states_the_same_rules_with_the_same_links() -> None:
    """The rules are written once per language (templates/campaigns/rules/<language>/,
    web/rules.py): each language's page has every part, the same anchors (R1..R90, the parts,
    the contents) and links to the same rules, in the same order, so a rule id means the same
    place in every language."""
    pages = {}
    for language in RULES_LANGUAGES:
        for part in rules_parts(language):
            assert get_template(part), part
        response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("how_to_play"))
        assert f'<html lang="{language}"' in response.content.decode()
        pages[language] = parse(response.content.decode())
    english = pages["en"]
    assert {a for a in english.ids if re.fullmatch(r"R\d+", a)} == set(RULE_IDS)
    for language, page in pages.items():
        assert page.ids == english.ids, language
        assert [h for h in page.hrefs if "#" in h] == [h for h in english.hrefs if "#" in h], (
            f"{language}: the rule links differ from the English page's"
        )


@pytest.mark.django_db
def test_a_german_reader_gets_the_rules_in_german() -> None:
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("how_to_play")).content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("how_to_play")).content.decode()
    assert "Spielanleitung" in german and "Gleichstand gewinnt der Verteidiger" in german
    assert "Things on the table" not in german and "ties go to the defender" not in german
    assert "Things on the table" in english and "Spielanleitung" not in english


# --- The filter and the tag ------------------------------------------------------------------


def test_rule_links_links_single_ids_ranges_and_rules_prefix() -> None:
    html = str(rule_links("See R43, R40-R47 and RULES R23; not R16, R2D2 or AR15."))
    assert html.count('<a href="/rules/#R43"') == 1
    assert '<a href="/rules/#R40" class="rule-link">R40</a>-<a href="/rules/#R47"' in html
    assert 'RULES <a href="/rules/#R23"' in html
    assert "R16" in html and "#R16" not in html, "an id RULES.md does not define: no link"
    assert '#R2"' not in html and "AR15" in html


def test_rule_links_escapes_user_text_before_linking() -> None:
    html = str(rule_links('<b onclick="x()">R43</b> & <script>'))
    assert "<b" not in html and "<script>" not in html
    linked = '<a href="/rules/#R43" class="rule-link">R43</a>'
    assert f"&lt;b onclick=&quot;x()&quot;&gt;{linked}" in html


# --- Every page of the demo ------------------------------------------------------------------


@pytest.fixture
def played(db: None) -> Played:
    """The demo with turn 1 processed (tests/support/demo.py), turn 2 open."""
    return play_turn_one()


def demo_pages(campaign: Campaign, client: Client, username: str) -> dict[str, str]:
    """url -> html of the pages `username` reaches in the demo (turn 1 report included)."""
    boards = ["city", "harbour"]
    urls = [
        reverse("home"),
        reverse("campaign", args=[SLUG]),
        reverse("notification_settings"),
        *(reverse("board", args=[SLUG, b]) for b in boards),
        reverse("turn_report", args=[SLUG, 1]),
        reverse("turn_report", args=[SLUG, 0]),
        reverse("verify_dice", args=[SLUG, 1]),
    ]
    if username == "gm":
        urls += [reverse("turn_process", args=[SLUG]), reverse("extend_deadline", args=[SLUG])]
    else:
        urls.append(reverse("orders", args=[SLUG]))
        urls += [reverse("order_new", args=[SLUG, b, kind]) for b in boards for kind in FORMS]
        turn = campaign.turns.get(status=Turn.Status.OPEN)
        for order in Order.objects.filter(turn=turn, player__user__username=username):
            urls.append(reverse("order_edit", args=[SLUG, order.pk]))
        for dept in Department.objects.filter(structure__player__user__username=username):
            urls.append(reverse("department_defence", args=[SLUG, dept.board.slug, dept.slug]))
    pages = {}
    for url in urls:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        pages[url] = response.content.decode()
    return pages


def queue_turn_two(played: Played) -> None:
    """Turn 2 orders of alice's whose words carry rule ids: an intent with markup, a
    rejected order with its reason, and a notice."""
    turn = played.campaign.turns.get(status=Turn.Status.OPEN)
    alice = played.members["alice"]
    city = played.campaign.boards.get(slug="city")
    orders_submit(
        player=alice, turn=turn, board=city, kind=Order.Kind.FUNCTION,
        payload={"department": "mint", "function": "coinage", "stat": "effect",
                 "intent": "<b>R43</b> is <i>mine</i>"},
    )  # fmt: skip
    Order.objects.create(
        turn=turn, board=city, player=alice, kind=Order.Kind.FUNCTION, seq=50,
        status=Order.Status.REJECTED,
        payload={"department": "mint", "function": "coinage", "stat": "effect"},
        result={"reason": "mint already made a function roll this turn (R45)"},
    )  # fmt: skip
    Notice.objects.create(player=alice, turn=turn, text="A rumour about R46 and <b>you</b>.")


@pytest.mark.parametrize("username", ["alice", "carol", "gm"])
def test_every_rule_id_the_demo_shows_links_to_an_anchor_that_exists(
    played: Played, client_for: ClientFor, username: str
) -> None:
    queue_turn_two(played)
    client = client_for(username)
    anchors = rules_anchors(client)
    pages = demo_pages(played.campaign, client, username)
    assert len(pages) > 5
    rule_links = 0
    for url, html in pages.items():
        assert unlinked_ids(html) == [], url
        for href in parse(html).hrefs:
            if href.startswith("/rules/#"):
                rule_links += 1
                assert href.removeprefix("/rules/#") in anchors, (url, href)
        assert "<b>R43" not in html and "<b>you" not in html, url
    assert rule_links > 0  # the pages do link rule ids


def test_user_markup_stays_escaped_on_the_orders_page(
    played: Played, client_for: ClientFor
) -> None:
    queue_turn_two(played)
    html = client_for("alice").get(reverse("orders", args=[SLUG])).content.decode()
    assert '&lt;b&gt;<a href="/rules/#R43" class="rule-link">R43</a>&lt;/b&gt;' in html
    assert '<a href="/rules/#R45" class="rule-link">R45</a>' in html, "the rejected reason"
    assert '<a href="/rules/#R46" class="rule-link">R46</a> and &lt;b&gt;you' in html


def test_a_refusal_on_the_order_form_links_its_rule(played: Played, client_for: ClientFor) -> None:
    """R46: an attempt queued after the cut-off is refused on the form, with a link."""
    turn = played.campaign.turns.get(status=Turn.Status.OPEN)
    turn.deadline = timezone.now() + dt.timedelta(hours=2)
    turn.save(update_fields=["deadline"])
    client = client_for("carol")
    url = reverse("order_new", args=[SLUG, "city", Order.Kind.ATTEMPT])
    form = client.get(url).context["form"]
    attacker = form.fields["attacker"].choices[0][0]
    target = form.fields["target"].choices[0][0]
    response = client.post(url, {"attacker": attacker, "target": target, "submit": "1"})
    html = response.content.decode()
    assert "hours before the deadline" in html
    assert unlinked_ids(html) == []
    assert '<a href="/rules/#R46" class="rule-link">R46</a>' in html


def test_messages_link_rule_ids_and_stay_escaped() -> None:
    messages = [Message(40, "Refused <i>now</i> (R46)."), Message(20, "R16 is not a rule")]
    html = render_to_string("base.html", {"messages": messages})
    assert '&lt;i&gt;now&lt;/i&gt; (<a href="/rules/#R46" class="rule-link">R46</a>)' in html
    assert "#R16" not in html

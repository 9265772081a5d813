"""Every page of the site in German (issue 13), as each role reads it: no English left.

The world and the list of pages are the fog-of-war crawl's (tests/support/crawl.py,
tests/support/crawl_pages.py PAGES): every URL each role may GET (status 200 in its column) is
requested by a German-speaking user (profile language `de`; the visitor by Accept-Language).
What the page shows (its text, and its titles, labels and placeholders) must hold

- no msgid of the German catalogue whose German differs, as long as a few words: a string
  that was wrapped but is shown untranslated (gettext called at import time, a lazy string
  forced too early, a language not activated);
- none of TELLTALES: English the catalogue does not know, which never went through gettext.

Demo content (department, board and campaign names, descriptions, press messages) is data in
the language its author wrote: it is taken out of the text before the search (`data_of`). A
notice is put into words when read (campaigns/words/notices.py), so it is German here although
it was written before these readers chose German: only the names in it are data, and the text
of a notice without a code (written as it stays). "Import" and "Links" are German words too."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client

from campaigns.models import (
    Campaign,
    ClassicBoard,
    Department,
    Membership,
    Notice,
    Office,
    Profile,
)
from tests.support.crawl import World, crawl_world
from tests.support.crawl_pages import COLUMNS, PAGES, USERS, column_of
from tests.support.shown import shown

PO = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"
# A catalogue phrase this long or longer is English no German page shows by chance.
MIN_WORDS = 3
# English that is in no msgid: what a page shows when a string never went through gettext.
# Each is a phrase of a sentence the site writes (or wrote before issue 13): whole words,
# case-sensitive, searched after the page's data is taken out.
TELLTALES = [
    "the", "The", "and", "your", "Your", "you", "You", "is", "are", "with", "has",
    "not", "this", "This", "of", "turn", "Turn", "department", "departments", "Department",
    "Save", "Cancel", "Remove", "Back", "Add", "Edit", "Delete", "Nothing", "nobody",
    "players", "Players", "orders", "Orders", "board", "Board", "structure", "link", "links",
    "deadline", "Deadline", "History", "history", "Compare", "Undo",
    "Settings", "invitation", "Invitation", "Audit", "Knowledge", "controlled", "rumoured",
    "known", "unknown", "Money", "People", "Authority", "home", "GM", "RULES", "breadcrumb",
    "Previous", "Next", "None", "none", "yes", "no", "Yes", "No", "Description", "Email",
]  # fmt: skip
TELLTALE = re.compile(r"(?<![\w'-])(" + "|".join(map(re.escape, TELLTALES)) + r")(?![\w'-])")
SKIP = {"script", "style", "code", "pre", "textarea", "option"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd]|<[^>]+>|\{\w*\}")


def shown_text(page: str) -> str:
    """What a reader sees of `page` (option labels and typed text are data or repeat the
    page), as one line."""
    return " ".join(" ".join(text for __, text in shown(page, SKIP)).split())


def english_phrases() -> list[str]:
    """Runs of at least MIN_WORDS words from each msgid whose German is different, split at
    its placeholders and tags (what a page shows of it whatever fills them in)."""
    phrases: set[str] = set()
    for entry in polib.pofile(str(PO)):
        if entry.obsolete or not entry.msgid:
            continue
        german = entry.msgstr or " ".join(entry.msgstr_plural.values())
        for msgid in (entry.msgid, entry.msgid_plural):
            for piece in PLACEHOLDER.split(html.unescape(msgid or "")):
                piece = " ".join(piece.split()).strip(" .,:;()")
                if len(piece.split()) >= MIN_WORDS and piece not in german:
                    phrases.add(piece)
    return sorted(phrases, key=len, reverse=True)


def data_of(campaign: Campaign) -> list[str]:
    """What the crawl world's users wrote, not the site: names, descriptions, functions,
    press, offices, longest first (so a name inside a longer one goes with it)."""
    found: set[str] = {campaign.name, "Elsewhere", "Hello, all.", "Only for the GM.", "A word"}
    for dept in Department.objects.filter(board__campaign=campaign).select_related("board"):
        found |= {dept.name, dept.board.name, dept.description, dept.flaws, *dept.functions}
        found |= set(dept.alignments)
    for member in Membership.objects.filter(campaign=campaign).select_related("user"):
        found |= {member.user.get_username(), member.character_name}
    notices = Notice.objects.filter(player__campaign=campaign)
    found |= set(notices.filter(code="").values_list("text", flat=True))
    found |= {v for p in notices.values_list("params", flat=True) if p for v in p.values()
              if isinstance(v, str)}  # fmt: skip
    found |= set(Office.objects.filter(board__campaign=campaign).values_list("name", flat=True))
    found |= intrigue_texts(campaign)
    found |= set(campaign.boards.values_list("name", flat=True))  # a classic board's too
    for state in ClassicBoard.objects.filter(board__campaign=campaign).values_list(
        "state", flat=True
    ):
        for group in state["groups"]:  # R90: a classic board's cards are data
            found |= {group["name"], *group.get("alignments", [])}
    return sorted((d for d in found if d), key=len, reverse=True)


def intrigue_texts(campaign: Campaign) -> set[str]:
    """RULES parts 7-8 the GM wrote: narrative shticks and envelopes (data, like a card)."""
    from campaigns.models import ContingencyEnvelope, IntelEnvelope, Shtick

    of = {"member__campaign": campaign}
    found = {s.data.get("text", "") for s in Shtick.objects.filter(kind="text", **of)}
    found |= set(ContingencyEnvelope.objects.filter(**of).values_list("text", flat=True))
    envelopes = IntelEnvelope.objects.filter(department__board__campaign=campaign)
    return found | set(envelopes.values_list("text", flat=True))


def without(text: str, data: list[str]) -> str:
    """`text` with each item of `data` taken out, however the page spaced it (a rule id in
    a notice is a link: the shown text has spaces around it)."""
    for item in data:
        pattern = r"\s*".join(re.escape(ch) for ch in item if not ch.isspace())
        text = re.sub(pattern, " ¶ ", text)
    return text


def read_page(client: Client, url: str) -> HttpResponse:
    """A GET rolled back at once (a page read may mark things read), throttles afresh."""
    cache.clear()
    with transaction.atomic():
        response = client.get(url)
        transaction.set_rollback(True)
    return response  # type: ignore[no-any-return]


def german_clients() -> Iterator[tuple[str, str, Client]]:
    """(username, column, a client speaking German) for each role of the crawl."""
    for column, username in USERS.items():
        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        if username:
            user = get_user_model().objects.get(username=username)
            Profile.objects.update_or_create(user=user, defaults={"language": "de"})
            client.force_login(user)
        yield username, column, client


@pytest.fixture
def world(db: None) -> World:
    return crawl_world()


@pytest.mark.slow  # the crawl world and every page of it: minutes, not for the fast loop
@pytest.mark.parametrize("role", list(USERS))
def test_every_page_a_role_may_read_is_in_german(world: World, role: str) -> None:
    phrases = english_phrases()
    data = data_of(world.campaign)
    username, column, client = next(c for c in german_clients() if c[1] == role)
    problems: dict[str, list[str]] = {}
    read = 0
    for name, page in PAGES.items():
        for url, owner in page.urls(world, name):
            if page.expected("get", column_of(column, username, owner)) != 200:
                continue
            response = read_page(client, url)
            if "text/html" not in response.get("Content-Type", ""):
                continue  # a CSV or JSON file: data, with the format's own column names
            read += 1
            text = without(shown_text(response.content.decode()), data)
            found = [f"msgid {p!r}" for p in phrases if p in text]
            found += [f"{m.group()!r} in …{text[max(0, m.start() - 40) : m.end() + 40]}…"
                      for m in TELLTALE.finditer(text)]  # fmt: skip
            if found:
                problems[f"{name} {url}"] = found
    assert read >= {"anon": 5, "outsider": 10}.get(role, 25), f"{role} read only {read} pages"
    assert not problems, "English on German pages:\n" + "\n".join(
        f"{where}:\n    " + "\n    ".join(found[:12]) for where, found in problems.items()
    )


def test_the_crawl_finds_english_it_should() -> None:
    """The detector: an untranslated catalogue phrase and a tell-tale word are found; German
    and data are not."""
    phrases = english_phrases()
    assert "Nothing was saved" in " ".join(phrases) or any("Nothing was" in p for p in phrases)
    english = shown_text('<p title="Remove it">Diese Seite</p><p>Nothing was saved:</p>')
    assert any(p in english for p in phrases)
    assert TELLTALE.search(english)
    german = shown_text("<p>Nichts wurde gespeichert: Die Abteilung</p>")
    assert not any(p in german for p in phrases) and not TELLTALE.search(german)
    assert not TELLTALE.search(without("Office of the Mayor", ["Office of the Mayor"]))
    assert COLUMNS[0] == "anon"

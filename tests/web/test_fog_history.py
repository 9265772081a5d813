"""RULES R50 and R51 on every history page (issue 11): the board at each turn, the turn
reports' maps, the map's layout graph, the history index, each structure's and department's
history, two turns compared and the CSV, for each player of the demo after three turns, with
a sentinel in every hidden field (tests/support/fog_history.py). A past turn is checked
against the levels recorded with that turn, so a department learned later must not appear
in earlier turns; pages spanning turns are checked section by section."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client

from campaigns.models import Campaign, Membership
from campaigns.services.demo import demo_create
from tests.support.fog import NAMES, PLAYERS, leaks, sentinelize
from tests.support.fog_history import (
    TURNS,
    HistoryUrl,
    history_urls,
    sentinelize_records,
    told_attackers,
    turn_levels,
)
from tests.support.history import LEARNED_LATER, play_three_turns

pytestmark = pytest.mark.django_db
MAP_DATA = re.compile(r'<script id="map-data-[^"]+" type="application/json">(.*?)</script>', re.S)


@pytest.fixture
def fogged_history(db: None) -> tuple[Campaign, dict[str, list[str]]]:
    def create() -> Campaign:
        campaign = demo_create()
        sentinelize(campaign, fields=["description", "flaws"])
        return campaign

    campaign = play_three_turns(create).campaign
    return campaign, sentinelize_records(campaign)


def strongest(*levels: dict[str, int]) -> dict[str, int]:
    return {slug: max(lv.get(slug, 0) for lv in levels) for slug in set().union(*levels)}


def sections(html: str) -> dict[int | None, str]:
    """A page spanning turns cut at each id="turn-N": None holds what comes before."""
    parts = re.split(r'id="turn-(\d+)"', html)
    found: dict[int | None, str] = {None: parts[0]}
    for number, text in zip(parts[1::2], parts[2::2], strict=True):
        found[int(number)] = text
    return found


class Checker:
    def __init__(self, campaign: Campaign, username: str, markers: dict[str, list[str]]):
        self.campaign = campaign
        self.member = Membership.objects.select_related("campaign").get(
            campaign=campaign, user__username=username
        )
        self.markers = markers
        self.at = {n: turn_levels(campaign, self.member, n) for n in TURNS}
        self.told = {n: told_attackers(campaign, self.member, n) for n in TURNS}
        self.any_turn = strongest(*self.at.values())
        self.problems: dict[str, list[str]] = {}

    def check(self, where: str, text: str, levels: dict[str, int], told: list[str] = ()) -> None:
        if found := leaks(text, levels, self.markers, allowed_names=told):
            self.problems.setdefault(where, []).extend(found)

    def page(self, entry: HistoryUrl, text: str) -> None:
        if entry.kind == "board":
            self.check(entry.url, text, self.at[entry.turn])
        elif entry.kind == "report":
            # The report's own text is the turn report's (tests/web/test_fog_reports.py);
            # here: its maps, seen through the levels recorded with that turn (R51).
            maps = MAP_DATA.findall(text)
            assert maps, entry.url
            self.check(entry.url, "\n".join(maps), self.at[entry.turn])
        elif entry.kind == "layout":
            nothing = dict.fromkeys(self.any_turn, 0)  # opaque ids only: no name, no slug
            self.check(entry.url, text, nothing)
        elif entry.kind == "csv":
            for row in list(csv.reader(io.StringIO(text)))[1:]:
                self.check(f"{entry.url} row {row[:3]}", ",".join(row), self.at[int(row[0])])
        elif entry.kind == "compare":
            self.compare(entry, text)
        else:  # history index, structure, department: each turn's section at its turn
            every_told = [s for told in self.told.values() for s in told]
            for number, part in sections(text).items():
                levels = self.any_turn if number is None else self.at[number]
                told = every_told if number is None else self.told[number]
                self.check(f"{entry.url} turn {number}", part, levels, told)

    def compare(self, entry: HistoryUrl, text: str) -> None:
        first, second = (int(n) for n in re.findall(r"(?:first|second)=(\d+)", entry.url))
        head, rest = text.split('id="compare-first"')
        one, two = rest.split('id="compare-second"')
        self.check(f"{entry.url} changes", head, strongest(self.at[first], self.at[second]))
        self.check(f"{entry.url} first", one, self.at[first])
        self.check(f"{entry.url} second", two, self.at[second])


def crawl(client: Client, campaign: Campaign, username: str) -> dict[HistoryUrl, str]:
    pages = {}
    for entry in history_urls(campaign, username):
        response = client.get(entry.url)
        assert response.status_code == 200, (entry.url, response.status_code)
        pages[entry] = response.content.decode()
    return pages


@pytest.mark.parametrize("username", PLAYERS)
def test_every_history_page_hides_what_the_players_level_then_hid(
    fogged_history: tuple[Campaign, dict[str, list[str]]], client_for, username: str
) -> None:
    campaign, markers = fogged_history
    pages = crawl(client_for(username), campaign, username)
    assert len(pages) > 30
    checker = Checker(campaign, username, markers)
    for entry, text in pages.items():
        checker.page(entry, text)
    assert checker.problems == {}
    # The sentinels do reach the pages: what was theirs at a turn shows on that turn's board.
    for number in TURNS:
        own = [s for s, level in checker.at[number].items() if level == 3]
        boards = "".join(t for e, t in pages.items() if e.kind == "board" and e.turn == number)
        assert own and all(f"FLAWS-{s}-SENTINEL" in boards for s in own), number
        assert all(markers[s][3] in boards for s in own), number  # the Money sentinel


def test_r51_a_department_learned_later_is_absent_from_every_earlier_turn(
    fogged_history: tuple[Campaign, dict[str, list[str]]], client_for
) -> None:
    campaign, _ = fogged_history
    pages = crawl(client_for("alice"), campaign, "alice")
    name = NAMES[LEARNED_LATER]
    for entry, text in pages.items():
        if entry.turn is not None and entry.turn < 3:
            assert name not in text and LEARNED_LATER not in text, entry.url
    for kind in ["structure", "department"]:
        for entry, text in pages.items():
            if entry.kind == kind:
                for number, part in sections(text).items():
                    if number is not None and number < 3:
                        assert name not in part, (entry.url, number)
    csv_rows = [t for e, t in pages.items() if e.kind == "csv"]
    assert all(f"\n{n},city,{LEARNED_LATER}," not in t for t in csv_rows for n in range(3))
    # ... and present from the turn it was learned: the check above can fail.
    third = [t for e, t in pages.items() if e.kind == "board" and e.turn == 3]
    assert any(name in text for text in third)
    assert any(f"\n3,city,{LEARNED_LATER}," in t.replace("\r\n", "\n") for t in csv_rows)


def test_the_detector_finds_what_the_gm_sees(
    fogged_history: tuple[Campaign, dict[str, list[str]]], client_for
) -> None:
    """The GM's pages, checked against Alice's levels, are full of leaks: the checks can fail."""
    campaign, markers = fogged_history
    checker = Checker(campaign, "alice", markers)
    gm_pages = crawl(client_for("gm"), campaign, "gm")
    for entry, text in gm_pages.items():
        if entry.kind in ("board", "csv", "compare", "report"):
            checker.page(entry, text)
    found = [f for fs in checker.problems.values() for f in fs]
    assert any("name of unknown rebel-cell" in f for f in found)
    assert any(f"{markers['guild-hall'][3]} of guild-hall" in f for f in found)
    assert any("FLAWS-guild-hall-SENTINEL" in f for f in found)

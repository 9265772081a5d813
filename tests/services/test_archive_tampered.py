"""A tampered campaign archive (issue 24): whoever changes a file can compute its checksum
again, so each value must pass the checks the site's own forms and columns make. Each case
here is checksummed after the change, is refused with one line that names the value's place
in the archive, and writes nothing. And the open turn's seed is drawn anew, whatever the file
says (R23)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import execute_from_command_line
from django.db import connections, transaction

from campaigns.archive.selectors.archive import archive_text, campaign_archive, checksum
from campaigns.archive.services.archive import ArchiveError, campaign_import
from campaigns.engine.dice import commitment
from campaigns.models import Campaign
from tests.support.archive_rows import row_counts

pytestmark = pytest.mark.django_db

Archive = dict[str, Any]


@pytest.fixture(scope="module")
def exported(django_db_setup: None, django_db_blocker: Any) -> str:
    """The demo with turn 1 played, as an archive's text (made once: the database is rolled
    back, so each test imports into a site without the campaign or its people)."""
    from tests.support.demo import play_turn_one

    with django_db_blocker.unblock(), transaction.atomic():
        text = archive_text(campaign_archive(play_turn_one().campaign))
        transaction.set_rollback(True)
    return text


@pytest.fixture
def archive(exported: str) -> Archive:
    return json.loads(exported)


def nested(levels: int) -> list[Any]:
    """A list in a list ... `levels` deep (built without recursion)."""
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def member_index(archive: Archive, name: str) -> int:
    return next(i for i, m in enumerate(archive["members"]) if m["user"] == name)


def alice(archive: Archive) -> Archive:
    return archive["members"][member_index(archive, "alice")]


def mint(archive: Archive) -> Archive:
    return archive["boards"][0]["departments"][0]


def set_key(part: Callable[[Archive], Archive], key: str, value: Any) -> Callable[[Archive], None]:
    def change(archive: Archive) -> None:
        part(archive)[key] = value

    return change


def opened_while_running(archive: Archive) -> None:
    archive["campaign"].update(opened=True, status="running")


def first_order(archive: Archive) -> Archive:
    return archive["turns"][1]["orders"][0]


def notice(archive: Archive) -> Archive:
    return archive["turns"][1]["notices"][0]


def retold(code: str, params: Any) -> Callable[[Archive], None]:
    def change(archive: Archive) -> None:
        notice(archive).update(code=code, params=params)

    return change


def refused(archive: Archive, slug: str = "copy") -> str:
    """The one line of the refusal, once it is sure nothing was written."""
    before = row_counts()
    with pytest.raises(ArchiveError) as error:
        campaign_import(data=archive, slug=slug)
    assert row_counts() == before
    line = str(error.value)
    assert "\n" not in line and "Traceback" not in line
    return line


# (how the archive is changed, the start of the refusal)
TAMPERED: dict[str, tuple[Callable[[Archive], None], str]] = {
    "opened-while-running": (
        opened_while_running,
        "campaign.opened: true, but a campaign is opened only once it is finished (R51)",
    ),
    "role-superuser": (
        set_key(alice, "role", "superuser"),
        "members[{alice}].role: 'superuser' is not one of gm, player, observer",
    ),
    "username-200-chars": (
        set_key(alice, "user", "a" * 200),
        "members[{alice}].user: 200 characters; at most 150",
    ),
    "username-nul": (set_key(alice, "user", "al\x00ice"), "members[{alice}].user: "),
    "username-markup": (
        set_key(alice, "user", "<b>x</b>"),
        "members[{alice}].user: '<b>x</b>': Enter a valid username.",
    ),
    "email": (set_key(alice, "email", "not <an> address"), "members[{alice}].email: "),
    "perception-10**12": (
        set_key(alice, "perception", 10**12),
        "members[{alice}].perception: 1000000000000 is not a whole number from 0 to 20",
    ),
    "perception-21": (
        set_key(alice, "perception", 21),
        "members[{alice}].perception: 21 is not a whole number from 0 to 20",
    ),
    "character-name-markup-too-long": (
        set_key(alice, "character_name", "<script>" * 20),
        "members[{alice}].character_name: 160 characters; at most 120",
    ),
    "stash-10**20": (
        set_key(mint, "money", 10**20),
        "boards[0].departments[0].money: 100000000000000000000 is not a whole number "
        "from 0 to 2147483647",
    ),
    "stash-negative": (
        set_key(mint, "people", -1),
        "boards[0].departments[0].people: -1 is not a whole number",
    ),
    "effect-not-a-number": (
        set_key(mint, "effect", "7"),
        "boards[0].departments[0].effect: '7' is not a whole number from 0 to 32767",
    ),
    "department-name-empty": (set_key(mint, "name", ""), "boards[0].departments[0].name: "),
    "department-slug": (set_key(mint, "slug", "../x"), "boards[0].departments[0].slug: "),
    "board-name": (
        set_key(lambda a: a["boards"][0], "name", "x" * 121),
        "boards[0].name: 121 characters; at most 120",
    ),
    "campaign-name": (
        set_key(lambda a: a["campaign"], "name", 5),
        "campaign.name: 5 is not a text",
    ),
    "campaign-status": (
        set_key(lambda a: a["campaign"], "status", "won"),
        "campaign.status: 'won' is not one of draft, running, paused, finished",
    ),
    "time-zone": (
        set_key(lambda a: a["campaign"], "time_zone", "Mars/Olympus"),
        "campaign.time_zone: 'Mars/Olympus': ",
    ),
    "reminder-hours": (
        set_key(lambda a: a["campaign"], "reminder_hours", 10**9),
        "campaign.reminder_hours: 1000000000 is not a whole number from 0 to 32767",
    ),
    "min-turn-hours-0": (
        set_key(lambda a: a["campaign"], "min_turn_hours", 0),
        "campaign.min_turn_hours: 0: The minimum turn length is a whole number of hours "
        "from 1 to 168 (a week); 0 is not.",
    ),
    "min-turn-hours-a-year": (
        set_key(lambda a: a["campaign"], "min_turn_hours", 24 * 365),
        "campaign.min_turn_hours: 8760: The minimum turn length",
    ),
    "min-turn-hours-text": (
        set_key(lambda a: a["campaign"], "min_turn_hours", "72"),
        "campaign.min_turn_hours: '72' is not a whole number from 0 to 32767",
    ),
    "knowledge-level": (
        set_key(lambda a: a["knowledge"][0], "level", 7),
        "knowledge[0].level: 7 is not one of 0, 1, 2, 3",
    ),
    "order-status": (
        set_key(first_order, "status", "approved!"),
        "turns[1].orders[0].status: 'approved!' is not one of",
    ),
    "notice-text-nul": (set_key(notice, "text", "a\x00"), "turns[1].notices[0].text: "),
    # Issue 25: a notice is a code the site says, with exactly the parameters it takes.
    "notice-code-unknown": (
        set_key(notice, "code", "bribe"),
        "turns[1].notices[0].code: 'bribe' is not one of deadline_extended, turn_undone,",
    ),
    "notice-code-long": (
        set_key(notice, "code", "x" * 41),
        "turns[1].notices[0].code: 41 characters; at most 40",
    ),
    "notice-code-number": (set_key(notice, "code", 7), "turns[1].notices[0].code: 7 is not a text"),
    "notice-params-not-an-object": (
        set_key(notice, "params", [1, 2]),
        "turns[1].notices[0].params: not an object",
    ),
    "notice-params-missing": (
        set_key(notice, "params", {"intel": 1}),
        "turns[1].notices[0].params: takes intel, sealed, not intel",
    ),
    "notice-params-extra": (
        set_key(notice, "params", {"intel": 1, "sealed": 0, "secret": "Moth Registry"}),
        "turns[1].notices[0].params: takes intel, sealed, not intel, sealed, secret",
    ),
    "notice-param-kind": (
        set_key(notice, "params", {"intel": "1", "sealed": 0}),
        "turns[1].notices[0].params: intel: '1' is not a whole number from 0 to 2147483647",
    ),
    "notice-param-negative": (
        set_key(notice, "params", {"intel": -1, "sealed": 0}),
        "turns[1].notices[0].params: intel: -1 is not a whole number",
    ),
    "notice-time-not-a-time": (
        retold("deadline_extended", {"n": 1, "deadline": "Friday"}),
        "turns[1].notices[0].params: deadline: 'Friday' is not a time",
    ),
    "notice-time-not-utc": (
        retold("deadline_extended", {"n": 1, "deadline": "2027-01-08T18:00:00+01:00"}),
        "turns[1].notices[0].params: deadline: '2027-01-08T18:00:00+01:00' is not a time in UTC",
    ),
    "notice-name-long": (
        retold("election", {"n": 1, "office": "x" * 1001, "board": "City"}),
        "turns[1].notices[0].params: office: 1001 characters; at most 1000",
    ),
    "notice-name-null": (
        retold("election", {"n": 1, "office": None, "board": "City"}),
        "turns[1].notices[0].params: office: None is not a text",
    ),
    "notice-params-without-code": (
        retold("", {"n": 1}),
        "turns[1].notices[0].params: {{'n': 1}}, but the notice has no code",
    ),
    "nested-payload": (
        set_key(first_order, "payload", nested(10_000)),
        "turns[1].orders[0].payload: nested more than 32 levels deep",
    ),
    "nested-record": (
        set_key(lambda a: a["turns"][1]["records"][0]["report"], "x", nested(40)),
        "turns[1].records[0].report.x: nested more than 32 levels deep",
    ),
    "nul-in-a-key": (
        set_key(first_order, "payload", {"a\x00\nb": 1}),
        "turns[1].orders[0].payload.'a\\x00\\nb': a text holds NUL",
    ),
    "nan": (
        set_key(first_order, "payload", {"x": float("nan")}),
        "turns[1].orders[0].payload.x: nan is not a number",
    ),
}


@pytest.mark.parametrize("case", TAMPERED)
def test_a_tampered_archive_is_refused_naming_the_field(archive: Archive, case: str) -> None:
    change, reason = TAMPERED[case]
    expected = reason.format(alice=member_index(archive, "alice"))
    change(archive)
    try:
        archive["checksum"] = checksum(archive)
    except RecursionError:  # json.dumps cannot write it; the import refuses it before
        archive["checksum"] = "0" * 64
    line = refused(archive)
    assert line.startswith(expected), line


SLUGS = {
    "../../x": "slug: '../../x': Enter a valid “slug”",
    "a b": "slug: 'a b': Enter a valid “slug”",
    "": "slug: '': This field cannot be blank.",
    "x" * 51: "slug: 51 characters; at most 50",
    "ü": "slug: 'ü': Enter a valid “slug”",
}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_slug_the_site_would_not_make_is_refused(archive: Archive, slug: str) -> None:
    line = refused(archive, slug=slug)
    assert line.startswith(SLUGS[slug]), line


def test_an_existing_slug_is_refused_naming_it(archive: Archive) -> None:
    Campaign.objects.create(slug="taken", name="Taken")
    assert refused(archive, slug="taken") == "slug: a campaign with the slug 'taken' exists already"


def test_an_archive_nested_10000_levels_deep_is_refused(archive: Archive) -> None:
    assert refused(nested(10_000)).startswith("not a campaign archive")  # type: ignore[arg-type]
    deep = {**archive, "format": archive["format"], "boards": nested(10_000)}
    assert refused(deep).startswith("boards: nested more than 32 levels deep")


def test_the_open_turns_seed_is_drawn_anew_whatever_the_file_says(archive: Archive) -> None:
    """R23: whoever wrote the archive would know every die of the turn."""
    (open_turn,) = [t for t in archive["turns"] if t["status"] == "open"]
    known = "ab" * 32
    open_turn.update(seed=known, commitment=commitment(known))
    archive["checksum"] = checksum(archive)
    imported = campaign_import(data=copy.deepcopy(archive), slug="copy").turns.get(
        number=open_turn["number"]
    )
    assert imported.seed != known and len(imported.seed) == 64
    assert imported.commitment == commitment(imported.seed) != commitment(known)
    processed = next(t for t in archive["turns"] if t["status"] == "processed" and t["seed"])
    kept = Campaign.objects.get(slug="copy").turns.get(number=processed["number"])
    assert kept.seed == processed["seed"]  # a processed turn's published seed stays


def payload_nested(levels: int) -> Callable[[str], str]:
    """The first order's payload as `levels` nested lists, written as text (json.dumps
    cannot write 10,000 levels), so only the checks of the command and the import stop it."""

    def change(text: str) -> str:
        archive = json.loads(text)
        archive["turns"][1]["orders"][0]["payload"] = "NESTED-HERE"
        if levels < 500:
            archive["turns"][1]["orders"][0]["payload"] = nested(levels)
            archive["checksum"] = checksum(archive)
            return archive_text(archive)
        return archive_text(archive).replace('"NESTED-HERE"', "[" * levels + "]" * levels)

    return change


def bad_slug(text: str) -> str:
    return text


COMMAND_CASES = {
    "nested-10000": (payload_nested(10_000), "damaged", "the JSON is nested too deeply to read"),
    "nested-100": (
        payload_nested(100),
        "damaged",
        "turns[1].orders[0].payload: nested more than 32 levels deep",
    ),
    "slug-dots": (bad_slug, "../../x", "slug: '../../x': Enter a valid"),
    "slug-space": (bad_slug, "a b", "slug: 'a b': Enter a valid"),
}


@pytest.mark.parametrize("case", COMMAND_CASES)
def test_import_campaign_refuses_with_one_line_and_exit_1(
    exported: str,
    tmp_path: Path,
    case: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As manage.py runs the command (run_from_argv; the connections it closes at the end
    are left open, as in test_archive.py, for the test's own transaction)."""
    damage, slug, reason = COMMAND_CASES[case]
    monkeypatch.setattr(connections, "close_all", lambda: None)
    path = tmp_path / "tampered.json"
    path.write_text(damage(exported))
    before = row_counts()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "import_campaign", str(path), "--slug", slug])
    assert exited.value.code == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"CommandError: {path}: {reason}"), lines[0]
    assert out == "" and row_counts() == before

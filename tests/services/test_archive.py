"""A whole campaign as one archive (docs/campaign-archive.md): export -> import -> export
gives the same archive apart from the slug; a changed, damaged or incomplete archive is
refused with one line and creates nothing; the imported campaign plays on."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command, execute_from_command_line
from django.db import connections

from campaigns.archive.selectors.archive import archive_text, campaign_archive, checksum
from campaigns.archive.services.archive import ArchiveError, campaign_import
from campaigns.models import AuditEntry, Campaign, Notice, Order, Turn, TurnRecord
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import turn_process
from tests.support.archive_rows import row_counts, without_slug
from tests.support.demo import Played, intrigue_cleared, member, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def rich(played: Played, django_capture_on_commit_callbacks: Any) -> Campaign:
    """Turn 1 played (a capture), turn 2 with an attempt, its reinforcement (whose payload
    and notice name the attempt), a GM change in the audit log, and a readiness mark."""
    campaign = played.campaign
    attempt = submit(campaign, "bob", Order.Kind.ATTEMPT, {
        "attacker": "dock-workers", "target": "temple"
    })  # fmt: skip
    # Stored as the order service would store it (whether the move is legal is not the
    # archive's business): its payload names the attempt it answers.
    Order.objects.create(
        turn=attempt.turn, board=attempt.board, player=member(campaign, "carol"),
        kind=Order.Kind.REINFORCE, seq=1,
        payload={"answers": attempt.engine_id, "from": "temple", "path": ["temple"],
                 "tokens": {"people": 1}},
    )  # fmt: skip
    from campaigns.services.setup import campaign_settings_set

    campaign_settings_set(
        campaign=campaign, actor=member(campaign, "gm").user, values={"reminder_hours": 12}
    )
    # Press: a private conversation with a hidden message, and a GM announcement.
    from campaigns.press.services.press import conversation_start, message_hide
    from campaigns.press.services.press_mail import announcement_post

    Campaign.objects.filter(pk=campaign.pk).update(gm_reads_press=True)  # so the GM may hide
    alice, bob, gm = (member(campaign, n) for n in ("alice", "bob", "gm"))
    talk = conversation_start(member=alice, recipients=[bob], subject="A deal", text="2 Money?")
    from campaigns.models import Message

    message_hide(gm=gm, message_pk=Message.objects.get(conversation=talk).pk)
    announcement_post(gm=gm, text="Elections next month.")
    return campaign


def round_trip(campaign: Campaign, slug: str) -> tuple[dict[str, Any], dict[str, Any]]:
    first = json.loads(archive_text(campaign_archive(campaign)))
    copy_ = campaign_import(data=copy.deepcopy(first), slug=slug)
    second = json.loads(archive_text(campaign_archive(copy_)))
    return first, second


def test_export_import_export_gives_the_same_archive_apart_from_the_slug(rich: Campaign) -> None:
    first, second = round_trip(rich, "tourmaline-copy")
    reinforce = next(o for o in second["turns"][2]["orders"] if o["kind"] == "reinforce")
    attempt = next(o for o in second["turns"][2]["orders"] if o["kind"] == "attempt")
    assert reinforce["payload"]["answers"] == attempt["ref"]
    assert second["campaign"]["slug"] == "tourmaline-copy"
    assert without_slug(second) == without_slug(first)
    # It is all there: two boards, turns 0-2, orders, records, audit entries, knowledge.
    assert [t["number"] for t in first["turns"]] == [0, 1, 2]
    assert len(first["turns"][1]["records"]) == 2 and len(first["turns"][1]["orders"]) == 5
    assert first["turns"][2]["orders"] and first["audit"] and first["knowledge"]
    assert first["turns"][2]["notices"]  # temple's controller was told of the attempt
    (talk,) = first["press"]["conversations"]
    assert [m["text"] for m in talk["messages"]] == ["2 Money?"]
    assert talk["messages"][0]["hidden_by"] == "gm"
    assert {p["member"] for p in talk["participants"]} == {"alice", "bob"}
    assert first["press"]["announcements"][0]["text"] == "Elections next month."
    # R23: the open turn's seed is not in the archive; its processed turns' seeds are.
    assert first["turns"][2]["seed"] is None and first["turns"][1]["seed"]
    assert rich.turns.get(number=2).seed not in archive_text(first)


def test_r30_the_minimum_turn_length_goes_into_the_archive_and_comes_back(rich: Campaign) -> None:
    """Issue 25: the campaign's minimum turn length (R30) is in the archive, and the copy
    keeps it."""
    Campaign.objects.filter(pk=rich.pk).update(min_turn_hours=36)
    rich.refresh_from_db()
    first, second = round_trip(rich, "short-turns")
    assert first["campaign"]["min_turn_hours"] == second["campaign"]["min_turn_hours"] == 36
    assert without_slug(second) == without_slug(first)
    assert Campaign.objects.get(slug="short-turns").min_turn_hours == 36


def test_r30_an_archive_from_before_the_minimum_turn_length_gets_the_default(
    rich: Campaign,
) -> None:
    """An archive written before the setting existed has no key for it: the copy takes
    the default, 72 hours, and plays on."""
    Campaign.objects.filter(pk=rich.pk).update(min_turn_hours=36)
    rich.refresh_from_db()
    older = campaign_archive(rich)
    del older["campaign"]["min_turn_hours"]
    older["checksum"] = checksum(older)
    copy_ = campaign_import(data=older, slug="older")
    assert copy_.min_turn_hours == 72
    assert turn_process(campaign_id=copy_.pk, number=2) is not None


def test_the_archive_names_people_and_orders_not_database_ids(rich: Campaign) -> None:
    archive = campaign_archive(rich)
    text = archive_text(archive)
    for m in rich.memberships.all():
        assert f'"p{m.pk}"' not in text  # engine player ids are user names in the archive
    record = archive["turns"][1]["records"][0]
    structures = {d["structure"] for d in record["state"]["departments"]} - {None}
    assert structures <= {"alice", "bob", "carol"}
    assert set(record["knowledge"]) <= {"alice", "bob", "carol", "gm"}
    assert all(ref.startswith("o") for ref in record["report"]["orders"])
    notice = archive["turns"][2]["notices"][0]
    assert notice["url"].startswith("/c/{campaign}/")


def test_the_imported_campaign_plays_on(rich: Campaign, client_for: Any) -> None:
    imported = campaign_import(data=campaign_archive(rich), slug="again")
    assert imported.turns.get(number=2).status == Turn.Status.OPEN
    assert turn_process(campaign_id=imported.pk, number=2) is not None
    assert TurnRecord.objects.filter(turn__campaign=imported, turn__number=2).count() == 2
    assert client_for("alice").get("/c/again/turn/1/report/").status_code == 200
    notice = Notice.objects.filter(turn__campaign=imported).first()
    assert notice is not None and notice.url.startswith("/c/again/")
    # The imported turn 2 can also be undone, from what was recorded.
    turn_rollback(campaign=imported, actor=member(imported, "gm").user, number=2)


def test_people_missing_here_are_created_inactive_without_a_password(rich: Campaign) -> None:
    archive = campaign_archive(rich)
    text = archive_text(archive).replace('"carol"', '"zoe"')
    renamed = json.loads(text)
    renamed["checksum"] = checksum(renamed)
    campaign_import(data=renamed, slug="zoe-game")
    zoe = get_user_model().objects.get(username="zoe")
    assert not zoe.is_active and not zoe.has_usable_password()
    assert member(Campaign.objects.get(slug="zoe-game"), "zoe").role == "player"


def test_a_changed_archive_is_refused_and_creates_nothing(rich: Campaign) -> None:
    archive = campaign_archive(rich)
    archive["boards"][0]["departments"][0]["money"] += 100
    campaigns, users = Campaign.objects.count(), get_user_model().objects.count()
    with pytest.raises(ArchiveError, match="checksum does not match"):
        campaign_import(data=archive, slug="tampered")
    assert (Campaign.objects.count(), get_user_model().objects.count()) == (campaigns, users)


def test_an_archive_with_a_board_the_engine_refuses_creates_nothing(rich: Campaign) -> None:
    """Checksummed but not a legal board (as a buggy or hand-made exporter could write)."""
    archive = campaign_archive(rich)
    archive["boards"][0]["departments"][0]["alignments"] = ["Government", "Communist"]
    archive["checksum"] = checksum(archive)
    before = AuditEntry.objects.count(), Order.objects.count(), Campaign.objects.count()
    with pytest.raises(ArchiveError, match="board city: .*opposite"):
        campaign_import(data=archive, slug="illegal")
    assert (AuditEntry.objects.count(), Order.objects.count(), Campaign.objects.count()) == before


def test_an_existing_slug_is_refused(rich: Campaign) -> None:
    with pytest.raises(ArchiveError, match="exists already"):
        campaign_import(data=campaign_archive(rich), slug=rich.slug)


def test_the_commands_write_and_read_an_archive(rich: Campaign, tmp_path: Path) -> None:
    path = tmp_path / "tourmaline.json"
    call_command("export_campaign", rich.slug, str(path))
    call_command("import_campaign", str(path), "--slug", "from-file")
    assert Campaign.objects.get(slug="from-file").turns.count() == 3
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_campaign", str(path), "--slug", "from-file")


def second_board_illegal(text: str) -> str:
    """Checksummed again, so only the import's own checks can stop it: the second board
    holds a department with opposite alignments (R5). The first board, its members and the
    campaign would be written before the import reaches it."""
    archive = json.loads(text)
    assert [b["slug"] for b in archive["boards"]] == ["city", "harbour"]
    archive["boards"][1]["departments"][0]["alignments"] = ["Government", "Communist"]
    archive["checksum"] = checksum(archive)
    return archive_text(archive)


DAMAGES = [
    (lambda text: text[: len(text) // 2], "is not a complete JSON archive"),
    (lambda text: text.replace('"reminder_hours": 12', '"reminder_hours": 13'), "checksum"),
    (second_board_illegal, "board harbour: "),
    (lambda text: '{"format": "something else"}', "not a campaign archive"),
]
DAMAGE_IDS = ["truncated", "tampered", "checksummed-but-illegal", "not-an-archive"]


@pytest.mark.parametrize(("damage", "reason"), DAMAGES, ids=DAMAGE_IDS)
def test_import_campaign_of_a_damaged_archive_exits_1_with_one_line_and_creates_nothing(
    rich: Campaign,
    tmp_path: Path,
    damage: Any,
    reason: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In this process, on this database, as manage.py runs the command (run_from_argv):
    SystemExit 1, one line on standard error naming the reason, and not one row more.
    (run_from_argv closes the connections when it is done, which would end the test's own
    transaction on PostgreSQL: that alone is left out.)"""
    monkeypatch.setattr(connections, "close_all", lambda: None)
    path = tmp_path / "damaged.json"
    path.write_text(damage(archive_text(campaign_archive(rich))))
    before = row_counts()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "import_campaign", str(path), "--slug", "damaged"])
    assert exited.value.code == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0] and "Traceback" not in err, err
    assert lines[0].startswith(f"CommandError: {path}"), lines[0]
    assert out == ""
    assert row_counts() == before


@pytest.mark.parametrize(("damage", "reason"), DAMAGES[:2], ids=DAMAGE_IDS[:2])
def test_import_campaign_exits_non_zero_with_one_line(
    rich: Campaign, tmp_path: Path, damage: Any, reason: str
) -> None:
    """Through manage.py in a process of its own, as a GM runs it: exit status 1, one line
    on standard error, no traceback. (That process has a database of its own: what it
    creates is tested in process, above.)"""
    path = tmp_path / "damaged.json"
    path.write_text(damage(archive_text(campaign_archive(rich))))
    result = subprocess.run(
        [sys.executable, "manage.py", "import_campaign", str(path), "--slug", "damaged"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "illumineaucracy.settings_test"},
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def plotted(rich: Campaign) -> Campaign:
    """`rich` with RULES parts 7-9, through turn 2: a shtick, goals (one of each kind that
    counts), an intel envelope the perception check of turn 2 opens, a contingency envelope
    that opens, an office elected in turn 2 (the demo's Mayor) and another election
    scheduled for turn 4."""
    from campaigns.elections.services.offices import election_schedule
    from campaigns.intrigue.services.characters import goal_set, shtick_grant
    from campaigns.intrigue.services.envelopes import contingency_create, envelope_create
    from campaigns.models import Office

    intrigue_cleared(rich)  # the demo's own: these tests count the GM's
    gm = member(rich, "gm").user
    alice, carol = member(rich, "alice"), member(rich, "carol")
    temple = rich.boards.get(slug="city").departments.get(slug="temple")
    shtick_grant(member=alice, actor=gm, data={"kind": "perception", "amount": 20})
    goal_set(member=alice, actor=gm, data={"kind": "control", "n": 4})
    goal_set(member=carol, actor=gm, data={"kind": "attempts_won", "n": 2})
    envelope_create(department=temple, actor=gm, text="The temple's secret", target=10,
                    audience=[alice], grants=2)  # fmt: skip
    contingency_create(member=carol, actor=gm, text="Sealed", condition="turn", turn_number=2)
    city = rich.boards.get(slug="city")
    mayor = Office.objects.get(board=city)  # its election in turn 2 comes with the demo
    election_schedule(office=mayor, number=4, actor=gm)
    turn = rich.turns.get(number=2)
    for seq, (player, kind, payload) in enumerate([
        (alice, Order.Kind.PERCEIVE, {"department": "temple"}),
        (alice, Order.Kind.NOMINATE, {"candidate": "mint", "running_mate": "treasury"}),
    ], start=10):  # fmt: skip
        Order.objects.create(turn=turn, board=city, player=player, kind=kind, payload=payload,
                             seq=seq)  # fmt: skip
    assert turn_process(campaign_id=rich.pk, number=2) is not None
    return rich


def test_the_rows_of_parts_7_to_9_go_into_the_archive_and_come_back(plotted: Campaign) -> None:
    first, second = round_trip(plotted, "plotted-copy")
    assert without_slug(second) == without_slug(first)
    assert first["version"] == 3
    (envelope,) = first["envelopes"]
    assert envelope["ref"] == "envelope1" and envelope["audience"] == ["alice"]
    assert envelope["dossier"] == [
        {"player": "alice", "turn": 2, "order": envelope["dossier"][0]["order"]}
    ]
    (office,) = first["offices"]
    assert [e["turn"] for e in office["elections"]] == [2, 4]
    assert office["elections"][0]["result"]["office"] == "office1"
    assert office["holder"] == "mint"
    record = next(r for r in first["turns"][2]["records"] if r["board"] == "city")
    assert record["before"]["offices"][0]["id"] == "office1"
    assert record["before"]["envelopes"][0]["audience"] == ["alice"]
    opened = [o for o in record["report"]["orders"].values() if "envelopes" in o]
    assert opened == [{**opened[0], "envelopes": ["envelope1"]}]
    assert set(record["report"]["goals"]) == {"goal1", "goal2"}
    (sealed,) = first["contingencies"]
    assert sealed["opened_turn"] == 2
    assert {g["ref"]: len(g["progress"]) for g in first["goals"]} == {"goal1": 1, "goal2": 1}


def test_the_imported_parts_7_to_9_name_their_own_rows(plotted: Campaign) -> None:
    from campaigns.models import DossierEntry, Election, IntelEnvelope, Office

    copy_ = campaign_import(data=campaign_archive(plotted), slug="plot-copy")
    envelope = IntelEnvelope.objects.get(department__board__campaign=copy_)
    office = Office.objects.get(board__campaign=copy_)
    record = TurnRecord.objects.get(turn__campaign=copy_, turn__number=2, board__slug="city")
    assert record.before["envelopes"][0]["id"] == envelope.engine_id
    assert record.before["offices"][0]["id"] == office.engine_id
    assert Election.objects.get(campaign=copy_, number=2).result["office"] == office.engine_id
    assert DossierEntry.objects.get(envelope=envelope).member.campaign == copy_
    # The copy plays on, and its turn 2 can be undone from what was recorded.
    turn_rollback(campaign=copy_, actor=member(copy_, "gm").user, number=2, discard_orders=True)
    assert not DossierEntry.objects.filter(envelope=envelope).exists()
    office.refresh_from_db()
    assert office.holder is None


@pytest.mark.parametrize("version", [1, 2])
def test_an_archive_of_an_older_version_is_still_read(rich: Campaign, version: int) -> None:
    """Version 1 has no rows of parts 7-9; neither has a `scope` (both were full archives)."""
    archive = campaign_archive(rich)
    archive["version"] = version
    archive.pop("scope", None)
    if version == 1:
        for key in ("shticks", "goals", "envelopes", "contingencies", "offices"):
            archive.pop(key)
    archive["checksum"] = checksum(archive)
    copy_ = campaign_import(data=archive, slug="old-style")
    assert copy_.turns.count() == 3 and copy_.conversations.count() == 1


def test_a_notice_goes_into_the_archive_as_its_code_and_params_and_comes_back(
    rich: Campaign,
) -> None:
    """Issue 25: a notice is its code and parameters, put into words when read; its English
    text goes along (docs/campaign-archive.md)."""
    archive = campaign_archive(rich)
    told = next(n for n in archive["turns"][2]["notices"] if n["code"] == "attack")
    assert [n["code"] for n in archive["turns"][2]["notices"]].count("election") == 3
    assert told["code"] == "attack" and told["params"]["target"] == "The Temple of the Eye"
    assert told["text"].startswith("The Temple of the Eye is the target of a linking attempt")
    copy_ = campaign_import(data=archive, slug="coded")
    notice = Notice.objects.get(turn__campaign=copy_, code="attack")
    assert (notice.code, notice.params, notice.text) == (
        told["code"], told["params"], told["text"]
    )  # fmt: skip


def test_an_archive_from_before_notice_codes_imports_its_notices_as_text(rich: Campaign) -> None:
    archive = campaign_archive(rich)
    for turn in archive["turns"]:
        for notice in turn["notices"]:
            del notice["code"], notice["params"]
    archive["checksum"] = checksum(archive)
    copy_ = campaign_import(data=archive, slug="text-only")
    rows = set(Notice.objects.filter(turn__campaign=copy_).values_list("code", "params"))
    assert rows == {("", None)}
    assert Notice.objects.filter(
        turn__campaign=copy_, text__startswith="The Temple of the Eye is the target"
    ).exists()

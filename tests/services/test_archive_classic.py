"""A campaign with a classic board (RULES R90) as one archive (docs/campaign-archive.md): the
board's ruleset and state go into the archive with user names for players, and come back
under the new campaign's memberships; its turn records too (seat order included); a classic
state the engine refuses creates nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from campaigns.archive.selectors.archive import archive_text, campaign_archive, checksum
from campaigns.archive.services.archive import ArchiveError, campaign_import
from campaigns.models import Campaign, ClassicBoard, Membership, TurnRecord
from campaigns.services.turns import turn_process
from tests.support.archive_rows import without_slug
from tests.support.classic_files import classic_board_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def cabal(demo: Campaign) -> Campaign:
    """The demo with a classic board, turn 1 processed (its record on the classic board)."""
    classic_board_in(demo)
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    return demo


def test_a_classic_board_goes_into_the_archive_and_comes_back(cabal: Campaign) -> None:
    first = json.loads(archive_text(campaign_archive(cabal)))
    entry = next(b for b in first["boards"] if b["slug"] == "cabal")
    assert entry["ruleset"] == "classic"
    assert [p["id"] for p in entry["classic"]["players"]] == ["alice", "bob"]
    assert "ruleset" not in next(b for b in first["boards"] if b["slug"] == "city")
    record = next(r for r in first["turns"][1]["records"] if r["board"] == "cabal")
    assert sorted(record["report"]["seat_order"]) == ["alice", "bob"]

    copied = campaign_import(data=copy.deepcopy(first), slug="cabal-copy")
    second = json.loads(archive_text(campaign_archive(copied)))
    assert without_slug(second) == without_slug(first)
    board = copied.boards.get(slug="cabal")
    assert board.ruleset == "classic"
    alice = Membership.objects.get(campaign=copied, user__username="alice")
    state = ClassicBoard.objects.get(board=board).state
    assert state["players"][0]["id"] == f"p{alice.pk}"
    bavarians = next(g for g in state["groups"] if g["slug"] == "bavarians")
    assert bavarians["controller"] == f"p{alice.pk}"
    copied_record = TurnRecord.objects.get(board=board, turn__number=1)
    assert f"p{alice.pk}" in copied_record.report["seat_order"]
    # The copy plays on: its next turn runs the classic board too.
    assert turn_process(campaign_id=copied.pk, number=2) is not None
    assert TurnRecord.objects.filter(board=board, turn__number=2).exists()


def test_a_classic_state_the_engine_refuses_creates_nothing(cabal: Campaign) -> None:
    archive: dict[str, Any] = campaign_archive(cabal)
    entry = next(b for b in archive["boards"] if b["slug"] == "cabal")
    entry["classic"]["groups"] = [g for g in entry["classic"]["groups"] if not g.get("illuminati")]
    archive["checksum"] = checksum(archive)
    campaigns = Campaign.objects.count()
    with pytest.raises(ArchiveError, match="board cabal: .*(R92)"):
        campaign_import(data=archive, slug="broken")
    assert Campaign.objects.count() == campaigns

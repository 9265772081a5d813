"""campaigns.selectors: the one place RULES R50 is applied, and the reads behind the pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser

from campaigns.models import Knowledge, Membership, Turn
from campaigns.selectors.pages import (
    DepartmentView,
    Level,
    board_view,
    current_turn,
    membership_for_slug,
)
from tests.factories import CampaignFactory, KnowledgeFactory, MembershipFactory, TurnFactory
from tests.support.handmade import HandBoard

pytestmark = pytest.mark.django_db


def by_name(hand: HandBoard, viewer: Membership) -> dict[str, DepartmentView]:
    return {d.name: d for d in board_view(hand.board, viewer).departments}


def test_r50_each_level_carries_exactly_its_fields(hand_board: HandBoard) -> None:
    seen = by_name(hand_board, hand_board.alice)
    own, known, rumoured = (
        seen["Alice Own Office"],
        seen["Bob Known Bureau"],
        seen["Rumoured Ravens"],
    )
    assert own.level == Level.CONTROLLED and own.mine
    assert own.private.stash[0].amount == 4711
    assert known.level == Level.KNOWN
    assert known.card.controller == "Bob the Player"
    assert known.private is None
    assert rumoured.level == Level.RUMOURED
    assert (rumoured.card, rumoured.private, rumoured.slug) == (None, None, None)


def test_r50_unknown_and_level_0_departments_are_left_out(hand_board: HandBoard) -> None:
    seen = by_name(hand_board, hand_board.alice)
    assert "Unknown Unicorns" not in seen
    assert "Zero Zebras" not in seen


def test_r50_a_stored_controlled_level_is_capped_at_known(hand_board: HandBoard) -> None:
    """Open corner: "controlled" follows the structure, not a Knowledge row, so a row left at
    3 after a capture cannot show another player's stash."""
    stale = by_name(hand_board, hand_board.alice)["Stale Stoats"]
    assert stale.level == Level.KNOWN
    assert stale.private is None


def test_r50_own_departments_are_controlled_whatever_the_knowledge_row(
    hand_board: HandBoard,
) -> None:
    KnowledgeFactory(player=hand_board.alice, department=hand_board.own, level=1)
    own = by_name(hand_board, hand_board.alice)["Alice Own Office"]
    assert own.level == Level.CONTROLLED


def test_r50_the_gm_sees_everything(hand_board: HandBoard) -> None:
    view = board_view(hand_board.board, hand_board.gm)
    assert view.full_view
    assert len(view.departments) == 6
    assert all(d.private is not None and not d.mine for d in view.departments)
    assert len(view.links) == 4 and all(link.priority is not None for link in view.links)


def test_r50_an_observer_sees_what_their_knowledge_rows_say(hand_board: HandBoard) -> None:
    olga = MembershipFactory(campaign=hand_board.campaign, role=Membership.Role.OBSERVER)
    KnowledgeFactory(player=olga, department=hand_board.known, level=Knowledge.Level.RUMOURED)
    view = board_view(hand_board.board, olga)
    assert [(d.name, d.card) for d in view.departments] == [("Bob Known Bureau", None)]
    assert view.links == []


def test_r50_bob_sees_his_own_and_of_the_others_only_the_names_his_links_reach(
    hand_board: HandBoard,
) -> None:
    """R50: his own departments in full; Alice's Own Office (which supplies his Bureau) and
    the Rumoured Ravens (which his Bureau supplies) as names only; nothing of the rest."""
    seen = by_name(hand_board, hand_board.bob)
    assert set(seen) == {"Bob Known Bureau", "Stale Stoats", "Alice Own Office", "Rumoured Ravens"}
    for far in ("Alice Own Office", "Rumoured Ravens"):
        view = seen[far]
        assert view.level == Level.RUMOURED
        assert (view.card, view.private, view.slug, view.mine) == (None, None, None, False)


def test_membership_for_slug_is_404_for_non_members_even_superusers(hand_board: HandBoard) -> None:
    root = MembershipFactory(role=Membership.Role.GM).user
    root.is_superuser = root.is_staff = True
    root.save()
    slug = hand_board.campaign.slug
    assert membership_for_slug(root, slug) is None
    assert membership_for_slug(AnonymousUser(), slug) is None
    assert membership_for_slug(hand_board.alice.user, slug) == hand_board.alice


def test_current_turn_is_the_open_one_else_the_latest() -> None:
    campaign = CampaignFactory()
    assert current_turn(campaign) is None
    TurnFactory(campaign=campaign, number=0, status=Turn.Status.PROCESSED)
    opened = TurnFactory(campaign=campaign, number=1)
    assert current_turn(campaign) == opened
    opened.status = Turn.Status.PROCESSED
    opened.save()
    later = TurnFactory(
        campaign=campaign,
        number=2,
        status=Turn.Status.FAILED,
        deadline=opened.deadline + dt.timedelta(days=7),
    )
    assert current_turn(campaign) == later

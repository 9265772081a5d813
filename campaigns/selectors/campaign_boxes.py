"""What the campaign page's boxes show (templatetags order_tags, character_tags, press_tags
draw them): read here, by the view, so that no template tag asks the database."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.intrigue.selectors.character import CharacterSheet, character_sheet
from campaigns.intrigue.selectors.deals import Offer, offers_to
from campaigns.intrigue.selectors.intrigue import next_election
from campaigns.models import Campaign, Election, Membership, Notice, Turn
from campaigns.press.selectors.press import AnnouncementView, announcements
from campaigns.selectors.orders import notices_unread
from campaigns.selectors.pages import BoardLink

ANNOUNCEMENTS_SHOWN = 3


@dataclass(frozen=True)
class NoticesBox:
    """The link to the orders, the viewer's unread notices (R46), hand-overs offered to them
    (R62) and the next election (R80)."""

    campaign: Campaign
    player: Membership
    notices: list[Notice]
    offers: list[Offer]
    turn_number: int | None
    orders_open: bool  # a draft campaign has no open turn: nothing to order yet
    election: Election | None


@dataclass(frozen=True)
class CharacterBox:
    """R60, R61, R71, R72: the viewer's own character; `sheet` None for all but players."""

    campaign: Campaign
    member: Membership
    sheet: CharacterSheet | None
    fresh: bool  # envelopes the last processed turn opened are news


@dataclass(frozen=True)
class PressBox:
    campaign: Campaign
    announcements: list[AnnouncementView]
    is_gm: bool


@dataclass(frozen=True)
class CampaignBoxes:
    notices: NoticesBox
    character: CharacterBox
    press: PressBox


def campaign_boxes(viewer: Membership, turn: Turn | None, boards: list[BoardLink]) -> CampaignBoxes:
    """`turn` is the campaign's current turn, `boards` its boards (as the view read them)."""
    campaign = viewer.campaign
    player = viewer.role == Membership.Role.PLAYER
    player_turn = turn if player else None
    notices = NoticesBox(
        campaign=campaign,
        player=viewer,
        # A turn read by pages.turns_now(campaign, viewer) says whether there is any.
        # Notices belong to the open turn: none without one.
        notices=notices_unread(viewer)
        if turn is not None
        and turn.status == Turn.Status.OPEN
        and getattr(turn, "unread_notices", True)
        else [],
        offers=offers_to(viewer, player_turn)
        if player_turn and getattr(player_turn, "handovers", True)
        else [],
        turn_number=player_turn.number if player_turn else None,
        orders_open=player_turn is not None and player_turn.status == Turn.Status.OPEN,
        election=next_election(campaign.pk),
    )
    return CampaignBoxes(
        notices=notices,
        character=character_box(viewer, turn, {b.slug: b.name for b in boards}),
        press=PressBox(
            campaign=campaign,
            announcements=announcements(campaign, limit=ANNOUNCEMENTS_SHOWN),
            is_gm=viewer.role == Membership.Role.GM,
        ),
    )


def character_box(viewer: Membership, turn: Turn | None, boards: dict[str, str]) -> CharacterBox:
    if viewer.role != Membership.Role.PLAYER:
        return CharacterBox(viewer.campaign, viewer, None, False)
    sheet = character_sheet(viewer, viewer, boards)
    turn = turn if sheet.dossier else None
    # R71, R72: envelopes the last processed turn opened are news on the campaign page.
    fresh = turn is not None and sheet.latest_turn == turn.number - (
        turn.status == Turn.Status.OPEN
    )
    return CharacterBox(viewer.campaign, viewer, sheet, fresh)

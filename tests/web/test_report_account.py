"""The numbered account that opens a turn report (RULES R31): the turn's events phase by
phase in the turn job's order, each reader told only what the rest of their report tells
them (R50, R51)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaigns.models import Order
from campaigns.selectors.report_account import PHASES
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process
from tests.support.demo import ORDERS, Played
from tests.support.fog import PLAYERS, leaks, private_markers
from tests.support.handmade import ClientFor
from tests.support.report_accounts import accounts
from tests.support.report_levels import report_levels

SLUG = "tourmaline"
ORDER_OF_PHASES = [key for key, _label in PHASES]


def phases_shown(content: str, board: str = "city") -> list[str]:
    return re.findall(r'data-phase="([a-z]+)"', accounts(content, board))


@pytest.mark.parametrize("username", PLAYERS)
def test_a_players_account_names_no_department_they_do_not_know(
    played_fogged: Played, client_for: ClientFor, username: str
) -> None:
    """Carol's attempt captured Alice's City Watch; Alice defended (R46: she is told the
    attacking Thieves' Guild by name). Nothing else the levels hide is in anyone's account,
    neither a name nor a rumoured department's figures."""
    response = client_for(username).get(reverse("turn_report", args=[SLUG, 1]))
    assert response.status_code == 200
    text = accounts(response.content.decode())
    assert "data-phase" in text, username  # each player has an account to read
    allowed = ["thieves-guild"] if username == "alice" else []
    levels = report_levels(username)
    assert leaks(text, levels, private_markers(played_fogged.campaign), allowed_names=allowed) == []


def test_the_defender_reads_the_attack_from_her_side(played: Played, client_for: ClientFor) -> None:
    content = html.unescape(
        client_for("alice").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    )
    text = accounts(content)
    assert "tries to link The City Watch: your department was captured, 1 against" in text
    # Her own orders, each with what came of it, in their phases.
    assert phases_shown(content) == ["links", "moves", "attempts", "functions", "spawn"]
    # The capture's link changes are told with the attempt that made them (R44), not in
    # the link phase.
    attempts = text.split('data-phase="attempts"')[1].split('data-phase="functions"')[0]
    assert "New link: The Thieves' Guild → The City Watch." in attempts
    assert "Link gone: The Mint → The City Watch." in attempts
    assert "Break link: The Mint → The Orphanage — Rejected (" in text
    assert re.search(r"Function roll: The Mint: coinage.* — \d+ success", text)


def test_the_account_lists_the_phases_in_r31_order(db: None, client_for: ClientFor) -> None:
    """A demo turn with an order of every phase (a hand-over and its accept, a gift, a
    perception check besides the usual orders), listed in the order of `turn_process`'s
    phases whatever the order the players queued them in."""
    campaign = demo_create()
    members = {m.user.username: m for m in campaign.memberships.select_related("user")}
    turn = campaign.turns.get(number=1)
    city = campaign.boards.get(slug="city")
    bob = members["bob"]
    later = [
        ("carol", Order.Kind.PERCEIVE, {"department": "guild-hall"}),
        ("alice", Order.Kind.GIFT, {"from": "mint", "to": "guild-hall", "tokens": {"money": 1}}),
        ("alice", Order.Kind.HANDOVER, {"department": "treasury", "to": bob.player_id}),
        ("bob", Order.Kind.ACCEPT,
         {"department": "treasury", "from": members["alice"].player_id}),
    ]  # fmt: skip
    queued = [(player, kind, payload) for _name, player, kind, payload in ORDERS] + later
    for seq, (player, kind, payload) in enumerate(queued, start=1):
        Order.objects.create(
            turn=turn, board=city, player=members[player], kind=kind, payload=payload, seq=seq
        )
    turn_process(campaign_id=campaign.pk, number=1)
    url = reverse("turn_report", args=[campaign.slug, 1])
    content = client_for("gm").get(url).content.decode()
    shown = phases_shown(content)
    assert {"handovers", "links", "moves", "attempts", "functions", "perception", "spawn"} <= set(
        shown
    ), shown
    assert shown == sorted(shown, key=ORDER_OF_PHASES.index)
    # Numbered: one ordered list of phases, each with its events.
    assert "<ol" in accounts(content)


def test_the_attacker_reads_her_capture_with_its_score(
    played: Played, client_for: ClientFor
) -> None:
    content = client_for("carol").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    attempts = accounts(html.unescape(content), "city").split('data-phase="attempts"')[1]
    assert re.search(
        r"Linking attempt: The Thieves' Guild tries to link The City Watch, paying 2 Money "
        r"— Succeeded \(\d+ against \d+ success(es)?\)[.;]",
        attempts,
    )
    # What it made: the capture, then the link it added (R44).
    assert attempts.index("was captured by") < attempts.index("New link: The Thieves' Guild")

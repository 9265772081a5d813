"""RULES R50 and R23 on the turn reports, the verify page and the mails after a turn with
orders from several players: function rolls, a move, a rejected order, Carol's attempt
capturing Alice's City Watch (tests/support/demo.py); and on the reasons given for
illegal orders."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Campaign, Department, Membership, Order, Turn
from campaigns.selectors.order_checks import OrderRefused, order_check
from tests.support.demo import Played
from tests.support.fog import (
    CONTROLLED,
    KNOWN,
    PLAYERS,
    demo_levels,
    leaks,
    open_seed,
    private_markers,
    sentinelize,
)
from tests.support.report_levels import report_levels

SLUG = "tourmaline"


@pytest.mark.parametrize("username", PLAYERS)
def test_report_and_verify_pages_hide_what_the_level_hides(
    played_fogged: Played, client_for, username: str
) -> None:
    played = played_fogged
    assert played.order("carol_attempt").status == "succeeded"
    assert played.order("alice_bad").status == "rejected"
    levels = report_levels(username)
    markers = private_markers(played.campaign)
    seed = open_seed(played.campaign)  # turn 2's: still secret (R23)
    client = client_for(username)
    # R46: Alice defended against the Thieves' Guild; she sees its name on her report.
    allowed = ["thieves-guild"] if username == "alice" else []
    report_url = reverse("turn_report", args=[SLUG, 1])
    response = client.get(report_url)
    assert response.status_code == 200
    pages = {report_url: response.content.decode()}
    report = response.context["report"]
    rolls = report.rolls
    for roll in rolls:
        pages[roll.verify_url] = client.get(roll.verify_url).content.decode()
    pages["verify"] = client.get(reverse("verify_dice", args=[SLUG, 1])).content.decode()
    pages["turn 0"] = client.get(reverse("turn_report", args=[SLUG, 0])).content.decode()
    pages["campaign"] = client.get(reverse("campaign", args=[SLUG])).content.decode()
    problems = {
        url: found
        for url, content in pages.items()
        if (found := leaks(content, levels, markers, allowed_names=allowed, secrets=[seed]))
    }
    assert problems == {}
    assert played.turn.seed in pages[report_url]  # published now (R23)
    # Spawn-consume figures (status, chain length, capacity) only for departments the
    # player controls after the turn; other players' orders only when they attacked them.
    viewer = Membership.objects.get(campaign=played.campaign, user__username=username)
    mine = set(Department.objects.filter(structure__player=viewer).values_list("name", flat=True))
    assert report.boards
    for board in report.boards:
        assert {d.name for d in board.departments} <= mine, board.name
        assert all(o.player == viewer.display_name for o in board.orders)
        for attack in board.attacks:
            assert "paying" not in attack.summary and "spending" not in attack.summary
            # R46: a defender who does not know the attacker's card sees the attacker's
            # successes only: no dice, skill, target number, faces, nor a verify link.
            # Not even its key: with the key and the published seed, the verify page would
            # recompute the hidden faces.
            [roll] = [r for r in attack.rolls if r.hidden]
            assert levels["thieves-guild"] < KNOWN
            assert (roll.key, roll.dice, roll.skill, roll.tn, roll.verify_url) == (
                "", None, None, None, None,
            )  # fmt: skip
            attack_key = played.order("carol_attempt").result["rolls"][0]["key"]
            assert attack_key.endswith(":attack") and roll not in rolls
            assert all(attack_key not in content for content in pages.values())
    if username == "alice":
        assert any(b.attacks for b in report.boards)


def test_mails_after_the_turn_hide_everything(played_fogged: Played) -> None:
    """notify_turn_processed ran after commit (the fixture): each mail names nothing the
    recipient's level hides, nor the new turn's seed."""
    seed = open_seed(played_fogged.campaign)
    markers = private_markers(played_fogged.campaign)
    assert len(mail.outbox) == 4
    for message in mail.outbox:
        username = message.to[0].split("@")[0]
        text = f"{message.subject}\n{message.body}"
        assert seed not in text and "SENTINEL" not in text
        if username in PLAYERS:
            assert leaks(text, report_levels(username), markers) == []


ILLEGAL = [
    # kind, payload builder (own: a department of the player, other: any other one)
    (Order.Kind.ADD_LINK, lambda own, other: {"from": own, "to": other}),
    (Order.Kind.ADD_LINK, lambda own, other: {"from": other, "to": own}),
    (Order.Kind.BREAK_LINK, lambda own, other: {"from": other, "to": own}),
    (Order.Kind.BREAK_LINK, lambda own, other: {"from": own, "to": other}),
    (Order.Kind.PRIORITY, lambda own, other: {"department": other, "consumers": [own]}),
    (Order.Kind.PRIORITY, lambda own, other: {"department": own, "consumers": [other, own]}),
    (Order.Kind.MOVE, lambda own, other: {"from": own, "path": [other], "tokens": {"money": 1}}),
    (Order.Kind.MOVE, lambda own, other: {"from": other, "path": [own], "tokens": {"money": 1}}),
    (Order.Kind.ATTEMPT, lambda own, other: {"attacker": other, "target": own}),
    (Order.Kind.ATTEMPT, lambda own, other: {"attacker": own, "target": other,
                                              "spend": {"money": 1}}),
    (Order.Kind.FUNCTION, lambda own, other: {"department": other, "function": "x",
                                               "stat": "effect", "intent": "i"}),
]  # fmt: skip


@pytest.mark.parametrize("username", PLAYERS)
def test_refusals_of_illegal_orders_name_no_hidden_department(
    fogged: Campaign, username: str
) -> None:
    """R40/R50: every refusal at submission, for orders that touch each department the
    player does not control, states nothing their level hides (names of unknown
    departments, stash, flaws, figures)."""
    sentinelize(fogged, fields=["description", "flaws"])  # figures: real, so rules apply
    levels = demo_levels()[username]
    markers = private_markers(fogged)
    viewer = Membership.objects.select_related("campaign", "user").get(
        campaign=fogged, user__username=username
    )
    turn = fogged.turns.get(status=Turn.Status.OPEN)
    refusals = []
    for board in fogged.boards.all():
        depts = list(Department.objects.filter(board=board).select_related("structure"))
        own = [d.slug for d in depts if levels[d.slug] == CONTROLLED]
        others = [d.slug for d in depts if levels[d.slug] < CONTROLLED] + ["no-such-dept"]
        for kind, build in ILLEGAL:
            for other in others:
                for mine in own:
                    payload = build(mine, other)
                    try:
                        order_check(
                            player=viewer, turn=turn, board=board, kind=kind,
                            payload=payload, seq=0,
                        )  # fmt: skip
                    except OrderRefused as refused:
                        refusals.append((kind, payload, str(refused)))
    assert len(refusals) > 50
    levels_plus = {**levels}
    problems = [
        (kind, payload, message, found)
        for kind, payload, message in refusals
        if (found := leaks(message, levels_plus, markers))
    ]
    assert problems == []


def test_refusals_do_not_tell_whether_an_unknown_slug_exists(fogged: Campaign) -> None:
    alice = Membership.objects.select_related("campaign", "user").get(
        campaign=fogged, user__username="alice"
    )
    turn = fogged.turns.get(status=Turn.Status.OPEN)
    city = fogged.boards.get(slug="city")

    def refusal(slug: str) -> str:
        payload = {"department": "mint", "consumers": [slug, "treasury"]}
        with pytest.raises(OrderRefused) as refused:
            order_check(
                player=alice, turn=turn, board=city, kind=Order.Kind.PRIORITY,
                payload=payload, seq=0,
            )  # fmt: skip
        return str(refused.value)

    # rebel-cell exists and alice does not know it; no-such-dept does not exist.
    assert refusal("rebel-cell") == refusal("no-such-dept")

"""Two turns of the classic demo "The Underside of Tourmaline" (RULES R90-R99) played in a
real browser by alice, bob and carol, through the order forms only.

Turn 1: alice attacks bob's Lamplighters' Guild to control it (the Salt Tax Office attacks,
the Grey Chancery assists, both spend megabucks); bob's standing defence spends money on it;
carol interferes against the attack; alice moves megabucks from her Illuminati to the Salt
Tax Office; bob gifts carol megabucks; carol gives bob her Night Market Hawkers, which bob
accepts with the one button of the orders page; the turn job draws one group per player.
Turn 2: alice passes, bob and carol gift her megabucks, and her goal is met (R98).

Two documented changes of the demo's state, made before any page is read: alice's
Illuminati holds a sentinel treasury and her goal a sentinel amount (the same game, shifted
by 7283 MB), so that a page leaking either to bob or carol is found out (R99); and turn 1's
secret seed is one under which the attack's dice succeed, so the outcome is fixed (the roll
stays verifiable from the report). Each turn is processed by the site's turn job itself:
its deadline is moved into the past and the beat tick (campaigns/tasks.py
`process_due_turns`) queues `process_turn`, which Celery runs at once in the tests.
Screenshots go to test-output/classic-game-*.png."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

from django.urls import reverse
from django.utils import timezone

from campaigns.engine.dice import commitment, roll_faces
from campaigns.models import ClassicBoard, Membership, Order, Turn, TurnRecord
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from campaigns.tasks import process_due_turns
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, watch_for_errors

pytestmark = BROWSER_MARKS

SLUG, BOARD = "underside", "underside"
SHIFT = 7283  # added to alice's Illuminati treasury (18 MB) and to her goal (60 MB)
ALICE_TREASURY, ALICE_GOAL = 18 + SHIFT, 60 + SHIFT
NEED = 7  # attack 3 + 10 + 8 + 10 against defence 5 + 10 + 2 * 2 + 3 + 2 (R95, R96)


def state_groups(campaign: Any) -> dict[str, dict[str, Any]]:
    state = ClassicBoard.objects.get(board__campaign=campaign).state
    return {g["slug"]: g for g in state["groups"]}


def sentinels_set(campaign: Any) -> None:
    """alice's Illuminati treasury and money goal, each shifted into a sentinel figure."""
    row = ClassicBoard.objects.get(board__campaign=campaign)
    state = row.state
    alice = Membership.objects.get(campaign=campaign, user__username="alice").player_id
    for group in state["groups"]:
        if group["slug"] == "grey-chancery":
            assert group["treasury"] == 18  # 9 in the file, +9 income at the start (R93)
            group["treasury"] = ALICE_TREASURY
    for player in state["players"]:
        if player["id"] == alice:
            assert player["goal"] == {"kind": "money", "amount": 60}
            player["goal"]["amount"] = ALICE_GOAL
    row.state = state
    row.save()


def alice_secrets(campaign: Any) -> set[str]:
    """What bob and carol must never read now: alice's goal and her Illuminati's treasury
    (the sentinels; her other treasuries are small numbers any page shows for other things)."""
    return {str(ALICE_GOAL), str(state_groups(campaign)["grey-chancery"]["treasury"])}


def no_secret(page: Any, secrets: set[str], where: str) -> None:
    """R99: none of `secrets` in the page's HTML as a number of its own (a secret figure
    found inside a hex token or a longer number is chance, not a leak)."""
    html = page.content()
    for secret in secrets:
        found = re.search(rf"(?<![0-9A-Za-z]){secret}(?![0-9A-Za-z])", html)
        assert found is None, f"{where} shows alice's secret {secret}"


def queue(page: Any, base: str, kind: str, choice: str | None, **fields: Any) -> None:
    """Open the orders page, press `kind`'s button, fill its form and queue it."""
    from playwright.sync_api import expect

    page.goto(f"{base}{reverse('orders', args=[SLUG])}")
    page.locator(f'[data-classic-kind="{kind}"]').click()
    if choice is not None:
        page.select_option("#id_choice", choice)
    for name, value in fields.items():
        if name == "assist":
            for slug in value:
                page.check(f'input[name="assist"][value="{slug}"]')
        elif isinstance(value, bool):
            page.check(f"#id_{name}")
        else:
            page.fill(f"#id_{name}", str(value))
    page.get_by_role("button", name="Queue order").click()
    expect(page.locator(".alert-success")).to_be_visible()


def seed_for_success(order: Order, turn: int) -> str:
    """A seed under which the attack's 2d6 total at most NEED (R95)."""
    key = f"{turn}:{order.pk}:attack"
    for i in range(10_000):
        seed = hashlib.sha256(f"classic-game-{i}".encode()).hexdigest()
        if sum(roll_faces(seed, key, 2, 6)) <= NEED:
            return seed
    raise AssertionError("no seed found")


def turn_job_runs(campaign: Any, number: int) -> None:
    """The deadline of turn `number` passes and the beat tick runs the turn job on it."""
    turn = Turn.objects.get(campaign=campaign, number=number)
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - dt.timedelta(minutes=1))
    assert process_due_turns() == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.PROCESSED


def test_two_turns_of_the_classic_demo_in_the_browser(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # the users, as ./run makes them
    campaign = classic_demo_create()
    sentinels_set(campaign)
    ids = {
        m.user.username: m.player_id
        for m in Membership.objects.filter(campaign=campaign).select_related("user")
    }
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)
    carol = log_in(browser, base, "carol", DESKTOP)
    problems = [*watch_for_errors(alice), *watch_for_errors(bob), *watch_for_errors(carol)]
    others = {"bob": bob, "carol": carol}
    board_url = f"{base}{reverse('board', args=[SLUG, BOARD])}"
    orders_url = f"{base}{reverse('orders', args=[SLUG])}"

    def others_see_no_secret(step: str) -> None:
        secrets = alice_secrets(campaign)
        for name, page in others.items():
            for url in (board_url, orders_url, *reports):
                page.goto(url)
                no_secret(page, secrets, f"{name}'s {url} ({step})")

    reports: list[str] = []

    # Alice reads her board: her sentinel treasury and goal are hers to read (R99).
    alice.goto(board_url)
    expect(alice.locator('[data-group="grey-chancery"]')).to_contain_text(str(ALICE_TREASURY))
    expect(alice.locator("body")).to_contain_text(f"at least {ALICE_GOAL} MB")
    shot(alice, "classic-game-board-alice")
    others_see_no_secret("before turn 1")
    expect(bob.locator("body")).not_to_contain_text("Goal: at least")  # not his: none set

    # Turn 1. Bob's standing defence of the Lamplighters' Guild (R96): 2 MB from the guild
    # (each counting 2) and 3 MB from his Illuminati.
    bob.goto(orders_url)
    # The orders page of a campaign of classic boards only speaks of neither linking
    # attempts (R46) nor departments' standing defence (R47): parts 1-9 (R90).
    expect(bob.locator("main")).not_to_contain_text("Linking attempts")
    expect(bob.locator("#defence")).to_have_count(0)
    bob.locator('[data-classic-kind="defend"]').click()
    expect(bob.locator('label[for="id_spend"]')).to_contain_text("each counts 2")
    queue(bob, base, "defend", "lamplighters-guild", spend=2, spend_illuminati=3)
    shot(bob, "classic-game-t1-bob-defends")
    # Carol interferes against any attack on it with 2 MB (R96).
    queue(carol, base, "interfere", "lamplighters-guild|defend", amount=2)
    # Carol gives bob her Night Market Hawkers (R97); bob gifts carol 2 MB.
    carol.goto(orders_url)
    carol.locator('[data-classic-kind="give_group"]').click()
    expect(carol.locator("[data-give-note]")).to_contain_text("must accept the group")
    queue(carol, base, "give_group", f"night-market-hawkers|{ids['bob']}")
    shot(carol, "classic-game-t1-carol-orders")
    queue(bob, base, "mb_gift", ids["carol"], amount=2)

    # Bob accepts the group with the one button of his orders page.
    bob.goto(orders_url)
    offer = bob.locator("#group-offers [data-group-offer]")
    expect(offer).to_have_count(1)
    expect(offer).to_contain_text("Carol")
    expect(offer).to_contain_text("Night Market Hawkers")
    shot(bob, "classic-game-t1-bob-offer")
    bob.locator("#group-offers select").select_option("night-market-hawkers|order-of-lantern")
    offer.get_by_role("button", name="Accept").click()
    expect(bob.locator(".alert-success")).to_be_visible()
    expect(bob.locator("#group-offers")).to_have_count(0)  # accepted: no longer offered
    expect(bob.locator("#queued")).to_contain_text("Night Market Hawkers")
    shot(bob, "classic-game-t1-bob-accepted")

    # Alice's attack: the Salt Tax Office (P 3) with the Grey Chancery assisting (T 10),
    # 8 MB from the office and 10 MB from her Illuminati; the preview knows nothing of bob's
    # defence or carol's interference (R99), so it promises more than she will get.
    alice.goto(orders_url)
    alice.locator('[data-classic-kind="attack"]').click()
    alice.select_option("#id_choice", "salt-tax-office|lamplighters-guild|control")
    alice.check('input[name="assist"][value="grey-chancery"]')
    alice.fill("#id_spend", "8")
    alice.fill("#id_spend_illuminati", "10")
    alice.get_by_role("button", name="Preview").click()
    expect(alice.locator("#preview [data-need]")).to_contain_text("Need: 16 or less")
    shot(alice, "classic-game-t1-alice-attack-preview")
    alice.get_by_role("button", name="Queue order").click()
    expect(alice.locator(".alert-success")).to_be_visible()
    # A free transfer of 4 MB from her Illuminati to the office (R97).
    queue(alice, base, "transfer", "grey-chancery|salt-tax-office", amount=4)
    expect(alice.locator("#queued")).to_contain_text("Salt Tax Office")
    shot(alice, "classic-game-t1-alice-orders")
    others_see_no_secret("turn 1 queued")

    turn = Turn.objects.get(campaign=campaign, number=1)
    attack = Order.objects.get(turn=turn, kind=Order.Kind.CLASSIC_ATTACK)
    seed = seed_for_success(attack, 1)
    Turn.objects.filter(pk=turn.pk).update(seed=seed, commitment=commitment(seed))
    turn_job_runs(campaign, 1)

    # The outcomes (R95-R97, R93): who controls what, the money moved, the hand-over done.
    groups = state_groups(campaign)
    lamp, hawkers = groups["lamplighters-guild"], groups["night-market-hawkers"]
    assert (lamp["controller"], lamp["parent"]) == (ids["alice"], "salt-tax-office")
    assert (hawkers["controller"], hawkers["parent"]) == (ids["bob"], "order-of-lantern")
    # The guild spent 2 on its defence, kept half of the rest (R95), then earned 3.
    assert lamp["treasury"] == (6 - 2) // 2 + 3
    assert hawkers["treasury"] == 8 + 4  # its treasury went with it, then income
    assert groups["grey-chancery"]["treasury"] == ALICE_TREASURY - 10 - 4 + 9
    assert groups["salt-tax-office"]["treasury"] == 10 - 8 + 4 + 5
    assert groups["order-of-lantern"]["treasury"] == 16 - 3 - 2 + 8
    assert groups["tide-syndicate"]["treasury"] == 16 - 2 + 2 + 8
    drawn = ["widows-mutual-society", "red-lantern-cell", "customs-inspectorate"]
    assert all(groups[slug]["place"] == "table" for slug in drawn)
    record = TurnRecord.objects.get(turn=turn, board__slug=BOARD)
    entry = record.report["orders"][str(attack.pk)]
    assert (entry["attack"], entry["defence"], entry["need"]) == (31, 24, NEED)
    assert Order.objects.get(pk=attack.pk).status == Order.Status.SUCCEEDED
    assert set(Order.objects.filter(turn=turn).values_list("status", flat=True)) == {
        Order.Status.SUCCEEDED
    }

    reports.append(f"{base}{reverse('turn_report', args=[SLUG, 1])}")
    alice.goto(reports[0])
    attack_line = alice.locator("[data-classic-event]", has_text="Lamplighters")
    expect(attack_line.first.locator("[data-figures]")).to_contain_text(
        f"Attack 31 against defence 24: needed {NEED} or less"
    )
    expect(alice.locator("[data-drawn]")).to_contain_text("Widows' Mutual Society")
    shot(alice, "classic-game-t1-report-alice")
    for name, page in others.items():
        page.goto(reports[0])
        expect(page.locator("[data-classic-report]")).to_contain_text("Lamplighters")
        shot(page, f"classic-game-t1-report-{name}")
    # Bob reads what his defence spent and why he sees no figures of alice's attack; carol
    # what her interference spent; each line says which kind of order it was.
    defence = bob.locator("[data-classic-event]", has_text="Standing defence of a group")
    expect(defence.locator("[data-spent]")).to_contain_text("5 MB")
    expect(bob.locator("[data-classic-event]", has_text="attacks")).to_contain_text(
        "figures are for its player only"
    )
    expect(bob.locator("[data-classic-event]", has_text="Accept a group")).to_contain_text(
        "Night Market Hawkers"
    )
    expect(bob.locator("[data-classic-event]", has_text="Give a group")).to_contain_text(
        "Night Market Hawkers to Bob"
    )
    interference = carol.locator("[data-classic-event]", has_text="Interference")
    expect(interference.locator("[data-spent]")).to_contain_text("2 MB")
    expect(alice.locator("[data-classic-event]", has_text="Transfer of megabucks")).to_contain_text(
        "4 MB"
    )
    bob.goto(board_url)
    expect(bob.locator('[data-group="night-market-hawkers"]')).to_contain_text("12")
    shot(bob, "classic-game-t1-board-bob")
    others_see_no_secret("after turn 1")

    # Turn 2: alice passes (+5 MB); bob and carol gift her 12 and 22 MB. Her treasuries then
    # hold 7296 + 5 + 34 + 11 + 5 = 7351 MB, at least her goal of 7343 (R98).
    queue(alice, base, "pass", None, confirm=True)
    queue(bob, base, "mb_gift", ids["alice"], amount=12)
    queue(carol, base, "mb_gift", ids["alice"], amount=22)
    shot(carol, "classic-game-t2-carol-orders")
    turn_job_runs(campaign, 2)
    record = TurnRecord.objects.get(turn__campaign=campaign, turn__number=2, board__slug=BOARD)
    assert record.report["winners"] == [{"player": ids["alice"], "by": ["goal"]}]

    reports.append(f"{base}{reverse('turn_report', args=[SLUG, 2])}")
    for name, page in {"alice": alice, **others}.items():
        page.goto(reports[1])
        winners = page.locator("[data-winners]")
        expect(winners).to_contain_text(re.compile(r"Alice Ambergris\b.* wins"))
        expect(winners).to_contain_text("their Illuminati's goal is met")
        shot(page, f"classic-game-t2-report-{name}")
    # Alice reads the gifts that made her win; bob does not read carol's (R97, R99).
    gifts = alice.locator("[data-classic-event]", has_text="Gift of megabucks")
    expect(gifts).to_have_count(2)
    expect(gifts.filter(has_text="Mother Carol")).to_contain_text("22 MB")
    expect(gifts.filter(has_text="Bob Brackwater")).to_contain_text("12 MB")
    expect(bob.locator("[data-classic-report]")).not_to_contain_text("22 MB")
    others_see_no_secret("after turn 2")
    assert problems == []

"""services/orders.py: every order is judged by the engine at submission (R40), R46 cut-off
and notices, R50 in messages, the order log, readiness and early processing."""

from __future__ import annotations

import datetime as dt
import itertools
from fractions import Fraction

import pytest
from django.core import mail
from django.utils import timezone

from campaigns.models import (
    Campaign,
    Department,
    Knowledge,
    Link,
    Membership,
    Notice,
    NotificationSettings,
    Order,
    OrderLog,
    PlayerTurn,
    Turn,
)
from campaigns.selectors import order_checks
from campaigns.selectors import turns as early
from campaigns.selectors.order_checks import OrderRefused
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.visibility import Level
from campaigns.services import orders as service
from campaigns.services.turns import turn_process, turn_process_safely
from campaigns.web.attempt_preview import attempt_preview
from tests.factories import CampaignFactory, MembershipFactory, TurnFactory
from tests.support.demo import ATTACK, city, member, open_turn, submit

pytestmark = pytest.mark.django_db
K = Order.Kind


def refused(campaign: Campaign, username: str, kind: str, payload: dict, match: str) -> None:
    before = Order.objects.count(), OrderLog.objects.count()
    with pytest.raises(OrderRefused, match=match):
        submit(campaign, username, kind, payload)
    assert (Order.objects.count(), OrderLog.objects.count()) == before


def test_it_stores_a_legal_move_and_logs_it(demo: Campaign) -> None:
    order = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    assert order.status == Order.Status.QUEUED and order.seq == 0
    assert list(OrderLog.objects.values_list("action", flat=True)) == ["submitted"]


def test_it_rejects_a_move_past_its_tokens_naming_r42(demo: Campaign) -> None:
    refused(
        demo, "alice", K.MOVE,
        {"from": "treasury", "path": ["mint", "city-watch"], "tokens": {"authority": 1}},
        r"1 tokens can travel at most 1 steps \(R42\)",
    )  # fmt: skip


def test_orders_are_checked_after_the_players_earlier_orders(demo: Campaign) -> None:
    """R40/R41: breaking mint->city-watch frees a link, so adding it back is legal after it,
    and a priority naming city-watch is not."""
    submit(demo, "alice", K.BREAK_LINK, {"from": "mint", "to": "city-watch"})
    submit(demo, "alice", K.ADD_LINK, {"from": "mint", "to": "city-watch"})
    # R50: she sees every link of her Mint, so she may be told there is none to the Tax
    # Office (which she knows); a link with neither end hers is not hers to break (R14).
    refused(
        demo,
        "alice",
        K.BREAK_LINK,
        {"from": "mint", "to": "tax-office"},
        "There is no link The Mint->The Tax Office",
    )
    refused(
        demo, "alice", K.BREAK_LINK, {"from": "tax-office", "to": "orphanage"},
        "Tax Office is not in your structure .R14.",
    )  # fmt: skip
    # The Orphanage is a rumour to her: named, as the other end of a link of hers may be.
    refused(
        demo, "alice", K.BREAK_LINK, {"from": "mint", "to": "orphanage"},
        "There is no link The Mint->The Orphanage",
    )  # fmt: skip
    Order.objects.filter(kind=K.ADD_LINK).update(status=Order.Status.CANCELLED)
    refused(
        demo, "alice", K.PRIORITY, {"department": "mint", "consumers": ["city-watch"]},
        "The City Watch is not one of The Mint's consumers",
    )  # fmt: skip


def test_it_rejects_a_link_with_no_free_outgoing_slot_r11(demo: Campaign) -> None:
    Link.objects.filter(supplier__slug="mint", consumer__slug="city-watch").delete()
    Department.objects.filter(slug="city-watch").update(consumes_type="authority")
    Link.objects.create(
        board=city(demo), supplier=Department.objects.get(slug="treasury"),
        consumer=Department.objects.get(slug="city-watch"), priority=1,
    )  # fmt: skip
    refused(demo, "alice", K.ADD_LINK, {"from": "treasury", "to": "city-watch"}, "R10")


def test_a_function_roll_spending_more_than_the_stash_is_refused(demo: Campaign) -> None:
    payload = {"department": "mint", "function": "coinage", "stat": "effect", "intent": "x"}
    refused(demo, "alice", K.FUNCTION, {**payload, "spend": {"money": 9}}, "holds 2 Money")
    submit(demo, "alice", K.FUNCTION, {**payload, "spend": {"money": 1}})
    refused(demo, "alice", K.FUNCTION, payload, r"already made a function roll this turn \(R45\)")


def test_an_attempt_with_a_wrong_cost_sum_is_refused(demo: Campaign) -> None:
    refused(demo, "alice", K.ATTEMPT, {**ATTACK, "cost": {"people": 1}}, "The cost is 2 tokens")


def test_a_second_attempt_is_refused_r43(demo: Campaign) -> None:
    submit(demo, "alice", K.ATTEMPT, ATTACK)
    refused(demo, "alice", K.ATTEMPT, {"attacker": "treasury", "target": "tax-office"}, "R43")


def test_an_attempt_that_cannot_pay_is_stored_it_may_fail_but_is_not_illegal(
    demo: Campaign,
) -> None:
    order = submit(demo, "alice", K.ATTEMPT, {**ATTACK, "spend": {"money": 50}})
    assert order.status == Order.Status.QUEUED


def test_rejections_about_hidden_departments_say_nothing_of_them_r50(demo: Campaign) -> None:
    """guild-hall is known to alice; fill its incoming links from outside bob's structure:
    "no free incoming link" would tell her about its links, so the message is generic."""
    hall = Department.objects.get(slug="guild-hall")
    Link.objects.create(
        board=hall.board, supplier=Department.objects.get(slug="rebel-cell"), consumer=hall
    )
    Link.objects.create(
        board=hall.board, supplier=Department.objects.get(slug="street-preachers"), consumer=hall
    )
    with pytest.raises(OrderRefused) as info:
        submit(demo, "alice", K.ATTEMPT, ATTACK)
    message = str(info.value)
    assert message == order_checks.GENERIC
    for secret in ("Rebel", "Preachers", "rebel-cell", "incoming"):
        assert secret not in message
    # A department alice has never heard of is not even named.
    with pytest.raises(OrderRefused) as info:
        submit(demo, "alice", K.ATTEMPT, {"attacker": "city-watch", "target": "seminary"})
    assert "Seminary" not in str(info.value) and "seminary" not in str(info.value)


def test_card_facts_of_a_known_department_are_named(demo: Campaign) -> None:
    with pytest.raises(OrderRefused, match="The Tax Office does not consume what The City Watch"):
        submit(demo, "alice", K.ATTEMPT, {"attacker": "city-watch", "target": "tax-office"})


def test_attempts_respect_the_cutoff_r46(demo: Campaign) -> None:
    turn = open_turn(demo)
    late = turn.deadline - dt.timedelta(hours=demo.attempt_cutoff_hours - 1)
    with pytest.raises(OrderRefused, match="24 hours before the deadline"):
        submit(demo, "alice", K.ATTEMPT, ATTACK, now=late)
    submit(
        demo,
        "alice",
        K.MOVE,
        {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}},
        now=late,
    )
    assert Order.objects.count() == 1


def test_orders_after_the_deadline_or_on_a_processed_turn_are_refused(demo: Campaign) -> None:
    turn = open_turn(demo)
    move = {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    with pytest.raises(OrderRefused, match="deadline of turn 1 has passed"):
        submit(demo, "alice", K.MOVE, move, now=turn.deadline)
    order = submit(demo, "alice", K.MOVE, move)
    turn_process(campaign_id=demo.pk, number=1)
    with pytest.raises(OrderRefused, match="Turn 1 is processed"):
        service.orders_submit(
            player=member(demo, "alice"), turn=turn, board=city(demo), kind=K.MOVE, payload=move
        )
    with pytest.raises(OrderRefused):
        service.order_cancel(player=member(demo, "alice"), order=order)
    assert Order.objects.count() == 1


def test_an_order_made_illegal_by_resolution_time_is_rejected_and_the_rest_go_on(
    demo: Campaign,
) -> None:
    """R40: alice queues two legal orders; the GM then takes the mint's money away; at
    resolution the move is rejected with its reason and the function roll still succeeds."""
    move = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 2}}
    )
    roll = submit(
        demo,
        "alice",
        K.FUNCTION,
        {"department": "treasury", "function": "audit", "stat": "effect", "intent": "books"},
    )
    Department.objects.filter(slug="mint").update(money=0)
    turn_process(campaign_id=demo.pk, number=1)
    move.refresh_from_db()
    roll.refresh_from_db()
    assert move.status == Order.Status.REJECTED
    assert "unmoved money" in move.result["reason"]
    assert roll.status == Order.Status.SUCCEEDED


def test_the_same_form_token_stores_one_order(demo: Campaign) -> None:
    move = {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    first = submit(demo, "alice", K.MOVE, move, client_token="abc")
    second = submit(demo, "alice", K.MOVE, move, client_token="abc")
    assert first.pk == second.pk and Order.objects.count() == 1


def test_edit_reorder_and_cancel_are_logged(demo: Campaign) -> None:
    alice = member(demo, "alice")
    a = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    b = submit(
        demo,
        "alice",
        K.FUNCTION,
        {"department": "mint", "function": "coinage", "stat": "effect", "intent": "x"},
    )
    service.order_edit(
        player=alice,
        order=a,
        payload={"from": "mint", "path": ["city-watch"], "tokens": {"money": 1}},
    )
    service.orders_reorder(player=alice, turn=open_turn(demo), order_ids=[b.pk, a.pk])
    service.order_cancel(player=alice, order=b)
    actions = list(OrderLog.objects.values_list("action", "order_id"))
    assert actions == [
        ("submitted", a.pk), ("submitted", b.pk), ("edited", a.pk),
        ("reordered", b.pk), ("reordered", a.pk), ("cancelled", b.pk),
    ]  # fmt: skip
    a.refresh_from_db()
    assert a.payload["path"] == ["city-watch"] and a.seq == 1


def test_an_illegal_edit_changes_nothing(demo: Campaign) -> None:
    alice = member(demo, "alice")
    a = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    with pytest.raises(OrderRefused, match="R42"):
        service.order_edit(
            player=alice,
            order=a,
            payload={"from": "mint", "path": ["treasury"], "tokens": {"money": 7}},
        )
    a.refresh_from_db()
    assert a.payload["tokens"] == {"money": 1} and OrderLog.objects.count() == 1


def test_a_reorder_that_would_break_an_order_is_refused(demo: Campaign) -> None:
    alice = member(demo, "alice")
    brk = submit(demo, "alice", K.BREAK_LINK, {"from": "mint", "to": "city-watch"})
    add = submit(demo, "alice", K.ADD_LINK, {"from": "mint", "to": "city-watch"})
    with pytest.raises(OrderRefused, match="would be rejected"):
        service.orders_reorder(player=alice, turn=open_turn(demo), order_ids=[add.pk, brk.pk])


def test_another_player_cannot_change_my_orders(demo: Campaign) -> None:
    a = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    with pytest.raises(OrderRefused):
        service.order_cancel(player=member(demo, "bob"), order=a)
    with pytest.raises(OrderRefused):
        service.order_edit(player=member(demo, "bob"), order=a, payload={})


def test_players_cannot_order_departments_of_others(demo: Campaign) -> None:
    refused(
        demo,
        "bob",
        K.MOVE,
        {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}},
        "The Mint is not in your structure",
    )
    refused(
        demo,
        "gm",
        K.MOVE,
        {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}},
        "Only players",
    )


def test_the_defender_is_told_at_once_in_the_app_and_by_mail_r46(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        order = submit(demo, "alice", K.ATTEMPT, ATTACK)
    notice = Notice.objects.get(player=member(demo, "bob"))
    assert "The Guild Hall" in notice.text and "The City Watch" in notice.text
    # R46/R50: bob does not know the City Watch's card, so not who controls it.
    assert "Alice Ambergris" not in notice.text and "Alice" not in mail.outbox[0].body
    assert notice.url.endswith(f"/orders/reinforce/{order.pk}/")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.com"]
    assert "The Guild Hall" in mail.outbox[0].subject and notice.url in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        service.order_cancel(player=member(demo, "alice"), order=order)
    assert Notice.objects.filter(player=member(demo, "bob")).count() == 2
    assert "withdrawn" in mail.outbox[1].body


def test_queuing_an_attempt_makes_the_attacker_rumoured_to_the_defender_r46(
    demo: Campaign,
) -> None:
    """R46: "by whom" is the attacking department: bob learns of the City Watch (rumoured)."""
    bob = member(demo, "bob")
    assert not Knowledge.objects.filter(player=bob, department__slug="city-watch").exists()
    submit(demo, "alice", K.ATTEMPT, ATTACK)
    assert Knowledge.objects.get(player=bob, department__slug="city-watch").level == Level.RUMOURED


def test_the_defender_who_knows_the_attackers_card_is_told_its_controller_r46(
    demo: Campaign,
) -> None:
    """R46/R50: at level `known` the card shows who controls the attacker, so the notice
    names the attacking player too; and queuing never lowers what the defender knew."""
    bob = member(demo, "bob")
    watch = Department.objects.get(board__campaign=demo, slug="city-watch")
    Knowledge.objects.create(player=bob, department=watch, level=Level.KNOWN)
    submit(demo, "alice", K.ATTEMPT, ATTACK)
    notice = Notice.objects.get(player=bob)
    assert "The City Watch (Alice Ambergris, Comptroller)" in notice.text
    assert Knowledge.objects.get(player=bob, department=watch).level == Level.KNOWN


def test_no_mail_when_the_defender_switched_attack_notices_off(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    bob = member(demo, "bob")
    NotificationSettings.objects.create(user=bob.user, attack_notices=False)
    with django_capture_on_commit_callbacks(execute=True):
        submit(demo, "alice", K.ATTEMPT, ATTACK)
    assert Notice.objects.filter(player=bob).count() == 1
    assert mail.outbox == []


def test_the_defender_reinforces_with_a_move_ending_at_the_target(demo: Campaign) -> None:
    attempt = submit(demo, "alice", K.ATTEMPT, ATTACK)
    answer = {"answers": attempt.engine_id}
    refused(
        demo,
        "bob",
        K.REINFORCE,
        {**answer, "from": "guild-hall", "path": ["dock-workers"], "tokens": {"money": 1}},
        "must end at the target",
    )
    order = submit(
        demo,
        "bob",
        K.REINFORCE,
        {**answer, "from": "dock-workers", "path": ["guild-hall"], "tokens": {"people": 1}},
    )
    assert order.kind == K.REINFORCE
    refused(
        demo,
        "carol",
        K.REINFORCE,
        {**answer, "from": "seminary", "path": ["temple"], "tokens": {"people": 1}},
        "R46",
    )


def test_a_reinforcement_of_an_attempt_that_cannot_pay_is_judged_as_a_move(
    demo: Campaign,
) -> None:
    """R46/R50: whether alice's attempt can pay is hers to know; bob's reinforcement of it is
    judged as the move it is, ending at the target, and its refusal says only that. The demo's
    two boards and parts 7-9 make the check join the boards (order_checks.trial_of): before,
    only a one-board check was judged so, and here bob read that the attempt "could not pay"."""
    attempt = submit(demo, "alice", K.ATTEMPT, ATTACK)
    Department.objects.filter(board__campaign=demo, slug="city-watch").update(
        money=0, people=0, authority=0
    )
    answer = {"answers": attempt.engine_id}
    wrong = {**answer, "from": "guild-hall", "path": ["dock-workers"], "tokens": {"money": 1}}
    before = Order.objects.count()
    with pytest.raises(OrderRefused) as refusal:
        submit(demo, "bob", K.REINFORCE, wrong)
    assert str(refusal.value) == "A reinforcement must end at the target The Guild Hall (R46)."
    assert Order.objects.count() == before
    right = {**answer, "from": "dock-workers", "path": ["guild-hall"], "tokens": {"people": 1}}
    assert submit(demo, "bob", K.REINFORCE, right).kind == K.REINFORCE


def test_early_processing_waits_for_every_player_and_the_grace(demo: Campaign) -> None:
    now = timezone.now()
    turn = open_turn(demo)
    for name in ("alice", "bob", "carol"):
        service.turn_mark_ready(player=member(demo, name), turn=turn, ready=True, now=now)
    assert early.turns_ready_for_early_processing(now + dt.timedelta(hours=1)) == []
    Campaign.objects.filter(pk=demo.pk).update(early_processing=True)
    assert early.turns_ready_for_early_processing(now + dt.timedelta(minutes=5)) == []
    assert early.turns_ready_for_early_processing(now + dt.timedelta(minutes=11)) == [(demo.pk, 1)]
    service.turn_mark_ready(player=member(demo, "bob"), turn=turn, ready=False, now=now)
    assert early.turns_ready_for_early_processing(now + dt.timedelta(minutes=11)) == []
    assert PlayerTurn.objects.filter(ready_at__isnull=False).count() == 2
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN


def test_standing_defence_is_set_only_on_own_departments_r47(demo: Campaign) -> None:
    mint = Department.objects.select_related("structure").get(slug="mint")
    service.department_set_defence(
        player=member(demo, "alice"), department=mint, defence={"people": 2, "money": 0}
    )
    mint.refresh_from_db()
    assert mint.defence == {"people": 2}
    with pytest.raises(OrderRefused):
        service.department_set_defence(
            player=member(demo, "bob"), department=mint, defence={"people": 1}
        )


# --- The preview (R43, R6) matches brute force -------------------------------------------


def brute_force(
    attack_dice: int, attack_skill: int, tn: int, defend_dice: int, defend_skill: int
) -> Fraction:
    wins = total = 0
    for faces in itertools.product(range(1, 11), repeat=attack_dice + defend_dice):
        a = sum(1 for f in faces[:attack_dice] if f + attack_skill >= tn)
        d = sum(1 for f in faces[attack_dice:] if f + defend_skill >= 7)
        wins += a > d
        total += 1
    return Fraction(wins, total)


@pytest.mark.parametrize(
    ("spend", "obstruct", "defence", "target_owner"),
    [
        ({}, 1, {}, "bob"),
        ({"authority": 1}, 2, {}, "bob"),
        ({"money": 1}, 1, {"people": 1, "money": 1}, "alice"),
        ({}, 0, {}, "bob"),
    ],
)
def test_the_preview_matches_brute_force_enumeration(
    demo: Campaign, spend: dict, obstruct: int, defence: dict, target_owner: str
) -> None:
    """R43: the exact chance in the preview equals counting every die face (small pools)."""
    hall = Department.objects.get(slug="guild-hall")
    hall.obstruct, hall.defence, hall.people, hall.money = obstruct, defence, 3, 3
    if target_owner == "alice":  # she knows her own department's defence (R47, R50)
        hall.structure = Department.objects.get(slug="mint").structure
    hall.save()
    alice = member(demo, "alice")
    ctx = OrderContext.build(alice, open_turn(demo), city(demo))
    if target_owner == "alice":
        ctx.levels["guild-hall"] = Level.CONTROLLED
    preview = attempt_preview(ctx, {**ATTACK, "spend": spend})
    # city-watch: impress 1, no linking; Violent/Straight vs Liberal/Peaceful: 1 opposed.
    assert preview.tn == 8 and preview.opposed == 1 and preview.identical == 0
    assert preview.cost == 2
    known = target_owner == "alice"
    assert preview.defence_known is known
    expected = brute_force(
        1 + spend.get("authority", 0),
        spend.get("money", 0),
        8,
        obstruct + (defence.get("people", 0) if known else 0),
        defence.get("money", 0) if known else 0,
    )
    assert preview.chance == expected


def test_the_early_processing_check_is_one_query_for_any_number_of_campaigns(
    demo: Campaign, django_assert_num_queries
) -> None:
    now = timezone.now()
    Campaign.objects.filter(pk=demo.pk).update(early_processing=True)
    turn = open_turn(demo)
    for name in ("alice", "bob", "carol"):
        service.turn_mark_ready(player=member(demo, name), turn=turn, ready=True, now=now)
    # A second campaign with early processing on, where nobody is ready.
    other = CampaignFactory(status=Campaign.Status.RUNNING, early_processing=True)
    MembershipFactory(campaign=other, role=Membership.Role.PLAYER)
    TurnFactory(campaign=other, number=1, status=Turn.Status.OPEN)
    with django_assert_num_queries(1):
        due = early.turns_ready_for_early_processing(now + dt.timedelta(minutes=11))
    assert due == [(demo.pk, 1)]


def test_the_scheduled_job_processes_a_turn_early_only_after_the_grace(demo: Campaign) -> None:
    """R30 early processing end to end: the job (as the tick queues it) decides under the
    lock; before the deadline it processes the turn only once every player has been ready
    for the grace period."""
    Campaign.objects.filter(pk=demo.pk).update(early_processing=True)
    turn = open_turn(demo)
    just_now = timezone.now() - dt.timedelta(minutes=1)
    for name in ("alice", "bob", "carol"):
        service.turn_mark_ready(player=member(demo, name), turn=turn, ready=True, now=just_now)
    assert turn_process_safely(campaign_id=demo.pk, number=1) is None  # grace not over
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.OPEN
    PlayerTurn.objects.filter(turn=turn).update(ready_at=timezone.now() - early.EARLY_GRACE)
    opened = turn_process_safely(campaign_id=demo.pk, number=1)
    assert opened is not None and opened.number == 2
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.PROCESSED


HUGE = "x" * 2_600_000


@pytest.mark.parametrize(
    "payload",
    [
        {"department": "mint", "function": "coinage", "stat": "effect", "intent": HUGE},
        {"department": "mint", "function": HUGE, "stat": "effect"},
        {"department": "mint", "function": "coinage", "stat": "effect", "junk": HUGE},
    ],
    ids=["intent", "task", "payload"],
)
def test_an_oversized_order_is_refused_and_stores_nothing(demo: Campaign, payload: dict) -> None:
    """A 2.6 MB intent was once stored and copied into OrderLog on every edit."""
    with pytest.raises(OrderRefused, match="Nothing was stored"):
        submit(demo, "alice", K.FUNCTION, payload)
    assert not Order.objects.exists() and not OrderLog.objects.exists()


def test_an_edit_cannot_grow_an_order_past_the_caps(demo: Campaign) -> None:
    roll = {"department": "mint", "function": "coinage", "stat": "effect", "intent": "Coins."}
    order = submit(demo, "alice", K.FUNCTION, roll)
    with pytest.raises(OrderRefused, match="at most 1,000"):
        service.order_edit(
            player=member(demo, "alice"), order=order, payload={**roll, "intent": HUGE}
        )
    order.refresh_from_db()
    assert order.payload["intent"] == "Coins." and OrderLog.objects.count() == 1

"""The order pages: one legal and the illegal cases per kind (R41-R47), authorization, the
double post, the preview, the campaign page's notices. Demo campaign (services/demo.py)."""

from __future__ import annotations

import datetime as dt
import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Department, Notice, Order, OrderLog, Turn
from campaigns.selectors.order_context import OrderContext
from campaigns.services.turns import turn_process
from campaigns.templatetags.rules import rule_links
from campaigns.web.attempt_preview import attempt_preview
from campaigns.web.order_choices import kinds_offered
from tests.factories import BoardFactory, CampaignFactory, MembershipFactory, TurnFactory
from tests.support.demo import ATTACK, city, member, open_turn, submit
from tests.support.handmade import ClientFor
from tests.support.order_posts import new_url

pytestmark = pytest.mark.django_db
K = Order.Kind
SLUG = "tourmaline"
GONE = "is no longer offered: "  # a choice the form does not offer (now), never Django's words


def post(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, {"client_token": "", **data})


def stored(kind: str) -> int:
    return Order.objects.filter(kind=kind).count()


def assert_refused(response: Any, text: str) -> None:
    assert response.status_code == 200
    # The page links a refusal's rule id (R42) to the rules page: compare with the same links.
    assert rule_links(text) in response.content.decode(), response.content.decode()[-3000:]


def test_the_orders_page_lists_the_forms(demo: Campaign, client_for: ClientFor) -> None:
    page = client_for("alice").get(reverse("orders", args=[SLUG]))
    assert page.status_code == 200
    city = page.content.decode().split('data-board-offers="city"')[1].split("</div>")[0]
    # Every kind is offered as a button, or says in one line why there is nothing to order:
    # every link Alice's departments' resources allow already exists (R10).
    for kind in ("break_link", "priority", "move", "attempt", "function"):
        assert new_url(kind) in city
    assert new_url("add_link") not in city and 'data-why-not="add_link"' in city


def test_add_and_break_link(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    assert post(alice, new_url("break_link"), {"link": "mint|city-watch"}).status_code == 302
    # After the break, the form offers mint -> city-watch again (the player's sequence).
    assert "mint|city-watch" in alice.get(new_url("add_link")).content.decode()
    assert post(alice, new_url("add_link"), {"link": "mint|city-watch"}).status_code == 302
    assert stored(K.BREAK_LINK) == stored(K.ADD_LINK) == 1
    assert_refused(post(alice, new_url("add_link"), {"link": "mint|guild-hall"}), GONE)
    assert_refused(post(alice, new_url("break_link"), {"link": "guild-hall|dock-workers"}), GONE)
    assert stored(K.BREAK_LINK) == stored(K.ADD_LINK) == 1


def test_priority(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    assert (
        post(alice, new_url("priority"), {"ordering": "mint|city-watch,treasury"}).status_code
        == 302
    )
    assert Order.objects.get().payload == {
        "department": "mint",
        "consumers": ["city-watch", "treasury"],
    }
    assert_refused(post(alice, new_url("priority"), {"ordering": "mint|orphanage"}), GONE)
    assert stored(K.PRIORITY) == 1


def test_move(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    ok = {"route": "treasury,mint,city-watch", "tokens_authority": 2, "drop_1": "authority"}
    assert post(alice, new_url("move"), ok).status_code == 302
    assert Order.objects.get().payload == {
        "from": "treasury", "path": ["mint", "city-watch"], "tokens": {"authority": 2},
        "drops": [{"authority": 1}],
    }  # fmt: skip
    Order.objects.all().delete()
    too_few = {**ok, "tokens_authority": 1, "drop_1": ""}
    assert_refused(
        post(alice, new_url("move"), too_few), "1 tokens can travel at most 1 steps (R42)"
    )
    assert_refused(
        post(alice, new_url("move"), {**ok, "tokens_authority": -1}), "greater than or equal to 0"
    )
    assert_refused(post(alice, new_url("move"), {**ok, "tokens_authority": "lots"}), "whole number")
    assert_refused(post(alice, new_url("move"), {**ok, "route": "guild-hall,dock-workers"}), GONE)
    assert_refused(
        post(alice, new_url("move"), {"route": "mint,treasury"}), "Carry at least one token"
    )
    assert stored(K.MOVE) == 0


def test_the_move_form_keeps_every_drop_without_javascript(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R42: the page's script hides the drop fields a path does not pass (a browser test
    checks it, tests/browser/test_orders_browser.py); the HTML itself has all of them."""
    page = client_for("alice").get(new_url("move")).content.decode()
    assert all(f'name="drop_{i}"' in page for i in range(1, 5)) and " hidden" not in page
    assert "campaigns/move_drops.js" in page
    assert "move_drops.js" not in client_for("alice").get(new_url("function")).content.decode()


def test_function_roll(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    base = {"function": "mint|coinage", "stat": "effect", "intent": "Mint coins", "spend_money": 1}
    assert post(alice, new_url("function"), base).status_code == 302
    # R45: the mint's roll is queued, so the form no longer offers the mint.
    assert "mint|coinage" not in alice.get(new_url("function")).content.decode()
    assert_refused(
        post(alice, new_url("function"), base),
        "The Mint: coinage is no longer offered: The Mint already made a function roll",
    )
    other = {**base, "function": "treasury|__other__", "spend_money": 0}
    assert_refused(post(alice, new_url("function"), other), "Say what the department tries to do")
    assert post(alice, new_url("function"), {**other, "task": "bribe a judge"}).status_code == 302
    assert Order.objects.get(payload__department="treasury").payload["function"] == "bribe a judge"
    spend = {**base, "function": "city-watch|patrol", "spend_money": 9}
    assert_refused(post(alice, new_url("function"), spend), "holds 0 Money")
    assert_refused(post(alice, new_url("function"), {**base, "function": "guild-hall|trade"}), GONE)
    assert stored(K.FUNCTION) == 2


def test_linking_attempt_and_its_preview(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    data = {"attacker": "city-watch", "target": "guild-hall", "spend_authority": 0}
    preview = post(alice, new_url("attempt"), {**data, "preview": "1"}).content.decode()
    assert "2 tokens" in preview and "8 = 7 + 1 opposed" in preview
    assert "standing defence is unknown; assuming none" in preview
    assert "data-fraction>" in preview and stored(K.ATTEMPT) == 0
    assert_refused(
        post(alice, new_url("attempt"), {**data, "cost_money": 1}), "The cost is 2 tokens"
    )
    # R50: the Seminary is unknown to alice, so neither its name nor why is told.
    unknown = post(alice, new_url("attempt"), {**data, "target": "seminary"})
    assert_refused(unknown, "Your choice for “Target” is no longer offered: That department")
    assert "Seminary" not in unknown.content.decode()
    assert_refused(
        post(alice, new_url("attempt"), {**data, "target": "mint"}),
        "The Mint is no longer offered: The Mint is already in your structure",
    )
    assert post(alice, new_url("attempt"), data).status_code == 302
    # R43: one attempt per turn is queued, so the form offers no pair any more, and says why.
    again = post(alice, new_url("attempt"), data)
    assert_refused(
        again,
        "You cannot give this order on this board now. You have already queued as many "
        "linking attempts as a turn allows (1 of 1, R43).",
    )
    assert stored(K.ATTEMPT) == 1


def attempt_form(client: Client) -> str:
    return client.get(new_url("attempt")).content.decode()


def test_the_attempt_form_offers_only_legal_pairs_r43(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The City Watch cannot link the Tax Office (R43): the form neither lists that pair
    nor previews it, and refuses it with the engine's reason; nothing is stored."""
    alice = client_for("alice")
    form = attempt_form(alice)
    assert "The City Watch → The Guild Hall" in form
    assert "The City Watch → The Tax Office" not in form
    pair = {"attacker": "city-watch", "target": "tax-office"}
    preview = post(alice, new_url("attempt"), {**pair, "preview": "1"}).content.decode()
    assert "data-chance" not in preview and "R43" in preview
    assert_refused(post(alice, new_url("attempt"), pair), "R43")
    assert stored(K.ATTEMPT) == 0


def test_an_attempt_the_attacker_cannot_pay_is_refused_r43(
    demo: Campaign, client_for: ClientFor
) -> None:
    """Cost + spend beyond the attacker's stash: the preview warns, the form refuses,
    naming what is missing; nothing is stored."""
    alice = client_for("alice")
    watch = Department.objects.get(board__slug="city", slug="city-watch")
    data = {**ATTACK, "spend_authority": 9}
    held = watch.authority
    page = post(alice, new_url("attempt"), {**data, "preview": "1"}).content.decode()
    assert "data-chance" in page and "data-missing" in page
    missing = f"The City Watch holds {held} Authority; the attempt needs 9."
    assert_refused(post(alice, new_url("attempt"), data), missing)
    assert stored(K.ATTEMPT) == 0


def test_attempt_after_the_cutoff_is_refused(demo: Campaign, client_for: ClientFor) -> None:
    Turn.objects.filter(campaign=demo, number=1).update(
        deadline=dt.datetime.now(dt.UTC) + dt.timedelta(hours=2)
    )
    response = post(
        client_for("alice"), new_url("attempt"), {"attacker": "city-watch", "target": "guild-hall"}
    )
    assert_refused(response, "at least 24 hours before the deadline")
    assert stored(K.ATTEMPT) == 0


def test_orders_after_the_deadline_are_refused(demo: Campaign, client_for: ClientFor) -> None:
    Turn.objects.filter(campaign=demo, number=1).update(
        deadline=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
    )
    response = post(
        client_for("alice"), new_url("move"), {"route": "mint,treasury", "tokens_money": 1}
    )
    assert_refused(response, "deadline of turn 1 has passed")
    assert Order.objects.count() == 0


def test_reinforcement_only_by_the_defender(demo: Campaign, client_for: ClientFor) -> None:
    attempt = submit(demo, "alice", K.ATTEMPT, ATTACK)
    url = reverse("order_reinforce", args=[SLUG, attempt.pk])
    bob = client_for("bob")
    form = bob.get(url).content.decode()
    assert "dock-workers,guild-hall" in form and "guild-hall,dock-workers" not in form
    assert (
        post(bob, url, {"route": "dock-workers,guild-hall", "tokens_people": 1}).status_code == 302
    )
    assert Order.objects.get(kind=K.REINFORCE).payload["answers"] == str(attempt.pk)
    assert client_for("carol").get(url).status_code == 404
    assert client_for("alice").get(url).status_code == 404
    assert bob.get(reverse("orders", args=[SLUG])).content.decode().count(url) >= 1


def test_standing_defence(demo: Campaign, client_for: ClientFor) -> None:
    url = reverse("department_defence", args=[SLUG, "city", "mint"])
    assert (
        post(
            client_for("alice"),
            url,
            {"defence_people": 1, "defence_money": 0, "defence_authority": 0},
        ).status_code
        == 302
    )
    assert Department.objects.get(slug="mint").defence == {"people": 1}
    assert client_for("bob").post(url, {"defence_people": 0}).status_code == 404
    assert Department.objects.get(slug="mint").defence == {"people": 1}


def test_a_double_post_stores_one_order(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    data = {"route": "mint,treasury", "tokens_money": 1, "client_token": "5f0c"}
    assert alice.post(new_url("move"), data).status_code == 302
    assert alice.post(new_url("move"), data).status_code == 302
    assert Order.objects.count() == 1 and OrderLog.objects.count() == 1


def test_edit_cancel_and_shift_through_the_page(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    a = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    b = submit(demo, "alice", K.BREAK_LINK, {"from": "mint", "to": "city-watch"})
    edit = reverse("order_edit", args=[SLUG, a.pk])
    assert 'value="mint,treasury" selected' in alice.get(edit).content.decode()
    assert post(alice, edit, {"route": "mint,treasury", "tokens_money": 2}).status_code == 302
    assert_refused(post(alice, edit, {"route": "mint,treasury", "tokens_money": 9}), "R42")
    alice.post(reverse("order_shift", args=[SLUG, b.pk]), {"direction": "up"})
    alice.post(reverse("order_cancel", args=[SLUG, a.pk]))
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.payload["tokens"] == {"money": 2} and a.status == Order.Status.CANCELLED
    assert b.seq < a.seq
    assert list(OrderLog.objects.filter(order=a).values_list("action", flat=True)) == [
        "submitted", "edited", "reordered", "cancelled"
    ]  # fmt: skip


def test_nobody_else_sees_or_changes_my_orders(demo: Campaign, client_for: ClientFor) -> None:
    a = submit(
        demo, "alice", K.MOVE, {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}
    )
    bob = client_for("bob")
    assert bob.get(reverse("order_edit", args=[SLUG, a.pk])).status_code == 404
    assert (
        post(
            bob,
            reverse("order_edit", args=[SLUG, a.pk]),
            {"route": "mint,treasury", "tokens_money": 2},
        ).status_code
        == 404
    )
    assert bob.post(reverse("order_cancel", args=[SLUG, a.pk])).status_code == 404
    assert (
        bob.post(reverse("order_shift", args=[SLUG, a.pk]), {"direction": "up"}).status_code == 404
    )
    page = bob.get(reverse("orders", args=[SLUG])).content.decode()
    assert f'id="order-{a.pk}"' not in page
    # bob's forms never offer alice's departments.
    assert_refused(post(bob, new_url("move"), {"route": "mint,treasury", "tokens_money": 1}), GONE)
    a.refresh_from_db()
    assert a.status == Order.Status.QUEUED and a.payload["tokens"] == {"money": 1}
    assert Order.objects.count() == 1


def test_observers_and_gms_submit_nothing(demo: Campaign, client_for: ClientFor) -> None:
    MembershipFactory(campaign=demo, user__username="olga", role="observer")
    for name in ("olga", "gm"):
        client = client_for(name)
        # The orders page sends them to the campaign page, with a message (test_gm_pages.py).
        assert client.get(reverse("orders", args=[SLUG])).status_code == 302
        assert (
            post(client, new_url("move"), {"route": "mint,treasury", "tokens_money": 1}).status_code
            == 403
        )
    assert Order.objects.count() == 0


def test_another_campaign_is_a_404(demo: Campaign, client_for: ClientFor) -> None:
    other = CampaignFactory(slug="elsewhere")
    TurnFactory(campaign=other)
    BoardFactory(campaign=other, slug="city")
    alice = client_for("alice")
    assert alice.get(reverse("orders", args=["elsewhere"])).status_code == 404
    assert (
        post(alice, reverse("order_new", args=["elsewhere", "city", "move"]), {}).status_code == 404
    )
    assert alice.get(reverse("order_new", args=[SLUG, "nowhere", "move"])).status_code == 404
    assert alice.get(reverse("order_new", args=[SLUG, "city", "teleport"])).status_code == 404


def test_the_campaign_page_shows_the_defenders_notice(
    demo: Campaign, client_for: ClientFor
) -> None:
    submit(demo, "alice", K.ATTEMPT, ATTACK)
    bob = client_for("bob")
    page = bob.get(reverse("campaign", args=[SLUG])).content.decode()
    assert "The Guild Hall is the target of a linking attempt" in page
    assert reverse("orders", args=[SLUG]) in page
    bob.post(reverse("notices_read", args=[SLUG]))
    assert Notice.objects.filter(read_at__isnull=True).count() == 0
    assert (
        "is the target"
        not in client_for("alice").get(reverse("campaign", args=[SLUG])).content.decode()
    )


def test_ready_toggle(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    alice.post(reverse("turn_ready", args=[SLUG]), {"ready": "1"})
    assert "I am not ready after all" in alice.get(reverse("orders", args=[SLUG])).content.decode()
    alice.post(reverse("turn_ready", args=[SLUG]), {"ready": "0"})
    assert member(demo, "alice").player_turns.get().ready_at is None


def test_the_defender_sees_who_attacks_but_not_the_attackers_spend(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R46 tells bob which department and by whom; R50 hides the rest (spend, slugs)."""
    submit(demo, "alice", K.ATTEMPT, {**ATTACK, "spend": {"people": 0, "money": 2}})
    page = client_for("bob").get(reverse("orders", args=[SLUG])).content.decode()
    # R46/R50: the attacking department, but not who controls it: Bob does not know
    # the City Watch's card (who controls a department is part of the card).
    assert "The City Watch tries to link The Guild Hall" in page
    assert "Alice Ambergris" not in page
    assert "city-watch" not in page and "2 money" not in page


def test_changing_orders_after_ready_clears_ready_and_says_so(
    demo: Campaign, client_for: ClientFor
) -> None:
    """Queuing, editing, reordering or cancelling after "ready" clears it (the orders are
    not the ones declared complete); the player is told each time."""
    alice = client_for("alice")
    ready = reverse("turn_ready", args=[SLUG])
    page = alice.post(ready, {"ready": "1"}, follow=True).content.decode()
    assert "Marked ready" in page
    order = submit(demo, "alice", K.ATTEMPT, ATTACK)
    assert member(demo, "alice").player_turns.get().ready_at is None  # the service cleared it
    alice.post(ready, {"ready": "1"})
    cancel = reverse("order_cancel", args=[SLUG, order.pk])
    page = alice.post(cancel, follow=True).content.decode()
    assert "no longer marked ready" in page and "cancelled" in page
    assert f"#{order.pk}" not in page  # no global order ids for players
    assert member(demo, "alice").player_turns.get().ready_at is None
    page = alice.post(cancel, follow=True).content.decode()  # nothing changed this time
    assert "no longer marked ready" not in page
    assert (
        "No longer marked ready." in alice.post(ready, {"ready": "0"}, follow=True).content.decode()
    )


def test_each_queued_order_shows_its_cost_and_an_attempt_its_chance(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R43, R45, R6: the cost as the engine counts it (an attempt's default cost of 2 People
    plus its extra tokens) and the attempt preview's exact odds, on the orders page itself."""
    attempt = submit(demo, "alice", K.ATTEMPT, {**ATTACK, "spend": {"authority": 1}})
    roll = {"department": "mint", "function": "coinage", "stat": "effect", "intent": "Coins"}
    function = submit(demo, "alice", K.FUNCTION, {**roll, "spend": {"money": 1}})
    link = submit(demo, "alice", K.BREAK_LINK, {"from": "mint", "to": "city-watch"})
    page = client_for("alice").get(reverse("orders", args=[SLUG])).content.decode()

    def row(order: Order) -> str:
        return page.split(f'id="order-{order.pk}"')[1].split("</li>")[0]

    ctx = OrderContext.build(member(demo, "alice"), open_turn(demo), city(demo))
    odds = attempt_preview(ctx, attempt.payload)
    assert "Cost: 2 People and 1 Authority" in row(attempt)
    assert f"chance to win {odds.percent}" in row(attempt)
    assert "Cost: 1 Money" in row(function) and "chance" not in row(function)
    assert "Cost: no tokens" in row(link)


def test_saving_an_order_unchanged_keeps_ready(demo: Campaign, client_for: ClientFor) -> None:
    """An order opened and saved again unchanged is not a change: "ready" stays, nothing is
    logged; a real change still clears it."""
    alice = client_for("alice")
    order = submit(demo, "alice", K.ATTEMPT, ATTACK)
    alice.post(reverse("turn_ready", args=[SLUG]), {"ready": "1"})
    logged = OrderLog.objects.count()
    edit = reverse("order_edit", args=[SLUG, order.pk])
    same = {"attacker": "city-watch", "target": "guild-hall", "submit": "1"}
    page = alice.post(edit, same, follow=True).content.decode()
    assert "nothing changed" in page and "no longer marked ready" not in page
    assert member(demo, "alice").player_turns.get().ready_at is not None
    assert OrderLog.objects.count() == logged
    page = alice.post(edit, {**same, "cost_people": 2}, follow=True).content.decode()
    assert "no longer marked ready" in page
    assert member(demo, "alice").player_turns.get().ready_at is None


def test_an_oversized_intent_gets_a_form_error_not_a_500(
    demo: Campaign, client_for: ClientFor
) -> None:
    url = reverse("order_new", args=[SLUG, "city", K.FUNCTION])
    data = {"function": "mint|coinage", "stat": "effect", "intent": "x" * 2_600_000}
    response = client_for("alice").post(url, data)
    assert response.status_code == 200
    assert (
        "at most 1,000" in response.content.decode() or "at most 1000" in response.content.decode()
    )
    assert not Order.objects.exists()


def test_kinds_offered_says_why_a_kind_cannot_be_ordered(demo: Campaign) -> None:
    """The orders page's buttons: every kind alice can order now, and after her one attempt
    of the turn (R43) the attempt kind with its one-line reason."""

    def offers() -> dict[str, str | None]:
        ctx = OrderContext.build(member(demo, "alice"), open_turn(demo), city(demo))
        return {offer.kind: offer.why_not for offer in kinds_offered(ctx)}

    assert offers()[K.ATTEMPT] is None and offers()[K.MOVE] is None
    submit(demo, "alice", K.ATTEMPT, ATTACK)
    assert offers()[K.ATTEMPT] == (
        "You have already queued as many linking attempts as a turn allows (1 of 1, R43)."
    )


def test_the_orders_page_offers_only_kinds_with_a_legal_choice_and_says_why_not(
    demo: Campaign, client_for: ClientFor
) -> None:
    """A kind whose list of legal choices is empty is no button; one line says why."""
    page = html.unescape(client_for("bob").get(reverse("orders", args=[SLUG])).content.decode())
    harbour = page.split('data-board-offers="harbour"')[1].split("</div>")[0]
    assert reverse("order_new", args=[SLUG, "harbour", K.FUNCTION]) in harbour
    assert reverse("order_new", args=[SLUG, "harbour", K.ATTEMPT]) not in harbour
    assert 'data-why-not="attempt"' in harbour and "You know no department outside" in harbour
    city = page.split('data-board-offers="city"')[1].split("</div>")[0]
    assert reverse("order_new", args=[SLUG, "city", K.ATTEMPT]) in city


def test_the_standing_defence_shows_what_is_saved_and_warns_beyond_the_stash(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R47: 9 People on the Mint, which holds none, is kept (the stash may grow) but the
    player is told, and the orders page shows each department's setting and stash."""
    alice = client_for("alice")
    url = reverse("department_defence", args=[SLUG, "city", "mint"])
    page = alice.post(url, {"defence_people": "9", "defence_authority": "1"}, follow=True)
    text = html.unescape(page.content.decode())
    assert "Standing defence of The Mint saved." in text
    assert "The Mint holds less People and Authority than that now" in text
    row = text.split('data-defence="mint"')[1].split("</li>")[0]
    assert "Spends 9 People, 1 Authority when attacked" in row
    assert "holds 2 Money, 0 People, 0 Authority" in row and "data-defence-beyond" in row
    form = alice.get(url).content.decode()
    assert 'name="defence_people" value="9"' in form
    # Within the stash: no warning.
    page = alice.post(url, {"defence_money": "2"}, follow=True).content.decode()
    assert (
        "holds less" not in page
        and "data-defence-beyond" not in page.split('data-defence="mint"')[1].split("</li>")[0]
    )


def test_the_defence_page_of_someone_elses_department_is_404(
    demo: Campaign, client_for: ClientFor
) -> None:
    url = reverse("department_defence", args=[SLUG, "city", "guild-hall"])
    assert client_for("alice").get(url).status_code == 404
    assert client_for("alice").post(url, {"defence_people": "1"}).status_code == 404


def test_a_form_opened_before_the_turn_was_processed_stores_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    """A form left open across the deadline must not queue its order into the next turn."""
    alice = client_for("alice")
    url = new_url(K.FUNCTION)
    form = alice.get(url).content.decode()
    assert 'name="turn" value="1"' in form
    turn_process(campaign_id=demo.pk, number=1)
    data = {"turn": "1", "function": "mint|coinage", "stat": "effect", "intent": "Coins."}
    response = alice.post(url, data)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "This form was opened for turn 1, which is over: turn 2 is open now." in text
    assert not Order.objects.exists()
    assert 'name="turn" value="2"' in text  # posting again is judged for turn 2
    assert post(alice, url, {**data, "turn": "2"}).status_code == 302
    assert Order.objects.get().turn.number == 2


def test_the_attempt_preview_counts_dice_in_words(demo: Campaign, client_for: ClientFor) -> None:
    """The City Watch rolls Impress 1: "1 die", not "1 dice"."""
    data = {**ATTACK, "preview": "1"}
    text = client_for("alice").post(new_url(K.ATTEMPT), data).content.decode()
    assert "1 die, skill 0, for 8" in text and "1 dice" not in text

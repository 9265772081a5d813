"""The turn report page (issue 4, part 6): each player sees their own orders, statuses,
reasons and rolls, the captures and links they may know of, and the spawn-and-consume
results of their own departments; never another player's orders or anything R50 hides.
The GM sees everything and publishes what each function roll meant."""

from __future__ import annotations

import html
import re

from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns.models import Knowledge, Order, TurnRecord
from campaigns.selectors.order_checks import safe_reason
from campaigns.templatetags.rules import rule_links
from tests.support.demo import Played
from tests.support.handmade import ClientFor
from tests.support.report_pages import page, report_url


def without_maps(content: str) -> str:
    """The report's own text: each board's map (the whole board after the turn as the
    viewer knew it, R51; tests/web/test_fog_history.py checks it) cut out."""
    return re.sub(r"<section [^>]*data-map-section.*?</section>", "", content, flags=re.S)


def roll_row(roll: dict) -> str:
    faces = " ".join(str(f) for f in roll["faces"])
    return (
        f"<td><code>{roll['key']}</code></td>\n  <td>{roll['dice']}</td>\n  "
        f"<td>{roll['skill']}</td>\n  <td>{roll['tn']}</td>\n  <td data-faces>{faces}</td>\n  "
        f"<td>{roll['successes']}</td>"
    )


def test_the_turn_resolved_as_the_fixture_intends(played: Played) -> None:
    assert played.order("alice_roll").status == Order.Status.SUCCEEDED
    assert played.order("alice_move").status == Order.Status.SUCCEEDED
    assert played.order("alice_bad").status == Order.Status.REJECTED
    assert played.order("carol_attempt").status == Order.Status.SUCCEEDED


def test_a_player_sees_her_orders_statuses_reasons_and_every_roll(
    played: Played, client_for: ClientFor
) -> None:
    content = page(client_for("alice"), report_url(played))
    roll = played.order("alice_roll")
    bad = played.order("alice_bad")
    assert f'id="order-{roll.pk}"' in content
    assert "ALICE-INTENT-SENTINEL" in content
    assert f'id="order-{played.orders["alice_move"].pk}"' in content
    assert f'id="order-{bad.pk}"' in content
    # The reason as the engine gave it names a slug; the player reads it filtered (R50).
    shown = safe_reason(bad.result["reason"], board=bad.board, player=bad.player)
    # Its rule id, if any, is a link (the page is read unescaped: the reason's "->" too).
    assert bad.result["reason"] and html.unescape(rule_links(shown)) in content
    assert "rejected" in content
    (function_roll,) = roll.result["rolls"]
    assert function_roll["key"] == f"1:{roll.pk}:function"
    assert roll_row(function_roll) in content
    # Her own departments' spawn and consume: the Mint is funded from the Treasury.
    assert "The Mint" in content
    assert "1 Authority from The Treasury" in content
    assert "from its own stash" in content  # the Treasury paid itself first (R33)


def test_a_player_does_not_see_other_players_orders_or_hidden_departments(
    played: Played, client_for: ClientFor
) -> None:
    content = without_maps(page(client_for("alice"), report_url(played)))
    bob_roll = played.order("bob_roll")
    assert f'id="order-{bob_roll.pk}"' not in content
    assert "BOB-INTENT-SENTINEL" not in content
    assert f"1:{bob_roll.pk}:function" not in content
    # Departments Alice does not know (R50), and one she knows but whose stash and spawn
    # figures are Bob's.
    for hidden in ["Printing Press", "Seminary", "Rebel Cell", "Dock Workers", "Guild Hall"]:
        assert hidden not in content, hidden

    bob = without_maps(page(client_for("bob"), report_url(played)))
    assert "ALICE-INTENT-SENTINEL" not in bob
    assert f'id="order-{played.orders["alice_roll"].pk}"' not in bob
    assert f'id="order-{played.orders["carol_attempt"].pk}"' not in bob
    # Bob knows neither side of Carol's capture, nor anything of Alice's structure but
    # the Mint (known: the card, never its stash or spawn figures).
    for hidden in ["City Watch", "Thieves", "Seminary", "Spice House", "The Mint"]:
        assert hidden not in bob, hidden
    assert "BOB-INTENT-SENTINEL" in bob


def test_the_defender_sees_the_attempt_on_her_department_and_its_capture(
    played: Played, client_for: ClientFor
) -> None:
    content = page(client_for("alice"), report_url(played))
    attempt = played.order("carol_attempt")
    assert 'id="attacks-city"' in content
    assert "The Thieves' Guild tries to link The City Watch" in content
    attack, defend = attempt.result["rolls"]
    # R46: Alice does not know the Thieves' Guild's card: of its roll she sees the
    # successes only, not its dice, skill, target number or faces; her own roll in full.
    assert roll_row(defend) in content
    assert roll_row(attack) not in content
    row = content.split("data-hidden-roll")[1].split("</tr>")[0]
    assert f"<td>{attack['successes']}</td>" in row
    assert "data-faces" not in row and "verify" not in row
    assert attack["key"] not in content  # with the key and the seed, faces could be recomputed
    assert "The City Watch was captured by Mother Carol of the Eye" in content
    # Not what Carol paid, nor the departments on Carol's side.
    assert "paying" not in content.split('id="attacks-city"')[1].split("</ul>")[0]
    assert "Seminary" not in content


def test_the_attacker_sees_both_rolls_the_capture_and_where_her_new_department_fed(
    played: Played, client_for: ClientFor
) -> None:
    content = page(client_for("carol"), report_url(played))
    attempt = played.order("carol_attempt")
    keys = [r["key"] for r in attempt.result["rolls"]]
    assert keys == [f"1:{attempt.pk}:attack", f"1:{attempt.pk}:defend"]
    for roll in attempt.result["rolls"]:
        assert roll_row(roll) in content
    assert "The City Watch was captured by Mother Carol of the Eye from Alice Ambergris" in content
    assert "New link: The Thieves' Guild → The City Watch" in content
    assert "from The Thieves' Guild" in content  # the City Watch's spawn and consume
    # Alice's Mint, which used to feed the City Watch, stays hidden from Carol (rumoured).
    assert "Link gone" not in content
    assert "ALICE-INTENT-SENTINEL" not in content


def test_a_capture_shows_to_a_player_who_knew_the_department_then_and_not_to_a_rumour(
    played: Played, client_for: ClientFor
) -> None:
    """R51: the report is read through the levels recorded with its turn: what Bob learned
    later does not reveal the capture, what he knew then does."""
    city_watch = played.campaign.boards.get(slug="city").departments.get(slug="city-watch")
    bob = played.members["bob"]
    Knowledge.objects.create(player=bob, department=city_watch, level=Knowledge.Level.KNOWN)
    assert "City Watch" not in page(client_for("bob"), report_url(played))  # learned later

    record = TurnRecord.objects.get(turn=played.turn, board__slug="city")

    def recorded(level: int) -> None:
        record.knowledge.setdefault(str(bob.pk), {})["city-watch"] = level
        record.save(update_fields=["knowledge"])

    recorded(Knowledge.Level.KNOWN)
    content = page(client_for("bob"), report_url(played))
    assert "The City Watch was captured by Mother Carol of the Eye from Alice Ambergris" in content
    # He does not know the Thieves' Guild, so neither the new link nor the attacker shows.
    assert "Thieves" not in content

    recorded(Knowledge.Level.RUMOURED)
    content = page(client_for("bob"), report_url(played))
    # A rumour is a name on the map, never who held it or who took it (R50).
    assert "was captured" not in content and "Thieves" not in content


def test_the_gm_sees_everything(played: Played, client_for: ClientFor) -> None:
    content = page(client_for("gm"), report_url(played))
    assert len(played.orders) == 5
    for order in played.orders.values():
        assert f'id="order-{order.pk}"' in content
    for text in ["ALICE-INTENT-SENTINEL", "BOB-INTENT-SENTINEL", "Printing Press", "Seminary"]:
        assert text in content
    assert "GM view" in content
    assert "The City Watch was captured by Mother Carol of the Eye from Alice Ambergris" in content


def test_the_gm_publishes_a_note_that_only_its_player_reads(
    played: Played, client_for: ClientFor
) -> None:
    roll = played.orders["alice_roll"]
    url = reverse("turn_report_note", args=[played.campaign.slug, 1, roll.pk])
    note = "The new coins bear the Comptroller's face. NOTE-SENTINEL"
    gm = client_for("gm")

    response = gm.post(url, {f"note-{roll.pk}-gm_note": note})  # written, not published
    assert response.status_code == 302
    assert "NOTE-SENTINEL" in page(gm, report_url(played))
    assert "NOTE-SENTINEL" not in page(client_for("alice"), report_url(played))

    gm.post(url, {f"note-{roll.pk}-gm_note": note, f"note-{roll.pk}-publish": "on"})
    assert played.order("alice_roll").gm_note_published
    assert note in page(client_for("alice"), report_url(played))
    for other in ["bob", "carol"]:
        assert "NOTE-SENTINEL" not in page(client_for(other), report_url(played))


def test_only_the_gm_writes_notes(played: Played, client_for: ClientFor) -> None:
    roll = played.orders["alice_roll"]
    url = reverse("turn_report_note", args=[played.campaign.slug, 1, roll.pk])
    response = client_for("alice").post(url, {f"note-{roll.pk}-gm_note": "mine", "publish": "on"})
    assert response.status_code == 403
    assert played.order("alice_roll").gm_note == ""
    # Not a function roll: nothing to note.
    move = played.orders["alice_move"]
    url = reverse("turn_report_note", args=[played.campaign.slug, 1, move.pk])
    assert client_for("gm").post(url, {f"note-{move.pk}-gm_note": "x"}).status_code == 404


def test_turn_zero_is_the_campaign_start(played: Played, client_for: ClientFor) -> None:
    content = page(client_for("alice"), report_url(played, 0))
    assert "The campaign start" in content
    assert "The City Watch" in content  # hers at the start
    assert "Your orders" not in content


def test_404_for_non_members_and_unprocessed_turns(played: Played, client_for: ClientFor) -> None:
    get_user_model().objects.create_user("dave", "dave@example.com", "x")
    dave = client_for("dave")
    for name in ["turn_report", "verify_dice"]:
        assert dave.get(reverse(name, args=[played.campaign.slug, 1])).status_code == 404
        alice = client_for("alice")
        assert alice.get(reverse(name, args=[played.campaign.slug, 2])).status_code == 404
        assert alice.get(reverse(name, args=[played.campaign.slug, 99])).status_code == 404
        assert alice.get(reverse(name, args=["no-such", 1])).status_code == 404


def test_the_campaign_page_links_each_processed_turn_to_its_report(
    played: Played, client_for: ClientFor
) -> None:
    content = page(client_for("bob"), played.campaign.get_absolute_url())
    assert f'href="{report_url(played, 1)}"' in content
    assert f'href="{report_url(played, 0)}"' in content
    assert reverse("turn_report", args=[played.campaign.slug, 2]) not in content


def test_reports_link_to_the_turns_before_and_after_them(
    played: Played, client_for: ClientFor
) -> None:
    """History you can browse: turn 0 <-> turn 1; no link to turn 2, which is still open."""
    bob = client_for("bob")
    start = bob.get(report_url(played, 0)).context
    assert (start["previous"], start["following"]) == (None, 1)
    first = page(bob, report_url(played, 1))
    assert f'href="{report_url(played, 0)}" rel="prev"' in first
    assert 'rel="next"' not in first
    assert reverse("turn_report", args=[played.campaign.slug, 2]) not in first


def test_a_reason_about_her_own_department_captured_earlier_that_turn_is_shown(
    played: Played, client_for: ClientFor
) -> None:
    """R50/R51: Alice controlled the City Watch during turn 1 (Carol captured it in the
    attempt phase), so her function roll on it, rejected because it had left her structure,
    says so, by name, instead of "details you cannot see". Carol's report, where the same
    department is hers, is unaffected; Bob, who knows nothing of it, never sees the order."""
    late = Order.objects.create(
        turn=played.turn, board=played.campaign.boards.get(slug="city"),
        player=played.members["alice"], kind=Order.Kind.FUNCTION, seq=99,
        status=Order.Status.REJECTED,
        payload={"department": "city-watch", "function": "patrol", "stat": "effect"},
        result={"status": "rejected", "reason": "city-watch is not in your structure"},
    )  # fmt: skip
    content = html.unescape(page(client_for("alice"), report_url(played)))
    item = content.split(f'id="order-{late.engine_id}"')[1].split("</li>")[0]
    assert "The City Watch is not in your structure." in item
    assert "details you cannot see" not in item
    assert f'id="order-{late.engine_id}"' not in page(client_for("bob"), report_url(played))


def test_players_see_no_global_order_ids_the_gm_does(played: Played, client_for: ClientFor) -> None:
    """Order ids are the database's, across every campaign: a player's report lists their
    orders in sequence without them; the GM's names each order by id."""
    move = played.order("alice_move")
    marker = f'<span class="text-body-secondary">#{move.engine_id}</span>'
    assert marker not in page(client_for("alice"), report_url(played))
    assert marker in page(client_for("gm"), report_url(played))


def test_the_gm_report_names_departments_in_reasons_never_slugs(
    played: Played, client_for: ClientFor
) -> None:
    """The GM sees every reason in full, but by name: "orphanage" is a slug."""
    bad = played.order("alice_bad")
    # The engine speaks in slugs. (R50: a player may break any link of one of theirs, so
    # the Mint's would-be link to the Orphanage is refused for not being there.)
    assert bad.result["reason"] == "there is no link mint->orphanage"
    content = html.unescape(page(client_for("gm"), report_url(played)))
    item = content.split(f'id="order-{bad.engine_id}"')[1].split("</li>")[0]
    reason = item.split("data-reason>")[1].split("</div>")[0]
    assert reason.startswith("There is no link The Mint->The Orphanage")
    assert "orphanage" not in reason


def test_the_report_reads_the_viewers_notices_in_one_query_however_many(
    played: Played, client_for: ClientFor
) -> None:
    """R46: the notices a player got during the turn are in its report; their turn is the
    report's own, not read back once per notice (it was, from a deferred column)."""
    from django.db import connection
    from django.test import override_settings
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import Notice
    from tests.support.demo import member

    alice = member(played.campaign, "alice")
    turn = played.campaign.turns.get(number=1)
    client = client_for("alice")

    def counted() -> int:
        client.get(report_url(played))
        with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as seen:
            assert client.get(report_url(played)).status_code == 200
        return len(seen)

    Notice.objects.create(player=alice, turn=turn, text="Notice 0")
    one = counted()
    Notice.objects.bulk_create(
        Notice(player=alice, turn=turn, text=f"Notice {n}") for n in range(1, 10)
    )
    assert "Notice 9" in page(client, report_url(played))
    assert counted() == one

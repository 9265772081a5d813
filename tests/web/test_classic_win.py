"""A classic board's win on the campaign page and in the turn mail (RULES R98, R99): every
member reads who won which board and how (by their goal, by their groups), never a goal's
figures nor a treasury; the GM is asked to end the campaign or play on, and playing on is
stored: the GM's notice stays gone, the players read that the GM plays on, until a later
turn's win asks again. Bad or stale choices change nothing."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.contrib import messages
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, ClassicBoard
from campaigns.services.notifications import notify_turn_processed
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import turn_process
from tests.support.classic_files import (
    ALICE_TREASURY,
    MAFIA_TREASURY,
    WON_GOAL,
    classic_won,
    group,
)
from tests.support.demo import member
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db

SECRETS = [str(n) for n in (WON_GOAL, ALICE_TREASURY, MAFIA_TREASURY)]


def page(client: Any, campaign: Campaign) -> Any:
    response = client.get(reverse("campaign", args=[campaign.slug]))
    assert response.status_code == 200
    return response


def victory(response: Any) -> str:
    """The HTML of the page's win notice ("" without one)."""
    html = response.content.decode()
    if 'id="victory"' not in html:
        return ""
    return unescape(html.split('id="victory"')[1].split("</section>")[0])


def test_every_member_reads_who_won_which_board_and_how_without_a_goals_figures(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    alice, bob = member(demo, "alice"), member(demo, "bob")
    for username in ("bob", "carol", "alice"):
        notice = victory(page(client_for(username), demo))
        assert 'data-win-turn="1"' in notice and 'data-won-board="cabal"' in notice
        assert 'data-won-by="goal groups"' in notice and 'data-won-by="groups"' in notice
        assert f"{alice.display_name} wins" in notice and f"{bob.display_name} wins" in notice
        assert "their Illuminati's goal is met" in notice
        assert "they control enough groups" in notice
        assert "The GM now ends the campaign or plays on." in notice
        assert "data-win-play-on" not in notice and "data-win-end" not in notice
        assert reverse("turn_report", args=[demo.slug, 1]) in notice
    # R99: what alice's goal asked and her treasuries stay hers (and the GM's).
    words = text_of(page(client_for("bob"), demo))
    assert not [s for s in SECRETS if s in words]


def test_the_gm_is_asked_to_end_or_play_on_and_playing_on_stays_stored(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    gm = client_for("gm")
    notice = victory(page(gm, demo))
    assert "data-win-choice" in notice and "data-win-play-on" in notice
    assert reverse("campaign_end", args=[demo.slug]) in notice  # the GM's end, reused
    done = gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"}, follow=True)
    assert "You play on after turn 1's win" in unescape(done.content.decode())
    demo.refresh_from_db()
    assert demo.played_on_after == 1 and demo.status == Campaign.Status.RUNNING
    entry = AuditEntry.objects.filter(campaign=demo).latest("pk")
    assert (entry.action, entry.after) == ("schedule", {"played_on_after": 1})
    # Gone for the GM, read again and again; the players read that the GM plays on.
    assert victory(page(gm, demo)) == "" and victory(page(gm, demo)) == ""
    players = victory(page(client_for("bob"), demo))
    assert "data-played-on" in players and "The GM now ends" not in players
    # A second time is refused in words, nothing logged.
    again = gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"}, follow=True)
    assert "You already play on after turn 1" in again.content.decode()
    assert AuditEntry.objects.filter(campaign=demo).latest("pk").pk == entry.pk


@pytest.mark.parametrize("number", ["0", "2", "x", "", "-1", "99999999999999999999"])
def test_a_bad_or_stale_turn_number_changes_nothing(
    demo: Campaign, client_for: Any, number: str
) -> None:
    classic_won(demo)
    gm = client_for("gm")
    answer = gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": number}, follow=True)
    assert answer.status_code == 200
    assert [m.level for m in answer.context["messages"]] == [messages.ERROR]
    demo.refresh_from_db()
    assert demo.played_on_after is None
    assert "data-win-play-on" in victory(answer)


def test_only_the_gm_plays_on(demo: Campaign, client_for: Any) -> None:
    classic_won(demo)
    url = reverse("campaign_play_on", args=[demo.slug])
    assert client_for("alice").post(url, {"number": "1"}).status_code == 403
    demo.refresh_from_db()
    assert demo.played_on_after is None


def test_without_a_win_there_is_no_notice_and_nothing_to_play_on(
    demo: Campaign, client_for: Any
) -> None:
    from tests.support.classic_files import classic_board_in

    classic_board_in(demo)
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    gm = client_for("gm")
    assert victory(page(gm, demo)) == ""
    answer = gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"}, follow=True)
    assert "Turn 1 is not the last processed turn with a win" in answer.content.decode()


def test_the_gm_ends_the_campaign_after_a_win_and_the_page_still_says_who_won(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    gm = client_for("gm")
    ended = gm.post(reverse("campaign_end", args=[demo.slug]), {"confirm": "on"})
    assert ended.status_code == 302
    demo.refresh_from_db()
    assert demo.status == Campaign.Status.FINISHED
    for client in (gm, client_for("bob")):
        notice = victory(page(client, demo))
        assert 'data-won-by="goal groups"' in notice
        assert "data-win-play-on" not in notice and "The GM now ends" not in notice


def test_a_campaign_ended_after_playing_on_shows_its_last_win_to_everyone(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    gm = client_for("gm")
    gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"})
    assert gm.post(reverse("campaign_end", args=[demo.slug]), {"confirm": "on"}).status_code == 302
    for client in (gm, client_for("bob")):
        notice = victory(page(client, demo))
        assert 'data-won-by="goal groups"' in notice
        assert "data-played-on" not in notice and "data-win-play-on" not in notice


def test_a_later_win_asks_again_and_undoing_the_won_turn_forgets_playing_on(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    gm = client_for("gm")
    gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"})
    assert turn_process(campaign_id=demo.pk, number=2) is not None  # still two groups each
    assert 'data-win-turn="2"' in victory(page(gm, demo))
    gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "2"})
    assert victory(page(gm, demo)) == ""
    turn_rollback(campaign=demo, actor=member(demo, "gm").user, number=2)
    demo.refresh_from_db()
    assert demo.played_on_after is None
    # Turn 1's win is the last again: the GM decides anew.
    assert "data-win-play-on" in victory(page(gm, demo))


def test_the_turn_mail_says_who_won_and_how_and_asks_the_gm(demo: Campaign) -> None:
    classic_won(demo)
    mail.outbox.clear()
    assert notify_turn_processed(demo, 1) >= 3
    alice, bob = member(demo, "alice"), member(demo, "bob")
    bodies = {m.to[0]: m.body for m in mail.outbox}
    for who in ("alice", "bob", "carol", "gm"):
        body = bodies[member(demo, who).user.email]
        assert "The turn has a winner (R98):" in body, who
        assert (
            f"The Cabal: {alice.display_name} wins (their Illuminati's goal is met; "
            "they control enough groups)." in body
        )
        assert f"The Cabal: {bob.display_name} wins (they control enough groups)." in body
        if who != "alice":
            assert not [s for s in SECRETS if s in body], who
    gm_body = bodies[member(demo, "gm").user.email]
    assert "End the campaign or play on, on the campaign page: " in gm_body
    assert "The GM now ends the campaign or plays on." in bodies[bob.user.email]


def test_the_mail_of_a_turn_without_a_win_says_nothing_of_winning(demo: Campaign) -> None:
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    mail.outbox.clear()
    notify_turn_processed(demo, 1)
    assert mail.outbox and not [m for m in mail.outbox if "winner" in m.body]


def test_the_campaign_page_with_a_win_asks_as_many_queries_on_a_bigger_board(
    demo: Campaign, client_for: Any
) -> None:
    board = classic_won(demo)

    def counted(username: str) -> int:
        client = client_for(username)
        with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as seen:
            page(client, demo)
        return len(seen)

    before = {who: counted(who) for who in ("gm", "bob")}
    row = ClassicBoard.objects.get(board=board)
    row.state["groups"] += [group(f"extra-{n}", name=f"Extra {n}") for n in range(40)]
    row.save()
    assert {who: counted(who) for who in ("gm", "bob")} == before


def test_the_win_and_the_choice_read_in_german(demo: Campaign, client_for: Any) -> None:
    classic_won(demo)
    gm = client_for("gm")
    gm.cookies.load({"django_language": "de"})
    notice = victory(page(gm, demo))
    assert "Runde 1 hat einen Sieger" in notice and "gewinnt" in notice
    assert "das Ziel ihrer Illuminati ist erreicht" in notice
    assert "Kampagne beenden…" in notice and "Weiterspielen" in notice
    done = gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"}, follow=True)
    assert "Sie spielen nach dem Sieg in Runde 1 weiter" in unescape(done.content.decode())
    bob = client_for("bob")
    bob.cookies.load({"django_language": "de"})
    assert "Die Spielleitung spielt weiter." in victory(page(bob, demo))


def report_after_win(client: Any, campaign: Campaign) -> str:
    """The line under the winners in turn 1's report (its classic section)."""
    text = client.get(reverse("turn_report", args=[campaign.slug, 1])).content.decode()
    start = text.index("data-win-after>") + len("data-win-after>")
    return unescape(text[start : text.index("</div>", start)])


def test_the_report_of_the_won_turn_says_what_the_gm_chose_since(
    demo: Campaign, client_for: Any
) -> None:
    classic_won(demo)
    bob, gm = client_for("bob"), client_for("gm")
    assert report_after_win(bob, demo) == "The GM now ends the campaign or plays on."
    gm.post(reverse("campaign_play_on", args=[demo.slug]), {"number": "1"})
    assert report_after_win(bob, demo) == "The GM plays on."
    gm.post(reverse("campaign_end", args=[demo.slug]), {"confirm": "on"})
    assert report_after_win(bob, demo) == "The campaign has ended."

"""Verify the dice (RULES R23): the page recomputes faces from the published seed, checks
the commitment, links from every roll of the report, and refuses bad input politely."""

from __future__ import annotations

import hashlib
import html
import re

import pytest
from django.urls import reverse

from campaigns.engine.dice import roll_faces
from campaigns.models import TurnRecord
from tests.support.demo import Played
from tests.support.handmade import ClientFor


def verify_url(played: Played) -> str:
    return reverse("verify_dice", args=[played.campaign.slug, 1])


def test_the_page_recomputes_the_faces_of_the_report_and_checks_the_commitment(
    played: Played, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    report = html.unescape(
        alice.get(reverse("turn_report", args=[played.campaign.slug, 1])).content.decode()
    )
    (roll,) = played.order("alice_roll").result["rolls"]
    link = f"{verify_url(played)}?key={roll['key'].replace(':', '%3A')}&dice={roll['dice']}"
    assert link in report  # each roll links to the page, prefilled

    content = html.unescape(alice.get(link).content.decode())
    shown = re.search(r'<p class="fs-4 mb-1" data-faces[^>]*>([^<]*)</p>', content)
    assert shown is not None
    assert [int(f) for f in shown.group(1).split()] == roll["faces"]
    assert roll_faces(played.turn.seed, roll["key"], roll["dice"]) == roll["faces"]
    assert "✓ Matches the faces in your report" in content
    assert hashlib.sha256(played.turn.seed.encode()).hexdigest() == played.turn.commitment
    assert "matches the commitment" in content
    assert played.turn.seed in content
    assert f"manage.py engine roll --seed {played.turn.seed} --key KEY --dice N" in content


def test_any_key_can_be_recomputed_but_hidden_rolls_are_not_listed(
    played: Played, client_for: ClientFor
) -> None:
    bob_roll = played.order("bob_roll")
    (roll,) = bob_roll.result["rolls"]
    alice = client_for("alice")
    plain = html.unescape(alice.get(verify_url(played)).content.decode())
    assert roll["key"] not in plain  # Bob's roll is not offered to Alice
    content = html.unescape(
        alice.get(verify_url(played), {"key": roll["key"], "dice": roll["dice"]}).content.decode()
    )
    # The seed is public, so any key recomputes; nothing says it was Bob's or what it meant.
    assert " ".join(str(f) for f in roll["faces"]) in content
    assert "Matches the faces in your report" not in content
    assert "BOB-INTENT-SENTINEL" not in content


@pytest.mark.parametrize(
    "query",
    [
        {"key": "1:1:function", "dice": "abc"},
        {"key": "1:1:function", "dice": "100000000"},
        {"key": "1:1:function", "dice": "-1"},
        {"key": "1:1:function", "dice": "2.5"},
        {"key": "1:1:function"},
        {"key": "", "dice": "3"},
        {"key": "x" * 500, "dice": "3"},
    ],
)
def test_bad_input_gives_form_errors_not_a_500(
    played: Played, client_for: ClientFor, query: dict[str, str]
) -> None:
    response = client_for("carol").get(verify_url(played), query)
    assert response.status_code == 200
    content = response.content.decode()
    assert "is-invalid" in content
    assert "Traceback" not in content
    assert 'id="result"' not in content  # no faces computed


@pytest.mark.parametrize(
    ("dice", "words"), [(1, ("1 die:", "(1 success at TN")), (2, ("2 dice:", "(2 successes at TN"))]
)
def test_the_page_counts_dice_and_successes_in_the_right_number(
    played: Played, client_for: ClientFor, dice: int, words: tuple[str, str]
) -> None:
    order = played.order("alice_roll")
    (roll,) = order.result["rolls"]
    faces = roll_faces(played.turn.seed, roll["key"], dice)
    # The report reads the rolls from the turn's record of the board.
    record = TurnRecord.objects.get(turn=played.turn, board=order.board)
    outcome = record.report["orders"][str(order.engine_id)]
    outcome["rolls"] = [{**roll, "dice": dice, "faces": faces, "successes": dice}]
    record.save(update_fields=["report"])
    alice = client_for("alice")
    listed = html.unescape(alice.get(verify_url(played)).content.decode())
    checked = alice.get(verify_url(played), {"key": roll["key"], "dice": dice})
    assert words[0] in listed
    assert words[1] in html.unescape(checked.content.decode())

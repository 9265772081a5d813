"""The standing defence an attack made its target spend, in the report's numbered account
(RULES R21, R43 step 4, R47): the defender reads how many tokens of which type went
against whose attack; the attacker reads it only where they know the target's card (R46
read both ways, R50), else only the successes, in the account and in the table of rolls;
the GM reads everything; a third player reads nothing of it.

Carol's Thieves' Guild attacks Alice's City Watch (Obstruct 3). Its standing defence is
1 of each type, its stash 2 Money, 1 People and no Authority, and Alice holds a shtick of
1 die on every defend roll: it rolls 3 + 1 People + 1 shtick = 5 dice at skill 1 (Money).
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.support.defence_report import SPENT, play
from tests.support.handmade import ClientFor
from tests.support.report_accounts import accounts

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def report(client_for: ClientFor, username: str) -> str:
    response = client_for(username).get(reverse("turn_report", args=[SLUG, 1]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


# The defender reads it in her account of the turn; the GM on the attempt's line (whether or
# not Carol knows the Watch's card changes nothing for either).
READERS = {
    "alice": (
        True,
        "",
        r"The Thieves' Guild tries to link The City Watch: your defence held, "
        r"\d+ against \d+ success(es)?; ",
    ),
    "gm": (
        False,
        "city",
        r"Linking attempt: The Thieves' Guild tries to link The City Watch, paying 2 Money "
        r"— Failed \(The defence held: [^;]*\); ",
    ),
}


@pytest.mark.parametrize("reader", READERS)
def test_the_defender_and_the_gm_read_what_the_watch_spent_against_whose_attack(
    client_for: ClientFor, reader: str
) -> None:
    carol_knows, board, reads = READERS[reader]
    play(carol_knows_the_watch=carol_knows)
    text = accounts(report(client_for, reader), board)
    assert re.search(reads + re.escape(SPENT) + r"\.", text), text


def test_an_attacker_who_knows_the_targets_card_reads_it(client_for: ClientFor) -> None:
    play(carol_knows_the_watch=True)
    content = report(client_for, "carol")
    assert SPENT in accounts(content)
    assert "Hidden: you do not know the target's card" not in content
    assert re.search(r'data-roll="\d+:\d+:defend"', content)


def test_an_attacker_who_knows_only_the_targets_name_reads_its_successes(
    client_for: ClientFor,
) -> None:
    """R46 read both ways: Carol has only heard of the Watch (`rumoured`): she reads her
    attempt's score, not the Watch's dice, skill or spending, nor its roll's key (with the
    published seed the verify page would recompute the faces)."""
    played = play(carol_knows_the_watch=False)
    content = report(client_for, "carol")
    text = accounts(content, "city")
    assert re.search(
        r"Linking attempt: The Thieves' Guild tries to link The City Watch, paying 2 Money "
        r"— Failed \(The defence held: \d+ against \d+ success(es)? \(<a [^>]*>R43</a>\)\)\.",
        text,
    ), text
    assert "rolled" not in text and "standing defence" not in text
    assert "Hidden: you do not know the target's card" in content
    key = f"1:{played.orders['carol_attempt'].pk}:defend"
    assert key not in content
    assert "5 dice" not in content


def test_a_third_player_reads_nothing_of_it(client_for: ClientFor) -> None:
    play(carol_knows_the_watch=True)
    content = report(client_for, "bob")
    assert "The City Watch rolled" not in content
    assert "standing defence" not in accounts(content)

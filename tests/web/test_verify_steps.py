"""Verify the dice (RULES R23) explains to a player, in the page itself, how to check a roll:
in numbered steps, before any command line, which is the GM's (whoever runs the site); and
it offers a check in the player's own browser (campaigns/static/campaigns/verify_dice.js,
exercised in tests/browser/test_verify_browser.py)."""

from __future__ import annotations

import hashlib
import hmac
import html
import re

from django.urls import reverse

from tests.support.demo import Played
from tests.support.handmade import ClientFor


def verify_page(client: object, played: Played, **query: object) -> str:
    url = reverse("verify_dice", args=[played.campaign.slug, 1])
    response = client.get(url, query)  # type: ignore[attr-defined]
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def steps_of(content: str) -> list[str]:
    section = content.split("data-how-to-check>")[1].split("</section>")[0]
    items = re.findall(r"<li>(.*?)</li>", section, flags=re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for item in items]


def test_the_page_tells_a_player_how_to_check_in_plain_steps(
    played: Played, client_for: ClientFor
) -> None:
    content = verify_page(client_for("alice"), played)
    steps = steps_of(content)
    assert len(steps) >= 5, steps
    told = " ".join(steps)
    for words in (
        "the campaign page shows its dice commitment",
        "the seed itself is published below",
        "Rolls in your report",
        "Die i (counting from 0) of the roll with key K",
        "“K:i”",
        "the first 8 bytes",
        "big-endian",
        "(10, or 6 for a perception check, whose key ends in :perception)",
        "plus 1, that is the face",
        "Compare those faces with the faces in your report",
        "Check in your browser",
    ):
        assert words in told, words
    # The command line comes after the steps, and is said to be the GM's.
    assert content.index("data-how-to-check") < content.index("manage.py engine roll")
    command = content.split("For the GM: on the server's command line")[1]
    assert "manage.py engine roll" in command.split("</pre>")[0]
    # The browser check loads from a static file (the CSP allows no inline script).
    assert re.search(r'<script src="[^"]*campaigns/verify_dice\.js"></script>', content)
    assert "data-browser-check hidden" in content


def test_the_steps_describe_exactly_how_a_die_is_derived(played: Played) -> None:
    """The words of step 4 followed by hand give the report's faces."""
    (roll,) = played.order("alice_roll").result["rolls"]
    secret = bytes.fromhex(played.turn.seed)
    by_words = [
        int.from_bytes(
            hmac.new(secret, f"{roll['key']}:{i}".encode(), hashlib.sha256).digest()[:8], "big"
        )
        % 10
        + 1
        for i in range(roll["dice"])
    ]
    assert by_words == roll["faces"]


def test_the_result_carries_its_key_and_faces_for_the_browser_check(
    played: Played, client_for: ClientFor
) -> None:
    (roll,) = played.order("alice_roll").result["rolls"]
    content = verify_page(client_for("alice"), played, key=roll["key"], dice=roll["dice"])
    faces = " ".join(str(f) for f in roll["faces"])
    assert (
        f'data-faces data-key="{roll["key"]}" data-dice="{roll["dice"]}" data-faces-list="{faces}"'
    ) in content


def test_the_german_page_gives_the_steps_in_german(played: Played, client_for: ClientFor) -> None:
    client = client_for("alice")
    client.cookies.load({"django_language": "de"})
    content = verify_page(client, played)
    steps = steps_of(content)
    assert len(steps) >= 5
    assert "Würfel" in " ".join(steps)
    assert "How to check the dice yourself" not in content

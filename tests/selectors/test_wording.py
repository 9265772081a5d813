"""campaigns/words/game.py: one place puts orders, refusals, notices and captures into words.
Names, never slugs; counts agree in number."""

from __future__ import annotations

import pytest

from campaigns.words import game, labels

NAMES = {"mint": "The Mint", "city-watch": "The City Watch", "city": "The City", "tax": "Tax"}


def name(slug: object) -> str:
    return NAMES.get(str(slug), "a department you do not know")


@pytest.mark.parametrize(
    ("n", "noun", "text"),
    [(1, "die", "1 die"), (2, "die", "2 dice"), (0, "die", "0 dice"), (1, "token", "1 token"),
     (3, "token", "3 tokens"), (1, "success", "1 success"), (2, "success", "2 successes")],
)  # fmt: skip
def test_counts_agree_in_number(n: int, noun: str, text: str) -> None:
    assert labels.count(n, noun) == text


def test_tokens_are_listed_in_rule_order_with_their_names() -> None:
    """R3: Money, People, Authority; nothing for none or for junk."""
    assert labels.tokens_text({"authority": 1, "money": 2}) == "2 Money and 1 Authority"
    assert labels.tokens_text({"money": 1, "people": 1, "authority": 3}) == (
        "1 Money, 1 People and 3 Authority"
    )
    assert labels.tokens_text({"money": 0}) == ""
    assert labels.tokens_text("junk") == ""
    assert labels.tokens_text({"money": "9"}) == ""


ORDERS = [
    ("add_link", {"from": "mint", "to": "city-watch"}, "The Mint → The City Watch"),
    ("priority", {"department": "mint", "consumers": ["city-watch", "tax"]},
     "The Mint feeds The City Watch, then Tax first"),
    ("move", {"from": "mint", "path": ["city-watch"], "tokens": {"money": 2}},
     "The Mint → The City Watch, carrying 2 Money"),
    ("reinforce", {"answers": "7", "from": "mint", "path": ["city-watch"], "tokens": {"people": 1}},
     "The Mint → The City Watch, carrying 1 People"),
    ("attempt", {"attacker": "mint", "target": "city-watch", "cost": {"money": 4},
                 "spend": {"authority": 1}},
     "The Mint tries to link The City Watch, paying 4 Money, spending 1 Authority"),
    ("function", {"department": "mint", "function": "coinage", "stat": "effect",
                  "spend": {"money": 1}, "intent": "Mint a new coin."},
     "The Mint: coinage (Effect), spending 1 Money. Intent: Mint a new coin."),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "payload", "text"), ORDERS)
def test_every_order_kind_is_put_into_words_with_names(kind: str, payload: dict, text: str) -> None:
    """R41-R46: the one wording the orders page, the report and the notices share."""
    said = game.order_text(kind, payload, name)
    assert said == text
    assert "mint" not in said.replace("Mint", "") and "city-watch" not in said


def test_an_order_with_junk_fields_still_reads_without_a_slug() -> None:
    said = game.order_text("move", {"from": "hidden-slug", "path": "nonsense"}, name)
    assert said == "a department you do not know, carrying nothing"


def test_the_defender_learns_the_attacker_and_its_controller_only_if_told_r46() -> None:
    assert game.attack_text("The Mint", "The Watch") == "The Mint tries to link The Watch"
    assert game.attack_text("The Mint", "The Watch", "Alice") == (
        "The Mint (Alice) tries to link The Watch"
    )
    subject, text = game.attack_notice("The Mint", "The Watch", None, withdrawn=False)
    assert subject == "The Watch is under attack" and "by The Mint this turn (R46)" in text
    subject, text = game.attack_notice("The Mint", "The Watch", None, withdrawn=True)
    assert subject == "Attempt withdrawn" and text.endswith("was withdrawn.")


def test_captures_and_departures_r44_r13() -> None:
    assert game.capture_text("The Mint", None, "Bob") == "The Mint was captured by Bob."
    assert game.capture_text("The Mint", "Al", "Bob") == "The Mint was captured by Bob from Al."
    assert game.capture_text("The Mint", "Al", None) == "The Mint left Al's structure."
    assert game.capture_text("The Mint", None, None) == "The Mint left its structure."


def test_engine_reasons_name_departments_not_slugs() -> None:
    """The longest slug wins ('city-watch' before 'city'); a slug inside a word is left."""
    reason = "city-watch holds 1 money, the roll needs 2 (taxes of city)"
    assert game.with_names(reason, NAMES) == (
        "The City Watch holds 1 money, the roll needs 2 (taxes of The City)."
    )
    assert game.slugs_named(reason, NAMES) == ["city-watch", "city"]


def test_engine_reasons_count_in_the_right_number_and_capitalise_resources() -> None:
    """The engine's English says "1 against 1 successes" and "1 money"; the site says it
    as it writes everywhere else, in English and in German."""
    from django.utils import translation

    with translation.override("en"):
        held = "the defence held: {} against {} successes (R43)"
        assert game.with_names(held.format(1, 1), {}) == (
            "The defence held: 1 against 1 success (R43)."
        )
        assert game.with_names(held.format(0, 2), {}) == (
            "The defence held: 0 against 2 successes (R43)."
        )
        assert game.with_names("cannot pay: city-watch holds only 1 people (R43)", NAMES) == (
            "Cannot pay: The City Watch holds only 1 People (R43)."
        )
    with translation.override("de"):
        assert game.with_names(held.format(1, 1), {}) == (
            "Die Verteidigung hielt: 1 gegen 1 Erfolg (R43)."
        )
        assert game.with_names(held.format(1, 2), {}) == (
            "Die Verteidigung hielt: 1 gegen 2 Erfolge (R43)."
        )

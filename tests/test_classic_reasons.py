"""The engine's reasons on a classic board (engine/classic/legal.py, attack.py), in the
reader's language: a known reason translated, a failed attack's roll with its numbers, and
any other reason as the engine says it."""

from __future__ import annotations

from django.utils import translation

from campaigns.words.classic import classic_reason


def test_a_failed_attacks_roll_reads_in_german_with_its_numbers() -> None:
    with translation.override("de"):
        said = classic_reason("rolled 11, needed -3 or less, at most 10 (R95)")
        unused = classic_reason("not used")
    assert said == "gewürfelt 11, nötig -3 oder weniger, höchstens 10 (R95)"
    assert unused.startswith("in diesem Zug kam kein Angriff")


def test_an_unknown_reason_stays_as_the_engine_says_it() -> None:
    with translation.override("de"):
        assert classic_reason("rolled many (R95)") == "rolled many (R95)"


def test_a_gift_not_accepted_names_its_receiver_not_their_engine_id() -> None:
    reason = "p7 did not accept this group on a free arrow (R97)"
    assert classic_reason(reason, {"p7": "Bob"}.__getitem__) == (
        "Bob did not accept this group on a free arrow (R97)"
    )
    with translation.override("de"):
        said = classic_reason(reason, {"p7": "Bob"}.__getitem__)
    assert said == "Bob hat diese Gruppe nicht an einem freien Kontrollpfeil angenommen (R97)"

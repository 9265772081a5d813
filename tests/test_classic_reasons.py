"""A classic board's refusals (engine/classic/, RULES R91-R97) reach the site as codes and
are said in the reader's language, naming groups and players by name, never a group in the
deck: a failed attack's roll with its numbers, an unused standing order, any other reason
no code knows as the engine says it."""

from __future__ import annotations

from django.utils import translation

from campaigns.engine.refusals import parse, refuse
from campaigns.words.classic import classic_reason

NAMES = {"p7": "Bob", "cia": "The CIA"}


def test_a_gift_not_accepted_names_its_receiver_not_their_engine_id() -> None:
    reason = refuse("classic_not_accepted", to_player="p7")
    assert str(reason) == "p7 did not accept this group on a free arrow (R97)"  # the CLI's
    stored = str(reason)  # as the turn record keeps it: text, no code
    with translation.override("en"):
        assert (
            classic_reason(stored, NAMES) == "Bob did not accept this group on a free arrow (R97)"
        )
    with translation.override("de"):
        said = classic_reason(stored, NAMES)
    assert said == "Bob hat diese Gruppe nicht an einem freien Kontrollpfeil angenommen (R97)"


def test_a_stored_classic_reason_is_read_back_into_its_code_and_translated() -> None:
    stored = "two actions already (R94)"
    refusal = parse(stored)
    assert refusal is not None and refusal.code == "classic_two_actions"
    with translation.override("de"):
        assert classic_reason(stored) == "schon zwei Aktionen (R94)"


def test_a_failed_attacks_roll_reads_in_german_with_its_numbers() -> None:
    assert str(refuse("classic_roll_failed", total=11, need=-3)) == (
        "rolled 11, needed -3 or less, at most 10 (R95)"
    )
    with translation.override("de"):
        said = classic_reason("rolled 11, needed -3 or less, at most 10 (R95)")
        unused = classic_reason("not used")
    assert said == "gewürfelt 11, nötig -3 oder weniger, höchstens 10 (R95)"
    assert unused.startswith("in diesem Zug kam kein Angriff")


def test_an_unused_standing_order_is_explained_in_english_too() -> None:
    with translation.override("en"):
        said = classic_reason("not used")  # the engine's words (ENGINE.md part 10, step 6)
    assert said == "no attack it applies to came this turn: nothing was spent (R96)"


def test_an_unknown_reason_stays_as_the_engine_says_it() -> None:
    with translation.override("de"):
        assert classic_reason("rolled many (R95)") == "rolled many (R95)"


def test_a_reason_names_no_group_it_was_not_given() -> None:
    reason = refuse("classic_no_such_group", field="target", value="secret-deck-group")
    with translation.override("en"):
        said = classic_reason(reason, NAMES)
    assert "secret-deck-group" in said and "The CIA" not in said

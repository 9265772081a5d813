"""A classic board's refusals (engine/classic/, RULES R91-R97) reach the site as codes and
are said in the reader's language, naming groups and players, never a group in the deck."""

from __future__ import annotations

from django.utils import translation

from campaigns.engine.refusals import parse, refuse
from campaigns.words.classic import classic_reason

NAMES = {"p7": "Bob", "cia": "The CIA"}


def test_a_classic_reason_names_its_player_in_english_and_german() -> None:
    reason = refuse("classic_not_accepted", to_player="p7")
    assert str(reason) == "p7 did not accept this group on a free arrow (R97)"  # the CLI's
    with translation.override("en"):
        assert (
            classic_reason(reason, NAMES) == "Bob did not accept this group on a free arrow (R97)"
        )
    with translation.override("de"):
        said = classic_reason(reason, NAMES)
    assert said == "Bob hat diese Gruppe nicht an einem freien Pfeil angenommen (R97)"


def test_a_stored_classic_reason_is_read_back_into_its_code_and_translated() -> None:
    stored = "two actions already (R94)"  # as the turn record keeps it: text, no code
    assert parse(stored) is not None and parse(stored).code == "classic_two_actions"
    with translation.override("de"):
        assert classic_reason(stored) == "schon zwei Aktionen (R94)"


def test_a_reason_names_no_group_it_was_not_given() -> None:
    reason = refuse("classic_no_such_group", field="target", value="secret-deck-group")
    with translation.override("en"):
        said = classic_reason(reason, NAMES)
    assert "secret-deck-group" in said and "The CIA" not in said

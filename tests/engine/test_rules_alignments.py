"""RULES R5 (alignment catalogue) and R6 (alignment counts between two departments)."""

import pytest
from boards import dept, state

from campaigns.engine import EngineError, resolve, spawn_consume
from campaigns.engine.board import alignment_counts


def test_r6_identical_counts_alignments_both_hold():
    """R6: identical = alignments both hold; Government and Straight are shared, Violent is not."""
    assert alignment_counts(["Government", "Straight"], ["Straight", "Government", "Violent"]) == (
        2,
        0,
    )


def test_r6_opposed_counts_pairs_of_opposites():
    """R6/R5: Government/Communist and Liberal/Conservative are two opposed pairs."""
    assert alignment_counts(["Government", "Liberal"], ["Communist", "Conservative"]) == (0, 2)


def test_r6_opposition_is_symmetric():
    """R5: Communist is Government's opposite, so either order of A and B counts 1."""
    assert alignment_counts(["Communist"], ["Government"]) == (0, 1)
    assert alignment_counts(["Government"], ["Communist"]) == (0, 1)


def test_r6_identical_and_opposed_mix():
    """R6: shared Government (identical 1); Peaceful vs Violent and Weird vs Straight
    (opposed 2)."""
    assert alignment_counts(
        ["Government", "Peaceful", "Weird"], ["Violent", "Government", "Straight"]
    ) == (1, 2)


def test_r5_two_fanatics_are_opposed_not_identical():
    """R5/R6: Fanatic is self-opposed: two Fanatic departments count 1 opposed and 0 identical."""
    assert alignment_counts(["Fanatic"], ["Fanatic"]) == (0, 1)


def test_r5_one_fanatic_alone_counts_nothing():
    """R5/R6: self-opposition needs both to hold Fanatic."""
    assert alignment_counts(["Fanatic", "Straight"], ["Straight"]) == (1, 0)


def test_r5_criminal_has_no_opposite():
    """R5: Criminal has no opposite; two Criminals are simply identical."""
    assert alignment_counts(["Criminal"], ["Criminal"]) == (1, 0)
    for other in [
        "Government",
        "Communist",
        "Liberal",
        "Conservative",
        "Peaceful",
        "Violent",
        "Straight",
        "Weird",
        "Fanatic",
    ]:
        assert alignment_counts(["Criminal"], [other]) == (0, 0), other


def test_r6_no_alignments_counts_nothing():
    """R6: departments without alignments share and oppose nothing."""
    assert alignment_counts([], ["Government"]) == (0, 0)


def test_r5_custom_catalogue_replaces_the_default():
    """R5 (campaign setting): a catalogue where Fanatic is plain and Red/Blue are opposites."""
    catalogue = [
        {"name": "Red", "opposite": "Blue"},
        {"name": "Blue", "opposite": "Red"},
        {"name": "Fanatic"},
    ]
    # Fanatic is not self-opposed here, so two Fanatics are identical.
    assert alignment_counts(["Fanatic"], ["Fanatic"], catalogue) == (1, 0)
    assert alignment_counts(["Red"], ["Blue"], catalogue) == (0, 1)
    # Government/Communist are not opposites in this catalogue.
    assert alignment_counts(["Government"], ["Communist"], catalogue) == (0, 0)


def test_r5_custom_self_opposed_alignment():
    """R5: any alignment of the catalogue may be self-opposed."""
    catalogue = [{"name": "Zealot", "self_opposed": True}, {"name": "Quiet"}]
    assert alignment_counts(["Zealot", "Quiet"], ["Quiet", "Zealot"], catalogue) == (1, 1)


def test_r5_opposite_named_on_one_side_of_the_catalogue_counts_both_ways():
    """R5: ENGINE.md's example lists Government with opposite Communist and no Communist entry.

    Open corner decided: opposition is a relation between two alignments, so naming it on one
    entry is enough and it counts whichever department holds which side.
    """
    catalogue = [{"name": "Government", "opposite": "Communist"}]
    assert alignment_counts(["Communist"], ["Government"], catalogue) == (0, 1)
    assert alignment_counts(["Government"], ["Communist"], catalogue) == (0, 1)


@pytest.mark.parametrize("engine", [spawn_consume, resolve])
def test_r5_department_holding_alignment_and_its_opposite_is_an_input_error(engine):
    """R5: a department may not hold an alignment together with its opposite: bad input."""
    s = state([dept("mint", alignments=["Government", "Communist"])])
    with pytest.raises(EngineError):
        engine(s)


def test_r5_holding_opposites_is_an_input_error_in_a_custom_catalogue_too():
    """R5: opposites come from the state's catalogue."""
    catalogue = [{"name": "Red", "opposite": "Blue"}, {"name": "Blue", "opposite": "Red"}]
    s = state([dept("mint", alignments=["Blue", "Red"])], alignments=catalogue)
    with pytest.raises(EngineError):
        spawn_consume(s)


def test_r5_a_single_fanatic_department_is_legal():
    """R5: a self-opposed alignment held once is not "an alignment together with its opposite"."""
    s = state([dept("mint", alignments=["Fanatic", "Criminal", "Weird"])])
    out = spawn_consume(s)
    assert sorted(out["departments"][0]["alignments"]) == ["Criminal", "Fanatic", "Weird"]

"""campaigns/jsoncodec.py writes exactly json.dumps(sort_keys=True, indent=2)'s bytes (the
ENGINE.md output contract) and reads exactly what json.loads reads, whatever the value:
non-ASCII and control characters, DEL, lone surrogates, floats, integers beyond 64 bits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings

from campaigns.jsoncodec import dumps_compact, dumps_engine, has_long_number, loads
from tests.support.json_documents import documents


@settings(max_examples=500, deadline=None)
@given(documents)
def test_it_writes_the_bytes_json_dumps_writes(document: Any) -> None:
    assert dumps_engine(document) == json.dumps(document, sort_keys=True, indent=2)


@settings(max_examples=500, deadline=None)
@given(documents)
def test_it_reads_what_json_loads_reads(document: Any) -> None:
    text = json.dumps(document)
    assert loads(text) == json.loads(text)
    if "Infinity" not in text:  # JSON has no infinity: the database's JSON refuses it
        assert json.loads(dumps_compact(document)) == document


@pytest.mark.parametrize(
    "text", ['{"a": "\\u00e9\\ud83d\\ude00\\u007f\\u0000\\u2028"}', '"\\ud800"', "[1e400]", "NaN"]
)
def test_odd_but_valid_input_reads_as_json_reads_it(text: str) -> None:
    assert repr(loads(text)) == repr(json.loads(text))


def test_malformed_input_raises_json_loads_own_error() -> None:
    with pytest.raises(json.JSONDecodeError) as ours:
        loads('{"a": }')
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads('{"a": }')
    assert str(ours.value) == str(theirs.value)


def test_a_float_only_where_it_was_said_to_be_is_still_written_as_json_writes_it() -> None:
    state = {"orders": [{"tokens": {"money": 1.5}}], "turn": 10**20}
    expected = json.dumps(state, sort_keys=True, indent=2)
    assert dumps_engine(state, may_hold_floats=[state["orders"]]) == expected


@pytest.mark.parametrize(
    ("text", "long"),
    [
        ("1234567890123456789", True),
        ("123456789012345678", False),
        ('{"a": -12345678901234567890}', True),
        ('["1234567890123456789"]', True),  # in a string too: the test is cheap, not exact
        ("é\u2028\udc00 1234567890123456789", True),  # non-ASCII and a lone surrogate before it
        ("١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩", False),  # digits, but not ASCII ones: JSON numbers are ASCII
        ("12345678901234567 89", False),
    ],
)
def test_a_long_number_is_found_wherever_it_is(text: str, long: bool) -> None:
    assert has_long_number(text) is long

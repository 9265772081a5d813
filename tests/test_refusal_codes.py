"""Refusals with codes (issue 26): the engine refuses with a code, its rule and named
parameters (engine/refusals.py), and the site says each code in the reader's language with one
table (campaigns/reasons.py SAID). Fails when the engine can refuse with a code that has no
English or no German words, when the site's table lacks a code, and when a stored sentence
can no longer be read back into its code."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.utils import translation

from campaigns.engine import resolve
from campaigns.engine.errors import OrderRejected
from campaigns.engine.joined import reason_in
from campaigns.engine.refusals import NUMBERS, TABLE, Refusal, fields, parse, refuse
from campaigns.reasons import (
    EVERY,
    SAID,
    SITE,
    STORED,
    outcome_stored,
    reason_translated,
    site_refusal,
    stored_reason,
)
from campaigns.words import game
from campaigns.words.intrigue import players_named

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "campaigns" / "engine"
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
# The engine's functions that pass on a code their callers name (a literal in every call):
# name -> the code's position among the arguments.
PASSING_ON = {"check_covers": 2, "check_room": 3}


def codes_the_engine_names() -> dict[str, str]:
    """Every code the engine's source names: the first argument of each refuse(...), and each
    code passed to a function that refuses with it. code -> where."""
    found: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "refusals.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = f"{path.name}:{node.lineno}"
            if node.func.id == "refuse":
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    found[str(first.value)] = where
                    # Its parameters are the ones its sentence names, no more, no fewer.
                    if first.value in TABLE:
                        wanted = {name for name, __ in fields(TABLE[first.value][1])}
                        given = {keyword.arg for keyword in node.keywords}
                        assert given == wanted, f"{where}: {first.value} takes {wanted}"
                else:  # only a function that passes on its caller's code
                    assert isinstance(first, ast.Name) and first.id == "code", where
            elif len(node.args) > PASSING_ON.get(node.func.id, 99):
                code = node.args[PASSING_ON[node.func.id]]
                assert isinstance(code, ast.Constant), where
                found[str(code.value)] = where
    return found


def sample(template: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for index, (name, __) in enumerate(fields(template)):
        if name in NUMBERS:
            values[name] = index + 2
        elif name == "kind":
            values[name] = "people"
        elif name == "inner":
            values[name] = "a consumer is named twice"
        else:
            values[name] = f"slug-{index}"
    return values


def german_catalogue() -> dict[str, polib.POEntry]:
    return {entry.msgid: entry for entry in polib.pofile(str(PO))}


def msgids(words: Any) -> list[str]:
    """The msgid(s) of a lazy gettext or ngettext text."""
    args = getattr(words, "_args", None)
    if args is not None:
        return [args[0]]
    english = [str(words % {"defence": 1, "attack": 1}), str(words % {"defence": 2, "attack": 1})]
    return [re.sub(r"\b[12]\b", "%(x)s", text) for text in english]


def test_every_code_the_engine_names_has_english_words_a_rule_and_site_words() -> None:
    named = codes_the_engine_names()
    assert len(named) > 100
    unknown = {code: where for code, where in named.items() if code not in TABLE}
    assert not unknown, f"codes without English words (engine/refusals.py TABLE): {unknown}"
    for code, (rule, template) in TABLE.items():
        assert re.fullmatch(r"R\d+", rule), code
        assert template.strip(), code
    missing = set(TABLE) - set(SAID)
    assert not missing, f"codes the site cannot say (campaigns/reasons.py SAID): {missing}"
    assert set(SAID) == set(TABLE) | set(SITE), set(SAID) ^ (set(TABLE) | set(SITE))


def test_every_code_has_german_words() -> None:
    catalogue = german_catalogue()
    for code, words in SAID.items():
        if code == "defence_held":  # ngettext: its forms are checked by test_german
            continue
        (msgid,) = msgids(words)
        entry = catalogue.get(msgid)
        assert entry is not None and entry.msgstr, f"{code}: no German for {msgid!r}"
        assert "fuzzy" not in entry.flags, code


@pytest.mark.parametrize("code", sorted(EVERY))
def test_each_code_is_said_with_its_own_parameters_in_english_and_german(code: str) -> None:
    rule, template = EVERY[code]
    params = sample(template)
    refusal = Refusal(code, params, EVERY)
    assert refusal == template.format(**params)
    assert (refusal.code, refusal.rule, refusal.params) == (code, rule, params)
    for language in ("en", "de"):
        with translation.override(language):
            said = reason_translated(refusal, str.upper, {"people": "People"})
            if language == "de":
                assert said and said != refusal, code
    # Read back from its text (a stored reason): the same code and parameters.
    again = parse(str(refusal), EVERY)
    assert again is not None and again.code == code and again.params == params, code


def test_a_refusal_keeps_its_code_through_copy_pickle_and_exceptions() -> None:
    refusal = refuse("already_linked", supplier="mint", consumer="city-watch")
    assert refusal == "mint already links to city-watch (R10)"
    for again in (copy.deepcopy(refusal), pickle.loads(pickle.dumps(refusal))):
        assert again == refusal and again.code == "already_linked"
        assert again.params == {"supplier": "mint", "consumer": "city-watch"}
    error = OrderRejected(refusal)
    assert str(error) == refusal and error.args[0].code == "already_linked"


@pytest.mark.parametrize(
    ("stored", "code", "german"),
    [
        ("mint already links to city-watch (R10)", "already_linked",
         "Die Münze ist bereits mit Stadtwache verbunden (R10)."),
        ("cannot pay: mint holds 1 money, the attempt needs 4 (R43)", "cannot_pay", None),
        ("there is no ticket 'mint' (R80)", "no_such_ticket", None),
        ("no department 'moon' on this board", "no_such_department", None),
        ("link ->mint: unknown department '' (R2, R10)", "unknown_link_end", None),
    ],
)  # fmt: skip
def test_an_older_stored_reason_is_read_back_into_its_code(
    stored: str, code: str, german: str | None
) -> None:
    refusal = parse(stored)
    assert refusal is not None and refusal.code == code and refusal == stored
    with translation.override("de"):
        said = game.with_names(stored, {"mint": "Die Münze", "city-watch": "Stadtwache"})
    assert said != game.sentence(stored) and "mint" not in said
    if german is not None:
        assert said == german


def test_the_sites_own_refusals_are_said_too() -> None:
    with translation.override("de"):
        said = game.with_names(site_refusal("unseen_anything"), {})
    assert said != "Nothing you can see can be ordered now (R50)." and "(R50)" in said


def test_a_rejected_orders_reason_keeps_its_code_in_the_engines_report() -> None:
    """An order refused by raising (OrderRejected) is reported with its Refusal, whose text
    is the sentence ENGINE.md shows; taking a board's prefix off keeps the code."""
    own = {"structure": "p1", "home": True}
    state = {
        "seed": "ab" * 32,
        "turn": 1,
        "departments": [
            {"slug": "mint", **own, "produces": {"type": "money", "amount": 1}},
            {"slug": "guild", **own, "consumes": {"type": "people", "amount": 1}},
        ],
        "links": [],
        "orders": [{"id": "o1", "player": "p1", "kind": "add_link", "from": "mint", "to": "guild"}],
    }
    reason = resolve(state)["report"]["orders"]["o1"]["reason"]
    assert isinstance(reason, Refusal) and reason.code == "not_produced"
    assert reason == "mint does not produce what guild consumes (R10)"
    plain = reason_in(refuse("already_linked", supplier="city/mint", consumer="city/guild"), "city")
    assert plain == "mint already links to guild (R10)" and plain.code == "already_linked"
    assert plain.params == {"supplier": "mint", "consumer": "guild"}


def test_a_stored_outcome_is_said_by_its_code_even_when_the_sentence_changed() -> None:
    """The turn job stores the code and parameters beside the text (reasons.STORED): read
    back from JSON it is the same refusal, and a text the engine no longer writes (an
    edited sentence) is still said by its code."""
    outcome = {
        "status": "rejected",
        "rolls": [],
        "reason": refuse("already_linked", supplier="mint", consumer="city-watch"),
    }
    stored = json.loads(json.dumps(outcome_stored(outcome)))
    assert stored[STORED] == {
        "code": "already_linked",
        "params": {"supplier": "mint", "consumer": "city-watch"},
    }
    assert stored_reason(stored) == outcome["reason"]
    assert stored_reason(stored).code == "already_linked"
    edited = {**stored, "reason": "mint is linked to city-watch already (R10)"}
    assert parse(edited["reason"]) is None
    with translation.override("de"):
        said = game.with_names(
            stored_reason(edited), {"mint": "Die Münze", "city-watch": "Stadtwache"}
        )
    assert said == "Die Münze ist bereits mit Stadtwache verbunden (R10)."


@pytest.mark.parametrize(
    "coded",
    [
        None,
        "already_linked",
        {"code": ["already_linked"], "params": {}},
        {"code": "no_such_code", "params": {}},
        {"code": "already_linked"},
        {"code": "already_linked", "params": ["mint", "city-watch"]},
        {"code": "already_linked", "params": {"supplier": "mint"}},
        {"code": "already_linked", "params": {"supplier": {"a": 1}, "consumer": "x"}},
        {"code": "already_linked", "params": {"supplier": True, "consumer": "x"}},
    ],
)
def test_an_older_or_odd_stored_reason_falls_back_to_its_text(coded: Any) -> None:
    """An order of an older turn (no code) or an imported archive's odd value: the text as
    stored, read back through parse as before, never an error."""
    stored = {"status": "rejected", "reason": "mint already links to city-watch (R10)"}
    if coded is not None:
        stored[STORED] = coded
    reason = stored_reason(stored)
    assert reason == stored["reason"] and not isinstance(reason, Refusal)
    assert parse(reason).code == "already_linked"


def test_naming_the_players_of_a_refusal_keeps_its_code() -> None:
    """R62: the engine names players by id; the site names them in the text and in the
    parameters alike, so the refusal is still said by its code."""
    named = players_named(refuse("not_accepted", player="p12", dept="mint"), {"p12": "Alice"})
    assert named == "Alice did not accept mint (R62)" and named.code == "not_accepted"
    assert named.params == {"player": "Alice", "dept": "mint"}

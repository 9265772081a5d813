"""The fog-of-war detector itself (tests/support/fog.py): what it calls a leak. A crawl once
failed on a goal's sentinel figure, 93100, found inside a random hex string of the page."""

from __future__ import annotations

from tests.support.fog import leaks

SEED = "5f" * 32


def secrets_found(text: str) -> list[str]:
    return leaks(text, {}, {}, secrets=["93100", SEED])


def test_a_numeric_secret_is_found_as_a_number_of_its_own() -> None:
    assert secrets_found("<dd>Goal: 93100 groups</dd>") == ["secret 93100…"]
    assert secrets_found("<td>93100</td>") == ["secret 93100…"]


def test_a_numeric_secret_inside_a_longer_token_is_chance_not_a_leak() -> None:
    commitment = "a7c93100e4" + "0" * 54
    microseconds = '<time datetime="2026-11-29T10:12:34.931002+00:00">'
    assert secrets_found(f"<code>{commitment}</code> {microseconds} 1793100") == []


def test_a_seed_is_found_wherever_it_stands() -> None:
    assert secrets_found(f"?seed={SEED}&key=x") == [f"secret {SEED[:12]}…"]
    assert secrets_found(f"<code>x{SEED}</code>") == [f"secret {SEED[:12]}…"]

"""A link made and removed within one turn (added in the link phase, gone with a capture in
the attempt phase) is in neither state the report compares: it must still be reported."""

from __future__ import annotations

from types import SimpleNamespace

from campaigns.models import Order
from campaigns.selectors.report_board_changes import link_changes, links_made
from campaigns.selectors.visibility import Level


class Everything:
    """A viewer who knows every department (as the GM does)."""

    def level(self, slug: str) -> Level:
        return Level.CONTROLLED

    def name(self, slug: object, *, at_least: Level = Level.RUMOURED) -> str:
        return f"The {str(slug).title()}"

    def sees_link(self, supplier: str, consumer: str) -> bool:
        return True


def order(pk: int, kind: str, **payload: str) -> Order:
    return Order(pk=pk, kind=kind, payload=payload)


def state(*links: tuple[str, str]) -> dict:
    return {"links": [{"from": a, "to": b} for a, b in links]}


def test_a_link_added_and_captured_away_in_one_turn_is_reported_as_both() -> None:
    """R41 then R44: alice adds mint->watch; carol's capture of watch removes it."""
    orders = [
        order(1, Order.Kind.ADD_LINK, **{"from": "mint", "to": "watch"}),
        order(2, Order.Kind.ATTEMPT, attacker="guild", target="watch"),
        order(3, Order.Kind.ADD_LINK, **{"from": "mint", "to": "tower"}),  # rejected
    ]
    outcomes = {"1": {"status": "succeeded"}, "2": {"status": "succeeded"},
                "3": {"status": "rejected"}}  # fmt: skip
    made = links_made(orders, outcomes)
    assert made == {("mint", "watch"), ("guild", "watch")}
    before, after = state(("mint", "bank")), state(("mint", "bank"), ("guild", "watch"))
    everything = Everything()
    knowing = SimpleNamespace(
        level=everything.level, name=everything.name, sees_link=everything.sees_link
    )
    added = link_changes(after, before, knowing, added=True, made=made)  # type: ignore[arg-type]
    gone = link_changes(after, before, knowing, added=False, made=made)  # type: ignore[arg-type]
    assert added == ["The Guild → The Watch", "The Mint → The Watch"]
    assert gone == ["The Mint → The Watch"]
    # Without the orders, the link made and gone within the turn is lost.
    assert "The Mint → The Watch" not in link_changes(after, before, knowing, added=True)  # type: ignore[arg-type]

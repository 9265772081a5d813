"""campaigns.engine.legal for the kinds of ENGINE.md parts 7-8 on hand-made boards: what one
player may order after their queued orders (RULES R62, R70), and why a kind has nothing."""

from __future__ import annotations

from typing import Any

from campaigns.engine.legal import legal_choices
from campaigns.engine.legal_deals import AcceptChoice, GiftChoice, HandoverChoice, PerceiveChoice

Json = dict[str, Any]


def dept(slug: str, owner: str | None, **kw: Any) -> Json:
    base: Json = {"slug": slug, "structure": owner, "home": True, "stash": {}, "capacity": 4}
    return {**base, **kw}


def board(*orders: Json) -> Json:
    """alice: mint (3 money, 1 of them moved), shop; bob: vault (holds 3 of 4), cellar."""
    return {
        "turn": 1,
        "seed": "ab" * 32,
        "departments": [
            dept("mint", "alice", stash={"money": 3}, moved={"money": 1}),
            dept("shop", "alice"),
            dept("vault", "bob", stash={"people": 3}),
            dept("cellar", "bob"),
            dept("field", None),
        ],
        "links": [],
        "orders": list(orders),
    }


def test_r62_gifts_offer_unmoved_tokens_up_to_the_receivers_room() -> None:
    legal = legal_choices(board(), "alice")
    unmoved = {"money": 2, "people": 0, "authority": 0}
    assert legal.gift == [GiftChoice("mint", unmoved, {"vault": 1, "cellar": 4})]
    (gift,) = legal.gift
    assert (gift.most("vault"), gift.most("cellar"), gift.most("field")) == (1, 2, 0)
    assert gift.accepts("cellar", {"money": 2}) and not gift.accepts("cellar", {"money": 3})
    assert not gift.accepts("cellar", {"money": 0})
    assert not gift.accepts("vault", {"money": 2}) and not gift.accepts("shop", {"money": 1})


def test_r62_a_queued_gift_uses_up_the_tokens_it_gives() -> None:
    queued = {"id": "q", "player": "alice", "kind": "gift", "from": "mint", "to": "cellar"}
    legal = legal_choices(board(queued | {"tokens": {"money": 2}}), "alice")
    assert legal.gift == []
    assert legal.why_not["gift"] == (
        "none of your departments holds tokens that have not moved this turn (R42, R62)"
    )


def test_r62_handovers_offer_the_players_departments_and_accepts_the_offers_to_them() -> None:
    offer = {"id": "h", "player": "bob", "kind": "handover", "department": "vault", "to": "alice"}
    legal = legal_choices(board(offer), "alice")
    assert legal.handover == [HandoverChoice("mint"), HandoverChoice("shop")]
    assert legal.accept == [AcceptChoice("vault", "bob")]
    assert legal_choices(board(offer), "carol").accept == []
    assert legal_choices(board(offer), "carol").why_not["accept"] == (
        "no other player offers you a department (R62)"
    )


def test_r62_an_accepted_offer_is_the_players_in_the_rest_of_the_plan() -> None:
    """The accepted hand-over happens at the start of the link phase: the vault is alice's
    for her link orders, and she cannot hand it on the same turn. Unlinked, it would leave her
    structure at the end of the link phase (R13); linked to her shop, it stays, and its
    people are hers to give in the move phase."""
    offer = {"id": "h", "player": "bob", "kind": "handover", "department": "vault", "to": "alice"}
    consent = {"id": "a", "player": "alice", "kind": "accept", "department": "vault"}
    state = board(offer, consent | {"from": "bob"})
    state["departments"][2]["produces"] = {"type": "people", "amount": 1}
    state["departments"][1]["consumes"] = {"type": "people", "amount": 1}
    legal = legal_choices(state, "alice")
    assert HandoverChoice("vault") not in legal.handover
    assert [(c.supplier, c.consumer) for c in legal.add_link] == [("vault", "shop")]
    assert not any(c.start == "vault" for c in legal.gift)
    link = {"id": "l", "player": "alice", "kind": "add_link", "from": "vault", "to": "shop"}
    state["orders"].append(link)
    assert any(c.start == "vault" for c in legal_choices(state, "alice").gift)


def test_r70_perception_checks_are_offered_once_per_department() -> None:
    queued = {"id": "q", "player": "alice", "kind": "perceive", "department": "vault"}
    legal = legal_choices(board(queued), "alice")
    assert PerceiveChoice("vault") not in legal.perceive
    assert [c.department for c in legal.perceive] == ["mint", "shop", "cellar", "field"]
    assert "perceive" not in legal.why_not

"""The GM's pages of RULES parts 7 and 8 on the demo: shticks by kind (R60), secret goals by
kind (R61), sealed envelopes by condition (R72) from a player's member page, intel envelopes
(R71) from a department's editor page. What the GM saves reaches the player's campaign page
and dossier in words and nobody else's; a refusal changes nothing and says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.intrigue.services.characters import goal_set
from campaigns.models import (
    AuditEntry,
    Campaign,
    ContingencyEnvelope,
    DossierEntry,
    Goal,
    GoalProgress,
    IntelEnvelope,
    Shtick,
)
from campaigns.services.turns import turn_process
from tests.support.demo import member, open_turn
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def member_url(campaign: Campaign, name: str, *parts: Any) -> str:
    view, *args = parts
    return reverse(view, args=[SLUG, member(campaign, name).pk, *args])


def dept_pk(campaign: Campaign, slug: str) -> int:
    return campaign.boards.get(slug="city").departments.get(slug=slug).pk


SHTICKS = [
    ("production", {"department": "mint", "amount": 1}, {"amount": 1, "department": "mint"},
     "+1 production for The Mint"),
    ("dice", {"roll": "attack", "department": "mint", "amount": 1},
     {"roll": "attack", "amount": 1, "department": "mint"},
     "+1 die on linking attempts by The Mint"),
    ("skill", {"roll": "perception", "department": "", "amount": 2},
     {"roll": "perception", "amount": 2, "department": None},
     "+2 skill on perception checks by every department of yours"),
    ("attempts", {"amount": 1}, {"amount": 1}, "+1 linking attempt per turn"),
    ("link_limit", {"department": "treasury", "out": 3}, {"out": 3, "department": "treasury"},
     "The Treasury may have 3 outgoing links (R11)"),
    ("cross_board", {"board_a": "city", "board_b": "harbour"},
     {"boards": ["city", "harbour"]},
     "May link departments across The City of Tourmaline and The Merchant Harbour"),
    ("perception", {"amount": 1}, {"amount": 1}, "+1 Perception"),
    ("text", {"text": "Knows everyone at the yacht club."},
     {"text": "Knows everyone at the yacht club."}, "Knows everyone at the yacht club."),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "posted", "data", "words"), SHTICKS, ids=[s[0] for s in SHTICKS])
def test_the_gm_grants_each_kind_of_shtick_and_its_player_reads_it_in_words_r60(
    demo: Campaign, client_for: ClientFor, kind: str, posted: dict, data: dict, words: str
) -> None:
    gm = client_for("gm")
    body = dict(posted)
    if "department" in body and body["department"]:
        body["department"] = dept_pk(demo, body["department"])
    response = gm.post(member_url(demo, "alice", "shtick_new", kind), body)
    assert response.status_code == 302, response.content.decode()[-3000:]
    shtick = Shtick.objects.filter(member=member(demo, "alice")).latest("pk")
    assert shtick.data == {"kind": kind, **data}
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SHTICKS).count() == 1
    assert words in client_for("alice").get(reverse("campaign", args=[SLUG])).content.decode()
    assert words not in client_for("bob").get(reverse("campaign", args=[SLUG])).content.decode()
    member_page = gm.get(member_url(demo, "alice", "member_edit")).content.decode()
    assert words in member_page


def test_a_shtick_form_asks_exactly_its_fields(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    fields = {
        kind: set(gm.get(member_url(demo, "alice", "shtick_new", kind)).context["form"].fields)
        for kind, *_ in SHTICKS
    }
    assert fields["production"] == {"department", "amount"}
    assert fields["dice"] == fields["skill"] == {"roll", "department", "amount"}
    assert fields["attempts"] == fields["perception"] == {"amount"}
    assert fields["link_limit"] == {"department", "out", "into"}
    assert fields["cross_board"] == {"board_a", "board_b"}
    assert fields["text"] == {"text"}


@pytest.mark.parametrize(
    ("kind", "body", "error"),
    [
        ("link_limit", {"department": "mint"}, "Give at least one of the two limits."),
        ("cross_board", {"board_a": "city", "board_b": "city"}, "Choose two different boards."),
        ("production", {"department": "999999", "amount": 1}, "Select a valid choice"),
        ("text", {"text": "x" * 1001}, "at most 1000 characters"),
    ],
)
def test_a_shtick_the_form_or_the_engine_refuses_changes_nothing(
    demo: Campaign, client_for: ClientFor, kind: str, body: dict, error: str
) -> None:
    if body.get("department") == "mint":
        body = {**body, "department": dept_pk(demo, "mint")}
    before = Shtick.objects.count()  # the demo's own
    response = client_for("gm").post(member_url(demo, "alice", "shtick_new", kind), body)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert Shtick.objects.count() == before and not AuditEntry.objects.exists()


def test_the_gm_removes_a_shtick(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    gm.post(member_url(demo, "bob", "shtick_new", "perception"), {"amount": 2})
    shtick = Shtick.objects.latest("pk")
    response = gm.post(member_url(demo, "bob", "shtick_remove", shtick.pk))
    assert response.status_code == 302 and not Shtick.objects.filter(pk=shtick.pk).exists()


GOALS = [
    ("control", {"n": 8}, "Control 8 departments"),
    ("control_aligned", {"alignment": "Government", "n": 3}, "Control 3 Government departments"),
    ("hold", {"type": "money", "n": 10}, "Hold 10 Money across your structures"),
    ("stat_total", {"stat": "impress", "n": 12},
     "A total Impress of 12 over the departments you control"),
    ("attempts_won", {"n": 2}, "Win 2 linking attempts"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "body", "words"), GOALS, ids=[g[0] for g in GOALS])
def test_the_gm_sets_each_kind_of_goal_and_only_its_player_reads_it_r61(
    demo: Campaign, client_for: ClientFor, kind: str, body: dict, words: str
) -> None:
    response = client_for("gm").post(member_url(demo, "carol", "goal_new", kind), body)
    assert response.status_code == 302
    goal = Goal.objects.filter(member=member(demo, "carol")).latest("pk")
    assert (goal.kind, goal.data["n"]) == (kind, body["n"])
    assert words in client_for("carol").get(reverse("campaign", args=[SLUG])).content.decode()
    assert words not in client_for("alice").get(reverse("campaign", args=[SLUG])).content.decode()


def test_a_goals_progress_bar_moves_after_a_turn(demo: Campaign, client_for: ClientFor) -> None:
    Goal.objects.all().delete()  # the demo's own
    goal = goal_set(member=member(demo, "alice"), actor=member(demo, "gm").user,
                    data={"kind": "control", "n": 6})  # fmt: skip
    alice = client_for("alice")
    before = alice.get(reverse("campaign", args=[SLUG])).content.decode()
    assert "counted after the next turn" in before and 'value="0"' in before
    turn_process(campaign_id=demo.pk, number=open_turn(demo).number)
    progress = GoalProgress.objects.get(goal=goal)
    page = alice.get(reverse("campaign", args=[SLUG])).content.decode()
    assert f"{progress.value} of 6 after turn 1" in page
    assert f'value="{progress.value * 100 // 6}"' in page


CONDITIONS = [
    ("turn", {"turn_number": 3}, "opens when turn 3 has been processed"),
    ("date", {"date": "2027-01-08T18:00"}, "opens at the first turn processed on or after"),
    ("joins", {"department": "tax-office"},
     "opens when The Tax Office (The City of Tourmaline) joins their"),
    ("leaves", {"department": "city-watch"},
     "opens when The City Watch (The City of Tourmaline) leaves their"),
    ("attempt_by", {"department": "temple"},
     "opens when The Temple of the Eye (The City of Tourmaline) makes a"),
    ("attempt_on", {"department": "mint"},
     "opens when a linking attempt is made on The Mint (The City"),
    ("knowledge", {"department": "rebel-cell", "level": 2},
     "opens when they know the card of The Rebel Cell (The City"),
]  # fmt: skip


@pytest.mark.parametrize(("condition", "body", "words"), CONDITIONS, ids=[c[0] for c in CONDITIONS])
def test_the_gm_writes_a_sealed_envelope_of_each_condition_r72(
    demo: Campaign, client_for: ClientFor, condition: str, body: dict, words: str
) -> None:
    gm = client_for("gm")
    data = {"text": "SEALED-FOR-ALICE", **body}
    if "department" in data:
        data["department"] = dept_pk(demo, data["department"])
    response = gm.post(member_url(demo, "alice", "contingency_new", condition), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    envelope = ContingencyEnvelope.objects.latest("pk")
    assert envelope.condition == condition and envelope.opened_turn is None
    page = gm.get(member_url(demo, "alice", "member_edit")).content.decode()
    assert words in page and "SEALED-FOR-ALICE" in page
    # Sealed: not even its own player reads it yet.
    for user in ("alice", "bob"):
        client = client_for(user)
        for url in (reverse("campaign", args=[SLUG]), reverse("dossier", args=[SLUG])):
            assert "SEALED-FOR-ALICE" not in client.get(url).content.decode()


def test_a_sealed_envelope_is_removed_while_sealed_and_kept_once_opened(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    ContingencyEnvelope.objects.all().delete()  # the demo's own
    for n in (1, 2):
        gm.post(member_url(demo, "bob", "contingency_new", "turn"), {"text": f"T{n}",
                                                                     "turn_number": n})  # fmt: skip
    first, second = ContingencyEnvelope.objects.order_by("pk")
    gm.post(member_url(demo, "bob", "contingency_remove", second.pk))
    assert list(ContingencyEnvelope.objects.all()) == [first]
    turn_process(campaign_id=demo.pk, number=open_turn(demo).number)
    first.refresh_from_db()
    assert first.opened_turn is not None
    response = gm.post(member_url(demo, "bob", "contingency_remove", first.pk), follow=True)
    assert "That envelope has opened" in response.content.decode()
    assert ContingencyEnvelope.objects.filter(pk=first.pk).exists()
    page = client_for("bob").get(reverse("dossier", args=[SLUG])).content.decode()
    assert "T1" in page and "Sealed envelope: its condition came true" in page


def envelope_page(campaign: Campaign, slug: str = "temple") -> str:
    return reverse("department_envelopes", args=[SLUG, "city", slug])


def test_the_gm_attaches_an_intel_envelope_for_chosen_players_and_removes_it_r71(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    assert (
        envelope_page(demo)
        in gm.get(reverse("department_edit", args=[SLUG, "city", "temple"])).content.decode()
    )
    alice = member(demo, "alice")
    response = gm.post(envelope_page(demo), {"text": "The high priest is a fraud.", "target": 11,
                                            "audience": [alice.pk], "grants": 2})  # fmt: skip
    assert response.status_code == 302
    envelope = IntelEnvelope.objects.latest("pk")
    assert (envelope.target, envelope.everyone, envelope.grants) == (11, False, 2)
    assert list(envelope.audience.all()) == [alice]
    page = gm.get(envelope_page(demo)).content.decode()
    assert "The high priest is a fraud." in page and "Not opened yet." in page
    gm.post(reverse("envelope_remove", args=[SLUG, "city", "temple", envelope.pk]))
    assert not IntelEnvelope.objects.filter(pk=envelope.pk).exists()


def test_an_envelope_for_nobody_is_refused_and_nothing_is_attached(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = IntelEnvelope.objects.count()  # the demo's own
    response = client_for("gm").post(envelope_page(demo), {"text": "x", "target": 9})
    assert "Address it to any player, or choose at least one." in response.content.decode()
    assert IntelEnvelope.objects.count() == before


def test_the_player_reads_an_opened_envelope_in_their_dossier_with_its_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    gm.post(envelope_page(demo), {"text": "OPENED-INTEL", "target": 5, "everyone": "on",
                                  "grants": 2})  # fmt: skip
    DossierEntry.objects.create(member=member(demo, "alice"),
                                envelope=IntelEnvelope.objects.latest("pk"),
                                turn=demo.turns.get(number=0))  # fmt: skip
    page = client_for("alice").get(reverse("dossier", args=[SLUG])).content.decode()
    assert "OPENED-INTEL" in page
    assert "Intel envelope on The Temple of the Eye (The City of Tourmaline)" in page
    assert "you now know its card" in page
    assert (
        "OPENED-INTEL"
        not in client_for("bob").get(reverse("dossier", args=[SLUG])).content.decode()
    )
    assert (
        "Opened by Alice Ambergris, Comptroller (turn 0)"
        in gm.get(envelope_page(demo)).content.decode()
    )


@pytest.mark.parametrize("user", ["alice", "olga"])
def test_players_and_observers_may_not_open_the_gms_pages(
    demo: Campaign, client_for: ClientFor, user: str
) -> None:
    from tests.factories import MembershipFactory

    MembershipFactory(campaign=demo, role="observer", user__username="olga")
    client: Client = client_for(user)
    before = Shtick.objects.count(), Goal.objects.count()
    for url in (
        member_url(demo, "bob", "shtick_new", "text"),
        member_url(demo, "bob", "goal_new", "control"),
        member_url(demo, "bob", "contingency_new", "turn"),
        envelope_page(demo),
    ):
        assert client.get(url).status_code == 403
        assert client.post(url, {"text": "x", "n": 1, "turn_number": 1}).status_code == 403
    assert (Shtick.objects.count(), Goal.objects.count()) == before

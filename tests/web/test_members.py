"""The GM places the players (RULES R13, R50, R70): structures per board, the knowledge grid
and its bulk actions, a member's name, Perception and role, replacing and removing a
player. Each refusal is checked in the words the GM reads, and that it changed nothing."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from campaigns.models import (
    AuditEntry,
    Campaign,
    Department,
    Knowledge,
    Membership,
    Notice,
    Order,
    OrderLog,
    Structure,
    Turn,
)
from campaigns.services.orders import orders_submit
from campaigns.services.players import invitation_accept, invitation_create
from tests.factories import MembershipFactory
from tests.support.demo import member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def page_of(response: Any) -> str:
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


def city(slug: str) -> Department:
    return Department.objects.select_related("structure").get(board__slug="city", slug=slug)


def holders(campaign: Campaign) -> dict[str, tuple[str | None, bool]]:
    rows = Department.objects.filter(board__campaign=campaign).select_related(
        "structure__player__user"
    )
    return {
        d.slug: (d.structure.player.user.username if d.structure_id else None, d.home) for d in rows
    }


# --- structures (R13) ---------------------------------------------------------------------------


def structures_post(page: Any, **changes: tuple[str, bool]) -> dict[str, str]:
    """The structures form as shown, with `changes`: slug -> (username or "", home)."""
    form = page.context["form"]
    data = {}
    for row in form.rows:
        dept = Department.objects.get(pk=row.pk)
        controller, home = str(row.controller or ""), row.home
        if dept.slug in changes:
            username, home = changes[dept.slug]
            controller = (
                str(
                    Membership.objects.get(campaign=dept.board.campaign, user__username=username).pk
                )
                if username
                else ""
            )
        data[f"controller-{row.pk}"] = controller
        if home:
            data[f"home-{row.pk}"] = "on"
    return data


def test_the_gm_gives_a_department_to_a_player_as_home(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("board_structures", args=[SLUG, "city"])
    city("rebel-cell").__class__.objects.filter(slug="rebel-cell").update(defence={"money": 1})
    response = gm.post(url, structures_post(gm.get(url), **{"rebel-cell": ("carol", True)}))
    assert response.status_code == 302
    assert holders(demo)["rebel-cell"] == ("carol", True)
    assert city("rebel-cell").defence == {}  # the standing defence changes hands with it (R47)
    entry = AuditEntry.objects.get(action="structure")
    # Named as the GM reads them on the audit page (R53), not by slug.
    assert (entry.before, entry.after) == (
        {"The Rebel Cell": None},
        {"The Rebel Cell": "carol (home)"},
    )


def test_a_department_given_without_home_or_link_is_refused_r13(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = holders(demo)
    gm = client_for("gm")
    url = reverse("board_structures", args=[SLUG, "city"])
    response = gm.post(url, structures_post(gm.get(url), **{"rebel-cell": ("carol", False)}))
    page = page_of(response)
    assert "Nothing was saved" in page
    assert (
        "The Rebel Cell would stay in Mother Carol of the Eye's structure without being a home "
        "department or linked to another department of it, and would leave the structure at "
        "the next link phase (R13)."
    ) in page
    assert holders(demo) == before and not AuditEntry.objects.exists()


def test_taking_a_department_away_strands_nothing_else(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The City Watch (Alice's, not home) is fed by the Mint: taking the Mint from Alice
    would leave it alone in her structure, so both must go together."""
    gm = client_for("gm")
    url = reverse("board_structures", args=[SLUG, "city"])
    alone = gm.post(url, structures_post(gm.get(url), mint=("", False)))
    assert "The City Watch would stay in Alice Ambergris" in page_of(alone)
    both = gm.post(
        url, structures_post(gm.get(url), mint=("", False), **{"city-watch": ("", False)})
    )
    assert both.status_code == 302
    assert holders(demo)["mint"] == (None, False) and holders(demo)["city-watch"] == (None, False)


# --- knowledge (R50) ----------------------------------------------------------------------------


def level(username: str, slug: str) -> int:
    row = Knowledge.objects.filter(player__user__username=username, department__slug=slug).first()
    return row.level if row else 0


def grid_post(page: Any, **cells: int) -> dict[str, str]:
    """The grid as shown, with cells "<username>__<slug>" -> level changed."""
    form = page.context["form"]
    data = {name: str(form[name].initial) for name in form.fields}
    for key, value in cells.items():
        username, slug = key.split("__")
        pk = Membership.objects.get(user__username=username, campaign__slug=SLUG).pk
        data[f"level-{pk}-{Department.objects.get(slug=slug.replace('_', '-')).pk}"] = str(value)
    return data


def test_the_gm_sets_levels_in_the_grid_and_they_are_logged(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("board_knowledge", args=[SLUG, "city"])
    page = gm.get(url)
    assert level("alice", "temple") == 1
    response = gm.post(url, grid_post(page, alice__temple=2, bob__rebel_cell=1))
    assert response.status_code == 302
    assert (level("alice", "temple"), level("bob", "rebel-cell")) == (2, 1)
    entry = AuditEntry.objects.get(action="knowledge")
    temple, cell = "The Temple of the Eye", "The Rebel Cell"
    assert entry.before == {"alice": {temple: "rumoured"}, "bob": {cell: "unknown"}}
    assert entry.after == {"alice": {temple: "known"}, "bob": {cell: "rumoured"}}
    assert "Saved: 2 levels changed." in page_of(gm.get(response["Location"]))


def test_a_players_own_department_has_no_cell_and_a_forged_one_is_refused(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("board_knowledge", args=[SLUG, "city"])
    page = gm.get(url)
    alice, mint = member(demo, "alice"), city("mint")
    assert f"level-{alice.pk}-{mint.pk}" not in page.context["form"].fields
    assert "controls" in page_of(page)
    from campaigns.services.members import knowledge_set
    from campaigns.services.setup import SetupRefused

    with pytest.raises(SetupRefused, match="Alice Ambergris, Comptroller controls The Mint"):
        knowledge_set(
            board=mint.board, actor=member(demo, "gm").user, levels={(alice.pk, mint.pk): 1}
        )


def test_reveal_the_board_to_everyone_as_rumoured_raises_and_never_lowers(
    demo: Campaign, client_for: ClientFor
) -> None:
    MembershipFactory(campaign=demo, user__username="olga", role=Membership.Role.OBSERVER)
    gm = client_for("gm")
    url = reverse("board_knowledge_bulk", args=[SLUG, "city"])
    response = gm.post(url, {"member": "", "department": "", "level": "1", "how": "raise"})
    assert response.status_code == 302
    assert level("olga", "mint") == 1 and level("bob", "rebel-cell") == 1
    assert level("alice", "guild-hall") == 2  # known stays known
    assert level("alice", "mint") == 0  # hers: no stored level, she controls it
    assert "changed" in page_of(gm.get(response["Location"]))


def test_bulk_per_column_and_per_row_set_exactly(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    url = reverse("board_knowledge_bulk", args=[SLUG, "city"])
    alice = member(demo, "alice")
    gm.post(url, {"member": str(alice.pk), "department": "", "level": "0", "how": "set"})
    assert level("alice", "guild-hall") == 0 and level("alice", "temple") == 0
    assert level("bob", "mint") == 2  # another column, untouched
    gm.post(url, {"member": "", "department": str(city("temple").pk), "level": "2", "how": "set"})
    assert level("alice", "temple") == 2 and level("bob", "temple") == 2
    assert level("carol", "temple") == 0  # hers: she controls it


def test_bad_bulk_input_changes_nothing(demo: Campaign, client_for: ClientFor) -> None:
    before = list(Knowledge.objects.order_by("pk").values_list("level", flat=True))
    url = reverse("board_knowledge_bulk", args=[SLUG, "city"])
    response = client_for("gm").post(
        url, {"member": "", "department": "", "level": "3", "how": "set"}, follow=True
    )
    assert "Choose who, which departments and a level." in page_of(response)
    assert list(Knowledge.objects.order_by("pk").values_list("level", flat=True)) == before


# --- one member: name, Perception, role (R70) ---------------------------------------------------


def test_the_gm_sets_a_character_name_and_perception(demo: Campaign, client_for: ClientFor) -> None:
    alice = member(demo, "alice")
    url = reverse("member_edit", args=[SLUG, alice.pk])
    data = {"character_name": "Alice the Bold", "perception": "4", "role": "player"}
    assert client_for("gm").post(url, data).status_code == 302
    alice.refresh_from_db()
    assert (alice.character_name, alice.perception) == ("Alice the Bold", 4)
    entry = AuditEntry.objects.get(action="members")
    assert entry.after == {"character_name": "Alice the Bold", "perception": 4}


def test_a_player_holding_departments_cannot_become_an_observer(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = member(demo, "alice")
    data = {"character_name": alice.character_name, "perception": "2", "role": "observer"}
    response = client_for("gm").post(reverse("member_edit", args=[SLUG, alice.pk]), data)
    assert "holds departments: an observer holds none (R13)" in page_of(response)
    alice.refresh_from_db()
    assert alice.role == "player" and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("value", "message"), [("21", "less than or equal to 20"), ("-1", "greater than or equal to 0")]
)
def test_perception_out_of_range_is_refused(
    demo: Campaign, client_for: ClientFor, value: str, message: str
) -> None:
    alice = member(demo, "alice")
    data = {"character_name": "x", "perception": value, "role": "player"}
    response = client_for("gm").post(reverse("member_edit", args=[SLUG, alice.pk]), data)
    assert message in page_of(response)
    alice.refresh_from_db()
    assert alice.perception == 2


# --- replacing and removing a player ------------------------------------------------------------


def queue_attempt(demo: Campaign, username: str, attacker: str, target: str) -> Order:
    return orders_submit(
        player=member(demo, username), turn=demo.turns.get(status=Turn.Status.OPEN),
        board=demo.boards.get(slug="city"), kind=Order.Kind.ATTEMPT,
        payload={"attacker": attacker, "target": target},
    )  # fmt: skip


def test_replacing_a_player_hands_over_structures_and_knowledge_and_cancels_orders(
    demo: Campaign, client_for: ClientFor
) -> None:
    dave = MembershipFactory(campaign=demo, user__username="dave", character_name="Dave")
    alice = member(demo, "alice")
    attempt = queue_attempt(demo, "alice", "city-watch", "guild-hall")
    url = reverse("member_replace", args=[SLUG, alice.pk])
    response = client_for("gm").post(url, {"successor": str(dave.pk), "knowledge": "on"})
    assert response["Location"] == reverse("member_edit", args=[SLUG, dave.pk])
    after = holders(demo)
    assert after["mint"] == ("dave", True) and after["city-watch"] == ("dave", False)
    assert after["spice-house"] == ("dave", True)
    assert level("dave", "guild-hall") == 2  # what Alice knew
    attempt.refresh_from_db()
    assert attempt.status == Order.Status.CANCELLED
    assert OrderLog.objects.filter(order=attempt, action="cancelled").exists()
    # R46: Bob, whose Guild Hall was targeted, is told the attempt is withdrawn.
    assert Notice.objects.filter(player=member(demo, "bob"), text__contains="withdrawn").exists()
    entry = AuditEntry.objects.get(action="members")
    assert entry.before["structures"]["The City of Tourmaline"] == [
        "city-watch",
        "mint",
        "treasury",
    ]


def test_replacing_by_an_observer_is_refused(demo: Campaign, client_for: ClientFor) -> None:
    olga = MembershipFactory(campaign=demo, user__username="olga", role=Membership.Role.OBSERVER)
    before = holders(demo)
    from campaigns.services.members import member_replace
    from campaigns.services.setup import SetupRefused

    with pytest.raises(SetupRefused, match="is not a player: only a player holds a structure"):
        member_replace(
            member=member(demo, "alice"),
            actor=member(demo, "gm").user,
            successor=olga,
            knowledge=True,
        )
    # Through the page the observer is not even offered.
    url = reverse("member_replace", args=[SLUG, member(demo, "alice").pk])
    response = client_for("gm").post(url, {"successor": str(olga.pk)}, follow=True)
    assert "Choose the player who takes over." in page_of(response)
    assert holders(demo) == before


def test_removing_a_player_releases_their_departments_and_shuts_them_out(
    demo: Campaign, client_for: ClientFor
) -> None:
    carol = member(demo, "carol")
    attempt = queue_attempt(demo, "carol", "thieves-guild", "city-watch")
    gm = client_for("gm")
    confirm = page_of(gm.get(reverse("member_remove", args=[SLUG, carol.pk])))
    assert "Their departments become uncontrolled (R13)" in confirm
    assert "Their 1 queued order of this turn is cancelled." in confirm
    response = gm.post(reverse("member_remove", args=[SLUG, carol.pk]))
    assert response["Location"] == reverse("players", args=[SLUG])
    after = holders(demo)
    assert after["temple"] == (None, False) and after["customs-house"] == (None, False)
    assert not Structure.objects.filter(player=carol).exists()
    attempt.refresh_from_db()
    assert attempt.status == Order.Status.CANCELLED
    carol.refresh_from_db()
    assert carol.role == Membership.Role.REMOVED
    shut_out = client_for("carol")
    assert shut_out.get(reverse("campaign", args=[SLUG])).status_code == 404
    assert "Tourmaline" not in page_of(shut_out.get(reverse("home")))
    # Invited again, she is back in her old membership (her history stays hers).
    invitation = invitation_create(
        campaign=demo, actor=member(demo, "gm").user, role="player", uses=1, days=1
    )
    back, new = invitation_accept(invitation=invitation, user=carol.user)
    assert back.pk == carol.pk and new and back.role == Membership.Role.PLAYER


def test_the_gm_and_a_removed_member_have_no_member_page(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    assert gm.get(reverse("member_edit", args=[SLUG, member(demo, "gm").pk])).status_code == 404
    bob = member(demo, "bob")
    gm.post(reverse("member_remove", args=[SLUG, bob.pk]))
    assert gm.get(reverse("member_edit", args=[SLUG, bob.pk])).status_code == 404

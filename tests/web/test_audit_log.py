"""The GM's audit log (RULES R53) filtered by who, by days in the campaign's time zone, by
board and by department, at a constant number of queries; and append-only in the database
itself on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Department, Knowledge, Link, Membership
from campaigns.services.audit import audit_record
from campaigns.services.editor import link_shift
from campaigns.services.members import knowledge_set
from tests.factories import BoardFactory, DepartmentFactory, MembershipFactory
from tests.support.editor_cards import card, city, dept_url
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
BERLIN = ZoneInfo("Europe/Berlin")


def targets(client: Any, **filters: str) -> list[str]:
    """The "what" of each entry the log shows under `filters`, newest first."""
    response = client.get(reverse("audit_log", args=[SLUG]), filters)
    assert response.status_code == 200
    return [entry.target for entry in response.context["page"].entries]


def test_the_editors_changes_are_found_by_board_and_by_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    gm_user = get_user_model().objects.get(username="gm")
    mint = city("mint")
    gm.post(dept_url("department_edit", "mint"), card(mint, effect=4))
    link_shift(link=Link.objects.get(supplier=mint, consumer__slug="treasury"), actor=gm_user,
               up=False)  # fmt: skip
    harbour = demo.boards.get(slug="harbour")
    warehouse = Department.objects.get(board=harbour, slug="warehouse")
    alice = Membership.objects.get(campaign=demo, user__username="alice")
    known = Knowledge.objects.filter(player=alice, department=warehouse).first()
    level = 2 if known is None or known.level < 2 else 0  # a level she does not have
    knowledge_set(board=harbour, actor=gm_user, levels={(alice.pk, warehouse.pk): level})
    everything = targets(gm)
    assert everything == [
        "knowledge on The Merchant Harbour",
        "The Mint: funding order",
        "The City of Tourmaline: The Mint",
    ]
    assert targets(gm, board="city") == everything[1:]
    assert targets(gm, board="harbour") == everything[:1]
    assert targets(gm, department="city/mint") == everything[1:]
    # The City Watch is fed after the Treasury, then before it: the funding order names it.
    assert targets(gm, department="city/city-watch") == ["The Mint: funding order"]
    assert targets(gm, department="harbour/warehouse") == everything[:1]
    assert targets(gm, department="city/temple") == []
    assert targets(gm, department="city/mint", action="department") == everything[2:]
    # Before and after name the departments as the GM knows them, never by their slugs.
    page = gm.get(reverse("audit_log", args=[SLUG])).content.decode()
    entries = page.split("<tbody", 1)[1]  # not the department filter's options
    assert "The Treasury, The City Watch" in entries and "The Warehouse" in entries
    for slug in ("city-watch", "warehouse", "treasury,"):
        assert slug not in entries


def test_the_log_is_filtered_by_who_and_by_days_in_the_campaigns_time_zone(
    demo: Campaign, client_for: ClientFor
) -> None:
    users = get_user_model().objects
    gm, deputy = users.get(username="gm"), users.create(username="deputy")
    MembershipFactory(campaign=demo, user=deputy, role=Membership.Role.GM)
    days = {
        # 00:30 in Berlin on the 21st is still the 20th in UTC.
        "late on the 20th": (gm, dt.datetime(2026, 11, 20, 22, 30, tzinfo=dt.UTC)),
        "early on the 21st": (deputy, dt.datetime(2026, 11, 20, 23, 30, tzinfo=dt.UTC)),
        "on the 23rd": (None, dt.datetime(2026, 11, 23, 12, 0, tzinfo=BERLIN)),
    }
    for target, (actor, at) in days.items():
        AuditEntry.objects.create(campaign=demo, actor=actor, at=at, action="settings",
                                  target=target)  # fmt: skip
    client = client_for("gm")
    assert targets(client, actor=str(deputy.pk)) == ["early on the 21st"]
    assert targets(client, actor="0") == ["on the 23rd"]  # a deleted user's
    assert targets(client, until="2026-11-20") == ["late on the 20th"]
    assert targets(client, since="2026-11-21") == ["on the 23rd", "early on the 21st"]
    assert targets(client, since="2026-11-21", until="2026-11-22") == ["early on the 21st"]
    assert targets(client, since="2026-11-21", actor=str(gm.pk)) == []
    page = client.get(reverse("audit_log", args=[SLUG])).content.decode()
    assert f'<option value="{deputy.pk}">deputy</option>' in page


@pytest.mark.parametrize(
    ("filters", "field", "error"),
    [
        ({"since": "yesterday"}, "since", "Enter a valid date."),
        ({"since": "2026-11-22", "until": "2026-11-21"}, "until",
         "The last day comes before the first."),
        ({"until": "9999-12-31"}, "until", "Give a day from the year 2000 to 2999."),
        ({"actor": "abc"}, "actor", "Select a valid choice. abc is not one of the available "
         "choices."),
        ({"department": "moon/x"}, "department", "Select a valid choice. moon/x is not one of "
         "the available choices."),
        ({"board": "moon"}, "board", "Select a valid choice. moon is not one of the available "
         "choices."),
    ],
)  # fmt: skip
def test_a_filter_that_is_not_valid_says_so_and_filters_nothing(
    demo: Campaign, client_for: ClientFor, filters: dict[str, str], field: str, error: str
) -> None:
    audit_record(campaign=demo, actor=None, action="settings", target="kept", before={},
                 after={}, board="city", departments=["mint"])  # fmt: skip
    response = client_for("gm").get(reverse("audit_log", args=[SLUG]), filters)
    assert response.status_code == 200
    assert response.context["form"].errors == {field: [error]}
    assert error in response.content.decode().replace("&#x27;", "'")
    assert [e.target for e in response.context["page"].entries] == ["kept"]


def test_the_next_page_keeps_the_filters(demo: Campaign, client_for: ClientFor) -> None:
    for n in range(60):
        audit_record(campaign=demo, actor=None, action="board", target=f"city {n}", before={},
                     after={}, board="city")  # fmt: skip
    audit_record(campaign=demo, actor=None, action="board", target="harbour", before={},
                 after={}, board="harbour")  # fmt: skip
    response = client_for("gm").get(reverse("audit_log", args=[SLUG]), {"board": "city"})
    assert "?board=city&amp;page=2" in response.content.decode()
    second = client_for("gm").get(reverse("audit_log", args=[SLUG]), {"board": "city", "page": 2})
    assert [e.target for e in second.context["page"].entries] == [
        f"city {n}" for n in range(9, -1, -1)
    ]


def many_changes(campaign: Campaign, n: int) -> None:
    """`n` entries by `n` GMs on a new board of `n` departments (the filters list them all)."""
    board = BoardFactory(campaign=campaign, slug=f"board-{n}", name=f"Board {n}")
    for i in range(n):
        DepartmentFactory(board=board, slug=f"d{i}")
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"gm-{n}-{i}") for i in range(n)
    )
    AuditEntry.objects.bulk_create(
        AuditEntry(campaign=campaign, actor=user, action="department", target=f"d{i}",
                   board=board.slug, departments=f" d{i} ")
        for i, user in enumerate(users)
    )  # fmt: skip


@pytest.mark.parametrize(
    "filters",
    [{}, {"board": "city", "since": "2026-01-01", "until": "2026-12-31"},
     {"department": "city/mint", "actor": "0", "action": "department"}],
    ids=["unfiltered", "board-and-days", "department-who-what"],
)  # fmt: skip
def test_the_audit_log_costs_the_same_queries_however_long_and_wide(
    demo: Campaign, client_for: ClientFor, filters: dict[str, str]
) -> None:
    gm, url = client_for("gm"), reverse("audit_log", args=[SLUG])
    many_changes(demo, 3)
    gm.get(url, filters)  # warm the session
    with CaptureQueriesContext(connection) as few:
        assert gm.get(url, filters).status_code == 200
    many_changes(demo, 120)
    with CaptureQueriesContext(connection) as many:
        assert gm.get(url, filters).status_code == 200
    assert len(many) == len(few), [q["sql"][:80] for q in many.captured_queries]


def test_on_postgresql_the_database_itself_refuses_to_change_an_entry(
    postgres: None, demo: Campaign
) -> None:
    """Migration 0011's trigger: a queryset's update() and raw SQL, which never ask
    AuditEntry.save, are refused too (R53)."""
    entry = audit_record(campaign=demo, actor=None, action="settings", target="as it was",
                         before={"n": 1}, after={"n": 2})  # fmt: skip
    attempts = [
        lambda: AuditEntry.objects.filter(pk=entry.pk).update(target="rewritten"),
        lambda: connection.cursor().execute(
            "UPDATE campaigns_auditentry SET after = '{}' WHERE id = %s", [entry.pk]
        ),
    ]
    for attempt in attempts:
        with pytest.raises(DatabaseError, match=r"append-only \(R53\)"), transaction.atomic():
            attempt()
    entry.refresh_from_db()
    assert (entry.target, entry.after) == ("as it was", {"n": 2})
    AuditEntry.objects.create(campaign=demo, action="settings", target="a new one")  # inserts do
    # The one change allowed: the actor's user is deleted (the log says "(deleted user)").
    deputy = get_user_model().objects.create(username="deputy")
    kept = audit_record(campaign=demo, actor=deputy, action="settings", target="by the deputy",
                        before={}, after={"n": 3})  # fmt: skip
    deputy.delete()
    kept.refresh_from_db()
    assert (kept.actor, kept.target, kept.after) == (None, "by the deputy", {"n": 3})
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEntry.objects.filter(pk=kept.pk).update(actor=None, target="and rewritten")

"""The GM's set-up pages: a new campaign (anyone logged in, who becomes its GM), its settings,
its alignment catalogue (RULES R5), and the audit log of every change (R53). Each refusal
is checked with the words the GM sees, and that it changed nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Alignment, AuditEntry, Campaign, Membership, Profile
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

SLUG = "tourmaline"
NEW = {
    "name": "The Iron Bureau",
    "time_zone": "America/New_York",
    "deadline_weekday": "4",
    "deadline_time": "20:30",
    "max_out_links": "2",
    "max_in_links": "2",
    "attempts_per_turn": "1",
    "attempt_cutoff_hours": "24",
    "reminder_hours": "12",
    "min_turn_hours": "72",
}


def settings_of(campaign: Campaign, **changes: Any) -> dict[str, Any]:
    """The settings form's data as the campaign stands, with `changes`."""
    data = {
        key: str(getattr(campaign, key))
        for key in NEW
        if key not in ("deadline_time", "deadline_weekday")
    }
    data["deadline_weekday"] = str(campaign.deadline_weekday)
    data["deadline_time"] = campaign.deadline_time.strftime("%H:%M")
    if campaign.early_processing:
        data["early_processing"] = "on"
    return {**data, **{k: str(v) for k, v in changes.items()}}


def errors_of(response: Any) -> str:
    return response.content.decode()


def dave() -> Client:
    user = get_user_model().objects.create_user("dave", "dave@example.com", "x")
    client = Client()
    client.force_login(user)
    return client


# --- a new campaign ---------------------------------------------------------------------------


def test_anyone_logged_in_creates_a_campaign_and_becomes_its_gm() -> None:
    client = dave()
    response = client.post(reverse("campaign_new"), NEW)
    campaign = Campaign.objects.get(name="The Iron Bureau")
    assert response.status_code == 302 and response["Location"] == campaign.get_absolute_url()
    assert (campaign.slug, campaign.status, campaign.time_zone) == (
        "the-iron-bureau",
        Campaign.Status.DRAFT,
        "America/New_York",
    )
    assert (
        campaign.deadline_time.hour,
        campaign.deadline_time.minute,
        campaign.reminder_hours,
    ) == (
        20,
        30,
        12,
    )
    (gm,) = campaign.memberships.all()
    assert (gm.user.username, gm.role) == ("dave", Membership.Role.GM)
    # R5: the card game's ten, as four pairs, Criminal and Fanatic.
    catalogue = {a.name: (a.opposite, a.self_opposed) for a in campaign.alignments.all()}
    assert catalogue == {
        "Government": ("Communist", False),
        "Liberal": ("Conservative", False),
        "Peaceful": ("Violent", False),
        "Straight": ("Weird", False),
        "Criminal": ("", False),
        "Fanatic": ("", True),
    }
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "is created, and you are its GM" in page
    assert reverse("campaign_settings", args=[campaign.slug]) in page


def test_a_new_campaign_starts_in_the_gms_own_time_zone() -> None:
    """The profile's zone when it names one; else the page marks the field for the browser's
    zone (static/campaigns/zone_default.js; the browser test sees it filled)."""
    client = dave()
    page = client.get(reverse("campaign_new")).content.decode()
    assert "data-browser-zone" in page
    Profile.objects.filter(user__username="dave").update(time_zone="Asia/Tokyo")
    page = client.get(reverse("campaign_new")).content.decode()
    assert 'value="Asia/Tokyo"' in page and "data-browser-zone" not in page


def test_a_second_campaign_of_the_same_name_gets_its_own_address() -> None:
    client = dave()
    client.post(reverse("campaign_new"), NEW)
    client.post(reverse("campaign_new"), NEW)
    assert sorted(Campaign.objects.values_list("slug", flat=True)) == [
        "the-iron-bureau",
        "the-iron-bureau-2",
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_zone", "Mars/Olympus", "is not a time zone this site knows"),
        ("name", "", "This field is required."),
        ("max_out_links", "0", "greater than or equal to 1"),
        ("attempts_per_turn", "11", "less than or equal to 10"),
        ("deadline_time", "25:00", "Enter a valid time."),
    ],
)
def test_bad_settings_are_refused_with_a_message_and_create_nothing(
    field: str, value: str, message: str
) -> None:
    response = dave().post(reverse("campaign_new"), {**NEW, field: value})
    assert response.status_code == 200
    assert message in errors_of(response)
    assert not Campaign.objects.exists()


def test_the_new_campaign_page_needs_a_login() -> None:
    response = Client().get(reverse("campaign_new"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- settings ---------------------------------------------------------------------------------


def test_the_gm_changes_settings_and_the_change_is_in_the_audit_log(
    demo: Campaign, client_for: ClientFor
) -> None:
    url, gm = reverse("campaign_settings", args=[SLUG]), client_for("gm")
    response = gm.post(url, settings_of(demo, reminder_hours=6, name="Tourmaline II"))
    assert response.status_code == 302
    demo.refresh_from_db()
    assert (demo.name, demo.reminder_hours) == ("Tourmaline II", 6)
    (entry,) = AuditEntry.objects.filter(campaign=demo)
    assert (entry.actor.username, entry.action, entry.target) == (
        "gm",
        "settings",
        "campaign settings",
    )
    assert entry.before == {"name": "Tourmaline", "reminder_hours": 24}
    assert entry.after == {"name": "Tourmaline II", "reminder_hours": 6}
    page = gm.get(url).content.decode()
    assert "Saved: Name, Reminder, hours before the deadline." in page


def test_saving_unchanged_settings_logs_nothing(demo: Campaign, client_for: ClientFor) -> None:
    response = client_for("gm").post(
        reverse("campaign_settings", args=[SLUG]), settings_of(demo), follow=True
    )
    assert "Nothing was changed." in response.content.decode()
    assert not AuditEntry.objects.exists()


def test_r30_the_gm_sets_the_minimum_turn_length(demo: Campaign, client_for: ClientFor) -> None:
    """Issue 25: the minimum turn length after an early processing is the GM's setting
    (hours, default 72), shown on the settings page and kept in the audit log."""
    url, gm = reverse("campaign_settings", args=[SLUG]), client_for("gm")
    page = gm.get(url).content.decode()
    assert 'name="min_turn_hours" value="72" min="1" max="168"' in page
    assert gm.post(url, settings_of(demo, min_turn_hours=48)).status_code == 302
    demo.refresh_from_db()
    assert demo.min_turn_hours == 48
    (entry,) = AuditEntry.objects.filter(campaign=demo)
    assert (entry.before, entry.after) == ({"min_turn_hours": 72}, {"min_turn_hours": 48})
    assert "Saved: Minimum turn length, hours." in gm.get(url).content.decode()


RANGE = "The minimum turn length is a whole number of hours from 1 to 168 (a week)"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", f"{RANGE}; 0 is not."),
        ("169", f"{RANGE}; 169 is not."),
        ("-5", f"{RANGE}; -5 is not."),
        ("100000", f"{RANGE}; 100000 is not."),
        ("three days", "Enter a whole number."),
        ("", "This field is required."),
    ],
)
def test_r30_a_bad_minimum_turn_length_is_refused_with_one_clear_message(
    demo: Campaign, client_for: ClientFor, value: str, message: str
) -> None:
    response = client_for("gm").post(
        reverse("campaign_settings", args=[SLUG]), settings_of(demo, min_turn_hours=value)
    )
    assert response.status_code == 200
    errors = [str(e) for e in response.context["form"].errors["min_turn_hours"]]
    assert errors == [message]
    assert message.replace("'", "&#x27;") in errors_of(response)
    demo.refresh_from_db()
    assert demo.min_turn_hours == 72
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("name", ["campaign_settings", "campaign_alignments", "audit_log"])
def test_only_the_gm_reaches_the_set_up_pages(
    demo: Campaign, client_for: ClientFor, name: str
) -> None:
    url = reverse(name, args=[SLUG])
    assert client_for("gm").get(url).status_code == 200
    assert client_for("alice").get(url).status_code == 403
    post = client_for("alice").post(url, settings_of(demo, name="Mine"))
    assert post.status_code == (405 if name == "audit_log" else 403)
    assert dave().get(url).status_code == 404
    assert Client().get(url).status_code == 302
    demo.refresh_from_db()
    assert demo.name == "Tourmaline" and not AuditEntry.objects.exists()


# --- the alignment catalogue (R5) ---------------------------------------------------------------


def catalogue_post(lines: list[tuple[str, str, bool]], delete: int | None = None) -> dict[str, str]:
    data = {
        "alignments-TOTAL_FORMS": str(len(lines)),
        "alignments-INITIAL_FORMS": "0",
        "alignments-MIN_NUM_FORMS": "0",
        "alignments-MAX_NUM_FORMS": "1000",
    }
    for i, (name, opposite, self_opposed) in enumerate(lines):
        data[f"alignments-{i}-name"] = name
        data[f"alignments-{i}-opposite"] = opposite
        if self_opposed:
            data[f"alignments-{i}-self_opposed"] = "on"
        if i == delete:
            data[f"alignments-{i}-DELETE"] = "on"
    return data


def current_lines(campaign: Campaign) -> list[tuple[str, str, bool]]:
    return [(a.name, a.opposite, a.self_opposed) for a in campaign.alignments.order_by("pk")]


def test_the_gm_adds_an_alignment_pair_and_the_audit_log_has_before_and_after(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = current_lines(demo)
    lines = [*before, ("Nautical", "Landlocked", False)]
    url = reverse("campaign_alignments", args=[SLUG])
    response = client_for("gm").post(url, catalogue_post(lines))
    assert response.status_code == 302
    assert current_lines(demo) == lines
    (entry,) = AuditEntry.objects.filter(action="alignments")
    assert len(entry.before["alignments"]) == len(before)
    assert entry.after["alignments"][-1] == {"name": "Nautical", "opposite": "Landlocked"}


def test_removing_an_alignment_a_department_holds_is_refused_naming_it(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = current_lines(demo)
    criminal = [line[0] for line in before].index("Criminal")
    url = reverse("campaign_alignments", args=[SLUG])
    response = client_for("gm").post(url, catalogue_post(before, delete=criminal))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was saved" in page
    assert "The City of Tourmaline: Department The Rebel Cell: unknown alignment" in page
    assert "The Merchant Harbour: Department The Sailors" in page
    assert current_lines(demo) == before and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (("Zealot", "Heretic", True), "An alignment opposed to itself has no other opposite"),
        (("Zealot", "zealot", False), "Zealot cannot be its own opposite"),
        (("Criminal", "", False), "Criminal is in the catalogue twice."),
        (("Lawful", "Government", False), "Government is in the catalogue twice."),
    ],
)
def test_a_catalogue_that_breaks_r5_is_refused_with_its_reason(
    demo: Campaign, client_for: ClientFor, line: tuple[str, str, bool], message: str
) -> None:
    before = current_lines(demo)
    url = reverse("campaign_alignments", args=[SLUG])
    response = client_for("gm").post(url, catalogue_post([*before, line]))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert current_lines(demo) == before and not AuditEntry.objects.exists()


def test_an_empty_catalogue_is_refused(demo: Campaign, client_for: ClientFor) -> None:
    before = current_lines(demo)
    empty = catalogue_post([(name, opp, so) for name, opp, so in before])
    for i in range(len(before)):
        empty[f"alignments-{i}-DELETE"] = "on"
    response = client_for("gm").post(reverse("campaign_alignments", args=[SLUG]), empty)
    assert "Keep at least one alignment" in response.content.decode()
    assert current_lines(demo) == before


# --- the audit log (R53) ----------------------------------------------------------------------


def log_entries(campaign: Campaign, n: int, action: str = "settings") -> None:
    gm = campaign.memberships.get(role=Membership.Role.GM).user
    AuditEntry.objects.bulk_create(
        AuditEntry(
            campaign=campaign,
            actor=gm,
            action=action,
            target=f"change {i}",
            before={"n": i},
            after={"n": i + 1},
        )
        for i in range(n)
    )


def test_the_audit_log_filters_by_action_and_pages(demo: Campaign, client_for: ClientFor) -> None:
    log_entries(demo, 60)
    log_entries(demo, 2, action="alignments")
    gm, url = client_for("gm"), reverse("audit_log", args=[SLUG])
    first = gm.get(url).content.decode()
    assert "Page 1 of 2" in first and "Older" in first
    assert "Settings: change 59" in first and "Settings: change 9<" not in first  # newest first
    only = gm.get(url, {"action": "alignments"}).content.decode()
    assert only.count("Alignment catalogue: change") == 2
    assert "Settings: change" not in only
    # A filter that is not an action shows everything rather than failing.
    assert gm.get(url, {"action": "nonsense", "page": "x"}).status_code == 200


def test_the_audit_log_page_costs_the_same_queries_however_long_the_log(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, url = client_for("gm"), reverse("audit_log", args=[SLUG])
    log_entries(demo, 3)
    gm.get(url)  # warm the session and caches
    with CaptureQueriesContext(connection) as few:
        assert gm.get(url).status_code == 200
    log_entries(demo, 120)
    with CaptureQueriesContext(connection) as many:
        assert gm.get(url).status_code == 200
    assert len(many) == len(few)


def test_audit_entries_cannot_be_changed_or_deleted(demo: Campaign) -> None:
    entry = AuditEntry.objects.create(campaign=demo, action="settings", target="x")
    entry.target = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()
    assert AuditEntry.objects.get().target == "x"


def test_alignment_rows_of_a_new_campaign_follow_the_engines_default() -> None:
    from campaigns.engine.board import DEFAULT_ALIGNMENTS

    dave().post(reverse("campaign_new"), NEW)
    assert [a.as_engine() for a in Alignment.objects.order_by("pk")] == DEFAULT_ALIGNMENTS

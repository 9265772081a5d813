"""Anyone may make an account (to start a campaign as its GM, or before an invitation), a
limited number per address; the page sends them on only to a page of this site."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.services.players import invitation_create

pytestmark = pytest.mark.django_db
URL = reverse("signup")


def form(username: str, **extra: str) -> dict[str, str]:
    password = "a-long-pass-phrase-9"
    fields = {"username": username, "email": f"{username}@example.org"}
    return {**fields, "password1": password, "password2": password, **extra}


def test_a_new_person_makes_an_account_and_is_logged_in() -> None:
    client = Client()
    response = client.post(URL, form("nadia"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert response.context["user"].get_username() == "nadia"
    assert "New campaign" in response.content.decode()
    assert get_user_model().objects.get(username="nadia").email == "nadia@example.org"


def test_a_new_account_is_welcomed_not_welcomed_back() -> None:
    client = Client()
    page = client.post(URL, form("nadia"), follow=True).content.decode()
    assert "Welcome to Illumineaucracy, nadia: your account is ready." in page
    assert "Welcome back" not in page
    assert "Welcome back, nadia." in client.get(reverse("home")).content.decode()


def test_mistakes_are_shown_and_nothing_is_made() -> None:
    response = Client().post(URL, form("nadia", password2="something-else"))
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.content.decode()
    assert not get_user_model().objects.filter(username="nadia").exists()


def test_it_goes_on_to_a_page_of_this_site_only() -> None:
    client = Client()
    response = client.post(URL, form("nadia", next="/rules/"))
    assert response["Location"] == "/rules/"
    response = Client().post(URL, form("omar", next="https://evil.example/"))
    assert response["Location"] == reverse("home")


@override_settings(LOGIN_FAILURE_LIMIT=2)
def test_an_address_makes_a_limited_number_of_accounts() -> None:
    cache.clear()
    for name in ("a1", "a2"):
        assert Client().post(URL, form(name)).status_code == 302
    response = Client().post(URL, form("a3"))
    assert response.status_code == 429
    assert "Too many new accounts from your address" in response.content.decode()
    assert not get_user_model().objects.filter(username="a3").exists()


@pytest.mark.parametrize("ways", ["PPPPPL", "LLLLLP", "LLLLLL", "PLPLPL", "LPLPLP"])
def test_every_way_of_making_an_account_counts_in_one_limit(demo: Campaign, ways: str) -> None:
    """P: the sign-up page, L: an invitation link with places to spare (50). Five accounts
    from one address, however they came; the sixth is refused the same way and not made."""
    cache.clear()
    gm = demo.memberships.get(role=Membership.Role.GM).user
    link = invitation_create(campaign=demo, actor=gm, role="player", uses=50, days=7)
    urls = {"P": URL, "L": link.get_absolute_url()}
    for n, way in enumerate(ways[:-1]):
        assert Client().post(urls[way], form(f"made{n}")).status_code == 302
    response = Client().post(urls[ways[-1]], form("sixth"))
    assert response.status_code == 429
    assert "Too many new accounts from your address" in response.content.decode()
    assert not get_user_model().objects.filter(username="sixth").exists()
    link.refresh_from_db()
    assert link.used == ways[:-1].count("L")
    assert Membership.objects.filter(campaign=demo).count() == 4 + link.used


@pytest.mark.parametrize("through", ["sign-up page", "invitation link"])
def test_a_user_name_taken_between_the_check_and_the_save_is_the_forms_error(
    demo: Campaign, through: str
) -> None:
    """Two people sign up as "anna" at once: both forms find the name free, and the database's
    unique constraint refuses the second insert. Here the other person's row is written just
    before ours (a pre_save receiver, on the real database); that was a server error."""
    from django.db.models.signals import pre_save

    gm = demo.memberships.get(role=Membership.Role.GM).user
    link = invitation_create(campaign=demo, actor=gm, role="player", uses=5, days=7)
    url = URL if through == "sign-up page" else link.get_absolute_url()
    model = get_user_model()

    def someone_else_first(sender: type, instance: object, **kwargs: object) -> None:
        if getattr(instance, "username", "") == "anna" and instance.pk is None:  # type: ignore[attr-defined]
            pre_save.disconnect(someone_else_first, sender=model)
            model.objects.create_user("anna", "other@example.org")

    pre_save.connect(someone_else_first, sender=model)
    try:
        response = Client().post(url, form("anna"))
    finally:
        pre_save.disconnect(someone_else_first, sender=model)

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    # (The other row was written inside our own savepoint here, so it went with it.)
    assert not model.objects.filter(email="anna@example.org").exists()
    assert Membership.objects.filter(campaign=demo, user__username="anna").count() == 0
    if through == "invitation link":
        link.refresh_from_db()
        assert link.used == 0

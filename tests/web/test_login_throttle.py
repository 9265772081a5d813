"""Log-in throttling (django-axes) and password-reset mail throttling.

Five wrong passwords for one username from one address lock that pair out for 15 minutes:
even the right password is refused, with a plain page in the site's style, never a 500.
Other users, and the same user from another address, are not affected.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
LOCKED = "Too many failed log-ins for this account from your address. Try again in 15 minutes."
THROTTLED = "Too many password-reset requests from your address. Try again in 15 minutes."


@pytest.fixture(autouse=True)
def fresh_counts() -> None:
    """The reset throttle counts in the cache, which outlives a test's database."""
    cache.clear()


@pytest.fixture
def users() -> None:
    User.objects.create_user("alice", "alice@example.com", PASSWORD)
    User.objects.create_user("bob", "bob@example.com", PASSWORD)


def log_in(client: Client, username: str, password: str, ip: str = "203.0.113.7") -> object:
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_five_wrong_passwords_lock_the_account_at_this_address(users: None) -> None:
    client = Client()
    for _ in range(5):
        log_in(client, "alice", "wrong")

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert b"navbar" in response.content  # the site's own page, not a bare text


def test_four_wrong_passwords_still_let_the_right_one_in(users: None) -> None:
    client = Client()
    for _ in range(4):
        log_in(client, "alice", "wrong")

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="alice").pk)


def test_another_user_and_another_address_are_unaffected(users: None) -> None:
    for _ in range(6):
        log_in(Client(), "alice", "wrong")

    bob = Client()
    assert log_in(bob, "bob", PASSWORD).status_code == 302
    assert "_auth_user_id" in bob.session
    elsewhere = Client()
    assert log_in(elsewhere, "alice", PASSWORD, ip="198.51.100.9").status_code == 302
    assert "_auth_user_id" in elsewhere.session


def reset(client: Client, email: str, ip: str = "203.0.113.7") -> object:
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def test_password_reset_sends_one_mail_per_address_per_window(users: None) -> None:
    client = Client()
    first = reset(client, "alice@example.com")
    second = reset(client, "alice@example.com", ip="198.51.100.9")

    # Both look the same (no hint whether the address has an account or was throttled).
    assert first.status_code == second.status_code == 302
    assert len(mail.outbox) == 1
    assert reset(client, "bob@example.com").status_code == 302
    assert len(mail.outbox) == 2


def test_password_reset_requests_are_limited_per_address(users: None) -> None:
    client = Client()
    for n in range(5):
        assert reset(client, f"nobody{n}@example.com").status_code == 302

    response = reset(client, "bob@example.com")

    assert response.status_code == 429
    assert THROTTLED in response.content.decode()
    assert mail.outbox == []
    assert reset(client, "bob@example.com", ip="198.51.100.9").status_code == 302
    assert len(mail.outbox) == 1

"""The skeleton's pages: home, log in, log out."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_invites_a_visitor_to_log_in(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Illumineaucracy" in response.content
    assert b'name="viewport"' in response.content
    assert reverse("login").encode() in response.content


@pytest.mark.django_db
def test_it_serves_the_vendored_bootstrap(client: Client) -> None:
    response = client.get("/static/vendor/bootstrap/bootstrap.min.css")
    assert response.status_code == 200


@pytest.mark.django_db
def test_alice_logs_in_and_out(client: Client) -> None:
    User.objects.create_user("alice", password="correct horse")

    response = client.post(
        reverse("login"), {"username": "alice", "password": "correct horse"}, follow=True
    )
    assert response.context["user"].get_username() == "alice"
    assert b"Welcome back, alice" in response.content

    response = client.post(reverse("logout"), follow=True)
    assert not response.context["user"].is_authenticated


@pytest.mark.django_db
def test_login_page_renders_the_form_with_crispy(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response.status_code == 200
    # crispy wraps each field in a div named after it; plain {{ form }} does not.
    assert b'id="div_id_username"' in response.content

"""Fixtures for the page tests: the demo campaign, logged-in clients, the hand-made board."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaigns.models import Campaign
from campaigns.services.demo import demo_create
from tests.web.handmade import ClientFor, HandBoard, hand_board_create


@pytest.fixture
def demo(db: None) -> Campaign:
    """Tourmaline (services.demo): gm, alice, bob, carol; turn 1 open."""
    return demo_create()


@pytest.fixture
def client_for(db: None) -> ClientFor:
    """A test client logged in as the named user."""

    def make(username: str) -> Client:
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        return client

    return make


@pytest.fixture
def hand_board(db: None) -> HandBoard:
    """Campaign "hand", board "hand-board": see tests/web/handmade.py."""
    return hand_board_create()

"""Posting orders through the order pages in tests: the new-order URL of a kind, the choices a
field of its form offers, and a POST of the form (tests/web/test_deal_orders.py and the tests of
other order kinds that post the same way)."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

SLUG = "tourmaline"  # the demo campaign


def new_url(kind: str, board: str = "city") -> str:
    return reverse("order_new", args=[SLUG, board, kind])


def choices(client: Client, kind: str, field: str, board: str = "city") -> dict[str, str]:
    response = client.get(new_url(kind, board))
    assert response.status_code == 200
    return {str(v): str(label) for v, label in response.context["form"].fields[field].choices}


def post(client: Client, kind: str, data: dict[str, Any], board: str = "city") -> Any:
    form = client.get(new_url(kind, board)).context["form"]
    body = {"client_token": form.fields["client_token"].initial, **data}
    return client.post(new_url(kind, board), body)

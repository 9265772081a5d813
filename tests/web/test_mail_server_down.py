"""After-commit mail is robust: a mail server that is down is logged, never a 500."""

from typing import Any

import pytest
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from campaigns.models import Notice, Order


class DownMailServer(BaseEmailBackend):
    """An SMTP server that is down; counts the attempts."""

    attempts = 0

    def send_messages(self, email_messages: Any) -> int:
        DownMailServer.attempts += 1
        raise ConnectionRefusedError("mail server down")


@pytest.mark.django_db(transaction=True)
def test_a_mail_server_that_is_down_does_not_lose_the_order_nor_show_a_500(
    demo: Any, client_for: Any, settings: Any
) -> None:
    """The attack notice's mail goes after commit; if it fails, the order is stored, the
    defender's notice is in the app, and the attacker gets the usual redirect. Real
    transactions, so the mail is tried inside the request, as in production."""
    settings.EMAIL_BACKEND = f"{__name__}.DownMailServer"
    DownMailServer.attempts = 0
    url = reverse("order_new", args=["tourmaline", "city", "attempt"])
    response = client_for("alice").post(url, {"attacker": "city-watch", "target": "guild-hall"})
    assert response.status_code == 302
    assert DownMailServer.attempts == 1  # tried after commit, against the server that is down
    assert Order.objects.filter(kind=Order.Kind.ATTEMPT, player__user__username="alice").exists()
    assert Notice.objects.filter(player__user__username="bob").count() == 1

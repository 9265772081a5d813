"""Verify the dice (RULES R23): the page says exactly what the commitment hashes (the seed's
64-character hex text, not its bytes) and gives a command that reproduces it."""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import pytest
from django.urls import reverse

from tests.support.demo import Played
from tests.support.handmade import ClientFor


def test_the_page_says_what_is_hashed_and_its_command_gives_the_commitment(
    played: Played, client_for: ClientFor
) -> None:
    page = client_for("alice").get(reverse("verify_dice", args=[played.campaign.slug, 1]))
    content = html.unescape(page.content.decode())

    assert "SHA-256 of the seed's 64-character lowercase hex <em>text</em>" in content
    assert "not of the 32 bytes it encodes" in content
    found = re.search(r"<code data-commitment-command>([^<]*)</code>", content)
    assert found is not None
    command = found.group(1)
    assert command == f"printf %s {played.turn.seed} | sha256sum"

    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum on this machine to run the page's command")
    result = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=10, check=True
    )
    assert result.stdout.split()[0] == played.turn.commitment

"""The board import's words: a problem names its line and department and says what to do
(an alignment the campaign lacks lists the ones it has; a structure that is not a player
says to invite one), a department without Impress or Obstruct is a warning the GM confirms
before anything is saved, and the chosen file's text stays in the form after either, so
the GM need not choose it again (without JavaScript)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Board, Campaign
from tests.support.board_files import fresh_campaign
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

HEADER = "slug,name,effect,obstruct,impress,consumes,produces,alignments,structure,home,supplies\n"
MINT = "mint,The Mint,1,1,1,,money 2,Government,alice,yes,vault\n"
VAULT = "vault,The Vault,1,1,1,money 1,,Criminal,alice,no,\n"


def post(client: Any, campaign: Campaign, **fields: Any) -> Any:
    """The import form posted with `fields`; `upload=(name, text)` chooses a file."""
    if "upload" in fields:
        filename, text = fields.pop("upload")
        fields["file"] = SimpleUploadedFile(filename, text.encode())
    return client.post(reverse("board_import", args=[campaign.slug]), fields)


def said(response: Any) -> str:
    """The page's text as the GM reads it: tags out (a rule id is a link), entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def kept_text(response: Any) -> str:
    """What the page's text area holds."""
    page = response.content.decode()
    found = re.search(r'<textarea name="text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found.group(1)).lstrip("\n")


def test_an_unknown_alignment_lists_the_campaigns_alignments_for_every_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    copy = fresh_campaign()
    text = HEADER + MINT.replace("Government", "Purple") + VAULT.replace("Criminal", "Mauve")
    response = post(client_for("gm"), copy, upload=("b.csv", text), name="B", slug="b")
    page = said(response)
    known = "Government, Communist, Liberal, Conservative, Peaceful, Violent, Straight, Weird, "
    known += "Criminal, Fanatic"
    assert (
        f"line 2, department mint: unknown alignment 'Purple'; this campaign's alignments are "
        f"{known} (R5). Add it to the campaign's alignments first, or change the file." in page
    )
    assert "line 3, department vault: unknown alignment 'Mauve'" in page
    assert not Board.objects.filter(campaign=copy).exists()


def test_a_structure_that_is_not_a_player_says_to_invite_one(
    demo: Campaign, client_for: ClientFor
) -> None:
    copy = fresh_campaign()
    text = HEADER + MINT + VAULT.replace("alice", "pia")
    page = said(post(client_for("gm"), copy, upload=("b.csv", text), name="B", slug="b"))
    assert (
        "line 3, department vault: structure 'pia' is not a player of this campaign (its "
        "players: alice, bob, carol). Invite 'pia' as a player first, or leave the structure "
        "empty for a department no one holds (R13)." in page
    )


def test_a_json_files_problems_name_their_line(demo: Campaign, client_for: ClientFor) -> None:
    board = {
        "slug": "b",
        "name": "B",
        "departments": [
            {"slug": "mint", "name": "The Mint", "effect": 1, "obstruct": 1, "impress": 1},
            {"slug": "vault", "name": "The Vault", "effect": 1, "obstruct": 1, "impress": 1,
             "structure": "pia"},
        ],
        "links": [{"from": "mint", "to": "vault"}],
    }  # fmt: skip
    text = json.dumps(board, indent=2)
    vault_line = text.splitlines().index("    {", 10) + 1  # the second department's "{"
    assert text.splitlines()[vault_line] == '      "slug": "vault",'
    page = said(post(client_for("gm"), fresh_campaign(), upload=("b.json", text)))
    assert f"line {vault_line}, department vault: structure 'pia' is not a player" in page
    link_line = text.splitlines().index('  "links": [') + 2
    assert f"line {link_line}, link mint->vault: mint does not produce" in page


def test_the_chosen_file_stays_in_the_form_after_a_problem_and_imports_from_there(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, copy = client_for("gm"), fresh_campaign()
    text = HEADER + MINT + VAULT
    # A CSV file needs the board's name and address: the GM forgot them.
    first = post(gm, copy, upload=("b.csv", text))
    assert "A CSV file has no board name or address" in said(first)
    assert kept_text(first) == text
    # Not chosen again: the text from the form, with the name and address now.
    second = post(gm, copy, text=kept_text(first), name="Vaults", slug="vaults")
    assert second.status_code == 302
    assert copy.boards.get().departments.count() == 2


def test_a_problem_in_the_file_keeps_its_text_to_correct_in_the_form(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, copy = client_for("gm"), fresh_campaign()
    text = HEADER + MINT + VAULT.replace("alice", "pia")
    first = post(gm, copy, upload=("b.csv", text), name="B", slug="b")
    assert "structure 'pia'" in said(first) and kept_text(first) == text
    fixed = kept_text(first).replace("pia", "alice")
    assert post(gm, copy, text=fixed, name="B", slug="b").status_code == 302


def test_a_department_without_impress_or_obstruct_is_a_warning_the_gm_confirms(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, copy = client_for("gm"), fresh_campaign()
    text = HEADER + MINT + VAULT.replace("vault,The Vault,1,1,1", "vault,The Vault,1,0,0")
    first = post(gm, copy, upload=("b.csv", text), name="B", slug="b")
    page = said(first)
    assert first.status_code == 200 and not copy.boards.exists()
    assert (
        "line 3, department vault: Impress 0. Its linking attempts roll only the dice its "
        "tokens buy, so without tokens it cannot link (R20, R21, R43)." in page
    )
    assert "line 3, department vault: Obstruct 0. Against an attempt it rolls only" in page
    assert "department mint" not in page
    assert kept_text(first) == text
    # A confirmation of another text is no confirmation of this one: warned again.
    other = text.replace("The Mint", "The Royal Mint")
    again = post(gm, copy, text=other, name="B", slug="b", confirmed=first.context["confirm"])
    assert again.status_code == 200 and again.context["warnings"]
    done = post(gm, copy, text=text, name="B", slug="b", confirmed=first.context["confirm"])
    assert done.status_code == 302
    assert copy.boards.get().departments.get(slug="vault").impress == 0


def test_nothing_chosen_nor_pasted_is_asked_for(demo: Campaign, client_for: ClientFor) -> None:
    response = post(client_for("gm"), fresh_campaign(), text="  ")
    assert "Choose a board file, or paste its text below." in said(response)


def test_a_confirmation_posted_back_with_crlf_line_ends_imports_at_the_first_press(
    demo: Campaign, client_for: ClientFor
) -> None:
    """A browser posts the kept text's textarea with CRLF line ends although the file had LF:
    the GM's one press of *Import it as it is* must import (the walk-through needed two)."""
    gm, copy = client_for("gm"), fresh_campaign()
    text = HEADER + MINT + VAULT.replace("vault,The Vault,1,1,1", "vault,The Vault,1,0,0")
    assert "\r" not in text
    first = post(gm, copy, upload=("b.csv", text), name="B", slug="b")
    assert first.status_code == 200 and first.context["warnings"]
    posted_back = kept_text(first).replace("\n", "\r\n")
    done = post(gm, copy, text=posted_back, name="B", slug="b", confirmed=first.context["confirm"])
    assert done.status_code == 302
    assert copy.boards.get().departments.get(slug="vault").impress == 0

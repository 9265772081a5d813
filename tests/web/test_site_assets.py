"""The site's icon and its own stylesheet: browsers ask for /favicon.ico whatever a page
links, and the Content-Security-Policy allows no inline style, so no template may carry a
style="" attribute (its look would silently be lost)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from tests.support.handmade import ClientFor

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INLINE_STYLE = re.compile(r"\sstyle\s*=", re.IGNORECASE)


def test_no_template_has_an_inline_style() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if INLINE_STYLE.search(line)
    ]
    assert found == [], "style= is blocked by the CSP: use a class of campaigns/site.css"


def test_the_icon_is_a_static_svg() -> None:
    path = finders.find("favicon.svg")
    assert path is not None
    assert Path(path).read_text().lstrip().startswith("<svg")


@pytest.mark.django_db
def test_favicon_ico_redirects_to_the_icon_and_every_page_links_it() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (302, static("favicon.svg"))
    assert client.get(response["Location"]).status_code == 200
    page = client.get(reverse("home")).content.decode()
    assert f'<link rel="icon" href="{static("favicon.svg")}"' in page
    assert static("campaigns/site.css") in page


def test_the_alignments_page_sizes_its_fields_by_class(
    demo: Campaign, client_for: ClientFor
) -> None:
    page = client_for("gm").get(reverse("campaign_alignments", args=[demo.slug]))
    assert 'class="form-control alignment-field"' in page.content.decode()
    assert not INLINE_STYLE.search(page.content.decode())
    stylesheet = finders.find("campaigns/site.css")
    assert stylesheet is not None
    assert ".alignment-field {" in Path(stylesheet).read_text()

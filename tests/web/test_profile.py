"""The profile page (display name, time zone, language, the mail settings) and the site's
language: the profile's, else the switch in the footer (a cookie), else the browser's."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, NotificationSettings, Profile
from campaigns.press.services.press import channel_ensure
from tests.support.handmade import ClientFor
from tests.support.press import say

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def save(client: Client, **values: str) -> Any:
    data = {"display_name": "", "time_zone": "", "language": "", **values}
    return client.post(reverse("profile"), data)


def instants(page: str) -> list[tuple[str, str]]:
    """(text, title) of every <time data-local-time> of a page."""
    found = re.findall(r'<time [^>]*data-local-time title="([^"]*)">([^<]*)</time>', page)
    return [(html.unescape(text), html.unescape(title)) for title, text in found]


def test_alice_names_herself_and_the_navbar_and_press_say_so(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    assert save(alice, display_name="  Lady A  ").status_code == 302
    assert Profile.objects.get(user__username="alice").display_name == "Lady A"
    page = alice.get(reverse("home")).content.decode()
    assert 'id="nav-profile" title="Your profile">Lady A</a>' in page
    # Press names her by the character the GM gave her first; without one, by this name.
    demo.memberships.filter(user__username="alice").update(character_name="")
    channel = channel_ensure(campaign=demo)
    say(demo, "alice", channel, "Hello")
    bob_page = client_for("bob").get(reverse("press_conversation", args=[SLUG, channel.pk]))
    assert "Lady A" in bob_page.content.decode()


def test_a_bad_time_zone_or_language_is_refused_and_nothing_changes(
    client_for: ClientFor, demo: Campaign
) -> None:
    alice = client_for("alice")
    for values in [{"time_zone": "Mars/Olympus"}, {"language": "tlh"}, {"display_name": "x" * 61}]:
        response = save(alice, **values)
        assert response.status_code == 200
        assert response.context["form"].errors
    # Her visits stamp her last visit (a profile row), but no setting of hers is saved.
    assert not Profile.objects.exclude(display_name="", time_zone="", language="").exists()


def test_times_are_shown_in_the_profiles_zone_with_the_campaigns_on_hover(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    before = instants(alice.get(reverse("campaign", args=[SLUG])).content.decode())
    assert before and all(re.search(r"CES?T", text) for text, _ in before)
    save(alice, time_zone="America/New_York")
    page = alice.get(reverse("campaign", args=[SLUG])).content.decode()
    assert '<html lang="en" data-time-zone="America/New_York">' in page
    after = instants(page)
    assert len(after) == len(before)
    for (text, title), (_, old_title) in zip(after, before, strict=True):
        assert re.search(r"E[SD]T", text) and title == old_title
        assert title.endswith("(Europe/Berlin)")


def test_the_language_comes_from_the_profile_else_the_browser(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    url = reverse("campaign", args=[SLUG])
    german = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
    assert '<html lang="en"' in alice.get(url).content.decode()
    assert '<html lang="de"' in alice.get(url, **german).content.decode()
    save(alice, language="en")
    assert '<html lang="en"' in alice.get(url, **german).content.decode()
    save(alice, language="de")
    page = alice.get(url).content.decode()
    assert '<html lang="de"' in page
    # Django's own words and the dates are German already (the site's own catalogue is the
    # lead's, once every page exists): a form error, and a weekday.
    response = save(alice, language="de", display_name="x" * 61)
    assert "höchstens 60 Zeichen" in html.unescape(response.content.decode())
    weekdays = {text.split()[0].rstrip(",") for text, _ in instants(page)}
    assert weekdays and weekdays <= {"Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"}


def test_the_footer_switch_sets_the_language_and_a_users_profile_keeps_it(
    demo: Campaign, client_for: ClientFor
) -> None:
    visitor = Client()
    response = visitor.post(reverse("set_language"), {"language": "de", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert '<html lang="de"' in visitor.get("/rules/").content.decode()
    alice = client_for("alice")
    alice.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert Profile.objects.get(user__username="alice").language == "de"
    fresh = client_for("alice")  # another browser: no cookie, the profile remembers
    assert '<html lang="de"' in fresh.get(reverse("home")).content.decode()
    alice.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert Profile.objects.get(user__username="alice").language == "de"


@pytest.mark.parametrize("language", ["xx", "fr", "", None])
def test_the_footer_switch_says_so_when_the_language_is_not_offered(
    demo: Campaign, client_for: ClientFor, language: str | None
) -> None:
    """French has Django's own catalogue, but the site does not offer it; an unknown or
    missing language changes nothing either, and the switch says so instead of nothing."""
    alice = client_for("alice")
    posted = {"next": "/rules/"} | ({"language": language} if language is not None else {})
    response = alice.post(reverse("set_language"), posted, follow=True)
    assert response.redirect_chain == [("/rules/", 302)]
    assert [str(m) for m in response.context["messages"]] == [
        "That language is not offered here: nothing was changed."
    ]
    assert settings.LANGUAGE_COOKIE_NAME not in alice.cookies
    assert not Profile.objects.filter(user__username="alice").exclude(language="").exists()


def test_the_footer_switch_is_a_form_with_a_csrf_token(demo: Campaign) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(reverse("set_language"), {"language": "de"}).status_code == 403
    page = strict.get(reverse("how_to_play")).content.decode()
    form = page[page.index('id="language-switch"') - 200 :]
    assert f'action="{reverse("set_language")}"' in form
    assert 'name="csrfmiddlewaretoken"' in form[: form.index("</form>")]
    codes = re.findall(r'<option value="(\w+)"', form[: form.index("</form>")])
    assert codes == [code for code, _ in settings.LANGUAGES]


def test_the_profile_shows_the_mail_settings_and_links_to_them(
    demo: Campaign, client_for: ClientFor
) -> None:
    NotificationSettings.objects.create(user=demo.memberships.get(role="gm").user, reminders=False)
    page = client_for("gm").get(reverse("profile")).content.decode()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "off Reminder before the deadline" in text
    assert "on The GM's announcements" in text
    assert f'href="{reverse("notification_settings")}"' in page

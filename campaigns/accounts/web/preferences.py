"""Each request in the viewer's own language and time zone, and what every page's navbar
and footer need (settings.py lists both).

The language: the profile's, else Django's LocaleMiddleware's choice (the language cookie
the footer's switch sets, else the browser's Accept-Language). The time zone: the profile's,
else UTC on the server with deadline.js showing times in the browser's zone.

Each visit of a logged-in user, and each log-in, also stamps their last visit (the roster's
"last seen"): at most once every few minutes (services/profile.last_seen_mark)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject

from campaigns.accounts.selectors.profile import profile_of
from campaigns.accounts.services.profile import last_seen_mark
from campaigns.models import Profile
from campaigns.press.selectors.press_unread import unread_counts


def request_profile(request: HttpRequest) -> Profile:
    """The viewer's profile, read once per request (one query; none for visitors)."""
    if not hasattr(request, "_profile"):
        request._profile = profile_of(request.user)  # type: ignore[attr-defined]
    return request._profile  # type: ignore[attr-defined,no-any-return]


def profile_zone(profile: Profile) -> ZoneInfo | None:
    if not profile.time_zone:
        return None
    try:
        return ZoneInfo(profile.time_zone)
    except (ZoneInfoNotFoundError, ValueError):  # validated when saved; ignore if not
        return None


class PreferencesMiddleware:
    """After AuthenticationMiddleware: the profile's language and time zone, if set, for
    this request only."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        profile = request_profile(request)
        if request.user.is_authenticated:
            last_seen_mark(user=request.user, profile=profile)
        if profile.language:
            translation.activate(profile.language)
            request.LANGUAGE_CODE = translation.get_language()
        zone = profile_zone(profile)
        if zone is not None:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


@receiver(user_logged_in, dispatch_uid="campaigns_last_seen_on_login")
def seen_on_login(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **_: Any
) -> None:
    """A log-in is a visit too (the page it leads to then writes nothing)."""
    last_seen_mark(user=user, profile=profile_of(user))


def preferences(request: HttpRequest) -> dict[str, Any]:
    """Template context: `viewer_time_zone` (the profile's, "" for the browser's),
    `viewer_name` (the profile's display name, else the username) and `press_unread` (the
    viewer's unread messages in all their campaigns; counted only if a page shows it, and
    once: `press_unread_counts`, campaign id -> unread, is the same count per campaign)."""
    if not request.user.is_authenticated:
        return {"viewer_time_zone": "", "viewer_name": "", "press_unread": 0}
    profile = request_profile(request)
    counts = SimpleLazyObject(lambda: unread_counts(request.user))
    return {
        "viewer_time_zone": profile.time_zone if profile_zone(profile) else "",
        "viewer_name": profile.display_name or request.user.get_username(),
        "press_unread": SimpleLazyObject(lambda: sum(counts.values())),
        "press_unread_counts": counts,
    }

"""Reads of a user's profile (display name, time zone, language) and what follows from it."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.models import Membership, Profile


def profile_of(user: AbstractBaseUser | AnonymousUser) -> Profile:
    """The user's profile, or an unsaved empty one (everything the browser's): one query, none
    when the user was read with it (illumineaucracy/profile_backend.py: a request's user)."""
    if not user.is_authenticated:
        return Profile()
    if user.__class__.profile.is_cached(user):  # type: ignore[attr-defined]
        cached = cached_profile(user)
        return cached if cached is not None else Profile(user=user)
    found = Profile.objects.filter(user=user).first()
    return found if found is not None else Profile(user=user)


def cached_profile(user: AbstractBaseUser) -> Profile | None:
    """The profile fetched with the user (select_related("user__profile")), or None."""
    try:
        return user.profile  # type: ignore[attr-defined,no-any-return]
    except Profile.DoesNotExist:
        return None


def member_name(member: Membership) -> str:
    """How press names a member: the character the GM gave them, else the display name of
    their profile, else their username. Fetch members with `MEMBER_NAME_RELATED`."""
    if member.character_name:
        return member.character_name
    profile = cached_profile(member.user)
    if profile is not None and profile.display_name:
        return profile.display_name
    return member.user.get_username()


MEMBER_NAME_RELATED = ("user", "user__profile")


def language_of(user: AbstractBaseUser) -> str:
    """The language to write to `user` in (mail): their profile's, else the site's default.
    Fetch the user with its profile (select_related) to spare a query."""
    profile = cached_profile(user)
    return profile.language if profile is not None and profile.language else settings.LANGUAGE_CODE

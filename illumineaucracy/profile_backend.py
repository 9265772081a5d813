"""Log-in by username and password as Django's ModelBackend does, and a request's user read
with their profile in one query (the language, time zone and display name every page needs:
web/preferences.request_profile reads it from the user instead of asking again).

Listed before ModelBackend in settings.AUTHENTICATION_BACKENDS, so new sessions name this
backend; sessions that name ModelBackend still work (one query more per request)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser

PATH = "illumineaucracy.profile_backend.ProfileModelBackend"


class ProfileModelBackend(ModelBackend):
    def get_user(self, user_id: Any) -> AbstractBaseUser | None:
        users = get_user_model()._default_manager.select_related("profile")
        user = users.filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None

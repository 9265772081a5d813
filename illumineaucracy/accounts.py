"""The account pages beyond Django's own: signing up, and throttling (the log-in lock-out
page django-axes calls, `lockout_response`; the client address the throttles count by; a
password-reset view that limits the mail it sends; a limit on new accounts per address,
whichever page makes them).

Settings: LOGIN_FAILURE_LIMIT (failures, and reset requests per address) and
LOGIN_LOCKOUT_MINUTES (how long a lock and a reset window last), see settings.py.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import PasswordResetView
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

TOO_MANY = 429
# The session's mark of an account made in it, until the front page has greeted it.
NEW_ACCOUNT = "new_account"


def client_ip(request: HttpRequest) -> str:
    """The address a request came from. Behind the proxy that ends TLS
    (SECURE_PROXY_SSL_HEADER), REMOTE_ADDR is the proxy for everyone: take the last
    X-Forwarded-For entry instead, the one our proxy appended (earlier ones are whatever
    the client sent)."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return str(request.META.get("REMOTE_ADDR", ""))


def throttled_page(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/throttled.html", {"message": message}, status=TOO_MANY)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: a page in the site's style instead of axes' bare text."""
    return throttled_page(
        request,
        _(
            "Too many failed log-ins for this account from your address. "
            "Try again in %(minutes)s minutes."
        )
        % {"minutes": settings.LOGIN_LOCKOUT_MINUTES},
    )


def count(key: str) -> int:
    """Count one more event under `key` in the current window (LOGIN_LOCKOUT_MINUTES)."""
    cache.add(key, 0, timeout=settings.LOGIN_LOCKOUT_MINUTES * 60)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: this is the window's first event
        cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_MINUTES * 60)
        return 1


def too_many_accounts(request: HttpRequest) -> HttpResponse | None:
    """Count one more new account from the request's address: the 429 page once it is past
    LOGIN_FAILURE_LIMIT in the window, else None. Every way of making an account (the sign-up
    page, an invitation link) calls it before making one, so no way gets around the limit."""
    if count(f"signup:ip:{client_ip(request)}") <= settings.LOGIN_FAILURE_LIMIT:
        return None
    return throttled_page(
        request,
        _("Too many new accounts from your address. Try again in %(minutes)s minutes.")
        % {"minutes": settings.LOGIN_LOCKOUT_MINUTES},
    )


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset, limited so that it cannot be used to flood a mailbox or to
    send mail in bulk: LOGIN_FAILURE_LIMIT requests per client address and one mail per
    e-mail address per window. A throttled address gets the usual "mail sent" page, so the
    page still says nothing about which addresses have accounts."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if count(f"password-reset:ip:{client_ip(request)}") > settings.LOGIN_FAILURE_LIMIT:
            return throttled_page(
                request,
                _(
                    "Too many password-reset requests from your address. "
                    "Try again in %(minutes)s minutes."
                )
                % {"minutes": settings.LOGIN_LOCKOUT_MINUTES},
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        email = form.cleaned_data["email"].strip().casefold()
        digest = hashlib.sha256(email.encode()).hexdigest()  # no addresses in cache keys
        if count(f"password-reset:mail:{digest}") > 1:
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class SignUpForm(UserCreationForm):
    """A new account: from the sign-up page, or from a campaign's invitation link."""

    email = forms.EmailField(
        label=gettext_lazy("Email"),
        help_text=gettext_lazy("Turn reports, reminders and attack notices are sent here."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def save(self, commit: bool = True) -> Any:
        """The form checked that the user name was free, but someone else may have taken it
        since (two people signing up as "anna" at once): the database's unique constraint
        then refuses the second, which becomes the form's error, not a server error."""
        try:
            with transaction.atomic():
                return super().save(commit)
        except IntegrityError:
            taken = self._meta.model._meta.get_field("username").error_messages["unique"]
            self.add_error("username", taken)
            raise UsernameTaken from None


class UsernameTaken(Exception):
    """SignUpForm.save lost a race for its user name; the form now carries the error."""


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Anyone may make an account (to start a campaign of their own, or before following an
    invitation); LOGIN_FAILURE_LIMIT new accounts per address per window, so the page cannot
    be used to make accounts in bulk. `next` (a page of this site) is where to go after."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}):
        next_url = ""
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        refused = too_many_accounts(request)
        if refused is not None:
            return refused
        try:
            user = form.save()
        except UsernameTaken:
            return render(request, "registration/signup.html", {"form": form, "next": next_url})
        login(request, user, backend="illumineaucracy.profile_backend.ProfileModelBackend")
        # A new account is welcomed, not welcomed back (the front page reads the mark once).
        request.session[NEW_ACCOUNT] = True
        messages.success(
            request,
            _("Welcome to Illumineaucracy, %(name)s: your account is ready.")
            % {"name": user.get_username()},
        )
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})

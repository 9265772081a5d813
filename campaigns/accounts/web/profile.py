"""The profile page (display name, time zone, language; a summary of the mail settings with
a link to change them) and the footer's language switch."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language

from campaigns.accounts.services.profile import profile_language_set, profile_set
from campaigns.accounts.web.preferences import request_profile
from campaigns.accounts.web.profile_forms import ProfileForm
from campaigns.models import NotificationSettings, Profile
from campaigns.web.access import posted
from campaigns.web.post_only import post_only
from campaigns.web.report_forms import NotificationSettingsForm


def mail_switches(user: Any) -> list[tuple[str, bool]]:
    """(label, on) of each kind of mail, as the mail settings page names them."""
    chosen = NotificationSettings.objects.filter(user=user).first() or NotificationSettings()
    form = NotificationSettingsForm(instance=chosen)
    return [(str(field.label), bool(getattr(chosen, name))) for name, field in form.fields.items()]


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = request_profile(request)
    initial = {
        "display_name": current.display_name,
        "time_zone": current.time_zone,
        "language": current.language,
    }
    form = ProfileForm(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        profile_set(user=request.user, **form.cleaned_data)
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    context = {"form": form, "mail": mail_switches(request.user)}
    return render(request, "accounts/profile.html", context)


@post_only("home")
def language_switch(request: HttpRequest) -> HttpResponse:
    """The footer's switch: Django's set_language (a cookie, then back to `next`); a
    logged-in user's profile keeps the choice too, since the profile's language comes
    first."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        # Django's set_language would redirect without a word (or keep a language the site
        # does not offer): say that nothing changed.
        messages.error(request, _("That language is not offered here: nothing was changed."))
        back = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return HttpResponseRedirect(back if back and safe else reverse("home"))
    if request.user.is_authenticated and language in dict(Profile.Language.choices):
        profile_language_set(user=request.user, language=language)
    return set_language(request)

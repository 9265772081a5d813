"""The GM's players page (members and invitation links) and joining a campaign through an
invitation link, with a new account or an existing one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.models import Campaign, Invitation, Membership
from campaigns.selectors.players import gm_names, invitation_for, players_page
from campaigns.services.players import (
    InvitationClosed,
    invitation_accept,
    invitation_create,
    invitation_revoke,
    invitation_sign_up,
)
from campaigns.web.access import FORM_METHODS, found, gm_of, posted
from campaigns.web.players_forms import InvitationForm, SignUpForm
from campaigns.web.post_only import post_only
from illumineaucracy.accounts import NEW_ACCOUNT, UsernameTaken, too_many_accounts


@require_http_methods(FORM_METHODS)
@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = gm_of(request, slug).campaign
    form = InvitationForm(posted(request))
    if request.method == "POST" and form.is_valid():
        invitation = invitation_create(campaign=campaign, actor=request.user, **form.cleaned_data)
        link = request.build_absolute_uri(invitation.get_absolute_url())
        made = _("New invitation link: %(link)s. Send it to the people you invite.")
        messages.success(request, made % {"link": link})
        return redirect("players", campaign.slug)
    page = players_page(campaign, timezone.now())
    context = {"campaign": campaign, "form": form, "page": page}
    return render(request, "campaigns/setup/players.html", context)


@post_only("players", "slug")
@login_required
def invitation_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    campaign = gm_of(request, slug).campaign
    invitation = get_object_or_404(Invitation, campaign=campaign, pk=pk)
    invitation_revoke(invitation=invitation, actor=request.user)
    messages.success(request, _("The invitation is withdrawn: nobody can join with it any more."))
    return redirect("players", campaign.slug)


@require_http_methods(FORM_METHODS)
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link. Logged in: a button to join. Not logged in: make an account here
    (or log in and come back), counted in the sign-up page's limit on new accounts per
    address. A closed link says why; an unknown one is a plain 404."""
    invitation = found(invitation_for(token), "no such invitation")
    campaign = invitation.campaign
    closed = invitation.why_closed(timezone.now())
    signup = None
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                member, new = invitation_accept(invitation=invitation, user=request.user)
                return welcome(request, campaign, member, new)
            signup = SignUpForm(request.POST)
            if not closed and signup.is_valid():
                refused = too_many_accounts(request)
                if refused is not None:
                    return refused
                member = invitation_sign_up(invitation=invitation, make_account=signup.save)
                login(
                    request,
                    member.user,
                    backend="illumineaucracy.profile_backend.ProfileModelBackend",
                )
                request.session[NEW_ACCOUNT] = True
                return welcome(request, campaign, member, True)
        except InvitationClosed as error:  # used up, withdrawn or expired since the page loaded
            closed = str(error)
        except UsernameTaken:  # someone took the name since the form checked it: its error
            pass
    elif not request.user.is_authenticated:
        signup = SignUpForm()
    context = {
        "invitation": invitation,
        "campaign": campaign,
        "gms": gm_names(campaign),
        "closed": closed,
        "signup": signup,
    }
    return render(request, "campaigns/setup/join.html", context, status=410 if closed else 200)


def welcome(
    request: HttpRequest, campaign: Campaign, member: Membership, new: bool
) -> HttpResponse:
    if not new:
        text = _("You are already in %(campaign)s.")
    elif member.role == Membership.Role.OBSERVER:
        text = _("Welcome to %(campaign)s: you joined as an observer.")
    else:
        text = _("Welcome to %(campaign)s: you joined as a player.")
    messages.success(request, text % {"campaign": campaign.name})
    return redirect(campaign)

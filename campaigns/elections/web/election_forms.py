"""The election's order forms (RULES R80): nominate a candidate with a running mate, name a
different running mate for one's own candidate on another player's ticket, say which ticket a
department supports (doubled for a `media` department, which then gives up its function roll
this turn), and vote. Registered in order_forms.FORMS, so the orders page, its order pages
and the press quotes treat them as every other kind.

Each offers only the engine's legal choices the player may see (elections/web/election_choices.py),
and
every ticket; the values are opaque department keys or ticket references (R50: a rumour gives
a name, not a slug; never hearing of a department gives nothing), turned back into slugs here.
The service then has the engine judge the order again (R40)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.elections.web.election_choices import (
    SEP,
    electorate,
    keys_of,
    nominate_candidates,
    running_mate_candidates,
    support_choices,
    vote_choices,
)
from campaigns.models import Order
from campaigns.web.order_form_base import NOT_PREFILLED, OrderForm

Kind = Order.Kind


class ElectionForm(OrderForm):
    """Base: the keys of the departments the player may name; an order being edited (its
    initial values in slugs) is shown with the keys the form offers."""

    def setup(self) -> None:
        self.keys = keys_of(self.ctx, self.legal)
        self.fill()
        for name in self.fields:
            if name in self.initial and name not in NOT_PREFILLED:
                self.initial[name] = self.keys.keyed(self.initial[name])

    def fill(self) -> None:
        """Fill the choices (subclasses)."""

    def part_named(self, part: str) -> str | None:
        """A key (or a ticket's reference) the form offered, named as the player may (R50)."""
        try:
            slug = self.keys.slug(part)
        except KeyError:
            return None
        return self.keys.name(slug) if self.keys.seen(slug) else None

    def pair_refused(self, choices: list[Any], candidate: str, mate: str) -> str | None:
        """R80: the engine's choice for `candidate` must accept `mate`."""
        choice = next((c for c in choices if c.candidate == candidate), None)
        if choice is None or not choice.accepts(mate):
            return str(_("The running mate must be another department than the candidate."))
        return None


class PairForm(ElectionForm):
    """A candidate and its running mate (R80 step 1)."""

    candidate = forms.ChoiceField(label=_("Candidate"))
    running_mate = forms.ChoiceField(
        label=_("Running mate"),
        help_text=_(
            "Any other department of the board you have heard of. It becomes the deputy if "
            "the ticket wins."
        ),
    )

    def choices(self) -> list[Any]:
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("candidate") and data.get("running_mate"):
            candidate, mate = self.keys.slugs(f"{data['candidate']}{SEP}{data['running_mate']}")
            refused = self.pair_refused(self.choices(), candidate, mate)
            if refused:
                self.add_error("running_mate", refused)
        return data

    def payload(self) -> dict[str, Any]:
        return {
            "candidate": self.keys.slug(self.cleaned_data["candidate"]),
            "running_mate": self.keys.slug(self.cleaned_data["running_mate"]),
        }

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"candidate": payload.get("candidate"), "running_mate": payload.get("running_mate")}


class NominateForm(PairForm):
    """R80 step 1: one nomination per player; a department already nominated is not offered."""

    kind = Kind.NOMINATE

    def fill(self) -> None:
        self.fields["candidate"].choices = nominate_candidates(self.ctx, self.legal)
        self.fields["candidate"].help_text = _(
            "Any department of the board you have heard of, yours, another player's or "
            "uncontrolled, that no one has nominated yet."
        )
        self.fields["running_mate"].choices = electorate(self.ctx, self.legal, self.kind)

    def choices(self) -> list[Any]:
        return list(self.legal.nominate)


class RunningMateForm(PairForm):
    """R80 step 1: the candidate's controller names a different running mate for a ticket
    another player nominated (the last one queued counts)."""

    kind = Kind.RUNNING_MATE

    def fill(self) -> None:
        self.fields["candidate"].label = _("Your candidate's ticket")
        self.fields["candidate"].choices = running_mate_candidates(self.ctx, self.legal)
        self.fields["running_mate"].label = _("New running mate")
        self.fields["running_mate"].choices = electorate(self.ctx, self.legal, self.kind)

    def choices(self) -> list[Any]:
        return list(self.legal.running_mate)


class SupportForm(ElectionForm):
    """R80 step 2: which ticket one department of the player's supports, with its Impress;
    doubled for a department with a `media` function, which gives up its function roll this
    turn (a function roll queued for it is then rejected: the orders page says so)."""

    kind = Kind.SUPPORT
    support = forms.ChoiceField(
        label=_("Department → ticket"),
        widget=forms.RadioSelect,
        help_text=_(
            "A department supports one ticket with its Impress. One with a media function may "
            "double it, and then makes no function roll this turn: a function roll queued for "
            "it is rejected. To support no ticket, queue nothing for that department."
        ),
    )

    def fill(self) -> None:
        self.fields["support"].choices = support_choices(self.ctx, self.legal)

    def payload(self) -> dict[str, Any]:
        department, ticket, double = self.cleaned_data["support"].split(SEP)
        payload: dict[str, Any] = {
            "department": self.keys.slug(department),
            "ticket": self.keys.slug(ticket),  # a ticket reference too
        }
        if double == "1":
            payload["double"] = True
        return payload

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        double = int(payload.get("double") is True)
        return {"support": f"{payload.get('department')}{SEP}{payload.get('ticket')}{SEP}{double}"}


class VoteForm(ElectionForm):
    """R80 step 4: one vote per player, counted only to break a tie of support and Impress."""

    kind = Kind.VOTE
    ticket = forms.ChoiceField(
        label=_("Ticket"),
        help_text=_(
            "Votes count only when two tickets are tied on support and their candidates' Impress."
        ),
    )

    def fill(self) -> None:
        self.fields["ticket"].choices = vote_choices(self.ctx, self.legal)

    def payload(self) -> dict[str, Any]:
        return {"ticket": self.keys.slug(self.cleaned_data["ticket"])}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"ticket": payload.get("ticket")}


ELECTION_FORMS: dict[str, type[OrderForm]] = {
    form.kind: form for form in (NominateForm, RunningMateForm, SupportForm, VoteForm)
}

"""The election round (RULES R80) in words: its orders (nominations, running mates, support,
votes), what decided the result, how an uncontrolled department went, and an office's
shticks (R60) as the GM's pages show them read-only.

Like game.py (which hands the election's orders to `election_order_text`), nothing here
reads the database or decides what a viewer may see (R50): callers pass names the viewer may
know, or a placeholder. Every sentence is in the active language."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.words.labels import Namer, percent_text

ELECTION_KINDS = ("nominate", "running_mate", "support", "vote")

# What decided an election (ENGINE.md report.election `decided_by`), as a clause.
DECIDED_BY = {
    "support": gettext_lazy("it had the most support"),
    "impress": gettext_lazy("the support was tied, and its candidate has the greater Impress"),
    "vote": gettext_lazy(
        "the support and the candidates' Impress were tied, and it had the most votes"
    ),
    "roll-off": gettext_lazy(
        "support, Impress and votes were all tied, and the verifiable roll-off chose it "
        "(the lowest digest)"
    ),
}


def election_order_text(kind: str, payload: Mapping[str, object], name: Namer) -> str:
    """One election order (ENGINE.md part 9 fields) in one line."""
    p = payload
    match kind:
        case "nominate":
            return _("%(candidate)s, with %(mate)s as running mate") % {
                "candidate": name(p.get("candidate")),
                "mate": name(p.get("running_mate")),
            }
        case "running_mate":
            return _("%(mate)s as running mate of %(candidate)s") % {
                "candidate": name(p.get("candidate")),
                "mate": name(p.get("running_mate")),
            }
        case "support":
            values = {"department": name(p.get("department")), "ticket": name(p.get("ticket"))}
            if p.get("double") is True:
                return (
                    _(
                        "%(department)s supports the ticket of %(ticket)s, doubled (media): "
                        "%(department)s gives up its function roll this turn"
                    )
                    % values
                )
            return _("%(department)s supports the ticket of %(ticket)s") % values
        case "vote":
            return _("a vote for the ticket of %(ticket)s") % {"ticket": name(p.get("ticket"))}
    return ""


def ticket_label(candidate: str, mate: str) -> str:
    """A ticket as the forms and pages name it."""
    return _("%(candidate)s with %(mate)s") % {"candidate": candidate, "mate": mate}


def supporter_label(department: str, impress: int) -> str:
    """A department of the support form's with its power (its Impress, R80 step 2)."""
    return _("%(department)s (Impress %(n)s)") % {"department": department, "n": impress}


def support_label(department: str, ticket: str, *, double: bool) -> str:
    """One choice of the support form (R80 step 2), under its department's name."""
    if double:
        return _("%(ticket)s, doubled (media): no function roll for %(department)s this turn") % {
            "department": department,
            "ticket": ticket,
        }
    return ticket


def result_text(office: str, winner: str | None, deputy: str | None, decided_by: str | None) -> str:
    """R80 step 4-5: who won the office and why, in one sentence without its full stop (the
    page puts the rule's link before it)."""
    if winner is None:
        return _("Nobody was nominated: %(office)s stays as it was") % {"office": office}
    why = DECIDED_BY.get(str(decided_by), "")
    return _("%(winner)s holds %(office)s, with %(deputy)s as deputy: %(why)s") % {
        "winner": winner,
        "office": office,
        "deputy": deputy,
        "why": why,
    }


def fraction_text(chance: Fraction | None) -> str:
    """An exact chance as a fraction and a percentage ('23/40 (57.5%)'); '?' if hidden."""
    if chance is None:
        return "?"
    return _("%(fraction)s (%(percent)s)") % {
        "fraction": str(chance),
        "percent": percent_text(float(chance) * 100),
    }


def follower_text(department: str, ticket: str, *, own: bool, tied: bool) -> str:
    """R80 step 3: how one uncontrolled department went."""
    values = {"department": department, "ticket": ticket}
    if own:
        return _("%(department)s is on the ticket of %(ticket)s and supports its own ticket.") % (
            values
        )
    if tied:
        return (
            _("%(department)s supports %(ticket)s: equal best chances, settled by the roll-off.")
            % values
        )
    return (
        _(
            "%(department)s supports %(ticket)s: its candidate or running mate had the best "
            "chance to win a linking attempt on it."
        )
        % values
    )

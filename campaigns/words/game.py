"""The core game in words: orders (R41-R46; deals and election orders by intrigue.py and
election.py), attack notices, captures, refusals, the GM's editor's review (R53) and what
happened to a structure turn by turn, for the orders page, the turn report, notices and mail.

Nothing here reads the database or decides what a viewer may see (RULES R50): callers pass
a `Namer` that already answers with the name the viewer may know, or a placeholder. So
player-facing text names departments, never slugs, and counts agree in number.

Every sentence is in the active language (Django's gettext; locale/de has the German). The
engine stays English: its refusal reasons are translated here, by their codes (reasons.SAID),
when they are shown; a reason without a translation is shown in the engine's English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.reasons import reason_translated
from campaigns.words.election import ELECTION_KINDS, election_order_text
from campaigns.words.intrigue import deal_text
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS, Namer, count, tokens_text


def route_text(start: object, path: object, name: Namer) -> str:
    steps = path if isinstance(path, list) else []
    return " → ".join(name(slug) for slug in [start, *steps])


def order_text(
    kind: str,
    payload: Mapping[str, object],
    name: Namer,
    players: Mapping[str, str] | None = None,
) -> str:
    """An order (ENGINE.md fields) in one line (RULES R41-R46; R62 and R70 in
    intrigue.py). `players`: engine player id -> name, for a hand-over's receiver and
    an accept's giver."""
    p = payload
    consumers = p.get("consumers")
    match kind:
        case "add_link" | "break_link":
            return f"{name(p.get('from'))} → {name(p.get('to'))}"
        case "priority":
            fed = [name(c) for c in consumers] if isinstance(consumers, list) else []
            return _("%(department)s feeds %(consumers)s first") % {
                "department": name(p.get("department")),
                "consumers": _(", then ").join(fed),
            }
        case "move" | "reinforce":
            text = route_text(p.get("from"), p.get("path"), name)
            carried = tokens_text(p.get("tokens")) or _("nothing")
            return _("%(route)s, carrying %(tokens)s") % {"route": text, "tokens": carried}
        case "attempt":
            text = attack_text(name(p.get("attacker")), name(p.get("target")))
            if cost := tokens_text(p.get("cost")):
                text += _(", paying %(tokens)s") % {"tokens": cost}
            if spend := tokens_text(p.get("spend")):
                text += _(", spending %(tokens)s") % {"tokens": spend}
            return text
        case "function":
            stat = str(p.get("stat", ""))
            stat = str(STAT_LABELS.get(stat, stat.title()))
            text = f"{name(p.get('department'))}: {p.get('function', '')} ({stat})"
            if spend := tokens_text(p.get("spend")):
                text += _(", spending %(tokens)s") % {"tokens": spend}
            if intent := p.get("intent"):
                text += _(". Intent: %(intent)s") % {"intent": intent}
            return text
    if kind in ELECTION_KINDS:  # R80
        return election_order_text(kind, p, name)
    return deal_text(kind, payload, name, players or {})


def attacker_text(attacker: str, controller: str | None) -> str:
    """R46: the attacking department, with its controller only where the defender's level
    shows who controls it (`known`, R50); the caller decides by passing it or None."""
    return f"{attacker} ({controller})" if controller else attacker


def attack_text(attacker: str, target: str, controller: str | None = None) -> str:
    """R46: what the defender learns of an attempt: the attacking department (and its
    controller, see attacker_text) and the target, nothing of what the attacker spends."""
    return _("%(attacker)s tries to link %(target)s") % {
        "attacker": attacker_text(attacker, controller),
        "target": target,
    }


def attack_notice(
    attacker: str,
    target: str,
    controller: str | None,
    *,
    withdrawn: bool,
    no_reinforcement: str | None = None,
) -> tuple[str, str]:
    """R46: (subject, text) of the notice and mail to the target's controller. A
    reinforcement is promised only if there is one: else `no_reinforcement` says why not
    (selectors/reinforcement.py)."""
    who = attacker_text(attacker, controller)
    subject = attack_subject(target, withdrawn=withdrawn)
    if withdrawn:
        return subject, _(
            "The linking attempt by %(attacker)s against %(target)s was withdrawn."
        ) % {"attacker": who, "target": target}
    names = {"target": target, "attacker": who, "reason": no_reinforcement}
    if no_reinforcement is None:
        text = _(
            "%(target)s is the target of a linking attempt by %(attacker)s this turn (R46). "
            "You may queue one free reinforcement move that ends at it."
        )
    else:
        text = _(
            "%(target)s is the target of a linking attempt by %(attacker)s this turn (R46). "
            "No reinforcement is possible now. %(reason)s"
        )
    return subject, text % names


def attack_subject(target: str, *, withdrawn: bool) -> str:
    """R46: the subject of the mail to the target's controller."""
    if withdrawn:
        return _("Attempt withdrawn")
    return _("%(target)s is under attack") % {"target": target}


def capture_text(department: str, old: str | None, new: str | None) -> str:
    """R44/R13: a department changing hands, as the turn report tells it."""
    if new is None:
        if old:
            return _("%(department)s left %(old)s's structure.") % {
                "department": department,
                "old": old,
            }
        return _("%(department)s left its structure.") % {"department": department}
    if old is None:
        return _("%(department)s was captured by %(new)s.") % {"department": department, "new": new}
    return _("%(department)s was captured by %(new)s from %(old)s.") % {
        "department": department,
        "new": new,
        "old": old,
    }


def sentence(text: str) -> str:
    """Capitalised and ending with a full stop, as refusals are shown."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The runs of characters a slug is made of ([-a-zA-Z0-9_]), each as long as it goes, but
# not into the hyphen of an arrow (the engine's "link mint->treasury"), as slug_pattern.
WORDS = re.compile(r"(?:\w|-(?!>))+")


def slug_pattern(slug: str) -> re.Pattern[str]:
    """A slug as a whole word of an engine reason (slugs contain hyphens, so a hyphen goes
    on the word; but not the one of an arrow, as in the engine's "link mint->treasury")."""
    return re.compile(rf"(?<![\w-]){re.escape(slug)}(?![\w]|-(?!>))")


def slugs_named(reason: str, slugs: Iterable[str]) -> list[str]:
    """The slugs an engine reason mentions, longest first (so 'city-watch' wins over 'city').
    A slug is named where it stands as a whole word (slug_pattern): exactly where it is one
    of the reason's runs of word characters and hyphens, so the reason is cut into those
    once, instead of a pattern per slug (a board of 1,000 slugs took seconds per reason)."""
    words = set(WORDS.findall(reason))
    return [s for s in sorted(slugs, key=len, reverse=True) if s in words]


def with_names(reason: str, names: Mapping[str, str]) -> str:
    """An engine reason (which names departments by slug) with each slug replaced by its
    name, as a sentence. The caller has decided the viewer may see every name in `names`.
    In a language other than English the reason is translated where reasons.SAID knows its
    code; one it does not know is shown in the engine's English, with names."""

    def named(text: str) -> str:
        for slug in slugs_named(text, names):
            text = slug_pattern(slug).sub(names[slug], text)
        return text

    translated = reason_translated(reason, named, TYPE_LABELS)
    if translated is not None:
        return sentence(translated)
    text = reason
    for slug in slugs_named(reason, names):
        text = slug_pattern(slug).sub(names[slug], text)
    return sentence(text)


def problem_text(problem: str) -> str:
    """A problem the engine found in a board file (engine/cli_io.py, values.py), in the
    active language where reasons.SAID knows its code, else as the engine wrote it; slugs
    stay slugs (the file's own words)."""
    return reason_translated(problem, str, TYPE_LABELS) or problem


# --- The GM's editor (RULES R53): what the engine's review of a change means ----------------------


def stranded_text(department: str, player: str) -> str:
    """R13: why a change that strands a department in a structure is refused."""
    return _(
        "%(department)s would stay in %(player)s's structure without being a home department or "
        "linked to another department of it, and would leave the structure at the next link "
        "phase (R13). Make it a home department, link it to one of %(player)s's departments, "
        "or take it out of the structure first."
    ) % {"department": department, "player": player}


def discard_text(department: str, tokens: Mapping[str, int], capacity: int) -> str:
    """R36: the warning on a change that gives a department more tokens than it can keep
    (kept: the tokens may be spent before the next spawn)."""
    return _(
        "%(department)s now holds more than it can keep: unless it spends them this turn, "
        "it will discard %(tokens)s at the next spawn and consume, keeping %(capacity)s, its "
        "capacity (its production times its chain length, R36)."
    ) % {
        "department": department,
        "tokens": tokens_text(tokens),
        "capacity": count(capacity, "token"),
    }


def unfunded_text(department: str, kind: str) -> str:
    """R33: a note on a department nothing on its board can fund."""
    return _(
        "Nothing on this board produces %(type)s: %(department)s can be "
        "funded only from its own stash (R33)."
    ) % {"type": TYPE_LABELS.get(kind, kind), "department": department}


# --- History: what happened to a structure or a department, turn by turn -------------

# Why a department joined or left a structure (selectors/history_events.hand_change_cause).
CAUSES = {
    "capture": gettext_lazy("by a linking attempt (R44)"),
    "handover": gettext_lazy("by a hand-over"),
    "unlinked": gettext_lazy("as no link to it was left (R13)"),
    "gm": gettext_lazy("by the GM (R53)"),
}


def gained_text(department: str, cause: str, previous: str | None) -> str:
    """A department joining the structure whose history is told."""
    values = {"department": department, "previous": previous, "cause": CAUSES.get(cause, "")}
    if cause == "capture":
        if previous:
            return _("Captured %(department)s from %(previous)s (R44).") % values
        return _("Captured %(department)s (R44).") % values
    if previous:
        text = _("%(department)s joined the structure from %(previous)s %(cause)s") % values
    else:
        text = _("%(department)s joined the structure %(cause)s") % values
    return text.rstrip() + "."


def lost_text(department: str, cause: str, new: str | None) -> str:
    """A department leaving the structure whose history is told."""
    values = {"department": department, "new": new, "cause": CAUSES.get(cause, "")}
    if cause == "capture":
        if new:
            return _("%(department)s was captured by %(new)s (R44).") % values
        return _("%(department)s was captured by another player (R44).") % values
    if cause == "handover" and new:
        return _("%(department)s was handed over to %(new)s.") % values
    return (_("%(department)s left the structure %(cause)s") % values).rstrip() + "."


def undone_capture_text(department: str, *, ours: bool) -> str:
    """A capture that a later attempt of the same turn reversed."""
    if ours:
        return _("Captured %(department)s, and lost it again within the turn.") % {
            "department": department
        }
    return _("%(department)s was captured, and taken back within the turn.") % {
        "department": department
    }


def link_history_text(supplier: str, consumer: str, change: str, by_gm: bool = False) -> str:
    """A link made, broken, or made and broken again within one turn."""
    link = {"link": f"{supplier} → {consumer}"}
    if by_gm:
        if change == "added":
            return _("The GM made the link %(link)s (R53).") % link
        return _("The GM removed the link %(link)s (R53).") % link
    return {
        "added": _("New link %(link)s."),
        "removed": _("Link %(link)s gone."),
        "undone": _("Link %(link)s made and gone again within the turn."),
    }[change] % link


OUTCOMES = {
    "succeeded": gettext_lazy("it succeeded"),
    "failed": gettext_lazy("it failed"),
    "rejected": gettext_lazy("it was rejected"),
}


def attempt_history_text(attacker: str, target: str, status: str, *, suffered: bool) -> str:
    """A linking attempt the structure made, or suffered (R43, R46: the defender is told the
    attacking department's name only)."""
    values = {"attacker": attacker, "target": target, "outcome": OUTCOMES.get(status, status)}
    if suffered and status == "failed":
        return _("%(attacker)s tried to link %(target)s: %(outcome)s (held).") % values
    return _("%(attacker)s tried to link %(target)s: %(outcome)s.") % values


def stash_change_text(department: str, changes: Iterable[tuple[str, int, int]]) -> str:
    """The GM changing a stash (R53): 'Money 3 → 5, People 0 → 1'."""
    parts = ", ".join(f"{TYPE_LABELS.get(k, k)} {old} → {new}" for k, old, new in changes)
    return _("The GM changed the stash of %(department)s: %(changes)s (R53).") % {
        "department": department,
        "changes": parts,
    }


def gm_hand_text(department: str, old: str | None, new: str | None) -> str:
    """The GM moving a department between structures (R53)."""
    return _("The GM moved %(department)s from %(old)s to %(new)s (R53).") % {
        "department": department,
        "old": old or _("no structure"),
        "new": new or _("no structure"),
    }


def card_change_text(department: str) -> str:
    return _("The GM changed the card of %(department)s (R53).") % {"department": department}

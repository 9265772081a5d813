"""A notice (models/play.py `Notice`) is stored as a code with its parameters and put into
words here when it is read, so each reader reads it in their own language (one who switches to
German reads their old notices in German) and its times in their own zone.

NOTICES maps each code to the parameters it takes and the function that says it in the
active language (the reader's: a page is rendered in it, a mail under translation.override).
A time parameter is stored as ISO 8601 UTC and said as a marker (stored_times.py): the page
shows it as its usual <time> in the reader's zone (templatetags/stored_times.py), a mail in
the recipient's (services/notifications.py `notice_mailed`).

Nothing here decides what a reader may see (RULES R50): the writer stores each name as the
reader was allowed to see it then, or None for a department they did not know (said as
UNNAMED). A notice whose code is unknown (written by a later release) or whose parameters do
not fit its code reads as its stored English `text`; so do notices older than codes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.selectors.report_view_models import UNNAMED
from campaigns.stored_times import time_marker
from campaigns.words import game
from campaigns.words.intrigue import handover_notice

# Kinds of parameter. NAME: a department's name as the reader could see it, or None where
# they did not know it (R50). MAYBE: a text or None. REASON: the engine's English reason, or
# None (translated when read, game.with_names). TIME: ISO 8601 UTC.
INT, TEXT, NAME, MAYBE, REASON, TIME = "int", "text", "name", "maybe", "reason", "time"
LONGEST = 1000  # a parameter's text, at most (a notice's text is at most 1000 characters)
BIGGEST = 2**31 - 1

Params = Mapping[str, Any]


@dataclass(frozen=True)
class NoticeWords:
    """What a code takes (name -> kind) and how it is said; `example` is a set of
    parameters it takes (the tests say every code in English and German with it)."""

    params: Mapping[str, str]
    say: Callable[[Params], str]
    example: Params


def department(name: str | None) -> str:
    return str(UNNAMED) if name is None else name


def time_said(value: str) -> str:
    return time_marker(dt.datetime.fromisoformat(value))


def deadline_extended(p: Params) -> str:
    """R30: the GM moved the deadline of the open turn."""
    return _("The GM extended the deadline of turn %(n)s: it now closes on %(deadline)s.") % {
        "n": p["n"],
        "deadline": time_said(p["deadline"]),
    }


def turn_undone(p: Params) -> str:
    """R52: the GM undid a turn; the undone turn's seed lets its dice still be checked."""
    return _(
        "The GM undid turn %(n)s: the boards are as they were before it, your orders "
        "of turn %(n)s are queued again (change them if you like), and it is due "
        "on %(deadline)s with new dice. The undone turn's seed was %(seed)s."
    ) % {"n": p["n"], "deadline": time_said(p["deadline"]), "seed": p["seed"]}


def attack(p: Params) -> str:
    """R46: a department of the reader's is the target of a linking attempt."""
    reason = p["no_reinforcement"]
    return game.attack_notice(
        department(p["attacker"]),
        p["target"],
        p["controller"],
        withdrawn=False,
        no_reinforcement=None if reason is None else game.with_names(reason, {}),
    )[1]


def attack_withdrawn(p: Params) -> str:
    """R46: that attempt was withdrawn."""
    return game.attack_notice(
        department(p["attacker"]), p["target"], p["controller"], withdrawn=True
    )[1]


def handover(withdrawn: bool) -> Callable[[Params], str]:
    """R62: a hand-over offered to the reader, or withdrawn."""

    def say(p: Params) -> str:
        return handover_notice(
            p["giver"], department(p["department"]), p["board"], withdrawn=withdrawn
        )[1]

    return say


def envelopes_opened(p: Params) -> str:
    """R71, R72: how many envelopes opened for the reader, never what they say."""
    intel, sealed = p["intel"], p["sealed"]
    parts = []
    if intel:
        parts.append(
            ngettext(
                "Your perception check opened %(n)s intel envelope.",
                "Your perception checks opened %(n)s intel envelopes.",
                intel,
            )
            % {"n": intel}
        )
    if sealed:
        parts.append(
            ngettext(
                "%(n)s sealed envelope addressed to you opened.",
                "%(n)s sealed envelopes addressed to you opened.",
                sealed,
            )
            % {"n": sealed}
        )
    parts.append(_("Read them in your dossier."))
    return " ".join(parts)


def election(p: Params) -> str:
    """R80: the turn holds an election."""
    return _(
        "Turn %(n)s holds an election for %(office)s on %(board)s (R80): nominate a "
        "ticket, give it your departments' support, and vote."
    ) % {"n": p["n"], "office": p["office"], "board": p["board"]}


DEADLINE_EXTENDED, TURN_UNDONE = "deadline_extended", "turn_undone"
ATTACK, ATTACK_WITHDRAWN = "attack", "attack_withdrawn"
HANDOVER_OFFERED, HANDOVER_WITHDRAWN = "handover_offered", "handover_withdrawn"
ENVELOPES_OPENED, ELECTION = "envelopes_opened", "election"

WHEN = "2027-01-08T17:00:00+00:00"
ATTACKER = {"attacker": "Moth Registry", "controller": "Bob", "target": "The Mint"}
HANDED = {"giver": "Bob", "department": "Wick Bureau", "board": "Harbour"}

NOTICES: dict[str, NoticeWords] = {
    DEADLINE_EXTENDED: NoticeWords({"n": INT, "deadline": TIME}, deadline_extended,
                                   {"n": 3, "deadline": WHEN}),
    TURN_UNDONE: NoticeWords({"n": INT, "deadline": TIME, "seed": TEXT}, turn_undone,
                             {"n": 3, "deadline": WHEN, "seed": "ab" * 32}),
    ATTACK: NoticeWords(
        {"attacker": NAME, "controller": MAYBE, "target": TEXT, "no_reinforcement": REASON},
        attack, {**ATTACKER, "no_reinforcement": None},
    ),
    ATTACK_WITHDRAWN: NoticeWords({"attacker": NAME, "controller": MAYBE, "target": TEXT},
                                  attack_withdrawn, ATTACKER),
    HANDOVER_OFFERED: NoticeWords({"giver": TEXT, "department": NAME, "board": TEXT},
                                  handover(False), HANDED),
    HANDOVER_WITHDRAWN: NoticeWords({"giver": TEXT, "department": NAME, "board": TEXT},
                                    handover(True), HANDED),
    ENVELOPES_OPENED: NoticeWords({"intel": INT, "sealed": INT}, envelopes_opened,
                                  {"intel": 1, "sealed": 2}),
    ELECTION: NoticeWords({"n": INT, "office": TEXT, "board": TEXT}, election,
                          {"n": 2, "office": "Mayor of Tourmaline", "board": "City"}),
}  # fmt: skip


def value_problem(kind: str, value: Any) -> str | None:
    """Why `value` is not a parameter of `kind`, or None."""
    if kind == INT:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= BIGGEST:
            return None
        return f"{value!r:.60} is not a whole number from 0 to {BIGGEST}"
    if value is None and kind in (NAME, MAYBE, REASON):
        return None
    if not isinstance(value, str):
        return f"{value!r:.60} is not a text"
    if len(value) > LONGEST:
        return f"{len(value)} characters; at most {LONGEST}"
    if kind == TIME:
        try:
            when = dt.datetime.fromisoformat(value)
        except ValueError:
            return f"{value!r:.60} is not a time"
        if when.utcoffset() != dt.timedelta(0):
            return f"{value!r:.60} is not a time in UTC"
    return None


def params_problem(code: str, params: Any) -> str | None:
    """Why `params` are not those of `code` (unknown code, not an object, a parameter
    missing, extra or of the wrong kind), or None. The archive's import refuses with it
    (archive/services/archive_fields.py); a notice read with a problem reads as its text."""
    words = NOTICES.get(code)
    if words is None:
        return f"{code!r:.60} is not one of {', '.join(NOTICES)}"
    if not isinstance(params, dict):
        return "not an object"
    if params.keys() != words.params.keys():
        return f"takes {', '.join(sorted(words.params))}, not {', '.join(map(str, params))}"
    for name, kind in words.params.items():
        problem = value_problem(kind, params[name])
        if problem is not None:
            return f"{name}: {problem}"
    return None


def notice_text(code: str, params: Any, text: str) -> str:
    """The notice in the active language, its times as markers (stored_times.py); its
    stored `text` if it has no code, or one this release does not know, or params that do
    not fit it."""
    if not code or params_problem(code, params) is not None:
        return text
    return NOTICES[code].say(params)


def notice_fields(code: str, params: Params) -> dict[str, Any]:
    """The fields of a new Notice that says `code` with `params`: them, and its English
    text (what an older reader, an unknown code or the archive falls back on). ValueError
    if they do not fit: a writer's mistake, caught by the tests."""
    problem = params_problem(code, dict(params))
    if problem is not None:
        raise ValueError(f"notice {code}: {problem}")
    with translation.override("en"):
        text = NOTICES[code].say(params)
    return {"code": code, "params": dict(params), "text": text}


def utc_param(instant: dt.datetime) -> str:
    """A time as a TIME parameter holds it: ISO 8601 UTC, to the second."""
    return instant.astimezone(dt.UTC).replace(microsecond=0).isoformat()

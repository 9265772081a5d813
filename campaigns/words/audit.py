# One line per pattern: the table reads as a table (E501 off for this file only).
# ruff: noqa: E501
"""What an audit-log entry is about, and its before and after (RULES R53), in the reader's
language.

The log is a record: each entry's `target` is stored once, in English, as the service wrote
it ("structures on City", "invitation #3"), and is never changed afterwards. TARGETS says each
stored form again through gettext when the log is shown; the names inside (boards,
departments, users) are data and stay as they were. A target no pattern knows is shown as
stored. Used by the `audit_target` template filter (templatetags/words.py).

An entry's `before` and `after` are JSON as the service wrote them ({"hidden": true}); the
log shows them as lines of words (`audit_values`, the `audit_values` template tag): each key
said by KEYS, each value as a value (yes/no, a status's label, a time in the reader's zone,
a list and a nested object spelled out), never as Python's or JSON's repr."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import TextChoices
from django.utils import dateformat
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from campaigns.models import Campaign, Membership, Turn

# (the stored target, as services/*.py write it; its words again). Most particular first.
# Where the entry's action already says it all ("Settings", "Alignment catalogue", "Board")
# the words are only what the action does not say: nothing, or the board's name.
PATTERNS: list[tuple[str, Any]] = [
    (r"campaign settings", ""),
    (r"alignment catalogue", ""),
    (r"campaign ended", _("campaign ended")),
    (r"campaign opened", _("campaign opened")),
    (r"campaign started", _("campaign started")),
    (r"campaign paused", _("campaign paused")),
    (r"campaign resumed", _("campaign resumed")),
    (r"announcement", _("announcement")),
    (r"deadline of turn (?P<n>\d+)", _("deadline of turn %(n)s")),
    (r"turn (?P<n>\d+) processed now", _("turn %(n)s processed now")),
    (r"press rules", _("press rules")),
    (r"turn (?P<n>\d+)", _("turn %(n)s")),
    (r"invitation #(?P<n>\d+)", _("invitation #%(n)s")),
    (r"message (?P<n>\d+) of conversation #(?P<c>\d+)", _("message %(n)s of conversation #%(c)s")),
    (r"structures on (?P<board>.+)", _("structures on %(board)s")),
    (r"knowledge on (?P<board>.+)", _("knowledge on %(board)s")),
    (r"board (?P<board>.+)", "%(board)s"),
    (r"(?P<department>.+): funding order", _("%(department)s: funding order")),
    (r"(?P<user>[\w.@+-]+) replaced", _("%(user)s replaced")),
    (r"(?P<user>[\w.@+-]+) removed", _("%(user)s removed")),
    (r"(?P<user>[\w.@+-]+) joined", _("%(user)s joined")),
]  # fmt: skip
TARGETS = [(re.compile(pattern), text) for pattern, text in PATTERNS]


def audit_target(stored: str) -> str:
    """`stored` (an entry's target) in the active language; as stored if no pattern knows it."""
    for pattern, words in TARGETS:
        if (match := pattern.fullmatch(stored)) is not None:
            return str(words) % match.groupdict()
    return stored


# --- Before and after ---------------------------------------------------------------------

# Every key the services write into `before` and `after`. A key not here is data (a player's
# name, a department's slug, as a structure's or knowledge's keys) and is shown as stored.
KEYS: dict[str, Any] = {
    "alignment": _("alignment"), "alignments": _("alignments"), "amount": _("amount"),
    "attempt_cutoff_hours": _("attempt cut-off (hours)"), "attempts_per_turn": _("attempts per turn"),
    "audience": _("audience"), "character_name": _("character name"), "commitment": _("commitment"),
    "condition": _("condition"), "consumes": _("consumes"), "contingency": _("contingency envelope"),
    "controller": _("controller"), "count": _("progress"), "created": _("created"),
    "date": _("date"), "deadline": _("deadline"), "deadline_time": _("deadline time"),
    "deadline_weekday": _("deadline weekday"), "department": _("department"),
    "departments": _("departments"), "deputy": _("deputy"), "description": _("description"),
    "early_processing": _("early processing"), "effect": _("effect"), "election": _("election in turn"),
    "envelope": _("envelope"), "expires_at": _("expires"), "flaws": _("flaws"),
    "functions": _("functions"), "gm_reads_press": _("GM reads private press"), "granted": _("granted"),
    "grants": _("grants"), "hidden": _("hidden from the players"), "holder": _("holder"),
    "home": _("home"), "imported": _("imported"), "impress": _("impress"), "invitation": _("invitation"),
    "kind": _("kind"), "knowledge": _("knowledge"), "last_turn": _("last turn"), "level": _("level"),
    "link": _("link"), "links": _("links"), "max_in_links": _("in-links at most"),
    "max_out_links": _("out-links at most"), "n": _("number"), "name": _("name"),
    "obstruct": _("obstruct"), "opened": _("open to every member"), "opened_turn": _("turn opened"),
    "opposite": _("opposite"), "order": _("funding order"), "orders_cancelled": _("orders cancelled"),
    "orders_discarded": _("orders discarded"), "orders_queued_again": _("orders queued again"),
    "perception": _("Perception"), "player": _("player"), "press_rules": _("press rules"),
    "produces": _("produces"), "reminder_hours": _("reminder (hours before)"), "removed": _("removed"),
    "revoked": _("revoked"), "role": _("role"), "seed": _("seed"), "self_opposed": _("self-opposed"),
    "sender": _("sender"), "shticks": _("shticks"), "slug": _("short name"), "stash": _("stash"),
    "stat": _("statistic"), "status": _("status"), "structures": _("structures"),
    "target": _("target number"), "text": _("text"), "time_zone": _("time zone"), "turn": _("turn"),
    "type": _("type"), "uses": _("uses"),
}  # fmt: skip
# Keys whose value is an instant (or a day) in ISO form: said in the reader's time zone.
TIME_KEYS = {"deadline", "expires_at", "date"}


def audit_values(values: object, zone: str) -> list[tuple[str, str]]:
    """An entry's `before` or `after` as lines (what, its value in words) in the active
    language, times in `zone` (the reader's, else the campaign's). Nothing: no lines."""
    if isinstance(values, dict):
        # By key: PostgreSQL's jsonb gives the keys back in its own order, not as written.
        return [(key_text(k), value_text(k, values[k], zone)) for k in sorted(values, key=str)]
    if values in (None, "", []):
        return []
    return [("", value_text("", values, zone))]


def key_text(key: object) -> str:
    words = KEYS.get(str(key))
    return str(words) if words is not None else str(key)


def value_text(key: str, value: object, zone: str) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value is None or value in ("", [], {}):
        return str(_("none"))
    if isinstance(value, dict):
        return ", ".join(f"{key_text(k)}: {nested_text(k, value[k], zone)}" for k in sorted(value))
    if isinstance(value, list | tuple):
        items = [nested_text(key, item, zone) for item in value]
        return "; ".join(items) if any(isinstance(i, dict) for i in value) else ", ".join(items)
    if isinstance(value, str) and key in TIME_KEYS:
        return time_text(value, zone)
    if isinstance(value, str) and key in CHOICES:
        return choice_text(CHOICES[key], value)
    return str(value)


def nested_text(key: str, value: object, zone: str) -> str:
    """A value inside a value: an object in brackets, so its parts stay apart."""
    text = value_text(key, value, zone)
    return f"({text})" if isinstance(value, dict) and value else text


def time_text(stored: str, zone: str) -> str:
    """An ISO instant as the site shows times (_instant.html's format), or a day; as stored
    if it is neither."""
    try:
        instant = dt.datetime.fromisoformat(stored)
    except ValueError:
        return stored
    if len(stored) == len("2026-01-31"):
        return dateformat.format(instant.date(), "j M Y")
    if instant.tzinfo is not None:
        try:
            instant = instant.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            instant = instant.astimezone(dt.UTC)
    return dateformat.format(
        instant, pgettext("date format of a time shown on the site", "D j M Y, H:i T")
    )


def choice_text(choices: list[type[TextChoices]], code: str) -> str:
    """A stored code (a campaign's or a turn's status, a role) as its label."""
    for kind in choices:
        if code in kind.values:
            return str(kind(code).label)
    return code


# Keys whose value is a stored code of a model's choices: said as its label.
CHOICES: dict[str, list[type[TextChoices]]] = {
    "status": [Campaign.Status, Turn.Status],
    "role": [Membership.Role],
    "press_rules": [Campaign.PressRules],
}

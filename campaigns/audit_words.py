# One line per pattern: the table reads as a table (E501 off for this file only).
# ruff: noqa: E501
"""What an audit-log entry is about (RULES R53), in the reader's language (issue 13).

The log is a record: each entry's `target` is stored once, in English, as the service wrote
it ("structures on City", "invitation #3"), and is never changed afterwards. TARGETS says each
stored form again through gettext when the log is shown; the names inside (boards,
departments, users) are data and stay as they were. A target no pattern knows is shown as
stored. Used by the `audit_target` template filter (templatetags/words.py)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from campaigns.reasons import said_again

# (the stored target, as services/*.py write it; its words again). Most particular first.
PATTERNS: list[tuple[str, Any]] = [
    (r"campaign settings", _("campaign settings")),
    (r"alignment catalogue", _("alignment catalogue")),
    (r"campaign ended", _("campaign ended")),
    (r"campaign opened", _("campaign opened")),
    (r"press rules", _("press rules")),
    (r"turn (?P<n>\d+)", _("turn %(n)s")),
    (r"invitation #(?P<n>\d+)", _("invitation #%(n)s")),
    (r"message (?P<n>\d+) of conversation #(?P<c>\d+)", _("message %(n)s of conversation #%(c)s")),
    (r"structures on (?P<board>.+)", _("structures on %(board)s")),
    (r"knowledge on (?P<board>.+)", _("knowledge on %(board)s")),
    (r"board (?P<board>.+)", _("board %(board)s")),
    (r"(?P<department>.+): funding order", _("%(department)s: funding order")),
    (r"(?P<user>[\w.@+-]+) replaced", _("%(user)s replaced")),
    (r"(?P<user>[\w.@+-]+) removed", _("%(user)s removed")),
    (r"(?P<user>[\w.@+-]+) joined", _("%(user)s joined")),
]  # fmt: skip
TARGETS = [(re.compile(pattern), text) for pattern, text in PATTERNS]


def audit_target(stored: str) -> str:
    """`stored` (an entry's target) in the active language; as stored if no pattern knows it."""
    found = said_again(stored, TARGETS)
    return str(found[0]) % found[1] if found else stored

"""The words the site's scripts write, in the reader's language. A script has no
gettext: the page carries its words (a JSON the template renders, or data attributes), as
deadline.js reads its own from <body>. English stays in each script as its fallback."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.words.labels import STATUS_LABELS, TYPE_LABELS


def map_words() -> dict[str, Any]:
    """The words board_map.js writes on and beside the map (labels, tooltips, the detail
    line), in the active language: the script reads them from the page
    (templates/campaigns/_map_scripts.html)."""
    return {
        "types": [str(TYPE_LABELS[kind]) for kind in ("money", "people", "authority")],
        "initials": pgettext("first letters of Money, People, Authority", "M P A").split(),
        "statuses": {code: str(label) for code, label in STATUS_LABELS.items()},
        "outcomes": {"failed": _("failed"), "rejected": _("rejected"), "queued": _("queued")},
        "only_rumours": _("only rumours"),
        "yours": _("yours"),
        "uncontrolled": _("uncontrolled"),
        "home": _("home department"),
        "changed_hands": _("changed hands this turn"),
        "attempt": _("attempt %(status)s"),
        "tried": _("%(attacker)s tried to link %(target)s: %(status)s"),
        "priority": _("priority %(n)s"),
        "funded": _("consumer funded"),
        "unfunded": _("consumer unfunded"),
        "new": _("new this turn"),
        "broken": _("broken this turn"),
        "undone": _("made and broken again this turn"),
    }

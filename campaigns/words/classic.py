"""A classic board's words (RULES R90-R99): goals (R98), places and bonuses (R91)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def goal_text(goal: dict[str, Any] | None, win_groups: int) -> str:
    """R98: what an Illuminati's goal asks, in words (besides the number of groups)."""
    kind = (goal or {}).get("kind")
    n = (goal or {}).get("amount", 0)
    alignment = (goal or {}).get("alignment", "")
    match kind:
        case "power":
            return _("total power of your groups at least %(n)s") % {"n": n}
        case "transferable":
            return _("total transferable power of your groups at least %(n)s") % {"n": n}
        case "money":
            return _("at least %(n)s MB across your treasuries") % {"n": n}
        case "alignment":
            return ngettext(
                "%(n)s of your groups %(alignment)s",
                "%(n)s of your groups %(alignment)s",
                n,
            ) % {"n": n, "alignment": alignment}
        case "every_alignment":
            listed = ", ".join(str(a) for a in (goal or {}).get("alignments", []))
            return _("a group of each of: %(alignments)s") % {"alignments": listed}
        case "destroyed":
            return _("%(n)s groups destroyed by you") % {"n": n}
        case "in_play":
            return _("%(n)s groups %(alignment)s in play") % {"n": n, "alignment": alignment}
    return _("control %(n)s groups") % {"n": win_groups}


def bonus_text(bonus: dict[str, Any]) -> str:
    """R91: '+3 to control (its own attacks, against Criminal)'."""
    aim = {
        "control": _("to control"),
        "neutralize": _("to neutralize"),
        "destroy": _("to destroy"),
    }.get(str(bonus.get("aim")), _("to every attack"))
    scope = _("its own attacks") if bonus.get("scope") == "own" else _("every attack of its player")
    text = _("+%(n)s %(aim)s (%(scope)s)") % {
        "n": bonus.get("amount", 0),
        "aim": aim,
        "scope": scope,
    }
    if bonus.get("alignment"):
        text += " " + _("against %(alignment)s groups") % {"alignment": bonus["alignment"]}
    return text

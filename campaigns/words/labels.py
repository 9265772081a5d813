"""The words every other words module builds on: the resource types, the stats and a
department's status (R34) as labels, counts with their noun in the right number, numbers,
percentages and lists as the active language writes them.

Nothing here reads the database or knows about orders; game.py, intrigue.py, election.py and
the rest import from here, and this module imports none of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils import formats
from django.utils.functional import lazy
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

# slug (or whatever an order holds) -> the department's name as the viewer may see it
Namer = Callable[[object], str]

TYPE_LABELS = {
    "money": gettext_lazy("Money"),
    "people": gettext_lazy("People"),
    "authority": gettext_lazy("Authority"),
}
STAT_LABELS = {
    "effect": gettext_lazy("Effect"),
    "obstruct": gettext_lazy("Obstruct"),
    "impress": gettext_lazy("Impress"),
}
# R34: a department's status after spawn and consume (the engine's codes), in words.
STATUS_LABELS = {
    "funded": gettext_lazy("funded"),
    "unfunded": gettext_lazy("unfunded"),
    "self_sufficient": gettext_lazy("self-sufficient"),
}
IRREGULAR_PLURALS = {"die": "dice", "successes": "successes", "success": "successes"}


def counted(noun: str, n: int) -> str | None:
    """The nouns the site counts, in the active language ('%(n)s' in each)."""
    match noun:
        case "die":
            return ngettext("%(n)s die", "%(n)s dice", n)
        case "token":
            return ngettext("%(n)s token", "%(n)s tokens", n)
        case "success" | "successes":
            return ngettext("%(n)s success", "%(n)s successes", n)
        case "department":
            return ngettext("%(n)s department", "%(n)s departments", n)
        case "link":
            return ngettext("%(n)s link", "%(n)s links", n)
        case "group":
            return ngettext("%(n)s group", "%(n)s groups", n)
        case "level":
            return ngettext("%(n)s level", "%(n)s levels", n)
        case "turn":
            return ngettext("%(n)s turn", "%(n)s turns", n)
        case "order":
            return ngettext("%(n)s order", "%(n)s orders", n)
    return None


def count(n: int, singular: str) -> str:
    """'1 die', '2 dice', '0 tokens': the number with its noun in the right number."""
    if (text := counted(singular, n)) is not None:
        return text % {"n": n}
    if n == 1:
        return f"{n} {singular}"
    return f"{n} {IRREGULAR_PLURALS.get(singular, singular + 's')}"


def percent_text(value: float, decimal_pos: int = 1) -> str:
    """A percentage as the active language writes it: '42.5%' in English, '42,5 %' in German
    (a non-breaking space before the sign; the decimal comma from Django's localization)."""
    number = formats.number_format(round(value, decimal_pos), decimal_pos)
    return pgettext("a percentage: a number and the percent sign", "%(number)s%%") % {
        "number": number
    }


def status_label(code: object) -> str:
    """A department's status (R34) in words: "self-sufficient" for the engine's
    "self_sufficient"; "" for none."""
    text = str(code or "")
    return str(STATUS_LABELS.get(text, text.replace("_", "-")))


def in_text(label: object) -> str:
    """A noun label (a role, an order kind) inside a sentence: lower case in English ("you
    joined as player"), as it stands in German, whose nouns keep their capital."""
    text = str(label)
    return text if (get_language() or "en").startswith("de") else text.lower()


def number(n: int) -> str:
    """A whole number as the active language writes it: 2,000 in English, 2.000 in German."""
    return str(formats.number_format(n, force_grouping=True))


def listing(parts: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [p for p in parts if p]
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def lazy_format(text: Any, **values: Any) -> str:
    """`text % values` when it is shown (a form's help text, made at import time)."""
    return lazy(lambda: str(text) % values, str)()


def tokens_text(tokens: object) -> str:
    """{money: 2, authority: 1} -> '2 Money and 1 Authority'; '' for none (or junk)."""
    if not isinstance(tokens, Mapping):
        return ""
    return listing(
        f"{n} {label}"
        for kind, label in TYPE_LABELS.items()
        if isinstance(n := tokens.get(kind), int) and n > 0
    )

"""Forms of the GM's editor of a classic board (RULES R91, R92, R98). They check the input only
(whole numbers, choices, a goal's parts); the engine reviews the board it makes
(classic/services/editor.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.classic.selectors.board_files import bonus_from_text, bonus_problem, bonus_text
from campaigns.classic.services.editor import CARD_LISTS
from campaigns.services.boards import BIG_MAX

PLACES = [
    ("structure", _("in a power structure")),
    ("table", _("on the table (uncontrolled)")),
    ("deck", _("in the deck (at its bottom, face down)")),
    ("destroyed", _("destroyed")),
]
GOALS = [
    ("", _("no goal")),
    ("groups", _("only the number of groups (R98)")),
    ("power", _("total power at least …")),
    ("transferable", _("total transferable power at least …")),
    ("money", _("megabucks across the treasuries at least …")),
    ("destroyed", _("groups destroyed by the player at least …")),
    ("alignment", _("groups of one alignment at least …")),
    ("in_play", _("groups of one alignment in play at least …")),
    ("every_alignment", _("a group of each alignment listed")),
]
AMOUNT_GOALS = ("power", "transferable", "money", "destroyed", "alignment", "in_play")
ALIGNMENT_MAX = 60
LIST_MAX = 600


def whole(label: Any, *, required: bool = True) -> forms.IntegerField:
    return forms.IntegerField(min_value=0, max_value=BIG_MAX, label=label, required=required)


class ClassicGroupForm(forms.Form):
    """One group's figures (R91), place and parent (R92) and treasury. `parents`: the groups
    in a structure it may hang on (slug, label)."""

    power = whole(_("Power"))
    transferable = whole(_("Transferable power"))
    resistance = whole(_("Resistance"), required=False)
    income = whole(_("Income"))
    arrows = whole(_("Out-arrows"))
    treasury = whole(_("Treasury (MB)"))
    alignments = forms.CharField(
        label=_("Alignments"), max_length=LIST_MAX, required=False,
        help_text=_("Separated by ;, e.g. Criminal; Violent (R91)."),
    )  # fmt: skip
    bonuses = forms.CharField(
        label=_("Bonuses"), max_length=LIST_MAX, required=False,
        help_text=_(
            "Separated by ;, each an aim and an amount, then optionally own (its own attacks "
            "only) and an alignment: e.g. control 3 own Criminal; destroy 2 (R91)."
        ),
    )  # fmt: skip
    place = forms.ChoiceField(label=_("Place"), choices=PLACES)
    parent = forms.ChoiceField(
        label=_("Hangs on"),
        required=False,
        help_text=_(
            "For a group in a power structure: the group it hangs on; it joins that group's "
            "player with its whole subtree (R92). An Illuminati hangs on nothing."
        ),
    )

    def __init__(
        self, *args: Any, parents: list[tuple[str, str]], illuminati: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["parent"].choices = [("", _("nothing")), *parents]
        self.fields["resistance"].help_text = _("Empty for an Illuminati: it has none (R91).")
        if illuminati:
            # R91: an Illuminati is the root of its player's structure; it is never moved.
            del self.fields["place"], self.fields["parent"]

    def clean_bonuses(self) -> list[dict[str, Any]]:
        entries = names(self.cleaned_data.get("bonuses") or "")
        bonuses = [bonus_from_text(entry) for entry in entries]
        problems = [bonus_problem(e) for e, b in zip(entries, bonuses, strict=True) if b is None]
        if problems:
            raise forms.ValidationError(problems)
        return [b for b in bonuses if b is not None]

    def values(self) -> dict[str, Any]:
        """The figures, alignments and bonuses, and the place: an Illuminati's stays the root
        of its structure."""
        data = {**self.cleaned_data, "alignments": names(self.cleaned_data.get("alignments") or "")}
        # A card's lists not posted at all (not the form's own page) are left as they are.
        data = {k: v for k, v in data.items() if k not in CARD_LISTS or k in self.data}
        return {"place": "structure", "parent": None, **data}


def group_initial(group: dict[str, Any]) -> dict[str, Any]:
    keys = ("power", "transferable", "resistance", "income", "arrows", "treasury", "place")
    return {
        **{k: group.get(k) for k in keys},
        "parent": group.get("parent") or "",
        "alignments": "; ".join(str(a) for a in group.get("alignments") or []),
        "bonuses": "; ".join(
            bonus_text(b) for b in group.get("bonuses") or [] if isinstance(b, dict)
        ),
    }


class ClassicPlayerForm(forms.Form):
    """A player's Illuminati treasury and goal (R98)."""

    treasury = whole(_("Treasury of their Illuminati (MB)"))
    goal = forms.ChoiceField(label=_("Goal"), choices=GOALS, required=False)
    amount = whole(_("Amount"), required=False)
    alignment = forms.CharField(
        label=_("Alignment"), max_length=ALIGNMENT_MAX, required=False,
        help_text=_("For a goal of one alignment, e.g. Criminal."),
    )  # fmt: skip
    alignments = forms.CharField(
        label=_("Alignments"), max_length=LIST_MAX, required=False,
        help_text=_("For a group of each alignment listed, e.g. Government; Liberal."),
    )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("goal")
        if kind in AMOUNT_GOALS and data.get("amount") is None:
            self.add_error("amount", _("This goal needs an amount."))
        if kind in ("alignment", "in_play") and not data.get("alignment"):
            self.add_error("alignment", _("This goal needs an alignment."))
        if kind == "every_alignment" and not names(data.get("alignments") or ""):
            self.add_error("alignments", _("This goal needs the alignments, separated by ;."))
        return data

    def goal_value(self) -> dict[str, Any] | None:
        """The goal as ENGINE.md part 10 writes it, or None."""
        data = self.cleaned_data
        kind = data.get("goal")
        if not kind:
            return None
        if kind == "every_alignment":
            return {"kind": kind, "alignments": names(data["alignments"])}
        goal: dict[str, Any] = {"kind": kind}
        if kind in ("alignment", "in_play"):
            goal["alignment"] = data["alignment"].strip()
        if kind in AMOUNT_GOALS:
            goal["amount"] = data["amount"]
        return goal


def names(text: str) -> list[str]:
    return [part.strip() for part in text.split(";") if part.strip()]


def player_initial(treasury: int, goal: dict[str, Any] | None) -> dict[str, Any]:
    goal = goal or {}
    return {
        "treasury": treasury,
        "goal": goal.get("kind", ""),
        "amount": goal.get("amount"),
        "alignment": goal.get("alignment") or "",
        "alignments": "; ".join(str(a) for a in goal.get("alignments") or []),
    }

"""A form per kind of the RULES R60 shtick catalogue, each asking exactly its fields, with
departments and boards offered as choices and the kinds of roll as choices; or a narrative
shtick's text. Each form's `engine_object()` is the shtick as ENGINE.md holds it (the
department by slug, or null), ready for the engine's parser: the services of a character's
shticks (intrigue/services/characters.py, which take the department as a row: `department_pk()`) and
of an office's (R80, elections/services/offices.py) both take it. The forms check input only; the
engine checks the shtick when it is saved."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.engine.sheets import ROLLS
from campaigns.intrigue.selectors.character import DepartmentOption, department_choices
from campaigns.models import Shtick
from campaigns.web.order_form_base import linked_help
from campaigns.words.intrigue import ROLL_LABELS

MAX_AMOUNT = 20  # a sane cap for +n: the engine takes any whole number
MAX_LIMIT = 20
MAX_TEXT = 1000
EVERY = ""  # the choice "every department of the structure" (department null)
ROLL_CHOICES = [(roll, ROLL_LABELS[roll]) for roll in ROLLS]


def amount_field(label: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=MAX_AMOUNT, initial=1)


class ShtickForm(forms.Form):
    """Base: `departments` and `boards` (slug, name) are what its choices may offer."""

    kind: str = ""

    def __init__(
        self,
        *args: Any,
        departments: list[DepartmentOption],
        boards: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.options = {str(d.pk): d for d in departments}
        choices = department_choices(departments)
        if "department" in self.fields:
            field = self.fields["department"]
            every = [(EVERY, _("every department of the structure"))] if not field.required else []
            field.choices = every + choices  # type: ignore[attr-defined]
        for name in ("board_a", "board_b"):
            if name in self.fields:
                self.fields[name].choices = boards  # type: ignore[attr-defined]
        linked_help(self)

    def department_pk(self) -> int | None:
        value = self.cleaned_data.get("department") or EVERY
        return self.options[value].pk if value in self.options else None

    def fields_of(self) -> dict[str, Any]:
        """The kind's own ENGINE.md fields (subclasses)."""
        return {}

    def engine_object(self) -> dict[str, Any]:
        """R60: the shtick as ENGINE.md holds it."""
        data: dict[str, Any] = {"kind": self.kind, **self.fields_of()}
        if "department" in self.fields:
            value = self.cleaned_data.get("department") or EVERY
            data["department"] = self.options[value].slug if value in self.options else None
        return data


class ProductionForm(ShtickForm):
    kind = Shtick.Kind.PRODUCTION
    department = forms.ChoiceField(
        label=gettext_lazy("Department"),
        help_text=gettext_lazy(
            "Its produced amount, and so its capacity, grows while it is in the holder's "
            "structure (R32, R36). A department that produces nothing gains nothing."
        ),
    )
    amount = amount_field(gettext_lazy("More production"))

    def fields_of(self) -> dict[str, Any]:
        return {"amount": self.cleaned_data["amount"]}


class RollForm(ShtickForm):
    """dice and skill: one kind of roll, of one department or of the whole structure."""

    roll = forms.ChoiceField(label=gettext_lazy("Kind of roll"), choices=ROLL_CHOICES)
    department = forms.ChoiceField(
        label=gettext_lazy("Rolled by"),
        required=False,
        help_text=gettext_lazy(
            "A perception check counts only a shtick for every department (R70)."
        ),
    )

    def fields_of(self) -> dict[str, Any]:
        return {"roll": self.cleaned_data["roll"], "amount": self.cleaned_data["amount"]}


class DiceForm(RollForm):
    kind = Shtick.Kind.DICE
    amount = amount_field(gettext_lazy("More dice"))


class SkillForm(RollForm):
    kind = Shtick.Kind.SKILL
    amount = amount_field(gettext_lazy("More skill"))


class AttemptsForm(ShtickForm):
    kind = Shtick.Kind.ATTEMPTS
    amount = amount_field(gettext_lazy("More linking attempts per turn (R43)"))

    def fields_of(self) -> dict[str, Any]:
        return {"amount": self.cleaned_data["amount"]}


class LinkLimitForm(ShtickForm):
    kind = Shtick.Kind.LINK_LIMIT
    department = forms.ChoiceField(label=gettext_lazy("Department"))
    out = forms.IntegerField(
        label=gettext_lazy("Outgoing links at most"), min_value=0, max_value=MAX_LIMIT,
        required=False,
    )  # fmt: skip
    into = forms.IntegerField(
        label=gettext_lazy("Incoming links at most"), min_value=0, max_value=MAX_LIMIT,
        required=False,
        help_text=gettext_lazy(
            "Leave one empty to keep the campaign's setting (R11). The limits bind new links."
        ),
    )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("out") is None and data.get("into") is None:
            raise forms.ValidationError(_("Give at least one of the two limits."))
        return data

    def fields_of(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            **({"out": data["out"]} if data.get("out") is not None else {}),
            **({"in": data["into"]} if data.get("into") is not None else {}),
        }


class CrossBoardForm(ShtickForm):
    kind = Shtick.Kind.CROSS_BOARD
    board_a = forms.ChoiceField(label=gettext_lazy("One board"))
    board_b = forms.ChoiceField(
        label=gettext_lazy("The other board"),
        help_text=gettext_lazy(
            "The holder may link departments of these two boards, by adding a link or by a "
            "linking attempt (R2, R60)."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("board_a") and data.get("board_a") == data.get("board_b"):
            raise forms.ValidationError(_("Choose two different boards."))
        return data

    def fields_of(self) -> dict[str, Any]:
        return {"boards": [self.cleaned_data["board_a"], self.cleaned_data["board_b"]]}


class PerceptionForm(ShtickForm):
    kind = Shtick.Kind.PERCEPTION
    amount = amount_field(gettext_lazy("More Perception (R70)"))

    def fields_of(self) -> dict[str, Any]:
        return {"amount": self.cleaned_data["amount"]}


class TextForm(ShtickForm):
    kind = Shtick.Kind.TEXT
    text = forms.CharField(
        label=gettext_lazy("What the character can do"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Narrative only: the engine does nothing with it (R60)."),
    )

    def fields_of(self) -> dict[str, Any]:
        return {"text": self.cleaned_data["text"].strip()}


SHTICK_FORMS: dict[str, type[ShtickForm]] = {
    form.kind: form
    for form in (
        ProductionForm, DiceForm, SkillForm, AttemptsForm, LinkLimitForm, CrossBoardForm,
        PerceptionForm, TextForm,
    )
}  # fmt: skip

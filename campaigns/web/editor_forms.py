"""Forms of the GM's board and department editor. They check the input only (numbers,
lengths, choices); the engine decides what the board can take (services/editor.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Board, Membership
from campaigns.models.board import Resource
from campaigns.services.boards import BIG_MAX, NAME_MAX, SLUG_MAX, SMALL_MAX, TEXT_MAX

NOTHING = [("", "nothing")]
FUNCTION_MAX = 60


class BoardForm(forms.Form):
    """A new board (R2): its name and the address in its URL."""

    name = forms.CharField(max_length=NAME_MAX, label=_("Name"))
    slug = forms.SlugField(
        max_length=SLUG_MAX,
        label=_("Address"),
        help_text=_(
            "Letters, digits and dashes, e.g. old-town; it appears in the board's URL "
            "and cannot change later."
        ),
    )
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        choices=Board.Ruleset.choices,
        initial=Board.Ruleset.STANDARD,
        # A post without it (a script, an older form) makes a board as before: standard.
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "Illumineaucracy boards hold departments that feed each other Money, People and "
            "Authority; classic boards hold the groups and megabucks of the card game "
            "Illuminati. It cannot change later (R90). A classic board's groups come from a "
            "file: to make one with its groups, use Import a board instead."
        ),
    )

    def clean_ruleset(self) -> str:
        return self.cleaned_data.get("ruleset") or Board.Ruleset.STANDARD


class BoardRenameForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX, label=_("Name"))


def amount_field(label: str, maximum: int = SMALL_MAX) -> forms.IntegerField:
    return forms.IntegerField(min_value=0, max_value=maximum, initial=0, label=label)


class DepartmentForm(forms.Form):
    """Every field of a card (R4), and who holds it (R13). The alignments offered are the
    campaign's catalogue (R5); the players, those who may hold a structure."""

    name = forms.CharField(max_length=NAME_MAX, label=_("Name"))
    slug = forms.SlugField(
        max_length=SLUG_MAX,
        label=_("Address"),
        help_text=_("Letters, digits and dashes, unique on the board; it cannot change later."),
    )
    description = forms.CharField(
        max_length=TEXT_MAX["description"],
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Description"),
    )
    effect = amount_field(_("Effect"))
    obstruct = amount_field(_("Obstruct"))
    impress = amount_field(_("Impress"))
    consumes_type = forms.ChoiceField(
        choices=NOTHING + list(Resource.choices), required=False, label=_("Consumes")
    )
    consumes_amount = amount_field(_("Amount consumed"))
    produces_type = forms.ChoiceField(
        choices=NOTHING + list(Resource.choices), required=False, label=_("Produces")
    )
    produces_amount = amount_field(_("Amount produced"))
    alignments = forms.MultipleChoiceField(
        required=False,
        label=_("Alignments"),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
        help_text=_("up to three, never one with its opposite"),
    )
    flaws = forms.CharField(
        max_length=TEXT_MAX["flaws"],
        required=False,
        label=_("Tragic flaws"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Plot hooks; no effect on the rules."),
    )
    money = amount_field(_("Money"), BIG_MAX)
    people = amount_field(_("People"), BIG_MAX)
    authority = amount_field(_("Authority"), BIG_MAX)
    controller = forms.ChoiceField(required=False, label=_("Held by"))
    home = forms.BooleanField(
        required=False,
        label=_("A home department"),
        help_text=_("It stays in the structure even when unlinked (R13)."),
    )

    def __init__(
        self,
        *args: Any,
        catalogue: list[str],
        players: list[Membership],
        new: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["alignments"].choices = [(name, name) for name in catalogue]
        self.fields["controller"].choices = [("", _("nobody (uncontrolled)"))] + [
            (str(p.pk), p.display_name) for p in players
        ]
        self.players = {str(p.pk): p for p in players}
        if not new:
            del self.fields["slug"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for side in ("consumes", "produces"):
            kind, amount = data.get(f"{side}_type"), data.get(f"{side}_amount")
            if kind and amount == 0:
                self.add_error(f"{side}_amount", _("At least 1, or choose 'nothing' (R4)."))
            if not kind and amount:
                self.add_error(f"{side}_type", _("Choose a resource for this amount (R4)."))
        return data

    def values(self, functions: dict[str, int]) -> dict[str, Any]:
        """The cleaned card as services/editor.py takes it."""
        data = dict(self.cleaned_data)
        data["controller"] = self.players.get(data.get("controller") or "")
        data["functions"] = functions
        data["alignments"] = list(data.get("alignments") or [])
        return data


def department_initial(dept: Any, catalogue: list[str]) -> dict[str, Any]:
    """The department's fields as the form's initial values (alignments spelled as the
    catalogue spells them: the engine compares them case-insensitively)."""
    spelled = {name.casefold(): name for name in catalogue}
    initial = {name: getattr(dept, name) for name in DepartmentForm.base_fields if name not in
               ("controller", "alignments", "slug")}  # fmt: skip
    initial["alignments"] = [spelled.get(a.casefold(), a) for a in dept.alignments]
    initial["controller"] = str(dept.structure.player_id) if dept.structure_id else ""
    return initial


class FunctionForm(forms.Form):
    """One function and its skill (R4: skill >= 0; R22: rolled for 7s)."""

    name = forms.CharField(max_length=FUNCTION_MAX, required=False, label=_("Function"))
    skill = forms.IntegerField(min_value=0, max_value=SMALL_MAX, required=False, label=_("Skill"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("name", "").strip() and data.get("skill") is None:
            self.add_error("skill", _("Give the function a skill (0 or more)."))
        return data


class BaseFunctionFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        super().clean()
        seen: set[str] = set()
        for form in self.forms:
            name = (form.cleaned_data or {}).get("name", "").strip()
            if name and not form.cleaned_data.get("DELETE"):
                if name.casefold() in seen:
                    raise forms.ValidationError(
                        _("%(name)s is listed twice: one line each.") % {"name": name}
                    )
                seen.add(name.casefold())

    def functions(self) -> dict[str, int]:
        return {
            f.cleaned_data["name"].strip(): f.cleaned_data["skill"]
            for f in self.forms
            if f.cleaned_data.get("name", "").strip() and not f.cleaned_data.get("DELETE")
        }


FunctionFormSet = forms.formset_factory(
    FunctionForm, formset=BaseFunctionFormSet, extra=2, can_delete=True, max_num=30,
    validate_max=True,
)  # fmt: skip


class LinkAddForm(forms.Form):
    """A new link from or to the department (R10-R12): `direction` out: it supplies
    `partner`; in: `partner` supplies it."""

    direction = forms.ChoiceField(
        choices=[("out", _("supplies")), ("in", _("is supplied by"))], widget=forms.HiddenInput
    )
    partner = forms.TypedChoiceField(coerce=int, label=_("Department"))

    def __init__(self, *args: Any, partners: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["partner"].choices = [("", _("choose a department"))] + partners


class LinkShiftForm(forms.Form):
    direction = forms.ChoiceField(choices=[("up", _("earlier")), ("down", _("later"))])

"""The GM's forms of RULES parts 7 and 8 beside the shticks (intrigue/web/shtick_forms.py): a secret
goal per kind (R61), a contingency envelope per kind of condition (R72) and an intel envelope
on a department (R71). Each asks exactly what its kind needs and offers departments, players,
alignments, types and stats as choices. They check input only: the services have the engine
check the rest (intrigue/services/characters.py, intrigue/services/envelopes.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.intrigue.services.envelopes import MAX_TEXT
from campaigns.models import ContingencyEnvelope, Goal, Knowledge
from campaigns.models.envelopes import GRANTS
from campaigns.web.order_form_base import linked_help
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS

MAX_GOAL = 10_000
MAX_TURN = 10_000
MAX_TARGET = 99  # far above 3d6 + any Perception the GM's form allows
Choices = list[tuple[Any, Any]]

# --- Secret goals (R61) ---------------------------------------------------------------------


class GoalForm(forms.Form):
    """Base: `n`, and the alignments of the campaign's catalogue for control_aligned."""

    kind: str = ""
    n = forms.IntegerField(label=gettext_lazy("N"), min_value=1, max_value=MAX_GOAL)

    def __init__(self, *args: Any, alignments: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "alignment" in self.fields:
            self.fields["alignment"].choices = [(a, a) for a in alignments]  # type: ignore[attr-defined]
        linked_help(self)

    def engine_object(self) -> dict[str, Any]:
        """R61: the goal's ENGINE.md fields (kind, n, and what the kind needs)."""
        data = {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}
        return {"kind": self.kind, **data}


class ControlGoalForm(GoalForm):
    kind = Goal.Kind.CONTROL
    n = forms.IntegerField(
        label=gettext_lazy("Departments controlled"), min_value=1, max_value=MAX_GOAL
    )


class AlignedGoalForm(GoalForm):
    kind = Goal.Kind.CONTROL_ALIGNED
    alignment = forms.ChoiceField(label=gettext_lazy("Alignment"))
    n = forms.IntegerField(
        label=gettext_lazy("Departments of that alignment controlled"),
        min_value=1,
        max_value=MAX_GOAL,
    )


class HoldGoalForm(GoalForm):
    kind = Goal.Kind.HOLD
    type = forms.ChoiceField(label=gettext_lazy("Type"), choices=list(TYPE_LABELS.items()))
    n = forms.IntegerField(
        label=gettext_lazy("Tokens held across the structures"), min_value=1, max_value=MAX_GOAL
    )


class StatGoalForm(GoalForm):
    kind = Goal.Kind.STAT_TOTAL
    stat = forms.ChoiceField(label=gettext_lazy("Stat"), choices=list(STAT_LABELS.items()))
    n = forms.IntegerField(
        label=gettext_lazy("Total over the departments controlled"),
        min_value=1,
        max_value=MAX_GOAL,
    )


class AttemptsGoalForm(GoalForm):
    kind = Goal.Kind.ATTEMPTS_WON
    n = forms.IntegerField(
        label=gettext_lazy("Successful linking attempts"), min_value=1, max_value=MAX_GOAL
    )


GOAL_FORMS: dict[str, type[GoalForm]] = {
    form.kind: form
    for form in (ControlGoalForm, AlignedGoalForm, HoldGoalForm, StatGoalForm, AttemptsGoalForm)
}

# --- Envelopes (R71, R72) -------------------------------------------------------------------


def text_field() -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("Text"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("Sealed: nobody reads it before it opens."),
    )


Condition = ContingencyEnvelope.Condition


class ContingencyForm(forms.Form):
    """R72: a sealed message to one player and the fields its condition needs. The date is
    typed in the campaign's time zone (the view validates with that zone active)."""

    text = text_field()

    def __init__(self, *args: Any, condition: str, departments: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.condition = condition
        if condition == Condition.TURN:
            self.fields["turn_number"] = forms.IntegerField(
                label=_("Opens after turn"), min_value=0, max_value=MAX_TURN
            )
        elif condition == Condition.DATE:
            self.fields["date"] = forms.DateTimeField(
                label=_("Opens at the first turn processed on or after"),
                widget=forms.DateTimeInput(
                    attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
                ),
                input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
            )
        else:
            self.fields["department"] = forms.TypedChoiceField(
                label=_("Department"), choices=departments, coerce=int
            )
        if condition == Condition.KNOWLEDGE:
            levels = [(level, label) for level, label in Knowledge.Level.choices if level]
            self.fields["level"] = forms.TypedChoiceField(
                label=_("Known at least as"), choices=levels, coerce=int
            )
        linked_help(self)


class IntelEnvelopeForm(forms.Form):
    """R71: what a perception check on the department may open, for whom, and what it
    grants."""

    text = text_field()
    target = forms.IntegerField(
        label=gettext_lazy("Target number"),
        min_value=0,
        max_value=MAX_TARGET,
        initial=12,
        help_text=gettext_lazy(
            "A check opens it when 3d6 + the checker's Perception and shticks reaches this "
            "(R70). 3d6 alone make 10.5 on average."
        ),
    )
    everyone = forms.BooleanField(
        label=gettext_lazy("Any player may open it"), required=False, initial=True
    )
    audience = forms.TypedMultipleChoiceField(
        label=gettext_lazy("Otherwise only these players"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "A player it is not addressed to finds nothing, whatever their total (R71)."
        ),
    )
    grants = forms.TypedChoiceField(
        label=gettext_lazy("Opening it also grants"),
        choices=[("", gettext_lazy("nothing more")), *GRANTS],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=gettext_lazy("A knowledge level of the department, never lowered (R50)."),
    )

    def __init__(self, *args: Any, players: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["audience"].choices = players  # type: ignore[attr-defined]
        linked_help(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("everyone") and not data.get("audience"):
            raise forms.ValidationError(_("Address it to any player, or choose at least one."))
        return data

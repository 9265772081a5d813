"""Forms of the GM's structures and knowledge grids and of a member's page. Grid forms get
one field per cell of the page shown, named by the ids of the member and department."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import PERCEPTION_MAX, Knowledge, Membership
from campaigns.selectors.structures_and_knowledge import KnowledgeGrid, StructuresPage
from campaigns.words.labels import in_text

LEVELS = [
    (Knowledge.Level.UNKNOWN.value, _("unknown")),
    (Knowledge.Level.RUMOURED.value, _("rumoured")),
    (Knowledge.Level.KNOWN.value, _("known")),
]
# How a grid cell looks at its stored level, so a page of them can be scanned at a glance.
LOOK = {0: "text-body-secondary", 1: "", 2: "fw-semibold"}


def cell_name(member: int, department: int) -> str:
    return f"level-{member}-{department}"


class KnowledgeGridForm(forms.Form):
    """R50: one select per editable cell of the page (a member's own departments have none:
    `controlled` follows the structure)."""

    def __init__(self, *args: Any, grid: KnowledgeGrid, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = {m.pk: m.name for m in grid.members}
        self.cells: dict[str, tuple[int, int]] = {}
        for row in grid.rows:
            for cell in row.cells:
                if cell.controlled:
                    continue
                name = cell_name(cell.member, row.pk)
                label = _("What %(member)s knows of %(department)s") % {
                    "member": names[cell.member],
                    "department": row.name,
                }
                look = f"form-select form-select-sm {LOOK[cell.level]}"
                self.fields[name] = forms.TypedChoiceField(
                    choices=LEVELS, coerce=int, initial=cell.level, label=label,
                    widget=forms.Select(attrs={"class": look, "aria-label": label}),
                )  # fmt: skip
                self.cells[name] = (cell.member, row.pk)
        self.grid = grid

    def lines(self) -> list[tuple[Any, list[tuple[Any, Any]]]]:
        """Each row of the grid with, per member, its cell and the cell's field (None for a
        department the member holds)."""
        return [
            (
                row,
                [
                    (cell, None if cell.controlled else self[cell_name(cell.member, row.pk)])
                    for cell in row.cells
                ],
            )
            for row in self.grid.rows
        ]

    def levels(self) -> dict[tuple[int, int], int]:
        return {pair: self.cleaned_data[name] for name, pair in self.cells.items()}


class KnowledgeBulkForm(forms.Form):
    """R50: one level for a whole board, one department (a row), one member (a column), or
    one cell."""

    member = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Who"))
    department = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=_("Which departments")
    )
    level = forms.TypedChoiceField(choices=LEVELS[1:] + LEVELS[:1], coerce=int, label=_("Level"))
    how = forms.ChoiceField(
        choices=[
            ("raise", _("raise to at least this level")),
            ("set", _("set exactly this level")),
        ],
        label=_("How"),
    )

    def __init__(self, *args: Any, grid: KnowledgeGrid, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [("", _("every player and observer"))] + [
            (m.pk, f"{m.name} ({in_text(m.role_label)})") for m in grid.members
        ]
        self.fields["department"].choices = [("", _("the whole board"))] + list(grid.departments)


class StructuresForm(forms.Form):
    """R13: for each department of the page, who holds it and whether it is a home
    department."""

    def __init__(self, *args: Any, page: StructuresPage, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("nobody"))] + [(str(p.pk), p.display_name) for p in page.players]
        self.players = {str(p.pk): p for p in page.players}
        self.rows = page.rows
        for row in page.rows:
            self.fields[f"controller-{row.pk}"] = forms.ChoiceField(
                choices=choices, required=False, initial=str(row.controller or ""),
                label=_("%(department)s is held by") % {"department": row.name},
                widget=forms.Select(attrs={"class": "form-select form-select-sm",
                                           "aria-label": _("%(department)s is held by")
                                           % {"department": row.name}}),
            )  # fmt: skip
            home = _("%(department)s is a home department") % {"department": row.name}
            self.fields[f"home-{row.pk}"] = forms.BooleanField(
                required=False, initial=row.home, label=home,
                widget=forms.CheckboxInput(attrs={"class": "form-check-input", "aria-label": home}),
            )  # fmt: skip

    def lines(self) -> list[tuple[Any, Any, Any]]:
        """Each row with its two fields."""
        return [(row, self[f"controller-{row.pk}"], self[f"home-{row.pk}"]) for row in self.rows]

    def assignments(self) -> dict[int, tuple[Membership | None, bool]]:
        data = self.cleaned_data
        return {
            row.pk: (self.players.get(data[f"controller-{row.pk}"] or ""), data[f"home-{row.pk}"])
            for row in self.rows
        }


class MemberForm(forms.Form):
    character_name = forms.CharField(max_length=120, required=False, label=_("Character name"))
    perception = forms.IntegerField(
        min_value=0,
        max_value=PERCEPTION_MAX,
        label=_("Perception"),
        help_text=_("Added to 3d6 in a perception check (R70)."),
    )
    role = forms.ChoiceField(
        choices=[(Membership.Role.PLAYER, _("Player")), (Membership.Role.OBSERVER, _("Observer"))],
        label=_("Role"),
        help_text=_("Observers queue no orders and hold no departments."),
    )


class ReplaceForm(forms.Form):
    successor = forms.TypedChoiceField(coerce=int, label=_("Hand everything to"))
    knowledge = forms.BooleanField(
        required=False,
        initial=True,
        label=_("They also learn what this player knew"),
        help_text=_(
            "Their knowledge of each department is raised to at least this player's (R50)."
        ),
    )

    def __init__(self, *args: Any, successors: list[Membership], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["successor"].choices = [("", "choose a player")] + [
            (m.pk, m.display_name) for m in successors
        ]

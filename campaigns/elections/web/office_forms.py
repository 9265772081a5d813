"""The GM's forms for offices and elections (RULES R80). They check input only: the service
has the engine check the office (elections/services/offices.py) and says why it refuses one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.elections.services.offices import MAX_NAME
from campaigns.models import Board
from campaigns.selectors.editor import catalogue_names


class OfficeForm(forms.Form):
    """R80: an office's name, its alignment from the campaign's catalogue, and who holds it
    and its deputy post (any department of the board, or nobody)."""

    name = forms.CharField(label=_("Name"), max_length=MAX_NAME)
    alignment = forms.ChoiceField(
        label=_("Alignment"),
        help_text=_(
            "The holder and the deputy count it as one of their own in every alignment "
            "count (R6), unless they hold its opposite."
        ),
    )
    holder = forms.ChoiceField(label=_("Held by"), required=False)
    deputy = forms.ChoiceField(label=_("Deputy"), required=False)

    def __init__(self, *args: Any, board: Board, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["alignment"].choices = [(n, n) for n in catalogue_names(board.campaign)]
        departments = list(board.departments.order_by("name").values_list("slug", "name"))
        vacant = [("", _("nobody (vacant)"))]
        self.fields["holder"].choices = vacant + departments
        self.fields["deputy"].choices = vacant + departments
        self.board = board

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("holder") and data.get("holder") == data.get("deputy"):
            self.add_error("deputy", _("The holder and the deputy are two different departments."))
        return data

    def posts(self) -> dict[str, Any]:
        """The holder and deputy as departments of the board (None: vacant)."""
        rows = {d.slug: d for d in self.board.departments.all()}
        return {post: rows.get(self.cleaned_data.get(post) or "") for post in ("holder", "deputy")}


class ElectionScheduleForm(forms.Form):
    """R80: the turn an election is held in (the open turn or a later one)."""

    number = forms.IntegerField(label=_("In turn"), min_value=1, max_value=10**6)

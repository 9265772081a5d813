"""Forms of the history pages: which two turns to compare, and reading `?turn=`."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


def asked_turn(value: str | None) -> tuple[int | None, str | None]:
    """`?turn=` read: (the turn number, None), (None, None) when none was asked, or
    (None, what was wrong) for anything that is not a whole number >= 0."""
    if value is None or not value.strip():
        return None, None
    text = value.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        shown = text if len(text) <= 20 else f"{text[:20]}…"
        return None, _("“%(shown)s” is not a turn number") % {"shown": shown}
    return int(text), None


class CompareForm(forms.Form):
    """Two recorded turns of one board. Given in either order, they are compared earlier
    to later (`clean` says so)."""

    first = forms.TypedChoiceField(label=_("From turn"), coerce=int)
    second = forms.TypedChoiceField(label=_("To turn"), coerce=int)

    def __init__(self, *args: object, numbers: list[int], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        choices = [
            (n, _("Turn %(n)s") % {"n": n} if n else _("Turn 0 (the start)")) for n in numbers
        ]
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices
            field.error_messages["invalid_choice"] = _("There is no record of turn %(value)s.")
        self.swapped = False

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        if isinstance(first, int) and isinstance(second, int):
            if first == second:
                raise forms.ValidationError(_("Pick two different turns to compare."))
            if first > second:
                data["first"], data["second"] = second, first
                self.swapped = True
        return data

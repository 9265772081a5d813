"""The site's form renderer writes selects in Python (campaigns/web/form_renderer.py): the
markup must be exactly what Django's templates write, for any choices, groups, selection,
attributes and text that needs escaping."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from campaigns.web.form_renderer import FormRenderer

TEMPLATES = DjangoTemplates()
FAST = FormRenderer()

text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
label = text | text.map(mark_safe)
choice = st.tuples(label, label)
group = st.tuples(text.filter(bool), st.lists(choice, max_size=4))
attrs = st.dictionaries(
    st.sampled_from(["class", "id", "aria-label", "required", "disabled", "data-x"]),
    st.booleans() | label | st.integers(),
    max_size=4,
)


def both(widget: forms.Widget, value: object, extra: dict) -> tuple[str, str]:
    return (
        widget.render("field<&>", value, extra, renderer=FAST),
        widget.render("field<&>", value, extra, renderer=TEMPLATES),
    )


@given(st.lists(choice | group, max_size=6), st.lists(text, max_size=3), attrs, attrs)
def test_a_select_is_written_as_djangos_templates_write_it(
    choices: list, chosen: list[str], own: dict, extra: dict
) -> None:
    for widget, value in (
        (forms.Select(attrs=own, choices=choices), chosen[0] if chosen else None),
        (forms.SelectMultiple(attrs=own, choices=choices), chosen),
    ):
        fast, slow = both(widget, value, extra)
        assert fast == slow


def test_a_null_boolean_select_and_an_empty_select_are_djangos_too() -> None:
    for value in (None, True, False, "unknown"):
        fast, slow = both(forms.NullBooleanSelect(), value, {"id": "x"})
        assert fast == slow and "<option" in fast
    fast, slow = both(forms.Select(), "", {})
    assert fast == slow == '<select name="field&lt;&amp;&gt;">\n</select>'


def test_a_select_with_its_own_option_template_is_left_to_the_templates() -> None:
    class Marked(forms.Select):
        option_template_name = "django/forms/widgets/input_option.html"

    widget = Marked(choices=[("a", "A")])
    assert widget.render("f", "a", renderer=FAST) == widget.render("f", "a", renderer=TEMPLATES)


def test_the_site_renders_forms_with_it() -> None:
    assert settings.FORM_RENDERER == "campaigns.web.form_renderer.FormRenderer"
    assert isinstance(forms.Form().renderer, FormRenderer)

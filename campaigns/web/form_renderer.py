"""The site's form renderer (settings.FORM_RENDERER): Django's own, except that a select
is written in Python instead of through a template per option.

Django renders each <option> of a select with an include of its option template, about
80 microseconds an option. On a board of 1,000 departments an order form offers up to 2,000
options (every link a player could add, every route a move could take): 166 ms for the
add_link form's one select, a third of the page's time; 36 ms written here.

The markup is Django's, byte for byte: the test renders the same widgets both ways and
compares. A select whose options use another template than Django's is left to the
templates.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeData, mark_safe

SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"


def as_text(value: object) -> str:
    """`{{ value|stringformat:'s' }}`: the value as text, escaped unless it is safe."""
    return str(value) if isinstance(value, SafeData) else escape(f"{value}")


def attrs_html(attrs: dict[str, Any]) -> str:
    """django/forms/widgets/attrs.html: False leaves an attribute out, True writes its name."""
    return "".join(
        f" {conditional_escape(name)}" + ("" if value is True else f'="{as_text(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def select_html(widget: dict[str, Any]) -> str:
    """django/forms/widgets/select.html with select_option.html included for each option."""
    parts = [f'<select name="{conditional_escape(widget["name"])}"{attrs_html(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in options:
            parts.append(
                f'\n  <option value="{as_text(option["value"])}"{attrs_html(option["attrs"])}>'
                f"{conditional_escape(option['label'])}</option>\n"
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts).strip()


def plain_options(widget: dict[str, Any]) -> bool:
    """Every option uses Django's option template (a widget may name its own)."""
    groups = widget["optgroups"]
    return all(option["template_name"] == OPTION for _, options, _ in groups for option in options)


class FormRenderer(DjangoTemplates):
    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name == SELECT and plain_options(context["widget"]):
            return mark_safe(select_html(context["widget"]))
        return super().render(template_name, context, request)

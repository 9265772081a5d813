"""What a reader is shown of a piece of HTML: its text and its user-facing attributes, for
the checks that German is complete (tests/test_untranslated_templates.py reads templates with
it, tests/web/test_german_crawl.py the pages)."""

from __future__ import annotations

from html.parser import HTMLParser

# Read by a screen reader, shown on hover, or shown in an empty field.
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


def user_facing(attribute: str) -> bool:
    """One of ATTRIBUTES, or data-*-text: words a script shows (busy.js, history_chart.js,
    deadline.js take theirs from the page)."""
    return attribute in ATTRIBUTES or attribute.startswith("data-") and attribute.endswith("-text")


class Shown(HTMLParser):
    """Each piece of text outside the `hidden` elements, each user-facing attribute and the
    value of each button, with its line: `found`."""

    def __init__(self, hidden: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.hidden_tags = hidden
        self.found: list[tuple[int, str]] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        named = {k: v or "" for k, v in attrs}
        self.found += [(line, named[a]) for a in sorted(named) if user_facing(a)]
        if tag == "input" and named.get("type") in ("submit", "button", "reset"):
            self.found.append((line, named.get("value", "")))
        if tag in self.hidden_tags:
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.hidden_tags:
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.found.append((self.getpos()[0], data))


def shown(html: str, hidden: set[str]) -> list[tuple[int, str]]:
    parser = Shown(hidden)
    parser.feed(html)
    parser.close()
    return parser.found

"""Every word a template shows is wrapped for translation (issue 13): a static check over every
template under templates/.

The catalogue test (tests/test_translations.py) sees only what was wrapped; this one finds
what was not. Each template is read with Django's own lexer: text inside {% translate %},
{% blocktranslate %} and comments is translated or not shown, and every variable and other tag
becomes a placeholder. What remains is HTML written by hand: its visible text and its
user-facing attributes (title, aria-label, placeholder, alt, the value of a button, and the
data-*-text words a script shows) fail
the test if they hold a word, naming the file and the line. String literals handed to an
include (`with title="..."`) or to the `default` and `add` filters are checked the same way.

What is not language stays allowed: rule ids (R43), numbers, arrows and signs, and the short
list of names in ALLOWED below, each with its reason. The "How to play" text is long prose and
lives in one template per language (rules/en/, rules/de/): those files are language already
and are left out here; tests/web/test_rules_page.py checks the two say the same rules."""

from __future__ import annotations

import re
from pathlib import Path

from django.template.base import Lexer, TokenType

from tests.support.shown import shown

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
# Prose written once per language: the German one is German on purpose.
PER_LANGUAGE = ("campaigns/rules/en/", "campaigns/rules/de/")

# Words that are the same in every language, each with why.
ALLOWED = {
    "Illumineaucracy": "the site's name",
    "Tourmaline": "the demo campaign's name, data",
    "JSON": "a file format's name",
    "CSV": "a file format's name",
    "UTC": "a time zone's name",
    "GitHub": "a name",
    "Cytoscape": "a library's name (the map's credit)",
    "dagre": "a library's name (the map's credit)",
    "Chart": "Chart.js, a library's name",
    "js": "Chart.js, a library's name",
    "Deutsch": "the language switch names each language in its own words",
    "English": "the language switch names each language in its own words",
}
# `|default:` literals that are code, not words: each with why.
ALLOWED_DEFAULTS = {
    "en": "a language code (<html lang>)",
    "info": "a Bootstrap alert class",
    "btn-primary": "a Bootstrap button class",
    "goals": "an element id (_goals.html, when one character's goals are on the page)",
    "dossier-items": "an element id (_dossier_items.html, when one dossier is on the page)",
}
# A word: two letters or more. Rule ids, d10 and the like are not words of a language.
WORD = re.compile(r"[^\W\d_]{2,}")
NOT_LANGUAGE = re.compile(r"\bR\d{1,3}\b|\b\d+d\d+\b|\bd10\b|&\w+;")
# Not shown, or shown as code a reader types as it stands (a shell command, a formula).
HIDDEN = {"script", "style", "code", "pre"}
PLACEHOLDER = "\x01"
# Literals handed on in tags: `with name="..."` and `|add:"..."` (often a CSS class or an
# element id: checked when they read like a sentence), and `|default:"..."` (always shown).
HANDED_ON = re.compile(r"""(?:\bwith\b.*?\b\w+=|\|add:)(["'])(.*?)\1""")
DEFAULT = re.compile(r"""\|default(?:_if_none)?:(["'])(.*?)\1""")
TRANSLATING = {"translate", "trans", "blocktranslate", "blocktrans"}


def words(text: str) -> list[str]:
    """The words of `text` that belong to a language."""
    text = NOT_LANGUAGE.sub(" ", text)
    return [w for w in WORD.findall(text) if w not in ALLOWED]


def handed_on(line: int, tag: str) -> list[tuple[int, str]]:
    """The literals of a tag or variable a reader would see: every `default`, and the others
    when they have a space or a capital ('info', 'btn-primary' or an element id are read by
    nobody)."""
    found = [
        (line, m.group(2)) for m in DEFAULT.finditer(tag) if m.group(2) not in ALLOWED_DEFAULTS
    ]
    found += [
        (line, m.group(2)) for m in HANDED_ON.finditer(tag) if re.search(r"\s|[A-Z]", m.group(2))
    ]
    return found


def plain_html(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The template as HTML with every tag and variable a placeholder (translated text
    included), newlines kept so line numbers stay right; and the literals tags hand on."""
    out: list[str] = []
    literals: list[tuple[int, str]] = []
    skipping: str | None = None  # the end tag of a block whose text is not the page's own
    for token in Lexer(source).tokenize():
        raw = token.contents
        if token.token_type == TokenType.TEXT:
            # Django's tags never span lines: only text carries newlines.
            out.append(PLACEHOLDER + "\n" * raw.count("\n") if skipping else raw)
            continue
        if token.token_type == TokenType.BLOCK:
            name = raw.split(" ", 1)[0] if raw else ""
            if skipping and name == skipping:
                skipping = None
            elif name in ("blocktranslate", "blocktrans"):
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
            if name not in TRANSLATING and not skipping:
                literals += handed_on(token.lineno, raw)
        elif token.token_type == TokenType.VAR:
            literals += handed_on(token.lineno, raw)
        out.append(PLACEHOLDER)
    return "".join(out), literals


def untranslated(path: Path) -> list[str]:
    """'file:line: text' for each piece of `path` that shows words outside translate tags."""
    html, literals = plain_html(path.read_text())
    name = path.relative_to(ROOT)
    found = [(line, text) for line, text in shown(html, HIDDEN) + literals if words(text)]
    return [f"{name}:{line}: {' '.join(text.split())[:90]!r}" for line, text in sorted(found)]


def checked_templates() -> list[Path]:
    return [
        p
        for p in sorted(TEMPLATES.rglob("*.html"))
        if not str(p.relative_to(TEMPLATES)).startswith(PER_LANGUAGE)
    ]


def test_every_template_wraps_its_words_for_translation() -> None:
    problems = [problem for path in checked_templates() for problem in untranslated(path)]
    assert not problems, (
        f"{len(problems)} pieces of template text are not wrapped in {{% translate %}} or "
        "{% blocktranslate %} (or add a word that is not language to ALLOWED, with why):\n"
        + "\n".join(problems)
    )


def test_the_check_finds_a_word_outside_translate_tags(tmp_path: Path) -> None:
    """The check itself: it must catch text, attributes and handed-on literals, and pass
    what is wrapped or is no language."""
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}\n<h1>{% translate "Fine" %} R43 → 12</h1>\n'
        "<p>Plain words</p>\n"
        '<button aria-label="Remove it">×</button>\n'
        '{% include "x.html" with title="New department" %}\n'
        "{% blocktranslate %}Also fine{% endblocktranslate %}\n"
        "{# a comment is fine #}<span>{{ name|default:'nobody' }}{{ x|add:'btn' }}</span>\n"
        '<input type="submit" value="Save"><form data-busy-text="Sending…"></form>\n'
        "<script>var words = 1;</script>\n"
    )
    page_in_root = ROOT / "templates" / "_check_probe.html"
    try:
        page_in_root.write_text(page.read_text())
        problems = untranslated(page_in_root)
    finally:
        page_in_root.unlink()
    lines = sorted(int(p.split(":")[1]) for p in problems)
    assert lines == [3, 4, 5, 7, 8, 8], problems

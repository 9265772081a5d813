"""Every sentence the Python code shows to a person goes through gettext (issue 13): an ast walk
over the site's code (campaigns/ and illumineaucracy/, not the pure engine, which speaks
English on purpose and is translated at the site layer by campaigns/reasons.py and
campaigns/engine_words.py, and not the management commands, which speak to the admin).

It fails, with the file and the line, on a string literal (or an f-string, or a literal
formatted with % or .format) that is not wrapped in a gettext call and is

- the message of `messages.success/info/warning/error/add_message(...)`;
- the argument of a refusal the views show: `raise X(...)` for the site's own refusal classes
  (REFUSALS), for ValueError raised in services and selectors (the views show str(error)),
  and for ValidationError anywhere; a list of such literals counts too;
- a form's error (`add_error`), a field's `label`, `help_text` or `empty_label`, or the label
  of a `choices` pair;
- a Notice's text, a mail's subject and body (`Notice.objects.create(text=...)`,
  `notify_gms`, `mail_member`, `mail_user`, `send_mail`), or a throttled page's message.

A literal that is not language (no word of two letters or more) passes: "", ", ", "→"."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "campaigns", ROOT / "illumineaucracy"]
# Not the site's words: the pure engine (English by design, translated at the site layer),
# migrations, and the management commands (the admin's console).
SKIPPED = ("campaigns/engine/", "campaigns/migrations/", "campaigns/management/")
# Raising these with a sentence means a person reads it (the views catch and show them).
REFUSALS = {
    "OrderRefused", "SetupRefused", "PressRefused", "BoardImportError", "BoardFileError",
    "InvitationClosed", "ValidationError", "PermissionDenied",
}  # fmt: skip
# ValueError is a refusal where the views show str(error): in the services and selectors.
VALUE_ERROR_SHOWN = ("campaigns/services/", "campaigns/selectors/", "campaigns/models/")
TRANSLATORS = {
    "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
    "npgettext", "gettext_noop", "format_lazy",
}  # fmt: skip
MESSAGES = {"success", "info", "warning", "error", "debug", "add_message"}
FIELD_WORDS = {"label", "help_text", "empty_label", "verbose_name"}
MAIL_CALLS = {"notify_gms", "mail_member", "mail_user", "send_mail", "throttled_page"}
# (file, line text) pairs that are allowed, each with why: code no person reads.
ALLOWED: dict[tuple[str, str], str] = {
    ("campaigns/archive/services/archive.py", "ArchiveError"): (
        "read by the import_campaign command only: the admin's console, in English"
    ),
}
WORD = re.compile(r"[^\W\d_]{2,}")


def is_translated(node: ast.expr) -> bool:
    """A gettext call (or a lazy string's % or .format, whose left side is one)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in TRANSLATORS or name == "str" and node.args and is_translated(node.args[0]):
            return True
        if name == "format" and isinstance(func, ast.Attribute):
            return is_translated(func.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return is_translated(node.left)
    return False


def literal_words(node: ast.expr) -> str | None:
    """The text of an untranslated literal with words in it, else None."""
    if is_translated(node):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if WORD.search(node.value) else None
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return text if WORD.search(str(text)) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return literal_words(node.left) or literal_words(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("format", "join", "strip"):
            return literal_words(node.func.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return next((w for w in map(literal_words, node.elts) if w), None)
    if isinstance(node, ast.IfExp):
        return literal_words(node.body) or literal_words(node.orelse)
    return None


def call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def shown(tree: ast.AST, path: str) -> Iterator[tuple[int, str, str]]:
    """(line, what, text) for each untranslated literal that reaches a person."""
    value_error_shown = path.startswith(VALUE_ERROR_SHOWN)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            name = call_name(node.exc)
            if name in REFUSALS or (name == "ValueError" and value_error_shown):
                for arg in node.exc.args[:1]:
                    yield node.lineno, name, literal_words(arg) or ""
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        func = node.func
        owner = (
            func.value.id
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            else ""
        )  # noqa: E501
        if owner == "messages" and name in MESSAGES:
            for arg in node.args[1:3]:
                yield node.lineno, f"messages.{name}", literal_words(arg) or ""
        if name == "add_error" and len(node.args) > 1:
            yield node.lineno, "add_error", literal_words(node.args[1]) or ""
        if name in MAIL_CALLS:
            for arg in node.args[1:]:
                yield node.lineno, name, literal_words(arg) or ""
        if name == "create" and "Notice" in ast.unparse(func):
            for kw in node.keywords:
                if kw.arg == "text":
                    yield node.lineno, "Notice", literal_words(kw.value) or ""
        for kw in node.keywords:
            if kw.arg in FIELD_WORDS:
                yield node.lineno, kw.arg, literal_words(kw.value) or ""
            if kw.arg == "choices" and isinstance(kw.value, (ast.List, ast.Tuple)):
                for pair in kw.value.elts:
                    if isinstance(pair, ast.Tuple) and len(pair.elts) == 2:
                        yield node.lineno, "choice", literal_words(pair.elts[1]) or ""


def checked_files() -> list[Path]:
    return [
        p
        for source in SOURCES
        for p in sorted(source.rglob("*.py"))
        if not str(p.relative_to(ROOT)).startswith(SKIPPED)
    ]


def untranslated(path: Path) -> list[str]:
    name = str(path.relative_to(ROOT))
    lines = path.read_text().splitlines()
    found = []
    for line, what, text in shown(ast.parse(path.read_text()), name):
        if not text:
            continue
        if any(f == name and marker in lines[line - 1] for f, marker in ALLOWED):
            continue
        found.append(f"{name}:{line}: {what}: {text[:80]!r}")
    return found


def test_every_sentence_the_code_shows_goes_through_gettext() -> None:
    problems = sorted({p for path in checked_files() for p in untranslated(path)})
    assert not problems, (
        f"{len(problems)} strings reach a person without gettext (wrap them in _() or "
        "gettext_lazy, or add the line to ALLOWED with the reason nobody reads it):\n"
        + "\n".join(problems)
    )


def test_the_check_finds_what_it_should(tmp_path: Path) -> None:
    source = (
        "from django.utils.translation import gettext as _\n"
        "messages.success(request, 'Saved.')\n"  # 2: found
        "messages.success(request, _('Saved.'))\n"
        "raise SetupRefused([f'{name} is gone.'])\n"  # 4: found
        "raise SetupRefused([_('%(name)s is gone.') % {'name': name}])\n"
        "forms.CharField(label='Name', help_text=_('Letters.'))\n"  # 6: found
        "forms.ChoiceField(choices=[('a', 'raise it'), ('b', _('set it'))])\n"  # 7: found
        "messages.error(request, str(error))\n"
        "raise ValueError('not shown outside services')\n"
        "notify_gms(campaign, 'Turn late', body)\n"  # 10: found
        "messages.info(request, ', ')\n"
    )
    tree = ast.parse(source)
    found = sorted({line for line, _, text in shown(tree, "campaigns/web/x.py") if text})
    assert found == [2, 4, 6, 7, 10]
    in_services = {line for line, _, text in shown(tree, "campaigns/services/x.py") if text}
    assert 9 in in_services

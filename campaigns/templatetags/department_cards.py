"""The board page's department cards: `{% department_cards departments %}` draws one card per
selectors DepartmentView, each holding only what the viewer may see (R50): a `rumoured` one
its name, a `known` one its card, a `controlled` one its stash and status too. The GM sees
every card at full detail, so a level badge ("controlled") would read as "the GM's": the GM's
badge names the controller instead.

Written in Python rather than as a template included once per department: the include cost
about 3,000 function calls a card, a quarter of the demo's board page, and format_html's
checks of each of a card's 30 values another 1,000. Every value goes through `escaped`; the
words are translated once per page."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.words.labels import status_label

register = template.Library()


@register.simple_tag(takes_context=True)
def department_cards(context: template.Context, departments: list[Any]) -> SafeString:
    """The cards of `departments`, with the office posts of the page (`page.posts`: node key
    -> posts, R80) and the GM's badges where the board is seen in full (`board.full_view`)."""
    posts = getattr(context.get("page"), "posts", None) or {}
    full_view = bool(getattr(context.get("board"), "full_view", False))
    # The page draws its cards in two or three calls: the words are read once.
    words = context.render_context.get(WORDS) or context.render_context.setdefault(
        WORDS, card_words()
    )
    cards = [card(dept, posts.get(dept.node, []), full_view, words) for dept in departments]
    return mark_safe("".join(cards))  # every value in it escaped


WORDS = "department_cards.words"


def escaped(value: object) -> str:
    """`value` as HTML text: what format_html does to each of its arguments (text escaped,
    anything marked safe kept), without its checks for lazy arguments."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


def card_words() -> dict[str, str]:
    """The cards' words in the active language, escaped."""
    words = {
        "yours": _("yours"),
        "uncontrolled": _("uncontrolled"),
        "stats": _("Stats"),
        "effect": _("Effect"),
        "obstruct": _("Obstruct"),
        "impress": _("Impress"),
        "consumes": _("Consumes"),
        "produces": _("Produces"),
        "nothing": _("nothing"),
        "functions": _("Functions"),
        "none": _("none"),
        "alignments": _("Alignments"),
        "controller": _("Controller"),
        "you": _("you"),
        "rumours": _("Only rumours: nothing more is known."),
        "stash": _("Stash:"),
        "no_status": _("no status yet"),
        "chain": _("chain"),
        "capacity": _("capacity"),
        "home": _("home"),
        "flaws": _("Flaws:"),
    }
    return {key: escaped(word) for key, word in words.items()}


def card(dept: Any, posts: list[Any], full_view: bool, w: dict[str, str]) -> str:
    """One department's card, as HTML."""
    border = " border-primary" if dept.mine else ""
    slug = f' id="dept-{escaped(dept.slug)}"' if dept.slug else ""
    node = f' data-node="{escaped(dept.node)}"' if dept.node else ""
    marks = "".join(
        '    <div class="px-3 pt-2"><span class="badge text-bg-info text-wrap text-start"'
        f" data-post>{'★' if post.holder else '☆'} {escaped(post.text)}</span></div>\n"
        for post in posts
    )
    if dept.card:
        body = card_body(dept.card, dept.mine, w)
    else:
        body = f'    <div class="card-body small text-body-secondary">{w["rumours"]}</div>\n'
    footer = card_footer(dept.private, w) if dept.private else ""
    return (
        f'<div class="col">\n  <article class="card h-100{border}"{slug}{node}>\n'
        f"{card_header(dept, full_view, w)}{marks}{body}{footer}"
        "  </article>\n</div>\n"
    )


def card_header(dept: Any, full_view: bool, w: dict[str, str]) -> str:
    """The department's name and its badge: its controller for the GM, else the viewer's
    level (or "yours")."""
    controller = dept.card.controller if dept.card else None
    if full_view:
        colour = "text-bg-secondary" if controller else "text-bg-light border"
        name = escaped(controller) if controller else w["uncontrolled"]
        badge = f'<span class="badge text-wrap text-end {colour}" data-controller>{name}</span>'
    else:
        if dept.mine:
            colour, level = "text-bg-primary", w["yours"]
        else:
            colour = "text-bg-secondary" if dept.card else "text-bg-light border"
            level = escaped(dept.level_label)
        badge = f'<span class="badge {colour}">{level}</span>'
    return (
        '    <div class="card-header d-flex justify-content-between align-items-baseline gap-2">\n'
        f'      <span class="fw-semibold">{escaped(dept.name)}</span>\n'
        f"      {badge}\n"
        "    </div>\n"
    )


def card_body(card: Any, mine: bool, w: dict[str, str]) -> str:
    """R50 `known`: the whole card."""
    functions = ", ".join(f"{escaped(name)} +{escaped(skill)}" for name, skill in card.functions)
    alignments = ", ".join(escaped(a) for a in card.alignments)
    if mine:
        controller = w["you"]
    else:
        controller = escaped(card.controller) if card.controller else w["uncontrolled"]
    rows = [
        (w["consumes"], amount_text(card.consumes, w["nothing"])),
        (w["produces"], amount_text(card.produces, w["nothing"])),
        (w["functions"], functions or w["none"]),
        (w["alignments"], alignments or w["none"]),
        (w["controller"], controller),
    ]
    terms = "".join(
        f'        <dt class="col-5">{term}</dt>\n        <dd class="col-7 mb-1">{value}</dd>\n'
        for term, value in rows
    )
    description = (
        f'      <p class="mb-2">{escaped(card.description)}</p>\n' if card.description else ""
    )
    stats = "".join(
        f"        <span>{w[word]} <strong>{escaped(value)}</strong></span>\n"
        for word, value in (
            ("effect", card.effect),
            ("obstruct", card.obstruct),
            ("impress", card.impress),
        )
    )
    return (
        '    <div class="card-body small">\n'
        f"{description}"
        f'      <div class="d-flex flex-wrap column-gap-3 mb-2" aria-label="{w["stats"]}">\n'
        f"{stats}"
        "      </div>\n"
        '      <dl class="row mb-0">\n'
        f"{terms}"
        "      </dl>\n"
        "    </div>\n"
    )


def amount_text(amount: Any, nothing: str) -> str:
    """The amount and its type ("2 Money"), or `nothing` (already HTML)."""
    return f"{escaped(amount.amount)} {escaped(amount.label)}" if amount else nothing


def card_footer(private: Any, w: dict[str, str]) -> str:
    """R50 `controlled`: the stash, the turn's figures and the flaws."""
    stash = " · ".join(
        f"{escaped(token.label)} <strong>{escaped(token.amount)}</strong>"
        for token in private.stash
    )
    status = status_label(private.status)
    capacity = "–" if private.capacity is None else escaped(private.capacity)
    figures = [
        escaped(status) if status else w["no_status"],
        f"{w['chain']} {escaped(private.chain_length)}",
        f"{w['capacity']} {capacity}",
        *([w["home"]] if private.home else []),
    ]
    flaws = (
        f'      <div class="mt-1"><span class="fw-semibold">{w["flaws"]}</span> '
        f"{escaped(private.flaws)}</div>\n"
        if private.flaws
        else ""
    )
    return (
        '    <div class="card-footer small" data-private>\n'
        '      <div class="mb-1">\n'
        f'        <span class="fw-semibold">{w["stash"]}</span>\n'
        f"        {stash}\n"
        "      </div>\n"
        '      <div class="text-body-secondary">\n'
        f"        {' · '.join(figures)}\n"
        "      </div>\n"
        f"{flaws}"
        "    </div>\n"
    )

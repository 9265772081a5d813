"""A classic board's words (RULES R90-R99): goals (R98), places and bonuses (R91)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.reasons import reason_translated
from campaigns.words.game import slug_pattern, slugs_named


def goal_text(goal: dict[str, Any] | None, win_groups: int) -> str:
    """R98: what an Illuminati's goal asks, in words (besides the number of groups)."""
    kind = (goal or {}).get("kind")
    n = (goal or {}).get("amount", 0)
    alignment = (goal or {}).get("alignment", "")
    match kind:
        case "power":
            return _("total power of your groups at least %(n)s") % {"n": n}
        case "transferable":
            return _("total transferable power of your groups at least %(n)s") % {"n": n}
        case "money":
            return _("at least %(n)s MB across your treasuries") % {"n": n}
        case "alignment":
            return ngettext(
                "%(n)s of your groups %(alignment)s",
                "%(n)s of your groups %(alignment)s",
                n,
            ) % {"n": n, "alignment": alignment}
        case "every_alignment":
            listed = ", ".join(str(a) for a in (goal or {}).get("alignments", []))
            return _("a group of each of: %(alignments)s") % {"alignments": listed}
        case "destroyed":
            return _("%(n)s groups destroyed by you") % {"n": n}
        case "in_play":
            return _("%(n)s groups %(alignment)s in play") % {"n": n, "alignment": alignment}
    return _("control %(n)s groups") % {"n": win_groups}


def win_text(board: str, name: str, by: list[str]) -> str:
    """R98: a classic board's winner and the kind of each condition met, as the report says
    it (the same words); never a goal's figures (R99)."""
    goal, groups = _("their Illuminati's goal is met"), _("they control enough groups")
    how = "; ".join(goal if condition == "goal" else groups for condition in by)
    return _("%(board)s: %(winner)s (%(how)s).") % {
        "board": board,
        "winner": _("%(name)s wins") % {"name": name},
        "how": how,
    }


def bonus_text(bonus: dict[str, Any]) -> str:
    """R91: '+3 to control (its own attacks, against Criminal)'."""
    aim = {
        "control": _("to control"),
        "neutralize": _("to neutralize"),
        "destroy": _("to destroy"),
    }.get(str(bonus.get("aim")), _("to every attack"))
    scope = _("its own attacks") if bonus.get("scope") == "own" else _("every attack of its player")
    text = _("+%(n)s %(aim)s (%(scope)s)") % {
        "n": bonus.get("amount", 0),
        "aim": aim,
        "scope": scope,
    }
    if bonus.get("alignment"):
        text += " " + _("against %(alignment)s groups") % {"alignment": bonus["alignment"]}
    return text


def aim_word(aim: str) -> str:
    """R95: an attack's aim."""
    return {
        "control": _("control"),
        "neutralize": _("neutralize"),
        "destroy": _("destroy"),
    }.get(aim, aim)


# R95/R96: the terms of an attack's need (engine/classic/attack.py's need_terms), in words.
TERM_WORDS = {
    "power": gettext_lazy("power"),
    "assistants": gettext_lazy("assistants' transferable power"),
    "money": gettext_lazy("megabucks spent"),
    "bonuses": gettext_lazy("bonuses"),
    "interference": gettext_lazy("interference"),
    "alignments": gettext_lazy("alignments"),
    "neutralize": gettext_lazy("neutralize (+6)"),
    "resistance": gettext_lazy("resistance"),
    "closeness": gettext_lazy("closeness to its Illuminati"),
    "group_money": gettext_lazy("its own treasury spent (2 each)"),
    "illuminati_money": gettext_lazy("its Illuminati's treasury spent"),
}


def term_word(term: str) -> str:
    return str(TERM_WORDS.get(term, term))


def classic_choice_text(kind: str, fields: dict[str, Any], group: Any, player: Any) -> str:
    """A classic order's choice (ENGINE.md part 10 fields) in words; `group` and `player`
    turn a slug and an engine player id into names (never slugs)."""
    g = fields.get
    match kind:
        case "attack":
            return _("%(group)s attacks %(target)s to %(aim)s") % {
                "group": group(g("group")), "target": group(g("target")),
                "aim": aim_word(str(g("aim"))),
            }  # fmt: skip
        case "transfer":
            return _("from %(source)s to %(dest)s") % {
                "source": group(g("from")), "dest": group(g("to"))
            }  # fmt: skip
        case "move_group":
            return _("%(group)s to hang on %(to)s") % {
                "group": group(g("group")),
                "to": group(g("to")),
            }
        case "group_accept" | "accept":
            return _("%(group)s, hung on %(parent)s") % {
                "group": group(g("group")), "parent": group(g("parent"))
            }  # fmt: skip
        case "give_group":
            return _("%(group)s to %(player)s") % {
                "group": group(g("group")), "player": player(g("to_player"))
            }  # fmt: skip
        case "mb_gift" | "gift":
            return _("to %(player)s") % {"player": player(g("to_player"))}
        case "interfere":
            if g("side") == "attack":
                return _("%(target)s: for the attack of %(player)s") % {
                    "target": group(g("target")), "player": player(g("for"))
                }  # fmt: skip
            return _("%(target)s: for its defence") % {"target": group(g("target"))}
        case "defend" | "drop":
            return str(group(g("group")))
    return ""


def classic_order_text(kind: str, payload: dict[str, Any], group: Any, player: Any) -> str:
    """A queued classic order in words: its choice, and its megabucks."""
    text = classic_choice_text(kind, payload, group, player)
    if kind == "pass":
        return _("Pass: +5 MB to your Illuminati, no other order this turn")
    extra = []
    if payload.get("assist"):
        names = ", ".join(str(group(s)) for s in payload["assist"])
        extra.append(_("helped by %(groups)s") % {"groups": names})
    for field, words in (
        ("spend", _("%(n)s MB from the group")),
        ("spend_illuminati", _("%(n)s MB from your Illuminati")),
        ("transfer_after", _("%(n)s MB to the target if it succeeds")),
        ("amount", _("%(n)s MB")),
    ):
        if payload.get(field):
            extra.append(words % {"n": payload[field]})
    if payload.get("action"):
        extra.append(_("as an action"))
    return "; ".join([text, *extra]) if extra else text


def classic_reason(reason: str, names: Mapping[str, str] | None = None) -> str:
    """An engine reason about a classic board (engine/classic/, its codes in
    engine/refusals.py) in the reader's language (reasons.SAID), its group slugs and player
    ids named by `names` (every card and player of a classic board is public, R99); a reason
    no code knows stays as the engine says it, with names."""
    names = names or {}
    translated = reason_translated(reason, lambda slug: names.get(slug, slug), {})
    if translated is not None:
        return translated
    for slug in slugs_named(reason, names):
        reason = slug_pattern(slug).sub(names[slug], reason)
    return reason

"""RULES parts 7 and 8 in words: the order kinds perceive, gift, handover and accept (R62,
R70), shticks (R60) and secret goals (R61).

Like game.py (whose `order_text` calls `deal_text`), nothing here reads the database
or decides what a viewer may see (RULES R50): callers pass a `Namer` that answers with the
name the viewer may know, and player names (which every member of a campaign sees)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.engine.refusals import Refusal
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS, Namer, tokens_text

# R60: the kinds of roll a dice or skill shtick adds to, in words ("on linking attempts").
ROLL_LABELS = {
    "attack": gettext_lazy("linking attempts"),
    "defend": gettext_lazy("defence rolls"),
    "function": gettext_lazy("function rolls"),
    "perception": gettext_lazy("perception checks"),
}


def player_named(players: Mapping[str, str], player: object) -> str:
    """An engine player id ("p12") as the player's name; "another player" for junk."""
    return players.get(str(player), "") or _("another player")


# R62: the engine names players by id ("p12 did not accept mint (R62)").
PLAYER_ID = re.compile(r"(?<![\w-])p\d+(?![\w-])")


def players_named(reason: str, players: Mapping[str, str]) -> str:
    """An engine reason with each player id it names replaced by the player's name (players
    of a campaign know each other); ids not in `players` stay. A refusal stays one, its
    parameters named too."""

    def named(text: str) -> str:
        return PLAYER_ID.sub(lambda m: players.get(m.group(), m.group()), text)

    return reason.replaced(named) if isinstance(reason, Refusal) else named(reason)


def deal_text(
    kind: str,
    payload: Mapping[str, Any],
    name: Namer,
    players: Mapping[str, str],
) -> str:
    """R62, R70: a perception check, gift, hand-over or accept in one line ("" for any other
    kind)."""
    p = payload
    match kind:
        case "perceive":
            return _("Perception check on %(department)s") % {
                "department": name(p.get("department"))
            }
        case "gift":
            return _("%(giver)s gives %(tokens)s to %(receiver)s") % {
                "giver": name(p.get("from")),
                "tokens": tokens_text(p.get("tokens")) or _("nothing"),
                "receiver": name(p.get("to")),
            }
        case "handover":
            return _("%(department)s is handed over to %(player)s") % {
                "department": name(p.get("department")),
                "player": player_named(players, p.get("to")),
            }
        case "accept":
            return _("Accept %(department)s from %(player)s") % {
                "department": name(p.get("department")),
                "player": player_named(players, p.get("from")),
            }
    return ""


def handover_notice(giver: str, department: str, board: str, *, withdrawn: bool) -> tuple[str, str]:
    """R62: (subject, text) of the notice and mail to the receiver of a hand-over, told at
    once as a defender is (R46). The department is named by name and board only: what the
    deal makes `rumoured` to them (R50)."""
    values = {"giver": giver, "department": department, "board": board}
    if withdrawn:
        return _("Hand-over withdrawn"), _(
            "%(giver)s no longer offers you %(department)s (%(board)s)."
        ) % values
    return (
        _("%(giver)s offers you %(department)s") % values,
        _(
            "%(giver)s offers to hand %(department)s (%(board)s) over to you this turn (R62). "
            "It joins your structure only if you accept it on your orders page before the "
            "deadline."
        )
        % values,
    )


def handover_text(department: str, old: str | None, new: str, *, stayed: bool) -> str:
    """R62: a department changing hands by a hand-over, as the turn report tells it; one
    that no link tied into the receiver's structure left it again at once (R13)."""
    values = {"department": department, "new": new, "old": old or _("its controller")}
    if stayed:
        return _("%(department)s was handed over to %(new)s by %(old)s (R62).") % values
    return (
        _(
            "%(department)s was handed over to %(new)s by %(old)s and left the structure at the "
            "end of the link phase: no link tied it in (R62, R13)."
        )
        % values
    )


# --- Shticks (R60) --------------------------------------------------------------------------


def shtick_text(data: Mapping[str, Any], department: str | None, boards: Mapping[str, str]) -> str:
    """R60: one shtick in words, as its holder reads it ("+1 die on linking attempts by The
    Mint"). `department`: the name of the department it names, as the reader may know it;
    `boards`: board slug -> name (for cross_board)."""
    kind = data.get("kind")
    n = int(data.get("amount") or 0)
    where = department or _("every department of yours")
    roll = ROLL_LABELS.get(str(data.get("roll")), str(data.get("roll", "")))
    values = {"n": n, "department": where, "roll": roll}
    match kind:
        case "production":
            return _("+%(n)s production for %(department)s") % values
        case "dice":
            return (
                ngettext(
                    "+%(n)s die on %(roll)s by %(department)s",
                    "+%(n)s dice on %(roll)s by %(department)s",
                    n,
                )
                % values
            )
        case "skill":
            return _("+%(n)s skill on %(roll)s by %(department)s") % values
        case "attempts":
            return (
                ngettext("+%(n)s linking attempt per turn", "+%(n)s linking attempts per turn", n)
                % values
            )
        case "link_limit":
            return link_limit_text(data, where)
        case "cross_board":
            named = [boards.get(b, b) for b in data.get("boards") or []]
            return _("May link departments across %(boards)s (R2)") % {
                "boards": _(" and ").join(named)
            }
        case "perception":
            return _("+%(n)s Perception") % values
        case "text":
            return str(data.get("text", ""))
    return ""


def link_limit_text(data: Mapping[str, Any], department: str) -> str:
    out, into = data.get("out"), data.get("in")
    values = {"department": department, "out": out, "in": into}
    if out is not None and into is not None:
        return (
            _("%(department)s may have %(out)s outgoing and %(in)s incoming links (R11)") % values
        )
    if out is not None:
        return _("%(department)s may have %(out)s outgoing links (R11)") % values
    return _("%(department)s may have %(in)s incoming links (R11)") % values


# --- Secret goals (R61) ---------------------------------------------------------------------


def goal_text(kind: str, n: int, detail: str | None) -> str:
    """R61: a goal in words ("Control 8 departments")."""
    values = {"n": n, "detail": detail}
    match kind:
        case "control":
            return ngettext("Control %(n)s department", "Control %(n)s departments", n) % values
        case "control_aligned":
            return (
                ngettext(
                    "Control %(n)s %(detail)s department", "Control %(n)s %(detail)s departments", n
                )
                % values
            )
        case "hold":
            values["detail"] = TYPE_LABELS.get(str(detail), detail)
            return _("Hold %(n)s %(detail)s across your structures") % values
        case "stat_total":
            values["detail"] = STAT_LABELS.get(str(detail), detail)
            return _("A total %(detail)s of %(n)s over the departments you control") % values
        case "attempts_won":
            return ngettext("Win %(n)s linking attempt", "Win %(n)s linking attempts", n) % values
    return ""

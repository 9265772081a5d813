"""The one place that puts game events into words: orders, refusals, attack notices and
captures, for the orders page, the turn report, notices and mail.

Nothing here reads the database or decides what a viewer may see (RULES R50): callers pass
a `Namer` that already answers with the name the viewer may know, or a placeholder. So
player-facing text names departments, never slugs, and counts agree in number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

# slug (or whatever an order holds) -> the department's name as the viewer may see it
Namer = Callable[[object], str]

TYPE_LABELS = {"money": "Money", "people": "People", "authority": "Authority"}
IRREGULAR_PLURALS = {"die": "dice", "successes": "successes", "success": "successes"}


def count(n: int, singular: str) -> str:
    """'1 die', '2 dice', '0 tokens': the number with its noun in the right number."""
    if n == 1:
        return f"{n} {singular}"
    return f"{n} {IRREGULAR_PLURALS.get(singular, singular + 's')}"


def listing(parts: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [p for p in parts if p]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def tokens_text(tokens: object) -> str:
    """{money: 2, authority: 1} -> '2 Money and 1 Authority'; '' for none (or junk)."""
    if not isinstance(tokens, Mapping):
        return ""
    return listing(
        f"{n} {label}"
        for kind, label in TYPE_LABELS.items()
        if isinstance(n := tokens.get(kind), int) and n > 0
    )


def route_text(start: object, path: object, name: Namer) -> str:
    steps = path if isinstance(path, list) else []
    return " → ".join(name(slug) for slug in [start, *steps])


def order_text(kind: str, payload: Mapping[str, object], name: Namer) -> str:
    """An order (ENGINE.md fields) in one line (RULES R41-R46)."""
    p = payload
    consumers = p.get("consumers")
    match kind:
        case "add_link" | "break_link":
            return f"{name(p.get('from'))} → {name(p.get('to'))}"
        case "priority":
            fed = [name(c) for c in consumers] if isinstance(consumers, list) else []
            return f"{name(p.get('department'))} feeds {', then '.join(fed)} first"
        case "move" | "reinforce":
            text = route_text(p.get("from"), p.get("path"), name)
            return f"{text}, carrying {tokens_text(p.get('tokens')) or 'nothing'}"
        case "attempt":
            text = f"{name(p.get('attacker'))} tries to link {name(p.get('target'))}"
            if cost := tokens_text(p.get("cost")):
                text += f", paying {cost}"
            if spend := tokens_text(p.get("spend")):
                text += f", spending {spend}"
            return text
        case "function":
            stat = str(p.get("stat", "")).title()
            text = f"{name(p.get('department'))}: {p.get('function', '')} ({stat})"
            if spend := tokens_text(p.get("spend")):
                text += f", spending {spend}"
            if intent := p.get("intent"):
                text += f". Intent: {intent}"
            return text
    return ""


def attacker_text(attacker: str, controller: str | None) -> str:
    """R46: the attacking department, with its controller only where the defender's level
    shows who controls it (`known`, R50); the caller decides by passing it or None."""
    return f"{attacker} ({controller})" if controller else attacker


def attack_text(attacker: str, target: str, controller: str | None = None) -> str:
    """R46: what the defender learns of an attempt: the attacking department (and its
    controller, see attacker_text) and the target, nothing of what the attacker spends."""
    return f"{attacker_text(attacker, controller)} tries to link {target}"


def attack_notice(
    attacker: str, target: str, controller: str | None, *, withdrawn: bool
) -> tuple[str, str]:
    """R46: (subject, text) of the notice and mail to the target's controller."""
    who = attacker_text(attacker, controller)
    if withdrawn:
        return "Attempt withdrawn", f"The linking attempt by {who} against {target} was withdrawn."
    return (
        f"{target} is under attack",
        f"{target} is the target of a linking attempt by {who} this turn (R46). "
        "You may queue one free reinforcement move that ends at it.",
    )


def capture_text(department: str, old: str | None, new: str | None) -> str:
    """R44/R13: a department changing hands, as the turn report tells it."""
    if new is None:
        return (
            f"{department} left {old}'s structure." if old else f"{department} left its structure."
        )
    if old is None:
        return f"{department} was captured by {new}."
    return f"{department} was captured by {new} from {old}."


def sentence(text: str) -> str:
    """Capitalised and ending with a full stop, as refusals are shown."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The runs of characters a slug is made of ([-a-zA-Z0-9_]), each as long as it goes.
WORDS = re.compile(r"[\w-]+")


def slug_pattern(slug: str) -> re.Pattern[str]:
    """A slug as a whole word of an engine reason (slugs contain hyphens, so a hyphen goes
    on the word; but not the one of an arrow, as in the engine's "link mint->treasury")."""
    return re.compile(rf"(?<![\w-]){re.escape(slug)}(?![\w]|-(?!>))")


def slugs_named(reason: str, slugs: Iterable[str]) -> list[str]:
    """The slugs an engine reason mentions, longest first (so 'city-watch' wins over 'city').
    A slug is named where it stands as a whole word (slug_pattern): exactly where it is one
    of the reason's runs of word characters and hyphens, so the reason is cut into those
    once, instead of a pattern per slug (a board of 1,000 slugs took seconds per reason)."""
    words = set(WORDS.findall(reason))
    return [s for s in sorted(slugs, key=len, reverse=True) if s in words]


def with_names(reason: str, names: Mapping[str, str]) -> str:
    """An engine reason (which names departments by slug) with each slug replaced by its
    name, as a sentence. The caller has decided the viewer may see every name in `names`."""
    text = reason
    for slug in slugs_named(reason, names):
        text = slug_pattern(slug).sub(names[slug], text)
    return sentence(text)


# --- The GM's editor (RULES R53): what the engine's review of a change means ----------------------


def stranded_text(department: str, player: str) -> str:
    """R13: why a change that strands a department in a structure is refused."""
    return (
        f"{department} would stay in {player}'s structure without being a home department or "
        "linked to another department of it, and would leave the structure at the next link "
        f"phase (R13). Make it a home department, link it to one of {player}'s departments, "
        "or take it out of the structure first."
    )


def discard_text(department: str, tokens: Mapping[str, int], capacity: int) -> str:
    """R36: why a change that gives a department tokens it cannot keep is refused."""
    return (
        f"{department} would discard {tokens_text(tokens)} at the next spawn and consume: it "
        f"can keep {count(capacity, 'token')}, its capacity (its production times its chain "
        "length, R36). Give it fewer tokens, or more production."
    )


def unfunded_text(department: str, kind: str) -> str:
    """R33: a note on a department nothing on its board can fund."""
    return (
        f"Nothing on this board produces {TYPE_LABELS.get(kind, kind)}: {department} can be "
        "funded only from its own stash (R33)."
    )


# --- History (issue 11): what happened to a structure or a department, turn by turn -------------

# Why a department joined or left a structure (selectors/history_events.hand_change_cause).
CAUSES = {
    "capture": "by a linking attempt (R44)",
    "handover": "by a hand-over",
    "unlinked": "as no link to it was left (R13)",
    "gm": "by the GM (R53)",
}


def gained_text(department: str, cause: str, previous: str | None) -> str:
    """A department joining the structure whose history is told."""
    whence = f" from {previous}" if previous else ""
    if cause == "capture":
        return f"Captured {department}{whence} (R44)."
    return f"{department} joined the structure{whence} {CAUSES.get(cause, '')}".rstrip() + "."


def lost_text(department: str, cause: str, new: str | None) -> str:
    """A department leaving the structure whose history is told."""
    if cause == "capture":
        return f"{department} was captured by {new or 'another player'} (R44)."
    if cause == "handover" and new:
        return f"{department} was handed over to {new}."
    return f"{department} left the structure {CAUSES.get(cause, '')}".rstrip() + "."


def undone_capture_text(department: str, *, ours: bool) -> str:
    """A capture that a later attempt of the same turn reversed."""
    if ours:
        return f"Captured {department}, and lost it again within the turn."
    return f"{department} was captured, and taken back within the turn."


def link_history_text(supplier: str, consumer: str, change: str, by_gm: bool = False) -> str:
    """A link made, broken, or made and broken again within one turn."""
    link = f"{supplier} → {consumer}"
    if by_gm:
        return f"The GM {'made' if change == 'added' else 'removed'} the link {link} (R53)."
    return {
        "added": f"New link {link}.",
        "removed": f"Link {link} gone.",
        "undone": f"Link {link} made and gone again within the turn.",
    }[change]


OUTCOMES = {"succeeded": "it succeeded", "failed": "it failed", "rejected": "it was rejected"}


def attempt_history_text(attacker: str, target: str, status: str, *, suffered: bool) -> str:
    """A linking attempt the structure made, or suffered (R43, R46: the defender is told the
    attacking department's name only)."""
    outcome = OUTCOMES.get(status, status)
    if suffered:
        held = " (held)" if status == "failed" else ""
        return f"{attacker} tried to link {target}: {outcome}{held}."
    return f"{attacker} tried to link {target}: {outcome}."


def stash_change_text(department: str, changes: Iterable[tuple[str, int, int]]) -> str:
    """The GM changing a stash (R53): 'Money 3 → 5, People 0 → 1'."""
    parts = ", ".join(f"{TYPE_LABELS.get(k, k)} {old} → {new}" for k, old, new in changes)
    return f"The GM changed the stash of {department}: {parts} (R53)."


def gm_hand_text(department: str, old: str | None, new: str | None) -> str:
    """The GM moving a department between structures (R53)."""
    return (
        f"The GM moved {department} from {old or 'no structure'} to {new or 'no structure'} (R53)."
    )


def card_change_text(department: str) -> str:
    return f"The GM changed the card of {department} (R53)."

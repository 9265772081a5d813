"""The opening account of a turn report: what happened, phase by phase in the turn job's
order (RULES R31), each event with the order or attack that caused it and where its tokens
went.

It is written only from one board's `BoardReport`, the view-model that already holds no
more than its viewer may see (R50, R51): no record is read again, so the account can show
nothing the rest of the report hides, and it costs no query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.engine.attempts import DefenceRead
from campaigns.models import Order
from campaigns.selectors.report_board_changes import link_changes
from campaigns.selectors.report_view_models import (
    BoardReport,
    DefenceView,
    DepartmentResult,
    OrderView,
)
from campaigns.selectors.report_visibility import Knowing
from campaigns.selectors.visibility import Level
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS, listing, tokens_text

# R31 step 2, then step 3: the phases of a turn, in the order the turn job runs them.
PHASES = (
    ("handovers", gettext_lazy("Hand-overs")),
    ("links", gettext_lazy("Links")),
    ("moves", gettext_lazy("Moves and gifts")),
    ("attempts", gettext_lazy("Linking attempts")),
    ("election", gettext_lazy("The election")),
    ("functions", gettext_lazy("Function rolls")),
    ("perception", gettext_lazy("Perception")),
    ("spawn", gettext_lazy("Spawn and consume")),
)
K = Order.Kind
PHASE_OF_KIND = {
    K.HANDOVER: "handovers", K.ACCEPT: "handovers",
    K.ADD_LINK: "links", K.BREAK_LINK: "links", K.PRIORITY: "links",
    K.MOVE: "moves", K.GIFT: "moves",
    # R46: a reinforcement is made when the attempt it answers is resolved.
    K.ATTEMPT: "attempts", K.REINFORCE: "attempts",
    K.NOMINATE: "election", K.RUNNING_MATE: "election", K.SUPPORT: "election",
    K.VOTE: "election",
    K.FUNCTION: "functions",
    K.PERCEIVE: "perception",
}  # fmt: skip


@dataclass(frozen=True)
class Phase:
    key: str
    label: str
    events: list[str]


def board_account(board: BoardReport) -> list[Phase]:
    """The phases of `board`'s turn that the viewer saw something happen in, in R31 order,
    each with its events in words (numbered by the template)."""
    events: dict[str, list[str]] = {key: [] for key, _label in PHASES}
    for order in board.orders:
        events[PHASE_OF_KIND.get(order.kind, "moves")].append(own_order_text(order))
    events["handovers"] += board.handovers
    events["moves"] += board.received
    events["attempts"] += [attack_on_you_text(attack) for attack in board.attacks]
    # Captures, and departments leaving structures after them (R44, R13).
    events["attempts"] += [c for c in board.changes if c not in board.handovers]
    # Each link change after what made it: a hand-over, a link order, a capture.
    for phase, text in board.link_events:
        events[phase].append(text)
    if board.election is not None:
        events["election"].append(board.election.text)
    events["spawn"] += [line for d in board.departments if (line := spawn_text(d))]
    return [Phase(key, str(label), events[key]) for key, label in PHASES if events[key]]


def link_events(
    after_state: dict[str, Any],
    before_state: dict[str, Any],
    knowing: Knowing,
    made: set[tuple[str, str]],
    *,
    handed: set[str],
    captured: set[str],
) -> list[tuple[str, str]]:
    """(phase, text) of each link made or gone that the viewer sees (the report's
    `link_changes`), in the phase that made or broke it: a hand-over removes its
    department's links to the old structure (R62), a capture its links and adds the
    attacker's (R44); every other change is the link phase's (R41). Only where the viewer
    knows who controls the department (`known`, as the report's captures): the phase would
    otherwise tell that a rumoured department changed hands."""
    handed = {slug for slug in handed if knowing.level(slug) >= Level.KNOWN}
    captured = {slug for slug in captured if knowing.level(slug) >= Level.KNOWN}
    found = []
    for added, words in ((True, _("New link: %(link)s.")), (False, _("Link gone: %(link)s."))):
        by_phase = {
            "handovers": link_changes(after_state, before_state, knowing, added=added, made=made,
                                      touching=handed),
            "attempts": link_changes(after_state, before_state, knowing, added=added, made=made,
                                     touching=captured - handed),
        }  # fmt: skip
        claimed = set(by_phase["handovers"]) | set(by_phase["attempts"])
        every = link_changes(after_state, before_state, knowing, added=added, made=made)
        by_phase["links"] = [link for link in every if link not in claimed]
        found += [
            (phase, words % {"link": link}) for phase, links in by_phase.items() for link in links
        ]
    return found


def status_text(order: OrderView) -> str:
    """How an order ended, read from its giver's side: a function roll by its successes."""
    successes = [r.successes for r in order.rolls if r.successes is not None]
    if order.is_function and successes:
        n = successes[0]
        return ngettext("%(n)s success", "%(n)s successes", n) % {"n": n}
    if order.is_perception and order.total is not None:
        return _("total %(n)s") % {"n": order.total}
    return str(Order.Status(order.status).label) if order.status in Order.Status else order.status


def own_order_text(order: OrderView) -> str:
    """One of the viewer's orders (every order for the GM) and what came of it; an attempt
    with the tokens it paid (R43 step 1, the default cost where the order names none) and
    the target's defence, where the viewer may read it (report_orders.order_view)."""
    summary = order.summary
    if order.kind == Order.Kind.ATTEMPT and order.paid:
        summary += _(", paying %(tokens)s") % {"tokens": tokens_text(order.paid)}
    text = _("%(kind)s: %(summary)s — %(status)s") % {
        "kind": order.kind_label,
        "summary": summary,
        "status": status_text(order),
    }
    if order.reason:
        text += f" ({order.reason.rstrip('.')})"
    elif order.kind == Order.Kind.ATTEMPT and (score := score_text(order)):
        text += f" ({score})"
    if (
        order.kind == Order.Kind.ATTEMPT
        and order.status in ("failed", "rejected")
        and not rolled(order)
    ):
        # R43 step 1: an attempt that could not pay, or was rejected, took nothing.
        text += "; " + _("nothing was paid")
    if order.defence is not None:
        text += "; " + defence_text(order.defence)
    return text + "."


def rolled(order: OrderView) -> list[int]:
    return [r.successes for r in order.rolls if r.successes is not None]


def score_text(order: OrderView) -> str:
    """An attempt's attack successes against its defence's, when the viewer reads both."""
    both = rolled(order)
    if len(both) != 2:
        return ""
    return ngettext(
        "%(attack)s against %(defence)s success",
        "%(attack)s against %(defence)s successes",
        both[1] or 0,
    ) % {"attack": both[0], "defence": both[1]}


def attack_on_you_text(attack: OrderView) -> str:
    """R46: another player's attempt on the viewer's department, from the defender's side:
    it held or it was captured, and what the defence rolled: its Obstruct, the standing
    defence it spent, type by type, and shticks (R43 step 4, R47, R21)."""
    if attack.status == "succeeded":
        text = _("%(attack)s: your department was captured") % {"attack": attack.summary}
    elif attack.status == "failed":
        text = _("%(attack)s: your defence held") % {"attack": attack.summary}
    else:
        text = _("%(attack)s: it was not made") % {"attack": attack.summary}
    rolls = [r for r in attack.rolls if r.successes is not None]
    if len(rolls) == 2:
        defend = rolls[1]
        defence = attack.defence or DefenceView(
            str(_("your department")), defend.dice or 0, defend.skill or 0, None, False
        )
        text += ", " + score_text(attack) + "; " + defence_text(defence)
    return text + "."


def defence_text(defence: DefenceView) -> str:
    """R43 step 4: what the target rolled and what made its pool (R21: each token of
    Obstruct's type a die, each other one a point of skill; R47; R60), e.g. 'The City Watch
    rolled 5 dice at skill 1 (Obstruct 3, 2 People and 1 Money of its standing defence)'."""
    dice = ngettext("%(n)s die", "%(n)s dice", defence.dice) % {"n": defence.dice}
    text = _("%(department)s rolled %(dice)s at skill %(skill)s") % {
        "department": defence.department,
        "dice": dice,
        "skill": defence.skill,
    }
    read = defence.read
    if read is None:
        # report_defence could not tell the board the roll was made on.
        return text + " (" + _("its Obstruct, its standing defence spent and any shticks") + ")"
    parts = [
        _("%(stat)s %(n)s") % {"stat": STAT_LABELS[read.stat], "n": read.obstruct},
        spent_text(read, uncontrolled=defence.uncontrolled),
    ]
    bonus = []
    if read.shtick_dice:
        bonus.append(
            ngettext("%(n)s die", "%(n)s dice", read.shtick_dice) % {"n": read.shtick_dice}
        )
    if read.shtick_skill:
        bonus.append(_("%(n)s skill") % {"n": read.shtick_skill})
    if bonus:
        parts.append(_("%(bonus)s from shticks") % {"bonus": listing(bonus)})
    return text + " (" + ", ".join(parts) + ")"


def spent_text(read: DefenceRead, *, uncontrolled: bool) -> str:
    """R47 (R43 step 4 for an uncontrolled target): the tokens the defence spent, by type;
    where the roll cannot tell Money from Authority (both set, and the stash at the roll
    known only as a bound, report_defence), how many more of them."""
    counts = [f"{n} {TYPE_LABELS[kind]}" for kind, n in read.spent.items() if n]
    if read.unsplit:
        either = _("%(first)s or %(second)s") % {
            "first": TYPE_LABELS[read.among[0]],
            "second": TYPE_LABELS[read.among[-1]],
        }
        if any(read.spent[kind] for kind in read.among):
            counts.append(_("%(n)s more %(types)s") % {"n": read.unsplit, "types": either})
        else:
            counts.append(f"{read.unsplit} {either}")
    tokens = listing(counts)
    if uncontrolled:
        if not tokens:
            return _("nothing of the defence the GM set for it")
        return _("%(tokens)s of the defence the GM set for it") % {"tokens": tokens}
    if not tokens:
        return _("nothing of its standing defence")
    return _("%(tokens)s of its standing defence") % {"tokens": tokens}


def spawn_text(d: DepartmentResult) -> str:
    """R32-R36 for one department: what it made, took, gave its consumers and lost."""
    parts = []
    if d.produced:
        parts.append(_("produced %(n)s %(type)s") % {"n": d.produced, "type": d.produced_label})
    for c in d.consumed:
        parts.append(
            _("took %(n)s %(type)s from %(source)s")
            % {"n": c.amount, "type": c.type_label, "source": c.source}
        )
    for c in d.supplied:
        # R33: funding a consumer the viewer may know only by name (rumoured).
        parts.append(
            _("gave %(n)s %(type)s to %(taker)s")
            % {"n": c.amount, "type": c.type_label, "taker": c.source}
        )
    for a in d.discarded:
        parts.append(
            _("discarded %(n)s %(type)s over its capacity") % {"n": a.amount, "type": a.label}
        )
    if not parts:
        return ""
    return _("%(department)s (%(status)s): %(what)s.") % {
        "department": d.name,
        "status": d.status_label,
        "what": "; ".join(parts),
    }

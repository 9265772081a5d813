# One line per reason: the table reads as a table (E501 off for this file only).
# ruff: noqa: E501
"""The engine's refusal reasons in the site's language (issue 13). The engine (RULES R40)
stays pure and English: each reason is an English sentence that names departments by slug
and ends with its rule ids. REASONS matches each reason the engine (and the site's own R50
stand-ins) can give to a player, whole, and says it again through gettext; the slugs it
captures are named by the caller's `named` (wording.with_names), so nothing here decides
what a viewer may see (R50).

In English the engine's own sentence is kept, except where it counts (ngettext: "1 against 1
success") or names a resource type (capitalised, as the site writes them: "2 People"). A
reason no pattern matches is shown in the engine's English, with names, never blank. Called
by wording.with_names only."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

SLUG = r"[\w-]+"
KIND = r"money|people|authority"

# (pattern, translation). Groups: d, e (slugs: named by the caller), k (a resource type),
# inner (a reason inside a reason, translated in turn), anything else as it stands.
PATTERNS: list[tuple[str, Any]] = [
    # Links (R10, R11, R14, R2)
    (r"a department cannot link to itself \(R10\)", _("a department cannot link to itself (R10)")),
    (rf"(?P<d>{SLUG}) already links to (?P<e>{SLUG}) \(R10\)", _("%(d)s already links to %(e)s (R10)")),
    (rf"(?P<d>{SLUG}) does not produce what (?P<e>{SLUG}) consumes \(R10\)", _("%(d)s does not produce what %(e)s consumes (R10)")),
    (rf"(?P<d>{SLUG}) has no free outgoing link \(R11\)", _("%(d)s has no free outgoing link (R11)")),
    (rf"(?P<d>{SLUG}) has no free incoming link \(R11\)", _("%(d)s has no free incoming link (R11)")),
    (rf"(?P<d>{SLUG}) and (?P<e>{SLUG}) are on different boards \(R2; a cross_board shtick, R60\)", _("%(d)s and %(e)s are on different boards (R2; a cross_board shtick, R60)")),
    (rf"(?P<d>{SLUG}) is not in your structure \(R14\)", _("%(d)s is not in your structure (R14)")),
    (rf"(?P<d>{SLUG}) is not in your structure", _("%(d)s is not in your structure")),
    (rf"there is no link (?P<d>{SLUG})->(?P<e>{SLUG}) \(R42\)", _("there is no link %(d)s → %(e)s (R42)")),
    (rf"there is no link (?P<d>{SLUG})->(?P<e>{SLUG})", _("there is no link %(d)s → %(e)s")),
    (r"consumers must be a list of department slugs", _("consumers must be a list of departments")),
    (r"a consumer is named twice", _("a consumer is named twice")),
    (rf"(?P<d>{SLUG}) is not one of (?P<e>{SLUG})'s consumers", _("%(d)s is not one of %(e)s's consumers")),
    # Stashes and moves (R42, R36)
    (rf"(?P<d>{SLUG}) holds only (?P<n>\d+) (?P<k>{KIND})", _("%(d)s holds only %(n)s %(k)s")),
    (rf"(?P<d>{SLUG}) holds (?P<h>\d+) (?P<k>{KIND}), the roll needs (?P<n>\d+)", _("%(d)s holds %(h)s %(k)s, the roll needs %(n)s")),
    (rf"(?P<d>{SLUG}) holds (?P<h>\d+) (?P<k>{KIND}), the attempt needs (?P<n>\d+)", _("%(d)s holds %(h)s %(k)s, the attempt needs %(n)s")),
    (rf"(?P<d>{SLUG}) holds (?P<h>\d+) (?P<k>{KIND}), the move needs (?P<n>\d+)", _("%(d)s holds %(h)s %(k)s, the move needs %(n)s")),
    (rf"(?P<d>{SLUG}) holds (?P<h>\d+) (?P<k>{KIND}), the gift needs (?P<n>\d+)", _("%(d)s holds %(h)s %(k)s, the gift needs %(n)s")),
    (r"drops must name one token for each of the (?P<n>\d+) departments passed", _("the drops must name one token for each of the %(n)s departments passed")),
    (rf"the drops need more (?P<k>{KIND}) than the move carries", _("the drops need more %(k)s than the move carries")),
    (r"each drop must be exactly one token", _("each drop must be exactly one token")),
    (r"a move needs a path of at least one department", _("a move needs a path of at least one department")),
    (r"a path passes each department once and not its start \(R42\)", _("a path passes each department once and not its start (R42)")),
    (rf"a reinforcement must end at the target (?P<d>{SLUG}) \(R46\)", _("a reinforcement must end at the target %(d)s (R46)")),
    (rf"a reinforcement must end at the target (?P<d>{SLUG})", _("a reinforcement must end at the target %(d)s")),
    (r"(?P<n>\d+) tokens can travel at most (?P<m>\d+) steps \(R42\)", _("%(n)s tokens can travel at most %(m)s steps (R42)")),
    (rf"the move would put (?P<d>{SLUG}) over its capacity of (?P<n>\d+) \(R42, R36\)", _("the move would put %(d)s over its capacity of %(n)s (R42, R36)")),
    (rf"the gift would put (?P<d>{SLUG}) over its capacity of (?P<n>\d+) \(R42, R36\)", _("the gift would put %(d)s over its capacity of %(n)s (R42, R36)")),
    (rf"(?P<d>{SLUG}) has only (?P<n>\d+) unmoved (?P<k>{KIND}) \(R42\)", _("%(d)s has only %(n)s unmoved %(k)s (R42)")),
    # Linking attempts (R43, R46)
    (rf"(?P<d>{SLUG}) consumes nothing \(R43\)", _("%(d)s consumes nothing (R43)")),
    (r"the cost is (?P<n>\d+) tokens; the order names (?P<m>\d+) \(R43\)", _("the cost is %(n)s tokens; the order names %(m)s (R43)")),
    (rf"(?P<d>{SLUG}) is already in your structure \(R43\)", _("%(d)s is already in your structure (R43)")),
    (rf"(?P<d>{SLUG}) has no free outgoing link \(R43, R11\)", _("%(d)s has no free outgoing link (R43, R11)")),
    (rf"(?P<d>{SLUG}) does not consume what (?P<e>{SLUG}) produces \(R43\)", _("%(d)s does not consume what %(e)s produces (R43)")),
    (rf"(?P<d>{SLUG}) has no free incoming link \(R43, R11\)", _("%(d)s has no free incoming link (R43, R11)")),
    (r"only (?P<n>\d+) linking attempt\(s\) per turn \(R43\)", _("only %(n)s linking attempt(s) per turn (R43)")),
    (r"cannot pay: (?P<inner>.+) \(R43\)", _("cannot pay: %(inner)s (R43)")),
    (r"that department cannot be targeted this way now", _("that department cannot be targeted this way now")),
    (r"only the target's controller may reinforce it \(R46\)", _("only the target's controller may reinforce it (R46)")),
    (r"no link from your departments reaches the target \(R42, R46\)", _("no link from your departments reaches the target (R42, R46)")),
    (r"none of your departments whose links reach the target holds tokens that have not moved this turn \(R42, R46\)", _("none of your departments whose links reach the target holds tokens that have not moved this turn (R42, R46)")),
    (r"the target is at its capacity, so no token can be left there \(R42, R36, R46\)", _("the target is at its capacity, so no token can be left there (R42, R36, R46)")),
    (r"your departments whose links reach the target hold too few unmoved tokens for the way: k tokens travel at most k links \(R42, R46\)", _("your departments whose links reach the target hold too few unmoved tokens for the way: k tokens travel at most k links (R42, R46)")),
    (r"your departments that could send tokens are more than (?P<n>\d+) links from the target, farther than the order form reaches \(R42, R46\)", _("your departments that could send tokens are more than %(n)s links from the target, farther than the order form reaches (R42, R46)")),
    (r"every way to the target passes a department at its capacity \(R42, R36, R46\)", _("every way to the target passes a department at its capacity (R42, R36, R46)")),
    # Function rolls and perception (R45, R70)
    (r"a function roll names a function or a task", _("a function roll names a function or a task")),
    (r"stat must be effect, obstruct or impress", _("the stat must be Effect, Obstruct or Impress")),
    (rf"(?P<d>{SLUG}) already made a function roll this turn \(R45\)", _("%(d)s already made a function roll this turn (R45)")),
    (rf"you already made a perception check on (?P<d>{SLUG}) this turn \(R70\)", _("you already made a perception check on %(d)s this turn (R70)")),
    # Deals (R62)
    (rf"(?P<d>{SLUG}) is not in another player's structure \(R62\)", _("%(d)s is not in another player's structure (R62)")),
    (r"a gift gives at least one token \(R62\)", _("a gift gives at least one token (R62)")),
    (r"a hand-over names the player who receives it", _("a hand-over names the player who receives it")),
    (r"a department cannot be handed over to its own controller", _("a department cannot be handed over to its own controller")),
    (rf"(?P<d>{SLUG}) was already handed over this turn \(R62\)", _("%(d)s was already handed over this turn (R62)")),
    (rf"(?P<p>.+) did not accept (?P<d>{SLUG}) \(R62\)", _("%(p)s did not accept %(d)s (R62)")),
    (r"no hand-over of that department to you succeeded this turn \(R62\)", _("no hand-over of that department to you succeeded this turn (R62)")),
    # Elections (R80)
    (r"there is no election this turn \(R80\)", _("there is no election this turn (R80)")),
    (r"you have already nominated a ticket this turn \(R80\)", _("you have already nominated a ticket this turn (R80)")),
    (r"a running mate is another department than the candidate \(R80\)", _("a running mate is another department than the candidate (R80)")),
    (rf"(?P<d>{SLUG}) is already nominated \(R80\)", _("%(d)s is already nominated (R80)")),
    (rf"(?P<d>{SLUG}) is not in your structure \(R80\)", _("%(d)s is not in your structure (R80)")),
    (r"you nominated this ticket: its running mate stays \(R80\)", _("you nominated this ticket: its running mate stays (R80)")),
    (rf"(?P<d>{SLUG}) already supports a ticket \(R80\)", _("%(d)s already supports a ticket (R80)")),
    (rf"(?P<d>{SLUG}) doubled its election support this turn \(R80\)", _("%(d)s doubled its election support this turn (R80)")),
    (r"you have already voted this turn \(R80\)", _("you have already voted this turn (R80)")),
    (r"a ticket needs two departments of the board \(R80\)", _("a ticket needs two departments of the board (R80)")),
    (r"every department of the board is already a candidate \(R80\)", _("every department of the board is already a candidate (R80)")),
    (r"no ticket another player nominated has a candidate of yours \(R80\)", _("no ticket another player nominated has a candidate of yours (R80)")),
    (r"no ticket has been nominated yet \(R80\)", _("no ticket has been nominated yet (R80)")),
    (r"every department of yours on the board already supports a ticket \(R80\)", _("every department of yours on the board already supports a ticket (R80)")),
    (rf"there is no ticket '(?P<d>{SLUG})' \(R80\)", _("there is no ticket of %(d)s (R80)")),
    (rf"(?P<d>{SLUG}) is not on the board of (?P<o>{SLUG}) \(R80\)", _("%(d)s is not on the board of the office (R80)")),
    (rf"(?P<d>{SLUG}) has no function named media to double \(R80\)", _("%(d)s has no function named media to double (R80)")),
    (r"double must be true or false", _("double must be true or false")),
    # Why an order kind has no choice now (engine/legal*.py: naming no department)
    (r"you control no department on this board", _("you control no department on this board")),
    (r"no link reaches any of your departments \(R14, R50\)", _("no link reaches any of your departments (R14, R50)")),
    (r"none of your departments supplies two or more consumers \(R12\)", _("none of your departments supplies two or more consumers (R12)")),
    (r"every department of yours already has a function roll this turn \(R45\)", _("every department of yours already has a function roll this turn (R45)")),
    (r"every link your departments' resources allow already exists \(R10\)", _("every link your departments' resources allow already exists (R10)")),
    (r"none of your departments produces what another of yours consumes \(R10\)", _("none of your departments produces what another of yours consumes (R10)")),
    (r"none of your departments has a free outgoing link \(R11\)", _("none of your departments has a free outgoing link (R11)")),
    (r"no link can be added: every consumer has the most suppliers allowed \((?P<n>\d+), R11\)", _("no link can be added: every consumer has the most suppliers allowed (%(n)s, R11)")),
    (r"no link can be added across boards without a cross_board shtick \(R2, R60\)", _("no link can be added across boards without a cross_board shtick (R2, R60)")),
    (r"no link can be added: the link limits leave no free pair \(R11\)", _("no link can be added: the link limits leave no free pair (R11)")),
    (r"none of your departments holds tokens that have not moved this turn \(R42\)", _("none of your departments holds tokens that have not moved this turn (R42)")),
    (r"none of your departments with unmoved tokens has a link to move them along \(R42\)", _("none of your departments with unmoved tokens has a link to move them along (R42)")),
    (r"every department your tokens could reach is at its capacity \(R42, R36\)", _("every department your tokens could reach is at its capacity (R42, R36)")),
    (r"you have already queued as many linking attempts as a turn allows \((?P<n>\d+) of (?P<m>\d+), R43\)", _("you have already queued as many linking attempts as a turn allows (%(n)s of %(m)s, R43)")),
    (r"none of your departments produces anything to link with \(R43\)", _("none of your departments produces anything to link with (R43)")),
    (r"none of your departments has a free outgoing link \(R43, R11\)", _("none of your departments has a free outgoing link (R43, R11)")),
    (r"no department outside your structure consumes what yours produce \(R43\)", _("no department outside your structure consumes what yours produce (R43)")),
    (r"every department that consumes what yours produce has no free incoming link \(R43, R11\)", _("every department that consumes what yours produce has no free incoming link (R43, R11)")),
    (r"you have already queued a perception check on every department \(R70\)", _("you have already queued a perception check on every department (R70)")),
    (r"none of your departments can be handed over now \(R62\)", _("none of your departments can be handed over now (R62)")),
    (r"no other player offers you a department \(R62\)", _("no other player offers you a department (R62)")),
    (r"none of your departments holds tokens that have not moved this turn \(R42, R62\)", _("none of your departments holds tokens that have not moved this turn (R42, R62)")),
    (r"no department of another player has room for a gift \(R62, R36\)", _("no department of another player has room for a gift (R62, R36)")),
    # The site's own R50 stand-ins (web/order_choices.py, selectors/order_checks.py)
    (r"you know no department outside your structure that your departments can try to link now \(R43, R50\)", _("you know no department outside your structure that your departments can try to link now (R43, R50)")),
    (r"your tokens could only move through departments you do not know \(R50\)", _("your tokens could only move through departments you do not know (R50)")),
    (r"nothing you can see can be ordered now \(R50\)", _("nothing you can see can be ordered now (R50)")),
    (r"you know fewer than two departments of this board \(R80, R50\)", _("you know fewer than two departments of this board (R80, R50)")),
    (r"you have heard of no candidate nominated so far \(R80, R50\)", _("you have heard of no candidate nominated so far (R80, R50)")),
    (r"you know no department here to look into \(R70, R50\)", _("you know no department here to look into (R70, R50)")),
    (r"you know the card of no other player's department that could take a gift now \(R62, R50\)", _("you know the card of no other player's department that could take a gift now (R62, R50)")),
    (r"there is no other player to hand a department over to \(R62\)", _("there is no other player to hand a department over to (R62)")),
    (r"you already offer each of your departments to every other player \(R62\)", _("you already offer each of your departments to every other player (R62)")),
    (r"That department cannot be targeted this way now \(details you cannot see, R50\)\.", _("That department cannot be targeted this way now (details you cannot see, R50).")),
    # A state the engine cannot read (engine/cli_io.py, values.py, board.py, edit.py): what the
    # GM's editor and the board-import page show. Field names (effect, stash.money...) are the
    # board file's keys and stay as they are; the most particular pattern comes first.
    (rf"department (?P<d>{SLUG}): (?P<inner>.+)", _("department %(d)s: %(inner)s")),
    (rf"link (?P<d>{SLUG})->(?P<e>{SLUG}): unknown department (?P<x>.+)", _("link %(d)s → %(e)s: unknown department %(x)s")),
    (rf"link (?P<d>{SLUG})->(?P<e>{SLUG}): (?P<inner>.+)", _("link %(d)s → %(e)s: %(inner)s")),
    (r"link (?P<a>.*)->(?P<b>.*): unknown department (?P<x>.+)", _("link %(a)s → %(b)s: unknown department %(x)s")),
    (r"the skill of (?P<f>.+) must be a whole number >= 0", _("the skill of %(f)s must be a whole number ≥ 0")),
    (r"the amount (?P<w>.+) must be a whole number >= 1", _("the amount %(w)s must be a whole number ≥ 1")),
    (r"(?P<w>.+) must be a whole number >= (?P<n>\d+)", _("%(w)s must be a whole number ≥ %(n)s")),
    (r"(?P<w>.+) must be a non-empty string", _("%(w)s must be a non-empty text")),
    (r"(?P<w>.+) must be an object of token amounts", _("%(w)s must be an object of token amounts")),
    (r"(?P<w>.+): unknown resource type (?P<x>.+)", _("%(w)s: unknown resource type %(x)s")),
    (r"(?P<w>.+) must be null or \{type, amount\} with a known type", _("%(w)s must be null or {type, amount} with a known type")),
    (rf"more (?P<k>{KIND}) marked moved than it holds", _("more %(k)s marked moved than it holds")),
    (r"every department needs a slug", _("every department needs a slug")),
    (r"functions must be an object of name -> skill", _("functions must be an object of name → skill")),
    (r"alignments must be a list of names", _("alignments must be a list of names")),
    (r"structure must be a player id or null", _("structure must be a player id or null")),
    (r"settings must be an object", _("settings must be an object")),
    (r"links must be a list", _("links must be a list")),
    (r"each link must be an object with from and to", _("each link must be an object with from and to")),
    (r"the state must be a JSON object", _("the board must be a JSON object")),
    (r"departments must be a list", _("departments must be a list")),
    (r"duplicate department slug (?P<x>.+)", _("the department slug %(x)s is given twice")),
    (r"alignments must be a list", _("alignments must be a list")),
    (r"each alignment needs a name", _("each alignment needs a name")),
    (r"alignment (?P<a>.+): opposite must be a name", _("alignment %(a)s: its opposite must be a name")),
    (r"alignment (?P<a>.+) has two opposites", _("the alignment %(a)s has two opposites (R5)")),
    (r"a self-opposed alignment cannot also have an opposite", _("an alignment opposed to itself cannot also have an opposite (R5)")),
    (r"at most three alignments", _("at most three alignments (R4)")),
    (r"unknown alignment (?P<a>'[^']*'|\"[^\"]*\")", _("unknown alignment %(a)s: it is not in the campaign's catalogue (R5)")),
    (r"holds (?P<a>.+) together with its opposite \(R5\)", _("holds %(a)s together with its opposite (R5)")),
    (r"no department (?P<x>.+) on this board", _("no department %(x)s on this board")),
]  # fmt: skip
# Reasons that count something: said with ngettext in every language, English too. (The
# engine writes "1 against 1 successes"; the named number picks the form.)
COUNTING: list[tuple[str, Any]] = [
    (r"the defence held: (?P<a>\d+) against (?P<b>\d+) successes \(R43\)", ngettext_lazy("the defence held: %(a)s against %(b)s success (R43)", "the defence held: %(a)s against %(b)s successes (R43)", "b")),
]  # fmt: skip
REASONS = [(re.compile(pattern), text) for pattern, text in COUNTING + PATTERNS]
# " (R4)", " (R2, R10)", " (R3, R4)": the rule a reason ends with.
RULE_AT_END = re.compile(r" \((R\d+[^()]*)\)$")
Table = list[tuple[re.Pattern[str], Any]]


def said_again(text: str, table: Table) -> tuple[Any, dict[str, str]] | None:
    """The first (words, the groups it caught) of `table` whose pattern matches all of
    `text`; None if none does. The one lookup of every "say it again in the reader's
    language" table (this one, audit_words.TARGETS)."""
    for pattern, words in table:
        match = pattern.fullmatch(text)
        if match is not None:
            return words, match.groupdict()
    return None


def reason_translated(
    reason: str, named: Callable[[str], str], types: Mapping[str, object]
) -> str | None:
    """`reason` in the active language, its slugs named by `named`; None for a reason no
    pattern knows, and in English where the engine's sentence stands as it is (it counts
    nothing and names no resource type)."""
    english = (get_language() or "en").startswith("en")
    found, rule = said_again(reason, REASONS), None
    if found is None and (rule := RULE_AT_END.search(reason)) is not None:
        # A reason about a board names its rule at its end (engine/errors.py under_rule):
        # said again without it, then with it.
        found = said_again(reason[: rule.start()], REASONS)
    if found is None:
        return None
    text, groups = found
    # English rewords only what the engine's own sentence gets wrong for a reader.
    reworded = not english or "k" in groups or any(text is counting for __, counting in COUNTING)
    values: dict[str, object] = {}
    for group, value in groups.items():
        if group == "k":
            values[group] = types.get(value, value)
        elif group == "inner":
            inner = reason_translated(value, named, types)
            reworded = reworded or inner is not None
            values[group] = inner or named(value)
        elif group in ("d", "e"):
            values[group] = named(value)
        else:
            # A count is a number, so that ngettext picks its form.
            values[group] = int(value) if value.isdigit() else value
    if not reworded:
        return None
    said = str(text % values)  # a counting text picks its form from its named number
    if rule is None or RULE_AT_END.search(said):
        return said
    return said + rule.group(0)

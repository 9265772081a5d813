# One line per refusal: the table reads as a table (E501 off for this file only).
# ruff: noqa: E501
"""The engine's refusals as codes (RULES R40). A refusal is a code, the rule it applies and
named parameters; its English sentence, made from TABLE, is what the command line prints and
what ENGINE.md's contract shows, so a Refusal is a str whose text is that sentence and which
also carries .code, .rule and .params. The site says the code again in the reader's language
(campaigns/reasons.py) and names the departments in .params itself, so what a viewer may see
(R50, R51) is decided there, not here.

A reason that has lost its code (a sentence put inside another with an f-string, stored text
of an older turn) is read back by `parse`, through patterns made from TABLE itself: a changed
sentence changes its pattern with it."""

from __future__ import annotations

import ast
import functools
import re
import string
from collections.abc import Callable
from typing import Any

# code -> (rule, English template). Fields are str.format fields named for what they hold;
# !r marks a value the sentence quotes (a name that may not exist). Where one sentence could
# be read as two, the more particular comes first (parse tries them in this order).
Table = dict[str, tuple[str, str]]
TABLE: Table = {
    # The defence held (R43): counts, said with ngettext by the site.
    "defence_held": ("R43", "the defence held: {attack} against {defence} successes (R43)"),
    # Links (R10, R11, R14, R2)
    "self_link": ("R10", "a department cannot link to itself (R10)"),
    "already_linked": ("R10", "{supplier} already links to {consumer} (R10)"),
    "not_produced": ("R10", "{supplier} does not produce what {consumer} consumes (R10)"),
    "no_free_out": ("R11", "{dept} has no free outgoing link (R11)"),
    "no_free_in": ("R11", "{dept} has no free incoming link (R11)"),
    "different_boards": ("R2", "{supplier} and {consumer} are on different boards (R2; a cross_board shtick, R60)"),
    "not_yours_link": ("R14", "{dept} is not in your structure (R14)"),
    "not_yours": ("R40", "{dept} is not in your structure"),
    "no_link_path": ("R42", "there is no link {supplier}->{consumer} (R42)"),
    "no_link": ("R41", "there is no link {supplier}->{consumer}"),
    "consumers_list": ("R12", "consumers must be a list of department slugs"),
    "consumer_twice": ("R12", "a consumer is named twice"),
    "not_a_consumer": ("R12", "{dept} is not one of {supplier}'s consumers"),
    # Stashes and moves (R42, R36)
    "holds_only": ("R21", "{dept} holds only {held} {kind}"),
    "short_for_roll": ("R21", "{dept} holds {held} {kind}, the roll needs {needed}"),
    "short_for_attempt": ("R43", "{dept} holds {held} {kind}, the attempt needs {needed}"),
    # (A move or a gift short of tokens: said by older engines, kept for their stored reasons.)
    "short_for_move": ("R42", "{dept} holds {held} {kind}, the move needs {needed}"),
    "short_for_gift": ("R62", "{dept} holds {held} {kind}, the gift needs {needed}"),
    "drops_count": ("R42", "drops must name one token for each of the {count} departments passed"),
    "drops_kind": ("R42", "unknown resource type {kind!r} in drops"),
    "drops_too_many": ("R42", "the drops need more {kind} than the move carries"),
    "drop_one_token": ("R42", "each drop must be exactly one token"),
    "empty_path": ("R42", "a move needs a path of at least one department"),
    "path_repeats": ("R42", "a path passes each department once and not its start (R42)"),
    "must_end_at_target": ("R46", "a reinforcement must end at the target {target} (R46)"),
    "too_many_steps": ("R42", "{carried} tokens can travel at most {steps} steps (R42)"),
    "move_over_capacity": ("R36", "the move would put {dept} over its capacity of {capacity} (R42, R36)"),
    "gift_over_capacity": ("R36", "the gift would put {dept} over its capacity of {capacity} (R42, R36)"),
    "too_few_unmoved": ("R42", "{dept} has only {unmoved} unmoved {kind} (R42)"),
    # Linking attempts (R43, R46)
    "consumes_nothing": ("R43", "{target} consumes nothing (R43)"),
    "wrong_cost": ("R43", "the cost is {cost} tokens; the order names {named} (R43)"),
    "already_yours": ("R43", "{target} is already in your structure (R43)"),
    "attacker_no_free_out": ("R43", "{attacker} has no free outgoing link (R43, R11)"),
    "not_consumed": ("R43", "{target} does not consume what {attacker} produces (R43)"),
    "target_no_free_in": ("R43", "{target} has no free incoming link (R43, R11)"),
    "attempts_per_turn": ("R43", "only {limit} linking attempt(s) per turn (R43)"),
    "cannot_pay": ("R43", "cannot pay: {inner} (R43)"),
    "not_targetable": ("R43", "that department cannot be targeted this way now"),
    "attempt_gone": ("R46", "its linking attempt was rejected, could not pay, or does not exist"),
    "not_controller": ("R46", "only the target's controller may reinforce it (R46)"),
    "no_link_to_target": ("R46", "no link from your departments reaches the target (R42, R46)"),
    "nothing_unmoved_near": ("R46", "none of your departments whose links reach the target holds tokens that have not moved this turn (R42, R46)"),
    "target_full": ("R46", "the target is at its capacity, so no token can be left there (R42, R36, R46)"),
    "too_few_for_way": ("R46", "your departments whose links reach the target hold too few unmoved tokens for the way: k tokens travel at most k links (R42, R46)"),
    "too_far": ("R46", "your departments that could send tokens are more than {links} links from the target, farther than the order form reaches (R42, R46)"),
    "full_on_way": ("R46", "every way to the target passes a department at its capacity (R42, R36, R46)"),
    # Function rolls and perception (R45, R70)
    "roll_names_nothing": ("R45", "a function roll names a function or a task"),
    "bad_stat": ("R45", "stat must be effect, obstruct or impress"),
    "rolled_already": ("R45", "{dept} already made a function roll this turn (R45)"),
    "perceived_already": ("R70", "you already made a perception check on {dept} this turn (R70)"),
    # Deals (R62)
    "not_another_players": ("R62", "{dept} is not in another player's structure (R62)"),
    "empty_gift": ("R62", "a gift gives at least one token (R62)"),
    "handover_no_receiver": ("R62", "a hand-over names the player who receives it"),
    "handover_to_controller": ("R62", "a department cannot be handed over to its own controller"),
    "handed_over_already": ("R62", "{dept} was already handed over this turn (R62)"),
    "not_accepted": ("R62", "{player} did not accept {dept} (R62)"),
    "no_handover_to_you": ("R62", "no hand-over of that department to you succeeded this turn (R62)"),
    # Elections (R80)
    "no_election": ("R80", "there is no election this turn (R80)"),
    "nominated_already": ("R80", "you have already nominated a ticket this turn (R80)"),
    "mate_is_candidate": ("R80", "a running mate is another department than the candidate (R80)"),
    "candidate_already": ("R80", "{dept} is already nominated (R80)"),
    "not_yours_election": ("R80", "{dept} is not in your structure (R80)"),
    "mate_stays": ("R80", "you nominated this ticket: its running mate stays (R80)"),
    "supports_already": ("R80", "{dept} already supports a ticket (R80)"),
    "doubled_already": ("R80", "{dept} doubled its election support this turn (R80)"),
    "voted_already": ("R80", "you have already voted this turn (R80)"),
    "ticket_needs_two": ("R80", "a ticket needs two departments of the board (R80)"),
    "all_candidates": ("R80", "every department of the board is already a candidate (R80)"),
    "no_mate_ticket": ("R80", "no ticket another player nominated has a candidate of yours (R80)"),
    "no_ticket_yet": ("R80", "no ticket has been nominated yet (R80)"),
    "all_support": ("R80", "every department of yours on the board already supports a ticket (R80)"),
    "no_such_ticket": ("R80", "there is no ticket {dept!r} (R80)"),
    "not_on_office_board": ("R80", "{dept} is not on the board of {office} (R80)"),
    "no_media": ("R80", "{dept} has no function named {function} to double (R80)"),
    "double_bool": ("R80", "double must be true or false"),
    # Why an order kind has no choice now (legal*.py: naming no department)
    "no_department": ("R14", "you control no department on this board"),
    "nothing_to_break": ("R14", "no link reaches any of your departments (R14, R50)"),
    "nothing_to_rank": ("R12", "none of your departments supplies two or more consumers (R12)"),
    "all_rolled": ("R45", "every department of yours already has a function roll this turn (R45)"),
    "all_links_exist": ("R10", "every link your departments' resources allow already exists (R10)"),
    "nothing_matches": ("R10", "none of your departments produces what another of yours consumes (R10)"),
    "none_free_out": ("R11", "none of your departments has a free outgoing link (R11)"),
    "consumers_full": ("R11", "no link can be added: every consumer has the most suppliers allowed ({limit}, R11)"),
    "boards_apart": ("R2", "no link can be added across boards without a cross_board shtick (R2, R60)"),
    "no_free_pair": ("R11", "no link can be added: the link limits leave no free pair (R11)"),
    "nothing_unmoved": ("R42", "none of your departments holds tokens that have not moved this turn (R42)"),
    "no_way_out": ("R42", "none of your departments with unmoved tokens has a link to move them along (R42)"),
    "all_full": ("R36", "every department your tokens could reach is at its capacity (R42, R36)"),
    "attempts_queued": ("R43", "you have already queued as many linking attempts as a turn allows ({queued} of {limit}, R43)"),
    "nothing_produced": ("R43", "none of your departments produces anything to link with (R43)"),
    "none_free_out_attempt": ("R43", "none of your departments has a free outgoing link (R43, R11)"),
    "no_target": ("R43", "no department outside your structure consumes what yours produce (R43)"),
    "targets_full": ("R43", "every department that consumes what yours produce has no free incoming link (R43, R11)"),
    "all_perceived": ("R70", "you have already queued a perception check on every department (R70)"),
    "nothing_to_hand_over": ("R62", "none of your departments can be handed over now (R62)"),
    "no_offer": ("R62", "no other player offers you a department (R62)"),
    "nothing_unmoved_gift": ("R62", "none of your departments holds tokens that have not moved this turn (R42, R62)"),
    "no_room_for_gift": ("R62", "no department of another player has room for a gift (R62, R36)"),
    # A state the engine cannot read (cli_io.py, values.py, board.py, edit.py): what the GM's
    # editor and the board import show. Field names are the board file's keys.
    "in_department": ("R4", "department {department}: {inner}"),
    "unknown_link_end": ("R10", "link {link_from}->{link_to}: unknown department {end!r} (R2, R10)"),
    "in_link": ("R10", "link {link_from}->{link_to}: {inner}"),
    "skill_number": ("R4", "the skill of {function} must be a whole number >= 0"),
    "amount_number": ("R4", "the amount {what} must be a whole number >= 1"),
    "whole_number": ("R4", "{what} must be a whole number >= {minimum}"),
    "non_empty": ("R4", "{what} must be a non-empty string"),
    "token_amounts": ("R4", "{what} must be an object of token amounts"),
    "unknown_kind": ("R4", "{what}: unknown resource type {kind!r}"),
    "consumes_shape": ("R4", "{what} must be null or {{type, amount}} with a known type"),
    "moved_too_many": ("R42", "more {kind} marked moved than it holds (R42)"),
    "needs_slug": ("R4", "every department needs a slug (R4)"),
    "functions_shape": ("R4", "functions must be an object of name -> skill"),
    "alignment_names": ("R4", "alignments must be a list of names"),
    "structure_shape": ("R13", "structure must be a player id or null"),
    "settings_shape": ("R11", "settings must be an object (R11, R43)"),
    "links_list": ("R10", "links must be a list (R10)"),
    "link_shape": ("R10", "each link must be an object with from and to (R10)"),
    "state_object": ("R2", "the state must be a JSON object"),
    "departments_list": ("R2", "departments must be a list (R2)"),
    "duplicate_slug": ("R4", "duplicate department slug {slug!r} (R4)"),
    "alignments_list": ("R5", "alignments must be a list (R5)"),
    "alignment_name": ("R5", "each alignment needs a name (R5)"),
    "opposite_name": ("R5", "alignment {alignment}: opposite must be a name (R5)"),
    "two_opposites": ("R5", "alignment {alignment} has two opposites (R5)"),
    "self_opposed": ("R5", "a self-opposed alignment cannot also have an opposite (R5)"),
    "three_alignments": ("R4", "at most three alignments (R4)"),
    "unknown_alignment": ("R5", "unknown alignment {alignment!r} (R5)"),
    "opposites_held": ("R5", "holds {alignment} together with its opposite (R5)"),
    "no_such_department": ("R2", "no department {slug!r} on this board"),
    "no_such_department_rule": ("R2", "no department {slug!r} on this board (R2)"),
    # Input the engine cannot read beyond the board (orders, seed, odds, parts 7-9):
    # ENGINE.md's bad input, one line on standard error.
    "orders_list": ("R40", "orders must be a list"),
    "order_object": ("R40", "order {order}: must be an object"),
    "order_id": ("R40", "order {order}: needs an id"),
    "order_seq": ("R40", "order {order}: seq must be a whole number"),
    "order_twice": ("R40", "duplicate order id {order!r}"),
    "no_player": ("R40", "the order names no player"),
    "unknown_order_kind": ("R40", "unknown order kind {order_kind!r}"),
    "seed_hex": ("R23", "seed must be 64 lowercase hex digits"),
    "dice_counts": ("R23", "dice must be >= 0 and sides >= 1"),
    "odds_unknown_department": ("R43", "no department {slug!r}"),
    "odds_not_departments": ("R43", "attacker and target must be departments of the board"),
    "objects_list": ("R4", "{what} must be a list of objects"),
    "duplicate_id": ("R4", "{what}: duplicate id {item!r}"),
    "one_of": ("R4", "{what} must be one of {allowed}"),
    "named_alignment": ("R5", "{what}: unknown alignment {alignment!r}"),
    "players_shape": ("R70", "players must be an object of player id -> {{perception, shticks}}"),
    "player_sheet": ("R70", "players.{player} must be an object"),
    "shtick_kind": ("R60", "{what}: unknown shtick kind {shtick_kind!r}"),
    "cross_boards": ("R60", "{what}: boards must name two different boards"),
    "goal_kind": ("R61", "{what}: unknown goal kind {goal_kind!r}"),
    "envelope_audience": ("R71", "{what}: audience must be null or a list of player ids"),
    "condition_unknown": ("R72", "{what}: unknown condition {condition!r}"),
    "condition_player": ("R72", "{what}: needs a player"),
    "condition_department": ("R72", "{what}: needs a department"),
    "condition_level": ("R72", "{what}: level must be 1, 2 or 3"),
    "condition_time": ("R72", "{what}: a time needs ISO 8601 with its offset, not {value!r}"),
    "office_department": ("R80", "{what} {slug!r} is not a department of the state"),
    "election_shape": ("R80", "election must be an object with an office"),
    "election_office": ("R80", "election for an unknown office {office!r}"),
    "election_departments": ("R80", "the department and the tickets must be departments of the state"),
    "supporters_departments": ("R80", "every supporter must be a department of the state"),
    # Classic boards (RULES R91-R97, engine/classic/): an order's refusal and why a kind offers nothing.
    "classic_attacker_not_yours": ("R95", "the attacker is not in your structure (R95)"),
    "classic_no_power": ("R95", "a group without power cannot attack (R95)"),
    "classic_attacked_already": ("R95", "the group has already attacked or assisted this turn (R95)"),
    "classic_assistant_twice": ("R95", "an assistant is named twice (R95)"),
    "classic_assistant_not_yours": ("R95", "an assistant is not in your structure (R95)"),
    "classic_self_assist": ("R95", "the attacker cannot assist itself (R95)"),
    "classic_assistant_used": ("R95", "an assistant has already attacked or assisted this turn (R95)"),
    "classic_not_attackable": ("R95", "that group cannot be attacked (R91, R95)"),
    "classic_controlled_already": ("R95", "you control that group already (R95)"),
    "classic_attacker_no_arrow": ("R95", "the attacker has no free arrow (R95)"),
    "classic_neutralize_other": ("R95", "only a group in another player's structure can be neutralized (R95)"),
    "classic_destroy_powerless": ("R95", "a group without power cannot be destroyed (R95)"),
    "classic_destroy_self": ("R95", "a group cannot destroy itself (R95)"),
    "classic_cannot_pay": ("R95", "you cannot pay for this attack (R95)"),
    "classic_no_attack": ("R95", "none of your groups can attack any group now (R95)"),
    "classic_only_illuminati": ("R91", "you control no group but your Illuminati (R91)"),
    "classic_nothing_in_play": ("R96", "no group is in play for an attack (R96)"),
    "classic_no_move": ("R97", "no group of yours can move to a free arrow of another (R97)"),
    "classic_no_give": ("R97", "no other player has a free arrow for a group of yours (R97)"),
    "classic_no_accept": ("R97", "no group can be offered to you (R97)"),
    "classic_no_other_player": ("R97", "there is no other player (R97)"),
    "classic_not_legal": ("R94", "not a legal choice now (R94-R97)"),
    "classic_not_your_group": ("R92", "not a group in your structure (R92)"),
    "classic_illuminati_stays": ("R91", "an Illuminati cannot be moved, given or dropped (R91)"),
    "classic_gift_to_other": ("R97", "a gift goes to another player on this board (R97)"),
    "classic_gift_too_much": ("R97", "more than your Illuminati's treasury (R97)"),
    "classic_transfer_not_yours": ("R97", "both groups must be in your structure (R97)"),
    "classic_not_adjacent": ("R97", "the groups are not parent and child (R97)"),
    "classic_transfer_too_much": ("R97", "more than the group's treasury (R97)"),
    "classic_parent_not_yours": ("R97", "the new parent is not in your structure (R97)"),
    "classic_parent_in_subtree": ("R97", "the new parent is in the group's own subtree (R97)"),
    "classic_hangs_there": ("R97", "the group hangs there already (R97)"),
    "classic_parent_no_arrow": ("R92", "the new parent has no free arrow (R92)"),
    "classic_give_to_other": ("R97", "a group is given to another player on this board (R97)"),
    "classic_accept_in_play": ("R97", "only a group in play other than an Illuminati can be accepted (R97)"),
    "classic_yours_already": ("R97", "the group is yours already (R97)"),
    "classic_accept_parent_not_yours": ("R97", "the group it hangs on is not in your structure (R97)"),
    "classic_defend_own": ("R96", "defend one of your groups, not your Illuminati (R96)"),
    "classic_no_aim": ("R95", "no attack can aim at that group (R95)"),
    "classic_passed": ("R94", "passed this turn (R94)"),
    "classic_two_actions": ("R94", "two actions already (R94)"),
    "classic_two_transfers": ("R94", "two free transfers already (R94)"),
    "classic_not_used": ("R96", "not used"),
    "classic_not_a_player": ("R92", "not a player on this board"),
    "classic_bad_aim": ("R95", "aim must be control, neutralize or destroy (R95)"),
    "classic_to_player": ("R97", "to_player must name a player"),
    "classic_action_bool": ("R94", "action must be true or false"),
    "classic_assist_list": ("R95", "assist must be a list of groups"),
    "classic_bad_side": ("R96", "side must be attack or defend (R96)"),
    "classic_interfere_other": ("R96", "interference for an attack names another player in for (R96)"),
    "classic_unknown_kind": ("R94", "unknown kind {order_kind!r}"),
    "classic_whole_number": ("R94", "{field} must be a whole number"),
    "classic_negative": ("R94", "negative amount: {field}"),
    "classic_names_group": ("R94", "{field} must name a group"),
    "classic_no_such_group": ("R94", "{field}: no group {value!r} on this board"),
    "classic_not_accepted": ("R97", "{to_player} did not accept this group on a free arrow (R97)"),
    # A classic board the engine cannot read (engine/classic/state.py); the most general last.
    "classic_duplicate_group": ("R91", "duplicate group slug {slug!r} (R91)"),
    "classic_settings_object": ("R98", "settings must be an object"),
    "classic_duplicate_player": ("R91", "duplicate player {player!r}"),
    "classic_goal_object": ("R98", "player {player}: goal must be an object (R98)"),
    "classic_goal_alignments": ("R98", "player {player}: goal alignments must be a list (R98)"),
    "classic_goal_kind": ("R98", "player {player}: goal: unknown kind {goal_kind!r} (R98)"),
    "classic_unknown_alignment": ("R5", "{what}: unknown alignment {alignment!r} (R5)"),
    "classic_illuminati_resistance": ("R91", "group {slug}: an Illuminati has no resistance (R91)"),
    "classic_group_alignments": ("R91", "group {slug}: alignments must be a list of names (R91)"),
    "classic_place": ("R92", "group {slug}: place must be structure, table, deck or destroyed (R92)"),
    "classic_table_no_parent": ("R92", "group {slug}: a group on the table has no controller or parent (R92)"),
    "classic_deck_no_parent": ("R92", "group {slug}: a group in the deck has no controller or parent (R92)"),
    "classic_destroyed_no_parent": ("R92", "group {slug}: a destroyed group has no controller or parent (R92)"),
    "classic_bonus_aim": ("R91", "group {slug}: a bonus's aim must be control, neutralize, destroy or any (R91)"),
    "classic_bonus_scope": ("R91", "group {slug}: a bonus's scope must be any or own (R91)"),
    "classic_deck_list": ("R92", "deck must be a list of slugs (R92)"),
    "classic_deck_groups": ("R92", "deck must list every group in the deck once and no other (R92)"),
    "classic_destroyed_object": ("R98", "destroyed_by must be an object (R98)"),
    "classic_illuminati_root": ("R91", "group {slug}: an Illuminati is a root of a structure (R91)"),
    "classic_no_controller": ("R92", "group {slug}: controller {controller!r} is no player"),
    "classic_parent_structure": ("R92", "group {slug}: its parent must be a group in the same structure (R92)"),
    "classic_one_illuminati": ("R91", "player {player} needs exactly one Illuminati (R91)"),
    "classic_too_many_children": ("R92", "group {slug}: more children than arrows (R92)"),
    "classic_cycle": ("R92", "group {slug}: its structure has a cycle (R92)"),
    "classic_in_group": ("R91", "group {slug}: {inner}"),
}  # fmt: skip

# What a field may be, by its name (anything else: any text). Slugs are departments' slugs:
# the site names them (wording.with_names) as far as the viewer may know them (R50).
SLUGS = frozenset(
    {
        "dept",
        "supplier",
        "consumer",
        "target",
        "attacker",
        "department",
        "link_from",
        "link_to",
        "to_player",
    }
)
SLUG = r"[\w-]+"
# A department's slug and a link's ends as the board file gives them (any text, even none):
# up to the first "->" or ": " after them, as the engine writes them.
FILE_NAMES = frozenset({"department", "link_from", "link_to"})
NUMBERS = frozenset(
    {"attack", "defence", "held", "needed", "count", "carried", "steps", "capacity",
     "unmoved", "cost", "named", "limit", "links", "queued", "minimum"}
)  # fmt: skip
KIND = "money|people|authority"
# A reason inside a reason: read back in turn (parse).
INNER = "inner"
# " (R4)", " (R2, R10)": the rule a reason ends with (errors.under_rule adds one).
RULE_AT_END = re.compile(r" \((R\d+[^()]*)\)$")


class Refusal(str):
    """An engine refusal: its English sentence, with the code, rule and parameters it was made
    from (TABLE)."""

    code: str
    rule: str
    params: dict[str, Any]

    def __new__(cls, code: str, params: dict[str, Any], table: Table | None = None) -> Refusal:
        rule, template = (TABLE if table is None else table)[code]
        self = super().__new__(cls, template.format(**params))
        self.code, self.rule, self.params = code, rule, params
        return self

    def replaced(self, sub: Callable[[str], str]) -> Refusal:
        """The same refusal with `sub` applied to its text and to each of its text parameters
        (a board's prefix taken off its slugs, player ids named), so its code survives."""
        params = {k: sub(v) if isinstance(v, str) else v for k, v in self.params.items()}
        return restored(sub(self), self.code, self.rule, params)

    def __reduce__(self) -> tuple[Any, ...]:
        # copy, deepcopy and pickle: the same text, code, rule and parameters.
        return restored, (str(self), self.code, self.rule, self.params)


def restored(text: str, code: str, rule: str, params: dict[str, Any]) -> Refusal:
    self = str.__new__(Refusal, text)
    self.code, self.rule, self.params = code, rule, params
    return self


def refuse(code: str, **params: Any) -> Refusal:
    """The refusal `code` (a key of TABLE) with its named parameters."""
    return Refusal(code, params)


def fields(template: str) -> list[tuple[str, str | None]]:
    """(name, conversion) of each field of `template`, in order."""
    found = string.Formatter().parse(template)
    return [(part[1], part[3]) for part in found if part[1]]


def field_pattern(name: str, conversion: str | None) -> str:
    if conversion == "r":
        body = r"'[^']*'|\"[^\"]*\"|.+"
    elif name in FILE_NAMES:
        body = ".*?"
    elif name in SLUGS:
        body = SLUG
    elif name in NUMBERS:
        body = r"\d+"
    elif name == "kind":
        body = KIND
    else:
        body = ".+"
    return f"(?P<{name}>{body})"


@functools.cache
def pattern_of(template: str) -> re.Pattern[str]:
    """The pattern that reads a sentence of `template` back into its fields."""
    parts = []
    for literal, name, __, conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(field_pattern(name, conversion))
    return re.compile("".join(parts))


def read_back(name: str, value: str, conversion: str | None) -> Any:
    if conversion == "r":
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
    if name in NUMBERS:
        return int(value)
    return value


def parse(text: str, table: Table | None = None) -> Refusal | None:
    """`text` read back as the refusal it says (a Refusal as it is; else the first code of
    `table` (TABLE) whose sentence matches all of it), or None. Only exact sentences are read
    back, so the Refusal's text is `text` again."""
    if isinstance(text, Refusal):
        return text
    table = TABLE if table is None else table
    for code, (__, template) in table.items():
        match = pattern_of(template).fullmatch(text)
        if match is None:
            continue
        conversions = dict(fields(template))
        params = {k: read_back(k, v, conversions[k]) for k, v in match.groupdict().items()}
        try:
            refusal = Refusal(code, params, table)
        except (ValueError, TypeError):  # a number read back that str.format will not take
            continue
        if refusal == text:
            return refusal
    return None

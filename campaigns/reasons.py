# One line per refusal: the table reads as a table (E501 off for this file only).
# ruff: noqa: E501
"""The engine's refusals in the site's language. The engine (RULES R40) stays
pure and English: a refusal is a code with its rule and named parameters (engine/refusals.py),
whose text is the English sentence. SAID gives each code its words here, through gettext,
with the same named parameters; departments' slugs among them are named by the caller's
`named` (words.game.with_names), so nothing here decides what a viewer may see (R50).

A reason that reaches the site as text (stored with an older turn, or put inside another
sentence) is read back by the engine's own table (refusals.parse); the site's own R50
stand-ins are refusals of SITE, said the same way. In English the engine's own sentence is
kept, except where it counts (ngettext: "1 against 1 success") or names a resource type
(capitalised, as the site writes them: "2 People"). A reason no code knows is shown in the
engine's English, with names, never blank. Called by words.game.with_names only."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.engine.refusals import (
    INNER,
    RULE_AT_END,
    SLUGS,
    TABLE,
    Refusal,
    Table,
    fields,
    parse,
)

# The site's own refusals, where R50 hides the engine's (web/order_choices.py,
# selectors/order_checks.py, selectors/reinforcement.py): code -> (rule, English).
SITE: Table = {
    "unseen_targets": ("R50", "you know no department outside your structure that your departments can try to link now (R43, R50)"),
    "unseen_way": ("R50", "your tokens could only move through departments you do not know (R50)"),
    "unseen_anything": ("R50", "nothing you can see can be ordered now (R50)"),
    "unseen_ticket": ("R50", "you know fewer than two departments of this board (R80, R50)"),
    "unseen_candidate": ("R50", "you have heard of no candidate nominated so far (R80, R50)"),
    "unseen_perceive": ("R50", "you know no department here to look into (R70, R50)"),
    "unseen_gift": ("R50", "you know the card of no other player's department that could take a gift now (R62, R50)"),
    "no_receiver": ("R62", "there is no other player to hand a department over to (R62)"),
    "all_offered": ("R62", "you already offer each of your departments to every other player (R62)"),
    "classic_no_structure": ("R92", "you play no structure on this board (R92)"),
    "unseen_details": ("R50", "That department cannot be targeted this way now (details you cannot see, R50)."),
}  # fmt: skip
EVERY: Table = TABLE | SITE

# code -> its words in the reader's language, with the code's named parameters.
SAID: dict[str, Any] = {
    "defence_held": ngettext_lazy("the defence held: %(attack)s against %(defence)s success (R43)", "the defence held: %(attack)s against %(defence)s successes (R43)", "defence"),
    "self_link": _("a department cannot link to itself (R10)"),
    "already_linked": _("%(supplier)s already links to %(consumer)s (R10)"),
    "not_produced": _("%(supplier)s does not produce what %(consumer)s consumes (R10)"),
    "no_free_out": _("%(dept)s has no free outgoing link (R11)"),
    "no_free_in": _("%(dept)s has no free incoming link (R11)"),
    "different_boards": _("%(supplier)s and %(consumer)s are on different boards (R2; a cross_board shtick, R60)"),
    "not_yours_link": _("%(dept)s is not in your structure (R14)"),
    "not_yours": _("%(dept)s is not in your structure"),
    "no_link_path": _("there is no link %(supplier)s → %(consumer)s (R42)"),
    "no_link": _("there is no link %(supplier)s → %(consumer)s"),
    "consumers_list": _("consumers must be a list of departments"),
    "consumer_twice": _("a consumer is named twice"),
    "not_a_consumer": _("%(dept)s is not one of %(supplier)s's consumers"),
    "holds_only": _("%(dept)s holds only %(held)s %(kind)s"),
    "short_for_roll": _("%(dept)s holds %(held)s %(kind)s, the roll needs %(needed)s"),
    "short_for_attempt": _("%(dept)s holds %(held)s %(kind)s, the attempt needs %(needed)s"),
    "short_for_move": _("%(dept)s holds %(held)s %(kind)s, the move needs %(needed)s"),
    "short_for_gift": _("%(dept)s holds %(held)s %(kind)s, the gift needs %(needed)s"),
    "drops_count": _("the drops must name one token for each of the %(count)s departments passed"),
    "drops_kind": _("unknown resource type %(kind)s in drops"),
    "drops_too_many": _("the drops need more %(kind)s than the move carries"),
    "drop_one_token": _("each drop must be exactly one token"),
    "empty_path": _("a move needs a path of at least one department"),
    "path_repeats": _("a path passes each department once and not its start (R42)"),
    "must_end_at_target": _("a reinforcement must end at the target %(target)s (R46)"),
    "too_many_steps": _("%(carried)s tokens can travel at most %(steps)s steps (R42)"),
    "move_over_capacity": _("the move would put %(dept)s over its capacity of %(capacity)s (R42, R36)"),
    "gift_over_capacity": _("the gift would put %(dept)s over its capacity of %(capacity)s (R42, R36)"),
    "too_few_unmoved": _("%(dept)s has only %(unmoved)s unmoved %(kind)s (R42)"),
    "consumes_nothing": _("%(target)s consumes nothing (R43)"),
    "wrong_cost": _("the cost is %(cost)s tokens; the order names %(named)s (R43)"),
    "already_yours": _("%(target)s is already in your structure (R43)"),
    "attacker_no_free_out": _("%(attacker)s has no free outgoing link (R43, R11)"),
    "not_consumed": _("%(target)s does not consume what %(attacker)s produces (R43)"),
    "target_no_free_in": _("%(target)s has no free incoming link (R43, R11)"),
    "attempts_per_turn": _("only %(limit)s linking attempt(s) per turn (R43)"),
    "cannot_pay": _("cannot pay: %(inner)s (R43)"),
    "not_targetable": _("that department cannot be targeted this way now"),
    "attempt_gone": _("its linking attempt was rejected, could not pay, or does not exist"),
    "not_controller": _("only the target's controller may reinforce it (R46)"),
    "no_link_to_target": _("no link from your departments reaches the target (R42, R46)"),
    "nothing_unmoved_near": _("none of your departments whose links reach the target holds tokens that have not moved this turn (R42, R46)"),
    "target_full": _("the target is at its capacity, so no token can be left there (R42, R36, R46)"),
    "too_few_for_way": _("your departments whose links reach the target hold too few unmoved tokens for the way: k tokens travel at most k links (R42, R46)"),
    "too_far": _("your departments that could send tokens are more than %(links)s links from the target, farther than the order form reaches (R42, R46)"),
    "full_on_way": _("every way to the target passes a department at its capacity (R42, R36, R46)"),
    "roll_names_nothing": _("a function roll names a function or a task"),
    "bad_stat": _("the stat must be Effect, Obstruct or Impress"),
    "rolled_already": _("%(dept)s already made a function roll this turn (R45)"),
    "perceived_already": _("you already made a perception check on %(dept)s this turn (R70)"),
    "not_another_players": _("%(dept)s is not in another player's structure (R62)"),
    "empty_gift": _("a gift gives at least one token (R62)"),
    "handover_no_receiver": _("a hand-over names the player who receives it"),
    "handover_to_controller": _("a department cannot be handed over to its own controller"),
    "handed_over_already": _("%(dept)s was already handed over this turn (R62)"),
    "not_accepted": _("%(player)s did not accept %(dept)s (R62)"),
    "no_handover_to_you": _("no hand-over of that department to you succeeded this turn (R62)"),
    "no_election": _("there is no election this turn (R80)"),
    "nominated_already": _("you have already nominated a ticket this turn (R80)"),
    "mate_is_candidate": _("a running mate is another department than the candidate (R80)"),
    "candidate_already": _("%(dept)s is already nominated (R80)"),
    "not_yours_election": _("%(dept)s is not in your structure (R80)"),
    "mate_stays": _("you nominated this ticket: its running mate stays (R80)"),
    "supports_already": _("%(dept)s already supports a ticket (R80)"),
    "doubled_already": _("%(dept)s doubled its election support this turn (R80)"),
    "voted_already": _("you have already voted this turn (R80)"),
    "ticket_needs_two": _("a ticket needs two departments of the board (R80)"),
    "all_candidates": _("every department of the board is already a candidate (R80)"),
    "no_mate_ticket": _("no ticket another player nominated has a candidate of yours (R80)"),
    "no_ticket_yet": _("no ticket has been nominated yet (R80)"),
    "all_support": _("every department of yours on the board already supports a ticket (R80)"),
    "no_such_ticket": _("there is no ticket of %(dept)s (R80)"),
    "not_on_office_board": _("%(dept)s is not on the board of the office (R80)"),
    "no_media": _("%(dept)s has no function named media to double (R80)"),
    "double_bool": _("double must be true or false"),
    "no_department": _("you control no department on this board"),
    "nothing_to_break": _("no link reaches any of your departments (R14, R50)"),
    "nothing_to_rank": _("none of your departments supplies two or more consumers (R12)"),
    "all_rolled": _("every department of yours already has a function roll this turn (R45)"),
    "all_links_exist": _("every link your departments' resources allow already exists (R10)"),
    "nothing_matches": _("none of your departments produces what another of yours consumes (R10)"),
    "none_free_out": _("none of your departments has a free outgoing link (R11)"),
    "consumers_full": _("no link can be added: every consumer has the most suppliers allowed (%(limit)s, R11)"),
    "boards_apart": _("no link can be added across boards without a cross_board shtick (R2, R60)"),
    "no_free_pair": _("no link can be added: the link limits leave no free pair (R11)"),
    "nothing_unmoved": _("none of your departments holds tokens that have not moved this turn (R42)"),
    "no_way_out": _("none of your departments with unmoved tokens has a link to move them along (R42)"),
    "all_full": _("every department your tokens could reach is at its capacity (R42, R36)"),
    "attempts_queued": _("you have already queued as many linking attempts as a turn allows (%(queued)s of %(limit)s, R43)"),
    "nothing_produced": _("none of your departments produces anything to link with (R43)"),
    "none_free_out_attempt": _("none of your departments has a free outgoing link (R43, R11)"),
    "no_target": _("no department outside your structure consumes what yours produce (R43)"),
    "targets_full": _("every department that consumes what yours produce has no free incoming link (R43, R11)"),
    "all_perceived": _("you have already queued a perception check on every department (R70)"),
    "nothing_to_hand_over": _("none of your departments can be handed over now (R62)"),
    "no_offer": _("no other player offers you a department (R62)"),
    "nothing_unmoved_gift": _("none of your departments holds tokens that have not moved this turn (R42, R62)"),
    "no_room_for_gift": _("no department of another player has room for a gift (R62, R36)"),
    "in_department": _("department %(department)s: %(inner)s"),
    "unknown_link_end": _("link %(link_from)s → %(link_to)s: unknown department %(end)s"),
    "in_link": _("link %(link_from)s → %(link_to)s: %(inner)s"),
    "skill_number": _("the skill of %(function)s must be a whole number ≥ 0"),
    "amount_number": _("the amount %(what)s must be a whole number ≥ 1"),
    "whole_number": _("%(what)s must be a whole number ≥ %(minimum)s"),
    "non_empty": _("%(what)s must be a non-empty text"),
    "token_amounts": _("%(what)s must be an object of token amounts"),
    "unknown_kind": _("%(what)s: unknown resource type %(kind)s"),
    "consumes_shape": _("%(what)s must be null or {type, amount} with a known type"),
    "moved_too_many": _("more %(kind)s marked moved than it holds"),
    "needs_slug": _("every department needs a slug"),
    "functions_shape": _("functions must be an object of name → skill"),
    "alignment_names": _("alignments must be a list of names"),
    "structure_shape": _("structure must be a player id or null"),
    "settings_shape": _("settings must be an object"),
    "links_list": _("links must be a list"),
    "link_shape": _("each link must be an object with from and to"),
    "state_object": _("the board must be a JSON object"),
    "departments_list": _("departments must be a list"),
    "duplicate_slug": _("the department slug %(slug)s is given twice"),
    "alignments_list": _("alignments must be a list"),
    "alignment_name": _("each alignment needs a name"),
    "opposite_name": _("alignment %(alignment)s: its opposite must be a name"),
    "two_opposites": _("the alignment %(alignment)s has two opposites (R5)"),
    "self_opposed": _("an alignment opposed to itself cannot also have an opposite (R5)"),
    "three_alignments": _("at most three alignments (R4)"),
    "unknown_alignment": _("unknown alignment %(alignment)s: it is not in the campaign's catalogue (R5)"),
    "opposites_held": _("holds %(alignment)s together with its opposite (R5)"),
    "no_such_department": _("no department %(slug)s on this board"),
    "no_such_department_rule": _("no department %(slug)s on this board"),
    "orders_list": _("the orders must be a list"),
    "order_object": _("order %(order)s: must be an object"),
    "order_id": _("order %(order)s: needs an id"),
    "order_seq": _("order %(order)s: seq must be a whole number"),
    "order_twice": _("the order id %(order)s is given twice"),
    "no_player": _("the order names no player"),
    "unknown_order_kind": _("unknown order kind %(order_kind)s"),
    "seed_hex": _("the seed must be 64 lowercase hex digits (R23)"),
    "dice_counts": _("the dice must be ≥ 0 and the sides ≥ 1 (R23)"),
    "odds_unknown_department": _("no department %(slug)s"),
    "odds_not_departments": _("the attacker and the target must be departments of the board (R43)"),
    "objects_list": _("%(what)s must be a list of objects"),
    "duplicate_id": _("%(what)s: the id %(item)s is given twice"),
    "one_of": _("%(what)s must be one of %(allowed)s"),
    "named_alignment": _("%(what)s: unknown alignment %(alignment)s: it is not in the campaign's catalogue (R5)"),
    "players_shape": _("players must be an object of player id → {perception, shticks}"),
    "player_sheet": _("players.%(player)s must be an object"),
    "shtick_kind": _("%(what)s: unknown kind of shtick %(shtick_kind)s (R60)"),
    "cross_boards": _("%(what)s: boards must name two different boards (R60)"),
    "goal_kind": _("%(what)s: unknown kind of goal %(goal_kind)s (R61)"),
    "envelope_audience": _("%(what)s: the audience must be null or a list of player ids (R71)"),
    "condition_unknown": _("%(what)s: unknown condition %(condition)s (R72)"),
    "condition_player": _("%(what)s: needs a player (R72)"),
    "condition_department": _("%(what)s: needs a department (R72)"),
    "condition_level": _("%(what)s: the level must be 1, 2 or 3 (R72)"),
    "condition_time": _("%(what)s: a time needs ISO 8601 with its offset, not %(value)s (R72)"),
    "office_department": _("%(what)s %(slug)s is not a department of the state (R80)"),
    "election_shape": _("the election must be an object with an office (R80)"),
    "election_office": _("an election for an unknown office %(office)s (R80)"),
    "election_departments": _("the department and the tickets must be departments of the state (R80)"),
    "supporters_departments": _("every supporter must be a department of the state (R80)"),
    "unseen_targets": _("you know no department outside your structure that your departments can try to link now (R43, R50)"),
    "unseen_way": _("your tokens could only move through departments you do not know (R50)"),
    "unseen_anything": _("nothing you can see can be ordered now (R50)"),
    "unseen_ticket": _("you know fewer than two departments of this board (R80, R50)"),
    "unseen_candidate": _("you have heard of no candidate nominated so far (R80, R50)"),
    "unseen_perceive": _("you know no department here to look into (R70, R50)"),
    "unseen_gift": _("you know the card of no other player's department that could take a gift now (R62, R50)"),
    "no_receiver": _("there is no other player to hand a department over to (R62)"),
    "all_offered": _("you already offer each of your departments to every other player (R62)"),
    "unseen_details": _("That department cannot be targeted this way now (details you cannot see, R50)."),
    "classic_attacker_not_yours": _("the attacker is not in your structure (R95)"),
    "classic_no_power": _("a group without power cannot attack (R95)"),
    "classic_attacked_already": _("the group has already attacked or assisted this turn (R95)"),
    "classic_assistant_twice": _("an assistant is named twice (R95)"),
    "classic_assistant_not_yours": _("an assistant is not in your structure (R95)"),
    "classic_self_assist": _("the attacker cannot assist itself (R95)"),
    "classic_assistant_used": _("an assistant has already attacked or assisted this turn (R95)"),
    "classic_not_attackable": _("that group cannot be attacked (R91, R95)"),
    "classic_controlled_already": _("you control that group already (R95)"),
    "classic_attacker_no_arrow": _("the attacker has no free arrow (R95)"),
    "classic_neutralize_other": _("only a group in another player's structure can be neutralized (R95)"),
    "classic_destroy_powerless": _("a group without power cannot be destroyed (R95)"),
    "classic_destroy_self": _("a group cannot destroy itself (R95)"),
    "classic_cannot_pay": _("you cannot pay for this attack (R95)"),
    "classic_no_attack": _("none of your groups can attack any group now (R95)"),
    "classic_only_illuminati": _("you control no group but your Illuminati (R91)"),
    "classic_nothing_in_play": _("no group is in play for an attack (R96)"),
    "classic_no_move": _("no group of yours can move to a free arrow of another (R97)"),
    "classic_no_give": _("no other player has a free arrow for a group of yours (R97)"),
    "classic_no_accept": _("no group can be offered to you (R97)"),
    "classic_no_other_player": _("there is no other player (R97)"),
    "classic_not_legal": _("not a legal choice now (R94-R97)"),
    "classic_not_your_group": _("not a group in your structure (R92)"),
    "classic_illuminati_stays": _("an Illuminati cannot be moved, given or dropped (R91)"),
    "classic_gift_to_other": _("a gift goes to another player on this board (R97)"),
    "classic_gift_too_much": _("more than your Illuminati's treasury (R97)"),
    "classic_transfer_not_yours": _("both groups must be in your structure (R97)"),
    "classic_not_adjacent": _("the groups are not parent and child (R97)"),
    "classic_transfer_too_much": _("more than the group's treasury (R97)"),
    "classic_parent_not_yours": _("the new parent is not in your structure (R97)"),
    "classic_parent_in_subtree": _("the new parent is in the group's own subtree (R97)"),
    "classic_hangs_there": _("the group hangs there already (R97)"),
    "classic_parent_no_arrow": _("the new parent has no free arrow (R92)"),
    "classic_give_to_other": _("a group is given to another player on this board (R97)"),
    "classic_accept_in_play": _("only a group in play other than an Illuminati can be accepted (R97)"),
    "classic_yours_already": _("the group is yours already (R97)"),
    "classic_accept_parent_not_yours": _("the group it hangs on is not in your structure (R97)"),
    "classic_defend_own": _("defend one of your groups, not your Illuminati (R96)"),
    "classic_no_aim": _("no attack can aim at that group (R95)"),
    "classic_passed": _("passed this turn (R94)"),
    "classic_two_actions": _("two actions already (R94)"),
    "classic_two_transfers": _("two free transfers already (R94)"),
    "classic_not_used": _("not used"),
    "classic_not_a_player": _("not a player on this board"),
    "classic_bad_aim": _("aim must be control, neutralize or destroy (R95)"),
    "classic_to_player": _("to_player must name a player"),
    "classic_action_bool": _("action must be true or false"),
    "classic_assist_list": _("assist must be a list of groups"),
    "classic_bad_side": _("side must be attack or defend (R96)"),
    "classic_interfere_other": _("interference for an attack names another player in for (R96)"),
    "classic_no_structure": _("you play no structure on this board (R92)"),
    "classic_unknown_kind": _("unknown kind %(order_kind)s"),
    "classic_whole_number": _("%(field)s must be a whole number"),
    "classic_negative": _("negative amount: %(field)s"),
    "classic_names_group": _("%(field)s must name a group"),
    "classic_no_such_group": _("%(field)s: no group %(value)s on this board"),
    "classic_not_accepted": _("%(to_player)s did not accept this group on a free arrow (R97)"),
    "classic_duplicate_group": _("duplicate group slug %(slug)s (R91)"),
    "classic_settings_object": _("settings must be an object"),
    "classic_duplicate_player": _("duplicate player %(player)s"),
    "classic_goal_object": _("player %(player)s: goal must be an object (R98)"),
    "classic_goal_alignments": _("player %(player)s: goal alignments must be a list (R98)"),
    "classic_goal_kind": _("player %(player)s: goal: unknown kind %(goal_kind)s (R98)"),
    "classic_unknown_alignment": _("%(what)s: unknown alignment %(alignment)s (R5)"),
    "classic_illuminati_resistance": _("group %(slug)s: an Illuminati has no resistance (R91)"),
    "classic_group_alignments": _("group %(slug)s: alignments must be a list of names (R91)"),
    "classic_place": _("group %(slug)s: place must be structure, table, deck or destroyed (R92)"),
    "classic_table_no_parent": _("group %(slug)s: a group on the table has no controller or parent (R92)"),
    "classic_deck_no_parent": _("group %(slug)s: a group in the deck has no controller or parent (R92)"),
    "classic_destroyed_no_parent": _("group %(slug)s: a destroyed group has no controller or parent (R92)"),
    "classic_bonus_aim": _("group %(slug)s: a bonus's aim must be control, neutralize, destroy or any (R91)"),
    "classic_bonus_scope": _("group %(slug)s: a bonus's scope must be any or own (R91)"),
    "classic_deck_list": _("deck must be a list of slugs (R92)"),
    "classic_deck_groups": _("deck must list every group in the deck once and no other (R92)"),
    "classic_destroyed_object": _("destroyed_by must be an object (R98)"),
    "classic_illuminati_root": _("group %(slug)s: an Illuminati is a root of a structure (R91)"),
    "classic_no_controller": _("group %(slug)s: controller %(controller)s is no player"),
    "classic_parent_structure": _("group %(slug)s: its parent must be a group in the same structure (R92)"),
    "classic_one_illuminati": _("player %(player)s needs exactly one Illuminati (R91)"),
    "classic_too_many_children": _("group %(slug)s: more children than arrows (R92)"),
    "classic_cycle": _("group %(slug)s: its structure has a cycle (R92)"),
    "classic_in_group": _("group %(slug)s: %(inner)s"),
}  # fmt: skip
# The codes said with ngettext in every language, English too. (The engine writes "1 against
# 1 successes"; the named number picks the form.)
COUNTING = frozenset({"defence_held"})


def site_refusal(code: str, **params: Any) -> Refusal:
    """The site's own refusal `code` (SITE), said like the engine's."""
    return Refusal(code, params, EVERY)


# The key of an order's stored outcome (Order.result) holding its reason's code and named
# parameters beside the English text, for turns processed since refusals had codes: the
# text of an older turn is read back through parse. (The turn's record keeps the engine's
# report exactly as ENGINE.md gives it.)
STORED = "refusal"


def outcome_stored(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """An engine outcome as the turn job stores it on its order: with its reason's code and
    parameters when the reason is a refusal whose parameters JSON can hold."""
    stored = dict(outcome)
    reason = outcome.get("reason")
    if isinstance(reason, Refusal) and all(ok_param(v) for v in reason.params.values()):
        stored[STORED] = {
            "code": reason.code,
            "params": {k: str(v) if isinstance(v, str) else v for k, v in reason.params.items()},
        }
    return stored


def ok_param(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def stored_reason(outcome: Mapping[str, Any]) -> str:
    """The reason of a stored outcome: its refusal rebuilt from code and parameters where it
    has them (its text follows from them, so what R50 filters is what gets translated),
    else its text as stored ("" if none). Anything else stored there (an imported archive)
    falls back to the text."""
    text = outcome.get("reason")
    text = text if isinstance(text, str) else ("" if text is None else str(text))
    coded = outcome.get(STORED)
    code = coded.get("code") if isinstance(coded, dict) else None
    if not isinstance(code, str) or code not in EVERY:
        return text
    params = coded.get("params")
    wanted = {name for name, __ in fields(EVERY[code][1])}
    if not isinstance(params, dict) or set(params) != wanted:
        return text
    if not all(ok_param(v) for v in params.values()):
        return text
    return Refusal(code, dict(params), EVERY)


def refusal_of(reason: str) -> Refusal | None:
    """`reason` as a refusal: as it is, or read back from its text (older stored reasons)."""
    return parse(reason, EVERY)


def reason_translated(
    reason: str, named: Callable[[str], str], types: Mapping[str, object]
) -> str | None:
    """`reason` in the active language, its slugs named by `named`; None for a reason no
    code knows, and in English where the engine's sentence stands as it is (it counts
    nothing and names no resource type)."""
    english = (get_language() or "en").startswith("en")
    refusal, rule = refusal_of(reason), None
    if refusal is None and (rule := RULE_AT_END.search(reason)) is not None:
        # A reason about a board names its rule at its end (engine/errors.py under_rule):
        # said again without it, then with it.
        refusal = refusal_of(reason[: rule.start()])
    if refusal is None:
        return None
    # English rewords only what the engine's own sentence gets wrong for a reader.
    reworded = not english or "kind" in refusal.params or refusal.code in COUNTING
    shown = dict(fields(EVERY[refusal.code][1]))
    values: dict[str, object] = {}
    for name, value in refusal.params.items():
        if name in SLUGS:
            values[name] = named(str(value))
        elif shown.get(name) == "r":
            values[name] = repr(value)
        elif name == "kind":
            values[name] = types.get(value, value)
        elif name == INNER:
            inner = reason_translated(str(value), named, types)
            reworded = reworded or inner is not None
            values[name] = inner or named(str(value))
        else:
            values[name] = value  # a count stays a number, so that ngettext picks its form
    if not reworded:
        return None
    said = str(SAID[refusal.code] % values)
    if rule is None:  # the rule the engine's sentence ends with, if its words leave it out
        rule = RULE_AT_END.search(EVERY[refusal.code][1])
    if rule is None or RULE_AT_END.search(said):
        return said
    return said + rule.group(0)

"""The GM edits a classic board (RULES R90-R92, R53): one group's figures, place, parent and
treasury, or one player's Illuminati treasury and goal.

Every save builds the new whole document and has the engine review it exactly as the import
does (classic/services/boards.py `classic_review`), under the campaign row lock the turn job
takes too; a refusal raises SetupRefused with the engine's reason in words and changes nothing.
A saved change replaces the stored document and is recorded in the audit log with what it
changed, before and after.

Moving a group moves its subtree (R92): into another player's structure, the subtree changes
hands with it; out of every structure (to the table, the deck or the destroyed pile), the
subtree goes to the table, their treasuries to the bank, as a drop (R97). A group put in the
deck goes to its bottom (R92: the deck's order is the GM's)."""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.classic.selectors.editor import editable_group, groups_of, user_name_ids
from campaigns.classic.selectors.state import stored_classic_state
from campaigns.classic.services.boards import classic_review
from campaigns.models import AuditEntry, Board, Campaign, ClassicBoard
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused

FIGURES = ("power", "transferable", "resistance", "income", "arrows", "treasury")
# What a card says beside its figures (R91): given whole by the editor when it gives them.
CARD_LISTS = ("alignments", "bonuses")
PLACE_FIELDS = ("place", "parent")


def classic_group_update(
    *, board: Board, actor: AbstractBaseUser, slug: str, values: dict[str, Any]
) -> bool:
    """Group `slug` with `values` (FIGURES, PLACE_FIELDS and, where given, CARD_LISTS); False
    if nothing changed."""
    with transaction.atomic():
        campaign, state = locked_state(board)
        group = editable_group(state, slug)
        if group is None:
            raise SetupRefused([_("That group is not on this board, or is in the deck (R99).")])
        after = group_moved(state, slug, values)
        new = next(g for g in groups_of(after) if g.get("slug") == slug)
        keys = (*FIGURES, *CARD_LISTS, *PLACE_FIELDS, "controller")
        changed = {k: new.get(k) for k in keys if new.get(k) != group.get(k)}
        if not changed and after == state:
            return False
        save(board, campaign, after)
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.BOARD,
            target=f"group {group.get('name')}", before={k: group.get(k) for k in changed},
            after=changed, board=board.slug, departments=[slug],
        )  # fmt: skip
    return True


def classic_player_update(
    *, board: Board, actor: AbstractBaseUser, pid: str, treasury: int, goal: dict[str, Any] | None
) -> bool:
    """Player `pid`'s Illuminati treasury and goal (R98; None: no goal); False if unchanged."""
    with transaction.atomic():
        campaign, state = locked_state(board)
        after = copy.deepcopy(state)
        player = next(
            (p for p in after.get("players") or [] if isinstance(p, dict) and p.get("id") == pid),
            None,
        )
        illuminati = next(
            (g for g in groups_of(after) if g.get("illuminati") and g.get("controller") == pid),
            None,
        )
        if player is None or illuminati is None:
            raise SetupRefused([_("That player has no Illuminati on this board (R91).")])
        before = {"treasury": illuminati.get("treasury", 0), "goal": player.get("goal")}
        illuminati["treasury"] = treasury
        if goal is None:
            player.pop("goal", None)
        else:
            player["goal"] = goal
        if after == state:
            return False
        save(board, campaign, after)
        now = {"treasury": treasury, "goal": goal}
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.BOARD,
            target=f"Illuminati {illuminati.get('name')}",
            before={k: v for k, v in before.items() if v != now[k]},
            after={k: v for k, v in now.items() if v != before[k]},
            board=board.slug, departments=[str(illuminati.get("slug"))],
        )  # fmt: skip
    return True


def locked_state(board: Board) -> tuple[Campaign, dict[str, Any]]:
    """The campaign row locked (no turn runs meanwhile) and the board's stored document."""
    campaign = Campaign.objects.select_for_update().get(pk=board.campaign_id)
    board.campaign = campaign
    return campaign, stored_classic_state(board)


def save(board: Board, campaign: Campaign, state: dict[str, Any]) -> None:
    """The engine's review (the import's own), then the whole document replaced."""
    refusals = classic_review(campaign, state, user_name_ids(board))
    if refusals:
        raise SetupRefused(refusals)
    ClassicBoard.objects.update_or_create(board=board, defaults={"state": state})


def group_moved(state: dict[str, Any], slug: str, values: dict[str, Any]) -> dict[str, Any]:
    """The whole document with group `slug` given `values` (see the module's docstring)."""
    after = copy.deepcopy(state)
    groups = groups_of(after)
    by_slug = {str(g.get("slug")): g for g in groups}
    group = by_slug[slug]
    for key in FIGURES:
        group[key] = values[key]
    for key in CARD_LISTS:
        if key in values:
            group[key] = values[key]
    place, parent = values["place"], values.get("parent") or None
    subtree = below(groups, slug)
    if place == "structure":
        host = by_slug.get(parent) if parent else None
        controller = host.get("controller") if host else group.get("controller")
        group["parent"] = parent
        for member in (group, *subtree):
            member["controller"] = controller
    else:
        group["controller"] = group["parent"] = None
        for member in subtree:
            member.update(place="table", controller=None, parent=None, treasury=0)
    group["place"] = place
    deck = [s for s in after.get("deck") or [] if s != slug]
    after["deck"] = [*deck, slug] if place == "deck" else deck
    return after


def below(groups: list[dict[str, Any]], slug: str) -> list[dict[str, Any]]:
    """Every group in a structure under `slug` (R92), walked without recursion; a cycle in a
    stored document cannot loop (each group is taken once)."""
    found: list[dict[str, Any]] = []
    seen = {slug}
    todo = [slug]
    while todo:
        parent = todo.pop()
        for g in groups:
            if g.get("place") == "structure" and g.get("parent") == parent:
                child = str(g.get("slug"))
                if child not in seen:
                    seen.add(child)
                    found.append(g)
                    todo.append(child)
    return found

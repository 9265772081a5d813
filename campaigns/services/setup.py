"""The GM sets a campaign up: a new campaign, its settings and its alignment catalogue (RULES
R5). Every change a GM makes to an existing campaign is checked by the engine first (a refusal
names the rule and changes nothing) and is recorded in the append-only audit log (R53).

Errors are SetupRefused with one line per problem, fit to show the GM."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns.classic.services.boards import classic_board_import
from campaigns.models import Alignment, AuditEntry, Board, Campaign, Membership
from campaigns.selectors.setup import engine_problems
from campaigns.services.audit import audit_record
from campaigns.services.boards import board_import
from campaigns.services.campaigns import alignments_create_default

# What a GM may change from the settings page (the rest is the turn job's).
SETTINGS = (
    "name",
    "time_zone",
    "deadline_weekday",
    "deadline_time",
    "min_turn_hours",
    "max_out_links",
    "max_in_links",
    "attempts_per_turn",
    "attempt_cutoff_hours",
    "reminder_hours",
    "early_processing",
)
SLUG_MAX = Campaign._meta.get_field("slug").max_length or 50


class SetupRefused(ValueError):
    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


def unique_slug(name: str) -> str:
    base = (slugify(name) or "campaign")[: SLUG_MAX - 4]
    slug, n = base, 2
    while Campaign.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def campaign_create(*, user: AbstractBaseUser, values: dict[str, Any]) -> Campaign:
    """A new campaign (a draft) with `user` as its GM and the default catalogue (R5)."""
    with transaction.atomic():
        fields = {key: values[key] for key in SETTINGS if key in values}
        campaign = Campaign.objects.create(slug=unique_slug(fields["name"]), **fields)
        Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.GM)
        alignments_create_default(campaign=campaign)
    return campaign


def jsonable(value: Any) -> Any:
    return value if isinstance(value, bool | int | str) or value is None else str(value)


def campaign_settings_set(
    *, campaign: Campaign, actor: AbstractBaseUser, values: dict[str, Any]
) -> list[str]:
    """Change the campaign's settings; returns the names of those that changed. The engine
    checks every board under them (lower link limits bind new links only, R11). A new weekday,
    time or zone applies from the next deadline on: the open turn keeps its own (the GM can
    move it with "Extend the deadline", R30)."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        changed = [k for k in SETTINGS if k in values and getattr(locked, k) != values[k]]
        if not changed:
            return []
        before = {k: jsonable(getattr(locked, k)) for k in changed}
        for key in changed:
            setattr(locked, key, values[key])
        problems = engine_problems(locked, settings=locked.engine_settings())
        if problems:
            raise SetupRefused(problems)
        locked.save(update_fields=changed)
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.SETTINGS,
            target="campaign settings",
            before=before,
            after={k: jsonable(getattr(locked, k)) for k in changed},
        )
    return changed


def alignments_set(
    *, campaign: Campaign, actor: AbstractBaseUser, entries: list[dict[str, object]]
) -> bool:
    """Replace the alignment catalogue (R5) with `entries` (name, opposite, self_opposed);
    returns whether it changed. The engine checks the catalogue itself and every
    department's alignments under it (none unknown, none held with its opposite)."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        before = [a.as_engine() for a in locked.alignments.order_by("pk")]
        after = [
            Alignment(
                campaign=locked,
                name=str(e["name"]),
                opposite=str(e.get("opposite") or ""),
                self_opposed=bool(e.get("self_opposed")),
            )
            for e in entries
        ]
        if [a.as_engine() for a in after] == before:
            return False
        problems = catalogue_problems(after)
        if not problems:
            problems = engine_problems(locked, catalogue=[a.as_engine() for a in after])
        if problems:
            raise SetupRefused(problems)
        locked.alignments.all().delete()
        Alignment.objects.bulk_create(after)
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.ALIGNMENTS,
            target="alignment catalogue",
            before={"alignments": before},
            after={"alignments": [a.as_engine() for a in after]},
        )
    return True


def catalogue_problems(entries: list[Alignment]) -> list[str]:
    """What the site asks beyond the engine: at least one alignment (an empty catalogue
    would mean the default one to the turn job), and each name once, whether as a line's
    alignment or as its opposite (a line is a pair, a single one, or a self-opposed one)."""
    if not entries:
        return [_("Keep at least one alignment (R5).")]
    seen: set[str] = set()
    problems = []
    for name in [n for a in entries for n in (a.name, a.opposite) if n]:
        if name.casefold() in seen:
            problems.append(_("%(name)s is in the catalogue twice.") % {"name": name})
        seen.add(name.casefold())
    return problems


def board_import_by_gm(
    *,
    campaign: Campaign,
    actor: AbstractBaseUser,
    data: dict[str, Any],
    stop_for_warnings: bool = False,
) -> Board:
    """Import a board file (services/boards.py: checked whole by the engine first, nothing
    saved otherwise; with `stop_for_warnings`, BoardImportWarning while it holds something
    the GM should confirm), its `structure` values naming players by user name; logged
    (R53). A file with `"ruleset": "classic"` makes a classic board (R90)."""
    players = {
        m.user.get_username(): m
        for m in campaign.memberships.filter(role=Membership.Role.PLAYER).select_related("user")
    }
    with transaction.atomic():
        if is_classic_file(data):  # R90: a classic board's file (classic/services/boards.py)
            board = classic_board_import(campaign=campaign, data=data, players=players)
            counts = {"ruleset": board.ruleset, "groups": len(data.get("groups") or [])}
        else:
            board = board_import(
                campaign=campaign, data=data, players=players, stop_for_warnings=stop_for_warnings
            )
            counts = {
                "departments": len(data["departments"]),
                "links": len(data.get("links") or []),
            }
        audit_record(
            campaign=campaign,
            actor=actor,
            action=AuditEntry.Action.BOARD,
            target=f"board {board.name}",
            before={},
            after={"imported": board.name, **counts},
            board=board.slug,
        )
    return board


def is_classic_file(data: object) -> bool:
    """R90: a board file is a classic board's when it says so."""
    return isinstance(data, dict) and data.get("ruleset") == Board.Ruleset.CLASSIC

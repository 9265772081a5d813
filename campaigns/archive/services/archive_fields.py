"""What the values of a campaign archive may be (archive/services/archive.py checks them before it
writes anything): what the site's own forms and columns take, so an archive cannot carry a
row the site could not have made. The checksum is no defence here: whoever changes a file can
compute it again.

Each value is checked against the model field it is written to: its type, its choices, its
length and validators (a user name by the User model's own UnicodeUsernameValidator, an
address by validate_slug), and a whole number by the range of its column as Django declares it
for every database (BaseDatabaseOperations.integer_field_ranges: the editor's stash limit,
2147483647, is that of PositiveIntegerField), or by the GM's form where that is tighter
(Perception, PERCEPTION_MAX). NUL is refused in any text (PostgreSQL cannot store it), and
nesting deeper than MAX_DEPTH anywhere (json and the pages read nested values recursively).
A refusal is one ArchiveError line that starts with where the value is: "members[2].role: ".
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_datetime, parse_time

from campaigns.models import (
    PERCEPTION_MAX,
    Alignment,
    Announcement,
    AuditEntry,
    Board,
    Campaign,
    ContingencyEnvelope,
    Conversation,
    Department,
    Election,
    Goal,
    GoalProgress,
    IntelEnvelope,
    Knowledge,
    Link,
    Membership,
    Message,
    Notice,
    Office,
    Order,
    OrderLog,
    Participant,
    PlayerTurn,
    Shtick,
    Turn,
    TurnRecord,
)
from campaigns.words.notices import NOTICES, params_problem

# An export nests 10 levels deep at most (measured on the tests' campaign with RULES parts
# 7-9: a turn record's report, its orders and the engine's lists in them); 32 leaves room for
# what the engine may add, and stays far below Python's recursion limit (1000).
MAX_DEPTH = 32
RANGES = BaseDatabaseOperations.integer_field_ranges
# Bounds of the GM's forms that are tighter than their column's.
FORM_MAX = {(Membership, "perception"): PERCEPTION_MAX}


class ArchiveError(ValueError):
    """An archive that cannot be imported; the message is one line."""


def shown(value: Any) -> str:
    """A value as a refusal quotes it: on one line, and short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def nesting_check(data: Any) -> None:
    """No value nested deeper than MAX_DEPTH, no NUL in any text, no NaN or infinity (JSON
    has none; Python's json reads them). Iterative: the archive may be nested too deeply for
    a recursive walk, and json.dumps (the checksum) is one."""
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(data, 0, ())]
    while stack:
        value, depth, path = stack.pop()
        if depth > MAX_DEPTH:
            raise ArchiveError(f"{where(named(path))}: nested more than {MAX_DEPTH} levels deep")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str) and "\x00" in key or isinstance(item, str) and "\x00" in item:
                raise ArchiveError(f"{where((*path, key))}: a text holds NUL (\\x00)")
            if isinstance(item, float) and not math.isfinite(item):
                raise ArchiveError(f"{where((*path, key))}: {item} is not a number")
            if isinstance(item, dict | list):
                stack.append((item, depth + 1, (*path, key)))


def named(path: tuple[Any, ...]) -> tuple[Any, ...]:
    """The start of a long path, down to its last key that is a name: ("turns", 1, "orders",
    0, "payload", 0, 0, ...) as ("turns", 1, "orders", 0, "payload")."""
    start = path[:8]
    names = [i for i, key in enumerate(start) if isinstance(key, str)]
    return start[: names[-1] + 1] if names else start


def where(path: tuple[Any, ...]) -> str:
    """("turns", 2, "seed") as "turns[2].seed" (a key that is not printable as its repr, so
    the refusal stays one line)."""
    text = ""
    for key in path:
        name = key if not isinstance(key, str) or key.isprintable() else repr(key)
        text += f"[{name}]" if isinstance(key, int) else f".{name}" if text else str(name)
    return text or "the archive"


def slug_check(slug: Any) -> None:
    """The new campaign's address as the campaign's column takes it (validate_slug, at most
    50 characters), and free."""
    value_check("slug", slug, Campaign._meta.get_field("slug"))
    if Campaign.objects.filter(slug=slug).exists():
        raise ArchiveError(f"slug: a campaign with the slug {slug!r} exists already")


def fields_check(archive: dict[str, Any]) -> None:
    """Every value of `archive` one the site's forms and columns would take."""
    campaign = archive["campaign"]
    if not isinstance(campaign, dict):
        raise ArchiveError("campaign: not an object")
    row_check("campaign", campaign, Campaign)
    if campaign.get("opened") and campaign.get("status") != Campaign.Status.FINISHED:
        raise ArchiveError(
            f"campaign.opened: true, but a campaign is opened only once it is finished (R51), "
            f"and its status is {shown(campaign.get('status'))}"
        )
    users = get_user_model()
    for path, entry in entries(archive, "members"):
        row_check(path, entry, Membership)
        value_check(f"{path}.user", entry.get("user"), users._meta.get_field("username"))
        if "email" in entry:
            value_check(f"{path}.email", entry["email"], users._meta.get_field("email"))
    for path, entry in entries(archive, "turns"):
        if entry.get("status") != Turn.Status.PROCESSED:
            # Its seed is secret (null in the file) and is drawn anew with its commitment.
            entry = {k: v for k, v in entry.items() if k not in ("seed", "commitment")}
        row_check(path, entry, Turn)
    for key, model in TABLES.items():
        for path, entry in entries(archive, *key):
            row_check(path, entry, model)
    for path, entry in entries(archive, "turns", "notices"):
        notice_check(path, entry)


def notice_check(path: str, entry: dict[str, Any]) -> None:
    """A notice's `code` one this site says (words/notices.py) with the parameters it takes,
    or no code and no parameters (an older notice: its text)."""
    code, params = entry.get("code", ""), entry.get("params")
    if code == "":
        if params is not None:
            raise ArchiveError(f"{path}.params: {shown(params)}, but the notice has no code")
        return
    if code not in NOTICES:
        raise ArchiveError(f"{path}.code: {shown(code)} is not one of {', '.join(NOTICES)}")
    problem = params_problem(code, params)
    if problem is not None:
        raise ArchiveError(f"{path}.params: {problem}")


# Where the rows of each model are in the archive (their keys named as the model's fields).
TABLES: dict[tuple[str, ...], type[models.Model]] = {
    ("alignments",): Alignment,
    ("boards",): Board,
    ("boards", "departments"): Department,
    ("boards", "links"): Link,
    ("knowledge",): Knowledge,
    ("turns", "records"): TurnRecord,
    ("turns", "orders"): Order,
    ("turns", "order_log"): OrderLog,
    ("turns", "player_turns"): PlayerTurn,
    ("turns", "notices"): Notice,
    ("press", "conversations"): Conversation,
    ("press", "conversations", "participants"): Participant,
    ("press", "conversations", "messages"): Message,
    ("press", "announcements"): Announcement,
    ("audit",): AuditEntry,
    ("shticks",): Shtick,
    ("goals",): Goal,
    ("goals", "progress"): GoalProgress,
    ("envelopes",): IntelEnvelope,
    ("contingencies",): ContingencyEnvelope,
    ("offices",): Office,
    ("offices", "elections"): Election,
}


def entries(container: Any, *keys: str, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, object) of each object under `keys` (a list, or under "press" an object of
    lists). A part that is missing is left to the importer, which says so."""
    key, rest = keys[0], keys[1:]
    part = container.get(key) if isinstance(container, dict) else None
    here = f"{path}{key}"
    if part is None:
        return
    if key == "press" and rest:
        yield from entries(part, *rest, path=f"{here}.")
        return
    if not isinstance(part, list):
        raise ArchiveError(f"{here}: not a list")
    for index, item in enumerate(part):
        if not isinstance(item, dict):
            raise ArchiveError(f"{here}[{index}]: not an object")
        if rest:
            yield from entries(item, *rest, path=f"{here}[{index}].")
        else:
            yield f"{here}[{index}]", item


def row_check(path: str, entry: dict[str, Any], model: type[models.Model]) -> None:
    """The keys of `entry` that name a column of `model`, each as that column takes it."""
    for name, value in entry.items():
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            continue  # a name, a reference or a nested part: checked where it is used
        if field.concrete and not field.is_relation:
            value_check(f"{path}.{name}", value, field, FORM_MAX.get((model, name)))


def value_check(path: str, value: Any, field: Any, most: int | None = None) -> None:
    """`value` as `field` takes it (and at most `most`), or ArchiveError naming `path`."""
    if value is None and field.null or isinstance(field, models.JSONField):
        return  # JSON: what nesting_check and the engine's board check allow
    kind = field.get_internal_type()
    if kind in ("DateTimeField", "TimeField"):
        parse = parse_datetime if kind == "DateTimeField" else parse_time
        if not isinstance(value, str) or parse(value) is None:
            raise ArchiveError(f"{path}: {shown(value)} is not a date or time")
        return
    if kind in RANGES and kind not in ("AutoField", "BigAutoField", "SmallAutoField"):
        low, high = RANGES[kind]
        high = high if most is None else min(high, most)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ArchiveError(f"{path}: {shown(value)} is not a whole number from {low} to {high}")
    elif isinstance(field, models.BooleanField):
        if not isinstance(value, bool):
            raise ArchiveError(f"{path}: {shown(value)} is not true or false")
    elif not isinstance(value, str):
        raise ArchiveError(f"{path}: {shown(value)} is not a text")
    elif field.max_length and len(value) > field.max_length:  # TextFields too, as their forms
        raise ArchiveError(f"{path}: {len(value)} characters; at most {field.max_length}")
    choices = [str(key) for key, _ in field.flatchoices]
    if choices and str(value) not in choices and not (field.blank and value == ""):
        raise ArchiveError(f"{path}: {shown(value)} is not one of {', '.join(choices)}")
    try:
        field.clean(value, None)
    except ValidationError as error:
        raise ArchiveError(f"{path}: {shown(value)}: {' '.join(error.messages)}") from None

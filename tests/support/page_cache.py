"""The page cache's property test (tests/web/test_page_cache_property.py): the steps that
change the demo campaign, each through the site's own services, and the pages compared.

Each step may be refused (an order the engine rejects, an undo with nothing to undo): a
refused step changes nothing, and the pages are compared all the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.accounts.services.profile import profile_language_set
from campaigns.elections.services.offices import office_save
from campaigns.intrigue.services.characters import shtick_grant, shtick_remove
from campaigns.intrigue.services.envelopes import envelope_create, envelope_remove
from campaigns.models import (
    Campaign,
    Department,
    IntelEnvelope,
    Knowledge,
    Link,
    Office,
    Order,
    PlayerTurn,
    Shtick,
    Turn,
)
from campaigns.selectors.order_checks import OrderRefused
from campaigns.services.editor import CARD_FIELDS, department_update, link_add, link_remove
from campaigns.services.members import knowledge_set
from campaigns.services.orders import order_cancel, order_edit, turn_mark_ready
from campaigns.services.players import invitation_accept, invitation_create
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import turn_process
from campaigns.web.page_cache import PLACEHOLDER, TOKEN
from tests.support.demo import ATTACK, city, member, open_turn, submit
from tests.support.press import say, talk

ROLES = ("alice", "bob", "gm")
ROLL = {"department": "mint", "function": "coinage", "stat": "effect", "intent": "Coins"}

type Step = Callable[[Campaign, int], None]


class Served(NamedTuple):
    role: str
    url: str
    status: int
    body: bytes
    hit: bool


def pages(campaign: Campaign) -> list[str]:
    """Every cached page of the campaign: the campaign, each board, the orders and the
    report of every processed turn."""
    slug = campaign.slug
    urls = [reverse("campaign", args=[slug]), reverse("orders", args=[slug])]
    urls += [
        reverse("board", args=[slug, b]) for b in campaign.boards.values_list("slug", flat=True)
    ]
    processed = campaign.turns.filter(status=Turn.Status.PROCESSED).values_list("number", flat=True)
    urls += [reverse("turn_report", args=[slug, n]) for n in processed]
    return urls


def without_tokens(body: bytes) -> bytes:
    """The page with every 64-letter token (the CSRF token's shape) made the same."""
    return TOKEN.sub(PLACEHOLDER, body)


def gm_user(campaign: Campaign) -> Any:
    return get_user_model().objects.get(username="gm")


def _queued(campaign: Campaign, player: str) -> Order | None:
    return (
        Order.objects.filter(turn=open_turn(campaign), player=member(campaign, player))
        .order_by("-pk")
        .first()
    )


def order_queue(campaign: Campaign, pick: int) -> None:
    """Alice queues an attack on Bob's Guild Hall, or a function roll (which Bob hears of
    only through the attack's notice: R46)."""
    if pick % 2:
        submit(campaign, "alice", Order.Kind.ATTEMPT, ATTACK)
    else:
        submit(campaign, "alice", Order.Kind.FUNCTION, {**ROLL, "intent": f"Coins {pick}"})


def order_change(campaign: Campaign, pick: int) -> None:
    order = _queued(campaign, "alice")
    if order is not None:
        payload = {**order.payload}
        if "intent" in payload:
            payload["intent"] = f"Changed {pick}"
        order_edit(player=member(campaign, "alice"), order=order, payload=payload)


def order_withdraw(campaign: Campaign, pick: int) -> None:
    order = _queued(campaign, "alice")
    if order is not None:
        order_cancel(player=member(campaign, "alice"), order=order)


def ready_toggle(campaign: Campaign, pick: int) -> None:
    """Alice marks her orders ready, or no longer ready."""
    alice, turn = member(campaign, "alice"), open_turn(campaign)
    ready = PlayerTurn.objects.filter(turn=turn, player=alice, ready_at__isnull=False).exists()
    turn_mark_ready(player=alice, turn=turn, ready=not ready)


def turn_job(campaign: Campaign, pick: int) -> None:
    turn_process(campaign_id=campaign.pk, number=open_turn(campaign).number)


def undo(campaign: Campaign, pick: int) -> None:
    last = campaign.turns.filter(status=Turn.Status.PROCESSED).order_by("-number").first()
    if last is not None:
        turn_rollback(campaign=campaign, actor=gm_user(campaign), number=last.number,
                      discard_orders=True)  # fmt: skip


def department_rename(campaign: Campaign, pick: int) -> None:
    dept = Department.objects.select_related("structure").filter(board=city(campaign))
    department = dept.order_by("pk")[pick % dept.count()]
    values = {key: getattr(department, key) for key in CARD_FIELDS}
    values["name"] = f"{department.name.split(' #')[0]} #{pick}"
    values["controller"] = department.structure.player if department.structure else None
    values["home"] = department.home
    department_update(department=department, actor=gm_user(campaign), values=values)


def link_toggle(campaign: Campaign, pick: int) -> None:
    board = city(campaign)
    link = Link.objects.filter(board=board, supplier__slug="mint", consumer__slug="treasury")
    if link.exists():
        link_remove(link=link.get(), actor=gm_user(campaign))
    else:
        supplier = board.departments.get(slug="mint")
        consumer = board.departments.get(slug="treasury")
        link_add(board=board, actor=gm_user(campaign), supplier=supplier, consumer=consumer)


def knowledge_change(campaign: Campaign, pick: int) -> None:
    board = city(campaign)
    bob = member(campaign, "bob")
    theirs = Knowledge.objects.filter(player=bob).values_list("department_id", flat=True)
    own = board.departments.filter(structure__player=bob).values_list("pk", flat=True)
    candidates = board.departments.exclude(pk__in=own).order_by("pk")
    department = candidates[pick % candidates.count()]
    level = 0 if department.pk in set(theirs) and pick % 2 else 1 + pick % 2
    knowledge_set(board=board, actor=gm_user(campaign), levels={(bob.pk, department.pk): level})


def stash_change(campaign: Campaign, pick: int) -> None:
    """The GM sets the Mint's stash (R4): its controller sees it, nobody else (R50)."""
    department = Department.objects.select_related("structure").get(
        board=city(campaign), slug="mint"
    )
    values = {key: getattr(department, key) for key in CARD_FIELDS}
    values["money"] = pick
    values["controller"] = department.structure.player if department.structure else None
    values["home"] = department.home
    department_update(department=department, actor=gm_user(campaign), values=values)


def shtick_toggle(campaign: Campaign, pick: int) -> None:
    """The GM grants Alice a narrative shtick, or takes her last one away (R60)."""
    alice = member(campaign, "alice")
    last = Shtick.objects.filter(member=alice, kind="text").order_by("-pk").first()
    if last is not None and pick % 2:
        shtick_remove(shtick=last, actor=gm_user(campaign))
    else:
        data = {"kind": "text", "text": f"Knows the Mint's back door ({pick})"}
        shtick_grant(member=alice, actor=gm_user(campaign), data=data)


def envelope_toggle(campaign: Campaign, pick: int) -> None:
    """The GM seals an intel envelope on the Guild Hall for Bob alone, or takes one away (R71)."""
    hall = Department.objects.get(board=city(campaign), slug="guild-hall")
    last = IntelEnvelope.objects.filter(department=hall).order_by("-pk").first()
    if last is not None and pick % 2:
        envelope_remove(envelope=last, actor=gm_user(campaign))
    else:
        envelope_create(department=hall, actor=gm_user(campaign), text=f"Ledger {pick}",
                        target=1 + pick, audience=[member(campaign, "bob")])  # fmt: skip


def office_change(campaign: Campaign, pick: int) -> None:
    """The GM renames an office and gives it another holder, or none (R80, R53)."""
    office = Office.objects.filter(board__campaign=campaign).order_by("pk").first()
    if office is None:
        return
    board = office.board
    holders = list(board.departments.order_by("pk"))
    holder = holders[pick % len(holders)] if pick % 3 else None
    office_save(board=board, actor=gm_user(campaign), name=f"{office.name.split(' #')[0]} #{pick}",
                alignment=office.alignment, shticks=office.shticks, holder=holder,
                deputy=None, office=office)  # fmt: skip


def invitation_join(campaign: Campaign, pick: int) -> None:
    """A new player joins through the GM's invitation link: every member's campaign page
    lists them."""
    invitation = invitation_create(campaign=campaign, actor=gm_user(campaign), role="player",
                                   uses=1, days=7)  # fmt: skip
    user = get_user_model().objects.create_user(username=f"newcomer{pick}-{invitation.pk}")
    invitation_accept(invitation=invitation, user=user)


def message(campaign: Campaign, pick: int) -> None:
    conversation = talk(campaign, "alice", ["bob"], f"Hello {pick}")
    say(campaign, "bob", conversation, f"Reply {pick}")


def language(campaign: Campaign, pick: int) -> None:
    user = member(campaign, ROLES[pick % 3]).user
    profile_language_set(user=user, language=("en", "de")[pick % 2])


def nothing(campaign: Campaign, pick: int) -> None:
    """Everyone looks again and nobody changes anything: the pages come from the cache."""


STEPS: dict[str, Step] = {
    "nothing": nothing,
    "order_queue": order_queue,
    "order_change": order_change,
    "order_withdraw": order_withdraw,
    "ready_toggle": ready_toggle,
    "turn_job": turn_job,
    "undo": undo,
    "department_rename": department_rename,
    "link_toggle": link_toggle,
    "knowledge_change": knowledge_change,
    "message": message,
    "language": language,
    "stash_change": stash_change,
    "shtick_toggle": shtick_toggle,
    "envelope_toggle": envelope_toggle,
    "office_change": office_change,
    "invitation_join": invitation_join,
}


def step_run(campaign: Campaign, name: str, pick: int) -> bool:
    """Run one step; False if the site refused it (then it changed nothing)."""
    try:
        with transaction.atomic():
            STEPS[name](campaign, pick)
    except (OrderRefused, ValueError):
        return False
    return True


def pages_served(clients: dict[str, Client], wanted: list[tuple[str, str]]) -> list[Served]:
    """Each (role, url) as served (the caller switches the cache on or off)."""
    out = []
    for role, url in wanted:
        response = clients[role].get(url)
        hit = getattr(response, "page_cache_hit", False)
        body = without_tokens(response.content)
        out.append(Served(role, url, response.status_code, body, hit))
    return out

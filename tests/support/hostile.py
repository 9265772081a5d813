"""What "the view read the hostile input" means (tests/web/test_hostile_input.py).

Surviving is not enough: a 403, a 404, a redirect to the login page or a redirect that did
nothing would survive any input without reading it. Each example must end in one of the
outcomes its endpoint expects (`Endpoint.expects`):

- FORM: a page with the endpoint's form bound to the posted data (shown again with its errors);
- DONE: what a valid post does is visible afterwards (`Endpoint.done`, read in the example's
  transaction before it is rolled back): the state is what the input asked for;
- REFUSED: a message at warning level or above, added by this very request.

The worlds the endpoints live in (`week_world`, `played_world`) are built here too; every
example runs in a transaction that is rolled back, so each meets the world as built.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.forms import BaseForm
from django.forms.formsets import BaseFormSet
from django.http import HttpResponse, QueryDict
from django.test import Client
from django.urls import reverse

from campaigns.models import (
    Announcement,
    AuditEntry,
    Board,
    Campaign,
    Conversation,
    Department,
    Election,
    Invitation,
    Link,
    Membership,
    Message,
    Notice,
    Order,
    OrderLog,
    Turn,
)
from campaigns.press.selectors.press import conversation_for
from campaigns.press.services.press import channel_ensure, message_send
from campaigns.selectors.orders import is_ready
from campaigns.services.orders import orders_submit
from campaigns.services.players import invitation_create
from tests.support.demo import Played, member

FORM, DONE, REFUSED = "form", "done", "refused"
SLUG = "tourmaline"
# Models whose rows an action may add; their counts are taken when a world is built.
# Every model an Endpoint's `done=grew(...)` names must be here (a test below says so).
COUNTED: tuple[type[Model], ...] = (
    Announcement, AuditEntry, Board, Campaign, Department, Election, Invitation, Link,
    Membership, Message, Order, Membership.user.field.related_model,
)  # fmt: skip


@dataclass
class World:
    """What the endpoints' URLs need: the demo's open turn with Alice's orders (an attempt,
    then two function rolls) and Carol's attempt on Alice (week), or turn 1 played (for the
    GM's note on a roll). `counts`: rows of each COUNTED model when the world was built;
    `password`: Alice's password hash then; `deadline`: the open turn's deadline then."""

    campaign: Campaign
    order: Order | None = None
    later: list[Order] = field(default_factory=list)
    attempt: Order | None = None
    roll: Order | None = None
    invitation: Invitation | None = None
    conversation: Conversation | None = None  # the public channel, with one message
    counts: dict[str, int] = field(default_factory=dict)
    password: str = ""
    deadline: Any = None

    def __post_init__(self) -> None:
        self.counts = {model.__name__: model.objects.count() for model in COUNTED}
        self.password = get_user_model().objects.get(username="alice").password
        turn = self.campaign.turns.filter(status=Turn.Status.OPEN).first()
        self.deadline = turn.deadline if turn else None

    def grew(self, model: type[Model]) -> bool:
        return model.objects.count() > self.counts[model.__name__]

    def member(self, username: str) -> Membership:
        return member(self.campaign, username)

    def open_turn(self) -> Turn:
        return self.campaign.turns.get(status=Turn.Status.OPEN)


def week_world(demo: Campaign) -> World:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    city = demo.boards.get(slug="city")
    alice = member(demo, "alice")

    def submit(player: str, kind: str, **payload: str) -> Order:
        return orders_submit(
            player=member(demo, player), turn=turn, board=city, kind=kind, payload=payload
        )

    order = submit("alice", Order.Kind.ATTEMPT, attacker="city-watch", target="guild-hall")
    # Two function rolls after it: the first sits in the middle, so every reordering post
    # ("up" or anything else, read as down) moves it.
    later = [
        submit("alice", Order.Kind.FUNCTION, department=slug, function=skill, stat="effect")
        for slug, skill in (("mint", "coinage"), ("treasury", "audit"))
    ]
    attempt = submit("carol", Order.Kind.ATTEMPT, attacker="thieves-guild", target="city-watch")
    assert Notice.objects.filter(player=alice, read_at=None).exists()  # told of the attack
    gm = member(demo, "gm").user
    return World(
        demo,
        order=order,
        later=later,
        attempt=attempt,
        invitation=invitation_create(campaign=demo, actor=gm, role="player", uses=5, days=7),
        conversation=channel_with_a_message(demo),
    )


def channel_with_a_message(campaign: Campaign) -> Conversation:
    channel = channel_ensure(campaign=campaign)
    bob = member(campaign, "bob")
    message_send(member=bob, conversation=conversation_for(bob, channel.pk), text="Hello")
    return channel


def played_world(played: Played) -> World:
    return World(played.campaign, roll=played.orders["alice_roll"])


# --- the outcome of one example ----------------------------------------------------------------

Done = Callable[[World, dict[str, Any], HttpResponse], bool]


@dataclass(frozen=True)
class Endpoint:
    """One form or POST endpoint: who posts, where, the field names it reads (None: the
    fields of the form its GET page shows), the outcomes that show it read them, and what
    a valid post leaves visible (`done`). `form`: the name of its form in the context."""

    name: str
    who: str  # a username; "" for an anonymous visitor
    url: Callable[[World], str]
    fields: tuple[str, ...] | None = None
    world: str = "week"
    method: str = "post"
    expects: frozenset[str] = frozenset({FORM})
    done: Done | None = None
    form: str = "form"


def outcome(endpoint: Endpoint, response: HttpResponse, world: World, body: dict[str, Any]) -> str:
    """FORM, DONE or REFUSED, or what the answer was instead (it never read the input)."""
    status = response.status_code
    if status == 302 and response["Location"].startswith(reverse("login")):
        return "a redirect to the login page"
    if status not in (200, 302):
        return f"status {status}"
    if status == 200 and bound(response, endpoint.form):
        return FORM
    if endpoint.done is not None and endpoint.done(world, body, response):
        return DONE
    if refused(response):
        return REFUSED
    return f"status {status}: no bound form, nothing done, nothing said"


def bound(response: HttpResponse, name: str) -> bool:
    form = response.context.get(name) if response.context else None
    return isinstance(form, BaseForm | BaseFormSet) and form.is_bound


def refused(response: HttpResponse) -> bool:
    """A warning or error this request added (the test drops the client's messages cookie
    before each example, so none is left over from the one before)."""
    stored = getattr(response.wsgi_request, "_messages", None)
    return stored is not None and any(m.level >= messages.WARNING for m in stored)


def forget_messages(client: Client) -> None:
    client.cookies.pop("messages", None)


def posted(body: dict[str, Any]) -> QueryDict:
    """The body as the view's request.POST (or GET) holds it."""
    data = QueryDict(mutable=True)
    for name, value in body.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def last(body: dict[str, Any], name: str) -> str | None:
    """What request.POST.get(name) returns for this body."""
    return posted(body).get(name)


# --- what a valid post leaves visible -------------------------------------------------------


GROWN: set[type[Model]] = set()  # every model a `grew` check names, to compare with COUNTED


def grew(model: type[Model]) -> Done:
    GROWN.add(model)
    return lambda w, body, response: w.grew(model)


def audited(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """A GM's change is in the audit log (R53)."""
    return w.grew(AuditEntry)


def order_status(status: str) -> Done:
    return lambda w, body, response: Order.objects.get(pk=w.order.pk).status == status


def order_edited(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return OrderLog.objects.filter(order=w.order, action=OrderLog.Action.EDITED).exists()


def order_moved(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """The middle one of Alice's three orders (the one the test shifts) is no longer there."""
    queued = Order.objects.filter(player=w.order.player, turn=w.order.turn, status="queued")
    return list(queued.order_by("seq").values_list("pk", flat=True)).index(w.later[0].pk) != 1


def ready_as_asked(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return is_ready(w.member("alice"), w.open_turn()) == (last(body, "ready") == "1")


def notices_read(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return not Notice.objects.filter(player=w.member("alice"), read_at=None).exists()


def campaign_status(status: str) -> Done:
    return lambda w, body, response: Campaign.objects.get(pk=w.campaign.pk).status == status


def turn_one(status: str) -> Done:
    return lambda w, body, response: w.campaign.turns.get(number=1).status == status


def deadline_moved(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return w.open_turn().deadline != w.deadline


def note_as_posted(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from campaigns.web.report_forms import GmNoteForm

    form = GmNoteForm(posted(body), prefix=f"note-{w.roll.pk}")
    roll = Order.objects.get(pk=w.roll.pk)
    if not form.is_valid():
        return False
    note = form.cleaned_data["gm_note"]
    # R45: an empty note is never published.
    published = form.cleaned_data["publish"] and bool(note.strip())
    return (roll.gm_note, roll.gm_note_published) == (note, published)


def defence_as_posted(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from campaigns.web.order_forms import DefenceForm

    form = DefenceForm(posted(body))
    stored = Department.objects.get(board__campaign=w.campaign, slug="city-watch").defence
    wanted = {k: v for k, v in form.defence().items() if v} if form.is_valid() else None
    return wanted is not None and {k: v for k, v in stored.items() if v} == wanted


def board_as_asked(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """The board page shows the turn asked for (nothing asked: the board now)."""
    asked = (last(body, "turn") or "").strip()
    shown = response.context["page"].scrubber.shown if response.status_code == 200 else -1
    return shown == (int(asked) if asked.isdigit() else None) and not refused(response)


def map_as_asked(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """The map's data of the turn asked for (a turn it cannot show: the board now)."""
    from campaigns.selectors.board_turns import board_map_of, turn_numbers

    board = w.campaign.boards.get(slug="city")
    asked = (last(body, "turn") or "").strip()
    number = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= 9 else None
    if number not in turn_numbers(board):
        number = None
    expected = board_map_of(board, w.member("alice"), number)
    return response.status_code == 200 and json.loads(response.content) == expected


def report_shown(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """A report this small is one page: every board, whatever is asked."""
    report = response.context["report"] if response.status_code == 200 else None
    return report is not None and report.number == 1


def csv_as_asked(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """The history's CSV of the board asked for (nothing asked: every board)."""
    asked = last(body, "board") or ""
    name = f"{SLUG}{'-' + asked if asked else ''}-history.csv"
    return response.status_code == 200 and response.get("Content-Disposition", "").endswith(
        f'"{name}"'
    )


def withdrawn(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return Invitation.objects.get(pk=w.invitation.pk).revoked


def gone(model: type[Model], **where: Any) -> Done:
    return lambda w, body, response: not model.objects.filter(**where).exists()


def removed(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    """Bob is removed: out of the campaign's players (R13: his departments uncontrolled)."""
    return not Membership.objects.filter(
        campaign=w.campaign, user__username="bob", role=Membership.Role.PLAYER
    ).exists()


def hidden(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return w.conversation.messages.get().hidden_at is not None


def quote_kept(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from campaigns.press.web.press import PENDING_QUOTE

    session = response.wsgi_request.session
    return session.get(PENDING_QUOTE, {}).get("campaign") == w.campaign.pk


def settings_as_posted(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from campaigns.models import NotificationSettings
    from campaigns.web.report_forms import NotificationSettingsForm

    form = NotificationSettingsForm(posted(body))
    stored = NotificationSettings.objects.filter(user__username="alice").values().first()
    return (
        form.is_valid()
        and stored is not None
        and all(stored[k] == v for k, v in form.cleaned_data.items())
    )


def profile_as_posted(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from campaigns.accounts.web.profile_forms import ProfileForm
    from campaigns.models import Profile

    form = ProfileForm(posted(body))
    stored = Profile.objects.filter(user__username="alice").values().first() or {}
    return form.is_valid() and all(stored.get(k) == v for k, v in form.cleaned_data.items())


def language_as_posted(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    from django.conf import settings

    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return cookie is not None and cookie.value == last(body, "language")


def logged_out(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return not response.wsgi_request.user.is_authenticated


def redirected_to(name: str) -> Done:
    return lambda w, body, response: (
        response.status_code == 302 and response["Location"].startswith(reverse(name))
    )


def password_changed(w: World, body: dict[str, Any], response: HttpResponse) -> bool:
    return get_user_model().objects.get(username="alice").password != w.password

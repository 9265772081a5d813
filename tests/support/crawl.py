"""The world the fog-of-war crawl and the authorization matrix walk (tests/web/test_crawl.py).

The demo campaign Tourmaline with turn 1 played (tests/support/demo.py: Carol captures
Alice's City Watch) and turn 2 open, and in it:

- every hidden field of every department holding a sentinel (tests/support/fog.py), the
  numbers included, both on the departments now and in turn 1's record, which the report
  pages read (status, chain length, capacity, produced, consumed, discarded);
- Knowledge rows at every level (RULES R50): the demo's `rumoured` and `known`, plus for each
  player a row at `unknown` (0) and a stale row at `controlled` (3) on a department another
  player controls, which must count as `known` only (R50: control follows the structure);
- each player's function roll and linking attempt queued for turn 2 (so there are orders to
  edit, cancel and reorder, and attempts to reinforce against), and an invitation link;
- the Mayor of Tourmaline elected in turn 1 and in turn 2 (open), with tickets, support and
  votes, the Printing Press's Impress a sentinel (tests/support/election.py, RULES R80);
- the roles: an observer of Tourmaline (`olga`) and the GM of another campaign (`gm2`), who
  must see nothing of Tourmaline;
- RULES parts 7 and 8 beside the demo's own (tests/support/fog.py `intrigue_markers` reads
  them all): for each player a narrative shtick, a goal and its progress after turn 1 with
  sentinel numbers, an intel envelope on their first department addressed to them and opened
  in turn 1 (in their dossier) and one not opened, and a sealed envelope opened in turn 1 and
  one still sealed, each text a sentinel;
- a classic board (RULES part 10, tests/support/classic_files.py), imported while turn 1 was
  open and played in it: alice's attack, bob's standing defence, carol's interference and
  her gift to bob, their megabucks sentinels; its treasuries sentinels again after the turn;
  in turn 2 bob offers alice his CIA (R97).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from campaigns.classic.selectors.orders import CLASSIC_KINDS
from campaigns.models import (
    Board,
    Campaign,
    ClassicBoard,
    Conversation,
    Department,
    Invitation,
    Knowledge,
    Link,
    Membership,
    Order,
    Turn,
    TurnRecord,
)
from campaigns.selectors.order_context import OrderContext
from campaigns.services.demo import demo_create
from campaigns.services.orders import orders_submit
from campaigns.services.players import invitation_create
from campaigns.web.order_forms import FORMS
from tests.factories import CampaignFactory, MembershipFactory
from tests.support.classic_files import (
    CRAWL_CLASSIC,
    CRAWL_SPENT,
    CRAWL_TREASURIES,
    crawl_classic_file,
)
from tests.support.demo import Played, member, play_turn_one, reset_link
from tests.support.election import TURN_TWO, crawl_election_before, make_orders
from tests.support.fog import PLAYERS, sentinelize, sentinels_for

SLUG = "tourmaline"
OBSERVER, OUTSIDER, GM = "olga", "gm2", "gm"
# Stored levels beyond the demo's files: (player, department, level). The `controlled` rows
# are on departments the player does not control (R50 caps them at `known`); the `unknown`
# rows on departments the player has never heard of.
EXTRA_KNOWLEDGE = [
    ("alice", "guild-hall", 3),  # bob's; alice knows its card
    ("bob", "mint", 3),  # alice's; bob knows its card
    ("carol", "tax-office", 3),  # uncontrolled; carol knows its card
    ("alice", "rebel-cell", 0),
    ("bob", "thieves-guild", 0),
    ("carol", "sailors-guild", 0),
]


@dataclass
class World:
    played: Played
    turn: Turn  # turn 2, open
    orders: dict[str, Order]  # player -> their queued function roll of turn 2
    attempts: dict[str, Order]  # defender -> an attempt queued against them in turn 2
    invitation: Invitation
    defence: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (board, dept)
    # Press: the campaign's channel (with one message) and alice's conversation with the GM.
    channel: Conversation | None = None
    private: Conversation | None = None

    @property
    def campaign(self) -> Campaign:
        return self.played.campaign


def crawl_world() -> World:
    def create() -> Campaign:
        campaign = demo_create()
        sentinelize(campaign, fields=["description", "flaws"])
        crawl_election_before(campaign)
        classic_turn_queued(campaign)
        return campaign

    played = play_turn_one(create)
    campaign = played.campaign
    sentinelize(campaign)  # the figures the turn job wrote, now sentinels too
    sentinelize_records(campaign)
    classic_treasuries_sentinelized(campaign)
    classic_give_queued(campaign)
    for username, slug, level in EXTRA_KNOWLEDGE:
        Knowledge.objects.update_or_create(
            player=member(campaign, username),
            department=Department.objects.get(board__campaign=campaign, slug=slug),
            defaults={"level": level},
        )
    MembershipFactory(campaign=campaign, role=Membership.Role.OBSERVER, user__username=OBSERVER)
    elsewhere = CampaignFactory(name="Elsewhere", slug="elsewhere")
    MembershipFactory(campaign=elsewhere, role=Membership.Role.GM, user__username=OUTSIDER)
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    orders = {p: queue_function_roll(campaign, turn, p) for p in PLAYERS}
    attempts = queue_attempts(campaign, turn)
    gm = member(campaign, GM).user
    invitation = invitation_create(campaign=campaign, actor=gm, role="player", uses=5, days=7)
    defence = {
        p: [
            (d.board.slug, d.slug)
            for d in Department.objects.filter(structure__player=member(campaign, p))
            .select_related("board")
            .order_by("board__slug", "slug")
        ]
        for p in PLAYERS
    }
    channel, private = press_world(campaign)
    make_orders(campaign, turn.number, TURN_TWO)
    intrigue_world(campaign, defence)
    office_shticked(campaign)
    return World(played, turn, orders, attempts, invitation, defence, channel, private)


def classic_board_imported(campaign: Campaign) -> Board:
    """R90, R99: a classic board beside the demo's, its treasuries and goals sentinels
    (tests/support/classic_files.py), imported by the GM as a file."""
    from campaigns.services.setup import board_import_by_gm

    gm = member(campaign, GM).user
    return board_import_by_gm(campaign=campaign, actor=gm, data=crawl_classic_file())


def classic_turn_queued(campaign: Campaign) -> None:
    """The classic board imported while turn 1 is open, with orders whose megabucks are
    sentinels (CRAWL_SPENT), so the turn job plays one classic turn beside the demo's and
    the reports hold a classic section (R93-R99). alice's attack on bob's CIA cannot
    succeed whatever the seed (bob's defence and carol's interference far outweigh it: its
    need is below 2), so the seed the demo's turn is played with changes nothing here."""
    board = classic_board_imported(campaign)
    turn = campaign.turns.get(number=1)
    alice, bob, carol = (member(campaign, p) for p in ("alice", "bob", "carol"))
    spent = list(CRAWL_SPENT)
    Kind = Order.Kind
    for player, kind, payload in [
        (alice, Kind.CLASSIC_ATTACK, {"group": "mafia", "target": "cia", "aim": "control",
                                      "spend_illuminati": spent[0]}),
        (bob, Kind.CLASSIC_DEFEND, {"group": "cia", "spend_illuminati": spent[1]}),
        (carol, Kind.CLASSIC_INTERFERE, {"target": "cia", "side": "defend",
                                         "amount": spent[2]}),
        (carol, Kind.CLASSIC_GIFT, {"to_player": bob.player_id, "amount": spent[3]}),
    ]:  # fmt: skip
        orders_submit(player=player, turn=turn, board=board, kind=kind, payload=payload)


def classic_give_queued(campaign: Campaign) -> None:
    """R97: bob offers alice his CIA in turn 2, so her orders page shows the group offered
    to her with its Accept button."""
    board = campaign.boards.get(slug=CRAWL_CLASSIC)
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    alice = member(campaign, "alice")
    orders_submit(player=member(campaign, "bob"), turn=turn, board=board,
                  kind=Order.Kind.CLASSIC_GIVE,
                  payload={"group": "cia", "to_player": alice.player_id})  # fmt: skip


def classic_treasuries_sentinelized(campaign: Campaign) -> None:
    """After turn 1, the classic treasuries (spent, gifted, earned) as CRAWL_TREASURIES
    says again, in the state now and in turn 1's record: the sentinels the crawl looks for."""
    board = ClassicBoard.objects.get(board__campaign=campaign, board__slug=CRAWL_CLASSIC)
    record = TurnRecord.objects.get(turn__campaign=campaign, turn__number=1, board=board.board)
    for state in (board.state, record.state):
        for group in state["groups"]:
            if group["slug"] in CRAWL_TREASURIES:
                group["treasury"] = CRAWL_TREASURIES[group["slug"]][1]
    board.save(update_fields=["state"])
    record.save(update_fields=["state"])


def office_shticked(campaign: Campaign) -> None:
    """The Mayor holds a shtick (R60, R80), so the GM's page of it has one to remove."""
    from campaigns.models import Office

    shtick = {"kind": "dice", "roll": "attack", "department": None, "amount": 1}
    Office.objects.filter(board__campaign=campaign).update(shticks=[shtick])


def intrigue_world(campaign: Campaign, defence: dict[str, list[tuple[str, str]]]) -> None:
    """Each player's sentinel secrets of parts 7 and 8 (see the module's docstring), written
    as rows: turn 1 is over, so what it "opened" is written as the turn job writes it."""
    from campaigns.models import (
        ContingencyEnvelope,
        DossierEntry,
        Goal,
        GoalProgress,
        IntelEnvelope,
        Shtick,
    )

    turn_1 = campaign.turns.get(number=1)
    for i, username in enumerate(PLAYERS):
        player, tag = member(campaign, username), username.upper()
        board, slug = defence[username][0]
        dept = Department.objects.get(board__campaign=campaign, board__slug=board, slug=slug)
        Shtick.objects.create(member=player, kind="text",
                              data={"kind": "text", "text": f"SHTICK-{tag}-SENTINEL"})  # fmt: skip
        goal = Goal.objects.create(member=player, kind="hold",
                                   data={"type": "money", "n": GOAL_N + i})  # fmt: skip
        GoalProgress.objects.create(goal=goal, turn=turn_1, value=GOAL_VALUE + i, met=False)
        for opened in (True, False):
            state = "INTEL" if opened else "INTEL-UNOPENED"
            envelope = IntelEnvelope.objects.create(
                department=dept, text=f"{state}-{tag}-SENTINEL", target=3, everyone=False
            )
            envelope.audience.set([player])
            if opened:
                DossierEntry.objects.create(member=player, envelope=envelope, turn=turn_1)
        ContingencyEnvelope.objects.create(member=player, text=f"SEALED-{tag}-SENTINEL",
                                           condition="turn", turn_number=1,
                                           opened_turn=turn_1)  # fmt: skip
        ContingencyEnvelope.objects.create(member=player, text=f"UNOPENED-{tag}-SENTINEL",
                                           condition="turn", turn_number=50)  # fmt: skip


# A goal's number and its progress: sentinels, as numbers no page shows by chance.
GOAL_N, GOAL_VALUE = 93100, 93300


def press_world(campaign: Campaign) -> tuple[Conversation, Conversation]:
    """A message in the campaign channel, and a conversation of alice with the GM only."""
    from campaigns.press.services.press import channel_ensure, conversation_start, message_send

    channel = channel_ensure(campaign=campaign)
    channel.is_participant = True
    message_send(member=member(campaign, "bob"), conversation=channel, text="Hello, all.")
    private = conversation_start(
        member=member(campaign, "alice"), recipients=[member(campaign, GM)],
        subject="A word", text="Only for the GM.",
    )  # fmt: skip
    return channel, private


def sentinelize_records(campaign: Campaign) -> None:
    """Turn 1's spawn-and-consume figures (what the report pages read) as sentinels: the
    same numbers `sentinels_for` gives the department, and consumed, discarded and produced
    amounts of their own."""
    index = {slug: i for i, slug in enumerate(department_slugs(campaign))}
    for record in TurnRecord.objects.filter(turn__campaign=campaign, turn__number=1):
        for slug, data in record.report.get("departments", {}).items():
            values = sentinels_for(index[slug], slug)
            data.update(
                status=values["status"],
                chain_length=values["chain_length"],
                capacity=values["capacity"],
                produced=figure("produced", index[slug]),
            )
            for consumed in data.get("consumed", []):
                consumed["amount"] = figure("consumed", index[slug])
            data["discarded"] = {"money": figure("discarded", index[slug])}
        record.save(update_fields=["report"])


FIGURES = {"produced": 96100, "consumed": 96300, "discarded": 96500}


def figure(kind: str, i: int) -> int:
    return FIGURES[kind] + i


def record_markers(campaign: Campaign) -> dict[str, list[str]]:
    """slug -> the sentinels turn 1's record holds for it beyond the department's own
    (produced, consumed, discarded; see `sentinelize_records`): only its controller then
    may see them."""
    markers: dict[str, list[str]] = {slug: [] for slug in department_slugs(campaign)}
    for record in TurnRecord.objects.filter(turn__campaign=campaign, turn__number=1):
        for slug, data in record.report.get("departments", {}).items():
            amounts = [data.get("produced", 0), *data.get("discarded", {}).values()]
            amounts += [c["amount"] for c in data.get("consumed", [])]
            markers[slug] += [str(n) for n in amounts if n > 9000]
    return markers


def department_slugs(campaign: Campaign) -> list[str]:
    """In the order `sentinelize` numbers them (the database's order of slugs)."""
    rows = Department.objects.filter(board__campaign=campaign).order_by("slug")
    return list(rows.values_list("slug", flat=True))


def queue_function_roll(campaign: Campaign, turn: Turn, username: str) -> Order:
    """A function roll on the player's first department that has a function."""
    player = member(campaign, username)
    dept = (
        Department.objects.filter(structure__player=player)
        .exclude(functions={})
        .select_related("board")
        .order_by("board__slug", "slug")
        .first()
    )
    assert dept is not None, username
    function = sorted(dept.functions)[0]
    return orders_submit(
        player=player, turn=turn, board=dept.board, kind=Order.Kind.FUNCTION,
        payload={"department": dept.slug, "function": function, "stat": "effect",
                 "intent": f"INTENT-{username.upper()}-SENTINEL"},
    )  # fmt: skip


def queue_attempts(campaign: Campaign, turn: Turn) -> dict[str, Order]:
    """For each player, the first linking attempt the engine offers them whose target another
    player controls and which no attempt targets yet. Returns defender -> the attempt."""
    controllers = {
        d.slug: d.structure.player.user.username
        for d in Department.objects.filter(
            board__campaign=campaign, structure__isnull=False
        ).select_related("structure__player__user")
    }
    attempts: dict[str, Order] = {}
    for username in PLAYERS:
        player = member(campaign, username)
        for board in campaign.boards.order_by("slug"):
            ctx = OrderContext.build(player, turn, board)
            choice = next(
                (
                    c
                    for c in ctx.legal().attempt
                    if ctx.known(c.target)
                    and controllers.get(c.target) not in (None, username, *attempts)
                ),
                None,
            )
            if choice is None:
                continue
            attempts[controllers[choice.target]] = orders_submit(
                player=player, turn=turn, board=board, kind=Order.Kind.ATTEMPT,
                payload={"attacker": choice.attacker, "target": choice.target},
            )  # fmt: skip
            break
    return attempts


# --- where the crawl goes: the `where`s of tests/support/crawl_pages.py PAGES ------------------
# Each takes the world and a URL name and gives the URLs of that name to visit, each with the
# player it belongs to (None: nobody's). Named like constants: they are the vocabulary of
# the table.

Urls = list[tuple[str, str | None]]


def nobodys(*urls: str) -> Urls:
    return [(url, None) for url in urls]


def SITE(w: World, name: str) -> Urls:
    """No path values: /rules/, the log-in page..."""
    return nobodys(reverse(name))


def CAMPAIGN(w: World, name: str) -> Urls:
    """The campaign's slug only."""
    return nobodys(reverse(name, args=[SLUG]))


def BOARDS(w: World, name: str) -> Urls:
    return nobodys(*(reverse(name, args=[SLUG, board]) for board in BOARD_SLUGS))


def BOARDS_AND_CLASSIC(w: World, name: str) -> Urls:
    """The standard boards and the classic one (R90): pages a classic board has already."""
    return [*BOARDS(w, name), *nobodys(reverse(name, args=[SLUG, CRAWL_CLASSIC]))]


def CAMPAIGN_AND_CLASSIC_FILE(w: World, name: str) -> Urls:
    """The campaign's slug, and with `?board=` the classic board's (its own file, R90)."""
    return [*CAMPAIGN(w, name), *nobodys(f"{reverse(name, args=[SLUG])}?board={CRAWL_CLASSIC}")]


def KINDS(w: World, name: str) -> Urls:
    """Every board and every order kind with a form."""
    return nobodys(*(reverse(name, args=[SLUG, b, k]) for b in BOARD_SLUGS for k in FORMS))


def CLASSIC_ORDER_KINDS(w: World, name: str) -> Urls:
    """The classic board's order forms (RULES R94-R97), one per kind."""
    return nobodys(*(reverse(name, args=[SLUG, CRAWL_CLASSIC, k]) for k in CLASSIC_KINDS))


def CLASSIC_GROUPS(w: World, name: str) -> Urls:
    """The GM's editor of the classic board's groups (classic/web/editor.py): a group of each
    player's and one on the table, each its controller's. (Groups in the deck have no page:
    face down, R99.)"""
    owned = {"bavarians": "alice", "cia": "bob", "yuppies": None}
    return [(reverse(name, args=[SLUG, CRAWL_CLASSIC, g]), who) for g, who in owned.items()]


def CLASSIC_PLAYERS(w: World, name: str) -> Urls:
    """The GM's editor of each classic player's Illuminati treasury and goal, theirs."""
    return [
        (reverse(name, args=[SLUG, CRAWL_CLASSIC, member(w.campaign, p).player_id]), p)
        for p in PLAYERS
    ]


def EXPORTS(w: World, name: str) -> Urls:
    return nobodys(*(reverse(name, args=[SLUG, b, f]) for b in BOARD_SLUGS for f in FORMATS))


def TURNS(w: World, name: str) -> Urls:
    """The processed turns: 0 (the start) and 1."""
    return nobodys(*(reverse(name, args=[SLUG, n]) for n in (0, 1)))


def ORDERS(w: World, name: str) -> Urls:
    """Each player's queued function roll of the open turn, theirs."""
    return [(reverse(name, args=[SLUG, o.pk]), p) for p, o in w.orders.items()]


def ATTEMPTS(w: World, name: str) -> Urls:
    """Each attempt of the open turn, its defender's (who may reinforce)."""
    return [(reverse(name, args=[SLUG, o.pk]), p) for p, o in w.attempts.items()]


def DEFENCES(w: World, name: str) -> Urls:
    """Each department of each player, theirs."""
    return [
        (reverse(name, args=[SLUG, board, dept]), player)
        for player, depts in w.defence.items()
        for board, dept in depts
    ]


def NOTE(w: World, name: str) -> Urls:
    """The GM's note on Alice's function roll of turn 1 (R45)."""
    return nobodys(reverse(name, args=[SLUG, 1, w.played.orders["alice_roll"].pk]))


def INVITE(w: World, name: str) -> Urls:
    return nobodys(reverse(name, args=[SLUG, w.invitation.pk]))


def JOIN(w: World, name: str) -> Urls:
    return nobodys(reverse(name, args=[w.invitation.token]))


def RESET(w: World, name: str) -> Urls:
    """The link of Alice's password-reset mail."""
    return nobodys(reset_link(w.campaign, "alice"))


def DEPARTMENTS(w: World, name: str) -> Urls:
    """Each player's first department, theirs (the editor's pages and a department's
    history take a board and a department)."""
    return [(reverse(name, args=[SLUG, *depts[0]]), player) for player, depts in w.defence.items()]


def LINKS(w: World, name: str) -> Urls:
    """A link of each board, at its supplier's page."""
    urls = []
    for board in BOARD_SLUGS:
        link = Link.objects.filter(board__campaign=w.campaign, board__slug=board).first()
        assert link is not None, board
        urls.append(reverse(name, args=[SLUG, board, link.supplier.slug, link.pk]))
    return nobodys(*urls)


def MEMBERS(w: World, name: str) -> Urls:
    """Each player's membership, theirs (the GM's page of a member)."""
    return [(reverse(name, args=[SLUG, member(w.campaign, p).pk]), p) for p in PLAYERS]


def STRUCTURES(w: World, name: str) -> Urls:
    """Each player's structure on each board, theirs."""
    return [
        (reverse(name, args=[SLUG, board, member(w.campaign, p).pk]), p)
        for p in PLAYERS
        for board in BOARD_SLUGS
    ]


def CONVERSATIONS(w: World, name: str) -> Urls:
    """Alice's conversation with the GM, hers: no other player, observer or outsider may
    read it. (The channel, which every member reads, is the press page's; its message is
    searched for leaks there.)"""
    assert w.private is not None
    return [(reverse(name, args=[SLUG, w.private.pk]), "alice")]


def POLLS(w: World, name: str) -> Urls:
    """What press.js asks of alice's conversation: every message after the 0th."""
    return [(f"{url}?after=0", owner) for url, owner in CONVERSATIONS(w, name)]


def SECRET_DEPARTMENTS(w: World, name: str) -> Urls:
    """Each player's departments that no other player knows the card of (a department's
    history is for those who knew it at least as `known`, R50), theirs."""
    known_by_others = {
        (k.department.board.slug, k.department.slug, k.player.user.username)
        for k in Knowledge.objects.filter(
            department__board__campaign=w.campaign, level__gte=Knowledge.Level.KNOWN
        ).select_related("department__board", "player__user")
    }
    urls = []
    for player, depts in w.defence.items():
        others = [p for p in PLAYERS if p != player]
        for board, dept in depts:
            if not any((board, dept, other) in known_by_others for other in others):
                urls.append((reverse(name, args=[SLUG, board, dept]), player))
    assert urls, "no department is its owner's secret"
    return urls


def MESSAGES(w: World, name: str) -> Urls:
    """The message in the channel (the GM may hide it)."""
    assert w.channel is not None
    return nobodys(reverse(name, args=[SLUG, w.channel.messages.get().pk]))


def QUOTES(w: World, name: str) -> Urls:
    """A move quoted from each board's order form."""
    return nobodys(*(reverse(name, args=[SLUG, board, "move"]) for board in BOARD_SLUGS))


BOARD_SLUGS = ("city", "harbour")
FORMATS = ("json", "csv")


def OFFICES(w: World, name: str) -> Urls:
    """The city's office (the Mayor of Tourmaline), at its board."""
    from campaigns.models import Office

    office = Office.objects.get(board__campaign=w.campaign)
    return nobodys(reverse(name, args=[SLUG, "city", office.pk]))


def OFFICE_SHTICK_FORMS(w: World, name: str) -> Urls:
    """The GM's form of each kind of shtick for the city's office (R60, R80)."""
    from campaigns.models import Office, Shtick

    office = Office.objects.get(board__campaign=w.campaign)
    return nobodys(
        *(reverse(name, args=[SLUG, "city", office.pk, kind]) for kind in Shtick.Kind.values)
    )


def OFFICE_SHTICKS(w: World, name: str) -> Urls:
    """The city's office's first shtick (office_shticked gives it one)."""
    from campaigns.models import Office

    office = Office.objects.get(board__campaign=w.campaign)
    return nobodys(reverse(name, args=[SLUG, "city", office.pk, 0]))


def ELECTIONS(w: World, name: str) -> Urls:
    """The Mayor's election of turn 2, open and not yet held."""
    from campaigns.models import Election

    return nobodys(reverse(name, args=[SLUG, Election.objects.get(number=2).pk]))


def MEMBER_FORMS(w: World, name: str) -> Urls:
    """The GM's forms of a player's character (RULES R60, R61, R72), one per kind of shtick,
    goal or condition, for each player: theirs."""
    from campaigns.models import ContingencyEnvelope, Goal, Shtick

    kinds = {
        "shtick_new": Shtick.Kind.values,
        "goal_new": Goal.Kind.values,
        "contingency_new": ContingencyEnvelope.Condition.values,
    }[name]
    return [
        (reverse(name, args=[SLUG, member(w.campaign, p).pk, kind]), p)
        for p in PLAYERS
        for kind in kinds
    ]


def CHARACTER_ROWS(w: World, name: str) -> Urls:
    """Each player's first shtick, goal or sealed envelope (the GM removes them): theirs."""
    from campaigns.models import ContingencyEnvelope, Goal, Shtick

    model = {
        "shtick_remove": Shtick,
        "goal_remove": Goal,
        "contingency_remove": ContingencyEnvelope,
    }
    urls = []
    for p in PLAYERS:
        player = member(w.campaign, p)
        row = model[name].objects.filter(member=player).order_by("pk").first()
        assert row is not None, (name, p)
        urls.append((reverse(name, args=[SLUG, player.pk, row.pk]), p))
    return urls


def ENVELOPES(w: World, name: str) -> Urls:
    """The intel envelopes on each player's first department (R71; the world's sentinels):
    theirs."""
    from campaigns.models import IntelEnvelope

    urls = []
    for p, depts in w.defence.items():
        board, slug = depts[0]
        for envelope in IntelEnvelope.objects.filter(department__board__campaign=w.campaign,
                                                     department__slug=slug):  # fmt: skip
            urls.append((reverse(name, args=[SLUG, board, slug, envelope.pk]), p))
    return urls

"""RULES R50 and R23 on every page a player can reach while turn 1 is open.

Each player walks the campaign page, both boards, the orders page, every order form (their
select options included), the attempt preview, the reinforcement page for an attempt
against them, the defence page of each of their departments, the edit page of each queued
order, the notification settings and the notices; no page may show what their level hides
(see tests/support/fog.py leaks), nor the open turn's seed.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from campaigns.elections.web.election_forms import ELECTION_FORMS
from campaigns.models import Campaign, Department, Order, Turn
from campaigns.services.orders import orders_submit
from campaigns.web.order_forms import FORMS
from tests.support.demo import member
from tests.support.fog import (
    CONTROLLED,
    NAMES,
    PLAYERS,
    demo_levels,
    leaks,
    open_seed,
    private_markers,
)

SLUG = "tourmaline"
# R46: one attempt against each player, all legal in the demo: the defender is told which
# department attacks (its name only), so that name is allowed on the pages that tell it.
ATTEMPTS = [
    # attacker player, board, attacker dept, target dept (defender)
    ("alice", "city", "city-watch", "guild-hall"),  # -> bob
    ("carol", "city", "thieves-guild", "city-watch"),  # -> alice
    ("bob", "city", "dock-workers", "temple"),  # -> carol
]
DEFENDER = {"guild-hall": "bob", "city-watch": "alice", "temple": "carol"}


def queue_attempts(campaign: Campaign) -> dict[str, list[str]]:
    """Queue ATTEMPTS through the service (which tells each defender, R46); returns
    defender -> attacker department slugs they were told of."""
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    told: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for player, board, attacker, target in ATTEMPTS:
        orders_submit(
            player=member(campaign, player),
            turn=turn,
            board=campaign.boards.get(slug=board),
            kind=Order.Kind.ATTEMPT,
            payload={"attacker": attacker, "target": target},
        )
        told[DEFENDER[target]].append(attacker)
    return told


def get_ok(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def player_pages(campaign: Campaign, username: str, client: Client) -> dict[str, str]:
    """url -> content of every page `username` can reach (GET, and the attempt preview)."""
    pages: dict[str, str] = {}
    boards = ["city", "harbour"]
    urls = [
        reverse("campaign", args=[SLUG]),
        reverse("orders", args=[SLUG]),
        reverse("notification_settings"),
        reverse("how_to_play"),
        *(reverse("board", args=[SLUG, b]) for b in boards),
        *(reverse("order_new", args=[SLUG, b, kind]) for b in boards for kind in FORMS),
    ]
    viewer = member(campaign, username)
    for dept in Department.objects.filter(structure__player=viewer).select_related("board"):
        urls.append(reverse("department_defence", args=[SLUG, dept.board.slug, dept.slug]))
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    for order in Order.objects.filter(player=viewer, turn=turn, status=Order.Status.QUEUED):
        urls.append(reverse("order_edit", args=[SLUG, order.pk]))
    own_slugs = set(
        Department.objects.filter(structure__player=viewer).values_list("slug", flat=True)
    )
    for attempt in Order.objects.filter(turn=turn, kind=Order.Kind.ATTEMPT):
        if attempt.payload["target"] in own_slugs:
            urls.append(reverse("order_reinforce", args=[SLUG, attempt.pk]))
    for url in urls:
        pages[url] = get_ok(client, url)
    # The attempt preview (R43): every attacker against every target the form offers.
    for b in boards:
        url = reverse("order_new", args=[SLUG, b, Order.Kind.ATTEMPT])
        form = client.get(url).context["form"]
        for attacker, _ in form.fields["attacker"].choices:
            for target, _ in form.fields["target"].choices:
                data = {"attacker": attacker, "target": target, "preview": "1"}
                response = client.post(url, data)
                assert response.status_code == 200
                assert response.context["preview"] is not None, data
                pages[f"{url} preview {attacker}->{target}"] = response.content.decode()
    return pages


@pytest.mark.parametrize("username", PLAYERS)
def test_every_page_a_player_reaches_hides_what_their_level_hides(
    fogged: Campaign, client_for, django_capture_on_commit_callbacks, username: str
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        told = queue_attempts(fogged)
    levels = demo_levels()[username]
    markers = private_markers(fogged)
    seed = open_seed(fogged)
    pages = player_pages(fogged, username, client_for(username))
    assert len(pages) > 20
    problems = {}
    for url, content in pages.items():
        # R46: queuing an attempt raises the defender's knowledge of the attacking
        # department to `rumoured`, so its name may be shown on every page from then on.
        found = leaks(
            content, levels, markers, allowed_names=told[username], secrets=[seed], url=url
        )
        if found:
            problems[url] = found
    assert problems == {}
    # The sentinels do reach the pages: the player's own departments show them.
    own = [s for s, lvl in levels.items() if lvl == CONTROLLED]
    board_pages = "".join(c for u, c in pages.items() if "/board/" in u)
    assert all(f"FLAWS-{s}-SENTINEL" in board_pages for s in own)


@pytest.mark.parametrize("username", PLAYERS)
def test_order_form_choices_offer_no_hidden_department(
    demo: Campaign, client_for, username: str
) -> None:
    """The select options themselves (labels and values): targets only at `known` or
    above, everything else the player's own (R50). On the demo as it starts (the options
    name departments, not figures; the sentinel stashes of `fogged` would leave no room
    to move tokens, and the move form nothing to check)."""
    levels = demo_levels()[username]
    client = client_for(username)
    checked: dict[str, int] = dict.fromkeys(FORMS, 0)  # kind -> options naming a department
    for board in ["city", "harbour"]:
        for kind in FORMS:
            form = client.get(reverse("order_new", args=[SLUG, board, kind])).context["form"]
            for name, field in form.fields.items():
                for value, label in getattr(field, "choices", []):
                    for slug, level in levels.items():
                        offered = slug in str(value).replace("|", ",").split(",")
                        checked[kind] += offered
                        if kind == Order.Kind.ATTEMPT and name == "target":
                            assert not offered or level == 2, (kind, name, value)
                        elif offered:
                            # Links, routes, functions: only through departments at least known.
                            assert level >= 2, (kind, name, value, label)
                        if level == 0:
                            assert NAMES[slug] not in str(label), (kind, name, label)
    # The loops had options to check: on turn 1 of the demo every player has links to break
    # and order, routes, targets and functions (no link to add: none is legal yet). A
    # perception check offers departments by id (a rumoured one's slug may not show), and
    # there is no hand-over to accept yet. The election's forms (R80) have no choice in
    # turn 1, and name departments by opaque keys (tests/web/test_election_pages.py checks
    # their options).
    unchecked = [kind for kind, n in checked.items() if n == 0 and kind not in ELECTION_FORMS]
    assert unchecked == [Order.Kind.ADD_LINK, Order.Kind.PERCEIVE, Order.Kind.ACCEPT], checked


def test_the_open_seed_reaches_no_page_of_anyone(fogged: Campaign, client_for) -> None:
    """R23: before processing, the seed is on no page: not for players, not on the GM's
    campaign page, boards or the process-turn confirmation."""
    seed = open_seed(fogged)
    gm = client_for("gm")
    urls = [
        reverse("home"),
        reverse("campaign", args=[SLUG]),
        reverse("board", args=[SLUG, "city"]),
        reverse("board", args=[SLUG, "harbour"]),
        reverse("turn_process", args=[SLUG]),
        reverse("notification_settings"),
    ]
    for url in urls:
        assert seed not in get_ok(gm, url), url
    # The detector works: the GM's board shows what Alice's level hides.
    gm_board = get_ok(gm, reverse("board", args=[SLUG, "city"]))
    found = leaks(gm_board, demo_levels()["alice"], private_markers(fogged))
    assert any("name of unknown rebel-cell" in f for f in found)
    assert any("FLAWS-guild-hall-SENTINEL" in f for f in found)
    for username in PLAYERS:
        client = client_for(username)
        for url in urls[:4]:
            assert seed not in get_ok(client, url), (username, url)
        refused = client.get(reverse("turn_process", args=[SLUG]))
        assert refused.status_code == 403 and seed.encode() not in refused.content
    # No report or verify page for the open turn (its seed would be on it).
    for url in [reverse("turn_report", args=[SLUG, 1]), reverse("verify_dice", args=[SLUG, 1])]:
        assert gm.get(url).status_code == 404


def test_attack_notice_and_its_mail_name_no_hidden_department(
    fogged: Campaign, client_for, django_capture_on_commit_callbacks
) -> None:
    """R46 through the web: Alice queues an attempt on Bob's Guild Hall with the form. Bob
    is told the target and the attacker (name only), nothing of their hidden fields."""
    mail.outbox.clear()
    url = reverse("order_new", args=[SLUG, "city", Order.Kind.ATTEMPT])
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("alice").post(url, {"attacker": "city-watch", "target": "guild-hall"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    levels, markers = demo_levels()["bob"], private_markers(fogged)
    sent = mail.outbox[0]
    text = f"{sent.subject}\n{sent.body}"
    assert "The Guild Hall" in text
    assert (
        leaks(text, levels, markers, allowed_names=["city-watch"], secrets=[open_seed(fogged)])
        == []
    )
    # Nothing of the attacker's order beyond who and what (R46): no cost, no spend.
    assert "spend" not in text.lower() and "cost" not in text.lower()
    notices = get_ok(client_for("bob"), reverse("campaign", args=[SLUG]))
    assert "The Guild Hall is the target" in notices
    assert leaks(notices, levels, markers, allowed_names=["city-watch"]) == []


def test_reminder_mails_hide_everything(fogged: Campaign) -> None:
    from campaigns.services.reminders import reminders_send

    turn = fogged.turns.get(status=Turn.Status.OPEN)
    mail.outbox.clear()
    sent = reminders_send(now=turn.deadline - __import__("datetime").timedelta(hours=1))
    assert sent == 3
    all_levels, markers = demo_levels(), private_markers(fogged)
    for message in mail.outbox:
        username = message.to[0].split("@")[0]
        text = f"{message.subject}\n{message.body}"
        assert leaks(text, all_levels[username], markers, secrets=[turn.seed]) == []


def test_players_cannot_reach_the_admin(fogged: Campaign, client_for) -> None:
    """Players (and the GM: a campaign role, not a site role) are not staff; the admin
    sends them to its login page, and no admin page of the game's models opens."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(username__in=[*PLAYERS, "gm"])
    assert not any(u.is_staff or u.is_superuser for u in users)
    for username in [*PLAYERS, "gm"]:
        client = client_for(username)
        for url in ["/admin/", "/admin/campaigns/department/", "/admin/campaigns/turn/"]:
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
            assert b"SENTINEL" not in response.content


def test_the_admin_does_not_show_the_open_seed(fogged: Campaign, client) -> None:
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    client.force_login(admin)
    turn = fogged.turns.get(status=Turn.Status.OPEN)
    page = get_ok(client, f"/admin/campaigns/turn/{turn.pk}/change/")
    assert turn.seed not in page


def test_the_admin_shows_a_processed_turns_seed(fogged: Campaign, client) -> None:
    """The check above can fail: once published (R23) the seed is on the same page."""
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    client.force_login(admin)
    turn = fogged.turns.get(number=0)
    assert turn.status == Turn.Status.PROCESSED
    assert turn.seed in get_ok(client, f"/admin/campaigns/turn/{turn.pk}/change/")

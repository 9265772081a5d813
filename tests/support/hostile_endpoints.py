"""Every form and POST endpoint of the site, for tests/web/test_hostile_input.py: who posts,
where, the fields it reads, and how it shows that it read them (tests/support/hostile.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Model
from django.urls import reverse

from campaigns.classic.selectors.orders import CLASSIC_KINDS
from campaigns.intrigue.web.intrigue_forms import GOAL_FORMS
from campaigns.intrigue.web.shtick_forms import SHTICK_FORMS
from campaigns.models import (
    Announcement,
    Board,
    Campaign,
    ContingencyEnvelope,
    Department,
    Election,
    Goal,
    IntelEnvelope,
    Invitation,
    Link,
    Membership,
    Message,
    Office,
    Order,
    Shtick,
    Turn,
)
from campaigns.web.order_forms import FORMS
from tests.support.demo import reset_link
from tests.support.hostile import (
    DONE,
    FORM,
    REFUSED,
    SLUG,
    Endpoint,
    World,
    audited,
    board_as_asked,
    campaign_status,
    csv_as_asked,
    deadline_moved,
    defence_as_posted,
    gone,
    grew,
    hidden,
    language_as_posted,
    logged_out,
    map_as_asked,
    note_as_posted,
    notices_read,
    order_edited,
    order_moved,
    order_status,
    password_changed,
    profile_as_posted,
    quote_kept,
    ready_as_asked,
    redirected_to,
    removed,
    report_shown,
    settings_as_posted,
    turn_one,
    withdrawn,
)


def turn_url(name: str, *extra: Any) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, *extra])


def editor_url(name: str, *extra: Any) -> Callable[[World], str]:
    """A URL of the GM's editor on the city board; `extra` may hold callables of the world."""
    return lambda w: reverse(
        name, args=[SLUG, "city", *(e(w) if callable(e) else e for e in extra)]
    )


def order_url(name: str, which: Callable[[World], Order]) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, which(w).pk])


def mint_link(w: World) -> int:
    return Link.objects.get(supplier__slug="mint", consumer__slug="treasury").pk


def bob_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[SLUG, w.member("bob").pk])


def expects(*outcomes: str) -> frozenset[str]:
    return frozenset(outcomes)


# What each endpoint's valid post, or its refusal, looks like (tests/support/hostile.py).
FORM_OR_DONE = expects(FORM, DONE)
DONE_OR_REFUSED = expects(DONE, REFUSED)
ANY = expects(FORM, DONE, REFUSED)
CARD = ("name", "description", "effect", "obstruct", "impress", "consumes_type",
        "consumes_amount", "produces_type", "produces_amount", "alignments", "flaws", "money",
        "people", "authority", "controller", "home",
        *(f"functions-{f}" for f in ("TOTAL_FORMS", "INITIAL_FORMS", "MAX_NUM_FORMS",
                                     "0-name", "0-skill", "0-DELETE", "1-name")))  # fmt: skip
EDITOR_ENDPOINTS = [
    Endpoint("board_new", "gm", turn_url("board_new"), None, expects=FORM_OR_DONE,
             done=grew(Board)),
    Endpoint("board_edit", "gm", editor_url("board_edit"), expects=FORM_OR_DONE, done=audited),
    Endpoint("board_delete", "gm", editor_url("board_delete"), (), expects=DONE_OR_REFUSED,
             done=gone(Board, slug="city")),
    Endpoint("department_new", "gm", editor_url("department_new"), ("slug", *CARD),
             expects=FORM_OR_DONE, done=grew(Department)),
    Endpoint("department_edit", "gm", editor_url("department_edit", "mint"), CARD,
             expects=FORM_OR_DONE, done=audited),
    Endpoint("department_delete", "gm", editor_url("department_delete", "archives"), (),
             expects=DONE_OR_REFUSED, done=gone(Department, slug="archives")),
    Endpoint("link_new", "gm", editor_url("link_new", "mint"), ("direction", "partner"),
             expects=DONE_OR_REFUSED, done=grew(Link)),
    Endpoint("link_delete", "gm", editor_url("link_delete", "mint", mint_link), (),
             expects=DONE_OR_REFUSED, done=gone(Link, supplier__slug="mint",
                                                 consumer__slug="treasury")),
    Endpoint("link_move", "gm", editor_url("link_move", "mint", mint_link), ("direction",),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("board_structures", "gm", editor_url("board_structures"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("board_knowledge", "gm", editor_url("board_knowledge"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("board_knowledge_bulk", "gm", editor_url("board_knowledge_bulk"),
             ("member", "department", "level", "how"), expects=DONE_OR_REFUSED, done=audited),
    Endpoint("member_edit", "gm", bob_url("member_edit"), expects=FORM_OR_DONE, done=audited),
    Endpoint("member_replace", "gm", bob_url("member_replace"), ("successor", "knowledge"),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("member_remove", "gm", bob_url("member_remove"), (), expects=DONE_OR_REFUSED,
             done=removed),
]  # fmt: skip


ORDER_FORMS = [
    Endpoint(f"order_new {board} {kind}", "alice", turn_url("order_new", board, kind),
             expects=FORM_OR_DONE, done=grew(Order))
    for board in ("city", "harbour")
    for kind in FORMS
]  # fmt: skip
# RULES R94-R97: a classic board's forms (classic/web/orders.py), on the classic world's board.
CLASSIC_FORMS = [
    Endpoint(f"classic_order {kind}", "alice", turn_url("classic_order", "cabal", kind),
             world="classic", expects=FORM_OR_DONE, done=grew(Order))
    for kind in CLASSIC_KINDS
] + [
    # The GM's editor of the classic board (classic/web/editor.py): a group, a player's goal.
    Endpoint("classic_group_edit", "gm", turn_url("classic_group_edit", "cabal", "mafia"),
             world="classic", expects=FORM_OR_DONE, done=audited),
    Endpoint("classic_player_edit", "gm",
             lambda w: reverse("classic_player_edit",
                               args=[SLUG, "cabal", w.member("alice").player_id]),
             world="classic", expects=FORM_OR_DONE, done=audited),
]  # fmt: skip
CAMPAIGN_ENDPOINTS = [
    Endpoint("order_edit", "alice", order_url("order_edit", lambda w: w.order),
             expects=FORM_OR_DONE, done=order_edited),
    Endpoint("order_cancel", "alice", order_url("order_cancel", lambda w: w.order), (),
             expects=DONE_OR_REFUSED, done=order_status(Order.Status.CANCELLED)),
    Endpoint("order_shift", "alice", order_url("order_shift", lambda w: w.later[0]),
             ("direction",), expects=DONE_OR_REFUSED, done=order_moved),
    Endpoint("order_reinforce", "alice", order_url("order_reinforce", lambda w: w.attempt),
             expects=FORM_OR_DONE, done=grew(Order)),
    Endpoint("department_defence", "alice",
             turn_url("department_defence", "city", "city-watch"), expects=FORM_OR_DONE,
             done=defence_as_posted),
    Endpoint("turn_ready", "alice", turn_url("turn_ready"), ("ready",),
             expects=DONE_OR_REFUSED, done=ready_as_asked),
    Endpoint("notices_read", "alice", turn_url("notices_read"), (), expects=expects(DONE),
             done=notices_read),
    Endpoint("notification_settings", "alice", lambda w: reverse("notification_settings"),
             expects=FORM_OR_DONE, done=settings_as_posted),
    Endpoint("turn_process", "gm", turn_url("turn_process"), expects=ANY,
             done=turn_one(Turn.Status.PROCESSED)),
    Endpoint("extend_deadline", "gm", turn_url("extend_deadline"), expects=FORM_OR_DONE,
             done=deadline_moved),
    # The demo runs: starting it again or resuming it is refused.
    Endpoint("campaign_start", "gm", turn_url("campaign_start"), (), expects=expects(REFUSED)),
    Endpoint("campaign_pause", "gm", turn_url("campaign_pause"), (), expects=expects(DONE),
             done=campaign_status(Campaign.Status.PAUSED)),
    Endpoint("campaign_resume", "gm", turn_url("campaign_resume"), (),
             expects=expects(REFUSED)),
    Endpoint("turn_report_note", "gm",
             lambda w: reverse("turn_report_note", args=[SLUG, 1, w.roll.pk]),
             tuple(f"note-{{pk}}-{field}" for field in ("gm_note", "publish")),
             world="played", expects=DONE_OR_REFUSED, done=note_as_posted),
    # The GM's audit log reads its filters from the query string (R53).
    Endpoint("audit_log", "gm", turn_url("audit_log"), method="get"),
    Endpoint("verify_dice", "alice", turn_url("verify_dice", 1), ("key", "dice", "digest_key"),
             world="played", method="get"),
    # History (issue 11): the pages that read their query string.
    # A small board has no table to search or page: `q` and `page` change nothing there.
    Endpoint("board", "alice", turn_url("board", "city"), ("turn", "q", "page"),
             world="played", method="get", expects=DONE_OR_REFUSED, done=board_as_asked),
    Endpoint("board_map_data", "alice", turn_url("board_map_data", "city"), ("turn",),
             world="played", method="get", expects=expects(DONE), done=map_as_asked),
    # Issue 15: a big report's board and page; a small one (this) shows everything at once.
    Endpoint("turn_report", "alice", turn_url("turn_report", 1), ("board", "page"),
             world="played", method="get", expects=expects(DONE), done=report_shown),
    Endpoint("compare_turns", "gm", turn_url("compare_turns", "city"), ("first", "second"),
             world="played", method="get"),
    Endpoint("history_export", "alice", turn_url("history_export"), ("board",),
             world="played", method="get", expects=DONE_OR_REFUSED, done=csv_as_asked),
    Endpoint("campaign_new", "alice", lambda w: reverse("campaign_new"),
             expects=FORM_OR_DONE, done=grew(Campaign)),
    Endpoint("board_import", "gm", turn_url("board_import"), expects=FORM_OR_DONE,
             done=grew(Board)),
    Endpoint("campaign_settings", "gm", turn_url("campaign_settings"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("campaign_alignments", "gm", turn_url("campaign_alignments"),
             tuple(f"alignments-{field}" for field in (
                 "TOTAL_FORMS", "INITIAL_FORMS", "MAX_NUM_FORMS", "0-name", "0-opposite",
                 "0-self_opposed", "0-DELETE", "1-name")),
             expects=FORM_OR_DONE, done=audited),
    Endpoint("players", "gm", turn_url("players"), expects=FORM_OR_DONE,
             done=grew(Invitation)),
    Endpoint("turn_rollback", "gm", turn_url("turn_rollback"), ("number", "confirm", "discard"),
             "played", expects=FORM_OR_DONE, done=turn_one(Turn.Status.OPEN)),
    Endpoint("campaign_end", "gm", turn_url("campaign_end"), expects=ANY,
             done=campaign_status(Campaign.Status.FINISHED)),
    # Nobody has won a classic board of the demo (R98): there is no win to play on after.
    Endpoint("campaign_play_on", "gm", turn_url("campaign_play_on"), ("number",),
             expects=expects(REFUSED)),
    # The demo has not ended: opening it is refused.
    Endpoint("campaign_open", "gm", turn_url("campaign_open"), expects=expects(FORM, REFUSED)),
    Endpoint("invitation_withdraw", "gm",
             lambda w: reverse("invitation_withdraw", args=[SLUG, w.invitation.pk]), (),
             expects=expects(DONE), done=withdrawn),
    Endpoint("invitation_join", "",
             lambda w: reverse("invitation_join", args=[w.invitation.token]),
             expects=FORM_OR_DONE, done=grew(Membership)),
]  # fmt: skip
PRESS_AND_ACCOUNTS = [
    # Press (press/web/press.py, press/web/press_gm.py) and the profile (accounts/web/profile.py).
    Endpoint("press_new", "alice", turn_url("press_new"), expects=FORM_OR_DONE,
             done=grew(Message)),
    Endpoint("press_conversation", "alice",
             lambda w: reverse("press_conversation", args=[SLUG, w.conversation.pk]),
             expects=FORM_OR_DONE, done=grew(Message)),
    Endpoint("press_quote", "alice", turn_url("press_quote", "city", "move"),
             ("route", "tokens_money", "tokens_people", "tokens_authority", "drop_1", "drop_2"),
             expects=expects(DONE), done=quote_kept),
    Endpoint("press_rules", "gm", turn_url("press_rules"), expects=FORM_OR_DONE, done=audited),
    Endpoint("press_hide", "gm",
             lambda w: reverse("press_hide", args=[SLUG, w.conversation.messages.get().pk]), (),
             expects=expects(DONE), done=hidden),
    Endpoint("announcement_new", "gm", turn_url("announcement_new"), expects=FORM_OR_DONE,
             done=grew(Announcement)),
    Endpoint("profile", "alice", lambda w: reverse("profile"), expects=FORM_OR_DONE,
             done=profile_as_posted),
    Endpoint("set_language", "alice", lambda w: reverse("set_language"), ("language", "next"),
             expects=DONE_OR_REFUSED, done=language_as_posted),
    Endpoint("login", "", lambda w: reverse("login")),
    Endpoint("signup", "", lambda w: reverse("signup"), expects=FORM_OR_DONE,
             done=grew(Membership.user.field.related_model)),
    Endpoint("logout", "alice", lambda w: reverse("logout"), (), expects=expects(DONE),
             done=logged_out),
    Endpoint("password_reset", "", lambda w: reverse("password_reset"), expects=FORM_OR_DONE,
             done=redirected_to("password_reset_done")),
    Endpoint("password_change", "alice", lambda w: reverse("password_change"),
             expects=FORM_OR_DONE, done=password_changed),
    Endpoint("password_reset_confirm", "", lambda w: reset_link(w.campaign, "alice"),
             expects=FORM_OR_DONE, done=password_changed),
]  # fmt: skip


def mayor(w: World) -> int:
    return Office.objects.get(board__campaign=w.campaign).pk


def mayor_with_a_shtick(w: World) -> int:
    """The Mayor, given a shtick to take away (R60, R80)."""
    shtick = {"kind": "attempts", "amount": 1}
    Office.objects.filter(board__campaign=w.campaign).update(shticks=[shtick])
    return mayor(w)


def election_row(w: World) -> int:
    return Election.objects.get(campaign=w.campaign, number=2).pk


# The election round (R80, elections/web/elections.py, elections/web/office_shticks.py): the GM's
# offices.
OFFICE_ENDPOINTS = [
    Endpoint("board_offices", "gm", editor_url("board_offices"), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("office_edit", "gm", editor_url("office_edit", mayor), expects=FORM_OR_DONE,
             done=audited),
    Endpoint("office_remove", "gm", editor_url("office_remove", mayor), (),
             expects=DONE_OR_REFUSED, done=gone(Office)),
    *(Endpoint(f"office_shtick_new {kind}", "gm", editor_url("office_shtick_new", mayor, kind),
               expects=FORM_OR_DONE, done=audited) for kind in SHTICK_FORMS),
    Endpoint("office_shtick_remove", "gm",
             editor_url("office_shtick_remove", mayor_with_a_shtick, 0), (),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("election_schedule", "gm", editor_url("election_schedule", mayor), ("number",),
             expects=DONE_OR_REFUSED, done=grew(Election)),
    Endpoint("election_cancel", "gm",
             lambda w: reverse("election_cancel", args=[SLUG, election_row(w)]), (),
             expects=DONE_OR_REFUSED, done=gone(Election, number=2)),
]  # fmt: skip


def bobs(view: str, *extra: Any) -> Callable[[World], str]:
    """A URL of the GM's pages of bob's character; `extra` may hold callables of the world."""
    return lambda w: reverse(
        view, args=[SLUG, w.member("bob").pk, *(e(w) if callable(e) else e for e in extra)]
    )


def first_of(model: type[Model]) -> Callable[[World], int]:
    """The id of bob's first shtick, goal or sealed envelope (the demo gives him each)."""

    def pk(w: World) -> int:
        row = model.objects.filter(member=w.member("bob")).order_by("pk").first()
        assert row is not None, model
        return int(row.pk)

    return pk


def temple_envelope(w: World) -> int:
    return IntelEnvelope.objects.filter(department__slug="temple").values_list("pk", flat=True)[0]


# RULES parts 7 and 8: the GM's forms of a character and a department (intrigue/web/intrigue_gm.py).
INTRIGUE_ENDPOINTS = [
    *(Endpoint(f"shtick_new {kind}", "gm", bobs("shtick_new", kind), expects=FORM_OR_DONE,
               done=audited) for kind in SHTICK_FORMS),
    Endpoint("shtick_remove", "gm", bobs("shtick_remove", first_of(Shtick)), (),
             expects=DONE_OR_REFUSED, done=audited),
    *(Endpoint(f"goal_new {kind}", "gm", bobs("goal_new", kind), expects=FORM_OR_DONE,
               done=audited) for kind in GOAL_FORMS),
    Endpoint("goal_remove", "gm", bobs("goal_remove", first_of(Goal)), (),
             expects=DONE_OR_REFUSED, done=audited),
    *(Endpoint(f"contingency_new {condition}", "gm", bobs("contingency_new", condition),
               expects=FORM_OR_DONE, done=audited)
      for condition in ContingencyEnvelope.Condition.values),
    Endpoint("contingency_remove", "gm",
             bobs("contingency_remove", first_of(ContingencyEnvelope)), (),
             expects=DONE_OR_REFUSED, done=audited),
    Endpoint("department_envelopes", "gm", editor_url("department_envelopes", "temple"),
             expects=FORM_OR_DONE, done=audited),
    Endpoint("envelope_remove", "gm", editor_url("envelope_remove", "temple", temple_envelope),
             (), expects=DONE_OR_REFUSED, done=audited),
]  # fmt: skip
# The election's forms while an election runs (on turn 1 of `week` they have no choice).
ELECTION_FORMS = [
    Endpoint(f"order_new city {kind} (election)", "bob", turn_url("order_new", "city", kind),
             world="election", expects=FORM_OR_DONE, done=grew(Order))
    for kind in ("nominate", "running_mate", "support", "vote")
]  # fmt: skip
ENDPOINTS = [
    *ORDER_FORMS, *ELECTION_FORMS, *CLASSIC_FORMS, *CAMPAIGN_ENDPOINTS, *EDITOR_ENDPOINTS,
    *OFFICE_ENDPOINTS, *INTRIGUE_ENDPOINTS, *PRESS_AND_ACCOUNTS,
]  # fmt: skip

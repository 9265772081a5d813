"""The fog-of-war crawl of the history pages (issue 11, RULES R50, R51), ready to fold into
a crawl driven by the URL configuration: `history_urls(campaign, username)` lists every page
a member can open for the demo after three turns (tests/support/history.py), each with the
turn whose levels it must be checked against (None: pages spanning turns, checked per turn
section), and `turn_levels` says what the player could see at a turn, computed from the
records themselves, not through the selectors.

The turn job recomputes stashes and figures, so sentinels written into the departments'
rows would not reach the records. `sentinelize_records` writes them into the records (the
source of every history page) instead: each department's stash, capacity, status and chain
length become numbers and strings found nowhere else (tests/support/fog.py sentinels_for).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from campaigns.models import Campaign, Department, Membership, TurnRecord
from tests.support.fog import sentinels_for
from tests.support.history import recorded_levels

TURNS = [0, 1, 2, 3]
BOARDS = ["city", "harbour"]


@dataclass(frozen=True)
class HistoryUrl:
    url: str
    turn: int | None  # the turn whose levels apply to the whole page; None: per section
    kind: str  # board, report, history, structure, department, compare, layout, csv


def history_urls(campaign: Campaign, username: str) -> list[HistoryUrl]:
    """Every history page `username` may open (a 200), with the turn its levels are at."""
    slug = campaign.slug
    member = Membership.objects.get(campaign=campaign, user__username=username)
    urls: list[HistoryUrl] = []
    for board in BOARDS:
        board_page = reverse("board", args=[slug, board])
        urls += [HistoryUrl(f"{board_page}?turn={n}", n, "board") for n in TURNS]
        urls += [
            HistoryUrl(reverse("board_history", args=[slug, board]), None, "history"),
            HistoryUrl(reverse("board_map_layout", args=[slug, board]), None, "layout"),
            HistoryUrl(f"{reverse('history_export', args=[slug])}?board={board}", None, "csv"),
        ]
        compare = reverse("compare_turns", args=[slug, board])
        urls += [
            HistoryUrl(f"{compare}?first={a}&second={b}", None, "compare")
            for a, b in [(0, 1), (1, 2), (2, 3), (0, 3)]
        ]
        if member.role == Membership.Role.PLAYER:
            url = reverse("structure_history", args=[slug, board, member.pk])
            urls.append(HistoryUrl(url, None, "structure"))
        for dept in departments_seen_known(campaign, member, board):
            url = reverse("department_history", args=[slug, board, dept])
            urls.append(HistoryUrl(url, None, "department"))
    urls += [HistoryUrl(reverse("turn_report", args=[slug, n]), n, "report") for n in TURNS]
    urls.append(HistoryUrl(reverse("history_export", args=[slug]), None, "csv"))
    return urls


def departments_seen_known(campaign: Campaign, member: Membership, board: str) -> list[str]:
    """Slugs the member saw at least `known` at some turn (whose history they may open)."""
    seen: set[str] = set()
    for number in TURNS:
        levels = turn_levels(campaign, member, number, board)
        seen |= {slug for slug, level in levels.items() if level >= 2}
    return sorted(seen)


def turn_levels(
    campaign: Campaign, member: Membership, number: int, board: str | None = None
) -> dict[str, int]:
    """slug -> the member's level at the end of turn `number` (every board, or `board`)."""
    records = TurnRecord.objects.filter(turn__campaign=campaign, turn__number=number)
    if board is not None:
        records = records.filter(board__slug=board)
    levels: dict[str, int] = {}
    for record in records:
        if member.role == Membership.Role.GM or campaign.opened:
            levels.update({d["slug"]: 3 for d in record.state["departments"]})
        else:
            levels.update(recorded_levels(record, member.player_id, member.pk))
    return levels


def sentinelize_records(campaign: Campaign) -> dict[str, list[str]]:
    """Write a sentinel into every private figure of every department in every record (its
    state, its `before`, and the spawn-consume report); return slug -> those markers."""
    slugs = list(
        Department.objects.filter(board__campaign=campaign)
        .order_by("slug")
        .values_list("slug", flat=True)
    )
    values = {slug: sentinels_for(i, slug) for i, slug in enumerate(slugs)}
    for record in TurnRecord.objects.filter(turn__campaign=campaign):
        for state in (record.state, record.before):
            for data in state.get("departments", []):
                v = values[data["slug"]]
                data["stash"] = {k: v[k] for k in ("money", "people", "authority")}
                data["capacity"] = v["capacity"]
        for slug, figures in record.report.get("departments", {}).items():
            figures["status"] = values[slug]["status"]
            figures["chain_length"] = values[slug]["chain_length"]
        record.save(update_fields=["state", "before", "report"])
    return {
        slug: [
            f"FLAWS-{slug}-SENTINEL",
            *(str(v[k]) for k in ("capacity", "chain_length", "money", "people", "authority")),
            str(v["status"]),
        ]
        for slug, v in values.items()
    }


def told_attackers(campaign: Campaign, member: Membership, number: int) -> list[str]:
    """R46: the attacking departments of turn `number`'s attempts on the member's
    departments; their names (only) may be shown to the defender whatever they know."""
    from campaigns.models import Order

    told = []
    attempts = Order.objects.filter(turn__campaign=campaign, turn__number=number,
                                    kind=Order.Kind.ATTEMPT)  # fmt: skip
    for order in attempts:
        record = TurnRecord.objects.get(turn=order.turn, board=order.board)
        owners = {d["slug"]: d.get("structure") for d in record.before["departments"]}
        if owners.get(order.payload.get("target")) == member.player_id:
            told.append(str(order.payload["attacker"]))
    return told

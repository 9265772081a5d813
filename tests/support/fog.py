"""Checks for the fog-of-war audit (RULES R50, R23, R46).

The demo campaign (services/demo.py) with a sentinel in every hidden field of every
department, so that a leak shows up as a plain substring of a page or a mail. What each
player may see is computed here from the demo's own files (owners and knowledge, read
through campaigns.demo), not from `selectors`, so these tests check the selectors rather
than repeat them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from campaigns.demo import demo_boards, demo_departments, demo_knowledge
from campaigns.models import Campaign, Department, Turn

PLAYERS = ["alice", "bob", "carol"]
UNKNOWN, RUMOURED, KNOWN, CONTROLLED = 0, 1, 2, 3
CARDS = demo_departments()  # slug -> name, board, owner
NAMES = {slug: card.name for slug, card in CARDS.items()}
KNOWLEDGE = demo_knowledge()
LINKS = [(link["from"], link["to"]) for board in demo_boards() for link in board["links"]]


def own_link_ends(levels: dict[str, int], links: Iterable[tuple[str, str]]) -> dict[str, int]:
    """R50: a player knows every link to or from their own departments, and the other end
    of each at least as `rumoured` (its name): `levels` (slug -> level) so raised."""
    raised = dict(levels)
    for supplier, consumer in links:
        for mine, other in ((supplier, consumer), (consumer, supplier)):
            if levels.get(mine) == CONTROLLED and other in raised:
                raised[other] = max(raised[other], RUMOURED)
    return raised


def demo_levels(
    owners: dict[str, str | None] | None = None,
    knowledge: dict[str, dict[str, int]] | None = None,
    links: Iterable[tuple[str, str]] | None = None,
) -> dict[str, dict[str, int]]:
    """player -> slug -> R50 level, from the demo's owners (or `owners`), KNOWLEDGE (or
    `knowledge`: player -> slug -> stored level) and links (or `links`: (supplier, consumer)
    pairs). A stored level is capped at `known`: control follows the structure; the other
    end of a link of the player's is at least `rumoured`."""
    owners = owners or {slug: card.owner for slug, card in CARDS.items()}
    knowledge = knowledge or KNOWLEDGE
    links = list(LINKS if links is None else links)
    return {
        player: own_link_ends(
            {
                slug: CONTROLLED
                if owners.get(slug) == player
                else min(knowledge[player].get(slug, UNKNOWN), KNOWN)
                for slug in CARDS
            },
            links,
        )
        for player in PLAYERS
    }


def sentinels_for(i: int, slug: str) -> dict[str, object]:
    """Unique markers for one department's hidden fields (status fits 16 characters)."""
    return {
        "description": f"DESC-{slug}-SENTINEL",
        "flaws": f"FLAWS-{slug}-SENTINEL",
        "status": f"ST{i:02d}QXZ",
        "capacity": 98100 + i,
        "chain_length": 97300 + i,
        "money": 97500 + i,
        "people": 97700 + i,
        "authority": 97900 + i,
    }


def sentinelize(campaign: Campaign, *, fields: Iterable[str] | None = None) -> None:
    """Write the sentinels into every department of `campaign` (only `fields` if given)."""
    rows = Department.objects.filter(board__campaign=campaign).order_by("slug")
    for i, dept in enumerate(rows):
        values = sentinels_for(i, dept.slug)
        chosen = list(fields) if fields is not None else list(values)
        for name in chosen:
            setattr(dept, name, values[name])
        dept.save(update_fields=chosen)


def private_markers(campaign: Campaign) -> dict[str, list[str]]:
    """slug -> the sentinels that only its controller may see (R50: stash, flaws and the
    turn figures: status, capacity, chain length)."""
    rows = Department.objects.filter(board__campaign=campaign).order_by("slug")
    out = {}
    for dept in rows:
        out[dept.slug] = [
            f"FLAWS-{dept.slug}-SENTINEL",
            *(
                str(v)
                for v in [dept.capacity, dept.chain_length, dept.money, dept.people, dept.authority]
                if v and v > 9000
            ),
            *([dept.status] if dept.status.endswith("QXZ") else []),
        ]
    return out


def slug_pattern(slug: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(slug)}(?![\w-])")


def shows(marker: str, text: str) -> bool:
    """`marker` as a whole token: a numeric sentinel such as 98106 can occur by chance
    inside a random hex token (the forms' one-time client_token), which is no leak."""
    return slug_pattern(marker).search(text) is not None


# Pages whose text is the same for every visitor and holds nothing of any campaign (the
# view reads no campaign): How to play speaks of a "treasury" (part 10, R99), which is also a
# demo department's slug. The names, markers and secrets are still searched there.
PROSE_PAGES = ("/rules/",)


def leaks(
    text: str,
    levels: dict[str, int],
    markers: dict[str, list[str]],
    *,
    allowed_names: Iterable[str] = (),
    secrets: Iterable[str] = (),
    url: str = "",
) -> list[str]:
    """Everything in `text` that `levels` hides (R50), and any of `secrets` (R23).
    `allowed_names`: departments a rule outside R50 names to this player (R46: the
    attacker's department is told to the defender) -- their name only, nothing else.
    `url`: the page's path; on a PROSE_PAGES page a slug that is an English word is prose."""
    plain = html.unescape(text)
    allowed = set(allowed_names)
    prose = url.split("?")[0] in PROSE_PAGES
    found = []
    for slug, level in levels.items():
        if level == UNKNOWN and slug not in allowed and NAMES[slug] in plain:
            found.append(f"name of unknown {slug}")
        if level < KNOWN and not prose and slug_pattern(slug).search(plain):
            found.append(f"slug of {slug} (level {level})")
        if level < KNOWN and f"DESC-{slug}-SENTINEL" in plain:
            found.append(f"card (description) of {slug} (level {level})")
        if level < CONTROLLED:
            found += [f"{m} of {slug} (level {level})" for m in markers[slug] if shows(m, plain)]
    # A numeric secret (a goal's figure) as a whole number, as `shows` does for the markers:
    # 93100 occurs by chance inside a hex commitment or an ISO time's microseconds. A seed or a
    # text anywhere in the page.
    found += [
        f"secret {s[:12]}…"
        for s in secrets
        if s and (shows(s, plain) if s.isdigit() else s in plain)
    ]
    return found


def open_seed(campaign: Campaign) -> str:
    return campaign.turns.get(status=Turn.Status.OPEN).seed


def intrigue_markers(campaign: Campaign) -> dict[str, tuple[list[str], list[str]]]:
    """RULES parts 7-8 secrets (R50, R51, R60, R61, R71, R72): username -> (what that player
    may read: their own shticks' text, their goals' figures, their opened sealed envelopes
    and the intel envelopes in their dossier; what they must never read: every other one,
    their own envelopes still sealed or unopened among them). Read from the rows, not the
    selectors; a goal's figures count only where they are sentinels (above 9000)."""
    from campaigns.models import (
        ContingencyEnvelope,
        DossierEntry,
        Goal,
        GoalProgress,
        IntelEnvelope,
        Shtick,
    )

    mine: dict[str, set[str]] = {p: set() for p in PLAYERS}
    every: set[str] = set()
    of = {"member__campaign": campaign}
    for shtick in Shtick.objects.filter(kind="text", **of).select_related("member__user"):
        every.add(shtick.data["text"])
        mine[shtick.member.user.username].add(shtick.data["text"])
    for goal in Goal.objects.filter(**of).select_related("member__user"):
        figures = {str(goal.data.get("n"))} | {
            str(p.value) for p in GoalProgress.objects.filter(goal=goal)
        }
        figures = {f for f in figures if f.isdigit() and int(f) > 9000}
        every |= figures
        mine[goal.member.user.username] |= figures
    for sealed in ContingencyEnvelope.objects.filter(**of).select_related("member__user"):
        every.add(sealed.text)
        if sealed.opened_turn_id is not None:
            mine[sealed.member.user.username].add(sealed.text)
    every |= set(
        IntelEnvelope.objects.filter(department__board__campaign=campaign).values_list(
            "text", flat=True
        )
    )
    for entry in DossierEntry.objects.filter(**of).select_related("member__user", "envelope"):
        mine[entry.member.user.username].add(entry.envelope.text)
    return {p: (sorted(mine[p]), sorted(every - mine[p])) for p in PLAYERS}


def every_intrigue_secret(campaign: Campaign) -> list[str]:
    """Every secret of `intrigue_markers`: what only the GM reads all of (R50)."""
    own, others = intrigue_markers(campaign)[PLAYERS[0]]
    return sorted({*own, *others})

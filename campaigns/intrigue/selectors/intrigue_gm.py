"""What the GM's pages of RULES parts 7 and 8 read (the GM sees everything, R50): one shtick,
goal or envelope of a character or a department by its id (None for anything else, which the
web layer answers with 404), and a department's intel envelopes with who opened them."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Goal,
    IntelEnvelope,
    Membership,
    Shtick,
)


def shtick_of(member: Membership, pk: int) -> Shtick | None:
    return Shtick.objects.filter(member=member, pk=pk).select_related("member").first()


def goal_of(member: Membership, pk: int) -> Goal | None:
    return Goal.objects.filter(member=member, pk=pk).select_related("member").first()


def contingency_of(member: Membership, pk: int) -> ContingencyEnvelope | None:
    return ContingencyEnvelope.objects.filter(member=member, pk=pk).select_related("member").first()


def envelope_of(department: Department, pk: int) -> IntelEnvelope | None:
    rows = IntelEnvelope.objects.filter(department=department, pk=pk)
    return rows.select_related("department__board__campaign").first()


def department_in(campaign: Campaign, pk: int | None) -> Department | None:
    """A department of the campaign by id (a form's choice), or None."""
    if pk is None:
        return None
    return (
        Department.objects.filter(board__campaign=campaign, pk=pk).select_related("board").first()
    )


def players_of(campaign: Campaign) -> list[Membership]:
    """The campaign's players, by name (who an envelope may be addressed to)."""
    rows = Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER)
    return list(rows.select_related("user").order_by("user__username", "pk"))


@dataclass(frozen=True)
class Opening:
    player: str
    turn: int


@dataclass(frozen=True)
class EnvelopeLine:
    """R71: an intel envelope as the GM sees it. `audience` None: any player."""

    pk: int
    text: str
    target: int
    audience: list[str] | None
    grants: int | None
    openings: list[Opening]


def department_envelopes(department: Department) -> list[EnvelopeLine]:
    """R71: the department's intel envelopes, oldest first, with who opened each and when.
    Three queries, whatever the number of envelopes, readers and openings."""
    envelopes = list(
        IntelEnvelope.objects.filter(department=department)
        .prefetch_related("audience__user")
        .order_by("pk")
    )
    openings: dict[int, list[Opening]] = {}
    entries = DossierEntry.objects.filter(envelope__in=envelopes).select_related(
        "member__user", "turn"
    )
    for entry in entries.order_by("turn__number", "pk"):
        openings.setdefault(entry.envelope_id, []).append(
            Opening(entry.member.display_name, entry.turn.number)
        )
    return [
        EnvelopeLine(
            e.pk,
            e.text,
            e.target,
            None if e.everyone else [m.display_name for m in e.audience.all()],
            e.grants,
            openings.get(e.pk, []),
        )  # fmt: skip
        for e in envelopes
    ]

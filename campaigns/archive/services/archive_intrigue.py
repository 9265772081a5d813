"""The rows of RULES parts 7-9 made from a campaign archive (archive/selectors/archive_intrigue.py
writes them; archive/services/archive.py runs the import in one transaction). An archive of version
1 has none of them.

Envelopes, goals and offices are made before the turns (the turns' records name them: their
new ids go into `names.pks`, so the records are swapped to them), and what names a turn or an
order after the turns: dossier entries, goal progress, contingency envelopes opened in a
turn, elections."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from campaigns.archive.selectors.archive_ids import ArchiveNames, swap_election
from campaigns.models import (
    Board,
    Campaign,
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    Goal,
    GoalProgress,
    IntelEnvelope,
    Membership,
    Office,
    Shtick,
    Turn,
)

# (row, its auto-set fields, their values in the archive): restored once every row exists.
Later = Callable[[Any, list[str], dict[str, Any]], None]
When = Callable[[Any], dt.datetime | None]


class IntrigueRows:
    def __init__(
        self,
        archive: dict[str, Any],
        members: dict[str, Membership],
        boards: dict[str, Board],
        departments: dict[tuple[str, str], Department],
        names: ArchiveNames,
        when: When,
    ) -> None:
        self.archive = archive
        self.members = members
        self.boards = boards
        self.departments = departments
        self.names = names
        self.when = when

    def department(self, named: list[str] | None) -> Department | None:
        return self.departments[(named[0], named[1])] if named else None

    def created(self, row: Any, entry: dict[str, Any], later: Later) -> None:
        later(row, ["created_at"], {"created_at": self.when(entry["created_at"])})

    def before_turns(self, later: Later) -> None:
        """Shticks, goals, envelopes and offices, with the new ids of their references."""
        pks = self.names.pks
        for entry in self.archive.get("shticks", []):
            row = Shtick.objects.create(
                member=self.members[entry["player"]], kind=entry["kind"], data=entry["data"],
                department=self.department(entry["department"]),
            )  # fmt: skip
            self.created(row, entry, later)
        for entry in self.archive.get("goals", []):
            row = Goal.objects.create(
                member=self.members[entry["player"]], kind=entry["kind"], data=entry["data"],
                count=entry["count"],
            )  # fmt: skip
            pks.setdefault("g", {})[entry["ref"]] = row.pk
            self.created(row, entry, later)
        for entry in self.archive.get("envelopes", []):
            row = IntelEnvelope.objects.create(
                department=self.department(entry["department"]), text=entry["text"],
                target=entry["target"], everyone=entry["everyone"], grants=entry["grants"],
            )  # fmt: skip
            row.audience.set([self.members[name] for name in entry["audience"]])
            pks.setdefault("e", {})[entry["ref"]] = row.pk
            self.created(row, entry, later)
        for entry in self.archive.get("offices", []):
            board = entry["board"]
            row = Office.objects.create(
                board=self.boards[board], name=entry["name"],
                alignment=entry["alignment"], shticks=entry["shticks"],
                holder=self.department([board, entry["holder"]] if entry["holder"] else None),
                deputy=self.department([board, entry["deputy"]] if entry["deputy"] else None),
            )  # fmt: skip
            pks.setdefault("o", {})[entry["ref"]] = row.pk
            self.created(row, entry, later)

    def after_turns(self, campaign: Campaign, later: Later) -> None:
        """Dossier entries, goal progress, contingency envelopes, elections."""
        turns = {t.number: t for t in Turn.objects.filter(campaign=campaign)}
        pks, orders = self.names.pks, self.names.order_pk
        for entry in self.archive.get("envelopes", []):
            DossierEntry.objects.bulk_create(
                DossierEntry(
                    member=self.members[d["player"]], envelope_id=pks["e"][entry["ref"]],
                    turn=turns[d["turn"]], order_id=orders.get(d["order"]) if d["order"] else None,
                )
                for d in entry["dossier"]
            )  # fmt: skip
        for entry in self.archive.get("goals", []):
            GoalProgress.objects.bulk_create(
                GoalProgress(goal_id=pks["g"][entry["ref"]], turn=turns[p["turn"]],
                             value=p["value"], met=p["met"])
                for p in entry["progress"]
            )  # fmt: skip
        for entry in self.archive.get("contingencies", []):
            opened = entry["opened_turn"]
            row = ContingencyEnvelope.objects.create(
                member=self.members[entry["player"]], text=entry["text"],
                condition=entry["condition"], turn_number=entry["turn_number"],
                date=self.when(entry["date"]), department=self.department(entry["department"]),
                level=entry["level"], opened_turn=turns[opened] if opened is not None else None,
            )  # fmt: skip
            self.created(row, entry, later)
        for entry in self.archive.get("offices", []):
            for held in entry["elections"]:
                result = held["result"]
                row = Election.objects.create(
                    campaign=campaign, office_id=pks["o"][entry["ref"]], number=held["turn"],
                    result=swap_election(result, self.names) if result else None,
                )  # fmt: skip
                self.created(row, held, later)

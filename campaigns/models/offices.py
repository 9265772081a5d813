"""Offices and elections (RULES R80): per board, an office with an alignment and shticks,
held by a department of that board and its deputy; the GM schedules an election for an
office on a turn (by number: the open one or a later one), and the turn job keeps the result
(the engine's report.election) with it.

One election per turn in a campaign: ENGINE.md's state holds one `election`, and the turn
job resolves every board of a campaign in one engine call (services/turns.py), so a turn can
hold one election. (That is also at most one per board per turn.)"""

from __future__ import annotations

from django.db import models

from .board import Board, Department
from .campaign import Campaign, engine_ref
from .fields import JSONField


class Office(models.Model):
    """R80: `alignment` names an alignment of the campaign's catalogue; `shticks` are
    ENGINE.md shtick objects (a shtick naming a department names one of this board by slug);
    `holder` and `deputy` are departments of this board, or none."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="offices")
    name = models.CharField(max_length=120)
    alignment = models.CharField(max_length=40)
    shticks = JSONField(default=list, blank=True)
    holder = models.ForeignKey(
        Department, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deputy = models.ForeignKey(
        Department, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def engine_id(self) -> str:
        return engine_ref("o", self.pk)


class Election(models.Model):
    """R80: an election for `office` in turn `number` of the campaign (that turn may not be
    open yet: the GM schedules ahead). `result` is the engine's report.election (slugs of the
    office's board) once that turn is processed, None before, and None again after the turn
    is undone (R52: the election stays scheduled). `campaign` is the office's board's, kept
    here so the database holds one election per turn of a campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="elections")
    office = models.ForeignKey(Office, on_delete=models.CASCADE, related_name="elections")
    number = models.PositiveIntegerField()
    result = JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_election_per_turn")
        ]

    def __str__(self) -> str:
        return f"election for {self.office} in turn {self.number}"

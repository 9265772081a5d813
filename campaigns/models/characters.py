"""What the GM gives a player's character beside their structures (RULES R60, R61): shticks
and secret goals, and each goal's progress per processed turn.

Each row keeps its ENGINE.md object as JSON, checked by the engine's own parser when the GM
saves it (intrigue/services/characters.py), never by a second copy of the rules; the turn job hands
them to the engine (selectors/state_beyond_boards.py) and writes back what the engine
changed (a goal's `attempts_won` count, the progress of every goal)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .board import Department
from .campaign import Membership, engine_ref
from .fields import JSONField
from .turn import Turn


class Shtick(models.Model):
    """R60: one shtick of a player's character: a catalogue shtick (`data` is the ENGINE.md
    object) or narrative text (kind `text`, `data` {"kind": "text", "text": ...}). A shtick
    that names a department keeps it in `department` as well; the state is built from that
    column, so a department whose slug the GM changes keeps its shticks."""

    class Kind(models.TextChoices):
        PRODUCTION = "production", _("More production")
        DICE = "dice", _("More dice")
        SKILL = "skill", _("More skill")
        ATTEMPTS = "attempts", _("More linking attempts")
        LINK_LIMIT = "link_limit", _("Raised link limit")
        CROSS_BOARD = "cross_board", _("Linking across two boards")
        PERCEPTION = "perception", _("More Perception")
        TEXT = "text", _("Narrative")

    member = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="shticks")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    data = JSONField()
    department = models.ForeignKey(
        Department, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["member", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.member_id}"


class Goal(models.Model):
    """R61: one secret goal of a player. `data` holds the ENGINE.md goal's own fields (`n`,
    and `alignment`, `type` or `stat` where the kind needs one); `count` is an
    `attempts_won` goal's running count of successful attempts in processed turns."""

    class Kind(models.TextChoices):
        CONTROL = "control", _("Control departments")
        CONTROL_ALIGNED = "control_aligned", _("Control departments of an alignment")
        HOLD = "hold", _("Hold tokens of a type")
        STAT_TOTAL = "stat_total", _("A total of a stat")
        ATTEMPTS_WON = "attempts_won", _("Successful linking attempts")

    member = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="goals")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    data = JSONField()
    count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["member", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.data.get('n')}) of {self.member_id}"

    @property
    def engine_id(self) -> str:
        return engine_ref("g", self.pk)


class GoalProgress(models.Model):
    """R61: a goal's progress after one processed turn, as the engine counted it."""

    goal = models.ForeignKey(Goal, on_delete=models.CASCADE, related_name="progress")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="goal_progress")
    value = models.IntegerField()
    met = models.BooleanField()

    class Meta:
        ordering = ["goal", "turn"]
        constraints = [
            models.UniqueConstraint(fields=["goal", "turn"], name="one_progress_per_goal_turn")
        ]

    def __str__(self) -> str:
        return f"goal {self.goal_id} after {self.turn}: {self.value}"

"""Turns, queued orders and the record of each processed turn (RULES R23, R31, R40)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .board import Board
from .campaign import Campaign, Membership
from .fields import JSONField


class Turn(models.Model):
    """One week. Instants are stored in UTC; `seed` stays secret until the turn is
    processed, `commitment` (sha256 of it) is public from the start (R23)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open for orders")
        PROCESSED = "processed", _("Processed")
        FAILED = "failed", pgettext_lazy("a turn the turn job could not process", "Failed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    opened_at = models.DateTimeField()
    deadline = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    processed_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # R31 step 4: set by the transaction that processes the turn, cleared by the one mail
    # task that claims it (services/turn_mail.py), so the turn's mail goes out once.
    # A default in the database too: code of the release before still inserts turns while
    # the migration runs.
    mail_owed = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_turn_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} turn {self.number}"

    @property
    def seed_if_published(self) -> str | None:
        """R23: the seed is shown only once the turn has been resolved."""
        return self.seed if self.status == self.Status.PROCESSED else None


class Order(models.Model):
    """R40: one queued order; `payload` holds the ENGINE.md fields of its kind."""

    class Kind(models.TextChoices):
        ADD_LINK = "add_link", _("Add link")
        BREAK_LINK = "break_link", _("Break link")
        PRIORITY = "priority", _("Funding priority")
        MOVE = "move", _("Move")
        ATTEMPT = "attempt", _("Linking attempt")
        REINFORCE = "reinforce", _("Reinforcement")
        FUNCTION = "function", _("Function roll")
        # ENGINE.md parts 7-9 (RULES R62, R70, R80).
        PERCEIVE = "perceive", _("Perception check")
        GIFT = "gift", _("Gift")
        HANDOVER = "handover", _("Hand-over")
        ACCEPT = "accept", _("Accept a hand-over")
        NOMINATE = "nominate", _("Nomination")
        RUNNING_MATE = "running_mate", _("Running mate")
        SUPPORT = "support", _("Election support")
        VOTE = "vote", _("Vote")
        # ENGINE.md part 10 (RULES R94-R97), on classic boards only. A gift and an accept
        # there are not those of parts 7-9 (other fields, other rules): their own values,
        # which the classic engine call names by the engine's kinds (CLASSIC_ENGINE_KINDS).
        CLASSIC_ATTACK = "attack", _("Attack")
        CLASSIC_PASS = "pass", _("Pass")
        CLASSIC_TRANSFER = "transfer", _("Transfer of megabucks")
        CLASSIC_GIFT = "mb_gift", _("Gift of megabucks")
        CLASSIC_DROP = "drop", _("Drop a group")
        CLASSIC_MOVE = "move_group", _("Move a group")
        CLASSIC_DEFEND = "defend", _("Standing defence of a group")
        CLASSIC_INTERFERE = "interfere", _("Interference")
        CLASSIC_GIVE = "give_group", _("Give a group")
        CLASSIC_ACCEPT = "group_accept", _("Accept a group")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        CANCELLED = "cancelled", _("Cancelled")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")
        REJECTED = "rejected", _("Rejected")

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="orders")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="orders")
    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="orders")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    payload = JSONField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = JSONField(default=dict, blank=True)
    # The form's one-time token: a form posted twice stores one order.
    client_token = models.CharField(max_length=64, blank=True)
    # R45: what the GM says a function roll meant in the world; shown to the player once
    # published.
    gm_note = models.TextField(blank=True, max_length=5000)
    gm_note_published = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["turn", "player", "seq", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "client_token"],
                condition=~models.Q(client_token=""),
                name="one_order_per_form_token",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.get_status_display()})"

    @property
    def engine_id(self) -> str:
        """The order id in roll keys (R23) and reports: the database id, so it is unique."""
        return str(self.pk)


# The site's classic kinds whose value is not the engine's (ENGINE.md part 10).
CLASSIC_ENGINE_KINDS = {Order.Kind.CLASSIC_GIFT: "gift", Order.Kind.CLASSIC_ACCEPT: "accept"}


class TurnRecord(models.Model):
    """What one board looked like after a processed turn, in the ENGINE.md format, and
    what happened (the resolve and spawn-consume reports).

    RULES R51-R53 read history from here, never by recomputing it:
    - `state`: the board after the turn (after spawn and consume: what turn N+1 starts from);
    - `before`: the board as the turn job read it, before the orders (GM changes since the
      last turn included), so a rollback (R52) restores exactly that and the history can
      tell a GM change (previous `state` -> this `before`) from the turn's own events;
    - `knowledge` / `knowledge_before`: each member's stored R50 level per department slug,
      `{"<membership id>": {"<slug>": level}}`, at the end of the turn and before it. A
      player's `controlled` is not stored: it follows the structure in the state."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="records")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="records")
    state = JSONField()
    report = JSONField()
    before = JSONField(default=dict, blank=True)
    knowledge = JSONField(default=dict, blank=True)
    knowledge_before = JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "board"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "board"], name="one_record_per_board_turn")
        ]

    def __str__(self) -> str:
        return f"{self.turn} on {self.board}"

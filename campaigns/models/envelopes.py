"""Sealed envelopes (RULES R71, R72): intel the GM attaches to a department, which a
perception check opens (R70), each player's dossier of what they opened, and contingency
envelopes, sealed messages to one player that the turn job opens once their condition has
come true."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .board import Department, Knowledge
from .campaign import Campaign, Membership, engine_ref
from .turn import Order, Turn

# R71: what an envelope may grant (never `controlled`: that follows the structure, R50).
GRANTS = [
    (Knowledge.Level.RUMOURED.value, Knowledge.Level.RUMOURED.label),
    (Knowledge.Level.KNOWN.value, Knowledge.Level.KNOWN.label),
]


class IntelEnvelope(models.Model):
    """R71: a secret attached to a department. A perception check whose total meets `target`
    opens it for the checking player if it is addressed to everyone or to them; it may raise
    what they know of the department to `grants`. `audience` counts only when `everyone` is
    off (so an envelope for named players whose names all left stays closed to others)."""

    department = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="envelopes")
    # The department's campaign, which never changes (a department stays on its campaign's
    # boards), kept here so "has this campaign any envelopes?", asked before every order
    # check (selectors/state_beyond_boards.py `present`), is one index lookup: through the
    # department PostgreSQL could walk every department of the campaign to answer it. save()
    # fills it.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="+", editable=False
    )
    text = models.TextField(max_length=4000)
    target = models.PositiveSmallIntegerField()
    everyone = models.BooleanField(default=True)
    audience = models.ManyToManyField(Membership, blank=True, related_name="+")
    grants = models.IntegerField(null=True, blank=True, choices=GRANTS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["department", "pk"]

    def __str__(self) -> str:
        return f"envelope {self.pk} on {self.department_id} (target {self.target})"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.campaign_id is None:
            self.campaign_id = self.department.board.campaign_id
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def engine_id(self) -> str:
        return engine_ref("e", self.pk)


class DossierEntry(models.Model):
    """R71: an envelope a player opened, in the turn it opened (once: opening it again
    changes nothing). `order` is the perception check that opened it."""

    member = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="dossier")
    envelope = models.ForeignKey(IntelEnvelope, on_delete=models.CASCADE, related_name="openings")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="dossier_entries")
    order = models.ForeignKey(
        Order, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["member", "turn", "envelope"]
        constraints = [
            models.UniqueConstraint(fields=["member", "envelope"], name="one_opening_per_envelope")
        ]

    def __str__(self) -> str:
        return f"{self.member_id} opened envelope {self.envelope_id} in {self.turn}"


class ContingencyEnvelope(models.Model):
    """R72: a sealed message to one player, opened by the turn job (exactly once, in
    `opened_turn`) at the first processed turn after which its condition is true:

    - `turn`: turn `turn_number` has been processed (or a later one);
    - `date`: a turn was processed at or after `date`;
    - `joins` / `leaves`: `department` joined / left the player's structure in that turn;
    - `attempt_by` / `attempt_on`: a linking attempt by / on `department` was made in that
      turn (resolved, whether it succeeded or failed; a rejected order attempted nothing);
    - `knowledge`: the player knows `department` at least at `level` after that turn.

    The test itself is engine/contingency.py."""

    class Condition(models.TextChoices):
        TURN = "turn", _("A turn is processed")
        DATE = "date", _("A date has passed")
        JOINS = "joins", _("A department joins their structure")
        LEAVES = "leaves", _("A department leaves their structure")
        ATTEMPT_BY = "attempt_by", _("A linking attempt by a department")
        ATTEMPT_ON = "attempt_on", _("A linking attempt on a department")
        KNOWLEDGE = "knowledge", _("They come to know a department")

    member = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="contingencies")
    text = models.TextField(max_length=4000)
    condition = models.CharField(max_length=12, choices=Condition.choices)
    turn_number = models.PositiveIntegerField(null=True, blank=True)
    date = models.DateTimeField(null=True, blank=True)
    department = models.ForeignKey(
        Department, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    level = models.IntegerField(null=True, blank=True, choices=Knowledge.Level.choices)
    opened_turn = models.ForeignKey(
        Turn, null=True, blank=True, on_delete=models.SET_NULL, related_name="contingencies_opened"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["member", "pk"]

    def __str__(self) -> str:
        return f"contingency {self.pk} for {self.member_id} ({self.condition})"

    @property
    def engine_id(self) -> str:
        return engine_ref("c", self.pk)

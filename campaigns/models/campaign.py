"""Campaigns, who is in them, and the alignment catalogue (RULES R1, R5, R30)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(
            _("%(value)s is not an IANA time zone (e.g. Europe/Berlin)"),
            params={"value": repr(value)},
        )


def default_deadline_time() -> dt.time:
    """18:00, given as a function: Django's check warns of a fixed time default (W161)
    whenever a command runs within ten seconds of that time of day."""
    return dt.time(18, 0)


# R30: the bounds of a campaign's minimum turn length, in hours. At least an hour, so the
# turn after an early processing is never already due; at most a week, the length of a
# regular turn.
MIN_TURN_HOURS = (1, 168)


def validate_min_turn_hours(value: int) -> None:
    """The GM's form and an archive's import both hold the setting to MIN_TURN_HOURS."""
    low, high = MIN_TURN_HOURS
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(
            _(
                "The minimum turn length is a whole number of hours from %(low)s to %(high)s "
                "(a week); %(value)s is not."
            ),
            params={"low": low, "high": high, "value": value},
        )


class Weekday(models.IntegerChoices):
    MONDAY = 0, _("Monday")
    TUESDAY = 1, _("Tuesday")
    WEDNESDAY = 2, _("Wednesday")
    THURSDAY = 3, _("Thursday")
    FRIDAY = 4, _("Friday")
    SATURDAY = 5, _("Saturday")
    SUNDAY = 6, _("Sunday")


class Campaign(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    class PressRules(models.TextChoices):
        """What players may say to each other on the site (R62: deals are made by talking)."""

        FULL = "full", _("Full press: private conversations and the public channel")
        PUBLIC = "public", _("Public only: the public channel, no private conversations")
        NONE = "none", _("No press: players write nothing; the GM's announcements only")
        GREY = "grey", _("Grey press: like full press, but receivers do not see the sender")

    name = models.CharField(max_length=120)
    slug = models.SlugField(unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # R30: the weekly deadline, in the GM's own time zone.
    deadline_weekday = models.IntegerField(choices=Weekday.choices, default=Weekday.FRIDAY)
    deadline_time = models.TimeField(default=default_deadline_time)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # R30: after a turn processed early, the next turn is due at the first weekly deadline at
    # least this many hours after it opens (services/schedule.py).
    min_turn_hours = models.PositiveSmallIntegerField(
        default=72, validators=[validate_min_turn_hours]
    )
    # R11, R43, R46 campaign settings.
    max_out_links = models.PositiveSmallIntegerField(default=2)
    max_in_links = models.PositiveSmallIntegerField(default=2)
    attempts_per_turn = models.PositiveSmallIntegerField(default=1)
    attempt_cutoff_hours = models.PositiveSmallIntegerField(default=24)
    # Process the turn early once every player has marked their orders ready (after a
    # short grace period, so a last-second change of mind is still possible).
    early_processing = models.BooleanField(default=False)
    # Remind players who have queued nothing this long before the deadline.
    reminder_hours = models.PositiveSmallIntegerField(default=24)
    # R51: once the GM opens a finished campaign, every member sees everything of every turn.
    opened = models.BooleanField(default=False)
    # R98: after a classic board's win the GM ends the campaign or plays on; playing on after
    # turn N's win stores N, so the campaign page stops asking about that win (a later
    # turn's win asks again). Null: never played on.
    played_on_after = models.PositiveIntegerField(null=True, blank=True)
    press_rules = models.CharField(
        max_length=10, choices=PressRules.choices, default=PressRules.FULL
    )
    # Whether the GM may read private conversations they are not in (players are told).
    gm_reads_press = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign", args=[self.slug])

    def engine_settings(self) -> dict[str, int]:
        return {
            "max_out_links": self.max_out_links,
            "max_in_links": self.max_in_links,
            "attempts_per_turn": self.attempts_per_turn,
        }


def engine_player_id(membership_pk: int) -> str:
    """The player id the engine knows a player's structures and orders by (ENGINE.md)."""
    return f"p{membership_pk}"


def membership_pk_of(player_id: str | None) -> int | None:
    """The membership behind an engine player id (`engine_player_id` read back), or None."""
    if not player_id or not player_id.startswith("p") or not player_id[1:].isdigit():
        return None
    return int(player_id[1:])


def engine_ref(prefix: str, pk: int) -> str:
    """The id an envelope ("e"), goal ("g") or office ("o") has in an ENGINE.md state."""
    return f"{prefix}{pk}"


def pk_of_ref(prefix: str, ref: object) -> int | None:
    """`engine_ref` read back: the row id, or None for anything else."""
    if not isinstance(ref, str) or not ref.startswith(prefix):
        return None
    digits = ref[len(prefix) :]
    return int(digits) if digits.isdigit() else None


# R70: the most Perception the GM may give a character (web/members_forms.py; an archive's
# import holds to it too). Shticks add to it in play.
PERCEPTION_MAX = 20


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("Game master")
        PLAYER = "player", _("Player")
        OBSERVER = "observer", _("Observer")
        # Removed by the GM: kept so the campaign's history keeps their orders and
        # name, but they no longer reach the campaign (selectors/pages.py).
        REMOVED = "removed", _("Removed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    character_name = models.CharField(max_length=120, blank=True)
    perception = models.PositiveSmallIntegerField(default=0, help_text=_("R70, set by the GM"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def player_id(self) -> str:
        """The player id the engine knows this player's structures by (ENGINE.md)."""
        return engine_player_id(self.pk)

    @property
    def display_name(self) -> str:
        return self.name_of(self.character_name, self.user.get_username())

    @staticmethod
    def name_of(character_name: str, username: str) -> str:
        """The name a member goes by: their character's, else their username (for rows read
        as plain values, where there is no Membership to ask)."""
        return character_name or username


class Alignment(models.Model):
    """R5: one entry of a campaign's catalogue; `opposite` is symmetric by convention and
    stored on one side only (the engine completes the pair)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="alignments")
    name = models.CharField(max_length=40)
    opposite = models.CharField(max_length=40, blank=True)
    self_opposed = models.BooleanField(default=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_alignment_name")
        ]

    def __str__(self) -> str:
        return self.name

    def as_engine(self) -> dict[str, object]:
        entry: dict[str, object] = {"name": self.name}
        if self.opposite:
            entry["opposite"] = self.opposite
        if self.self_opposed:
            entry["self_opposed"] = True
        return entry

"""Boards, departments, links, structures and knowledge (RULES R2, R4, R10-R14, R50)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .campaign import Campaign, Membership
from .fields import JSONField


class Resource(models.TextChoices):
    MONEY = "money", _("Money")
    PEOPLE = "people", _("People")
    AUTHORITY = "authority", _("Authority")


class Board(models.Model):
    class Ruleset(models.TextChoices):
        """R90: what a board holds and how it is played, chosen when the board is made and
        never changed after (no form or service offers to change it: a board's rows or its
        classic state would not fit the other ruleset)."""

        STANDARD = "standard", _("Illumineaucracy (departments, RULES parts 1-9)")
        CLASSIC = "classic", _("Classic (groups, after the card game Illuminati, RULES part 10)")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="boards")
    name = models.CharField(max_length=120)
    slug = models.SlugField()
    # A default in the database too: code of the release before still inserts boards while
    # the migration runs.
    ruleset = models.CharField(
        max_length=10, choices=Ruleset.choices, default=Ruleset.STANDARD, db_default="standard"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "slug"], name="unique_board_slug")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_classic(self) -> bool:
        return self.ruleset == self.Ruleset.CLASSIC


class Structure(models.Model):
    """R13: one player's departments on one board."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="structures")
    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="structures")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="one_structure_per_board")
        ]

    def __str__(self) -> str:
        return f"{self.player.display_name} on {self.board}"


class Department(models.Model):
    """R4: one card. Stash, `moved`, standing defence (R47) and the last spawn-consume's
    figures (R34-R36) are columns so the turn job reads and writes them in bulk."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="departments")
    slug = models.SlugField()
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=4000)
    effect = models.PositiveSmallIntegerField(default=0)
    obstruct = models.PositiveSmallIntegerField(default=0)
    impress = models.PositiveSmallIntegerField(default=0)
    consumes_type = models.CharField(max_length=10, choices=Resource.choices, blank=True)
    consumes_amount = models.PositiveSmallIntegerField(default=0)
    produces_type = models.CharField(max_length=10, choices=Resource.choices, blank=True)
    produces_amount = models.PositiveSmallIntegerField(default=0)
    functions = JSONField(default=dict, blank=True, help_text=_('{"name": skill}'))
    alignments = JSONField(default=list, blank=True)
    flaws = models.TextField(
        blank=True, max_length=1000, help_text=_("Tragic flaws: plot hooks, no mechanics")
    )
    structure = models.ForeignKey(
        Structure, null=True, blank=True, on_delete=models.SET_NULL, related_name="departments"
    )
    home = models.BooleanField(default=False)
    money = models.PositiveIntegerField(default=0)
    people = models.PositiveIntegerField(default=0)
    authority = models.PositiveIntegerField(default=0)
    moved = JSONField(default=dict, blank=True)
    defence = JSONField(default=dict, blank=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, blank=True)
    chain_length = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["board", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["board", "slug"], name="unique_department_slug")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def stash(self) -> dict[str, int]:
        return {"money": self.money, "people": self.people, "authority": self.authority}


class Link(models.Model):
    """R10-R12: supplier -> consumer, ranked among the supplier's links (0 fed first)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="links")
    supplier = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="out_links")
    consumer = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="in_links")
    priority = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["supplier", "priority"]
        constraints = [
            models.UniqueConstraint(fields=["supplier", "consumer"], name="no_duplicate_links")
        ]

    def __str__(self) -> str:
        return f"{self.supplier.slug} -> {self.consumer.slug}"


class Knowledge(models.Model):
    """R50: what one player knows of one department. Missing means unknown."""

    class Level(models.IntegerChoices):
        UNKNOWN = 0, _("unknown")
        RUMOURED = 1, _("rumoured")
        KNOWN = 2, _("known")
        CONTROLLED = 3, _("controlled")

    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="knowledge")
    department = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="knowledge")
    level = models.IntegerField(choices=Level.choices, default=Level.UNKNOWN)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "department"], name="one_level_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.player.display_name}: {self.department} {self.get_level_display()}"

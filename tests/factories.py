"""factory_boy factories for the campaign models, for every test package.

Each factory makes a valid, minimal row and builds whatever it points at, keeping related
rows in one campaign: `StructureFactory()` makes a board and a player of the same campaign,
`KnowledgeFactory(department=d)` a player of d's campaign. Pass what a test cares about and
let the rest default:

    gm = MembershipFactory(role=Membership.Role.GM, user__username="gm")
    board = BoardFactory(campaign=gm.campaign)
    mint = DepartmentFactory(board=board, structure=StructureFactory(board=board))
"""

from __future__ import annotations

import datetime as dt
import secrets

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.engine.dice import commitment
from campaigns.models import (
    Board,
    Campaign,
    Department,
    Knowledge,
    Link,
    Membership,
    Resource,
    Structure,
    Turn,
)

PASSWORD = "tourmaline"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    slug = factory.Sequence(lambda n: f"campaign-{n}")
    time_zone = "Europe/Berlin"


class MembershipFactory(factory.django.DjangoModelFactory):
    """A player by default; `role=Membership.Role.GM` for a GM."""

    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER
    character_name = factory.LazyAttribute(lambda m: f"{m.user.username.title()} the Player")


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Board

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Board {n}")
    slug = factory.Sequence(lambda n: f"board-{n}")


class StructureFactory(factory.django.DjangoModelFactory):
    """R13: a player's structure; the player is in the board's campaign."""

    class Meta:
        model = Structure

    board = factory.SubFactory(BoardFactory)
    player = factory.SubFactory(
        MembershipFactory, campaign=factory.SelfAttribute("..board.campaign")
    )


class DepartmentFactory(factory.django.DjangoModelFactory):
    """R4: a card that consumes 1 Money and produces 2 People; uncontrolled, empty stash."""

    class Meta:
        model = Department

    board = factory.SubFactory(BoardFactory)
    slug = factory.Sequence(lambda n: f"dept-{n}")
    name = factory.Sequence(lambda n: f"Department {n}")
    description = factory.LazyAttribute(lambda d: f"{d.name}, a department.")
    effect = 1
    obstruct = 1
    impress = 1
    consumes_type = Resource.MONEY
    consumes_amount = 1
    produces_type = Resource.PEOPLE
    produces_amount = 2
    functions = factory.LazyFunction(lambda: {"paperwork": 1})
    alignments = factory.LazyFunction(lambda: ["Straight"])


class LinkFactory(factory.django.DjangoModelFactory):
    """R10: supplier -> consumer on the supplier's board (legality is the test's business)."""

    class Meta:
        model = Link

    board = factory.SubFactory(BoardFactory)
    supplier = factory.SubFactory(DepartmentFactory, board=factory.SelfAttribute("..board"))
    consumer = factory.SubFactory(DepartmentFactory, board=factory.SelfAttribute("..board"))
    priority = 0


class KnowledgeFactory(factory.django.DjangoModelFactory):
    """R50: what one player knows of one department; `known` by default."""

    class Meta:
        model = Knowledge

    department = factory.SubFactory(DepartmentFactory)
    player = factory.SubFactory(
        MembershipFactory, campaign=factory.SelfAttribute("..department.board.campaign")
    )
    level = Knowledge.Level.KNOWN


class TurnFactory(factory.django.DjangoModelFactory):
    """R23: an open turn with a fresh seed and its commitment, due in a week."""

    class Meta:
        model = Turn

    campaign = factory.SubFactory(CampaignFactory)
    number = 1
    opened_at = factory.LazyFunction(timezone.now)
    deadline = factory.LazyAttribute(lambda t: t.opened_at + dt.timedelta(days=7))
    seed = factory.LazyFunction(lambda: secrets.token_hex(32))
    commitment = factory.LazyAttribute(lambda t: commitment(t.seed))

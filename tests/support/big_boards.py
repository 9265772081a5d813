"""A board of a given size, for the tests that count a page's queries or time its size."""

from __future__ import annotations

from itertools import pairwise

from campaigns.models import Board, Department, Knowledge, Link, Membership
from tests.factories import BoardFactory, MembershipFactory, StructureFactory, TurnFactory


def board_of(size: int) -> Board:
    """A board of `size` departments: a quarter alice's, the rest split between known,
    rumoured and unknown to her, with a chain of links through all of them."""
    board = BoardFactory(slug=f"size-{size}")
    campaign = board.campaign
    TurnFactory(campaign=campaign)
    alice = MembershipFactory(campaign=campaign, user__username=f"alice{size}")
    MembershipFactory(campaign=campaign, user__username=f"gm{size}", role=Membership.Role.GM)
    bob = StructureFactory(board=board)
    mine = StructureFactory(board=board, player=alice)
    departments = Department.objects.bulk_create(
        Department(
            board=board, slug=f"d{i}", name=f"Department {i}", effect=1, obstruct=1, impress=1,
            consumes_type="money", consumes_amount=1, produces_type="money", produces_amount=2,
            functions={"paperwork": 1}, alignments=["Straight"],
            structure=mine if i % 4 == 0 else bob if i % 4 == 1 else None,
        )
        for i in range(size)
    )  # fmt: skip
    Knowledge.objects.bulk_create(
        Knowledge(player=alice, department=d, level=i % 3) for i, d in enumerate(departments)
    )
    Link.objects.bulk_create(
        Link(board=board, supplier=a, consumer=b) for a, b in pairwise(departments)
    )
    return board

"""`manage.py bench_board_import`: time a GM's board import (a board
of 1,000 departments should take seconds), as a JSON board file and as a CSV of
departments, through the same code the import page uses. Prints the seconds and queries of
each; the throw-away campaign is deleted afterwards."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.engine.bench import PLAYERS, random_state
from campaigns.management.benching import vacuum, vacuum_note
from campaigns.models import Campaign, Membership
from campaigns.selectors.board_files import board_csv, board_file, board_from_csv
from campaigns.services.setup import board_import_by_gm, campaign_create


def board_data(size: int) -> dict[str, Any]:
    """The engine's random board of `size` departments as a board file (names added)."""
    state = random_state(size)
    for dept in state["departments"]:
        dept["name"] = f"Department {dept['slug']}"
        dept.pop("capacity", None)
    return {"slug": "bench", "name": f"Bench {size}", **state}


class Command(BaseCommand):
    help = "Time importing a board of --size departments, as JSON and as CSV."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--size", type=int, default=1_000)

    def handle(self, *args: Any, size: int, **options: Any) -> None:
        users = get_user_model().objects
        made = []  # the accounts this run made (it leaves nothing behind)
        gm, new = users.get_or_create(username="bench-gm")
        made += [gm] if new else []
        campaign = campaign_create(user=gm, values={"name": "Board import benchmark"})
        try:
            for name in PLAYERS:
                user, new = users.get_or_create(username=name)
                made += [user] if new else []
                Membership.objects.get_or_create(campaign=campaign, user=user)
            vacuum()
            self.stdout.write(f"({connection.vendor}; {vacuum_note()})")
            data = board_data(size)
            board = self.timed("JSON", size, lambda: board_import_by_gm(
                campaign=campaign, actor=gm, data=data))  # fmt: skip
            text = board_csv(board_file(board))
            self.stdout.write(f"CSV file: {len(text) / 1024:.0f} KB")
            self.timed("CSV", size, lambda: board_import_by_gm(
                campaign=campaign, actor=gm,
                data=board_from_csv(text, slug="bench-csv", name="Bench CSV")))  # fmt: skip
        finally:
            Campaign.objects.filter(pk=campaign.pk).delete()
            users.filter(pk__in=[user.pk for user in made]).delete()

    def timed(self, what: str, size: int, work: Any) -> Any:
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            result = work()
            seconds = time.perf_counter() - began
        self.stdout.write(
            f"{what} import of {size} departments: {seconds:.2f} s, {len(queries)} queries"
        )
        return result

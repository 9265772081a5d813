"""A classic board's contents (RULES R90-R99): the engine's own document, kept whole.

Why one JSON document and not tables like a standard board's departments and links:
- A standard board is stored in rows because pages, forms and the turn job read and write
  single departments (an order names one, the GM edits one, R50 knowledge is kept per
  department, and services/state.py writes back only the rows that changed, by COPY on
  PostgreSQL, on boards of thousands). A classic board is a few dozen cards (the card game
  has about 100) whose places change together: a control attack moves a whole subtree,
  a neutralize empties every treasury under it, the deck is an order, not a column.
- R99 needs no stored knowledge: every card, place and controller is public; the secrets
  (treasuries, goals, the deck's order) are decided by who reads, at read time.
- History already stores whole engine documents: each processed turn's TurnRecord keeps the
  board's state before and after and the engine's report (R51-R52). A classic board is
  snapshotted per turn by the same records, in the same format, so rollback, history and the
  archive read one kind of record; this row is only "the state now", which the turn job
  replaces as a whole and a GM's change (checked by the engine first) replaces as a whole.

`state` is ENGINE.md part 10 without what each engine call adds: `ruleset`, `turn`, `seed`,
`orders` and `alignments` (the campaign's catalogue applies, R5, as on a standard board).
Players are named by their engine ids ("p<membership pk>", models/campaign.py)."""

from __future__ import annotations

from django.db import models

from .board import Board
from .fields import JSONField

# The keys an engine call adds to the stored document (classic/selectors/state.py).
CALL_KEYS = ("ruleset", "turn", "seed", "orders", "alignments")


def empty_classic_state() -> dict[str, object]:
    """A classic board with no players and no groups yet (the engine accepts it)."""
    return {"players": [], "groups": [], "deck": [], "destroyed_by": {}}


class ClassicBoard(models.Model):
    """R90: the state now of a board whose ruleset is classic (see the module's docstring)."""

    board = models.OneToOneField(
        Board, primary_key=True, on_delete=models.CASCADE, related_name="classic"
    )
    state = JSONField(default=empty_classic_state)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"classic state of {self.board}"

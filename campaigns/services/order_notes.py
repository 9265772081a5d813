"""The GM's notes on function rolls (RULES R45)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.models import Order
from campaigns.words import labels


def order_note_set(*, order: Order, note: str, published: bool) -> Order:
    """R45: what a function roll meant in the world; the player sees it once published.
    The note is capped at the model's length (the form says so first)."""
    limit = Order._meta.get_field("gm_note").max_length
    if limit is not None and len(note) > limit:
        raise ValueError(
            _("A note is at most %(limit)s characters.") % {"limit": labels.number(limit)}
        )
    order.gm_note = note
    order.gm_note_published = published and bool(note.strip())
    order.save(update_fields=["gm_note", "gm_note_published", "updated_at"])
    return order

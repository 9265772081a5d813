"""Intel envelopes (RULES R71, ENGINE.md part 7): what the GM attached to a department, and
which of them a perception total opens. The engine neither checks nor changes knowledge
levels (the web layer does); it reports which envelopes opened."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EngineError
from .refusals import refuse
from .values import objects, text, unique_ids, whole


@dataclass(frozen=True, slots=True)
class Envelope:
    """`audience` None: everyone; else the player ids it is addressed to."""

    id: str
    department: str
    target: int
    audience: frozenset[str] | None

    def opens_for(self, player: str, department: str, total: int) -> bool:
        """R71: an envelope of that department whose target the total meets, addressed to
        everyone or to the player."""
        return (
            self.department == department
            and self.target <= total
            and (self.audience is None or player in self.audience)
        )


def parse_envelopes(raw: object) -> list[Envelope]:
    """ENGINE.md `envelopes`: id, department, target, audience (null or player ids), grants
    (not read: the web layer applies it). A department the state does not hold is allowed:
    the envelope cannot open then (the site may resolve one board at a time)."""
    items = objects(raw, "envelopes")
    ids = unique_ids(items, "envelopes")
    found = []
    for envelope_id, item in zip(ids, items, strict=True):
        where = f"envelope {envelope_id}"
        audience = item.get("audience")
        if audience is not None and (
            not isinstance(audience, list) or not all(isinstance(p, str) for p in audience)
        ):
            raise EngineError(refuse("envelope_audience", what=where))
        found.append(
            Envelope(
                envelope_id,
                text(item.get("department"), f"{where}: department"),
                whole(item.get("target"), f"{where}: target"),
                None if audience is None else frozenset(audience),
            )
        )
    return found

"""The archive's names for what the database knows by id (docs/campaign-archive.md), both
ways: `ArchiveIds` for an export (archive/selectors/archive.py), `ArchiveNames` for an import
(archive/services/archive.py), and the swaps of every id the site keeps inside data (recorded
states, reports, order payloads, notice links, election results).

People are named by user name, orders by a reference of the archive's own ("o1", "o2", ...
in the order they were made), intel envelopes, goals and offices by theirs ("envelope1",
"goal1", "office1"). Roll keys ("3:17:attack") keep the ids they were rolled with: they are
what the published seed verifies, so they are history, not references."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Model

from campaigns.models import Order
from campaigns.models.campaign import engine_player_id, engine_ref, membership_pk_of, pk_of_ref

FORMAT = "illumineaucracy-campaign"
# 2: the rows of RULES parts 7-9 (shticks, goals, envelopes, offices). 3: `scope`, and the
# GM's archive, which leaves out what the site does not show the GM (archive/selectors/archive.py).
VERSION = 3
READABLE = (1, 2, 3)  # version 1 has no rows of parts 7-9; 1 and 2 are full archives
SCOPE_FULL = "full"  # everything: `manage.py export_campaign`
SCOPE_GM = "gm"  # what the GM who downloaded it may read on the site
SCOPES = (SCOPE_FULL, SCOPE_GM)
# The archive's own prefix for each kind of engine id of ENGINE.md parts 7-9.
REF_NAMES = {"e": "envelope", "g": "goal", "o": "office"}

# Every column of the campaign but its id and slug: a setting added later is archived too.
# Order kinds whose payload names a player (ENGINE.md parts 7-8), and the field that does.
PAYLOAD_PLAYER = {"handover": "to", "accept": "from"}
REINFORCE_URL = re.compile(r"/orders/reinforce/(\d+)/")


def checksum(archive: dict[str, Any]) -> str:
    """sha256 of the archive's canonical JSON without its `checksum` key."""
    body = {k: v for k, v in archive.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class ArchiveIds:
    """Both ways between database ids and the archive's names: membership id <-> user name,
    order id <-> order reference, and the engine ids of parts 7-9 <-> their references
    (`refs`: prefix -> row id -> reference). `Ids.out` for an export, `Ids.back` for an
    import."""

    member_name: dict[int, str]
    order_ref: dict[int, str]
    slug: str  # the campaign's slug in the database on this side
    refs: dict[str, dict[int, str]] = field(default_factory=dict)

    def player(self, player_id: Any) -> Any:
        """An engine player id -> user name (export); unknown values pass unchanged."""
        pk = membership_pk_of(player_id) if isinstance(player_id, str) else None
        return self.member_name.get(pk, player_id) if pk is not None else player_id

    def order(self, order_id: Any) -> Any:
        return self.order_ref.get(int(order_id), order_id) if str(order_id).isdigit() else order_id

    def thing(self, prefix: str, engine_id: Any) -> Any:
        """An envelope's, goal's or office's engine id ("e12") -> its reference."""
        pk = pk_of_ref(prefix, engine_id)
        return self.refs.get(prefix, {}).get(pk, engine_id) if pk is not None else engine_id


@dataclass
class ArchiveNames:
    """The way back: user name -> membership id, order reference -> order id, and each
    reference of parts 7-9 -> its new row id (`pks`: prefix -> reference -> id)."""

    member_pk: dict[str, int]
    order_pk: dict[str, int]
    slug: str
    pks: dict[str, dict[str, int]] = field(default_factory=dict)

    def player(self, name: Any) -> Any:
        pk = self.member_pk.get(name) if isinstance(name, str) else None
        return engine_player_id(pk) if pk is not None else name

    def order(self, ref: Any) -> Any:
        pk = self.order_pk.get(ref) if isinstance(ref, str) else None
        return str(pk) if pk is not None else ref

    def thing(self, prefix: str, ref: Any) -> Any:
        pk = self.pks.get(prefix, {}).get(ref) if isinstance(ref, str) else None
        return engine_ref(prefix, pk) if pk is not None else ref


Swap = ArchiveIds | ArchiveNames


def swap_classic(state: dict[str, Any], ids: Swap) -> dict[str, Any]:
    """A classic board's state (RULES R90, ENGINE.md part 10; stored or recorded) with its
    player ids swapped: the players, the groups' controllers, `destroyed_by`'s keys."""
    out = dict(state)
    if isinstance(state.get("players"), list):
        out["players"] = [
            {**p, "id": ids.player(p.get("id"))} if isinstance(p, dict) else p
            for p in state["players"]
        ]
    if isinstance(state.get("groups"), list):
        out["groups"] = [
            {**g, "controller": ids.player(g.get("controller"))} if isinstance(g, dict) else g
            for g in state["groups"]
        ]
    if isinstance(state.get("destroyed_by"), dict):
        out["destroyed_by"] = {ids.player(k): v for k, v in state["destroyed_by"].items()}
    return out


def swap_state(state: dict[str, Any], ids: Swap) -> dict[str, Any]:
    """A recorded engine state with its player ids swapped (departments' structures, the
    players and goals of ENGINE.md parts 7-8; a classic board's, swap_classic)."""
    if not state:
        return state
    if state.get("ruleset") == "classic":
        return swap_classic(state, ids)
    out = dict(state)
    out["departments"] = [
        {**d, "structure": ids.player(d.get("structure"))} for d in state.get("departments", [])
    ]
    if isinstance(state.get("players"), dict):
        out["players"] = {ids.player(k): v for k, v in state["players"].items()}
    if isinstance(state.get("orders"), list):  # records written before orders were left out
        out["orders"] = [
            {**swap_payload(o.get("kind", ""), o, ids), "id": ids.order(o.get("id")),
             "player": ids.player(o.get("player"))}
            for o in state["orders"]
        ]  # fmt: skip
    if isinstance(state.get("goals"), list):
        out["goals"] = [
            {**g, "id": ids.thing("g", g.get("id")), "player": ids.player(g.get("player"))}
            for g in state["goals"]
        ]
    if isinstance(state.get("envelopes"), list):
        out["envelopes"] = [swap_envelope(e, ids) for e in state["envelopes"]]
    if isinstance(state.get("offices"), list):
        out["offices"] = [{**o, "id": ids.thing("o", o.get("id"))} for o in state["offices"]]
    if isinstance(state.get("election"), dict):
        out["election"] = swap_election(state["election"], ids)
    return out


def swap_envelope(envelope: dict[str, Any], ids: Swap) -> dict[str, Any]:
    audience = envelope.get("audience")
    return {
        **envelope,
        "id": ids.thing("e", envelope.get("id")),
        "audience": [ids.player(p) for p in audience] if isinstance(audience, list) else audience,
    }


def swap_election(election: dict[str, Any], ids: Swap) -> dict[str, Any]:
    """An election (a state's, or report.election) with its office's id swapped."""
    return {**election, "office": ids.thing("o", election.get("office"))}


def swap_report(report: dict[str, Any], ids: Swap) -> dict[str, Any]:
    """A recorded report with its order ids swapped (the keys of `orders`, `attempt_order`)
    and the ids of parts 7-9 (the envelopes a perception check opened, the goals' progress,
    the election's office)."""
    out = dict(report)
    if isinstance(report.get("orders"), dict):
        out["orders"] = {
            str(ids.order(k)): swap_outcome(v, ids) for k, v in report["orders"].items()
        }
    if isinstance(report.get("attempt_order"), list):
        out["attempt_order"] = [ids.order(k) for k in report["attempt_order"]]
    if isinstance(report.get("goals"), dict):
        out["goals"] = {str(ids.thing("g", k)): v for k, v in report["goals"].items()}
    if isinstance(report.get("election"), dict):
        out["election"] = swap_election(report["election"], ids)
    if isinstance(report.get("seat_order"), list):  # a classic board's (R94)
        out["seat_order"] = [ids.player(p) for p in report["seat_order"]]
    if isinstance(report.get("winners"), list):  # a classic board's (R98)
        out["winners"] = [
            {**w, "player": ids.player(w.get("player"))} if isinstance(w, dict) else w
            for w in report["winners"]
        ]
    return out


def swap_outcome(outcome: Any, ids: Swap) -> Any:
    if not isinstance(outcome, dict) or not isinstance(outcome.get("envelopes"), list):
        return outcome
    return {**outcome, "envelopes": [ids.thing("e", e) for e in outcome["envelopes"]]}


def swap_knowledge(levels: dict[str, Any], key: Callable[[str], Any]) -> dict[str, Any]:
    return {str(key(member)): slugs for member, slugs in levels.items()}


def swap_payload(kind: str, payload: dict[str, Any], ids: Swap) -> dict[str, Any]:
    out = dict(payload)
    if kind == Order.Kind.REINFORCE and "answers" in payload:
        out["answers"] = ids.order(payload["answers"])
    field = PAYLOAD_PLAYER.get(kind)
    if field and field in payload:
        out[field] = ids.player(payload[field])
    return out


def swap_url(url: str, ids: Swap, *, to_slug: str) -> str:
    """A notice's link: the campaign's slug and a reinforcement's order id swapped."""
    url = url.replace(f"/c/{ids.slug}/", f"/c/{to_slug}/", 1)
    return REINFORCE_URL.sub(lambda m: f"/orders/reinforce/{ids.order(m.group(1))}/", url)


def plain(row: Model, fields: Iterable[str]) -> dict[str, Any]:
    """Fields of a row as JSON values (dates and times as ISO text)."""
    out = {}
    for name in fields:
        value = getattr(row, name)
        out[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return out

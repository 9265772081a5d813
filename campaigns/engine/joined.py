"""Several boards as one ENGINE.md state, and back (ENGINE.md part 8: departments carry
`"board"`, slugs stay unique across the state). The site's convention, kept here as small
pure functions so it has one home and its own tests:

- `join`: each board's state (plain slugs) becomes part of one state. Every department gets
  `"board": "<board>"` and the slug `"<board>/<slug>"` (a board's and a department's slugs
  never hold "/"); every name in a link or an order that is plain is qualified with the
  board the state or order belongs to, and a name that already holds "/" names a department
  of another board (a cross-board order or link) and is kept.
- `split_state` / `split_report`: the joined result back into one state and report per
  board with plain slugs, as one-board states have them. A link between two boards goes
  with its supplier's board (the site's `Link.board`); its foreign end stays qualified and
  is carried as a stub: the foreign department's whole object with its `"board"` key, so
  the split state is still a valid ENGINE.md state (its links name departments of the
  state). Stubs are marked by that `"board"` key: plain departments of a split state have
  none.

The keys of parts 7-9 are the caller's to qualify (it knows each one's board) and go into
`join` already in joined form; `split_state` returns to each board what concerns it:
`players` and `goals` (a player's, across every board) to every board, and `envelopes`,
`offices` and `election` to the board of their department or office.

A one-board campaign is never joined: its state is the board's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .refusals import Refusal

SEP = "/"
# ENGINE.md order fields that name departments, per kind; the rest name players ("to" of a
# hand-over, "from" of an accept), tokens, order ids or words.
ORDER_FIELDS: dict[str, tuple[str, ...]] = {
    "add_link": ("from", "to"),
    "break_link": ("from", "to"),
    "priority": ("department",),
    "move": ("from",),
    "reinforce": ("from",),
    "attempt": ("attacker", "target"),
    "function": ("department",),
    "perceive": ("department",),
    "gift": ("from", "to"),
    "handover": ("department",),
    "accept": ("department",),
    "nominate": ("candidate", "running_mate"),
    "running_mate": ("candidate", "running_mate"),
    "support": ("department", "ticket"),
    "vote": ("ticket",),
}
ORDER_LISTS: dict[str, str] = {"priority": "consumers", "move": "path", "reinforce": "path"}
# Keys every board's state shares; the first board's are kept.
COMMON = ("turn", "seed", "settings", "alignments")

Rename = Callable[[Any], Any]


def qualify(board: str, name: Any) -> Any:
    """A department name in `board`'s terms, as the joined state names it."""
    if isinstance(name, str) and SEP not in name:
        return f"{board}{SEP}{name}"
    return name


def unqualify(board: str, name: Any) -> Any:
    """A joined name in `board`'s terms: plain for its own departments, else unchanged."""
    prefix = f"{board}{SEP}"
    if isinstance(name, str) and name.startswith(prefix):
        return name[len(prefix) :]
    return name


def qualifier(board: str) -> Rename:
    """`qualify` for one board, as a function of the name."""

    def qualified(name: Any) -> Any:
        return qualify(board, name)

    return qualified


def unqualifier(board: str) -> Rename:
    """`unqualify` for one board, as a function of the name."""

    def plain(name: Any) -> Any:
        return unqualify(board, name)

    return plain


def board_of(name: str) -> str | None:
    """The board a qualified name names, or None for a plain one."""
    return name.split(SEP, 1)[0] if SEP in name else None


def order_renamed(order: dict[str, Any], rename: Rename) -> dict[str, Any]:
    """An ENGINE.md order with every department it names passed through `rename`."""
    kind = order.get("kind")
    if not isinstance(kind, str):
        return dict(order)
    out = dict(order)
    for key in ORDER_FIELDS.get(kind, ()):
        if key in out:
            out[key] = rename(out[key])
    listed = ORDER_LISTS.get(kind)
    if listed and isinstance(out.get(listed), list):
        out[listed] = [rename(name) for name in out[listed]]
    return out


def departments_named(order: Mapping[str, Any]) -> list[str]:
    """The department names an ENGINE.md order holds, by its kind (not a hand-over's
    receiving player nor an accept's giver)."""
    kind = order.get("kind")
    if not isinstance(kind, str):
        return []
    found = [order.get(key) for key in ORDER_FIELDS.get(kind, ())]
    listed = order.get(ORDER_LISTS.get(kind, ""))
    if isinstance(listed, list):
        found.extend(listed)
    return [name for name in found if isinstance(name, str)]


def join(parts: Sequence[tuple[str, dict[str, Any]]], beside: Mapping[str, Any]) -> dict[str, Any]:
    """One state of every board: `parts` are (board slug, that board's state), each with
    its own orders; `beside` the keys of parts 7-9 already in joined names. Stubs of a part
    (departments with a "board" key) are left out: the real department comes with its own
    board. An order without `seq` gets its place in its own board's list (ENGINE.md's
    default), which the joined list would otherwise change."""
    first = parts[0][1]
    state: dict[str, Any] = {key: first[key] for key in COMMON if key in first}
    departments: list[dict[str, Any]] = []
    links: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = []
    for board, part in parts:
        departments.extend(
            {**d, "slug": f"{board}{SEP}{d['slug']}", "board": board}
            for d in part["departments"]
            if "board" not in d
        )
        links.extend(
            {**x, "from": qualify(board, x["from"]), "to": qualify(board, x["to"])}
            for x in part["links"]
        )
        orders.extend(
            order_renamed({**o, "seq": o.get("seq", index)}, qualifier(board))
            for index, o in enumerate(part["orders"])
        )
    state.update(departments=departments, links=links, orders=orders)
    state.update(beside)
    return state


def split_state(
    state: Mapping[str, Any], board: str, order_boards: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Board `board`'s part of a joined state: its departments (plain slugs), the links its
    departments supply (a foreign consumer as a stub), its orders (by `order_boards`, order
    id -> board) and what concerns it of parts 7-9."""
    return split_states(state, [board], order_boards)[board]


def split_states(
    state: Mapping[str, Any], boards: Iterable[str], order_boards: Mapping[str, str] | None = None
) -> dict[str, dict[str, Any]]:
    """`split_state` for each of `boards`, in one pass over the joined state (a big
    campaign's departments are read once, not once per board)."""
    parts: dict[str, dict[str, Any]] = {
        b: {**{k: state[k] for k in COMMON if k in state}, "departments": [], "links": []}
        for b in boards
    }
    by_slug: dict[str, dict[str, Any]] = {}
    for dept in state.get("departments", []):
        by_slug[dept["slug"]] = dept
        part = parts.get(dept.get("board", ""))
        if part is not None:
            plain = dict(dept)
            del plain["board"]
            plain["slug"] = dept["slug"][len(dept["board"]) + 1 :]
            part["departments"].append(plain)
    far: dict[str, set[str]] = {b: set() for b in parts}
    for link in state.get("links", []):
        board = board_of(link["from"])
        if board not in parts:
            continue
        supplier, consumer = link["from"], link["to"]
        if board_of(consumer) != board:
            far[board].add(consumer)
        prefix = len(board) + 1
        parts[board]["links"].append(
            {**link, "from": supplier[prefix:], "to": unqualify(board, consumer)}
        )
    for board, part in parts.items():
        part["departments"].extend(by_slug[name] for name in sorted(far[board]) if name in by_slug)
        if "orders" in state:
            part["orders"] = [
                order_renamed(o, unqualifier(board))
                for o in state["orders"]
                if (order_boards or {}).get(str(o.get("id"))) == board
            ]
        part.update(beside_of(state, board))
    return parts


def beside_of(state: Mapping[str, Any], board: str) -> dict[str, Any]:
    """ENGINE.md parts 7-9 as board `board`'s own state holds them."""
    out: dict[str, Any] = {}
    if "players" in state:
        out["players"] = {
            player: {**sheet, "shticks": shticks_in(sheet.get("shticks", []), board)}
            for player, sheet in state["players"].items()
        }
    if "goals" in state:
        out["goals"] = state["goals"]
    if "envelopes" in state:
        out["envelopes"] = [
            {**e, "department": unqualify(board, e["department"])}
            for e in state["envelopes"]
            if board_of(str(e.get("department", ""))) == board
        ]
    if "offices" in state:
        offices = [o for o in state["offices"] if o.get("board") == board]
        out["offices"] = [office_in(o, board) for o in offices]
        ids = {o["id"] for o in offices}
        election = state.get("election")
        if isinstance(election, dict) and election.get("office") in ids:
            out["election"] = election
    return out


def shticks_in(shticks: Iterable[dict[str, Any]], board: str) -> list[dict[str, Any]]:
    return [
        {**s, "department": unqualify(board, s["department"])} if "department" in s else s
        for s in shticks
    ]


def office_in(office: Mapping[str, Any], board: str) -> dict[str, Any]:
    out = without(office, "board")
    out["shticks"] = shticks_in(office.get("shticks", []), board)
    for post in ("holder", "deputy"):
        out[post] = unqualify(board, office.get(post))
    return out


def split_report(
    report: Mapping[str, Any],
    board: str,
    order_boards: Mapping[str, str],
    offices: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Board `board`'s part of a joined report: its orders' outcomes (reasons naming its
    departments by plain slug), its attempts in the order resolved, spawn-consume's figures
    of its departments, every goal's progress, and the election if its office (`offices`:
    office id -> board) is on this board."""
    out: dict[str, Any] = {}
    if "orders" in report:
        out["orders"] = {
            order_id: outcome_in(outcome, board)
            for order_id, outcome in report["orders"].items()
            if order_boards.get(order_id) == board
        }
    if "attempt_order" in report:
        out["attempt_order"] = [i for i in report["attempt_order"] if order_boards.get(i) == board]
    if "departments" in report:
        out["departments"] = {
            unqualify(board, slug): figures_in(figures, board)
            for slug, figures in report["departments"].items()
            if board_of(slug) == board
        }
    if "goals" in report:
        out["goals"] = report["goals"]
    election = report.get("election")
    if isinstance(election, dict) and (offices or {}).get(election.get("office", "")) == board:
        out["election"] = election_in(election, board)
    return out


def figures_in(figures: Mapping[str, Any], board: str) -> dict[str, Any]:
    """A department's spawn-consume figures; `consumed` names the departments it drew on."""
    out = dict(figures)
    if isinstance(out.get("consumed"), list):
        out["consumed"] = [{**c, "from": unqualify(board, c.get("from"))} for c in out["consumed"]]
    return out


def outcome_in(outcome: Mapping[str, Any], board: str) -> dict[str, Any]:
    out = dict(outcome)
    if isinstance(out.get("reason"), str):
        out["reason"] = reason_in(out["reason"], board)
    return out


def reason_in(reason: str, board: str) -> str:
    """An engine reason with the board's own prefix taken off its departments' names (a
    refusal's parameters too, so it keeps its code)."""
    prefix = re.compile(rf"(?<![\w/-]){re.escape(board)}{SEP}(?=[\w-])")

    def plain(text: str) -> str:
        return prefix.sub("", text)

    return reason.replaced(plain) if isinstance(reason, Refusal) else plain(reason)


def election_in(election: Mapping[str, Any], board: str) -> dict[str, Any]:
    """report.election with the office's board's slugs plain (ENGINE.md part 9)."""
    name = unqualifier(board)
    return {
        **election,
        "winner": name(election.get("winner")),
        "tickets": {
            name(candidate): {
                **ticket,
                "running_mate": name(ticket.get("running_mate")),
                "supporters": [name(s) for s in ticket.get("supporters", [])],
            }
            for candidate, ticket in election.get("tickets", {}).items()
        },
    }


def without(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}

"""Hypothesis strategies for the engine's property tests: random legal boards (ENGINE.md states)
and random orders of every kind, legal and illegal mixed.

Boards are legal under RULES.md: stats >= 0, at most one consumed and one produced resource
(amount >= 1), at most three alignments with never one together with its opposite (R5),
links only from a producer of T to a consumer of T, no self-links or duplicates (R10), at most
`max_out_links` / `max_in_links` per department (R11), each supplier's links ranked (R12),
moved <= stash. Structures belong to 2-3 players; unless `stranded` is asked for, every
non-home member has a link to or from another member of its structure (so R13 departures only
follow from orders). Orders are well typed (strings where slugs go, whole numbers or small
negatives where amounts go) but may break any rule.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

TYPES = ("money", "people", "authority")
STATS = ("effect", "obstruct", "impress")
PLAYERS = ("alice", "bob", "carol")
SEED_CHARS = "0123456789abcdef"

# R5: the default catalogue as groups: at most one alignment of each group may be held.
ALIGNMENT_GROUPS = (
    ("Government", "Communist"),
    ("Liberal", "Conservative"),
    ("Peaceful", "Violent"),
    ("Straight", "Weird"),
    ("Criminal",),
    ("Fanatic",),
)
FUNCTION_NAMES = ("linking", "Smuggling", "spying", "Filing")

Json = dict[str, Any]


def token_dicts(max_value: int = 4, allow_negative: bool = False) -> st.SearchStrategy[Json]:
    """{type: n}; with allow_negative, now and then an amount of -1 (such orders are rejected)."""
    plain = st.dictionaries(st.sampled_from(TYPES), st.integers(0, max_value), max_size=3)
    if not allow_negative:
        return plain
    negative = st.dictionaries(st.sampled_from(TYPES), st.integers(-1, max_value), max_size=3)
    return st.one_of(plain, plain, plain, plain, negative)


def full_tokens(draw: st.DrawFn, max_value: int) -> Json:
    """A stash; often empty per type, so that consumers compete for their suppliers' tokens."""
    amounts = st.one_of(st.just(0), st.just(0), st.integers(0, max_value))
    return {t: draw(amounts) for t in TYPES}


@st.composite
def alignments(draw: st.DrawFn) -> list[str]:
    groups = draw(st.lists(st.sampled_from(ALIGNMENT_GROUPS), unique=True, max_size=3))
    return [draw(st.sampled_from(group)) for group in groups]


@st.composite
def resources(draw: st.DrawFn) -> Json | None:
    if not draw(st.integers(0, 3)):
        return None
    kind = draw(st.sampled_from(("money", "money", "people", "people", "authority")))
    return {"type": kind, "amount": draw(st.integers(1, 3))}


# Built once: building (and validating) these strategies anew for every department was most
# of the cost of drawing a board.
STAT_VALUES = st.integers(0, 3)
STASH_AMOUNTS = st.one_of(st.just(0), st.just(0), st.integers(0, 5))
FUNCTIONS = st.dictionaries(st.sampled_from(FUNCTION_NAMES), st.integers(0, 3), max_size=2)
RESOURCES = resources()
ALIGNMENTS = alignments()
DEFENCES = token_dicts(3)
CAPACITIES = st.integers(0, 12)


@st.composite
def departments(draw: st.DrawFn, slug: str, players: list[str]) -> Json:
    stash = {t: draw(STASH_AMOUNTS) for t in TYPES}
    dept: Json = {
        "slug": slug,
        "name": slug.title(),
        "effect": draw(STAT_VALUES),
        "obstruct": draw(STAT_VALUES),
        "impress": draw(STAT_VALUES),
        "consumes": draw(RESOURCES),
        "produces": draw(RESOURCES),
        "functions": draw(FUNCTIONS),
        "alignments": draw(ALIGNMENTS),
        "stash": stash,
        "structure": draw(st.sampled_from([None, *players, *players])),
        "home": draw(st.booleans()),
        "defence": draw(DEFENCES),
        "moved": {t: draw(st.integers(0, stash[t])) for t in TYPES},
    }
    if draw(st.booleans()):
        dept["capacity"] = draw(CAPACITIES)
    if dept["structure"] is None:
        dept["home"] = False
    return dept


@st.composite
def boards(
    draw: st.DrawFn, min_departments: int = 3, max_departments: int = 8, stranded: bool = False
) -> Json:
    """A legal ENGINE.md state (no orders yet)."""
    n = draw(st.integers(min_departments, max_departments))
    players = list(PLAYERS[: draw(st.integers(2, 3))])
    depts = [draw(departments(f"d{i}", players)) for i in range(n)]
    settings = {
        "max_out_links": draw(st.sampled_from([1, 2, 3])) if draw(st.booleans()) else 2,
        "max_in_links": draw(st.sampled_from([1, 2, 3])) if draw(st.booleans()) else 2,
        "attempts_per_turn": draw(st.sampled_from([0, 1, 2, 2])) if draw(st.booleans()) else 1,
    }
    # A supply chain inside one structure (so moves, priorities and breaks have something to
    # work on): each member produces what the next one consumes.
    chain = draw(
        st.lists(
            st.integers(0, n - 1),
            unique=True,
            min_size=draw(st.sampled_from([2, 3, 0])),
            max_size=4,
        )
    )
    owner = draw(st.sampled_from(players))
    for here, nxt in zip(chain, chain[1:], strict=False):
        kind = draw(st.sampled_from(TYPES))
        depts[here]["produces"] = {"type": kind, "amount": draw(st.integers(1, 3))}
        depts[nxt]["consumes"] = {"type": kind, "amount": draw(st.integers(1, 3))}
    for index in chain if len(chain) > 1 else ():
        depts[index]["structure"] = owner
        depts[index]["capacity"] = draw(st.integers(4, 12))
        depts[index]["stash"][draw(st.sampled_from(TYPES))] += draw(st.integers(1, 4))
    forced = [(f"d{a}", f"d{b}") for a, b in zip(chain, chain[1:], strict=False)]
    # R10 candidates, in a random order; R11 limits as we add them.
    candidates = [
        (s["slug"], c["slug"])
        for s in depts
        for c in depts
        if s is not c
        and s["produces"]
        and c["consumes"]
        and (s["structure"] == c["structure"] or draw(st.booleans()))
        and s["produces"]["type"] == c["consumes"]["type"]
    ]
    order = draw(st.permutations(candidates)) if candidates else []
    wanted = forced + [pair for pair in order if pair not in forced and draw(st.integers(0, 4))]
    out_count: dict[str, int] = {}
    in_count: dict[str, int] = {}
    chosen: list[tuple[str, str]] = []
    for s, c in wanted:
        if (
            out_count.get(s, 0) < settings["max_out_links"]
            and in_count.get(c, 0) < settings["max_in_links"]
        ):
            chosen.append((s, c))
            out_count[s] = out_count.get(s, 0) + 1
            in_count[c] = in_count.get(c, 0) + 1
    # R12: ranks per supplier; some links carry no priority (they rank after, as listed).
    links: list[Json] = []
    rank: dict[str, int] = {}
    for s, c in chosen:
        link: Json = {"from": s, "to": c}
        if draw(st.integers(0, 3)):
            link["priority"] = rank.get(s, 0) * draw(st.sampled_from([1, 1, 2]))
            rank[s] = rank.get(s, 0) + 1
        links.append(link)
    if not stranded:
        by_slug = {d["slug"]: d for d in depts}
        for d in depts:
            if d["structure"] is not None and not d["home"]:
                mates = [c for s, c in chosen if s == d["slug"]] + [
                    s for s, c in chosen if c == d["slug"]
                ]
                if not any(by_slug[m]["structure"] == d["structure"] for m in mates):
                    d["home"] = True
    seed = draw(st.text(SEED_CHARS, min_size=64, max_size=64))
    return {
        "turn": draw(st.integers(1, 60)),
        "seed": seed,
        "settings": settings,
        "departments": depts,
        "links": links,
        "orders": [],
    }


# ---- orders ---------------------------------------------------------------------------------


def slugs_of(state: Json) -> list[str]:
    return [d["slug"] for d in state["departments"]]


def out_of(state: Json) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for link in state["links"]:
        out.setdefault(link["from"], []).append(link["to"])
    return out


@st.composite
def paths(draw: st.DrawFn, state: Json, start: str) -> list[str]:
    """Mostly a walk down existing links (R42); sometimes any slugs at all."""
    slugs = slugs_of(state)
    if draw(st.integers(0, 4)) == 0:
        return draw(st.lists(st.sampled_from(slugs + ["nowhere"]), min_size=1, max_size=3))
    out = out_of(state)
    walk: list[str] = []
    here = start
    for _ in range(draw(st.integers(1, 3))):
        nxt = [c for c in out.get(here, []) if c != start and c not in walk]
        if not nxt:
            break
        here = draw(st.sampled_from(nxt))
        walk.append(here)
    return walk or [draw(st.sampled_from(slugs))]


ORDER_KINDS = (
    "add_link",
    "break_link",
    "priority",
    "move",
    "move",
    "attempt",
    "attempt",
    "reinforce",
    "function",
    "function",
    "bribe",
)


@st.composite
def one_order(
    draw: st.DrawFn,
    state: Json,
    oid: str,
    attempt_ids: list[str],
    kinds: tuple[str, ...] = ORDER_KINDS,
) -> Json:
    """One order; most choices are biased towards legal ones, with an illegal variant now and
    then (another player's department, an unknown slug or kind, a bad amount...)."""
    depts = {d["slug"]: d for d in state["departments"]}
    slugs = list(depts)
    owners = sorted({d["structure"] for d in depts.values() if d["structure"]})
    suppliers = sorted({depts[lk["from"]]["structure"] for lk in state["links"]} - {None})
    if suppliers and draw(st.booleans()):
        player = draw(st.sampled_from(suppliers))
    elif owners and draw(st.integers(0, 7)):
        player = draw(st.sampled_from(owners))
    else:
        player = draw(st.sampled_from(PLAYERS))
    mine = [s for s, d in depts.items() if d["structure"] == player] or slugs

    def pick(good: list[str]) -> str:
        """Usually one of `good` (if any), sometimes any department."""
        if good and draw(st.integers(0, 5)):
            return draw(st.sampled_from(good))
        return draw(st.sampled_from(slugs))

    kind = draw(st.sampled_from(kinds))
    order: Json = {"id": oid, "player": player, "kind": kind}
    links = [(lk["from"], lk["to"]) for lk in state["links"]]
    if kind == "add_link":
        pairs = [
            (a, b)
            for a in mine
            for b in mine
            if a != b
            and depts[a]["produces"]
            and depts[b]["consumes"]
            and depts[a]["produces"]["type"] == depts[b]["consumes"]["type"]
        ]
        if pairs and draw(st.integers(0, 3)):
            order["from"], order["to"] = draw(st.sampled_from(pairs))
        else:
            order["from"], order["to"] = pick(mine), pick(mine)
    elif kind == "break_link":
        own_links = [lk for lk in links if lk[0] in mine and lk[1] in mine]
        if own_links and draw(st.integers(0, 3)):
            order["from"], order["to"] = draw(st.sampled_from(own_links))
        else:
            order["from"], order["to"] = pick(mine), pick(mine)
    elif kind == "priority":
        suppliers = [a for a in mine if out_of(state).get(a)] or mine
        order["department"] = pick(suppliers)
        consumers = out_of(state).get(order["department"], [])
        extra = [draw(st.sampled_from(slugs))] if not draw(st.integers(0, 4)) else []
        order["consumers"] = draw(st.permutations(consumers + extra)) if consumers or extra else []
        if order["consumers"] and draw(st.booleans()):
            order["consumers"] = order["consumers"][: draw(st.integers(0, len(order["consumers"])))]
        if order["consumers"] and not draw(st.integers(0, 7)):
            order["consumers"] = order["consumers"] + order["consumers"][:1]  # named twice
    elif kind in ("move", "reinforce"):
        if kind == "reinforce":
            order["answers"] = draw(st.sampled_from(attempt_ids + ["no-such-attempt"]))
        start = pick([a for a in mine if out_of(state).get(a)] or mine)
        path = draw(paths(state, start))
        order["from"], order["path"] = start, path
        unmoved = {t: depts[start]["stash"][t] - depts[start]["moved"][t] for t in TYPES}
        if draw(st.integers(0, 3)):
            pool = [t for t in TYPES for _ in range(unmoved[t])]
            size = len(path) + draw(st.sampled_from([0, 0, 1, 2, -1]))
            tokens = {t: 0 for t in TYPES}
            for t in draw(st.permutations(pool))[: max(size, 0)]:
                tokens[t] += 1
        else:
            tokens = draw(token_dicts(3, allow_negative=True))
        order["tokens"] = tokens
        if draw(st.booleans()):
            carried = [t for t in TYPES for _ in range(max(tokens.get(t, 0), 0))]
            count = max(len(path) - 1, 0)
            if len(carried) >= count and draw(st.integers(0, 4)):
                chosen = draw(st.permutations(carried))[:count]
            else:
                chosen = [
                    draw(st.sampled_from(TYPES)) for _ in range(count + draw(st.integers(0, 1)))
                ]
            order["drops"] = [{t: 1} if draw(st.integers(0, 4)) else t for t in chosen]
    elif kind == "attempt":
        order["attacker"] = pick([a for a in mine if depts[a]["produces"]] or mine)
        attacker = depts[order["attacker"]]
        targets = [
            d["slug"]
            for d in depts.values()
            if attacker["produces"]
            and d["consumes"]
            and d["consumes"]["type"] == attacker["produces"]["type"]
            and d["structure"] != player
        ]
        order["target"] = pick(targets)
        target = depts[order["target"]]
        if draw(st.integers(0, 3)) == 0:
            if target["consumes"] and draw(st.integers(0, 3)):
                total = 2 * target["consumes"]["amount"]
                first = draw(st.integers(0, total))
                kinds = draw(st.permutations(TYPES))
                order["cost"] = {kinds[0]: first, kinds[1]: total - first}
            else:
                order["cost"] = draw(token_dicts(4, allow_negative=True))
        if draw(st.booleans()):
            order["spend"] = draw(token_dicts(2, allow_negative=True))
    elif kind == "function":
        order["department"] = pick(mine)
        functions = list(depts[order["department"]]["functions"])
        order["function"] = draw(
            st.sampled_from([*functions, *functions, *FUNCTION_NAMES, "LINKING", "Bribe a judge"])
        )
        order["stat"] = draw(st.sampled_from([*STATS, *STATS, "charm"]))
        if draw(st.booleans()):
            order["spend"] = draw(token_dicts(2, allow_negative=True))
        order["intent"] = "property test"
    else:  # an unknown kind: rejected, not an input error
        order["department"] = draw(st.sampled_from(slugs))
    if draw(st.integers(0, 3)) == 0:
        order["seq"] = draw(st.integers(0, 10))
    return order


@st.composite
def boards_with_orders(
    draw: st.DrawFn,
    max_orders: int = 10,
    kinds: tuple[str, ...] = ORDER_KINDS,
    board: st.SearchStrategy[Json] | None = None,
    min_orders: int = 0,
) -> Json:
    """A legal board (`board`, default `boards()`) plus a random list of orders of every
    kind (legal and illegal mixed). Attempts are biased towards legal targets and
    reinforcements towards answering a real attempt from the target's controller with a path
    ending at the target (R46). `min_orders=1` for a test that checks nothing on a board
    without orders."""
    state = draw(board if board is not None else boards())
    n = draw(st.integers(min_orders, max_orders))
    ids = [f"o{i}" for i in range(n)]
    orders = [draw(one_order(state, oid, ids[:3], kinds)) for oid in ids]
    by_slug = {d["slug"]: d for d in state["departments"]}
    for order in orders:
        if order["kind"] != "attempt" or order["attacker"] not in by_slug:
            continue
        attacker = by_slug[order["attacker"]]
        targets = [
            d["slug"]
            for d in state["departments"]
            if attacker["produces"]
            and d["consumes"]
            and d["consumes"]["type"] == attacker["produces"]["type"]
            and d["structure"] != order["player"]
        ]
        if targets and draw(st.integers(0, 3)):
            order["target"] = draw(st.sampled_from(targets))
    attempts = [o for o in orders if o["kind"] == "attempt"]
    for order in orders:
        if order["kind"] != "reinforce" or not attempts or not draw(st.integers(0, 3)):
            continue
        answered = draw(st.sampled_from(attempts))
        order["answers"] = answered["id"]
        target = by_slug.get(answered["target"])
        if target is None or target["structure"] is None or not draw(st.integers(0, 3)):
            continue
        order["player"] = target["structure"]
        suppliers = [lk["from"] for lk in state["links"] if lk["to"] == target["slug"]]
        if suppliers:
            order["from"] = draw(st.sampled_from(suppliers))
            order["path"] = [target["slug"]]
    state["orders"] = orders
    return state


@st.composite
def contested_boards(draw: st.DrawFn) -> Json:
    """A random board plus a linking attempt that can be paid, by alice's `att` on bob's `tgt`
    (fed by bob's `sup`, feeding bob's non-home `dep`), bob's reinforcement from `sup`, and some
    random orders: so captures, reinforcements, standing defences and R13 departures happen."""
    state = draw(boards_with_orders(max_orders=4))
    kind = draw(st.sampled_from(TYPES))
    other = draw(st.sampled_from([t for t in TYPES if t != kind]))
    need = draw(st.integers(1, 2))
    extra: list[Json] = [
        {
            "slug": "att",
            "impress": draw(st.integers(0, 4)),
            "produces": {"type": kind, "amount": 1},
            "consumes": None,
            "functions": draw(st.sampled_from([{}, {"linking": 1}, {"Linking": 3}])),
            "alignments": draw(alignments()),
            "stash": {kind: 2 * need + draw(st.integers(0, 3)), other: draw(st.integers(0, 3))},
            "structure": "alice",
            "home": True,
        },
        {
            "slug": "tgt",
            "obstruct": draw(st.integers(0, 3)),
            "consumes": {"type": kind, "amount": need},
            "produces": {"type": other, "amount": 1},
            "alignments": draw(alignments()),
            "stash": full_tokens(draw, 2),
            "defence": draw(token_dicts(3)),
            "structure": "bob",
            "home": draw(st.booleans()),
            "capacity": draw(st.integers(2, 8)),
        },
        {
            "slug": "sup",
            "produces": {"type": kind, "amount": 2},
            "consumes": None,
            "stash": {kind: draw(st.integers(1, 4)), other: draw(st.integers(0, 2))},
            "structure": "bob",
            "home": True,
            "capacity": 8,
        },
        {
            "slug": "dep",
            "consumes": {"type": other, "amount": 1},
            "produces": {"type": kind, "amount": 1},
            "stash": full_tokens(draw, 2),
            "structure": "bob",
            "home": False,
            "capacity": 3,
        },
    ]
    for d in extra:
        d.setdefault("name", d["slug"])
        for stat in STATS:
            d.setdefault(stat, 0)
        d.setdefault("functions", {})
        d.setdefault("alignments", [])
        d["stash"] = {t: d["stash"].get(t, 0) for t in TYPES}
    state["departments"].extend(extra)
    state["links"] += [{"from": "sup", "to": "tgt"}, {"from": "tgt", "to": "dep"}]
    attempt: Json = {"id": "siege", "player": "alice", "kind": "attempt", "attacker": "att"}
    attempt["target"] = "tgt"
    if draw(st.booleans()):
        attempt["spend"] = {other: draw(st.integers(0, 3))}
    carried = {t: draw(st.integers(0, n)) for t, n in extra[2]["stash"].items()}
    if not sum(carried.values()):
        carried[kind] = 1
    reinforce: Json = {
        "id": "hold",
        "player": draw(st.sampled_from(["bob", "bob", "bob", "alice"])),
        "kind": "reinforce",
        "answers": "siege",
        "from": "sup",
        "path": ["tgt"],
        "tokens": carried,
    }
    orders = state["orders"] + [attempt, reinforce]
    state["orders"] = draw(st.permutations(orders))
    state["settings"]["attempts_per_turn"] = max(state["settings"]["attempts_per_turn"], 1)
    state["settings"]["max_out_links"] = max(state["settings"]["max_out_links"], 1)
    return state

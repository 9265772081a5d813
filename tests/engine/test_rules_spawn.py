"""RULES R32-R36: spawn, consume, status, supply chain length, capacity and overflow.

Each expected stash is worked out by hand in the comments: spawn (R32), then consumers in
order (R33), then statuses and chain lengths (R34, R35), then discards down to capacity (R36).
"""

from boards import consumed_from, dept, dept_report, depts, stash_of, state, tokens

from campaigns.engine import spawn_consume


def d(slug, **kw):
    """A department of alice's structure (home, so nothing ever leaves)."""
    return dept(slug, structure="alice", home=True, **kw)


def report(out, slug):
    return dept_report(out, slug)


# ---- R32: spawn ---------------------------------------------------------------------------


def test_r32_producer_adds_its_produced_amount():
    """R32: mint produces 3 money from an empty stash: 3 money (capacity 3 x L 1, nothing lost)."""
    out = spawn_consume(state([d("mint", produces=("money", 3))]))
    assert stash_of(out, "mint") == {"money": 3, "people": 0, "authority": 0}
    assert report(out, "mint")["produced"] == 3


def test_r32_uncontrolled_department_spawns_too():
    """R32: docks belongs to nobody and still produces its 2 people."""
    out = spawn_consume(state([dept("docks", produces=("people", 2))]))
    assert stash_of(out, "docks") == {"money": 0, "people": 2, "authority": 0}


def test_r32_unfunded_department_still_spawns():
    """R32: shop cannot pay its 5 money but produces 1 people anyway."""
    out = spawn_consume(state([d("shop", produces=("people", 1), consumes=("money", 5))]))
    assert report(out, "shop")["status"] == "unfunded"
    assert stash_of(out, "shop") == {"money": 0, "people": 1, "authority": 0}


def test_r32_capacity_is_not_applied_between_spawn_and_consume():
    """R32/R33: mill is already full (2 money, capacity 2) and spawns 2 more: 4 for a moment.
    bakery takes 3 of them (funded); mill keeps 1. Capping at spawn would leave bakery unfunded."""
    s = state(
        [d("mill", produces=("money", 2), stash={"money": 2}), d("bakery", consumes=("money", 3))],
        [("mill", "bakery")],
    )
    out = spawn_consume(s)
    assert report(out, "bakery")["status"] == "funded"
    assert consumed_from(out, "bakery") == [("mill", "money", 3)]
    assert stash_of(out, "mill") == {"money": 1, "people": 0, "authority": 0}


def test_spawn_consume_starts_a_new_turn_with_nothing_moved():
    """ENGINE.md: `moved` is zero everywhere after spawn-consume; turn, seed, orders come back."""
    orders = [
        {
            "id": "o1",
            "player": "alice",
            "kind": "function",
            "department": "mint",
            "function": "x",
            "stat": "effect",
        }
    ]
    s = state(
        [d("mint", produces=("money", 1), stash={"people": 1}, moved={"people": 1})],
        orders=orders,
        turn=9,
    )
    out = spawn_consume(s)
    assert tokens(depts(out)["mint"]["moved"]) == {"money": 0, "people": 0, "authority": 0}
    assert (out["turn"], out["seed"], out["orders"]) == (9, s["seed"], orders)


# ---- R33: consume -------------------------------------------------------------------------


def test_r33_consumer_takes_own_stash_before_suppliers():
    """R33: bakery needs 2 money and holds 1: it takes its own 1, then 1 of mill's 2 fresh money."""
    s = state(
        [
            d("mill", produces=("money", 2)),
            d("bakery", consumes=("money", 2), produces=("people", 3), stash={"money": 1}),
        ],
        [("mill", "bakery")],
    )
    out = spawn_consume(s)
    assert consumed_from(out, "bakery") == [("bakery", "money", 1), ("mill", "money", 1)]
    assert report(out, "bakery")["status"] == "funded"
    # mill: 2 spawned - 1 = 1 (capacity 2). bakery: funded, L 2, capacity 6 >= its 3 people.
    assert stash_of(out, "mill") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "bakery") == {"money": 0, "people": 3, "authority": 0}


def test_r33_suppliers_are_drawn_in_link_priority_order():
    """R33: bakery (needs 2) is fed by b-mill at rank 0 and a-mill at rank 1 (a-mill's rank 0 feeds
    drain). It takes b-mill's 1 money, then 1 of a-mill's 2: a-mill keeps 1, b-mill 0.
    (Slug order would take a-mill's 2 and leave b-mill 1.) Consumer order: bakery and drain both
    have a rank-0 link, so by slug bakery first; drain needs 9 and gets nothing."""
    s = state(
        [
            d("a-mill", produces=("money", 2)),
            d("b-mill", produces=("money", 1)),
            d("bakery", consumes=("money", 2)),
            d("drain", consumes=("money", 9)),
        ],
        [("a-mill", "drain"), ("a-mill", "bakery"), ("b-mill", "bakery")],
    )
    out = spawn_consume(s)
    assert consumed_from(out, "bakery") == [("b-mill", "money", 1), ("a-mill", "money", 1)]
    assert stash_of(out, "a-mill")["money"] == 1
    assert stash_of(out, "b-mill")["money"] == 0
    assert report(out, "drain")["status"] == "unfunded"


def test_r33_suppliers_of_equal_link_priority_are_drawn_by_slug():
    """R33: both mills feed bakery at rank 0, so a-mill (first by slug) gives both tokens."""
    s = state(
        [
            d("b-mill", produces=("money", 2)),
            d("a-mill", produces=("money", 2)),
            d("bakery", consumes=("money", 2)),
        ],
        [("b-mill", "bakery"), ("a-mill", "bakery")],
    )
    out = spawn_consume(s)
    assert consumed_from(out, "bakery") == [("a-mill", "money", 2)]
    assert stash_of(out, "a-mill")["money"] == 0
    assert stash_of(out, "b-mill")["money"] == 2


def test_r33_consumers_are_served_by_lowest_incoming_link_priority():
    """R33: mill makes 2 money; b-shop is its rank 0, a-shop its rank 1, both need 2.
    b-shop is served first (funded); a-shop finds nothing left (unfunded), slug order
    notwithstanding."""
    s = state(
        [
            d("mill", produces=("money", 2)),
            d("a-shop", consumes=("money", 2)),
            d("b-shop", consumes=("money", 2)),
        ],
        [("mill", "b-shop"), ("mill", "a-shop")],
    )
    out = spawn_consume(s)
    assert report(out, "b-shop")["status"] == "funded"
    assert report(out, "a-shop")["status"] == "unfunded"
    assert consumed_from(out, "a-shop") == []


def test_r33_a_consumers_place_is_its_lowest_rank_among_all_incoming_links():
    """R33: z-shop has rank 2 from m1 but rank 0 from m2, so its place is 0; a-shop's only link is
    m1's rank 1. Order: drain (0, by slug), z-shop (0), a-shop (1).
    drain needs 9: nothing. z-shop needs 2: m2's 1 (rank 0), then 1 of m1's 2 (rank 2): funded.
    a-shop needs 2, m1 has 1 left: unfunded. (Serving a-shop before z-shop would fund a-shop.)"""
    s = state(
        [
            d("m1", produces=("money", 2)),
            d("m2", produces=("money", 1)),
            d("drain", consumes=("money", 9)),
            d("a-shop", consumes=("money", 2)),
            d("z-shop", consumes=("money", 2)),
        ],
        [("m1", "drain"), ("m1", "a-shop"), ("m1", "z-shop"), ("m2", "z-shop")],
        settings={"max_out_links": 3},
    )
    out = spawn_consume(s)
    assert report(out, "z-shop")["status"] == "funded"
    assert consumed_from(out, "z-shop") == [("m2", "money", 1), ("m1", "money", 1)]
    assert report(out, "a-shop")["status"] == "unfunded"
    assert stash_of(out, "m1")["money"] == 1


def test_r33_consumers_without_incoming_links_come_last():
    """R33: mill makes and needs 2 money and feeds shop (needs 2). shop has a link, mill has none,
    so shop is served first and takes mill's 2 (funded); mill then finds its stash empty (unfunded).
    Slug order would have served mill first."""
    s = state(
        [d("mill", produces=("money", 2), consumes=("money", 2)), d("shop", consumes=("money", 2))],
        [("mill", "shop")],
    )
    out = spawn_consume(s)
    assert report(out, "shop")["status"] == "funded"
    assert consumed_from(out, "shop") == [("mill", "money", 2)]
    assert report(out, "mill")["status"] == "unfunded"
    assert stash_of(out, "mill") == {"money": 0, "people": 0, "authority": 0}


def test_r33_consumer_without_links_feeds_from_its_own_stash():
    """R33: shop holds the 2 money it needs: funded from its own stash."""
    s = state([d("shop", consumes=("money", 2), produces=("people", 1), stash={"money": 2})])
    out = spawn_consume(s)
    assert report(out, "shop")["status"] == "funded"
    assert consumed_from(out, "shop") == [("shop", "money", 2)]
    assert stash_of(out, "shop") == {"money": 0, "people": 1, "authority": 0}


def test_r33_consumption_is_all_or_nothing():
    """R33: bakery needs 3 money; it holds 1 and mill spawns 1: 2 < 3, so nothing is taken.
    mill keeps its 1 (capacity 1). bakery keeps its money; it spawned 2 people, so it holds 3 with
    capacity 2 (unfunded, L 1) and discards 1 people first (R36): 1 money, 1 people."""
    s = state(
        [
            d("mill", produces=("money", 1)),
            d("bakery", consumes=("money", 3), produces=("people", 2), stash={"money": 1}),
        ],
        [("mill", "bakery")],
    )
    out = spawn_consume(s)
    assert report(out, "bakery")["status"] == "unfunded"
    assert consumed_from(out, "bakery") == []
    assert stash_of(out, "mill") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "bakery") == {"money": 1, "people": 1, "authority": 0}


# ---- R34: status --------------------------------------------------------------------------


def test_r34_statuses_funded_unfunded_self_sufficient():
    """R34: shop pays its 1 money (funded), bar cannot pay 4 (unfunded), mill and hut consume
    nothing (self_sufficient, whether they produce or not)."""
    s = state(
        [
            d("mill", produces=("money", 1)),
            d("shop", consumes=("money", 1)),
            d("bar", consumes=("money", 4)),
            d("hut"),
        ],
        [("mill", "shop"), ("mill", "bar")],
    )
    out = spawn_consume(s)
    statuses = {slug: report(out, slug)["status"] for slug in ["mill", "shop", "bar", "hut"]}
    assert statuses == {
        "mill": "self_sufficient",
        "shop": "funded",
        "bar": "unfunded",
        "hut": "self_sufficient",
    }


# ---- R35: supply chain length -------------------------------------------------------------


def test_r35_chain_length_grows_along_funded_links():
    """R35: farm (money) -> mill (money in, people out) -> shop (people in, authority out),
    all funded:
    L = 1, 2, 3; capacities (R36) 1x1, 1x2, 1x3."""
    s = state(
        [
            d("farm", produces=("money", 1)),
            d("mill", consumes=("money", 1), produces=("people", 1)),
            d("shop", consumes=("people", 1), produces=("authority", 1)),
        ],
        [("farm", "mill"), ("mill", "shop")],
    )
    out = spawn_consume(s)
    assert [report(out, x)["chain_length"] for x in ["farm", "mill", "shop"]] == [1, 2, 3]
    assert [report(out, x)["capacity"] for x in ["farm", "mill", "shop"]] == [1, 2, 3]
    assert [depts(out)[x]["capacity"] for x in ["farm", "mill", "shop"]] == [1, 2, 3]


def test_r35_unfunded_department_has_chain_length_one():
    """R35: mill needs 2 money and farm makes 1: mill unfunded, so farm->mill is no edge and
    mill has L 1.
    shop is funded by mill's 1 people, so mill->shop is an edge: shop L = 1 + 1 = 2."""
    s = state(
        [
            d("farm", produces=("money", 1)),
            d("mill", consumes=("money", 2), produces=("people", 1)),
            d("shop", consumes=("people", 1), produces=("authority", 1)),
        ],
        [("farm", "mill"), ("mill", "shop")],
    )
    out = spawn_consume(s)
    assert report(out, "mill")["status"] == "unfunded"
    assert report(out, "mill")["chain_length"] == 1
    assert report(out, "shop")["chain_length"] == 2
    assert report(out, "shop")["capacity"] == 2


def test_r35_edges_lead_only_into_funded_consumers():
    """R35: farm -> mill (funded, L 2) -> shop, but shop needs 5 people: unfunded, so L 1 and
    capacity 1 despite its supplier's chain."""
    s = state(
        [
            d("farm", produces=("money", 1)),
            d("mill", consumes=("money", 1), produces=("people", 1)),
            d("shop", consumes=("people", 5), produces=("authority", 1)),
        ],
        [("farm", "mill"), ("mill", "shop")],
    )
    out = spawn_consume(s)
    assert report(out, "mill")["chain_length"] == 2
    assert report(out, "shop")["chain_length"] == 1
    assert report(out, "shop")["capacity"] == 1


def test_r35_cycle_counts_each_department_once():
    """R35: a-press (money out, people in) and b-guild (people out, money in) feed each other and
    a-press also feeds d-hall (rank 1). Consumers by (rank, slug): a-press (takes b-guild's
    1 people),
    b-guild (1 of a-press's 2 money), d-hall (a-press's last money): all funded.
    The cycle is one component of weight 2: L(a-press) = L(b-guild) = 2, L(d-hall) = 2 + 1 = 3."""
    s = state(
        [
            d("a-press", produces=("money", 2), consumes=("people", 1)),
            d("b-guild", produces=("people", 1), consumes=("money", 1)),
            d("d-hall", consumes=("money", 1), produces=("authority", 1)),
        ],
        [("a-press", "b-guild"), ("a-press", "d-hall"), ("b-guild", "a-press")],
    )
    out = spawn_consume(s)
    assert [report(out, x)["status"] for x in ["a-press", "b-guild", "d-hall"]] == ["funded"] * 3
    assert [report(out, x)["chain_length"] for x in ["a-press", "b-guild", "d-hall"]] == [2, 2, 3]
    # capacities: 2x2, 1x2, 1x3
    assert [report(out, x)["capacity"] for x in ["a-press", "b-guild", "d-hall"]] == [4, 2, 3]


def test_r35_chain_length_takes_the_heaviest_path():
    """R35: zed is fed by mill (farm -> mill, L 2) and by well (L 1): L(zed) = max(2, 1) + 1 = 3.
    Consumers: mill and zed both rank 0, by slug mill first (farm's people); zed takes mill's
    money."""
    s = state(
        [
            d("farm", produces=("people", 1)),
            d("mill", consumes=("people", 1), produces=("money", 1)),
            d("well", produces=("money", 1)),
            d("zed", consumes=("money", 1), produces=("authority", 1)),
        ],
        [("farm", "mill"), ("mill", "zed"), ("well", "zed")],
    )
    out = spawn_consume(s)
    assert consumed_from(out, "zed") == [("mill", "money", 1)]
    assert report(out, "zed")["chain_length"] == 3
    assert report(out, "zed")["capacity"] == 3
    assert stash_of(out, "well")["money"] == 1


def test_r35_link_into_a_funded_consumer_is_an_edge_even_if_it_carried_nothing():
    """R35: the edges are the links S->C with C funded. mill pays its 1 money from its own stash,
    yet farm->mill is an edge: L(mill) = 2, capacity 2; farm keeps its token."""
    s = state(
        [
            d("farm", produces=("money", 1)),
            d("mill", consumes=("money", 1), produces=("people", 1), stash={"money": 1}),
        ],
        [("farm", "mill")],
    )
    out = spawn_consume(s)
    assert consumed_from(out, "mill") == [("mill", "money", 1)]
    assert report(out, "mill")["chain_length"] == 2
    assert report(out, "mill")["capacity"] == 2
    assert stash_of(out, "farm")["money"] == 1


def test_r35_self_sufficient_department_has_chain_length_one():
    """R35: a department with no incoming edge (it consumes nothing) has L 1."""
    out = spawn_consume(state([d("farm", produces=("money", 2))]))
    assert report(out, "farm")["chain_length"] == 1
    assert report(out, "farm")["capacity"] == 2


# ---- R36: capacity and overflow -----------------------------------------------------------


def test_r36_department_producing_nothing_has_capacity_zero_and_keeps_nothing():
    """R36: capacity 0 for a non-producer: vault's 2 money and 1 people are all discarded."""
    out = spawn_consume(state([d("vault", stash={"money": 2, "people": 1})]))
    assert report(out, "vault")["capacity"] == 0
    assert stash_of(out, "vault") == {"money": 0, "people": 0, "authority": 0}
    assert tokens(report(out, "vault")["discarded"]) == {"money": 2, "people": 1, "authority": 0}


def test_r36_discards_produced_type_first_then_money():
    """R36: press makes 2 people (L 1, capacity 2) and holds 2 money, 1+2 people, 2 authority = 7.
    Discard 5: all 3 people first (produced type), then 2 money: 2 authority remain."""
    out = spawn_consume(
        state([d("press", produces=("people", 2), stash={"money": 2, "people": 1, "authority": 2})])
    )
    assert stash_of(out, "press") == {"money": 0, "people": 0, "authority": 2}
    assert tokens(report(out, "press")["discarded"]) == {"money": 2, "people": 3, "authority": 0}


def test_r36_other_types_go_in_order_money_people_authority():
    """R36: seal makes 1 authority (capacity 1) and holds 1 money, 1 people: 3 tokens, discard 2:
    authority (produced) first, then money before people: 1 people remains."""
    out = spawn_consume(
        state([d("seal", produces=("authority", 1), stash={"money": 1, "people": 1})])
    )
    assert stash_of(out, "seal") == {"money": 0, "people": 1, "authority": 0}
    assert tokens(report(out, "seal")["discarded"]) == {"money": 1, "people": 0, "authority": 1}


def test_r36_consumed_type_is_discarded_last():
    """R36: dock makes 1 people, needs 3 money (unfunded), holds 1 money and 1 authority: 3 tokens,
    capacity 1, discard 2: people (produced), then authority, since money (consumed) goes last."""
    s = state(
        [
            d(
                "dock",
                produces=("people", 1),
                consumes=("money", 3),
                stash={"money": 1, "authority": 1},
            )
        ]
    )
    out = spawn_consume(s)
    assert stash_of(out, "dock") == {"money": 1, "people": 0, "authority": 0}
    assert tokens(report(out, "dock")["discarded"]) == {"money": 0, "people": 1, "authority": 1}


def test_r36_unfunded_department_is_full_after_its_first_spawn():
    """R36: shop (unfunded, L 1) makes 2 people into an empty stash: capacity 2, holding 2."""
    out = spawn_consume(state([d("shop", produces=("people", 2), consumes=("money", 1))]))
    assert report(out, "shop")["capacity"] == 2
    assert sum(stash_of(out, "shop").values()) == 2


def test_r36_longer_chain_keeps_more():
    """R36: mill (L 2, capacity 2x2 = 4) holds 3 people + 2 spawned = 5: discards 1 people."""
    s = state(
        [
            d("farm", produces=("money", 1)),
            d("mill", consumes=("money", 1), produces=("people", 2), stash={"people": 3}),
        ],
        [("farm", "mill")],
    )
    out = spawn_consume(s)
    assert report(out, "mill")["capacity"] == 4
    assert stash_of(out, "mill") == {"money": 0, "people": 4, "authority": 0}
    assert tokens(report(out, "mill")["discarded"]) == {"money": 0, "people": 1, "authority": 0}

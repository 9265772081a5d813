"""Spawn and consume (RULES R32-R36): the phase that opens every turn."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from .board import TYPES, Board, Department, Tokens, no_tokens

FUNDED, UNFUNDED, SELF_SUFFICIENT = "funded", "unfunded", "self_sufficient"
NO_LINK = float("inf")


def spawn(board: Board, bonus: dict[str, int]) -> None:
    """R32: every producer, controlled or not, adds its produced amount (with its
    controller's production shticks, R60: `bonus`); no capacity yet."""
    for slug, dept in board.departments.items():
        if dept.produces:
            kind, amount = dept.produces
            dept.stash[kind] += amount + bonus.get(slug, 0)


def funding_queue(board: Board) -> list[tuple[Department, list[Department]]]:
    """R33: every consumer with its suppliers in the order it draws on them (link priority,
    then supplier slug), consumers ordered by the lowest funding priority among their
    incoming links (those with none last), then by slug. Every legal incoming link carries
    the consumed type (R10).

    Consumers are put in one bucket per priority and each bucket is sorted by slug alone:
    Python sorts a list by plain string keys several times faster than by tuples."""
    departments = board.departments
    in_links = board.in_links
    out_links = board.out_links
    buckets: dict[float, list[tuple[str, Department, list[Department]]]] = {}
    for slug, dept in departments.items():
        if not dept.consumes:
            continue
        suppliers = in_links.get(slug)
        if not suppliers:
            priority: float = NO_LINK
            drawn_on = []
        elif len(suppliers) == 1:
            # The usual case, without building a ranking (this runs once per consumer).
            supplier = suppliers[0]
            priority = out_links[supplier].index(slug)
            drawn_on = [departments[supplier]]
        elif len(suppliers) == 2:
            # Two suppliers (R11's default limit) ranked by a comparison, not a sort.
            first, second = suppliers
            rank_first, rank_second = out_links[first].index(slug), out_links[second].index(slug)
            if rank_second < rank_first or (rank_second == rank_first and second < first):
                first, second, rank_first = second, first, rank_second
            priority = rank_first
            drawn_on = [departments[first], departments[second]]
        else:
            ranked = sorted([(out_links[s].index(slug), s) for s in suppliers])
            priority = ranked[0][0]
            drawn_on = [departments[s] for _, s in ranked]
        bucket = buckets.get(priority)
        if bucket is None:
            buckets[priority] = [(slug, dept, drawn_on)]
        else:
            bucket.append((slug, dept, drawn_on))
    queue: list[tuple[Department, list[Department]]] = []
    for priority in sorted(buckets):
        # Slugs are unique: the order by slug is the whole order within a bucket.
        bucket = buckets[priority]
        bucket.sort(key=itemgetter(0))
        queue.extend([(dept, drawn_on) for _, dept, drawn_on in bucket])
    return queue


def consume(dept: Department, suppliers: list[Department]) -> list[dict[str, Any]]:
    """R33: take the requirement from its own stash, then from its suppliers in order; all
    or nothing. Returns where the tokens came from (empty if unfunded)."""
    assert dept.consumes is not None
    kind, amount = dept.consumes
    own = dept.stash[kind]
    if own >= amount:  # its own stash suffices (amount >= 1, R4): the suppliers keep theirs
        dept.stash[kind] = own - amount
        return [{"from": dept.slug, "type": kind, "amount": amount}]
    available = own
    for supplier in suppliers:
        available += supplier.stash[kind]
    if available < amount:
        return []
    taken = []
    still = amount
    for source in (dept, *suppliers):
        take = min(still, source.stash[kind])
        if take:
            source.stash[kind] -= take
            taken.append({"from": source.slug, "type": kind, "amount": take})
            still -= take
            if not still:
                break
    return taken


def chain_lengths(board: Board, status: dict[str, str]) -> dict[str, int]:
    """R35: the heaviest path ending at each department in the graph of links into funded
    consumers, each strongly connected component weighing its number of departments.

    Tarjan's algorithm (iterative, so deep chains cannot hit the recursion limit) emits the
    components in reverse topological order; walking them backwards visits every component
    after all its predecessors, so one pass computes the heaviest paths.
    """
    # Departments as numbers 0..n-1 (dict order), so Tarjan's bookkeeping is plain lists.
    slugs = list(board.departments)
    number = {slug: i for i, slug in enumerate(slugs)}
    # One shared empty tuple for every department without an edge (most of them at first):
    # lists are only made for those with one.
    successors: list[Sequence[int]] = [()] * len(slugs)
    touched: list[int] = []
    for supplier, consumers in board.out_links.items():
        funded = [number[c] for c in consumers if status[c] == FUNDED]
        if funded:
            successors[number[supplier]] = funded
            touched.append(number[supplier])
            touched.extend(funded)
    # A department on no edge is its own component with nothing before it: L = 1. Only the
    # rest need Tarjan's algorithm.
    lengths = dict.fromkeys(slugs, 1)
    roots = sorted(set(touched))
    components = strongly_connected(roots, successors)
    component_of = [-1] * len(slugs)
    for index, members in enumerate(components):
        for node in members:
            component_of[node] = index
    weight = [0] * len(components)
    for index in range(len(components) - 1, -1, -1):
        members = components[index]
        weight[index] += len(members)
        for node in members:
            for nxt in successors[node]:
                target = component_of[nxt]
                if target != index and weight[target] < weight[index]:
                    weight[target] = weight[index]
    for node in roots:
        lengths[slugs[node]] = weight[component_of[node]]
    return lengths


def strongly_connected(roots: list[int], successors: Sequence[Sequence[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components of the nodes reachable from `roots`,
    iteratively; reverse topological order. Nodes are 0..len(successors)-1."""
    size = len(successors)
    index_of = [-1] * size
    low = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in roots:
        if index_of[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, child_index = work.pop()
            if child_index == 0:
                index_of[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            children = successors[node]
            recurse = False
            for i in range(child_index, len(children)):
                child = children[i]
                if index_of[child] < 0:
                    work.append((node, i + 1))
                    work.append((child, 0))
                    recurse = True
                    break
                if on_stack[child] and index_of[child] < low[node]:
                    low[node] = index_of[child]
            if recurse:
                continue
            if low[node] == index_of[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    members.append(member)
                    if member == node:
                        break
                components.append(members)
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
    return components


def discard_order(dept: Department) -> list[str]:
    """R36: its produced type first, then Money, People, Authority, its consumed type last."""
    produced = dept.produces[0] if dept.produces else None
    consumed = dept.consumes[0] if dept.consumes else None
    middle = [t for t in TYPES if t not in (produced, consumed)]
    order = ([produced] if produced else []) + middle
    if consumed and consumed != produced:
        order.append(consumed)
    return order


def overflow(dept: Department) -> Tokens:
    """R36: discard whatever exceeds the capacity, in discard order."""
    discarded = no_tokens()
    excess = dept.total() - (dept.capacity or 0)
    for kind in discard_order(dept):
        if excess <= 0:
            break
        drop = min(excess, dept.stash[kind])
        dept.stash[kind] -= drop
        discarded[kind] = drop
        excess -= drop
    return discarded


def spawn_consume(board: Board) -> dict[str, dict[str, Any]]:
    """R32-R36 on the working board; returns report.departments. A new turn starts, so no
    token counts as moved any more (R42). Production shticks (R60) count as they stand
    before the spawn: nothing in this phase changes who controls what."""
    bonus = board.sheets.production_bonuses(board.departments)
    spawn(board, bonus)
    status = {
        slug: SELF_SUFFICIENT if not dept.consumes else UNFUNDED
        for slug, dept in board.departments.items()
    }
    consumed: dict[str, list[dict[str, Any]]] = {}
    for dept, suppliers in funding_queue(board):
        consumed[dept.slug] = consume(dept, suppliers)
        if consumed[dept.slug]:
            status[dept.slug] = FUNDED
    lengths = chain_lengths(board, status)
    report: dict[str, dict[str, Any]] = {}
    # Once per department: attribute and method lookups taken out of the loop.
    get_bonus = bonus.get if bonus else None
    get_consumed = consumed.get
    for slug, dept in board.departments.items():
        produces = dept.produces
        produced = produces[1] if produces else 0
        if get_bonus:
            produced += get_bonus(slug, 0)
        length = lengths[slug]
        capacity = dept.capacity = produced * length
        dept.moved = {"money": 0, "people": 0, "authority": 0}
        report[slug] = {
            "status": status[slug],
            "chain_length": length,
            "capacity": capacity,
            "produced": produced,
            "consumed": get_consumed(slug) or [],
            "discarded": (
                overflow(dept)
                if sum(dept.stash.values()) > capacity
                else {"money": 0, "people": 0, "authority": 0}
            ),
        }
    return report

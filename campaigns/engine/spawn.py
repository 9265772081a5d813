"""Spawn and consume (RULES R32-R36): the phase that opens every turn."""

from __future__ import annotations

from typing import Any

from .board import TYPES, Board, Department, Tokens, no_tokens

FUNDED, UNFUNDED, SELF_SUFFICIENT = "funded", "unfunded", "self_sufficient"
NO_LINK = float("inf")


def spawn(board: Board) -> None:
    """R32: every producer, controlled or not, adds its produced amount; no capacity yet."""
    for dept in board.departments.values():
        if dept.produces:
            kind, amount = dept.produces
            dept.stash[kind] += amount


def funding_queue(board: Board) -> list[tuple[Department, list[Department]]]:
    """R33: every consumer with its suppliers in the order it draws on them (link priority,
    then supplier slug), consumers ordered by the lowest funding priority among their
    incoming links (those with none last), then by slug. Every legal incoming link carries
    the consumed type (R10)."""
    departments = board.departments
    out_links = board.out_links
    queue: list[tuple[float, str, Department, list[Department]]] = []
    for slug, dept in departments.items():
        if not dept.consumes:
            continue
        suppliers = board.in_links.get(slug)
        if suppliers:
            ranked = sorted((out_links[s].index(slug), s) for s in suppliers)
            queue.append((ranked[0][0], slug, dept, [departments[s] for _, s in ranked]))
        else:
            queue.append((NO_LINK, slug, dept, []))
    # Slugs are unique, so the sort never compares past them.
    queue.sort(key=lambda entry: (entry[0], entry[1]))
    return [(dept, suppliers) for _, _, dept, suppliers in queue]


def consume(dept: Department, suppliers: list[Department]) -> list[dict[str, Any]]:
    """R33: take the requirement from its own stash, then from its suppliers in order; all
    or nothing. Returns where the tokens came from (empty if unfunded)."""
    assert dept.consumes is not None
    kind, amount = dept.consumes
    available = dept.stash[kind]
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
    successors: dict[str, list[str]] = {}
    touched: set[str] = set()
    for supplier, consumers in board.out_links.items():
        funded = [c for c in consumers if status[c] == FUNDED]
        if funded:
            successors[supplier] = funded
            touched.add(supplier)
            touched.update(funded)
    # A department on no edge is its own component with nothing before it: L = 1. Only the
    # rest need Tarjan's algorithm.
    lengths = dict.fromkeys(board.departments, 1)
    components = strongly_connected([s for s in board.departments if s in touched], successors)
    component_of: dict[str, int] = {}
    for index, members in enumerate(components):
        for slug in members:
            component_of[slug] = index
    weight = [0] * len(components)
    for index in range(len(components) - 1, -1, -1):
        members = components[index]
        weight[index] += len(members)
        for slug in members:
            for nxt in successors.get(slug, ()):
                target = component_of[nxt]
                if target != index and weight[target] < weight[index]:
                    weight[target] = weight[index]
    for slug, index in component_of.items():
        lengths[slug] = weight[index]
    return lengths


def strongly_connected(nodes: list[str], successors: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively; reverse topological order."""
    index_of: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index_of:
            continue
        work = [(root, 0)]
        while work:
            node, child_index = work.pop()
            if child_index == 0:
                index_of[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = successors.get(node, ())
            recurse = False
            for i in range(child_index, len(children)):
                child = children[i]
                if child not in index_of:
                    work.append((node, i + 1))
                    work.append((child, 0))
                    recurse = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index_of[child])
            if recurse:
                continue
            if low[node] == index_of[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                components.append(members)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
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
    token counts as moved any more (R42)."""
    spawn(board)
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
    for slug, dept in board.departments.items():
        produced = dept.produces[1] if dept.produces else 0
        length = lengths[slug]
        dept.capacity = produced * length
        dept.moved = no_tokens()
        report[slug] = {
            "status": status[slug],
            "chain_length": length,
            "capacity": dept.capacity,
            "produced": produced,
            "consumed": consumed.get(slug, []),
            "discarded": overflow(dept) if dept.total() > dept.capacity else no_tokens(),
        }
    return report

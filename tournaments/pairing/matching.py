"""Exact fallback: grow a matching to a maximum one with Edmonds' blossom algorithm.

The fast pairing methods work bracket by bracket and can get stuck although a draw without a
conflict exists elsewhere in the field. This module takes the partial matching they built and
augments it (Berge: a matching is maximum iff no augmenting path exists) over the whole
field. Neighbours are produced lazily (nearest ranks first), so a dense "may meet" graph of a
thousand entrants is never built, and the augmenting paths found tend to be short and to
change parties near the stuck entrants only.

A failed search from a free vertex removes its whole alternating ("Hungarian") tree for good,
which bounds the total work even when no perfect matching exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator


def outward(v: int, n: int) -> Iterator[int]:
    """Yield the indices ``0..n-1`` other than ``v`` by distance from ``v`` (v+1, v-1, v+2...)."""
    lo, hi = v - 1, v + 1
    while lo >= 0 or hi < n:
        if hi < n:
            yield hi
            hi += 1
        if lo >= 0:
            yield lo
            lo -= 1


def augment_matching(
    n: int,
    mate: list[int],
    neighbours: Callable[[int], Iterable[int]],
    roots: Iterable[int] | None = None,
) -> list[int]:
    """Grow ``mate`` (``mate[v]`` is v's partner or -1) in place to a maximum matching.

    ``neighbours(v)`` yields the vertices v may be matched with (the relation must be
    symmetric). Only free vertices from ``roots`` (default: all, in index order) start a
    search. Returns ``mate``.
    """
    dead = [False] * n
    order = range(n) if roots is None else roots
    for root in order:
        if mate[root] != -1 or dead[root]:
            continue
        end, tree = _find_path(n, mate, neighbours, root, dead)
        if end == -1:
            for v in tree:
                dead[v] = True
            continue
        parent = tree  # on success _find_path returns the parent array
        v = end
        while v != -1:
            pv = parent[v]
            ppv = mate[pv]
            mate[v] = pv
            mate[pv] = v
            v = ppv
    return mate


def _find_path(
    n: int,
    mate: list[int],
    neighbours: Callable[[int], Iterable[int]],
    root: int,
    dead: list[bool],
) -> tuple[int, list[int]]:
    """Search an augmenting path from ``root``.

    Return ``(end, parent)`` when one is found, else ``(-1, vertices of the tree)``.
    """
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = [root]
    head = 0

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = True
            blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in neighbours(v):
            if dead[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark_path(v, cur, to, blossom)
                mark_path(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                nxt = mate[to]
                used[nxt] = True
                queue.append(nxt)
    tree = [i for i in range(n) if used[i] or parent[i] != -1]
    return -1, tree

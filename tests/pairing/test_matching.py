"""Edmonds' blossom augmentation against a brute-force maximum matching."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.matching import augment_matching, outward


def brute_max(n, edges):
    adj = {v: {u for a, b in edges for u in (a, b) if v in (a, b) and u != v} for v in range(n)}

    @cache
    def best(left):
        if not left:
            return 0
        v = min(left)
        rest = left - {v}
        result = best(rest)
        for u in adj[v] & rest:
            result = max(result, 1 + best(rest - {u}))
        return result

    return best(frozenset(range(n)))


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 11))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) if pairs else set()
    # a valid starting matching made of some of the edges
    mate = [-1] * n
    for a, b in sorted(edges):
        if mate[a] == -1 and mate[b] == -1 and draw(st.booleans()):
            mate[a], mate[b] = b, a
    return n, edges, mate


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_augmentation_reaches_a_maximum_matching(graph):
    n, edges, mate = graph
    adj = {v: [] for v in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    result = augment_matching(n, list(mate), lambda v: adj[v])
    # a valid matching made of graph edges
    for v, u in enumerate(result):
        if u != -1:
            assert result[u] == v
            assert (min(u, v), max(u, v)) in edges
    # previously matched vertices stay matched
    assert all(result[v] != -1 for v in range(n) if mate[v] != -1)
    assert sum(1 for v in result if v != -1) // 2 == brute_max(n, edges)


def test_outward_order():
    assert list(outward(3, 7)) == [4, 2, 5, 1, 6, 0]
    assert list(outward(0, 3)) == [1, 2]
    assert list(outward(0, 1)) == []

"""Search states for the free rules: a contracted region graph and the moves on it.

The search works on one island at a time (a connected region graph).  A state is the color
of every *original* region, as ``bytes``: the board is fully determined by it, so two move
orders that reach the same board give the same key (the canonical state of the
transposition table).

To expand a state the contracted graph is rebuilt from the key: each current region is a
set of original regions (``members``), named by its lowest original region (its
*representative*), with an adjacency bitset over representatives.

Tested in tests/solver/test_heuristics.py, tests/solver/test_astar.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..graph import bits


@dataclass(frozen=True, slots=True)
class Island:
    """One connected region graph: original region colors and adjacency (bitsets over regions)."""

    colors: bytes
    adjacency: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.colors)


@dataclass(slots=True)
class Contracted:
    """The current regions of a state.

    ``reps`` is a bitset of representatives; ``color``, ``adj`` and ``members`` are indexed
    by representative (entries of non-representatives are unused).
    """

    reps: int
    color: list[int]
    adj: list[int]
    members: list[int]


def neighborhood(adj: list[int] | tuple[int, ...], nodes: int) -> int:
    """The union of the adjacency bitsets of the ``nodes`` (a bitset)."""
    grown = 0
    while nodes:
        low = nodes & -nodes
        grown |= adj[low.bit_length() - 1]
        nodes ^= low
    return grown


def renumber(adjacency: list[int] | tuple[int, ...], nodes: int) -> tuple[list[int], tuple[int, ...]]:
    """The ``nodes`` (a bitset, closed under adjacency) renumbered ``0..m-1`` in ascending
    order: ``(old numbers, adjacency bitsets over the new numbers)``."""
    old = list(bits(nodes))
    index = {g: i for i, g in enumerate(old)}
    local = []
    for g in old:
        out = 0
        for j in bits(adjacency[g]):
            out |= 1 << index[j]
        local.append(out)
    return old, tuple(local)


def contract(island: Island, key: bytes) -> Contracted:
    """Group original regions of equal color that touch, giving the current region graph."""
    n = len(island.colors)
    adjacency = island.adjacency
    rep = [-1] * n
    members = [0] * n
    reps = 0
    for start in range(n):
        if rep[start] >= 0:
            continue
        color = key[start]
        group = frontier = 1 << start
        while frontier:
            grown = neighborhood(adjacency, frontier) & ~group
            same = 0
            g = grown
            while g:
                low = g & -g
                if key[low.bit_length() - 1] == color:
                    same |= low
                g ^= low
            frontier = same
            group |= same
        g = group
        while g:
            low = g & -g
            rep[low.bit_length() - 1] = start
            g ^= low
        members[start] = group
        reps |= 1 << start
    adj = [0] * n
    for r in bits(reps):
        out = 0
        for i in bits(members[r]):
            out |= adjacency[i]
        out &= ~members[r]
        mapped = 0
        for j in bits(out):
            mapped |= 1 << rep[j]
        adj[r] = mapped
    color = [key[r] if reps >> r & 1 else 255 for r in range(n)]
    return Contracted(reps, color, adj, members)


def merging_moves(state: Contracted) -> list[tuple[int, int, int]]:
    """Every move that merges something: ``(rep, color, merged)`` for each region and each
    color among its neighbors; ``merged`` is the bitset of representatives that become one.

    Moves that merge nothing are left out.  On one connected island such a move is never
    needed: this rule is checked against exhaustive breadth-first search over *all* moves
    (any region, any color) on thousands of random small boards, both lattices, in
    ``tests/solver/test_astar.py``.  (Islands that are a single region, which may need one
    non-merging recoloring to match the others, are handled by the island reconciliation in
    :mod:`kamivision.solver.astar`.)
    """
    color = state.color
    adj = state.adj
    out = []
    for r in bits(state.reps):
        groups: dict[int, int] = {}
        nb = adj[r]
        while nb:
            low = nb & -nb
            c = color[low.bit_length() - 1]
            groups[c] = groups.get(c, 0) | low
            nb ^= low
        for c, group in groups.items():
            out.append((r, c, group | (1 << r)))
    return out


def apply_merge(state: Contracted, rep: int, color: int, merged: int) -> Contracted:
    """The contracted graph after recoloring ``rep`` to ``color``, merging ``merged`` into one."""
    new_rep = (merged & -merged).bit_length() - 1
    adj = state.adj[:]
    colors = state.color[:]
    members = state.members[:]
    outside = 0
    union = 0
    for j in bits(merged):
        outside |= adj[j]
        union |= members[j]
        if j != new_rep:
            adj[j] = 0
            colors[j] = 255
            members[j] = 0
    outside &= ~merged
    new_bit = 1 << new_rep
    keep = ~merged
    for k in bits(outside):
        adj[k] = (adj[k] & keep) | new_bit
    adj[new_rep] = outside
    colors[new_rep] = color
    members[new_rep] = union
    reps = (state.reps & keep) | new_bit
    return Contracted(reps, colors, adj, members)


def key_after(key: bytes, members: int, color: int) -> bytes:
    """The state key after the original regions in ``members`` take ``color``."""
    out = bytearray(key)
    while members:
        low = members & -members
        out[low.bit_length() - 1] = color
        members ^= low
    return bytes(out)

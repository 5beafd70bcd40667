"""Symmetries of an island's region graph, so that the sweep stores one state of each
set of symmetric ones.

An automorphism ``s`` of the graph of the original regions (a permutation of them that
keeps every adjacency) that also keeps the first coloring maps every state the search
reaches to a state it reaches in the same number of moves (the image of each move is a
move of the image), with the same fewest moves left (a solution's image is a solution).
So the sweep may store any image of a state in its place: it answers the same question.
Many KAMI 2 levels are drawn symmetric (Bud5's flower has 512 such symmetries, Bud6's 64,
Bud4's 64), and their states come in symmetric sets: with one of each stored, the sweep
that proves Bud5's par expands 695,204 states instead of 1,284,130.

Two kinds are found and used:

- **Twins**: regions of one color with the same neighbors (two petals on one stem, or
  holes in one region).  Any permutation of a set of twins is an automorphism; the state
  stored gives the set's regions their colors in ascending order.
- **Swaps**: the automorphisms of the graph with each set of twins made one node (its
  color and size as its label), when each node they move has exactly one other place to go
  (a mirror, or two equal branches swapped). Such a group is a vector space over GF(2):
  an automorphism is the set of node pairs it swaps. Its basis is kept; the state stored
  is the least of its images in a fixed order of the pairs (a greedy choice, pair by pair,
  over that space: ``_core/symmetry.c``). A pair of nodes stands for two sets of twins of
  equal size, matched in ascending order.

Other groups (a node with three or more places to go, as in a three-fold rotation) are left
out, and so are groups too large to list (more than :data:`MAX_ELEMENTS`): only their
twins are used. Leaving symmetries out is always sound; it only stores more states.

The automorphisms are listed by a backtracking search that maps the regions in
breadth-first order, each to a neighbor of its parent's image with the same label after
color refinement (each node labelled by its label and its neighbors' labels, until
stable); every mapping it returns keeps every adjacency and every label (``automorphisms``
checks the edges of each as it builds it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..graph import bits

#: The automorphisms of the quotient graph listed at most (a larger group is left out).
MAX_ELEMENTS = 4096
#: The backtracking search's steps at most, whatever it has found by then.
MAX_STEPS = 200_000


@dataclass(frozen=True)
class Symmetry:
    """The symmetries the sweep uses. ``twins``: sets of twin regions (ascending, two or
    more each); ``pairs``: pairs of equal-sized sets of regions a swap exchanges,
    matched in ascending order, first by the lower region; ``basis``: the swaps, each a
    bitset over ``pairs``, a basis of the group they form."""

    twins: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    basis: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.twins or self.basis)

    def encode(self) -> bytes:
        """The core's form: 32-bit little-endian words; the number of twin sets, each as
        its size and regions; the number of pairs, each as its size and both sides; the
        dimension, each basis vector in as many words as the pairs need (low first)."""
        words = [len(self.twins)]
        for twin in self.twins:
            words += [len(twin), *twin]
        words.append(len(self.pairs))
        for first, second in self.pairs:
            words += [len(first), *first, *second]
        words.append(len(self.basis))
        for vector in self.basis:
            words += [vector >> (32 * h) & 0xFFFFFFFF for h in range((len(self.pairs) + 31) // 32)]
        return b"".join(w.to_bytes(4, "little") for w in words)


def find(colors: Sequence[int], adjacency: Sequence[int]) -> Symmetry:
    """The twins and swaps of the graph of regions with these colors and neighbor bitsets
    (one island; a graph in several parts gets its twins only)."""
    n = len(colors)
    classes: dict[tuple[int, int], list[int]] = {}
    for r in range(n):
        classes.setdefault((colors[r], adjacency[r]), []).append(r)
    sets = list(classes.values())  # each ascending: regions were taken in order
    of = [0] * n
    for i, members in enumerate(sets):
        for r in members:
            of[r] = i
    labels = [(colors[s[0]], len(s)) for s in sets]
    neighbors = [sorted({of[x] for x in bits(adjacency[s[0]])}) for s in sets]
    twins = tuple(tuple(s) for s in sets if len(s) > 1)
    pairs, basis = _swaps(labels, neighbors, sets)
    return Symmetry(twins, pairs, basis)


def _swaps(labels, neighbors, sets):
    """The pairs and basis of the quotient graph's automorphisms, when each moves every
    node it moves between the same two places; else none."""
    elements = automorphisms(labels, neighbors)
    if elements is None:
        return (), ()
    m = len(labels)
    partner = [-1] * m
    for image in elements:
        for v, w in enumerate(image):
            if w == v:
                continue
            if partner[v] not in (-1, w):
                return (), ()  # v has three or more places to go
            partner[v] = w
    moved = [v for v in range(m) if partner[v] > v]
    moved.sort(key=lambda v: min(sets[v][0], sets[partner[v]][0]))
    pairs = []
    for v in moved:
        a, b = sets[v], sets[partner[v]]
        pairs.append((tuple(a), tuple(b)) if a[0] < b[0] else (tuple(b), tuple(a)))
    basis: list[int] = []  # reduced: each vector's lowest bit is in no other
    for image in elements:
        vector = sum(1 << j for j, v in enumerate(moved) if image[v] != v)
        for b in basis:
            if vector & (b & -b):
                vector ^= b
        if vector:
            low = vector & -vector
            basis = [b ^ vector if b & low else b for b in basis]
            basis.append(vector)
    return tuple(pairs), tuple(basis)


def automorphisms(labels: Sequence, neighbors: Sequence[Sequence[int]]) -> list[list[int]] | None:
    """Every permutation of the nodes (0 to m - 1; ``neighbors`` their sorted lists) that
    keeps labels and adjacency, as the list of images; None when there are more than
    :data:`MAX_ELEMENTS`, the search passes :data:`MAX_STEPS`, or the graph is not
    connected."""
    m = len(labels)
    if m == 0:
        return []
    color = _refine(labels, neighbors)
    adjacent = [set(ns) for ns in neighbors]
    order, parent = [0], [-1] * m
    seen = [False] * m
    seen[0] = True
    for v in order:
        for w in neighbors[v]:
            if not seen[w]:
                seen[w] = True
                parent[w] = v
                order.append(w)
    if len(order) != m:  # not one island: left out (the search below maps one component)
        return None
    position = [0] * m
    for i, v in enumerate(order):
        position[v] = i
    placed = [[u for u in neighbors[v] if position[u] < i] for i, v in enumerate(order)]  # mapped before v
    image = [-1] * m
    used = [False] * m
    found: list[list[int]] = []
    steps = 0

    def candidates(i):
        v = order[i]
        pool = range(m) if i == 0 else neighbors[image[parent[v]]]
        for w in pool:
            if used[w] or color[w] != color[v]:
                continue
            if all(image[u] in adjacent[w] for u in placed[i]) and sum(used[x] for x in neighbors[w]) == len(placed[i]):
                yield w

    stack = [candidates(0)]
    while stack:
        steps += 1
        if steps > MAX_STEPS:
            return None
        i = len(stack) - 1
        if image[order[i]] >= 0:  # undo this level's last choice
            used[image[order[i]]] = False
            image[order[i]] = -1
        w = next(stack[-1], None)
        if w is None:
            stack.pop()
            continue
        image[order[i]] = w
        used[w] = True
        if i + 1 == m:
            found.append(image[:])
            if len(found) > MAX_ELEMENTS:
                return None
        else:
            stack.append(candidates(i + 1))
    return found


def _refine(labels, neighbors) -> list[int]:
    """Color refinement: classes of nodes that no count of neighbors by class tells apart."""
    names = {label: i for i, label in enumerate(sorted(set(labels)))}
    color = [names[label] for label in labels]
    while True:
        signature = [(color[v], tuple(sorted(color[u] for u in neighbors[v]))) for v in range(len(color))]
        names = {s: i for i, s in enumerate(sorted(set(signature)))}
        new = [names[s] for s in signature]
        if len(names) == len(set(color)):
            return new
        color = new

"""The spider bound: three arms of bridges that meet in one region, printed at once.

The path-flood bound (:mod:`~kamivision.solver.pathflood`) sees two regions at a time.
On KAMI 2's tree-like levels (Bud) the cost is often in three arms that meet: each pair
of them can share its strokes, but not all three.  This bound counts that, exactly, for a
few *spiders* fixed at the island's start: a centre region and up to three arms, each a
path of regions going out from it, every edge of them a *bridge* of the island's graph
(an edge on no cycle).

Admissible, for every coloring of the island's regions (so for every state a search
meets, whatever moves led there), by three steps:

(1) *A connected set of regions meets a spider H in a connected part of H.*  A path
inside the set between two regions of H that leaves H comes back to H from the same part
of the rest of the graph; if it came back at another region of H, that part and the path
of H between the two would close a cycle through edges of H, which are bridges.  So each
excursion starts and ends at one region and can be cut out.  A region of a later state
is a connected set of the island's regions, so this holds in every state.

(2) *A solution of m moves prints H's coloring with m + 1 strokes*, each stroke one color
laid over a connected part of H, a later one over an earlier one (the strange printer on
a tree).  Read the solution backwards: first the final color over all of H, then each
move's region, met with H, in the color it had before the move.  After the stroke of
move i the picture is the coloring before move i.  By (1) every stroke is connected.  So
at least ``prints(H) - 1`` moves remain, where ``prints(H)`` is the fewest strokes that
print H's coloring.  (No maximality is needed: only that each stroke is connected.)

(3) *prints of a spider is a dynamic programme over its arms' prefixes.*  Let F(l) be
the count of the sub-spider keeping the first ``l[a]`` places of arm ``a``.  Strokes
laid before the first stroke that covers the centre can be moved after it, cut to the
places it does not cover (each stays an interval of its arm), so that stroke can be
taken as the very first.  Every later stroke lies over it, so none crosses a place where
it shows.  Either it shows at the centre, and then each arm is printed on its own over
it (the arm's string with the centre's color in front, less that first stroke), or it
first shows at place ``v[a]`` of some arms, in one color k, and nowhere nearer the
centre; then the rest is the sub-spider inside those places, printed on its own (F of
``v - 1``), and, on each arm where it shows, the stretch from ``v[a]`` out, whose first
stroke it is (the arm's string recurrence less that stroke).  Every choice of the
recurrence is a printing, so F is exact.  ``tests/solver/test_spiders.py`` checks it
against breadth-first search on thousands of random small spiders (flood number =
count - 1 on all of them), and the compiled bound against this module pair by pair.

In a state, an arm's colors are read outward with runs of one color taken once (a tree
prints the same with a one-color edge contracted), and a first run of the centre's
color joined to the centre.  The compiled twin is ``_core/spider.c``; the sweep takes it
at the states at its threshold near the root (``spider_depth``), where one more move
prunes them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from itertools import product
from typing import Callable, Sequence

from ..graph import bits

#: Spiders kept for one island, the best at the start (the core takes ``SP_MAX``, 8, at most).
SPIDERS = 4

#: Runs an arm keeps in the compiled bound (``SP_LEN``): a longer one is cut there.
ARM_RUNS = 24


@dataclass(frozen=True, slots=True)
class Spider:
    """A centre region and up to three arms, each its regions outward (indices into the
    island's regions), every edge a bridge."""

    centre: int
    arms: tuple[tuple[int, ...], ...]


def bridges(adjacency: Sequence[int]) -> list[int]:
    """The bridges of a graph (neighbor bitsets): for each region, the bitset of the
    neighbors it is joined to by a bridge.  Tarjan's low-link, iteratively."""
    n = len(adjacency)
    order = [-1] * n
    low = [0] * n
    out = [0] * n
    clock = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        order[root] = low[root] = clock
        clock += 1
        stack = [(root, -1, iter(bits(adjacency[root])))]
        while stack:
            u, parent, rest = stack[-1]
            v = next(rest, None)
            if v is None:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    low[p] = min(low[p], low[u])
                    if low[u] > order[p]:
                        out[p] |= 1 << u
                        out[u] |= 1 << p
            elif v == parent:
                continue
            elif order[v] >= 0:
                low[u] = min(low[u], order[v])
            else:
                order[v] = low[v] = clock
                clock += 1
                stack.append((v, u, iter(bits(adjacency[v]))))
    return out


def spider_at(tree: Sequence[int], centre: int, arms: int = 3) -> Spider:
    """The spider of ``arms`` arms around ``centre`` in a forest (``tree``: neighbor
    bitsets): from each of the centre's deepest branches, the path out to its farthest
    region (ties: the lowest region)."""
    ends = []
    for first in bits(tree[centre]):
        path = [first]
        parent = {first: centre}
        frontier = [first]
        far = first
        while frontier:
            grown = []
            for x in frontier:
                for y in bits(tree[x]):
                    if y != parent[x] and y not in parent:
                        parent[y] = x
                        grown.append(y)
            if grown:
                far = min(grown)
            frontier = grown
        path = [far]
        while path[-1] != first:
            path.append(parent[path[-1]])
        ends.append(tuple(reversed(path)))
    ends.sort(key=lambda arm: (-len(arm), arm[0]))
    return Spider(centre, tuple(ends[:arms]))


def fixed_spiders(
    colors: bytes | Sequence[int],
    adjacency: Sequence[int],
    count: int = SPIDERS,
    bound: Callable[[bytes | Sequence[int], Sequence[Spider]], int] | None = None,
) -> list[Spider]:
    """The ``count`` spiders of bridges (:func:`spider_at` around every region) whose
    bound is largest in ``colors``, the island's start (ties: more regions, then the
    lower centre); none with fewer than two arms (one arm is a path that the path-flood
    bound already sees). ``bound`` counts one spider's bound (:func:`spider_bound`
    unless given: the core passes its compiled count)."""
    bound = bound or spider_bound
    tree = bridges(adjacency)
    found = {}
    for centre in range(len(colors)):
        if tree[centre].bit_count() < 2:
            continue
        sp = spider_at(tree, centre)
        found[sp] = (bound(colors, [sp]), sp)
    ranked = sorted(found.values(), key=lambda t: (-t[0], -sum(map(len, t[1].arms)), t[1].centre))
    return [sp for _, sp in ranked[:count]]


def encode(spiders: Sequence[Spider]) -> bytes:
    """The core's form of ``spiders`` (``spiders_parse`` in ``_core/spider.c``): int16
    little-endian, their count, then for each its centre, three arm lengths and the
    arms' regions."""
    words = [len(spiders)]
    for sp in spiders:
        arms = list(sp.arms) + [()] * (3 - len(sp.arms))
        words += [sp.centre] + [len(a) for a in arms] + [r for a in arms for r in a]
    return struct.pack(f"<{len(words)}h", *words)


def read_arm(centre_color: int, colors: Sequence[int]) -> list[int]:
    """An arm's colors as the bound reads them: runs once, a first run of the centre's
    color joined to the centre."""
    out: list[int] = []
    last = centre_color
    for c in colors:
        if c != last:
            out.append(c)
        last = c
    return out


def spider_bound(colors: bytes | Sequence[int], spiders: Sequence[Spider]) -> int:
    """The largest ``prints - 1`` over ``spiders`` in ``colors`` (0 with none), each arm
    cut at ``ARM_RUNS`` runs as the compiled bound cuts it (a shorter spider is still a
    tree of bridges)."""

    def arms(sp: Spider) -> list[list[int]]:
        return [read_arm(colors[sp.centre], [colors[r] for r in arm])[:ARM_RUNS] for arm in sp.arms]

    return max((spider_prints(colors[sp.centre], arms(sp)) - 1 for sp in spiders), default=0)


def spider_prints(centre_color: int, arms: Sequence[Sequence[int]]) -> int:
    """The fewest strokes that print a spider: ``centre_color`` at the centre, ``arms``
    the colors outward (the recurrence of step (3) in the module's docstring)."""
    seqs = [[centre_color] + read_arm(centre_color, arm) for arm in arms]
    tables = [_string_prints(s) for s in seqs]
    lengths = [len(s) - 1 for s in seqs]
    F: dict[tuple[int, ...], int] = {}
    for ls in product(*(range(end + 1) for end in lengths)):  # each after all those below it
        best = 1 + sum(P[0][end + 1] - 1 for P, end in zip(tables, ls))
        for k in {c for s in seqs for c in s[1:]}:
            options = [
                [(end, 0)] + [(v - 1, P[v][end + 1] - 1) for v in range(1, end + 1) if s[v] == k]
                for s, P, end in zip(seqs, tables, ls)
            ]
            for choice in product(*options):
                if all(inside == end for (inside, _), end in zip(choice, ls)):
                    continue  # shown on no arm
                best = min(best, 1 + F[tuple(inside for inside, _ in choice)] + sum(c for _, c in choice))
        F[ls] = best
    return F[tuple(lengths)]


def _string_prints(s: Sequence[int]) -> list[list[int]]:
    """``P[i][j]``: the strange printer's count of ``s[i:j]``."""
    n = len(s)
    P = [[0] * (n + 1) for _ in range(n + 1)]
    for span in range(1, n + 1):
        for i in range(n - span + 1):
            j = i + span
            P[i][j] = min([1 + P[i + 1][j]] + [P[i + 1][k] + P[k][j] for k in range(i + 1, j) if s[k] == s[i]])
    return P

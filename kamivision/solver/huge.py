"""Islands too large for the search's states: an answer in linear time, with a proven bound.

A search state (:mod:`kamivision.solver.state`) keeps one adjacency bitset over the
island's regions for every region.  Region ``i``'s bitset is about ``i`` bits wide, so one
state of ``n`` regions takes about ``n**2 / 16`` bytes and every pass over it time that grows
with ``n**2``: 25 MB and a second or so at :data:`HUGE_REGIONS`, 430 MB and tens of seconds
for the 83,000 regions of a 1 x 100,000 strip, before A* has expanded anything.  Neither
the proof nor a flood beam can get anywhere there, and the time limit could not be kept.

Such an island is answered on adjacency lists instead, in time and memory linear in its
regions and edges:

* **the moves**: the greedy flood from a central region (each move takes the color that
  floods the most regions, the lowest such color), as
  :func:`kamivision.solver.upper.greedy_flood` floods on bitsets;
* **the bound**: the largest :func:`~kamivision.solver.heuristics.pair_term` over the pairs
  a double sweep measures, and the colors present minus one (both admissible, see there).

The answer is proven optimal only when the bound reaches it.
"""

from __future__ import annotations

from typing import Sequence

from .heuristics import pair_term
from .limits import Path
from .upper import central, double_sweep

#: Islands with more regions than this are answered here.
HUGE_REGIONS = 20_000


def set_bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first, shifting the mask down as they are taken: a
    sparse mask many thousands of bits wide costs a few passes over its width, not one per
    bit (:func:`kamivision.graph.bits` clears one bit at a time in place)."""
    out, base = [], 0
    while mask:
        low = (mask & -mask).bit_length() - 1
        out.append(base + low)
        mask >>= low + 1
        base += low + 1
    return out


def adjacency_lists(adjacency: Sequence[int], regions: list[int]) -> list[list[int]]:
    """The neighbors of each of ``regions`` (graph region numbers, ascending) as lists of
    positions in ``regions``."""
    index = {g: i for i, g in enumerate(regions)}
    return [[index[n] for n in set_bits(adjacency[g])] for g in regions]


def solve_huge(colors: bytes, lists: list[list[int]]) -> tuple[Path, int]:
    """(moves, lower bound) for a connected island given as region colors and adjacency
    lists: the greedy flood from the centre a double sweep finds (as
    :func:`~kamivision.solver.upper.centres` finds it), and the best bound the sweep's
    distances prove."""
    u, du, w, dw = double_sweep(lists)
    centre = central(du, dw, most=1)[0]
    bound = max(len(set(colors)) - 1, _pair_bound(colors, u, du), _pair_bound(colors, w, dw))
    return [(centre, color) for color in greedy_colors(colors, lists, centre)], bound


def _pair_bound(colors: bytes, source: int, dist: list[int]) -> int:
    """The largest :func:`pair_term` between ``source`` and any region, at its distance."""
    cu = colors[source]
    return max(pair_term(d, cu, colors[v]) for v, d in enumerate(dist))


def greedy_colors(colors: bytes, lists: list[list[int]], start: int) -> list[int]:
    """The colors of the greedy flood from ``start``: each move takes the color that floods
    the most regions of the frontier (the lowest such color).

    Recoloring the flood to ``k`` joins exactly the frontier's regions of color ``k``:
    regions are maximal, so none of their own neighbors has color ``k``, and the new
    frontier never holds the flood's color.
    """
    flooded = bytearray(len(colors))
    flooded[start] = 1
    frontier: dict[int, set[int]] = {}
    for n in lists[start]:
        frontier.setdefault(colors[n], set()).add(n)
    out = []
    while frontier:
        color = max(sorted(frontier), key=lambda c: len(frontier[c]))
        joined = frontier.pop(color)
        for region in joined:
            flooded[region] = 1
        for region in joined:
            for n in lists[region]:
                if not flooded[n]:
                    frontier.setdefault(colors[n], set()).add(n)
        out.append(color)
    return out

"""Admissible lower bounds on the moves left to make one island a single colour.

Each bound's docstring says why it never overestimates.  The search uses their maximum,
and the maximum of admissible bounds is admissible.
"""

from __future__ import annotations

from .state import Contracted


def color_bound(state: Contracted) -> int:
    """Colours present minus one.

    Admissible: a move recolours one region to one colour, so the set of colours present
    loses at most one member (the region's old colour, if it was the last region of it);
    the solved board has one colour, so at least ``colours - 1`` moves remain.
    """
    present = set(state.color)
    present.discard(255)
    return len(present) - 1


def eccentricity(adj: list[int], source: int) -> tuple[int, int]:
    """Breadth-first search over adjacency bitsets: (eccentricity of ``source``, its farthest layer)."""
    seen = frontier = 1 << source
    depth = 0
    while True:
        grown = 0
        f = frontier
        while f:
            low = f & -f
            grown |= adj[low.bit_length() - 1]
            f ^= low
        grown &= ~seen
        if not grown:
            return depth, frontier
        seen |= grown
        frontier = grown
        depth += 1


def diameter_bound(state: Contracted, sweeps: int = 2) -> int:
    """``ceil(D / 2)`` for a lower estimate ``D`` of the region graph's diameter.

    Admissible: recolouring a region ``R`` contracts ``R`` and its neighbours of the new
    colour into one node, a star of radius one, so every shortest path loses at most two
    edges per move (it can enter and leave the contracted star in one step where it took at
    most two).  The solved board has diameter 0, so ``ceil(diameter / 2)`` moves remain.
    ``D`` here is the eccentricity reached by repeated sweeps (start anywhere, restart from
    the farthest node), which never exceeds the true diameter, so the bound stays admissible.
    """
    reps = state.reps
    if reps & (reps - 1) == 0:
        return 0
    adj = state.adj
    start = (reps & -reps).bit_length() - 1
    best = 0
    for _ in range(sweeps):
        depth, far = eccentricity(adj, start)
        if depth <= best:
            best = max(best, depth)
            break
        best = depth
        start = (far & -far).bit_length() - 1
    return (best + 1) // 2


def lower_bound(state: Contracted) -> int:
    """The maximum of :func:`color_bound` and :func:`diameter_bound` (admissible as both are)."""
    a = color_bound(state)
    b = diameter_bound(state)
    return a if a > b else b

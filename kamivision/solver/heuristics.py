"""Admissible lower bounds on the moves left to make one island a single colour.

Each bound's docstring says why it never overestimates.  The search uses their maximum,
and the maximum of admissible bounds is admissible.
"""

from __future__ import annotations

from .state import Contracted, neighbourhood


def color_bound(state: Contracted) -> int:
    """Colours present minus one.

    Admissible: a move recolours one region to one colour, so the set of colours present
    loses at most one member (the region's old colour, if it was the last region of it);
    the solved board has one colour, so at least ``colours - 1`` moves remain.
    """
    present = set(state.color)
    present.discard(255)
    return len(present) - 1


def eccentricity(adj: list[int] | tuple[int, ...], source: int) -> tuple[int, int]:
    """Breadth-first search over adjacency bitsets: (eccentricity of ``source``, its farthest layer)."""
    seen = frontier = 1 << source
    depth = 0
    while True:
        grown = neighbourhood(adj, frontier) & ~seen
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


def distances(adj: list[int], source: int, size: int) -> tuple[list[int], int, int]:
    """Breadth-first distances from ``source`` over adjacency bitsets.

    Returns ``(dist, farthest, eccentricity)``; ``dist`` has ``size`` entries, ``-1`` where
    unreached (non-representatives).
    """
    dist = [-1] * size
    dist[source] = 0
    seen = frontier = 1 << source
    depth = 0
    last = source
    while True:
        grown = neighbourhood(adj, frontier) & ~seen
        if not grown:
            return dist, last, depth
        depth += 1
        seen |= grown
        frontier = grown
        last = (grown & -grown).bit_length() - 1
        while grown:
            low = grown & -grown
            dist[low.bit_length() - 1] = depth
            grown ^= low


Pair = tuple[list[int], list[int], int]  # distances from u, distances from v, d(u, v)


def far_pairs(state: Contracted) -> list[Pair]:
    """Pairs of far-apart regions found by sweeps, with their distance arrays.

    A sweep starts at the lowest region, takes the farthest region ``a``, then the farthest
    ``b`` from ``a`` and the farthest ``c`` from ``b``: the pairs are ``(a, b)`` and ``(b, c)``.
    """
    reps = state.reps
    size = len(state.adj)
    if reps & (reps - 1) == 0:
        return []
    start = (reps & -reps).bit_length() - 1
    _, a, _ = distances(state.adj, start, size)
    dist_a, b, d_ab = distances(state.adj, a, size)
    dist_b, c, d_bc = distances(state.adj, b, size)
    pairs = [(dist_a, dist_b, d_ab)]
    if d_bc > d_ab or c != a:
        dist_c, _, _ = distances(state.adj, c, size)
        pairs.append((dist_b, dist_c, d_bc))
    return pairs


def pair_bound(pairs: list[Pair]) -> int:
    """``ceil(d(u, v) / 2)`` over the pairs: admissible like :func:`diameter_bound`, since
    ``d(u, v)`` never exceeds the diameter."""
    best = 0
    for _, _, d in pairs:
        if d > best:
            best = d
    return (best + 1) // 2


def pair_bound_after(pairs: list[Pair], merged: int) -> int:
    """The pair bound of the state after a move that contracts the regions ``merged``.

    Contracting a connected set ``S`` into one node changes the distance of two regions
    ``u, v`` outside it to exactly ``min(d(u, v), d(u, S) + d(S, v))``: a shortest path in
    the new graph either avoids the new node (a path of the old graph) or passes through it
    once.  When ``u`` or ``v`` is in ``S`` its distance to ``S`` is 0 and the formula holds
    too.  So this is ``ceil(d'(u, v) / 2)`` for the child, computed from the parent's
    distance arrays, and admissible for the child as :func:`pair_bound` is.
    """
    best = 0
    for du, dv, d in pairs:
        mu = mv = d
        m = merged
        while m:
            low = m & -m
            i = low.bit_length() - 1
            if du[i] < mu:
                mu = du[i]
            if dv[i] < mv:
                mv = dv[i]
            m ^= low
        nd = mu + mv
        if nd > d:
            nd = d
        if nd > best:
            best = nd
    return (best + 1) // 2

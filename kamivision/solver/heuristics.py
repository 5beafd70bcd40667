"""Admissible lower bounds on the moves left to make one island a single color.

Each bound's docstring says why it never overestimates.  The search uses their maximum,
and the maximum of admissible bounds is admissible.
"""

from __future__ import annotations

import time
from typing import Optional

from ..graph import bits
from .state import Contracted, neighborhood


def color_bound(state: Contracted) -> int:
    """Colors present minus one.

    Admissible: a move recolors one region to one color, so the set of colors present
    loses at most one member (the region's old color, if it was the last region of it);
    the solved board has one color, so at least ``colors - 1`` moves remain.
    """
    present = set(state.color)
    present.discard(255)
    return len(present) - 1


def eccentricity(adj: list[int] | tuple[int, ...], source: int) -> tuple[int, int]:
    """Breadth-first search over adjacency bitsets: (eccentricity of ``source``, its farthest layer)."""
    seen = frontier = 1 << source
    depth = 0
    while True:
        grown = neighborhood(adj, frontier) & ~seen
        if not grown:
            return depth, frontier
        seen |= grown
        frontier = grown
        depth += 1


def pair_term(d: int, cu: int, cv: int, goal: Optional[int] = None) -> int:
    """Moves needed to join two regions ``u, v`` at distance ``d`` with colors ``cu, cv``:
    ``ceil((d + e) / 2)``, where ``e`` is 1 when the colors differ (or, with a goal color,
    when they are not both the goal color) and 0 otherwise.

    Admissible.  Let ``L(P) = ceil((m + e) / 2)`` for a path ``P`` of ``m`` edges, ``e``
    taken at its two ends.  (1) On a path graph, one move lowers ``L`` by at most one: a
    move that merges both neighbors of an inner region removes two edges and leaves the
    end colors (so ``e``) as they were; any other move removes at most one edge, and
    changes ``e``, by one, only when it recolors an end region.  So ``m + e`` falls by
    at most two.
    (2) On the region graph let ``Phi(u, v)`` be the least ``L`` over the ``u``-``v`` paths.
    A move recolors ``x`` to ``k`` and contracts ``S = {x} + its neighbors of color
    k``.  Take the best path ``P'`` after the move; replacing its node ``S`` by at most
    ``a, x, b`` (entry and exit members of ``S``, both next to ``x``; ``u`` itself when
    ``u`` is in ``S``, likewise ``v``) gives a ``u``-``v`` path ``P`` before the move
    whose color sequence becomes that of ``P'`` by one move on a path (recolor ``x``;
    the neighbors of ``S`` on ``P'`` are not of color ``k``).  By
    (1), ``Phi`` before is at most ``L(P) <= L(P') + 1``: a move lowers ``Phi`` by at most
    one.  When one region is left, ``Phi = 0`` (with a goal color: when it has that
    color).  So ``Phi(u, v)`` moves remain, and ``Phi(u, v) = ceil((d(u, v) + e) / 2)``
    as ``e`` is fixed by ``u, v`` and ``L`` grows with ``m``.  With ``e = 0`` this is the
    familiar ``ceil(diameter / 2)``; the color term adds one when ``d`` is even and the
    colors differ (two regions ``a x b`` need two moves, ``a x a`` one).
    """
    e = cu != cv or (goal is not None and cu != goal)
    return (d + e + 1) // 2


def _sweep_term(state: Contracted, source: int, depth: int, far: int, goal: Optional[int]) -> int:
    """The best :func:`pair_term` between ``source`` and the regions of its farthest layer
    ``far``: with one of another color when the layer has one."""
    color = state.color
    cu = cv = color[source]
    while far and cv == cu:
        low = far & -far
        cv = color[low.bit_length() - 1]
        far ^= low
    return pair_term(depth, cu, cv, goal)


def diameter_bound(state: Contracted, sweeps: int = 2, goal: Optional[int] = None) -> int:
    """:func:`pair_term` for far-apart regions found by sweeps (start anywhere, restart from
    the farthest region); at least ``ceil(D / 2)`` for the diameter ``D`` they reach.

    Admissible as :func:`pair_term` is: the eccentricities are true distances between the
    source and the regions of its farthest layer, each one a pair.  (Recoloring a region
    contracts a star of radius one, so a move shortens a shortest path by at most two
    edges: that is the color-blind half of the argument.)
    """
    reps = state.reps
    if reps & (reps - 1) == 0:
        if goal is not None and state.color[reps.bit_length() - 1] != goal:
            return 1
        return 0
    adj = state.adj
    start = (reps & -reps).bit_length() - 1
    best = 0
    reach = -1
    for _ in range(sweeps):
        depth, far = eccentricity(adj, start)
        term = _sweep_term(state, start, depth, far, goal)
        if term > best:
            best = term
        if depth <= reach:
            break
        reach = depth
        start = (far & -far).bit_length() - 1
    return best


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
        grown = neighborhood(adj, frontier) & ~seen
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


Pair = tuple[list[int], list[int], int, int, int]  # distances from u, from v, d(u, v), u, v


def _far(state: Contracted, dist_source: int, last_layer_low: int, dist: list[int], depth: int) -> int:
    """A region of the farthest layer (distance ``depth`` in ``dist``): the lowest one whose
    color differs from the source's if there is one, else the lowest."""
    color = state.color
    cu = color[dist_source]
    for i in range(last_layer_low, len(dist)):
        if dist[i] == depth and color[i] != cu:
            return i
    return last_layer_low


def far_pairs(state: Contracted) -> list[Pair]:
    """Pairs of far-apart regions found by sweeps, with their distance arrays.

    A sweep starts at the lowest region, takes a farthest region ``a``, then a farthest
    ``b`` from ``a`` and a farthest ``c`` from ``b`` (each time one of another color than
    the source when the farthest layer has one, for :func:`pair_term`): the pairs are
    ``(a, b)`` and ``(b, c)``.
    """
    reps = state.reps
    size = len(state.adj)
    if reps & (reps - 1) == 0:
        return []
    start = (reps & -reps).bit_length() - 1
    dist_s, a, d_sa = distances(state.adj, start, size)
    a = _far(state, start, a, dist_s, d_sa)
    dist_a, b, d_ab = distances(state.adj, a, size)
    b = _far(state, a, b, dist_a, d_ab)
    dist_b, c, d_bc = distances(state.adj, b, size)
    c = _far(state, b, c, dist_b, d_bc)
    pairs = [(dist_a, dist_b, d_ab, a, b)]
    if d_bc > d_ab or c != a:
        dist_c, _, _ = distances(state.adj, c, size)
        pairs.append((dist_b, dist_c, d_bc, b, c))
    return pairs


def pair_bound(pairs: list[Pair], color: list[int], goal: Optional[int] = None) -> int:
    """:func:`pair_term` over the pairs (admissible as it is)."""
    best = 0
    for _, _, d, u, v in pairs:
        term = pair_term(d, color[u], color[v], goal)
        if term > best:
            best = term
    return best


def pair_bound_after(
    pairs: list[Pair], merged: int, color: list[int], new_color: int, goal: Optional[int] = None
) -> int:
    """The pair bound of the state after a move that contracts the regions ``merged`` into
    one region of color ``new_color``.

    Contracting a connected set ``S`` into one node changes the distance of two regions
    ``u, v`` outside it to exactly ``min(d(u, v), d(u, S) + d(S, v))``: a shortest path in
    the new graph either avoids the new node (a path of the old graph) or passes through it
    once.  When ``u`` or ``v`` is in ``S`` its distance to ``S`` is 0 and the formula holds
    too, and its color is now ``new_color``.  So this is :func:`pair_term` of the same
    pairs in the child, computed from the parent's distance arrays, and admissible for the
    child as :func:`pair_term` is.
    """
    best = 0
    for du, dv, d, u, v in pairs:
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
        cu = new_color if merged >> u & 1 else color[u]
        cv = new_color if merged >> v & 1 else color[v]
        term = pair_term(nd, cu, cv, goal)
        if term > best:
            best = term
    return best


def final_color_term(j: int, cu: int, layer: set[int], k: Optional[int]) -> int:
    """Moves needed to make everything color ``k`` (``None``: a color not on the board),
    seen from a region of color ``cu`` and the regions at distance ``j`` from it, whose
    colors are ``layer``: ``ceil((j + [cu != k] + [some color in layer != k]) / 2)``.

    Admissible for the goal color ``k``.  With ``L_k(P) = ceil((m + [c0 != k] + [cm != k]) / 2)``
    for a path ``P`` of ``m`` edges with end colors ``c0, cm``, one move lowers ``L_k`` by
    at most one (as in :func:`pair_term`: a move that takes two edges leaves the ends; a
    move on an end takes at most one edge and changes one end indicator by one), and
    ``L_k = 0`` exactly when one region of color ``k`` is left.  The argument of
    :func:`pair_term` carries over word for word, so ``ceil((d(u, v) + [cu != k] +
    [cv != k]) / 2)`` moves remain for every pair ``u, v``; here ``v`` is the layer's region
    of another color than ``k`` when there is one.
    """
    other = len(layer) > 1 or (len(layer) == 1 and k not in layer)
    return (j + (cu != k) + other + 1) // 2


def final_color_bound(state: Contracted, goal: Optional[int] = None) -> int:
    """The least, over the final colors ``k`` (only ``goal`` when given), of the largest of
    the colors other than ``k`` and the :func:`final_color_term` of the last two layers
    around the regions the sweeps of :func:`far_pairs` start from.

    Admissible: the solution ends in some color ``k``, and for that ``k`` each term is a
    lower bound (:func:`final_color_term`; colors other than ``k`` must each disappear, one
    per move at most), so their maximum is; the least over all ``k`` is then a lower bound
    whatever the final color.  A color absent from the board is one possible ``k`` too.
    It is at least :func:`pair_bound` of the same sweeps' pairs (for one pair the least over
    ``k`` is :func:`pair_term`), and more when the far pairs disagree on colors: two pairs
    of colors ``a, a`` and ``b, b`` at an odd distance ``d`` need ``(d + 3) / 2``.
    """
    reps = state.reps
    color = state.color
    present = set()
    m = reps
    while m:
        low = m & -m
        present.add(color[low.bit_length() - 1])
        m ^= low
    if reps & (reps - 1) == 0:
        return 0 if goal is None or goal in present else 1
    size = len(state.adj)
    layers = []  # (color of the source, depth, colors at depth, colors at depth - 1)
    source = (reps & -reps).bit_length() - 1
    for sweep in range(4):
        dist, low, depth = distances(state.adj, source, size)
        top = {color[i] for i in range(size) if dist[i] == depth}
        below = {color[i] for i in range(size) if dist[i] == depth - 1}
        layers.append((color[source], depth, top, below))
        source = _far(state, source, low, dist, depth)
    finals: list[Optional[int]] = [goal] if goal is not None else [*sorted(present), None]
    best = -1
    for k in finals:
        h = len(present - {k})
        for cu, depth, top, below in layers:
            h = max(h, final_color_term(depth, cu, top, k), final_color_term(depth - 1, cu, below, k))
        if best < 0 or h < best:
            best = h
    return best


Sigma = dict[tuple[int, int], int]  # an orientation of color pairs: sigma[a, b] = -sigma[b, a] in {-1, 1}

#: Most orientations tried by :func:`choose_sigma` (all of them up to five colors).
MAX_ORIENTATIONS = 1024


def weighted_distances(state: Contracted, source: int, sigma: Sigma) -> list[int]:
    """The least weight of a walk from ``source`` to each region (``-1`` for
    non-representatives), an edge from a region of color ``a`` to one of color ``b``
    weighing ``3 + sigma[a, b]`` (2 to 4), by Dial's buckets over adjacency bitsets."""
    color, adj = state.color, state.adj
    dist = [-1] * len(adj)
    buckets: dict[int, int] = {0: 1 << source}
    seen = 0
    t = 0
    while buckets:
        reached = buckets.pop(t, 0) & ~seen
        seen |= reached
        for i in bits(reached):
            dist[i] = t
            for j in bits(adj[i] & ~seen):
                at = t + 3 + sigma.get((color[i], color[j]), 0)
                buckets[at] = buckets.get(at, 0) | 1 << j
        t += 1
    return dist


def weighted_eccentricity(state: Contracted, source: int, sigma: Sigma) -> int:
    """The greatest of :func:`weighted_distances` from ``source``."""
    return max(weighted_distances(state, source, sigma))


def winding_bound(state: Contracted, sigma: Optional[Sigma]) -> int:
    """``ceil(D / 6)`` for the greatest weighted distance ``D`` between two regions (see
    :func:`weighted_eccentricity`), over every region as the source; 0 without ``sigma``.

    Admissible for any antisymmetric ``sigma`` (a goal color only adds moves).  For a path
    ``P`` of ``m`` edges (adjacent regions differ in color) let its winding be
    ``d = sum(sigma[a, b])`` over its edges, and ``Psi(P) = 3m + |d|``.
    (1) On a path, one move lowers ``Psi`` by at most 6.  Recolor ``x`` (neighbors ``y``,
    ``z`` on the path when they exist) to ``k``.  If ``k`` is both neighbors' color,
    ``y x z`` becomes one region: two edges go, and their windings ``sigma[y, x] + sigma[x,
    y]`` cancel, so ``d`` stays: ``-6``.  If ``k`` is one neighbor's color, one edge goes
    and the two steps ``y x``, ``x z`` become the one step ``y z``: ``|d|`` changes by at
    most 3: ``-6`` at most.  If ``k`` is neither, no edge goes and two steps change: at
    most 4.  At an end, one step changes or goes: at most ``3 + 1``.
    (2) So ``Phi(u, v)``, the least ``ceil(Psi / 6)`` over the ``u``-``v`` paths of the
    region graph, falls by at most one per move: the argument of :func:`pair_term` lifts
    the best path after a move to a path before it that becomes it by one move on a path.
    ``Phi = 0`` when one region is left, so ``Phi(u, v)`` moves remain.
    (3) A path is a walk, and ``3m + d <= Psi``, so the least walk weight ``D(u, v)`` (each
    edge weighing ``3 + sigma``) is at most ``6 Phi(u, v)``: ``ceil(D(u, v) / 6)`` is a lower
    bound.  With ``sigma = 0`` it is ``ceil(d(u, v) / 2)``; a well-chosen orientation
    charges a shortest path that winds round the colors in one sense (``a b c a b c``,
    which no move shortens by two) up to a third more.
    """
    if sigma is None:
        return 0
    best = 0
    for u in bits(state.reps):
        best = max(best, weighted_eccentricity(state, u, sigma))
    return (best + 5) // 6


def orientation(colors: list[int], number: int) -> Sigma:
    """Orientation ``number`` of the color pairs ``a < b`` of ``colors`` (sorted), taken in
    order: bit ``p`` of ``number`` set makes ``sigma[a, b] = 1``, clear makes it ``-1``."""
    sigma: Sigma = {}
    p = 0
    for i, a in enumerate(colors):
        for b in colors[i + 1 :]:
            s = 1 if number >> p & 1 else -1
            sigma[a, b], sigma[b, a] = s, -s
            p += 1
    return sigma


def choose_orientation(state: Contracted, deadline: Optional[float] = None) -> Optional[int]:
    """The number of the orientation (of the first :data:`MAX_ORIENTATIONS`, in
    :func:`orientation`'s order) with the greatest weighted distance between two regions of
    ``state``, the first such; ``None`` below three colors (two colors alternate along
    any path: nothing winds) or above 16 colors (the compiled core's limit).  Any
    orientation gives an admissible bound; this one is the strongest at ``state``.  At
    ``deadline`` (a ``time.perf_counter()`` value) the best found so far is taken, or
    ``None`` (no winding bound) when none was measured: still admissible.
    """
    colors = sorted({state.color[u] for u in bits(state.reps)})
    if not 3 <= len(colors) <= 16:
        return None
    pairs = len(colors) * (len(colors) - 1) // 2
    best, choice = -1, None
    for number in range(min(1 << pairs, MAX_ORIENTATIONS)):
        sigma = orientation(colors, number)
        far = -1
        for u in bits(state.reps):
            if deadline is not None and time.perf_counter() > deadline:
                return choice
            far = max(far, weighted_eccentricity(state, u, sigma))
        if far > best:
            best, choice = far, number
    return choice


WindPair = tuple[int, int, int, list[int], list[int]]  # D(u, v), u, v, D(u, .), D(., v)


def winding_pair(state: Contracted, sigma: Optional[Sigma]) -> Optional[WindPair]:
    """The farthest pair ``u, v`` by weighted distance (the first source of the greatest
    eccentricity, its farthest region), with the distances from ``u`` and to ``v``, for
    :func:`winding_bound_after`; ``None`` without ``sigma`` or with one region."""
    if sigma is None or state.reps & (state.reps - 1) == 0:
        return None
    best = None
    for u in bits(state.reps):
        to = weighted_distances(state, u, sigma)
        if best is None or max(to) > best[0]:
            v = to.index(max(to))
            best = (to[v], u, v, to)
    d, u, v, to = best
    back = {pair: -s for pair, s in sigma.items()}  # D(i, v): walks from v with the edges reversed
    return d, u, v, to, weighted_distances(state, v, back)


def winding_bound_after(
    pair: Optional[WindPair], state: Contracted, merged: int, new_color: int, sigma: Optional[Sigma]
) -> int:
    """The winding bound of the child that contracts ``merged`` into one region of color
    ``new_color``, from the parent's :func:`winding_pair` ``u, v``:
    ``ceil(min(D(u, v), D'(u, S) + D'(S, v)) / 6)``, where ``D'(u, S)`` is the least
    ``D(u, y) + w'(y, S)`` over the neighbors ``y`` of ``S`` (0 when ``u`` is in ``S``),
    ``w'`` the child's weight of an edge into the new region, and ``D'(S, v)`` likewise.

    Admissible, a lower bound on the child's ``D(u, v)``: a walk of the child that avoids
    the new region is one of the parent, of the same weight (no edge of it changed
    colors), so at least ``D(u, v)``; a least walk through it visits it once, reaching it
    from a neighbor ``y`` by a walk that avoids it (a parent walk, of weight at least
    ``D(u, y)``) and an edge of weight ``w'(y, S)``, and leaving it likewise.  Then
    :func:`winding_bound`'s argument applies in the child.
    """
    if pair is None:
        return 0
    d, u, v, to, back = pair
    color = state.color
    around = neighborhood(state.adj, merged) & ~merged
    if not around:
        return 0  # one region left
    mu = 0 if merged >> u & 1 else min(to[y] + 3 + sigma.get((color[y], new_color), 0) for y in bits(around))
    mv = 0 if merged >> v & 1 else min(3 + sigma.get((new_color, color[y]), 0) + back[y] for y in bits(around))
    return (min(d, mu + mv) + 5) // 6

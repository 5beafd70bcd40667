"""Lower bounds from closed subgraphs: the exact optimum of a small part of the board.

A *closed* subgraph ``H`` of a region graph ``G`` is a connected set of regions such that
every connected part of ``G - H`` touches ``H`` at one region only (it hangs from ``H``
like a branch from a trunk).  The fewest moves that make ``H`` one color, ``m(H)``,
never exceed ``m(G)`` (:func:`closed_subgraph_lemma` gives the argument), so any lower
bound on ``m(H)``, an exact solve of it when it is small, is a lower bound for ``G``.

This is what the distance bounds of :mod:`kamivision.solver.heuristics` miss on KAMI 2's
tree-like levels: three long arms that meet in one region need moves of their own unless
their colors agree, and a pair of far regions only ever sees two of the arms.  The
subgraph taken here is a *spider*: a central region, shortest paths from it to the
farthest regions of its four deepest branches, closed as above.  On Bud5 (par 17) the
distance bounds give 13 at the start and the spider 15 (``benchmarks/bounds.py``).

The closure is what makes it sound.  An arbitrary connected subgraph can need *more*
moves than the whole board: an 8-cycle of alternating colors needs 4 moves, but with
one more region joined to two opposite cycle regions the board needs 3 (a test checks
it), because a move of the board may recolor a region that the subgraph sees as two.
"""

from __future__ import annotations

from typing import Callable, Optional

from kamivision.graph import bits
from kamivision.solver.state import Contracted, Island, contract, neighborhood

#: Largest closed subgraph solved exactly (regions); a larger one is skipped (bound 0).
MAX_REGIONS = 48

#: States the search of one subgraph may expand before it stops with the bound reached.
MAX_NODES = 20_000


def closed_subgraph_lemma() -> None:
    """The argument for :func:`closure` and :func:`spider_bound` (documentation only).

    Let ``H`` be a set of regions of a connected region graph ``G``, connected in ``G``,
    such that every connected component ``C`` of ``G - H`` has exactly one neighbor in
    ``H``.  Take ``H`` with every edge of ``G`` between its regions (induced).

    (1) For every connected set ``R`` of ``G``, ``R & H`` is connected in ``H`` (or empty).
    A path inside ``R`` between two regions of ``H`` that leaves ``H`` enters some ``C``
    from ``C``'s one neighbor ``a`` and must leave ``C`` to ``a`` again; cutting out each
    such excursion leaves a path of ``R & H`` between the same ends.

    (2) So a move of ``G`` (recolor a maximal connected one-color set ``R`` to ``k``)
    acts on ``H`` as one move of ``H`` or as none: ``R & H`` is connected and of one
    color, and maximal in ``H`` (a region of ``H`` next to it with its color would be
    next to ``R`` in ``G``, so in ``R``).  A solution of ``G`` in ``m`` moves, read on
    ``H``, is a solution of ``H`` (``G`` one color means ``H`` one color, the same one)
    in at most ``m`` moves.  Hence ``m(H) <= m(G)``, also with a goal color.

    (3) Contracting regions of one color into one does not change which colorings are
    reachable in how many moves, so ``H`` may be taken in the current contracted graph.

    (4) ``H`` may also be taken once, closed in the graph of the *original* regions, and
    kept for every later state: each region of a later state is a connected set of
    original regions, so (1) and (2) hold for it, and the colors that ``H``'s original
    regions take, read in ``H``'s own graph, follow a solution of that state move for move
    (or not at all).  So ``m(H, s) <= m(G, s)`` for *every* coloring ``s`` of the
    original regions, reachable or not, and a subgraph chosen at the start bounds the
    whole search, with one cache of its optima (:class:`FixedSpiders`).
    """


def closure(adj: list[int], reps: int, nodes: int) -> int:
    """``nodes`` (a connected bitset of regions) with every connected part of the rest of
    the graph that touches it at two or more regions added whole: a closed subgraph that
    holds ``nodes`` (see :func:`closed_subgraph_lemma`; not always the least one, which
    may leave out the pendant bits of such a part).  A part added whole touches nothing
    else, so the parts left still touch at one region each."""
    rest = reps & ~nodes
    out = nodes
    while rest:
        part = frontier = rest & -rest
        while frontier:
            frontier = neighborhood(adj, frontier) & rest & ~part
            part |= frontier
        rest &= ~part
        touch = neighborhood(adj, part) & nodes
        if touch & (touch - 1):
            out |= part
    return out


def spider(state: Contracted, centre: int, arms: int = 3) -> int:
    """The regions of a spider around ``centre``: one shortest path from it to the farthest
    region of each of its ``arms`` deepest branches (branches of a breadth-first tree,
    named by their first region; ties go to the lowest region)."""
    adj = state.adj
    parent = {centre: centre}
    branch = {}
    deepest: dict[int, tuple[int, int]] = {}  # branch -> (depth, region)
    frontier = 1 << centre
    seen = frontier
    depth = 0
    while frontier:
        depth += 1
        grown = 0
        for x in bits(frontier):
            for y in bits(adj[x] & ~seen & ~grown):
                parent[y] = x
                branch[y] = y if x == centre else branch[x]
                b = branch[y]
                if b not in deepest or deepest[b][0] < depth:
                    deepest[b] = (depth, y)
                grown |= 1 << y
        seen |= grown
        frontier = grown
    ends = sorted(deepest.values(), key=lambda t: (-t[0], t[1]))[:arms]
    nodes = 1 << centre
    for _, y in ends:
        while y != centre:
            nodes |= 1 << y
            y = parent[y]
    return nodes


def sub_island(state: Contracted, nodes: int) -> Island:
    """The subgraph of ``state`` induced by ``nodes``, renumbered ``0..m-1`` in order."""
    order = list(bits(nodes))
    index = {r: i for i, r in enumerate(order)}
    adjacency = tuple(sum(1 << index[j] for j in bits(state.adj[r] & nodes)) for r in order)
    return Island(bytes(state.color[r] for r in order), adjacency)


def _centres(state: Contracted, count: int) -> list[int]:
    """The ``count`` regions of least eccentricity (ties: lowest region first)."""
    ranked = []
    for x in bits(state.reps):
        seen = frontier = 1 << x
        ecc = 0
        while True:
            frontier = neighborhood(state.adj, frontier) & ~seen
            if not frontier:
                break
            seen |= frontier
            ecc += 1
        ranked.append((ecc, x))
    ranked.sort()
    return [x for _, x in ranked[:count]]


def spider_bound(
    state: Contracted,
    goal: Optional[int] = None,
    centres: int = 5,
    arms: int = 4,
    max_regions: int = MAX_REGIONS,
    max_nodes: int = MAX_NODES,
    cache: Optional[dict] = None,
    need: Optional[int] = None,
) -> int:
    """A lower bound on the moves left: over the spiders (:func:`spider`) around the
    ``centres`` most central regions, closed (:func:`closure`), the greatest lower bound
    on the moves that make the spider one color found by A* within ``max_nodes``
    expansions: its optimum when it finishes, else the bound it proved.

    Admissible: each closed spider ``H`` has ``m(H) <= m(G)``, and ``m(G) <= m(G, goal)``
    with a goal color (:func:`closed_subgraph_lemma`), and the A* on ``H`` only ever
    reports a lower bound on ``m(H)`` (its own admissible bounds, or ``m(H)`` itself).
    ``H`` is searched without the goal color: the A* with a goal takes merging moves
    only, so it counts ``m(H, goal)`` only when that is at most ``m(H) + 1``, which a
    test caught (a last move that recolors the one region left is not a merge).  A spider whose closure
    is the whole graph, or larger than ``max_regions``, is skipped: solving it would be
    the whole problem.  ``cache``, when given, keeps each spider's bound by its colors and
    edges, for the states of one search that share a spider.

    ``need``, when given, is the bound the caller wants to reach (a search prunes a state
    whose bound reaches it): each spider's A* then only asks whether ``H`` has a solution
    shorter than ``need`` (proving that it has none is a proof of ``m(H) >= need``, and
    costs far less than finding ``m(H)`` when that is larger), and the first spider that
    reaches ``need`` ends the call.  The result is then ``min(bound, need)``, still a lower
    bound.
    """
    reps = state.reps
    if reps & (reps - 1) == 0:
        return 0 if goal is None or state.color[reps.bit_length() - 1] == goal else 1
    best = 0
    for nodes in closed_spiders(state, centres, arms, max_regions):
        island = sub_island(state, nodes)
        best = max(best, _cached_bound({} if cache is None else cache, island, lambda: island, max_nodes, need))
        if need is not None and best >= need:
            return need
    return best


def closed_spiders(state: Contracted, centres: int, arms: int, max_regions: int) -> list[int]:
    """The distinct closed spiders (:func:`spider`, :func:`closure`) around the ``centres``
    most central regions of ``state``, leaving out those whose closure is the whole graph
    (solving one would be the whole problem) or larger than ``max_regions``."""
    found: list[int] = []
    for centre in _centres(state, centres):
        nodes = closure(state.adj, state.reps, spider(state, centre, arms))
        if nodes not in found and nodes != state.reps and nodes.bit_count() <= max_regions:
            found.append(nodes)
    return found


def _cached_bound(cache: dict, key, island: Callable[[], Island], max_nodes: int, need: Optional[int],
                  solve: bool = True) -> int:
    """One closed spider's bound from ``cache`` under ``key``; when the cache cannot answer
    ``need`` and ``solve`` is set, the spider (``island()``) is searched
    (:func:`_spider_search`) and the result kept."""
    bound, final = cache.get(key, (0, False))
    if solve and not final and (need is None or bound < need):
        bound, final = _spider_search(island(), max_nodes, need)
        cache[key] = (bound, final)
    return bound


def _spider_search(island: Island, max_nodes: int, need: Optional[int]) -> tuple[int, bool]:
    """``(bound, final)`` for one closed spider: its optimum, or the bound its A* proved
    when ``max_nodes`` stopped it (``final``: searching it again would give no more), or
    ``need`` when it has nothing shorter (not final: without ``need`` it may give more)."""
    from kamivision.solver.astar import astar
    from kamivision.solver.limits import Budget, Limits, SearchStopped  # the search uses this module's callers

    shorter_than = None if need is None else (need, _NONE_SHORTER)
    try:
        path = astar(island, Budget(Limits(max_nodes=max_nodes)), upper=shorter_than)
    except SearchStopped as stop:
        return stop.bound, True
    if path is _NONE_SHORTER:
        return need, False
    return (len(path) if path is not None else 0), True


#: The placeholder solution given to a spider's A* with ``need``: returned when nothing is shorter.
_NONE_SHORTER: list = []


class FixedSpiders:
    """The closed spiders of an island's first state, kept for all its later states.

    Each spider (:func:`spider`) around one of the ``centres`` most central original
    regions is closed (:func:`closure`) in the graph of the original regions; by
    :func:`closed_subgraph_lemma` (4) the optimum of the coloring its regions take in a
    state is a lower bound for that state, whatever moves led there.  A state's colors
    on a spider are its key in that spider's cache, so states that differ only outside it
    share one search: a pattern database filled as the states come.  A spider whose
    closure is the whole island, or larger than ``max_regions``, is left out.
    """

    def __init__(self, island: Island, centres: int = 5, arms: int = 4, max_regions: int = MAX_REGIONS,
                 max_nodes: int = MAX_NODES):
        first = contract(island, island.colors)
        self.max_nodes = max_nodes
        self.parts: list[tuple[list[int], tuple[int, ...], dict]] = []  # regions, adjacency, cache
        for nodes in closed_spiders(first, centres, arms, max_regions):
            self.parts.append((list(bits(nodes)), sub_island(first, nodes).adjacency, {}))

    def bound(self, colors: bytes, need: Optional[int] = None, solve: bool = True) -> int:
        """A lower bound on the moves left in the state whose original regions have
        ``colors``: the largest spider optimum known (see :func:`spider_bound` for ``need``).
        Without ``solve`` only the caches are read: a spider not met before gives 0."""
        best = 0
        for regions, adjacency, cache in self.parts:
            key = bytes([colors[i] for i in regions])  # the cache of one spider: its colors suffice
            best = max(best, _cached_bound(cache, key, lambda: Island(key, adjacency), self.max_nodes, need, solve))
            if need is not None and best >= need:
                return need
        return best

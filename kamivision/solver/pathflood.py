"""The path-flood bound: the fewest moves that flood the cheapest path between two regions.

For a sequence of colors (a path of regions, neighbors of different colors) let
``flood(P)`` be the fewest moves that make the path alone one color, a move recoloring
one of its runs.  Reversed in time, flooding a path is printing it with the "strange
printer", which lays one color over an interval at a time, the later over the earlier:
``flood(P) = prints(P) - 1``, and ``prints`` is the interval recurrence

    prints(i..j) = min(1 + prints(i+1..j),
                       min over k in i+1..j with c[k] = c[i] of prints(i+1..k-1) + prints(k..j))

(the first color's print, widened to reach the next place of that color, costs nothing
more).  ``tests/solver/test_pathflood.py`` checks ``flood = prints - 1`` against
breadth-first search on thousands of random sequences.

The bound is the largest ``L(u, v)`` over pairs of regions, where ``L(u, v)`` is the least
``flood(P)`` over the ``u``-``v`` paths ``P`` of the region graph.  Admissible, by the
lifting argument of :func:`~kamivision.solver.heuristics.pair_term`, whose step (1) holds
for ``flood`` by definition (one move on a path lowers the path's own flood number by at
most one): a move recolors ``x`` and contracts ``S = {x} + its neighbors of the new
color``; the best path ``P'`` after it, with its node ``S`` replaced by at most ``a, x,
b`` (entry and exit members of ``S``, next to ``x``; ``u`` itself when ``u`` is in
``S``), is a ``u``-``v`` path ``P`` before the move whose color sequence becomes that of
``P'`` by one move on the path (recolor ``x``).  So ``L`` before is at most ``flood(P) <=
flood(P') + 1``: one move lowers ``L(u, v)`` by at most one, and ``L = 0`` once one
region is left, so at least ``L(u, v)`` moves remain.  With a goal color the same bound
holds (reaching one region of the goal color needs at least the moves that reach one
region); the goal is used only when one region is left.

Walks instead of paths change nothing: a walk's color sequence has a path's as a
subsequence (erase its loops), and ``prints`` never grows when places are dropped (each
print, cut to the places kept, is still an interval of them).  So ``L`` is found by a
dynamic programme over pairs of regions rather than over paths: with ``A(u, v)`` the least
``prints`` over ``u``-``v`` walks, ``A(u, u) = 1`` and, for ``u != v``,

    A(u, v) = min(1 + min over x next to u of A(x, v),
                  min over w != u of u's color of b(u, w) + A(w, v)),
    b(u, w) = min over x next to u, y next to w of A(x, y)

(the recurrence above, read on a walk: the first step, or the next place of the first
color with the stretch between).  It is computed a level at a time: ``D[k][u]`` is the
set of ``v`` with ``A(u, v) <= k``; since ``D`` grows with ``k``, the split needs only
the least ``b(u, w)``.  ``L(u, v) = A(u, v) - 1``.

The compiled search (``_core/pathflood.c``) also finds the bound's *corridor*: the
moves of regions that lie on a least walk of every one of a few critical pairs (those
with the largest ``A``), printed there by a stroke of their own, to a color of a stroke
under or beside that one.  Any other move leaves the bound as it was (the lemma, the
argument above read once more, is in ``pf_corridor``'s comment), so a child made by such
a move inherits the parent's bound instead of one less, without an evaluation of its own.
``tests/solver/test_pathflood.py`` checks the lemma against the bound worked out after
every move on random islands.
"""

from __future__ import annotations

from typing import Optional

from ..graph import bits
from .state import Contracted


def path_flood_bound(
    state: Contracted, goal: Optional[int] = None, need: Optional[int] = None, final: bool = False
) -> int:
    """The largest ``L(u, v)`` over the state's pairs of regions (see the module's
    docstring), with ``goal`` the color the board must end in, if any.  With ``need``,
    stop as soon as the answer is known to be at least ``need`` and return ``need``
    (or the exact value when below it).  With ``final``, one more when the color the
    board ends in needs it (:func:`final_color_needs_one_more`).  The regions must be
    connected (an island)."""
    reps = list(bits(state.reps))
    if len(reps) == 1:
        return int(goal is not None and state.color[reps[0]] != goal)
    reach = _levels(state, reps, need)
    if reach is None:
        return need
    bound = len(reach) - 2
    if final and (need is None or bound < need) and final_color_needs_one_more(state, reps, reach, goal):
        bound += 1
    return bound


#: At most this many critical pairs are looked at for the final color (as in the core).
FINAL_PAIRS = 64


def final_color_needs_one_more(state: Contracted, reps: list[int], reach: list[list[int]], goal: Optional[int]) -> bool:
    """Whether the color the board ends in needs one move more than the bound of the
    levels ``reach`` (complete: ``top = len(reach) - 1``, the bound ``top - 1``).

    Ending in color ``k``, a path needs ``flood_k(P) = prints(k P) - 1`` moves of its
    own: it is printed on a canvas of color ``k``.  The lifting argument of the module's
    docstring holds for it word for word (recolor ``x`` first, then follow the moves
    after), and one region of color ``k`` has ``flood_k = 0``; so the least, over the
    colors ``k`` the board may end in, of the largest ``L_k(u, v)`` (the least
    ``flood_k`` over ``u``-``v`` walks) is admissible, and with the colors other than
    ``k`` (each move removes at most one) too.  With ``A_k(u, v)`` the least
    ``prints(k P)``, the recurrence's first place is the canvas:

        A_k(u, v) = A(u, v) when u or v has color k (the canvas's print reaches it),
        else min(1 + A(u, v), min over w of color k of B(u, w) + A(w, v)),
        B(u, w) = min over y next to w of A(u, y)

    (the canvas's print reaches the walk's first place ``w`` of color ``k``; the
    stretch before it is a walk from ``u`` to a neighbor of ``w``).  ``A_k <= A + 1``,
    so the bound rises, by one, only when every color ``k`` wanted has a critical pair
    (``A(u, v) = top``) whose ``A_k`` is ``top + 1``, or needs ``top`` moves for its
    other colors anyway.  Any subset of the critical pairs gives a sound answer; the
    first :data:`FINAL_PAIRS` that could still hold a color are looked at, in order.
    The compiled twin is ``pf_final_color`` (``_core/pathflood.c``)."""
    top = len(reach) - 1
    if top < 2:
        return False
    n = len(reps)
    color = [state.color[r] for r in reps]
    index = {r: i for i, r in enumerate(reps)}
    near = [sum(1 << index[j] for j in bits(state.adj[r])) for r in reps]
    present = set(color)
    if goal is not None:
        want = {goal} if len(present - {goal}) < top else set()
    else:
        want = set(present) if len(present) - 1 < top else set()
    if not want:
        return True
    held: set[int] = set()
    looked = 0
    for u in range(n):
        for v in range(u + 1, n):
            if looked == FINAL_PAIRS:
                return False
            if reach[top - 1][u] >> v & 1:
                continue  # A(u, v) < top
            holds = want - held - {color[u], color[v]}
            if not holds:
                continue
            looked += 1
            for w in range(n):
                # B(u, w): the least a with a neighbor of w in u's set at level a.
                b = next((a for a in range(1, top) if near[w] & reach[a][u]), None)
                if b is not None and reach[top - b][v] >> w & 1:
                    holds.discard(color[w])
            held |= holds
            if held == want:
                return True
    return False


def pair_prints(state: Contracted) -> list[list[int]]:
    """``A(u, v)`` for every pair of the state's regions, in the order of their
    representatives: the least ``prints`` over ``u``-``v`` walks, ``L(u, v) + 1``.  The
    bound is read from these levels; the tests compare them with the compiled ones pair
    by pair, which the bound alone (their largest) would not show."""
    reps = list(bits(state.reps))
    if len(reps) == 1:
        return [[1]]
    reach = _levels(state, reps, None)
    assert reach is not None
    return [
        [next(k for k in range(1, len(reach)) if reach[k][u] >> v & 1) for v in range(len(reps))]
        for u in range(len(reps))
    ]


def _levels(state: Contracted, reps: list[int], need: Optional[int]) -> Optional[list[list[int]]]:
    """``reach[k][u]``, the bitset of ``v`` with ``A(u, v) <= k``, for ``k`` from 0 up to
    the first level at which every set holds every region (the bound is that level less
    one); None when ``need`` is given and the bound is found to be at least ``need``
    (the levels stop there)."""
    index = {r: i for i, r in enumerate(reps)}
    n = len(reps)
    color = [state.color[r] for r in reps]
    near = [[index[j] for j in bits(state.adj[r])] for r in reps]
    alike = [[w for w in range(n) if w != u and color[w] == color[u]] for u in range(n)]
    everyone = (1 << n) - 1
    # reach[k][u]: the bitset of v with A(u, v) <= k; split[u][w]: b(u, w) once known.
    reach = [[0] * n, [1 << u for u in range(n)]]
    split = [dict.fromkeys(alike[u], None) for u in range(n)]
    k = 1
    while True:
        last = reach[k]
        if all(r == everyone for r in last):
            return reach
        if need is not None and k >= need:
            return None  # level ``need`` is not full: the bound is at least ``need``
        # b(u, w) <= k: some x next to u and y next to w with A(x, y) <= k.
        for u in range(n):
            for w, b in split[u].items():
                if b is None:
                    ys = 0
                    for y in near[w]:
                        ys |= 1 << y
                    if any(last[x] & ys for x in near[u]):
                        split[u][w] = k
        k += 1
        grown = []
        for u in range(n):
            r = last[u]
            for x in near[u]:
                r |= reach[k - 1][x]
            for w, b in split[u].items():
                if b is not None and b <= k - 1:
                    r |= reach[k - b][w]
            grown.append(r)
        if grown == last:
            raise ValueError("the regions are not connected: no one region can be reached")
        reach.append(grown)

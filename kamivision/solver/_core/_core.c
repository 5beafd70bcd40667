/* The compiled core of kamivision.solver: the A* of kamivision.solver.astar, the sweep
 * that takes over its last threshold, and the fixed-pivot A* of kamivision.solver.pivot.
 *
 * One compilation unit (a unity build, as pyahocorasick's src/pyahocorasick.c): this file
 * includes one file per data structure or search, in an order where each needs only the
 * ones before it.  The searches run the same states, moves and admissible bounds as the
 * Python reference (kamivision/solver/astar.py, heuristics.py, pivot.py), whose
 * docstrings carry the admissibility arguments; tests/solver/test_astar.py checks them against it and
 * against breadth-first search.  Only glue.c touches the Python C API; Python.h comes
 * first because CPython asks that it precede every standard header.
 *
 *   common.h   sizes, the bitset word, an island and a contracted state
 *   state.c    contracting a state, distances, merging moves
 *   bounds.c   the color, pair and final-color bounds (of a state and of its children)
 *   pathflood.c  the path-flood bound (of the states expanded)
 *   winding.c  the winding bound and the choice of its orientation
 *   store.c    stored states (arena and hash table) and packed keys
 *   queue.c    open states by f, then g
 *   limits.c   how a search ends (STATUS_*), its limits and the callbacks it may call
 *   path.c     a search's answer as C arrays
 *   deep.c     depth-first search below an open state, when memory is full
 *   batch.c    expansions in batches, shared with a helper thread
 *   astar.c    the A* (with anytime dives and its depth-first phase)
 *   layer.c    the sweep's states of one region count
 *   spill.c    those states on disk when memory is full (delayed duplicate detection)
 *   symmetry.c symmetric states stored once, in the sweep
 *   sweep.c    the last threshold swept by region count
 *   pivot.c    the fixed-pivot (Flood-It) A*
 *   glue.c     the Python functions
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h> /* mallopt and malloc_trim, in sweep.c */
#endif

#include "common.h"
#include "state.c"
#include "bounds.c"
#include "pathflood.c"
#include "winding.c"
#include "store.c"
#include "queue.c"
#include "limits.c"
#include "path.c"
#include "deep.c"
#include "batch.c"
#include "astar.c"
#include "layer.c"
#include "spill.c"
#include "symmetry.c"
#include "spider.c"
#include "sweep.c"
#include "pivot.c"
#include "glue.c"

/* Safe Zone's A*, compiled: the search of kamivision.puzzles.search.astar over
 * kamivision.puzzles.safezone.SafeZoneProblem with the assignment bound, step for step.
 *
 * The same states (a 64-bit set of the cells holding blocks, so boards of at most 64
 * cells), the same moves in the same order (blocks in row-major order, then up, down,
 * left, right), the same bound (the least total over assignments of distinct blocks to the
 * zones of each block's segment distance to its zone; the distances come from Python),
 * and the same queue order ((f, -g, the order pushed)), so the same states are expanded
 * and the same answer comes out; tests/puzzles/test_safezone.py checks that against the
 * Python search on generated levels.  The bound's argument is in the docstring of
 * kamivision.puzzles.safezone.assignment_bound.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../solver/_core/status.h" /* STATUS_*, FAIL_*, PollFn, now(): shared with the KAMI core */

/* One translation unit: every part's functions are static. */
#include "search.c" /* the assignment bound and the A* */
#include "glue.c"   /* the Python function and the module */

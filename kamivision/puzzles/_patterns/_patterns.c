/* Additive pattern databases and IDA* for the 4 x 4 sliding puzzle (Korf and Felner 2002).
 *
 * The goal has tile t on cell t (cell = 4 * row + column), the empty cell on cell 0.
 * A pattern is a set of k tiles; its database gives, for every placement of those k
 * tiles, the fewest moves OF PATTERN TILES that bring them to their goal cells, the other
 * tiles being indistinguishable and their moves free.  Moves of tiles of disjoint
 * patterns are different moves, so the sum over a partition of the tiles is admissible;
 * so is the sum of the same tables looked up on the board reflected about the main
 * diagonal (the goal is its own reflection), and the larger of the two.
 *
 * build(goal_cells) -> bytes: the database of the pattern whose tiles are goal_cells
 *   (their own goal cells), indexed by rank() of the tiles' cells.  It is a breadth-
 *   first search from the goal placement over (placement, empty cell), where moving a
 *   pattern tile costs 1 and moving the empty cell over a free cell costs 0: each level
 *   is closed under the free moves before the next is made.  Every empty cell is a start
 *   (the empty cell's goal is not constrained: a relaxation, still a lower bound).
 *   A byte a placement: for patterns of up to 7 tiles (the 6-6-3 partition).
 * seed(...), level(...): the same search for 7 and 8 tiles, kept at 4 bits a placement
 *   and run a level (a slice of one) a call: see _patterns_level.c and _patterns.h.
 * ida(tiles, tables, max_seconds, max_nodes) -> (status, path, expanded, bound):
 *   IDA* with h = max(sum, reflected sum); path = the empty cell's cells, move by move.
 *   The tables are all bytes or all packed.  Packed, a group's value is its tiles'
 *   Manhattan distance plus twice the stored excess; the groups share out every tile, and
 *   the reflection about the diagonal keeps distances, so both sums hold the whole
 *   board's Manhattan distance: it is kept once, updated by each move's tile, and the
 *   sums hold the excesses.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../solver/_core/status.h" /* STATUS_*, now(): shared with the KAMI core */
#include "patterns.h"                     /* rank(), placements(), the packed tables */

/* One translation unit: every part's functions and globals are static. */
#include "geometry.c" /* the board's cells, neighbours, mirror and distances */
#include "build.c"    /* the byte databases (up to 7 tiles) */
#include "level.c"    /* a level of the packed databases (7 and 8 tiles), on threads */
#include "ida.c"      /* IDA* over the tables */
#include "glue.c"     /* the Python functions and the module */

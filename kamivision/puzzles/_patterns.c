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

#include "../solver/_core/status.h" /* STATUS_*, now(): shared with the KAMI core */
#include "_patterns.h"              /* the geometry, rank(), the packed tables */

#define BYTE_MAX_K 7 /* build()'s (placement, empty cell) table: 16 bytes a placement */
#define MAX_GROUPS 8

int neighbours[CELLS][4];
int neighbour_count[CELLS];
int reflected[CELLS];
uint16_t neighbour_mask[CELLS];
int distance[CELLS][CELLS];

void init_geometry(void) {
    for (int cell = 0; cell < CELLS; cell++) {
        int r = cell / 4, c = cell % 4, n = 0;
        if (r > 0) neighbours[cell][n++] = cell - 4;
        if (r < 3) neighbours[cell][n++] = cell + 4;
        if (c > 0) neighbours[cell][n++] = cell - 1;
        if (c < 3) neighbours[cell][n++] = cell + 1;
        neighbour_count[cell] = n;
        neighbour_mask[cell] = 0;
        for (int i = 0; i < n; i++) neighbour_mask[cell] |= (uint16_t)(1u << neighbours[cell][i]);
        reflected[cell] = c * 4 + r;
        for (int other = 0; other < CELLS; other++)
            distance[cell][other] = abs(r - other / 4) + abs(c - other % 4);
    }
}

/* ---------------------------------------------------------------- building */

typedef struct {
    uint32_t *items;
    size_t count, capacity;
} Queue;

static int push(Queue *q, uint32_t item) {
    if (q->count == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 1 << 20;
        uint32_t *items = realloc(q->items, capacity * sizeof(uint32_t));
        if (!items) return -1;
        q->items = items;
        q->capacity = capacity;
    }
    q->items[q->count++] = item;
    return 0;
}

/* A queue entry packs the k cells (4 bits each) and the empty cell (4 bits). */
static inline uint32_t pack(const uint8_t *cells, int k, int blank) {
    uint32_t item = (uint32_t)blank;
    for (int i = 0; i < k; i++) item |= (uint32_t)cells[i] << (4 * (i + 1));
    return item;
}

static inline int unpack(uint32_t item, uint8_t *cells, int k) {
    for (int i = 0; i < k; i++) cells[i] = (item >> (4 * (i + 1))) & 15;
    return item & 15;
}

static PyObject *build(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "y#", &goal, &k)) return NULL;
    if (k < 1 || k > BYTE_MAX_K) return PyErr_Format(PyExc_ValueError, "a pattern has 1 to %d tiles", BYTE_MAX_K);
    for (int i = 0; i < k; i++)
        if (goal[i] < 1 || goal[i] >= CELLS) return PyErr_Format(PyExc_ValueError, "pattern tiles are 1 to 15");
    uint64_t size = placements((int)k);
    uint8_t *dist = malloc(size * CELLS);
    if (!dist) return PyErr_NoMemory();
    memset(dist, 255, size * CELLS);
    Queue now = {0}, next = {0};
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    uint8_t cells[MAX_K];
    memcpy(cells, goal, k);
    int used = 0;
    for (int i = 0; i < k; i++) used |= 1 << goal[i];
    uint32_t start = rank(cells, (int)k);
    for (int blank = 0; blank < CELLS; blank++) {
        if (used >> blank & 1) continue;
        dist[(uint64_t)start * CELLS + blank] = 0;
        if (push(&now, pack(cells, (int)k, blank))) failed = 1;
    }
    for (int depth = 0; now.count && !failed; depth++) {
        for (size_t at = 0; at < now.count && !failed; at++) {  /* grows while the level closes */
            uint32_t item = now.items[at];
            int blank = unpack(item, cells, (int)k);
            uint32_t r = rank(cells, (int)k);
            if (dist[(uint64_t)r * CELLS + blank] != depth) continue;  /* lowered since */
            int occupied[CELLS];
            for (int c = 0; c < CELLS; c++) occupied[c] = -1;
            for (int i = 0; i < k; i++) occupied[cells[i]] = i;
            for (int n = 0; n < neighbour_count[blank]; n++) {
                int cell = neighbours[blank][n];
                int tile = occupied[cell];
                if (tile < 0) {  /* the empty cell moves over a free cell: no cost */
                    uint8_t *d = &dist[(uint64_t)r * CELLS + cell];
                    if (*d > depth) {
                        *d = (uint8_t)depth;
                        if (push(&now, pack(cells, (int)k, cell))) failed = 1;
                    }
                } else {  /* a pattern tile moves into the empty cell: one move */
                    cells[tile] = (uint8_t)blank;
                    uint32_t moved = rank(cells, (int)k);
                    uint8_t *d = &dist[(uint64_t)moved * CELLS + cell];
                    if (*d == 255) {
                        *d = (uint8_t)(depth + 1);
                        if (push(&next, pack(cells, (int)k, cell))) failed = 1;
                    }
                    cells[tile] = (uint8_t)cell;
                }
            }
        }
        Queue swap = now;
        now = next;
        next = swap;
        next.count = 0;
    }
    Py_END_ALLOW_THREADS
    free(now.items);
    free(next.items);
    if (failed) {
        free(dist);
        return PyErr_NoMemory();
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out) {
        free(dist);
        return NULL;
    }
    uint8_t *table = (uint8_t *)PyBytes_AS_STRING(out);
    for (uint64_t r = 0; r < size; r++) {
        uint8_t best = 255;
        for (int blank = 0; blank < CELLS; blank++)
            if (dist[r * CELLS + blank] < best) best = dist[r * CELLS + blank];
        table[r] = best;
    }
    free(dist);
    return out;
}

/* ---------------------------------------------------------------- IDA* */

typedef struct {
    int groups;
    int k[MAX_GROUPS];
    uint8_t tiles[MAX_GROUPS][MAX_K];  /* each group's tiles */
    const uint8_t *table[MAX_GROUPS];
    int packed;  /* every table 4 bits a placement (packed_excess), else every one a byte */
    int group_of[CELLS], index_of[CELLS];  /* a tile's group and place in it */
    uint8_t cell_of[CELLS];  /* where each tile is */
    uint8_t tile_at[CELLS];
    int part[MAX_GROUPS], mirror[MAX_GROUPS];  /* each group's value, direct and reflected */
    int sum, mirror_sum;  /* packed: twice the excesses over Manhattan distance */
    int manhattan;  /* packed: every tile's Manhattan distance, the same on the reflected board */
    uint8_t path[256];
    int length;
    uint64_t expanded, max_nodes;
    double deadline;
    int status;  /* STATUS_FOUND while running, then STATUS_LIMIT or STATUS_INTERRUPTED */
} Search;

/* An f above any that a search of the 4 x 4 puzzle can meet (its optima are 80 moves at most,
   and a search gives up past MAX_BOUND): "no f above the bound" and "stopped". */
#define NO_F 1000
#define MAX_BOUND 200

/* Where the group's tiles stand (cells) and that placement's rank. */
static inline uint32_t group_rank(const Search *s, int g, uint8_t *cells) {
    for (int i = 0; i < s->k[g]; i++) cells[i] = s->cell_of[s->tiles[g][i]];
    return rank(cells, s->k[g]);
}

/* The same on the reflected board: the group's tile t stands where tile reflected[t]
   stands, reflected. */
static inline uint32_t mirror_rank(const Search *s, int g, uint8_t *cells) {
    for (int i = 0; i < s->k[g]; i++) cells[i] = (uint8_t)reflected[s->cell_of[reflected[s->tiles[g][i]]]];
    return rank(cells, s->k[g]);
}

/* The byte of the table that holds placement r's value. */
static inline const uint8_t *entry(const Search *s, int g, uint32_t r) {
    return s->table[g] + (s->packed ? r >> 1 : r);
}

/* The table's value for the group's placement of rank r, less the tiles' Manhattan
   distance for packed tables (it is kept whole in s->manhattan). */
static inline int value(const Search *s, int g, uint32_t r) {
    return s->packed ? 2 * packed_excess(s->table[g], r) : s->table[g][r];
}

static inline int group_value(const Search *s, int g) {
    uint8_t cells[MAX_K];
    return value(s, g, group_rank(s, g, cells));
}

static inline int mirror_value(const Search *s, int g) {
    uint8_t cells[MAX_K];
    return value(s, g, mirror_rank(s, g, cells));
}

static inline int heuristic(const Search *s) {
    return s->manhattan + (s->sum > s->mirror_sum ? s->sum : s->mirror_sum);
}

/* Returns -1 when the goal is reached, else the least f above the bound (or NO_F). */
static int dfs(Search *s, int blank, int previous, int g, int bound) {
    int h = heuristic(s);
    int f = g + h;
    if (f > bound) return f;
    if (h == 0) {
        int solved = 1;
        for (int t = 1; t < CELLS && solved; t++) solved = s->cell_of[t] == t;
        if (solved) {
            s->length = g;
            return -1;
        }
    }
    if ((++s->expanded & 0xFFFFF) == 0) {
        if (s->max_nodes && s->expanded > s->max_nodes) s->status = STATUS_LIMIT;
        if (s->deadline > 0 && now() > s->deadline) s->status = STATUS_LIMIT;
        PyGILState_STATE state = PyGILState_Ensure();
        if (PyErr_CheckSignals()) {
            PyErr_Clear();
            s->status = STATUS_INTERRUPTED;
        }
        PyGILState_Release(state);
    }
    if (s->status) return NO_F;
    /* First the children's ranks, and a prefetch of their table entries: the 8-tile table
       is far larger than the caches, so the lookups below find their bytes on the way
       instead of waiting for each in turn.  A child whose f is over the bound is then
       counted without a call (the call would return that f at once). */
    int moves = 0, cells_of[4];
    uint8_t cells[MAX_K];
    uint32_t r1[4], r2[4];
    for (int n = 0; n < neighbour_count[blank]; n++) {
        int cell = neighbours[blank][n];
        if (cell == previous) continue;
        int tile = s->tile_at[cell];
        s->cell_of[tile] = (uint8_t)blank;
        r1[moves] = group_rank(s, s->group_of[tile], cells);
        r2[moves] = mirror_rank(s, s->group_of[reflected[tile]], cells);
        s->cell_of[tile] = (uint8_t)cell;
        if (s->packed) {  /* (the 6-6-3 tables fit the caches well enough: a prefetch there only costs) */
            __builtin_prefetch(entry(s, s->group_of[tile], r1[moves]));
            __builtin_prefetch(entry(s, s->group_of[reflected[tile]], r2[moves]));
        }
        cells_of[moves++] = cell;
    }
    int least = NO_F;
    for (int m = 0; m < moves; m++) {
        int cell = cells_of[m];
        int tile = s->tile_at[cell];
        int g1 = s->group_of[tile], g2 = s->group_of[reflected[tile]];
        int old1 = s->part[g1], old2 = s->mirror[g2];
        int new1 = value(s, g1, r1[m]), new2 = value(s, g2, r2[m]);
        int sum = s->sum + new1 - old1, mirror_sum = s->mirror_sum + new2 - old2;
        int moved = s->packed ? distance[blank][tile] - distance[cell][tile] : 0;  /* its Manhattan distance's change */
        int child_f = g + 1 + s->manhattan + moved + (sum > mirror_sum ? sum : mirror_sum);
        if (child_f > bound) {  /* what the child's call would return at once, without the call */
            if (child_f < least) least = child_f;
            continue;
        }
        /* the tile moves into the empty cell */
        s->tile_at[blank] = (uint8_t)tile;
        s->tile_at[cell] = 0;
        s->cell_of[tile] = (uint8_t)blank;
        s->part[g1] = new1;
        s->mirror[g2] = new2;
        s->sum = sum;
        s->mirror_sum = mirror_sum;
        s->manhattan += moved;
        s->path[g] = (uint8_t)cell;
        int found = dfs(s, cell, blank, g + 1, bound);
        s->sum -= new1 - old1;
        s->mirror_sum -= new2 - old2;
        s->manhattan -= moved;
        s->part[g1] = old1;
        s->mirror[g2] = old2;
        s->cell_of[tile] = (uint8_t)cell;
        s->tile_at[cell] = (uint8_t)tile;
        s->tile_at[blank] = 0;
        if (found == -1) return -1;
        if (found < least) least = found;
        if (s->status) return NO_F;
    }
    return least;
}

static PyObject *ida(PyObject *self, PyObject *args) {
    const uint8_t *tiles;
    Py_ssize_t count;
    PyObject *groups, *out = NULL;
    double max_seconds;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "y#O!dK", &tiles, &count, &PyList_Type, &groups, &max_seconds, &max_nodes)) return NULL;
    if (count != CELLS) return PyErr_Format(PyExc_ValueError, "16 tiles expected");
    Py_ssize_t group_count = PyList_GET_SIZE(groups);
    if (group_count < 1 || group_count > MAX_GROUPS) return PyErr_Format(PyExc_ValueError, "1 to %d groups", MAX_GROUPS);
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    Py_buffer views[MAX_GROUPS]; /* the tables (bytes, or a file's mmap), held for the search */
    int held = 0, seen = 0;
    for (int c = 0; c < CELLS; c++) s->group_of[c] = -1;
    for (int g = 0; g < group_count; g++, s->groups++) {
        const uint8_t *members;
        Py_ssize_t k;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(groups, g), "y#y*", &members, &k, &views[g])) goto done;
        held++;
        uint64_t size = (uint64_t)views[g].len;
        if (k < 1 || k > MAX_K || (size != placements((int)k) && size != (placements((int)k) + 1) / 2)) {
            PyErr_Format(PyExc_ValueError, "group %d: its table does not fit its tiles", g);
            goto done;
        }
        s->k[g] = (int)k;
        s->table[g] = views[g].buf;
        int packed = size != placements((int)k);
        if (g > 0 && packed != s->packed) {
            PyErr_Format(PyExc_ValueError, "the tables must be all packed or all bytes");
            goto done;
        }
        s->packed = packed;
        for (int i = 0; i < k; i++) {
            int t = members[i];
            if (t < 1 || t >= CELLS || (seen >> t & 1)) {
                PyErr_Format(PyExc_ValueError, "the groups must share out the tiles 1 to 15");
                goto done;
            }
            seen |= 1 << t;
            s->tiles[g][i] = (uint8_t)t;
            s->group_of[t] = g;
            s->index_of[t] = i;
        }
    }
    if (seen != 0xFFFE) {
        PyErr_Format(PyExc_ValueError, "the groups must share out the tiles 1 to 15");
        goto done;
    }
    int blank = -1, check = 0;
    for (int c = 0; c < CELLS; c++) {
        s->tile_at[c] = tiles[c];
        if (tiles[c] >= CELLS || (check >> tiles[c] & 1)) {
            PyErr_Format(PyExc_ValueError, "the tiles must be 0 to 15, each once");
            goto done;
        }
        check |= 1 << tiles[c];
        s->cell_of[tiles[c]] = (uint8_t)c;
        if (tiles[c] == 0) blank = c;
    }
    for (int g = 0; g < s->groups; g++) {
        s->part[g] = group_value(s, g);
        s->mirror[g] = mirror_value(s, g);
        s->sum += s->part[g];
        s->mirror_sum += s->mirror[g];
    }
    for (int t = 1; s->packed && t < CELLS; t++) s->manhattan += distance[s->cell_of[t]][t];
    s->max_nodes = max_nodes;
    s->deadline = max_seconds > 0 ? now() + max_seconds : 0;
    int bound = heuristic(s), found = NO_F;
    Py_BEGIN_ALLOW_THREADS
    while (1) {
        found = dfs(s, blank, -1, 0, bound);
        if (found == -1 || s->status || found >= NO_F || found > MAX_BOUND) break;
        bound = found;
    }
    Py_END_ALLOW_THREADS
    PyObject *path = found == -1 ? PyBytes_FromStringAndSize((const char *)s->path, s->length) : Py_NewRef(Py_None);
    int status = found == -1 ? STATUS_FOUND : (s->status ? s->status : STATUS_NONE);
    out = Py_BuildValue("(iNKi)", status, path, (unsigned long long)s->expanded, found == -1 ? s->length : bound);
done:
    for (int g = 0; g < held; g++) PyBuffer_Release(&views[g]);
    free(s);
    return out;
}

/* ---------------------------------------------------------------- packed tables */

/* Whether goal names 1 to MAX_K tiles and the buffers fit a packed build of them:
   visited (2 bytes a placement), frontier and the next level (a bit a placement, in
   64-bit words), packed (4 bits a placement); next and packed may be NULL (not given). */
static int build_fits(const uint8_t *goal, Py_ssize_t k, const Py_buffer *visited, const Py_buffer *frontier,
                      const Py_buffer *next, const Py_buffer *packed) {
    if (k < 1 || k > MAX_K) return 0;
    for (int i = 0; i < k; i++)
        if (goal[i] < 1 || goal[i] >= CELLS) return 0;
    uint64_t size = placements((int)k), words = (size + 63) / 64;
    return (uint64_t)visited->len == 2 * size && (uint64_t)frontier->len == 8 * words &&
           (!next || (uint64_t)next->len == 8 * words) && (!packed || (uint64_t)packed->len == (size + 1) / 2);
}

#define NOT_FIT "the build's buffers do not fit a pattern of 1 to %d tiles"

/* Level 0: the goal placement, with the empty cell on any free cell (its goal is not
   constrained), in visited and frontier. */
static PyObject *seed(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    Py_buffer visited, frontier;
    if (!PyArg_ParseTuple(args, "y#w*w*", &goal, &k, &visited, &frontier)) return NULL;
    int fits = build_fits(goal, k, &visited, &frontier, NULL, NULL);
    if (fits) {
        unsigned used = 0;
        for (int i = 0; i < k; i++) used |= 1u << goal[i];
        uint32_t r = rank(goal, (int)k);
        ((uint16_t *)visited.buf)[r] = (uint16_t)(~used & 0xFFFFu);
        ((uint64_t *)frontier.buf)[r >> 6] |= 1ull << (r & 63);
    }
    PyBuffer_Release(&visited);
    PyBuffer_Release(&frontier);
    if (!fits) return PyErr_Format(PyExc_ValueError, NOT_FIT, MAX_K);
    Py_RETURN_NONE;
}

static PyObject *level(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    int depth, threads;
    unsigned long long first, last;
    Py_buffer views[4]; /* visited, frontier, next, packed */
    if (!PyArg_ParseTuple(args, "y#iw*w*w*w*iKK", &goal, &k, &depth, &views[0], &views[1], &views[2], &views[3],
                          &threads, &first, &last))
        return NULL;
    int fits = build_fits(goal, k, &views[0], &views[1], &views[2], &views[3]);
    uint64_t reached = 0, components = 0, clipped = 0;
    if (fits) {
        Py_BEGIN_ALLOW_THREADS
        expand_level(goal, (int)k, depth, views[0].buf, views[1].buf, views[2].buf, views[3].buf, threads, first,
                     last, &reached, &components, &clipped);
        Py_END_ALLOW_THREADS
    }
    for (int i = 0; i < 4; i++) PyBuffer_Release(&views[i]);
    if (!fits) return PyErr_Format(PyExc_ValueError, NOT_FIT, MAX_K);
    return Py_BuildValue("(KKK)", (unsigned long long)reached, (unsigned long long)components, (unsigned long long)clipped);
}

static PyMethodDef methods[] = {
    {"build", build, METH_VARARGS, "build(goal_cells) -> bytes: a pattern database of the 4 x 4 puzzle"},
    {"seed", seed, METH_VARARGS, "seed(goal_cells, visited, frontier): a packed build's level 0"},
    {"level", level, METH_VARARGS,
     "level(goal_cells, depth, visited, frontier, next, packed, threads, first_word, last_word) -> (placements, states, "
     "clipped): a slice of the next level"},
    {"ida", ida, METH_VARARGS, "ida(tiles, [(tiles, table), ...], max_seconds, max_nodes) -> (status, path, expanded, bound)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_patterns", NULL, -1, methods};

PyMODINIT_FUNC PyInit__patterns(void) {
    init_geometry();
    return PyModule_Create(&module);
}

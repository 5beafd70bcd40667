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

#include "../solver/_core/status.h" /* STATUS_*, now(): shared with the KAMI core */

#define MAX_CELLS 64
#define MAX_ZONES 64
#define UNKNOWN_H (-2)
#define DEAD_H (-1)   /* no assignment: no goal can be reached from the state */
#define BIG 1000000LL /* an impossible pairing in the assignment (as the Python bound's) */

typedef struct {
    uint64_t state;
    int32_t g;      /* the shortest path known (INT32_MAX: not reached yet) */
    int32_t h;      /* UNKNOWN_H, DEAD_H or the bound */
    int32_t parent; /* the node it was reached from (-1: the start) */
    uint8_t from, dir, to;
    uint8_t used;
} Node;

typedef struct {
    int32_t f, g;
    uint64_t order;
    int32_t node;
} Entry;

typedef struct {
    int zones;
    uint64_t zone_bits;
    int stop_on_zone;
    int step[4][MAX_CELLS];
    int16_t distance[MAX_ZONES][MAX_CELLS]; /* -1: no segment path */
    Node *nodes;
    size_t capacity, count; /* the hash table of nodes (open addressing, a power of two) */
    Entry *heap;
    size_t heap_size, heap_capacity;
    uint64_t pushed;
} Search;

/* ------------------------------------------------------------------ nodes */

static inline size_t hash64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* The node of `state`, made when new.  The table never grows here: the search makes room
 * (reserve()) before each expansion, so no node number it holds moves under it. */
static int32_t node_of(Search *s, uint64_t state) {
    size_t mask = s->capacity - 1, i = hash64(state) & mask;
    while (s->nodes[i].used) {
        if (s->nodes[i].state == state) return (int32_t)i;
        i = (i + 1) & mask;
    }
    Node *node = &s->nodes[i];
    node->used = 1;
    node->state = state;
    node->g = INT32_MAX;
    node->h = UNKNOWN_H;
    node->parent = -1;
    s->count++;
    return (int32_t)i;
}

/* Doubles the table; node numbers change, so the queue's and the parents' are mapped. */
static int grow(Search *s) {
    size_t old_capacity = s->capacity, capacity = old_capacity ? old_capacity * 2 : 1024;
    if (capacity > ((size_t)1 << 31)) return -1;
    Node *nodes = calloc(capacity, sizeof(Node));
    int32_t *moved = malloc(old_capacity * sizeof(int32_t) + 1);
    if (!nodes || !moved) {
        free(nodes);
        free(moved);
        return -1;
    }
    for (size_t i = 0; i < old_capacity; i++) {
        if (!s->nodes[i].used) continue;
        size_t j = hash64(s->nodes[i].state) & (capacity - 1);
        while (nodes[j].used) j = (j + 1) & (capacity - 1);
        nodes[j] = s->nodes[i];
        moved[i] = (int32_t)j;
    }
    for (size_t j = 0; j < capacity; j++)
        if (nodes[j].used && nodes[j].parent >= 0) nodes[j].parent = moved[nodes[j].parent];
    for (size_t k = 0; k < s->heap_size; k++) s->heap[k].node = moved[s->heap[k].node];
    free(s->nodes);
    free(moved);
    s->nodes = nodes;
    s->capacity = capacity;
    return 0;
}

/* Room for `more` new nodes at most half full; -1 when memory ran out. */
static int reserve(Search *s, size_t more) {
    while ((s->count + more) * 2 > s->capacity)
        if (grow(s)) return -1;
    return 0;
}

/* ------------------------------------------------------------------ the queue */

static inline int before(const Entry *a, const Entry *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g; /* -g ascending */
    return a->order < b->order;
}

static int push(Search *s, int32_t f, int32_t g, int32_t node) {
    if (s->heap_size == s->heap_capacity) {
        size_t capacity = s->heap_capacity ? s->heap_capacity * 2 : 1024;
        Entry *heap = realloc(s->heap, capacity * sizeof(Entry));
        if (!heap) return -1;
        s->heap = heap;
        s->heap_capacity = capacity;
    }
    size_t i = s->heap_size++;
    Entry e = {f, g, s->pushed++, node};
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!before(&e, &s->heap[up])) break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = e;
    return 0;
}

static Entry pop(Search *s) {
    Entry top = s->heap[0], last = s->heap[--s->heap_size];
    size_t i = 0, n = s->heap_size;
    while (1) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&s->heap[child + 1], &s->heap[child])) child++;
        if (!before(&s->heap[child], &last)) break;
        s->heap[i] = s->heap[child];
        i = child;
    }
    if (n) s->heap[i] = last;
    return top;
}

/* ------------------------------------------------------------------ the bound */

/* The least total over assignments of distinct columns to the rows (depth first, cut when
 * the partial total reaches the best): as safezone._least_assignment, for up to 4 zones. */
static long long least_by_search(long long cost[][MAX_CELLS], int rows, int columns, int row, uint64_t used,
                                 long long spent, long long best) {
    if (row == rows) return spent;
    for (int c = 0; c < columns; c++) {
        long long v = cost[row][c];
        if (v >= BIG || (used >> c & 1) || (best >= 0 && spent + v >= best)) continue;
        long long found = least_by_search(cost, rows, columns, row + 1, used | (1ULL << c), spent + v, best);
        if (found >= 0 && (best < 0 || found < best)) best = found;
    }
    return best;
}

/* The least total of a rows x columns assignment (rows <= columns), by the Hungarian
 * method with potentials (O(rows^2 columns)); impossible pairings cost BIG, as in the
 * Python bound's call of scipy's linear_sum_assignment. */
static long long least_by_hungarian(long long cost[][MAX_CELLS], int rows, int columns) {
    long long u[MAX_ZONES + 1] = {0}, v[MAX_CELLS + 1] = {0}, least[MAX_CELLS + 1];
    int match[MAX_CELLS + 1] = {0}, way[MAX_CELLS + 1] = {0}, done[MAX_CELLS + 1];
    const long long INF = (long long)1 << 60;
    for (int i = 1; i <= rows; i++) {
        match[0] = i;
        int j0 = 0;
        for (int j = 0; j <= columns; j++) {
            least[j] = INF;
            done[j] = 0;
        }
        do {
            done[j0] = 1;
            int i0 = match[j0], j1 = 0;
            long long delta = INF;
            for (int j = 1; j <= columns; j++) {
                if (done[j]) continue;
                long long cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
                if (cur < least[j]) {
                    least[j] = cur;
                    way[j] = j0;
                }
                if (least[j] < delta) {
                    delta = least[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= columns; j++) {
                if (done[j]) {
                    u[match[j]] += delta;
                    v[j] -= delta;
                } else {
                    least[j] -= delta;
                }
            }
            j0 = j1;
        } while (match[j0] != 0);
        do {
            int j1 = way[j0];
            match[j0] = match[j1];
            j0 = j1;
        } while (j0);
    }
    long long total = 0;
    for (int j = 1; j <= columns; j++)
        if (match[j]) total += cost[match[j] - 1][j - 1];
    return total;
}

/* H1 of the state: the bound, or DEAD_H when no assignment is finite. */
static int32_t bound_of(const Search *s, uint64_t state) {
    static __thread long long cost[MAX_ZONES][MAX_CELLS];
    int blocks[MAX_CELLS], b = 0;
    for (uint64_t rest = state; rest; rest &= rest - 1) blocks[b++] = __builtin_ctzll(rest);
    for (int z = 0; z < s->zones; z++)
        for (int j = 0; j < b; j++) {
            int d = s->distance[z][blocks[j]];
            cost[z][j] = d < 0 ? BIG : d;
        }
    long long total;
    if (s->zones <= 4) {
        total = least_by_search(cost, s->zones, b, 0, 0, 0, -1);
        return total < 0 ? DEAD_H : (int32_t)total;
    }
    total = least_by_hungarian(cost, s->zones, b);
    return total >= BIG ? DEAD_H : (int32_t)total;
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    double started, max_seconds, next_report; /* max_seconds < 0: none */
    long long max_nodes, expanded;            /* max_nodes < 0: none */
    PyObject *progress;                       /* None: no reports */
    int status;
} Clock;

/* The error set (with the GIL held): Ctrl-C stops the search like a limit (1), anything
 * else fails it (-1, the error left set). */
static int stopped_by_error(Clock *clock) {
    if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) return -1;
    PyErr_Clear();
    clock->status = STATUS_INTERRUPTED;
    return 1;
}

/* Counts one expansion (as search.Clock.spent): 1 when a limit or Ctrl-C stops the
 * search (its status says which), -1 when the progress callback failed. */
static int spent(Clock *clock, int bound) {
    clock->expanded++;
    if (clock->max_nodes >= 0 && clock->expanded > clock->max_nodes) {
        clock->status = STATUS_LIMIT;
        return 1;
    }
    if ((clock->expanded & 255) != 0) return 0;
    double t = now();
    if (clock->max_seconds >= 0 && t - clock->started > clock->max_seconds) {
        clock->status = STATUS_LIMIT;
        return 1;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = 0;
    if (PyErr_CheckSignals()) {
        stop = stopped_by_error(clock);
    } else if (clock->progress != Py_None && t >= clock->next_report) {
        clock->next_report = t + 0.5;
        PyObject *info = Py_BuildValue("{s:L,s:i,s:d}", "expanded", clock->expanded, "bound", bound, "seconds", t - clock->started);
        PyObject *r = info ? PyObject_CallOneArg(clock->progress, info) : NULL;
        Py_XDECREF(info);
        if (!r) stop = stopped_by_error(clock);
        Py_XDECREF(r);
    }
    PyGILState_Release(gil);
    return stop;
}

static int late(const Clock *clock) {
    return clock->max_seconds >= 0 && now() - clock->started > clock->max_seconds;
}

/* The A* (search.astar): STATUS_FOUND with *goal set, STATUS_NONE when the queue ran dry
 * (no solution), STATUS_LIMIT or STATUS_INTERRUPTED; -1 out of memory, -2 a failed callback. */
static int run(Search *s, uint64_t start, Clock *clock, int32_t *bound, int32_t *goal) {
    if (reserve(s, 1)) return -1;
    int32_t first = node_of(s, start);
    s->nodes[first].g = 0;
    s->nodes[first].h = bound_of(s, start);
    if (s->nodes[first].h == DEAD_H) return STATUS_NONE; /* the bound proves no goal can be reached */
    *bound = s->nodes[first].h;
    if (push(s, s->nodes[first].h, 0, first)) return -1;
    while (s->heap_size) {
        Entry e = pop(s);
        Node *node = &s->nodes[e.node];
        if (e.g > node->g) continue; /* a shorter path reached it since */
        if (e.f > *bound) *bound = e.f;
        uint64_t state = node->state;
        if ((s->zone_bits & ~state) == 0) {
            *goal = e.node;
            return STATUS_FOUND;
        }
        int stop = spent(clock, *bound);
        if (stop > 0) return clock->status;
        if (stop < 0) return -2;
        /* Room for every child first: the table may move only here, where no node number
           is held but in the queue (which grow() renumbers) and this state's own, found
           again after it. */
        if (reserve(s, 4 * MAX_CELLS)) return -1;
        int32_t here = node_of(s, state), g = e.g + 1;
        int weighed = 0;
        for (uint64_t rest = state; rest; rest &= rest - 1) {
            int cell = __builtin_ctzll(rest);
            for (int d = 0; d < 4; d++) {
                int at = cell;
                while (1) {
                    int next = s->step[d][at];
                    if (next < 0 || (state >> next & 1)) break;
                    at = next;
                    if (s->stop_on_zone && (s->zone_bits >> at & 1)) break;
                }
                if (at == cell) continue;
                int index = weighed++;
                uint64_t child = (state ^ (1ULL << cell)) | (1ULL << at);
                int32_t c = node_of(s, child);
                Node *kid = &s->nodes[c];
                if (g >= kid->g) continue;
                if ((index & 15) == 15 && late(clock)) {
                    clock->status = STATUS_LIMIT;
                    return STATUS_LIMIT;
                }
                if (kid->h == UNKNOWN_H) kid->h = bound_of(s, child);
                if (kid->h == DEAD_H) continue;
                kid->g = g;
                kid->parent = here;
                kid->from = (uint8_t)cell;
                kid->dir = (uint8_t)d;
                kid->to = (uint8_t)at;
                if (push(s, g + kid->h, g, c)) return -1;
            }
        }
    }
    return STATUS_NONE;
}

/* astar(rows, columns, floor, zones, blocks, stop_on_zone, distances, max_seconds,
 *       max_nodes, progress) -> (status, moves, expanded, bound) */
static PyObject *astar(PyObject *self, PyObject *args) {
    int rows, columns, stop_on_zone;
    unsigned long long floor, zones, blocks;
    const char *distances;
    Py_ssize_t size;
    double max_seconds;
    long long max_nodes;
    PyObject *progress;
    if (!PyArg_ParseTuple(args, "iiKKKpy#dLO", &rows, &columns, &floor, &zones, &blocks, &stop_on_zone, &distances,
                          &size, &max_seconds, &max_nodes, &progress))
        return NULL;
    int n = rows * columns, z = __builtin_popcountll(zones);
    if (rows < 1 || columns < 1 || n > MAX_CELLS) return PyErr_Format(PyExc_ValueError, "1 to %d cells", MAX_CELLS);
    if (z < 1 || size != (Py_ssize_t)(z * n * 2))
        return PyErr_Format(PyExc_ValueError, "distances: %d zones x %d cells of int16 expected", z, n);
    if (progress != Py_None && !PyCallable_Check(progress)) return PyErr_Format(PyExc_TypeError, "progress must be callable");
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->zones = z;
    s->zone_bits = zones;
    s->stop_on_zone = stop_on_zone;
    for (int k = 0; k < z; k++) memcpy(s->distance[k], distances + (size_t)k * n * 2, (size_t)n * 2);
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++)
        for (int cell = 0; cell < n; cell++) {
            int r = cell / columns + dr[d], c = cell % columns + dc[d];
            int next = (r >= 0 && r < rows && c >= 0 && c < columns) ? r * columns + c : -1;
            s->step[d][cell] = (next >= 0 && (floor >> next & 1)) ? next : -1;
        }
    Clock clock = {now(), max_seconds, 0, max_nodes, 0, progress, STATUS_FOUND};
    clock.next_report = clock.started + 0.5;
    int32_t bound = 0, goal = -1;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run(s, blocks, &clock, &bound, &goal);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (status == -1) {
        PyErr_NoMemory();
    } else if (status == -2) {
        /* the callback's error is set */
    } else {
        PyObject *moves = Py_None;
        Py_INCREF(Py_None);
        if (status == STATUS_FOUND) {
            Py_DECREF(moves);
            moves = PyList_New(0);
            for (int32_t i = goal; moves && s->nodes[i].parent >= 0; i = s->nodes[i].parent) {
                PyObject *move = Py_BuildValue("(iii)", s->nodes[i].from, s->nodes[i].dir, s->nodes[i].to);
                if (!move || PyList_Append(moves, move)) Py_CLEAR(moves);
                Py_XDECREF(move);
            }
            if (moves && PyList_Reverse(moves)) Py_CLEAR(moves);
        }
        if (moves) out = Py_BuildValue("(iNLi)", status, moves, clock.expanded, bound);
    }
    free(s->nodes);
    free(s->heap);
    free(s);
    return out;
}

static PyMethodDef methods[] = {
    {"astar", astar, METH_VARARGS,
     "astar(rows, columns, floor, zones, blocks, stop_on_zone, distances, max_seconds, max_nodes, progress)"
     " -> (status, moves, expanded, bound): Safe Zone's A* with the assignment bound"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_safezone", NULL, -1, methods};

PyMODINIT_FUNC PyInit__safezone(void) { return PyModule_Create(&module); }

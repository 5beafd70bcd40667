/* Safe Zone's A*, free of Python: the assignment bound and the search.  Ctrl-C and
 * progress reach it through Clock.poll, which only the glue (glue.c) fills. */

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
    double started, max_seconds; /* max_seconds < 0: none */
    long long max_nodes, expanded; /* max_nodes < 0: none */
    PollFn poll;                   /* Ctrl-C and progress (NULL: none), about every 256 expansions */
    void *ctx;
    int status;
} Clock;

/* Counts one expansion (as search.Clock.spent): 1 when a limit or Ctrl-C stops the
 * search (its status says which), -1 when the poll failed. */
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
    int stop = clock->poll ? clock->poll(clock->ctx, clock->expanded, bound, t - clock->started) : 0;
    if (stop > 0) clock->status = STATUS_INTERRUPTED;
    return stop;
}

static int late(const Clock *clock) {
    return clock->max_seconds >= 0 && now() - clock->started > clock->max_seconds;
}

/* The A* (search.astar): STATUS_FOUND with *goal set, STATUS_NONE when the queue ran dry
 * (no solution), STATUS_LIMIT or STATUS_INTERRUPTED; -1 when it failed, *fail saying why
 * (FAIL_MEMORY, FAIL_CALLBACK). */
static int run(Search *s, uint64_t start, Clock *clock, int32_t *bound, int32_t *goal, int *fail) {
    *fail = FAIL_MEMORY; /* what a -1 below means, unless the poll failed */
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
        if (stop < 0) {
            *fail = FAIL_CALLBACK;
            return -1;
        }
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

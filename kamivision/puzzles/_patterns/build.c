/* The byte databases (patterns of up to BYTE_MAX_K tiles): a breadth-first search from
 * the goal placement over (placement, empty cell), where moving a pattern tile costs 1
 * and moving the empty cell over a free cell costs 0 (each level is closed under the
 * free moves before the next is made).  Free of Python: the glue (glue.c) calls it. */

#define BYTE_MAX_K 7 /* build_table()'s (placement, empty cell) table: 16 bytes a placement */

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

/* The database of the k tiles whose goal cells are goal into table (placements(k) bytes,
   indexed by rank()): 0, or -1 when memory ran out. */
static int build_table(const uint8_t *goal, int k, uint8_t *table) {
    uint64_t size = placements(k);
    uint8_t *dist = malloc(size * CELLS);
    if (!dist) return -1;
    memset(dist, 255, size * CELLS);
    Queue now = {0}, next = {0};
    int failed = 0;
    uint8_t cells[MAX_K];
    memcpy(cells, goal, k);
    int used = 0;
    for (int i = 0; i < k; i++) used |= 1 << goal[i];
    uint32_t start = rank(cells, k);
    for (int blank = 0; blank < CELLS; blank++) {
        if (used >> blank & 1) continue;
        dist[(uint64_t)start * CELLS + blank] = 0;
        if (push(&now, pack(cells, k, blank))) failed = 1;
    }
    for (int depth = 0; now.count && !failed; depth++) {
        for (size_t at = 0; at < now.count && !failed; at++) {  /* grows while the level closes */
            uint32_t item = now.items[at];
            int blank = unpack(item, cells, k);
            uint32_t r = rank(cells, k);
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
                        if (push(&now, pack(cells, k, cell))) failed = 1;
                    }
                } else {  /* a pattern tile moves into the empty cell: one move */
                    cells[tile] = (uint8_t)blank;
                    uint32_t moved = rank(cells, k);
                    uint8_t *d = &dist[(uint64_t)moved * CELLS + cell];
                    if (*d == 255) {
                        *d = (uint8_t)(depth + 1);
                        if (push(&next, pack(cells, k, cell))) failed = 1;
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
    free(now.items);
    free(next.items);
    if (failed) {
        free(dist);
        return -1;
    }
    for (uint64_t r = 0; r < size; r++) {
        uint8_t best = 255;
        for (int blank = 0; blank < CELLS; blank++)
            if (dist[r * CELLS + blank] < best) best = dist[r * CELLS + blank];
        table[r] = best;
    }
    free(dist);
    return 0;
}


/* One level of the breadth-first build of a packed pattern database (7 or 8 tiles).
 *
 * The search is over (placement of the pattern's k tiles, empty cell), as in
 * build.c: a pattern tile's move costs 1, the empty cell crossing a free cell
 * costs nothing.  So the empty cell stands anywhere in its component of free cells at no
 * cost, and a state is (placement, component): visited[r] holds the empty cells reached
 * for placement r, whole components at a time (16 bits a placement: 1 GB for 8 tiles,
 * where a byte per (placement, empty cell) would take 8 GB).  The first level that reaches
 * a placement gives its value, since the levels come in order of cost.
 *
 * The levels never race: a pattern tile's move changes the checkerboard colour of one of
 * its tiles, so every state of a placement is reached at depths of one parity.  Level d
 * reads the placements of parity d and writes those of parity d + 1, so the threads that
 * share a level never read a placement another is writing (the writes are atomic ORs
 * among themselves).  A frontier placement is expanded from all its reached empty
 * cells, some of which may be from level d - 2 or earlier: their moves lead to states
 * reached already, so they add nothing.
 */

#ifndef _WIN32
#include <pthread.h>
#define LEVEL_THREADS 1
#else
#define LEVEL_THREADS 0
#endif

/* The free cells reachable from cell without crossing a tile. */
static inline uint16_t component(uint16_t free, int cell) {
    uint32_t comp = 1u << cell;
    for (;;) {
        uint32_t grown = (comp | comp << 4 | comp >> 4 | ((comp << 1) & 0xEEEEu) | ((comp >> 1) & 0x7777u)) & free;
        if (grown == comp) return (uint16_t)comp;
        comp = grown;
    }
}

typedef struct {
    const uint8_t *goal;
    int k, depth;
    uint16_t *visited;
    const uint64_t *frontier;
    uint64_t *next, words;  /* words: the end of the slice */
    uint8_t *packed;
    uint64_t cursor;  /* the next chunk of frontier words to take (shared, atomic) */
    uint64_t reached, components, clipped;  /* summed over the threads (atomic) */
} Level;

#define CHUNK 2048

static void expand_placement(Level *level, uint32_t r, uint64_t *reached, uint64_t *components, uint64_t *clipped) {
    int k = level->k;
    uint8_t cells[MAX_K];
    unrank(r, cells, k);
    unsigned occupied = 0;
    for (int i = 0; i < k; i++) occupied |= 1u << cells[i];
    uint16_t empty = __atomic_load_n(&level->visited[r], __ATOMIC_RELAXED);
    for (int i = 0; i < k; i++) {
        int from = cells[i];
        unsigned targets = neighbour_mask[from] & empty;
        while (targets) {
            int to = __builtin_ctz(targets);
            targets &= targets - 1;
            cells[i] = (uint8_t)to;  /* the tile moves into the empty cell; the empty cell to where it stood */
            uint32_t moved = rank(cells, k);
            uint16_t comp = component((uint16_t)(~(occupied ^ (1u << from) ^ (1u << to)) & 0xFFFFu), from);
            uint16_t *slot = &level->visited[moved];
            if ((__atomic_load_n(slot, __ATOMIC_RELAXED) & comp) == 0) {
                uint16_t old = __atomic_fetch_or(slot, comp, __ATOMIC_RELAXED);
                if ((old & comp) == 0) {  /* components are reached whole: none of it before */
                    __atomic_fetch_or(&level->next[moved >> 6], 1ull << (moved & 63), __ATOMIC_RELAXED);
                    (*components)++;
                    if (old == 0) {  /* the placement's first state: its value */
                        int excess = (level->depth + 1 - manhattan(cells, level->goal, k)) / 2;
                        if (excess > 15) {  /* a smaller value is still a lower bound */
                            excess = 15;
                            (*clipped)++;
                        }
                        __atomic_fetch_or(&level->packed[moved >> 1], (uint8_t)(excess << ((moved & 1) << 2)), __ATOMIC_RELAXED);
                        (*reached)++;
                    }
                }
            }
            cells[i] = (uint8_t)from;
        }
    }
}

static void *work(void *arg) {
    Level *level = arg;
    uint64_t reached = 0, components = 0, clipped = 0;
    for (;;) {
        uint64_t begin = __atomic_fetch_add(&level->cursor, CHUNK, __ATOMIC_RELAXED);
        if (begin >= level->words) break;
        uint64_t end = begin + CHUNK < level->words ? begin + CHUNK : level->words;
        for (uint64_t w = begin; w < end; w++) {
            uint64_t bits = level->frontier[w];
            while (bits) {
                int b = __builtin_ctzll(bits);
                bits &= bits - 1;
                expand_placement(level, (uint32_t)(w * 64 + (uint64_t)b), &reached, &components, &clipped);
            }
        }
    }
    __atomic_fetch_add(&level->reached, reached, __ATOMIC_RELAXED);
    __atomic_fetch_add(&level->components, components, __ATOMIC_RELAXED);
    __atomic_fetch_add(&level->clipped, clipped, __ATOMIC_RELAXED);
    return NULL;
}

/* Expand the frontier's words first to last (the placements reached at depth, a bit each)
   into next (cleared by the caller before a level's first slice), on threads threads;
   adds the placements valued to *reached, the new (placement, component) states to
   *components, the values that did not fit in 4 bits to *clipped.  Runs without the GIL;
   a level comes in slices so that Ctrl-C is seen between them. */
static void expand_level(const uint8_t *goal, int k, int depth, uint16_t *visited, const uint64_t *frontier, uint64_t *next,
                  uint8_t *packed, int threads, uint64_t first, uint64_t last, uint64_t *reached, uint64_t *components,
                  uint64_t *clipped) {
    uint64_t words = (placements(k) + 63) / 64;
    Level level = {goal, k, depth, visited, frontier, next, last < words ? last : words, packed, first, 0, 0, 0};
#if LEVEL_THREADS
    pthread_t helpers[16];
    int started = 0;
    for (int t = 1; t < threads && t < 16; t++)
        if (pthread_create(&helpers[started], NULL, work, &level) == 0) started++;
    work(&level);
    for (int t = 0; t < started; t++) pthread_join(helpers[t], NULL);
#else
    (void)threads;
    work(&level);
#endif
    *reached += level.reached;
    *components += level.components;
    *clipped += level.clipped;
}

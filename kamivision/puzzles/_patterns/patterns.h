/* The 4 x 4 board's geometry and the rank of a pattern's placement, shared by the
 * IDA* and the table builds of _patterns.c and the level-by-level build of the packed
 * tables in _patterns_level.c.
 *
 * Part of the one translation unit _patterns.c: included first, before the parts.
 *
 * Cells are numbered 4 * row + column; the goal has tile t on cell t and the empty cell
 * on cell 0 (Korf's).  A pattern is k tiles, named by their goal cells; a placement is
 * where its k tiles stand, ranked in mixed radix (digit i in base 16 - i). */
#ifndef KAMIVISION_PATTERNS_H
#define KAMIVISION_PATTERNS_H

#include <stdint.h>
#include <stdlib.h>

#define CELLS 16
#define MAX_K 8


static inline uint64_t placements(int k) {
    uint64_t size = 1;
    for (int i = 0; i < k; i++) size *= (uint64_t)(CELLS - i);
    return size;
}

/* Digit i is the cell's rank among the cells not used by tiles 0..i-1 (the cells below
   it already used are counted by popcount). */
static inline uint32_t rank(const uint8_t *cells, int k) {
    uint32_t r = 0;
    unsigned used = 0;
    for (int i = 0; i < k; i++) {
        int smaller = __builtin_popcount(used & ((1u << cells[i]) - 1u));
        r = r * (uint32_t)(CELLS - i) + (uint32_t)(cells[i] - smaller);
        used |= 1u << cells[i];
    }
    return r;
}

/* rank()'s inverse. */
static inline void unrank(uint32_t r, uint8_t *cells, int k) {
    int digit[MAX_K];
    for (int i = k - 1; i >= 0; i--) {
        digit[i] = (int)(r % (uint32_t)(CELLS - i));
        r /= (uint32_t)(CELLS - i);
    }
    unsigned used = 0;
    for (int i = 0; i < k; i++) {
        int left = digit[i], cell = 0;
        for (;; cell++) {
            if (used >> cell & 1) continue;
            if (left-- == 0) break;
        }
        cells[i] = (uint8_t)cell;
        used |= 1u << cell;
    }
}

/* The tiles' Manhattan distance to their goal cells: goal[i] is tile i's. */
static inline int manhattan(const uint8_t *cells, const uint8_t *goal, int k) {
    int sum = 0;
    for (int i = 0; i < k; i++) {
        int dr = cells[i] / 4 - goal[i] / 4, dc = cells[i] % 4 - goal[i] % 4;
        sum += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
    }
    return sum;
}

/* A packed table: 4 bits a placement, (value - the tiles' Manhattan distance) / 2 (the
   difference is even: a pattern tile's move changes both by one), at most 15. */
static inline int packed_excess(const uint8_t *table, uint32_t r) {
    return table[r >> 1] >> ((r & 1) << 2) & 15;
}


#endif

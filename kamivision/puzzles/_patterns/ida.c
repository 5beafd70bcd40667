/* IDA* with h = max(sum, reflected sum) over the groups' tables.  Free of Python: Ctrl-C
 * reaches it through Search.interrupted, which only the glue (glue.c) fills. */

#define MAX_GROUPS 8

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
    int (*interrupted)(void); /* asked now and then: 1 when the user asked to stop (Ctrl-C); NULL: never */
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
        if (s->interrupted && s->interrupted()) s->status = STATUS_INTERRUPTED;
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

/* The search from the position set up in s (its sums included) with the empty cell on
   blank: -1 when a solution is found (s->path, s->length), else the last bound reached
   (*bound), s->status telling a limit or Ctrl-C from no solution. */
static int ida_search(Search *s, int blank, int *bound) {
    int found = NO_F;
    *bound = heuristic(s);
    while (1) {
        found = dfs(s, blank, -1, 0, *bound);
        if (found == -1 || s->status || found >= NO_F || found > MAX_BOUND) break;
        *bound = found;
    }
    return found;
}

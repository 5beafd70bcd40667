/* The 4 x 4 board's geometry, worked out once at import: each cell's neighbours, its
 * mirror image about the main diagonal, and the Manhattan distance between two cells. */

static int neighbours[CELLS][4];
static int neighbour_count[CELLS];
static int reflected[CELLS];
static uint16_t neighbour_mask[CELLS];
static int distance[CELLS][CELLS]; /* Manhattan distance between two cells */

static void init_geometry(void) {
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

/* A search's answer: its moves as C arrays, which the glue turns into a Python list.
 * A free-search move is (region, color); a pivot move is a color (rep unused). */

#define MAXPATH (2 * MAXF) /* a stored state's moves (< MAXF) and a dive's (< 250) */

typedef struct {
    int len; /* -1: no path */
    int16_t rep[MAXPATH];
    uint8_t color[MAXPATH];
} Path;

static void path_clear(Path *p) { p->len = -1; }

/* The moves to stored state `node` (through its parents), followed by `tail` moves. */
static void path_from_store(Path *p, const Store *st, int64_t node, const int16_t *tail_rep,
                            const uint8_t *tail_color, int tail) {
    int head = 0;
    for (int64_t j = node; st->nodes[j].parent >= 0; j = st->nodes[j].parent) head++;
    if (head + tail > MAXPATH) tail = MAXPATH - head; /* never: g < MAXF, dives < 250 */
    int i = head - 1;
    for (int64_t j = node; st->nodes[j].parent >= 0; j = st->nodes[j].parent, i--) {
        p->rep[i] = st->nodes[j].rep;
        p->color[i] = st->nodes[j].color;
    }
    for (int k = 0; k < tail; k++) {
        p->rep[head + k] = tail_rep ? tail_rep[k] : 0;
        p->color[head + k] = tail_color[k];
    }
    p->len = head + tail;
}

/* The moves to stored state `node`, then one move (rep, color). */
static void path_trace(Path *p, const Store *st, int64_t node, int rep, int color) {
    int16_t r = (int16_t)rep;
    uint8_t c = (uint8_t)color;
    path_from_store(p, st, node, &r, &c, 1);
}

/* What every search returns: how it ended (STATUS_*), the bound it proved, the states it
 * expanded, its path (when it has one), and why it failed (FAIL_*; FAIL_NONE when not). */
typedef struct {
    int status, bound, fail;
    long long expanded;
    Path path;
} Result;

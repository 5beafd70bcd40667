/* The sweep's layers: the states of one region count, in memory (sweep.c takes them in
 * falling order of their region count; spill.c writes them to disk when memory is full). */

/* A layer's states: the keys (and, with moves, each state's moves after its key) in an
 * arena, g and h in another, and an open-addressing table of their indices, each tagged
 * with 4 bits of its hash so that few probes compare keys.  No hashes or parent links are
 * kept (a grown table hashes the keys again): about 40 % less memory than a Store. */
#define LAYER_TAG 28 /* index bits in a table entry; the top 4 are the tag */
#define LAYER_MAX ((1u << LAYER_TAG) - 2)

#define LM_ALL 0xFFFF  /* no move kept: all moves are taken */
#define LM_NONE 0xFFFE /* an unused place for a kept move */
#define LM_KEEP 4      /* the moves a state keeps; at one more different, it keeps LM_ALL */
#define LC_NONE 0xFF   /* the color a move's region had before it, when not known */

/* A move's name for the order of commuting moves: its region, then its color.  A color
 * of 32 or more has no name: its child keeps LM_ALL, and takes every move. */
static inline uint16_t move_name(int r, int c) { return c < 32 ? (uint16_t)(r * 32 + c) : LM_ALL; }
static inline int move_color(uint16_t name) { return name & 31; }

typedef struct {
    int n, stride; /* key bytes; bytes per state */
    size_t count, cap;
    uint8_t *keys;
    uint8_t *gh;     /* g, h of each state */
    uint16_t *lm;    /* LM_KEEP a state: the moves that reached it (move_name), then LM_NONE; or LM_ALL */
    uint8_t *lc;     /* LM_KEEP a state: the color each move's region had before it, or LC_NONE */
    uint32_t *table; /* tag << LAYER_TAG | (index + 1); 0 = empty */
    size_t tcap;     /* power of two */
} Layer;

static int layer_init(Layer *ly, int n, int stride) {
    memset(ly, 0, sizeof(*ly));
    ly->n = n;
    ly->stride = stride;
    ly->cap = 1024;
    ly->keys = malloc(ly->cap * (size_t)stride);
    ly->gh = malloc(ly->cap * 2);
    ly->lm = malloc(ly->cap * LM_KEEP * sizeof(uint16_t));
    ly->lc = malloc(ly->cap * LM_KEEP);
    ly->tcap = 2048;
    ly->table = calloc(ly->tcap, sizeof(uint32_t));
    return ly->keys && ly->gh && ly->lm && ly->lc && ly->table;
}

static void layer_free(Layer *ly) {
    free(ly->keys);
    free(ly->gh);
    free(ly->lm);
    free(ly->lc);
    free(ly->table);
}

/* Memory the layer touches (its arenas' unused capacity is never written). */
static size_t layer_used(const Layer *ly) {
    return ly->count * ((size_t)ly->stride + 2 + LM_KEEP * (sizeof(uint16_t) + 1)) + ly->tcap * sizeof(uint32_t);
}

static inline uint32_t layer_tag(uint64_t h) { return (uint32_t)(h >> 60) << LAYER_TAG; }

/* Index of `key` or -1; *slot is where it is or would go. */
static int64_t layer_find(const Layer *ly, const uint8_t *key, uint64_t h, size_t *slot) {
    size_t mask = ly->tcap - 1, i = h & mask;
    uint32_t tag = layer_tag(h), low = (1u << LAYER_TAG) - 1;
    for (;;) {
        uint32_t e = ly->table[i];
        if (e == 0) {
            *slot = i;
            return -1;
        }
        size_t k = (e & low) - 1;
        if ((e & ~low) == tag && memcmp(ly->keys + k * ly->stride, key, ly->n) == 0) {
            *slot = i;
            return (int64_t)k;
        }
        i = (i + 1) & mask;
    }
}

static int layer_grow_table(Layer *ly) {
    size_t tcap = ly->tcap * 2, mask = tcap - 1;
    uint32_t *t = calloc(tcap, sizeof(uint32_t));
    if (!t) return 0;
    for (size_t k = 0; k < ly->count; k++) {
        uint64_t h = hash_key(ly->keys + k * ly->stride, ly->n);
        size_t i = h & mask;
        while (t[i]) i = (i + 1) & mask;
        t[i] = layer_tag(h) | (uint32_t)(k + 1);
    }
    free(ly->table);
    ly->table = t;
    ly->tcap = tcap;
    return 1;
}

/* Add a new state (`key` holds `stride` bytes), reached by the move lm of a region of color
 * lc, at `slot` from layer_find; its index, or -1 when out of memory (or past the
 * LAYER_MAX states a table entry can name). */
static int64_t layer_add(Layer *ly, const uint8_t *key, uint64_t h, size_t slot, int g, int hb, uint16_t lm,
                         uint8_t lc) {
    if (ly->count >= LAYER_MAX) return -1;
    if (ly->count == ly->cap) {
        size_t cap = ly->cap * 2;
        uint8_t *keys = realloc(ly->keys, cap * (size_t)ly->stride);
        if (!keys) return -1;
        ly->keys = keys;
        uint8_t *gh = realloc(ly->gh, cap * 2);
        if (!gh) return -1;
        ly->gh = gh;
        uint16_t *lms = realloc(ly->lm, cap * LM_KEEP * sizeof(uint16_t));
        if (!lms) return -1;
        ly->lm = lms;
        uint8_t *lcs = realloc(ly->lc, cap * LM_KEEP);
        if (!lcs) return -1;
        ly->lc = lcs;
        ly->cap = cap;
    }
    size_t k = ly->count++;
    memcpy(ly->keys + k * ly->stride, key, ly->stride);
    ly->gh[2 * k] = (uint8_t)g;
    ly->gh[2 * k + 1] = (uint8_t)hb;
    ly->lm[k * LM_KEEP] = lm;
    ly->lc[k * LM_KEEP] = lc;
    for (int i = 1; i < LM_KEEP; i++) ly->lm[k * LM_KEEP + i] = LM_NONE;
    ly->table[slot] = layer_tag(h) | (uint32_t)(k + 1);
    if (ly->count * 8 > ly->tcap * 5 && !layer_grow_table(ly)) return -1; /* load at most 5/8 */
    return (int64_t)k;
}

typedef struct {
    Layer layer[MAXN + 1]; /* by region count; used when live */
    uint8_t live[MAXN + 1];
} Layers;

static size_t layers_used(const Layers *ly, int n) {
    size_t used = 0;
    for (int r = 0; r <= n; r++)
        if (ly->live[r]) used += layer_used(&ly->layer[r]);
    return used;
}

/* Another way to the state at `old` of C: with g moves, bound hb, last move lm of a region
 * of color lc, and (when C keeps moves, `moves` not NULL) those g moves.  The state keeps
 * its least g, the moves that reached it with that g (up to LM_KEEP different ones; LM_ALL
 * past them, or when one way was LM_ALL) with their regions' colors before them
 * (LC_NONE when two ways by one move differ) and the largest bound (each is admissible,
 * so their largest is too). */
static void layer_merge(Layer *C, int64_t old, int g, int hb, uint16_t lm, uint8_t lc, const uint8_t *moves) {
    uint8_t *gh = &C->gh[2 * old];
    uint16_t *kept = &C->lm[old * LM_KEEP];
    uint8_t *was = &C->lc[old * LM_KEEP];
    if (hb > gh[1]) gh[1] = (uint8_t)hb;
    if (gh[0] < g) return;
    if (gh[0] == g) {
        if (kept[0] == LM_ALL) return;
        for (int i = 0; i < LM_KEEP && lm != LM_ALL; i++) {
            if (kept[i] == lm) {
                if (was[i] != lc) was[i] = LC_NONE;
                return;
            }
            if (kept[i] == LM_NONE) {
                kept[i] = lm;
                was[i] = lc;
                return;
            }
        }
        kept[0] = LM_ALL;
        for (int i = 1; i < LM_KEEP; i++) kept[i] = LM_NONE;
        return;
    }
    gh[0] = (uint8_t)g;
    kept[0] = lm;
    was[0] = lc;
    for (int i = 1; i < LM_KEEP; i++) kept[i] = LM_NONE;
    if (moves) memcpy(C->keys + (size_t)old * C->stride + C->n, moves, 3 * (size_t)g);
}

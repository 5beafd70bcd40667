

/* ---- when memory is full: depth-first searches from the open states -------------------
 *
 * A*+IDA* (Bu and Korf, IJCAI 2019): when the stored states reach the memory allowed, the
 * search goes on without storing more.  For thresholds T = f, f + 1, ... below `limit`, a
 * depth-first search with threshold T (prune a state when g + h > T) runs from every open
 * state whose f is at most T.  No solution of length <= T is missed: a solution path
 * leaves the stored states at some point, and the last stored state on it either still
 * has its queue entry (a state goes back to the queue for the children its partial
 * expansion skipped) or stored that next state as its child.  So every solution of length
 * <= T passes through an open state with f <= T, below which the depth-first search follows
 * it (its bounds are admissible, so it is never pruned).  A child found in the store with
 * g no larger is skipped: it is an open state itself, or was expanded and is covered the
 * same way.  A child seen before in this threshold's searches with g no larger is skipped
 * too: its subtree was searched with at least as much room (a lossy table of such states,
 * `Seen`, is kept in the memory left; a state it loses is searched again, which costs
 * time, never a solution).  When a threshold finishes without a solution, T + 1 is a
 * proven lower bound; a solution found at threshold T is optimal, as T - 1 was finished. */

/* States seen in this threshold's searches, with the least g: a lossy table of two slots
 * per bucket.  A new state takes an empty slot (one of an earlier threshold counts as
 * empty) or else the one of the two with the larger g: a state nearer the open state heads
 * a larger subtree, so it is the more useful to remember.  Losing an entry costs a search
 * again, never a solution. */
typedef struct {
    uint64_t hash;
    uint16_t gen; /* the threshold (generation) it was seen in */
    uint8_t g;
} SeenHead;

typedef struct {
    uint8_t *slots; /* 2 * (mask + 1) slots of `stride` bytes: a SeenHead, then the key */
    size_t mask;
    int key_bytes, stride;
    uint16_t gen;
} Seen;

static int seen_init(Seen *t, int key_bytes, long long bytes) {
    t->key_bytes = key_bytes;
    t->stride = (int)((sizeof(SeenHead) + key_bytes + 7) / 8 * 8);
    size_t buckets = 512;
    while ((long long)(buckets * 2) * 2 * t->stride <= bytes) buckets *= 2;
    t->mask = buckets - 1;
    t->gen = 1;
    t->slots = calloc(buckets * 2, t->stride);
    return t->slots != NULL;
}

static void seen_free(Seen *t) { free(t->slots); }

/* Forget everything (a new threshold): a new generation, the slots wiped only when the
 * generations wrap. */
static void seen_reset(Seen *t) {
    if (++t->gen == 0) {
        memset(t->slots, 0, (t->mask + 1) * 2 * t->stride);
        t->gen = 1;
    }
}

/* 1 when `key` was seen with g <= ng (its subtree was searched with at least as much
 * room); otherwise it is recorded with g = ng and 0 is returned. */
static int seen_check(Seen *t, const uint8_t *key, uint64_t h, int ng) {
    uint8_t *bucket = t->slots + (h & t->mask) * 2 * t->stride;
    SeenHead *a = (SeenHead *)bucket, *b = (SeenHead *)(bucket + t->stride);
    for (int i = 0; i < 2; i++) {
        SeenHead *e = i ? b : a;
        if (e->gen == t->gen && e->hash == h && !memcmp(e + 1, key, t->key_bytes)) {
            if (e->g <= ng) return 1;
            e->g = (uint8_t)ng;
            return 0;
        }
    }
    SeenHead *v;
    if (a->gen != t->gen) v = a;
    else if (b->gen != t->gen) v = b;
    else v = a->g > b->g ? a : b;
    v->hash = h;
    v->gen = t->gen;
    v->g = (uint8_t)ng;
    memcpy(v + 1, key, t->key_bytes);
    return 0;
}

typedef struct {
    const Island *is;
    const KeyShape *ks;
    const Store *st;
    Seen seen;              /* states seen in this threshold's searches */
    State *states;          /* one per depth */
    uint8_t *keys;          /* packed key per depth */
    uint8_t *colors;        /* unpacked scratch */
    int16_t (*dbuf)[4][MAXN];
    Pairs *pairs;
    word (*groups)[256][MAXW];
    uint8_t (*gcolors)[256];
    int16_t rep_path[MAXF];
    uint8_t col_path[MAXF];
    int found;              /* moves below the open state on the path found */
    Limits *lim;            /* NULL in the helper thread, which watches `share` instead */
    long long *expanded;
    int error;
    struct DeepShare *share; /* with two threads: the open states both take from */
    long index;             /* which of them this search is under */
} Deep;

static int deep_init(Deep *x, const Island *is, const KeyShape *ks, const Store *st, Limits *lim,
                     long long *expanded, long long bytes) {
    memset(x, 0, sizeof(*x));
    x->is = is;
    x->ks = ks;
    x->st = st;
    x->lim = lim;
    x->expanded = expanded;
    x->states = malloc(sizeof(State) * MAXF);
    x->keys = malloc((size_t)ks->bytes * MAXF);
    x->colors = malloc(is->n);
    x->dbuf = malloc(sizeof(*x->dbuf) * MAXF);
    x->pairs = malloc(sizeof(Pairs) * MAXF);
    x->groups = malloc(sizeof(*x->groups) * MAXF);
    x->gcolors = malloc(sizeof(*x->gcolors) * MAXF);
    int ok = seen_init(&x->seen, ks->bytes, bytes);
    return ok && x->states && x->keys && x->colors && x->dbuf && x->pairs && x->groups && x->gcolors;
}

static void deep_free(Deep *x) {
    seen_free(&x->seen);
    free(x->states);
    free(x->keys);
    free(x->colors);
    free(x->dbuf);
    free(x->pairs);
    free(x->groups);
    free(x->gcolors);
}

static int deep_abandon(const Deep *x);

/* deep()'s answers besides 1 (found) and 0 (none). */
#define DEEP_STOPPED (-1)   /* a limit stopped it (x->error set on a failed callback) */
#define DEEP_ABANDONED (-2) /* abandoned: see deep_abandon */

/* The search below the state whose packed key is x->keys[depth], reached with g moves:
 * 1 when a solution within T is found (its moves below the open state in x->rep_path,
 * x->col_path, x->found), 0 when there is none, DEEP_STOPPED or DEEP_ABANDONED. */
static int deep(Deep *x, int depth, int g, int T) {
    const Island *is = x->is;
    const KeyShape *ks = x->ks;
    int W = is->W, goal = is->goal;
    if (depth + 1 >= MAXF) return 0;
    State *s = &x->states[depth];
    const uint8_t *pk = x->keys + (size_t)depth * ks->bytes;
    key_unpack(ks, pk, x->colors);
    contract(is, x->colors, s);
    int counts[256];
    int npresent = count_colors(s, W, counts);
    int h = goal < 0 ? npresent - 1 : npresent - (counts[goal] ? 1 : 0);
    if (g + h > T) return 0;
    Pairs *pairs = &x->pairs[depth];
    int pb = far_pairs(is, s, x->dbuf[depth], pairs, T - g);
    if (pb > h) h = pb;
    h = winding_bound(is, s, pairs, T - g, h, NULL, NULL);
    if (g + h > T) return 0;
    (*x->expanded)++;
    if (x->lim) {
        int over = over_limits(x->lim, *x->expanded, T, x->st);
        if (over) {
            if (over < 0) x->error = 1;
            return DEEP_STOPPED;
        }
    }
    if (deep_abandon(x)) return DEEP_ABANDONED;
    int ng = g + 1;
    word (*groups)[MAXW] = x->groups[depth];
    uint8_t *gcolors = x->gcolors[depth];
    uint8_t *ck = x->keys + (size_t)(depth + 1) * ks->bytes;
    Moves mv;
    moves_begin(&mv, s);
    while (moves_next(&mv, s, W, groups, gcolors)) {
        int r = mv.r, c = gcolors[mv.k];
        const word *merged = groups[mv.k];
        if (same_set(merged, s->reps, W)) {
            if (goal < 0 || c == goal) {
                x->rep_path[depth] = (int16_t)r;
                x->col_path[depth] = (uint8_t)c;
                x->found = depth + 1;
                return 1;
            }
            continue;
        }
        int left = colors_left_after(counts, npresent, s->color[r], c, goal);
        int hc = left > h - 1 ? left : h - 1;
        if (ng + hc > T) continue;
        if (ng + pair_bound_after(pairs, s, merged, c, goal, W) > T) continue;
        child_key(ks, ck, pk, s->members[r], c, W);
        uint64_t hk = hash_key(ck, ks->bytes);
        size_t slot;
        int64_t old = store_find(x->st, ck, hk, &slot);
        if (old >= 0 && x->st->nodes[old].g <= ng) continue;
        if (seen_check(&x->seen, ck, hk, ng)) continue;
        x->rep_path[depth] = (int16_t)r;
        x->col_path[depth] = (uint8_t)c;
        int res = deep(x, depth + 1, ng, T);
        if (res) return res;
    }
    return 0;
}

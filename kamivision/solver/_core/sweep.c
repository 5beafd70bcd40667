

/* ---- the sweep: a last threshold by region count, when the A*'s memory is full ----------
 *
 * Every move merges at least two regions, so a state's children have fewer regions than
 * it: taking states in falling order of their region count is a topological order of the
 * search graph.  When the states with R regions are expanded, every state that leads to
 * them has been expanded already, so their g is the least there is; and no state with
 * more regions can be reached again, so those are dropped.  The sweep therefore expands
 * every state with g + h <= T exactly once, as the A* would, while it keeps only the few
 * region counts between the one being expanded and its children's (Zhou and Hansen's
 * "sweep A*" for partially ordered graphs).  With `paths`, each state carries its moves,
 * so a solution found needs no parent links; without, a state is its key alone (about
 * 60 % of the memory: a proof needs no moves) and only the length of a solution found is
 * known.  The bound of a state is the largest of its color and pair bounds and what its
 * parents' bounds imply (h - 1 from a parent of bound h: one move lowers the optimum by
 * at most one), all admissible; so a state pruned by
 * g + h > T has no solution within T below it, and when the sweep ends without one none
 * is within T.  A solution found lowers T to one less than its length, so the one
 * returned is the shortest within the first T.
 *
 * Moves that commute are taken in one order only.  Each stored state keeps the move that
 * reached it (LM_ALL when it was reached with its least g by two different moves, and at
 * the root).  Let m = (r, c) be that move, M the region it made and N[M] that region with
 * its neighbors.  A move m' = (r', c') that makes the set S' one region is skipped when
 * S' misses N[M] and (r', c') comes before (r, c) (region first, then color):
 * - m and m' commute: S' misses M and M's neighbors, which were the neighbors of the
 *   regions m merged, so before m, r' had the same neighbors with the same colors and m'
 *   merged the same S'; after m', r is still a neighbor of the same regions (none of S'
 *   touches M), so m merges the same set as before.  Both orders reach the same state,
 *   and each move keeps its name (the lowest original region of the region it taps) in
 *   either order.
 * - Nothing within T is lost.  Take, of the shortest solutions within T, the one whose
 *   moves come first in lexicographic order.  Each of its prefixes is a shortest way to the
 *   state it reaches (else a shorter solution would exist), so that state is stored with
 *   that g, and every one of them has g + h <= T (h is admissible).  Its next move is never
 *   skipped: when the state keeps one move, it is the solution's own last move (the
 *   solution's prefix reaches it with its least g), and were the next move skipped the two
 *   would commute with the later one first, giving a solution as short and earlier in
 *   lexicographic order.  All ways to a state are stored before it is expanded (children
 *   have fewer regions), so its kept move is final when it is expanded.
 * A state reached by both orders of two commuting moves is now made once; the states
 * expanded can only be fewer (those reached only by skipped orders whose other order is
 * cut by the bounds), never a needed one.  tests/solver/test_core.py checks the sweep against
 * breadth-first search on random small boards. */

/* A layer's states: the keys (and, with moves, each state's moves after its key) in an
 * arena, g and h in another, and an open-addressing table of their indices, each tagged
 * with 4 bits of its hash so that few probes compare keys.  No hashes or parent links are
 * kept (a grown table hashes the keys again): about 40 % less memory than a Store. */
#define LAYER_TAG 28 /* index bits in a table entry; the top 4 are the tag */
#define LAYER_MAX ((1u << LAYER_TAG) - 2)

#define LM_ALL 0xFFFF /* no move kept: all moves are taken */

/* A move's name for the order of commuting moves: its region, then its color.  A color
 * of 32 or more has no name: its child keeps LM_ALL, and takes every move. */
static inline uint16_t move_name(int r, int c) { return c < 32 ? (uint16_t)(r * 32 + c) : LM_ALL; }

typedef struct {
    int n, stride; /* key bytes; bytes per state */
    size_t count, cap;
    uint8_t *keys;
    uint8_t *gh;     /* g, h of each state */
    uint16_t *lm;    /* the move that reached it (see move_name), or LM_ALL */
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
    ly->lm = malloc(ly->cap * sizeof(uint16_t));
    ly->tcap = 2048;
    ly->table = calloc(ly->tcap, sizeof(uint32_t));
    return ly->keys && ly->gh && ly->lm && ly->table;
}

static void layer_free(Layer *ly) {
    free(ly->keys);
    free(ly->gh);
    free(ly->lm);
    free(ly->table);
}

/* Memory the layer touches (its arenas' unused capacity is never written). */
static size_t layer_used(const Layer *ly) {
    return ly->count * ((size_t)ly->stride + 2 + sizeof(uint16_t)) + ly->tcap * sizeof(uint32_t);
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

/* Add a new state (`key` holds `stride` bytes) at `slot` from layer_find; its index, or -1
 * when out of memory (or past the LAYER_MAX states a table entry can name). */
static int64_t layer_add(Layer *ly, const uint8_t *key, uint64_t h, size_t slot, int g, int hb, uint16_t lm) {
    if (ly->count >= LAYER_MAX) return -1;
    if (ly->count == ly->cap) {
        size_t cap = ly->cap * 2;
        uint8_t *keys = realloc(ly->keys, cap * (size_t)ly->stride);
        if (!keys) return -1;
        ly->keys = keys;
        uint8_t *gh = realloc(ly->gh, cap * 2);
        if (!gh) return -1;
        ly->gh = gh;
        uint16_t *lms = realloc(ly->lm, cap * sizeof(uint16_t));
        if (!lms) return -1;
        ly->lm = lms;
        ly->cap = cap;
    }
    size_t k = ly->count++;
    memcpy(ly->keys + k * ly->stride, key, ly->stride);
    ly->gh[2 * k] = (uint8_t)g;
    ly->gh[2 * k + 1] = (uint8_t)hb;
    ly->lm[k] = lm;
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

/* The sweep in chunks of parents, shared by threads as the A*'s batches are: working out
 * a parent's children (its bounds, its moves, their keys and bounds) only reads the layer
 * being expanded, so both threads take parents of a chunk; then the main thread stores the
 * children, parent by parent in the layer's order, while the helper already works out the
 * next chunk.  The states expanded and stored are those of one thread: a child is stored,
 * and a parent counted as expanded, only if its g + h is within T as it is when the main
 * thread comes to it (a chunk worked out before a solution lowered T holds more children,
 * dropped then). */
#define SWEEP_CHUNK 128

/* A move kept after a state's key: its region (two bytes, low first), then its color. */
static inline void put_move(uint8_t *at, int r, int c) {
    at[0] = (uint8_t)(r & 0xFF);
    at[1] = (uint8_t)(r >> 8);
    at[2] = (uint8_t)c;
}

typedef struct {
    uint64_t hash;
    int16_t rc;  /* the child's region count */
    uint8_t hc;  /* its bound */
    uint16_t lm; /* the move that makes it (move_name) */
} SweepKid;

typedef struct {
    int expand;         /* within T by its own bounds, when worked out */
    int h;              /* its bound */
    int goal_r, goal_c; /* a move that solves it (goal_r >= 0); no children after it */
    int nkids, cap;
    SweepKid *kids;
    uint8_t *keys; /* stride bytes each: the child's key, then its moves with `paths` */
} SweepJob;

typedef struct {
    const Island *is;
    const KeyShape *ks;
    const Layer *L;
    int R, stride;
    const int *T; /* lowered by the main thread as it finds solutions */
    int commute;  /* skip commuting moves taken in the other order (see above) */
    size_t first; /* the chunk's first parent in L */
    int n, next;  /* its parents; the next one to take */
    int nomem, stop;
    SweepJob jobs[SWEEP_CHUNK];
    Scratch *helper; /* the helper thread's workspace */
} SweepChunk;

/* Work out one parent (reads the layer, writes only the job and the workspace); 0, or -1
 * when out of memory. */
static int sweep_job(const SweepChunk *ch, Scratch *x, SweepJob *j, size_t k) {
    const Island *is = ch->is;
    const KeyShape *ks = ch->ks;
    const Layer *L = ch->L;
    int W = is->W, goal = is->goal, kb = ks->bytes, stride = ch->stride;
    int T = __atomic_load_n(ch->T, __ATOMIC_RELAXED);
    const uint8_t *pk = L->keys + k * (size_t)stride;
    int g = L->gh[2 * k], h = L->gh[2 * k + 1];
    State *s = x->s;
    j->expand = 0;
    j->nkids = 0;
    j->goal_r = -1;
    j->h = h;
    if (g + h > T) return 0;
    key_unpack(ks, pk, x->colors);
    int npresent;
    h = state_bound(is, x, g, h, T, is->path_flood ? FLOOD_PASSES : FLOOD_NO, &npresent);
    j->h = h;
    if (g + h > T) return 0;
    j->expand = 1;
    int ng = g + 1, inherited = h - 1;
    /* At T, a move outside the path-flood bound's corridor makes a child over T. */
    int narrow = g + h == T && x->flood == h && flood_corridor(is, x, h);
    int last = ch->commute ? L->lm[k] : LM_ALL;
    word near[MAXW]; /* N[M]: the region the last move made, and its neighbors */
    if (last != LM_ALL) {
        int m = s->rep_of[last >> 5];
        for (int w = 0; w < W; w++) near[w] = s->adj[m][w];
        near[m >> 6] |= (word)1 << (m & 63);
    }
    Moves mv;
    moves_begin(&mv, s);
    while (moves_next(&mv, s, W, x->groups, x->gcolors)) {
        int r = mv.r, c = x->gcolors[mv.k];
        const word *merged = x->groups[mv.k];
        if (same_set(merged, s->reps, W)) {
            if (goal < 0 || c == goal) { /* T falls below ng: no later child is wanted */
                j->goal_r = r;
                j->goal_c = c;
                return 0;
            }
            continue;
        }
        uint16_t name = move_name(r, c);
        if (last != LM_ALL && name < last) { /* made in the other order, unless it touches N[M] */
            word touch = 0;
            for (int w = 0; w < W; w++) touch |= merged[w] & near[w];
            if (!touch) continue;
        }
        if (narrow && !(x->corridor[r >> 6] >> (r & 63) & 1)) continue;
        int left = colors_left_after(x->counts, npresent, s->color[r], c, goal);
        int hc = left > inherited ? left : inherited;
        if (ng + hc > T) continue;
        int hd = pair_bound_after(&x->pairs, s, merged, c, goal, W);
        if (hd > hc) hc = hd;
        if (ng + hc > T) continue;
        if (x->wind.on) {
            hd = wind_after(&x->wind, s, is->wind, merged, c, W);
            if (hd > hc) hc = hd;
            if (ng + hc > T) continue;
        }
        /* The child's own pair bound, measured on the parent, before it is stored: most
         * children within T by the bounds above are not by this one, and storing them
         * only to drop them when their turn comes costs far more (memory, and a contraction
         * each). */
        hd = child_pair_bound(s, merged, c, goal, T - ng, W);
        if (hd > hc) hc = hd;
        if (ng + hc > T) continue;
        if (j->nkids == j->cap) {
            int cap = j->cap ? 2 * j->cap : 64;
            SweepKid *kids = realloc(j->kids, cap * sizeof(SweepKid));
            if (!kids) return -1;
            j->kids = kids;
            uint8_t *keys = realloc(j->keys, (size_t)cap * stride);
            if (!keys) return -1;
            j->keys = keys;
            j->cap = cap;
        }
        SweepKid *kid = &j->kids[j->nkids];
        uint8_t *ck = j->keys + (size_t)j->nkids * stride;
        child_key(ks, ck, pk, s->members[r], c, W);
        if (stride > kb) {
            memcpy(ck + kb, pk + kb, 3 * (size_t)g);
            put_move(ck + kb + 3 * g, r, c);
        }
        kid->hash = hash_key(ck, kb);
        kid->rc = (int16_t)(ch->R - popcount_w(merged, W) + 1);
        kid->hc = (uint8_t)hc;
        kid->lm = name;
        j->nkids++;
    }
    return 0;
}

static void sweep_share(SweepChunk *ch, Scratch *x) {
    int i;
    while (!__atomic_load_n(&ch->stop, __ATOMIC_RELAXED) && (i = __atomic_fetch_add(&ch->next, 1, __ATOMIC_RELAXED)) < ch->n)
        if (sweep_job(ch, x, &ch->jobs[i], ch->first + i) < 0) __atomic_store_n(&ch->nomem, 1, __ATOMIC_RELAXED);
}

static void sweep_helper_task(void *arg) {
    SweepChunk *ch = arg;
    sweep_share(ch, ch->helper);
}

/* Start the helper on `ch` (when there is one), then work on it too. */
static void sweep_start(Batch *bt, SweepChunk *ch) {
#ifdef KV_THREADS
    if (bt->has_worker) {
        bt->task = sweep_helper_task;
        bt->task_arg = ch;
        batch_offer(bt);
    }
#else
    (void)bt;
    (void)ch;
#endif
}

/* Wait until the helper is done with the chunk, if it took a part of it (batch_wait). */
static void sweep_join(Batch *bt) {
#ifdef KV_THREADS
    if (bt->has_worker) batch_wait(bt);
#else
    (void)bt;
#endif
}

static void sweep_chunk_set(SweepChunk *ch, const Layer *L, int R, size_t first) {
    ch->L = L;
    ch->R = R;
    ch->first = first;
    ch->n = L->count - first < SWEEP_CHUNK ? (int)(L->count - first) : SWEEP_CHUNK;
    ch->next = 0;
}

#define SWEEP_FAILED (-2) /* see sweep(): *fail says why */

/* Returns 1 when a solution within *T is found (*T is then its length, and *path its
 * moves when `paths`, else empty), 0 when there is none, -1 when a limit (or memory: *full
 * set) stops it, SWEEP_FAILED when it fails (FAIL_MEMORY or FAIL_CALLBACK in *fail).
 * `at` (or NULL) gets the region count being expanded and the first, for the progress
 * reports. */
static int sweep(const Island *is, const KeyShape *ks, const uint8_t *colors, int *T_io, int paths, int shown,
                 int threads, int commute, Limits *lim, long long *expanded, long long max_bytes,
                 int *full, int *fail, Path *path, int *at) {
    int n = is->n, W = is->W, T = *T_io;
    int kb = ks->bytes, stride = paths ? kb + 3 * (T > 0 ? T : 1) : kb;
    Layers *ly = calloc(1, sizeof(Layers));
    SweepChunk *chunks = calloc(2, sizeof(SweepChunk));
    Batch *bt = malloc(sizeof(Batch));
    Scratch mx = {0};
    int batch_ok = 0;
    uint8_t *ck = malloc(stride), *best = malloc(3 * (T + 1));
    int result = 0, best_len = -1;
    *full = 0;
    *fail = FAIL_NONE;
    path_clear(path);
    if (!ly || !chunks || !bt || !ck || !best || !scratch_init(&mx, n, kb, is->path_flood) ||
        !(batch_ok = batch_init(bt, is, ks, NULL, 0, threads))) {
        result = SWEEP_FAILED;
        *fail = FAIL_MEMORY;
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        chunks[i].is = is;
        chunks[i].ks = ks;
        chunks[i].stride = stride;
        chunks[i].T = &T;
        chunks[i].commute = commute;
        chunks[i].helper = &bt->wx;
    }
    contract(is, colors, mx.s);
    int R0 = popcount_w(mx.s->reps, W);
    size_t slot;
    if (!layer_init(&ly->layer[R0], kb, stride)) goto nomem;
    ly->live[R0] = 1;
    memset(ck, 0, stride);
    key_pack(ks, colors, ck);
    uint64_t h0 = hash_key(ck, kb);
    layer_find(&ly->layer[R0], ck, h0, &slot);
    if (layer_add(&ly->layer[R0], ck, h0, slot, 0, 0, LM_ALL) < 0) goto nomem;
    for (int R = R0; R >= 2; R--) {
        if (!ly->live[R]) continue;
        if (at) {
            at[0] = R;
            at[1] = R0;
        }
        if (max_bytes >= 0 && (long long)layers_used(ly, n) > max_bytes) { /* and every 4096 expansions */
            *full = 1;
            result = -1;
            goto out;
        }
        Layer *L = &ly->layer[R];
        int cur = 0;
        sweep_chunk_set(&chunks[cur], L, R, 0);
        sweep_start(bt, &chunks[cur]);
        sweep_share(&chunks[cur], &mx);
        sweep_join(bt);
        for (;;) {
            SweepChunk *ch = &chunks[cur], *nx = &chunks[cur ^ 1];
            size_t after = ch->first + ch->n;
            int more = after < L->count;
            if (more) { /* the helper works out the next chunk while this one is stored */
                sweep_chunk_set(nx, L, R, after);
                sweep_start(bt, nx);
            }
            if (ch->nomem) goto stop_nomem;
            for (int i = 0; i < ch->n; i++) {
                const SweepJob *j = &ch->jobs[i];
                size_t k = ch->first + i;
                int g = L->gh[2 * k];
                if (!j->expand || g + j->h > T) continue;
                (*expanded)++;
                if ((*expanded & 4095) == 0) {
                    if (max_bytes >= 0 && (long long)layers_used(ly, n) > max_bytes) goto stop_nomem;
                }
                int over = over_limits(lim, *expanded, shown, NULL);
                if (over) {
                    result = over < 0 ? SWEEP_FAILED : -1;
                    if (over < 0) *fail = FAIL_CALLBACK;
                    goto stop;
                }
                int ng = g + 1;
                for (int q = 0; q < j->nkids; q++) {
                    const SweepKid *kid = &j->kids[q];
                    if (ng + kid->hc > T) continue;
                    const uint8_t *key = j->keys + (size_t)q * stride;
                    Layer *C = &ly->layer[kid->rc];
                    if (!ly->live[kid->rc]) {
                        if (!layer_init(C, kb, stride)) goto stop_nomem;
                        ly->live[kid->rc] = 1;
                    }
                    int64_t old = layer_find(C, key, kid->hash, &slot);
                    if (old >= 0) {
                        uint8_t *gh = &C->gh[2 * old];
                        if (kid->hc > gh[1]) gh[1] = kid->hc;
                        if (gh[0] < ng) continue;
                        if (gh[0] == ng) { /* another way as short: keep every move */
                            if (C->lm[old] != kid->lm) C->lm[old] = LM_ALL;
                            continue;
                        }
                        gh[0] = (uint8_t)ng;
                        C->lm[old] = kid->lm;
                        if (paths) memcpy(C->keys + (size_t)old * stride + kb, key + kb, 3 * (size_t)ng);
                        continue;
                    }
                    if (layer_add(C, key, kid->hash, slot, ng, kid->hc, kid->lm) < 0) goto stop_nomem;
                }
                if (j->goal_r >= 0 && ng <= T) {
                    best_len = ng;
                    __atomic_store_n(&T, ng - 1, __ATOMIC_RELAXED); /* only a shorter one is wanted now */
                    if (paths) {
                        memcpy(best, L->keys + k * (size_t)stride + kb, 3 * (size_t)g);
                        put_move(best + 3 * g, j->goal_r, j->goal_c);
                    }
                }
            }
            if (!more) break;
            sweep_share(nx, &mx);
            sweep_join(bt);
            cur ^= 1;
        }
        layer_free(L);
        ly->live[R] = 0;
    }
    goto out;
stop_nomem:
    *full = 1;
    result = -1;
stop: /* the helper may be working out the next chunk: stop it and wait for it */
    for (int i = 0; i < 2; i++) __atomic_store_n(&chunks[i].stop, 1, __ATOMIC_RELAXED);
    sweep_join(bt);
    goto out;
nomem:
    *full = 1;
    result = -1;
out:
    if (result >= 0 && best_len >= 0) {
        path->len = 0; /* without `paths`, only its length (*T_io) is known */
        if (paths) {
            for (int i = 0; i < best_len; i++) {
                path->rep[i] = (int16_t)(best[3 * i] | (best[3 * i + 1] << 8));
                path->color[i] = best[3 * i + 2];
            }
            path->len = best_len;
        }
        *T_io = best_len;
        result = 1;
    }
    if (ly)
        for (int r = 0; r <= n; r++)
            if (ly->live[r]) layer_free(&ly->layer[r]);
    if (batch_ok) batch_free(bt);
    if (chunks)
        for (int i = 0; i < 2; i++)
            for (int q = 0; q < SWEEP_CHUNK; q++) {
                free(chunks[i].jobs[q].kids);
                free(chunks[i].jobs[q].keys);
            }
    scratch_free(&mx);
    free(ly);
    free(chunks);
    free(bt);
    free(ck);
    free(best);
    return result;
}

/* What the caller asks of one sweep (the glue fills it from Python's arguments). */
typedef struct {
    const uint8_t *colors;  /* color of every original region (n of them) */
    const word *adjacency;  /* n * W words */
    int n, W, goal, T;      /* is there a solution within T moves? */
    double max_seconds;     /* < 0: none */
    long long max_nodes, max_bytes;
    int paths, shown, threads, orientation, commute, path_flood;
    PollFn poll;
    void *poll_ctx;
    int *at; /* NULL, or two ints: the region count being expanded and the first (sweep) */
} SweepArgs;

/* One sweep, as asked in `a`: STATUS_FOUND with the shortest solution within T (its
 * length in res->bound, its moves in res->path when `paths`), STATUS_NONE, STATUS_LIMIT,
 * STATUS_INTERRUPTED, or STATUS_MEMORY when its memory ran out. */
static void sweep_run(const SweepArgs *a, Result *res) {
    int n = a->n, goal = a->goal, T = a->T;
    int small_colors = goal < 64;
    for (int i = 0; i < n; i++)
        if (a->colors[i] >= 64) small_colors = 0;
    Winding wd;
    Island is = {n, a->W, a->adjacency, goal, small_colors, winding_for(a->colors, n, a->orientation, &wd), a->path_flood};
    KeyShape ks = key_shape(a->colors, n);
    Limits lim = limits_start(a->max_seconds, a->max_nodes, a->poll, a->poll_ctx);
    long long expanded = 0;
    int full = 0, fail = FAIL_NONE;
    int found = sweep(&is, &ks, a->colors, &T, a->paths, a->shown, a->threads, a->commute, &lim, &expanded,
                      a->max_bytes, &full, &fail, &res->path, a->at);
    res->fail = found == SWEEP_FAILED ? fail : FAIL_NONE;
    res->expanded = expanded;
    res->status = found == 1   ? STATUS_FOUND
                  : found == 0 ? STATUS_NONE
                  : full       ? STATUS_MEMORY
                  : lim.interrupted ? STATUS_INTERRUPTED
                                    : STATUS_LIMIT;
    res->bound = res->status == STATUS_FOUND ? T : -1;
}

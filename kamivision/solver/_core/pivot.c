/* ---- fixed pivot (Flood-It): A* on flood sets with the layered bound ------------------ *
 * The same search as kamivision.solver.pivot (whose docstrings prove the bound admissible
 * and the complete-color pruning exact).
 *
 *   pivot_run(args, result): status STATUS_FOUND, solved optimally (the path's colors are
 *   the sequence), STATUS_LIMIT (no path, bound the lower bound reached), or
 *   STATUS_INTERRUPTED as STATUS_LIMIT but stopped by Ctrl-C.  Memory as the free search's:
 *   stored states take up to 60 % of max_bytes, then the search goes on depth-first
 *   (pivot_deep_phase) with a table of 25 %. */

typedef struct {
    int n, W, ncol;
    const word *adj;
    word by_color[256][MAXW];
    uint8_t color_of[256]; /* color id of each color slot */
    word all[MAXW];
} Pivot;

static void frontier_of(const Pivot *p, const word *flood, word *out) {
    int W = p->W;
    memset(out, 0, W * sizeof(word));
    for (int w = 0; w < W; w++) {
        word x = flood[w];
        while (x) {
            int i = (w << 6) | lowbit(x);
            x &= x - 1;
            const word *a = p->adj + (size_t)i * W;
            for (int v = 0; v < W; v++) out[v] |= a[v];
        }
    }
    for (int v = 0; v < W; v++) out[v] &= ~flood[v];
}

HOT int is_all_w(const Pivot *p, const word *flood, const int W) {
    for (int w = 0; w < W; w++)
        if (flood[w] != p->all[w]) return 0;
    return 1;
}

static int is_all(const Pivot *p, const word *flood) { return is_all_w(p, flood, p->W); }

/* The neighbors of the regions in `set`, or-ed into `out`. */
HOT void add_neighbors(const Pivot *p, const word *set, word *out, const int W) {
    for (int w = 0; w < W; w++) {
        word x = set[w];
        while (x) {
            const word *a = p->adj + (size_t)((w << 6) | lowbit(x)) * W;
            x &= x - 1;
            for (int v = 0; v < W; v++) out[v] |= a[v];
        }
    }
}

/* The layered bound of a flood whose frontier is `frontier` (both copied).  Written once
 * for any word count and compiled for 1-4 words as constants (the loops unrolled): it is
 * most of the pivot search's time. */
HOT int layered_w(const Pivot *p, const word *flood0, const word *frontier0, const int W) {
    int charges = 0;
    word flood[MAXW], frontier[MAXW], added[MAXW], grown[MAXW];
    memcpy(flood, flood0, W * sizeof(word));
    memcpy(frontier, frontier0, W * sizeof(word));
    while (!is_all_w(p, flood, W)) {
        int complete = 0;
        for (int w = 0; w < W; w++) added[w] = 0;
        for (int k = 0; k < p->ncol; k++) {
            word left = 0, outside = 0;
            for (int w = 0; w < W; w++) {
                word rest = p->by_color[k][w] & ~flood[w];
                left |= rest;
                outside |= rest & ~frontier[w];
            }
            if (left && !outside) {
                complete++;
                for (int w = 0; w < W; w++) added[w] |= p->by_color[k][w] & ~flood[w];
            }
        }
        if (complete) charges += complete;
        else {
            charges += 1;
            for (int w = 0; w < W; w++) added[w] = frontier[w];
        }
        /* frontier of flood | added = (frontier | nbrs(added)) & ~(flood | added) */
        for (int w = 0; w < W; w++) grown[w] = frontier[w];
        add_neighbors(p, added, grown, W);
        for (int w = 0; w < W; w++) {
            flood[w] |= added[w];
            frontier[w] = grown[w] & ~flood[w];
        }
    }
    return charges;
}

static int layered_1(const Pivot *p, const word *f, const word *fr) { return layered_w(p, f, fr, 1); }
static int layered_2(const Pivot *p, const word *f, const word *fr) { return layered_w(p, f, fr, 2); }
static int layered_3(const Pivot *p, const word *f, const word *fr) { return layered_w(p, f, fr, 3); }
static int layered_4(const Pivot *p, const word *f, const word *fr) { return layered_w(p, f, fr, 4); }
static int layered_n(const Pivot *p, const word *f, const word *fr) { return layered_w(p, f, fr, p->W); }

static int layered(const Pivot *p, const word *flood, const word *frontier) {
    switch (p->W) {
    case 1: return layered_1(p, flood, frontier);
    case 2: return layered_2(p, flood, frontier);
    case 3: return layered_3(p, flood, frontier);
    case 4: return layered_4(p, flood, frontier);
    default: return layered_n(p, flood, frontier);
    }
}

/* A color whose every region left is on the frontier (its slot), or -1: when there is one,
 * playing it is the only move needed (exact; see pivot.py). */
static int complete_color(const Pivot *p, const word *flood, const word *frontier) {
    for (int k = 0; k < p->ncol; k++) {
        int left = 0, inside = 1;
        for (int w = 0; w < p->W; w++) {
            word rest = p->by_color[k][w] & ~flood[w];
            if (rest) left = 1;
            if (rest & ~frontier[w]) inside = 0;
        }
        if (left && inside) return k;
    }
    return -1;
}

/* ---- the pivot search's depth-first phase, when memory is full -------------------------
 *
 * As the free search's (see "the depth-first phase"): thresholds T = f, f + 1, ...; under
 * each open state, a depth-first search of the states with g + h <= T, skipping a state
 * stored with a g no larger (the A* searches it, or searched it, from there) or seen in
 * this threshold's searches with a g no larger (a lossy table, see Seen).  Every solution
 * of length T passes through an open state, so a threshold that finds none proves T + 1;
 * the first solution found is optimal, as T - 1 was finished.  A child's bound is the
 * larger of its layered bound and its parent's less one (a move lowers the optimum by at
 * most one). */
typedef struct {
    const Pivot *p;
    const Store *st;
    Seen seen;
    Limits *lim;
    long long *expanded;
    uint8_t path[MAXF]; /* colors chosen below the open state */
    int found;          /* how many, when a solution is found */
    int error;
} PivotDeep;

/* 1 with x->path, x->found set when a solution within T is below `flood`, 0 when none,
 * -1 when a limit stops the search (x->error set on a failed callback). */
static int pivot_deep(PivotDeep *x, const word *flood, const word *frontier, int depth, int g, int h_in, int T) {
    const Pivot *p = x->p;
    int W = p->W;
    int h = layered(p, flood, frontier);
    if (h < h_in) h = h_in;
    if (g + h > T || depth + 1 >= MAXF) return 0;
    (*x->expanded)++;
    int over = over_limits(x->lim, *x->expanded, T, x->st);
    if (over) {
        if (over < 0) x->error = 1;
        return -1;
    }
    int only = complete_color(p, flood, frontier);
    word child[MAXW], child_frontier[MAXW], taken[MAXW];
    for (int k = 0; k < p->ncol; k++) {
        if (only >= 0 && k != only) continue;
        int any = 0;
        for (int w = 0; w < W; w++) {
            taken[w] = p->by_color[k][w] & frontier[w];
            any |= taken[w] != 0;
            child[w] = flood[w] | taken[w];
        }
        if (!any) continue;
        x->path[depth] = p->color_of[k];
        if (is_all(p, child)) {
            x->found = depth + 1;
            return 1;
        }
        int ng = g + 1;
        uint64_t ch = hash_key((const uint8_t *)child, W * 8);
        size_t slot;
        int64_t old = store_find(x->st, (const uint8_t *)child, ch, &slot);
        if (old >= 0 && x->st->nodes[old].g <= ng) continue;
        if (seen_check(&x->seen, (const uint8_t *)child, ch, ng)) continue;
        for (int w = 0; w < W; w++) child_frontier[w] = frontier[w];
        add_neighbors(p, taken, child_frontier, W);
        for (int w = 0; w < W; w++) child_frontier[w] &= ~child[w];
        int res = pivot_deep(x, child, child_frontier, depth + 1, ng, h - 1, T);
        if (res) return res;
    }
    return 0;
}

/* Thresholds from f over the open states: 0 with *path set (the optimum), or -1 when a
 * limit stops it (*bound: the threshold reached) or on an error (x->error). */
static int pivot_deep_phase(PivotDeep *x, Queue *q, const Store *st, int f, int *bound, Path *path) {
    int W = x->p->W;
    word flood[2 * MAXW];
    for (int T = f; T < MAXF - 1; T++) {
        seen_reset(&x->seen);
        *bound = T;
        for (int fe = 0; fe <= T; fe++)
            for (int gg = MAXF - 1; gg >= 0; gg--) {
                Stack *bucket = &q->b[fe][gg];
                for (size_t i = bucket->len; i-- > 0;) {
                    Entry en = bucket->items[i];
                    const Node *node = &st->nodes[en.node];
                    if (node->g != en.g) continue; /* reached again by a shorter path */
                    memcpy(flood, st->keys + (size_t)en.node * st->stride, st->stride);
                    uint64_t hk = hash_key((const uint8_t *)flood, W * 8);
                    if (seen_check(&x->seen, (const uint8_t *)flood, hk, en.g)) continue;
                    int res = pivot_deep(x, flood, flood + W, 0, en.g, node->h, T);
                    if (res < 0) return -1;
                    if (res > 0) {
                        path_from_store(path, st, en.node, NULL, x->path, x->found);
                        return 0;
                    }
                }
            }
    }
    return -1;
}

/* What the caller asks of one pivot A* (the glue fills it from Python's arguments). */
typedef struct {
    const uint8_t *colors;  /* color of every region (n of them) */
    const word *adjacency;  /* n * W words */
    int n, W, start;        /* start: the region holding the pivot */
    double max_seconds;     /* < 0: none */
    long long max_nodes, max_bytes;
    PollFn poll;
    void *poll_ctx;
    ImproveFn full; /* NULL, or told once when the stored states fill memory (its answer unused) */
    void *full_ctx;
} PivotArgs;

/* One pivot A*, as asked in `a`; the answer (colors only) in *res. */
static void pivot_run(const PivotArgs *a, Result *res) {
    const uint8_t *colors = a->colors;
    int n = a->n, W = a->W, start = a->start;
    long long max_bytes = a->max_bytes;
    res->fail = FAIL_NONE;
    res->expanded = 0;
    res->bound = 0;
    path_clear(&res->path);
    Pivot *p = calloc(1, sizeof(Pivot));
    Queue *q = calloc(1, sizeof(Queue));
    Store st;
    if (!p || !q || !store_init(&st, W * 8, 2 * W * 8)) {
        free(p);
        if (q) queue_free(q);
        res->fail = FAIL_MEMORY;
        return;
    }
    p->n = n;
    p->W = W;
    p->adj = a->adjacency;
    int slot_of[256];
    for (int c = 0; c < 256; c++) slot_of[c] = -1;
    for (int i = 0; i < n; i++) {
        int c = colors[i];
        if (slot_of[c] < 0) {
            slot_of[c] = p->ncol;
            p->color_of[p->ncol++] = (uint8_t)c;
        }
        p->by_color[slot_of[c]][i >> 6] |= (word)1 << (i & 63);
        p->all[i >> 6] |= (word)1 << (i & 63);
    }
    for (int f = 0; f < MAXF; f++) q->top_g[f] = -1;
    q->min_f = MAXF - 1;

    /* Memory: the stored states may take 60 % of max_bytes; then depth-first searches from
     * the open states go on (pivot_deep_phase) with a table of up to 25 % of it. */
    Limits lim = limits_start(a->max_seconds, a->max_nodes, a->poll, a->poll_ctx);
    long long astar_bytes = max_bytes >= 0 ? max_bytes / 100 * 60 : -1;
    long long expanded = 0;
    int status = STATUS_LIMIT, bound = 0, fail = FAIL_NONE;
    Path *path = &res->path;
    /* A stored state is its flood, followed by the flood's frontier (a payload). */
    word flood[2 * MAXW] = {0}, child[2 * MAXW];
    word *frontier = flood + W, *child_frontier = child + W;
    flood[start >> 6] |= (word)1 << (start & 63);
    frontier_of(p, flood, frontier);
    size_t slot;
    uint64_t hk = hash_key((const uint8_t *)flood, W * 8);
    store_find(&st, (const uint8_t *)flood, hk, &slot);
    int64_t root = store_add(&st, (const uint8_t *)flood, hk, slot);
    int h0 = layered(p, flood, frontier);
    st.nodes[root] = (Node){-1, 0, 0, 0, (uint8_t)h0};
    queue_push(q, h0, (Entry){(uint32_t)root, 0, (uint8_t)h0, 0});
    if (is_all(p, flood)) {
        status = STATUS_FOUND;
        path->len = 0;
        goto done;
    }
    Entry e = {0, 0, 0, 0};
    int f = -1;
    while (queue_pop(q, &f, &e)) {
        if (st.nodes[e.node].g != e.g) continue;
        int g = e.g;
        memcpy(flood, st.keys + (size_t)e.node * st.stride, st.stride);
        if (st.nodes[e.node].rep < 0) {
            /* Queued with a cheap bound: compute the layered bound now, once. */
            st.nodes[e.node].rep = 0;
            int hl = layered(p, flood, frontier);
            if (hl > e.h) {
                st.nodes[e.node].h = (uint8_t)hl;
                if (g + hl < MAXF - 1 && !queue_push(q, g + hl, (Entry){e.node, (uint8_t)g, (uint8_t)hl, 0})) {
                    bound = f;
                    goto done;
                }
                continue;
            }
        }
        if (astar_bytes >= 0 && (long long)store_used(&st) > astar_bytes) {
            queue_push(q, f, e); /* back with the open states (room for one entry is kept) */
            goto deep;
        }
        expanded++;
        int over = over_limits(&lim, expanded, f, &st);
        if (over) {
            if (over < 0) fail = FAIL_CALLBACK;
            bound = f;
            goto done;
        }
        int only = complete_color(p, flood, frontier);
        for (int k = 0; k < p->ncol; k++) {
            if (only >= 0 && k != only) continue;
            int any = 0;
            word taken[MAXW];
            for (int w = 0; w < W; w++) {
                taken[w] = p->by_color[k][w] & frontier[w];
                any |= taken[w] != 0;
                child[w] = flood[w] | taken[w];
            }
            if (!any) continue;
            int ng = g + 1;
            if (is_all(p, child)) {
                path_trace(path, &st, e.node, 0, p->color_of[k]);
                status = STATUS_FOUND;
                goto done;
            }
            uint64_t ch = hash_key((const uint8_t *)child, W * 8);
            int64_t old = store_find(&st, (const uint8_t *)child, ch, &slot);
            if (old >= 0 && st.nodes[old].g <= ng) continue;
            /* A cheap bound now (colors left outside the flood: each needs a move of its
             * own; and pathmax), the layered one when the child comes off the queue. */
            int hc = 0;
            for (int k2c = 0; k2c < p->ncol; k2c++)
                for (int w = 0; w < W; w++)
                    if (p->by_color[k2c][w] & ~child[w]) {
                        hc++;
                        break;
                    }
            if (hc < e.h - 1) hc = e.h - 1; /* pathmax */
            if (ng + hc >= MAXF - 1) continue;
            int64_t k2 = old;
            if (k2 < 0) {
                for (int w = 0; w < W; w++) child_frontier[w] = frontier[w];
                add_neighbors(p, taken, child_frontier, W);
                for (int w = 0; w < W; w++) child_frontier[w] &= ~child[w];
                k2 = store_add(&st, (const uint8_t *)child, ch, slot);
                if (k2 < 0) {
                    bound = f;
                    goto done;
                }
            }
            st.nodes[k2] = (Node){(int32_t)e.node, -1 /* bound not yet computed */, p->color_of[k], (uint8_t)ng, (uint8_t)hc};
            if (!queue_push(q, ng + hc, (Entry){(uint32_t)k2, (uint8_t)ng, (uint8_t)hc, 0})) {
                bound = f;
                goto done;
            }
        }
    }
    goto done;
deep: {
    if (a->full) {
        int unused = 0, r = a->full(a->full_ctx, f, expanded, &unused);
        if (r) { /* Ctrl-C inside it stops like a limit */
            if (r < 0) fail = FAIL_CALLBACK;
            else lim.interrupted = 1;
            bound = f;
            goto done;
        }
    }
    PivotDeep x;
    memset(&x, 0, sizeof(x));
    x.p = p;
    x.st = &st;
    x.lim = &lim;
    x.expanded = &expanded;
    if (!seen_init(&x.seen, W * 8, max_bytes / 4)) {
        bound = f;
        goto done;
    }
    if (pivot_deep_phase(&x, q, &st, f, &bound, path) == 0) status = STATUS_FOUND;
    else if (x.error) fail = FAIL_CALLBACK;
    seen_free(&x.seen);
}
done:
    store_free(&st);
    queue_free(q);
    free(p);
    if (status == STATUS_LIMIT && lim.interrupted) status = STATUS_INTERRUPTED;
    res->status = status;
    res->bound = bound;
    res->expanded = expanded;
    res->fail = fail;
}

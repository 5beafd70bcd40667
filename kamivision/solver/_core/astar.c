

/* ---- an anytime answer when a limit stops the search ---------------------------------- */

/* Greedy dives from the most promising open states (lowest f, deepest first): from each,
 * repeatedly take the move whose child has the smallest bound (then the fewest regions)
 * until one region of an allowed color remains.  Sets *path to the best found (len -1:
 * none).  Not a proof of anything: only used to give a good unproven solution. */
static void dives(const Island *is, const KeyShape *ks, Store *st, Queue *q, State *s, int16_t (*dbuf)[MAXN], int tries,
                  Path *path) {
    int n = is->n, W = is->W, goal = is->goal;
    uint8_t *key = malloc(n);
    int16_t *rep_path = malloc(sizeof(int16_t) * 256);
    uint8_t *col_path = malloc(256);
    int16_t *best_rep = malloc(sizeof(int16_t) * 256);
    uint8_t *best_col = malloc(256);
    int best_len = 1 << 30, best_prefix = -1;
    int64_t best_node = -1;
    Entry e;
    int f;
    word groups[256][MAXW];
    uint8_t gcolors[256];
    int counts[256];
    Pairs pairs;
    if (!key || !rep_path || !col_path || !best_rep || !best_col) goto out;
    for (int t = 0; t < tries && queue_pop(q, &f, &e); t++) {
        if (st->nodes[e.node].g != e.g) {
            t--;
            continue;
        }
        key_unpack(ks, st->keys + (size_t)e.node * st->stride, key);
        int g = e.g, len = 0;
        for (;;) {
            if (g + len >= best_len || len >= 250) break;
            contract(is, key, s);
            far_pairs(is, s, dbuf, &pairs, -1);
            int npresent = count_colors(s, W, counts);
            int regions = popcount_w(s->reps, W);
            int pick_r = -1, pick_c = -1, pick_h = 1 << 30, pick_regions = 1 << 30, done_move = 0;
            Moves mv;
            moves_begin(&mv, s);
            while (moves_next(&mv, s, W, groups, gcolors)) {
                int r = mv.r, c = gcolors[mv.k];
                int merged_n = popcount_w(groups[mv.k], W);
                if (merged_n == regions) {
                    if (goal < 0 || c == goal) {
                        pick_r = r;
                        pick_c = c;
                        done_move = 1;
                        break;
                    }
                    continue;
                }
                int left = colors_left_after(counts, npresent, s->color[r], c, goal);
                int hd = pair_bound_after(&pairs, s, groups[mv.k], c, goal, W);
                int h = left > hd ? left : hd;
                int after = regions - merged_n + 1;
                if (h < pick_h || (h == pick_h && after < pick_regions)) {
                    pick_h = h;
                    pick_regions = after;
                    pick_r = r;
                    pick_c = c;
                }
            }
            if (pick_r < 0) break;
            rep_path[len] = (int16_t)pick_r;
            col_path[len] = (uint8_t)pick_c;
            len++;
            for (int v = 0; v < W; v++) {
                word y = s->members[pick_r][v];
                while (y) {
                    key[(v << 6) | lowbit(y)] = (uint8_t)pick_c;
                    y &= y - 1;
                }
            }
            if (done_move) {
                if (g + len < best_len) {
                    best_len = g + len;
                    best_prefix = len;
                    best_node = e.node;
                    memcpy(best_rep, rep_path, sizeof(int16_t) * len);
                    memcpy(best_col, col_path, len);
                }
                break;
            }
        }
    }
out:
    if (best_node >= 0) path_from_store(path, st, best_node, best_rep, best_col, best_prefix);
    free(key);
    free(rep_path);
    free(col_path);
    free(best_rep);
    free(best_col);
}

/* ---- the depth-first phase, on one thread or two ---------------------------------------
 *
 * Each threshold lists the open states with f <= T in a fixed order (lowest f, deepest
 * first); the threads take them one at a time.  Each thread has its own table of states
 * seen in this threshold (the table only saves time: see above).  When a search finds a
 * solution under the i-th open state, the searches under later ones are abandoned and the
 * earlier ones finish, and the solution under the first open state that has one is
 * answered: the same one as on one thread (the first found below a state in depth-first
 * order does not depend on the table, whose skipped states hold no solution).  Only the
 * count of states expanded varies from run to run. */

typedef struct DeepShare {
    const Store *st;
    Entry *list;
    long n, next, best; /* open states; the next to take; the first with a solution (n: none) */
    int T, stop;        /* a limit stopped the main thread: the helper stops too */
    Deep *helper;
    long long helper_expanded;
} DeepShare;

/* Give up the search under x->index: a limit stopped the other thread, or it found a
 * solution under an earlier open state. */
static int deep_abandon(const Deep *x) {
    const DeepShare *sh = x->share;
    return __atomic_load_n(&sh->stop, __ATOMIC_RELAXED) || __atomic_load_n(&sh->best, __ATOMIC_RELAXED) < x->index;
}

/* Search under open states taken from the list until none is left, one of them has a
 * solution, or (res -1) a limit stops it.  Returns 1 when x found one (under x->index). */
static int deep_take(DeepShare *sh, Deep *x) {
    for (;;) {
        if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return 0;
        long i = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);
        if (i >= sh->n || i > __atomic_load_n(&sh->best, __ATOMIC_RELAXED)) return 0;
        Entry en = sh->list[i];
        x->index = i;
        memcpy(x->keys, sh->st->keys + (size_t)en.node * sh->st->stride, x->ks->bytes);
        int res = deep(x, 0, en.g, sh->T);
        if (res > 0) {
            long best = __atomic_load_n(&sh->best, __ATOMIC_RELAXED);
            while (i < best && !__atomic_compare_exchange_n(&sh->best, &best, i, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            }
            return 1;
        }
        if (res == DEEP_STOPPED) { /* a limit or a failed callback (main thread only) */
            __atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
            return -1;
        }
        if (res == DEEP_ABANDONED) return 0; /* a solution under an earlier state, or a stop */
    }
}

static void deep_helper_task(void *arg) {
    DeepShare *sh = arg;
    deep_take(sh, sh->helper);
}

/* Thresholds from `f` up to `limit - 1`: sets *status (STATUS_FOUND, STATUS_NONE below
 * limit, or STATUS_LIMIT), *bound and *path; returns FAIL_NONE or why it failed.  `y` is
 * the helper thread's workspace, or NULL for one thread. */
static int deep_phase(Deep *x, Deep *y, Batch *bt, Queue *q, const Store *st, int f, int limit, int *status,
                      int *bound, Path *path) {
    DeepShare sh;
    memset(&sh, 0, sizeof(sh));
    sh.st = st;
    sh.helper = y;
    sh.list = malloc(sizeof(Entry) * (q->size + 1));
    if (!sh.list) return FAIL_MEMORY;
    x->share = &sh;
    if (y) {
        y->share = &sh;
        y->lim = NULL;
        y->expanded = &sh.helper_expanded;
    }
    for (int T = f; T < limit; T++) {
        seen_reset(&x->seen);
        if (y) seen_reset(&y->seen);
        sh.n = 0;
        for (int fe = 0; fe <= T; fe++)
            for (int gg = MAXF - 1; gg >= 0; gg--) {
                Stack *bucket = &q->b[fe][gg];
                for (size_t i = bucket->len; i-- > 0;) {
                    Entry en = bucket->items[i];
                    if (st->nodes[en.node].g == en.g) sh.list[sh.n++] = en;
                }
            }
        sh.next = 0;
        sh.best = sh.n;
        sh.T = T;
        sh.stop = 0;
        int helping = 0;
#ifdef KV_THREADS
        if (y && bt->has_worker && sh.n > 1) {
            bt->task = deep_helper_task;
            bt->task_arg = &sh;
            batch_offer(bt);
            helping = 1;
        }
#endif
        int res = deep_take(&sh, x);
        int mine = res > 0; /* x found one, under x->index */
#ifdef KV_THREADS
        if (helping) {
            /* Wait for the helper if it joined in, watching the limits (its search may take long). */
            for (int tick = 1, joined = batch_joined(bt); joined && atomic_load(&bt->busy); tick++) {
                struct timespec pause = {0, 1000000};
                nanosleep(&pause, NULL);
                if (tick % 50 == 0 && !sh.stop) {
                    long long helped = __atomic_load_n(&sh.helper_expanded, __ATOMIC_RELAXED);
                    int over = limits_now(x->lim, *x->expanded + helped, T, st);
                    if (over) {
                        if (over < 0) x->error = 1;
                        __atomic_store_n(&sh.stop, 1, __ATOMIC_SEQ_CST);
                        res = -1;
                    }
                }
            }
            bt->task = NULL;
            *x->expanded += sh.helper_expanded;
            sh.helper_expanded = 0;
        }
#endif
        (void)helping;
        if (sh.best < sh.n) {
            const Deep *w = mine && x->index == sh.best ? x : y;
            path_from_store(path, st, sh.list[sh.best].node, w->rep_path, w->col_path, w->found);
            *status = STATUS_FOUND;
            free(sh.list);
            return FAIL_NONE;
        }
        if (res < 0) {
            *status = STATUS_LIMIT;
            *bound = T;
            free(sh.list);
            return x->error ? FAIL_CALLBACK : FAIL_NONE;
        }
        *bound = T + 1;
    }
    free(sh.list);
    *status = STATUS_NONE;
    return FAIL_NONE;
}


/* What the caller asks of one A* over an island (the glue fills it from Python's
 * arguments; glue.c says what each means). */
typedef struct {
    const uint8_t *colors;  /* color of every original region (n of them) */
    const word *adjacency;  /* n * W words */
    int n, W, goal, limit;  /* goal -1: any color; limit: only shorter solutions (-1: none) */
    double max_seconds;     /* < 0: none */
    long long max_nodes, max_bytes; /* < 0: none */
    int dive_tries, threads, on_full_return, orientation, path_flood;
    PollFn poll;
    void *poll_ctx;
    ImproveFn improve; /* NULL: none */
    void *improve_ctx;
} AstarArgs;

/* One A* over an island, as asked in `a` (see glue.c for the meaning of each field);
 * the answer in *res.  Memory: the stored states may take 60 % of max_bytes; then
 * depth-first searches from the open states go on (deep_phase) with a table of up to 25 %
 * of it, unless on_full_return asks to return STATUS_MEMORY then. */
static void astar_run(const AstarArgs *a, Result *res) {
    const uint8_t *colors = a->colors;
    int n = a->n, W = a->W, goal = a->goal, limit = a->limit;
    long long max_bytes = a->max_bytes;
    res->fail = FAIL_NONE;
    res->expanded = 0;
    res->bound = 0;
    path_clear(&res->path);
    if (limit < 0 || limit >= MAXF - 2) limit = MAXF - 2;

    int small_colors = goal < 64;
    for (int i = 0; i < n; i++)
        if (colors[i] >= 64) small_colors = 0;
    Winding wd;
    Island is = {n, W, a->adjacency, goal, small_colors, winding_for(colors, n, a->orientation, &wd), a->path_flood,
                 MAXF};
    KeyShape ks = key_shape(colors, n);
    Scratch mx;
    int ok = scratch_init(&mx, n, ks.bytes, is.path_flood);
    Queue *q = calloc(1, sizeof(Queue));
    Batch *bt = malloc(sizeof(Batch));
    Store st;
    int stored = ok && q && bt && store_init(&st, ks.bytes, ks.bytes);
    if (!stored || !batch_init(bt, &is, &ks, &st, limit, a->threads)) {
        if (stored) {
            batch_free(bt);
            store_free(&st);
        }
        scratch_free(&mx);
        free(bt);
        if (q) queue_free(q);
        res->fail = FAIL_MEMORY;
        return;
    }
    for (int f = 0; f < MAXF; f++) q->top_g[f] = -1;
    q->min_f = MAXF - 1;

    Limits lim = limits_start(a->max_seconds, a->max_nodes, a->poll, a->poll_ctx);
    limits_for_path_flood(&lim, a->path_flood);
    long long astar_bytes = max_bytes >= 0 ? max_bytes / 100 * 60 : -1;
    long long expanded = 0;
    int status = STATUS_NONE, bound = 0;
    Path *path = &res->path;
    int fail = FAIL_NONE;

    /* The root. */
    size_t slot;
    key_pack(&ks, colors, mx.pkey);
    uint64_t h0hash = hash_key(mx.pkey, ks.bytes);
    store_find(&st, mx.pkey, h0hash, &slot);
    int64_t root = store_add(&st, mx.pkey, h0hash, slot);
    st.nodes[root] = (Node){-1, -1, 0, 0, 0};
    queue_push(q, 0, (Entry){(uint32_t)root, 0, 0, 0});

    int f = -1;
    while (batch_fill(bt, q)) {
        f = bt->jobs[0].f;
        if (batch_run(bt, &mx) < 0) {
            batch_return(bt, q, 0);
            goto nomem;
        }
        /* Store and queue what the jobs found, in the order they were taken. */
        for (int i = 0; i < bt->njobs; i++) {
            const Job *j = &bt->jobs[i];
            Entry e = j->e;
            Node *node = &st.nodes[e.node];
            if (j->kind == JOB_STALE || node->g != e.g) continue; /* reached again by a shorter path */
            int g = e.g, h = j->h;
            if (j->kind == JOB_REQUEUE) { /* its full bound sends it to a later turn */
                if (g + h < limit) {
                    node->h = (uint8_t)h;
                    if (!queue_push(q, g + h, (Entry){e.node, (uint8_t)g, (uint8_t)h, (uint8_t)j->flooded})) goto nomem;
                }
                continue;
            }
            if (astar_bytes >= 0 && (long long)store_used(&st) > astar_bytes) {
                if (!batch_return(bt, q, i)) goto nomem;
                goto deep;
            }
            /* Expand. */
            expanded++;
            int over = over_limits(&lim, expanded, f, &st);
            if (over) {
                if (over < 0) fail = FAIL_CALLBACK;
                status = STATUS_LIMIT;
                bound = f;
                batch_return(bt, q, i); /* for the dives */
                goto done;
            }
            if (j->goal_r >= 0) {
                path_trace(path, &st, e.node, j->goal_r, j->goal_c);
                status = STATUS_FOUND;
                goto done;
            }
            int ng = g + 1;
            for (int k = 0; k < j->nkids; k++) {
                const Kid *kid = &j->kids[k];
                const uint8_t *ckey = j->keys + (size_t)k * ks.bytes;
                int64_t old = store_find(&st, ckey, kid->hash, &slot);
                if (old >= 0 && st.nodes[old].g <= ng) continue; /* stored by an earlier job */
                int64_t k2 = old;
                if (k2 < 0) {
                    k2 = store_add(&st, ckey, kid->hash, slot);
                    if (k2 < 0) goto nomem;
                }
                st.nodes[k2] = (Node){(int32_t)e.node, kid->r, kid->c, (uint8_t)ng, kid->hc};
                int fc = ng + kid->hc;
                if (fc < limit && !queue_push(q, fc, (Entry){(uint32_t)k2, (uint8_t)ng, kid->hc, 0})) goto nomem;
            }
            if (j->next_f < limit && !queue_push(q, j->next_f, (Entry){e.node, (uint8_t)g, (uint8_t)h, (uint8_t)j->flooded}))
                goto nomem;
        }
    }
    status = STATUS_NONE;
    goto done;
deep:
    if (a->on_full_return) { /* the caller sweeps (see `sweep`) or calls again to go depth-first */
        status = STATUS_MEMORY;
        bound = f;
        goto done;
    }
    {
    /* The last threshold's depth-first search must find a solution of that length, which
     * can take far longer than ruling out the shorter ones: a better solution found now
     * (by the caller's `improve`) lowers the limit, and the search ends once the bound
     * reaches it. */
    if (a->improve) {
        int better = limit;
        int r = a->improve(a->improve_ctx, f, expanded, &better);
        if (r) { /* Ctrl-C inside it stops like a limit */
            if (r < 0) fail = FAIL_CALLBACK;
            else lim.interrupted = 1;
            status = STATUS_LIMIT;
            bound = f;
            goto done;
        }
        if (better >= 0 && better < limit) limit = better;
        if (f >= limit) { /* no solution shorter than the better one */
            status = STATUS_NONE;
            goto done;
        }
    }
    /* Two threads: each with its own table, of half the room. */
    Deep x, y;
    int two = 0;
#ifdef KV_THREADS
    two = bt->has_worker;
#endif
    long long room = max_bytes / 4 / (two ? 2 : 1);
    int ok_deep = deep_init(&x, &is, &ks, &st, &lim, &expanded, room);
    int ok_y = !two || deep_init(&y, &is, &ks, &st, NULL, NULL, room);
    if (ok_deep && ok_y) fail = deep_phase(&x, two ? &y : NULL, bt, q, &st, f, limit, &status, &bound, path);
    deep_free(&x);
    if (two) deep_free(&y);
    if (!ok_deep || !ok_y) goto nomem;
    goto done;
}
nomem: /* out of memory while searching: stop as a limit would, with the bound reached */
    status = STATUS_LIMIT;
    bound = f;
done:
    batch_free(bt);
    free(bt);
    if (status == STATUS_LIMIT && !fail && path->len < 0 && a->dive_tries > 0) {
        /* The stopped search leaves its best-f states in the queue: dive from them. */
        dives(&is, &ks, &st, q, mx.s, mx.dbuf, a->dive_tries, path);
    }
    store_free(&st);
    queue_free(q);
    scratch_free(&mx);
    if (status == STATUS_NONE && limit < MAXF - 2) bound = limit;
    if (status == STATUS_LIMIT && lim.interrupted) status = STATUS_INTERRUPTED;
    res->status = status;
    res->bound = bound;
    res->expanded = expanded;
    res->fail = fail;
}

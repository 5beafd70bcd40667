

/* ---- expansions in batches, shared by threads ------------------------------------------
 *
 * The A* takes up to BATCH open states of the lowest f (deepest first) at a time.  Working
 * out what each one leads to (its bound, its merging moves, its children's keys and bounds,
 * and whether a child is already stored with a g no larger) only reads the stored states
 * and the island, so the threads share these jobs.  Then one thread stores the children
 * and queues them, job by job in the order taken, so the search does not depend on how
 * the threads were scheduled: the answers, and the states expanded, are the same with
 * one thread or several.  A job whose state was reached again by a shorter path by an
 * earlier job of its batch is dropped then (as the A* would have skipped it). */
#define BATCH 8

#if defined(__unix__) || defined(__APPLE__)
#define KV_THREADS 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#endif

enum { JOB_STALE, JOB_REQUEUE, JOB_EXPAND };

typedef struct {
    int16_t r;
    uint8_t c, hc;
    uint64_t hash;
    word merged[MAXW]; /* the regions that become one */
} Kid;

#define CHUNK 32 /* children looked up together (their table slots fetched first) */

typedef struct {
    Entry e; /* the open state taken, at f */
    int f;
    int kind, h;          /* JOB_*; the state's bound */
    int goal_r, goal_c;   /* a move that solves it (goal_r >= 0) */
    int next_f;           /* the lowest f above `f` among its children (partial expansion) */
    int flooded;          /* h takes in the path-flood bound (kept when it is queued again); 2: h is it */
    int nkids, settled, cap;
    Kid *kids;            /* its children at f that are new or shorter than stored */
    uint8_t *keys;        /* their keys, ks->bytes each */
} Job;

typedef struct { /* one thread's workspace */
    State *s;
    int16_t (*dbuf)[MAXN];
    uint8_t *colors, *pkey;
    int counts[256];
    Pairs pairs;
    WindPair wind, wind2; /* the winding bound's far pair, and a second one (the sweep) */
    word groups[256][MAXW];
    uint8_t gcolors[256];
    PathFlood *pf; /* the path-flood bound's workspace, when the island takes it */
    int flood;     /* the path-flood bound state_bound took in (-1: not taken) */
    uint64_t corridor[MAXN]; /* flood_corridor's: by representative, the colors its move can
                              * take to lower the path-flood bound (pf_in_corridor) */
    struct SpiderCache *spc; /* the spider bound's counts met (spider.c), made when first asked */
} Scratch;

/* A thread's workspace; the path-flood bound's (2 MB) only when the search takes it in. */
static int scratch_init(Scratch *x, int n, int key_bytes, int path_flood) {
    x->s = malloc(sizeof(State));
    x->dbuf = malloc(sizeof(int16_t) * 4 * MAXN);
    x->colors = malloc(n);
    x->pkey = malloc(key_bytes);
    x->pf = path_flood ? malloc(sizeof(PathFlood)) : NULL;
    x->spc = NULL;
    if (x->pf && !pathflood_init(x->pf)) {
        pathflood_free(x->pf);
        free(x->pf);
        x->pf = NULL;
    }
    return x->s && x->dbuf && x->colors && x->pkey && (x->pf || !path_flood);
}

static void scratch_free(Scratch *x) {
    free(x->s);
    free(x->dbuf);
    free(x->colors);
    free(x->pkey);
    if (x->pf) pathflood_free(x->pf);
    free(x->pf);
    free(x->spc);
}

typedef struct {
    const Island *is;
    const KeyShape *ks;
    const Store *st;
    int limit;
    Job jobs[BATCH];
    int njobs;
    int nomem; /* a job could not grow its lists */
#ifdef KV_THREADS
    atomic_int next, gen, sleeping, quit;
    atomic_int token; /* 1 while the offered work (batch_offer) is not yet taken */
    atomic_int busy;  /* 1 from an offer until the helper is done with it, or it was taken back */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t worker;
    int has_worker;
    Scratch wx; /* the worker's workspace */
    void (*task)(void *); /* instead of the batch's jobs: a task for the helper (task_arg) */
    void *task_arg;
#endif
} Batch;

static int job_reserve(Job *j, int key_bytes) {
    if (j->nkids < j->cap) return 1;
    int cap = j->cap ? j->cap * 2 : 64;
    Kid *kids = realloc(j->kids, cap * sizeof(Kid));
    if (!kids) return 0;
    j->kids = kids;
    uint8_t *keys = realloc(j->keys, (size_t)cap * key_bytes);
    if (!keys) return 0;
    j->keys = keys;
    j->cap = cap;
    return 1;
}

/* The job's children from `settled` on: drop those stored with a g no larger (looked up
 * together, their table entries fetched first), and raise the others' bounds by their own
 * sweeps (a state whose bound sends it to a later turn is then queued there at once). */
static void job_settle(Job *j, const Store *st, const State *s, int key_bytes, int goal, int f, int ng, int W) {
    size_t mask = st->tcap - 1;
    for (int i = j->settled; i < j->nkids; i++) {
        uint32_t e = st->table[j->kids[i].hash & mask];
        if (e) {
            __builtin_prefetch(&st->hashes[e - 1]);
            __builtin_prefetch(st->keys + (size_t)(e - 1) * st->stride);
            __builtin_prefetch(&st->nodes[e - 1]);
        }
    }
    int out = j->settled;
    for (int i = j->settled; i < j->nkids; i++) {
        Kid *k = &j->kids[i];
        const uint8_t *ck = j->keys + (size_t)i * key_bytes;
        size_t slot;
        int64_t old = store_find(st, ck, k->hash, &slot);
        if (old >= 0 && st->nodes[old].g <= ng) continue;
        int hf = child_pair_bound(s, k->merged, k->c, goal, f - ng, W);
        if (hf > k->hc) k->hc = (uint8_t)hf;
        if (out != i) {
            j->kids[out] = *k;
            memcpy(j->keys + (size_t)out * key_bytes, ck, key_bytes);
        }
        out++;
    }
    j->nkids = j->settled = out;
}

/* How state_bound takes the path-flood bound: not, only whether it passes `within`, or
 * exactly (for a state that may come back: its bound is then kept as final). */
enum { FLOOD_NO, FLOOD_PASSES, FLOOD_EXACT };

/* The bound of the state whose colors are in x->colors, reached with g moves, from the
 * bound h it inherited: its color bound, then its pair bound unless it is already over
 * `within` (g + h > within: the caller skips it or puts it off).  Leaves the state
 * contracted in x->s, with x->counts (and x->pairs when the pair bound ran) set for its
 * moves, and the number of colors present in *npresent.  With `second`, the winding bound
 * keeps a second far pair for the children's bounds, in x->wind2 (winding_bound). */
static int state_bound(const Island *is, Scratch *x, int g, int h, int within, int flood, int second,
                       int *npresent) {
    int W = is->W, goal = is->goal;
    x->flood = -1;
    x->wind2.on = 0;
    contract(is, x->colors, x->s);
    int present = count_colors(x->s, W, x->counts);
    int cb = goal < 0 ? present - 1 : present - (x->counts[goal] ? 1 : 0);
    if (cb > h) h = cb;
    if (g + h <= within) {
        int pb = far_pairs(is, x->s, x->dbuf, &x->pairs, within - g);
        if (pb > h) h = pb;
        /* Where the path-flood bound is taken, the winding bound is not: it is never
         * above it (a path's flood number is at least ceil((3m + |w|) / 6), see
         * winding_bound in heuristics.py, so the least over the walks between two regions
         * is at least ceil(D / 6) for their weighted distance D), so it would prune
         * nothing more here; its far pair only gave the children a bound before they
         * were stored, and the path-flood bound's corridor does that.  Bud6's last sweep
         * expands the same 648,701 states without it, in 22.7 s against 27.0 s. */
        if (flood)
            x->wind.on = 0;
        else
            h = winding_bound(is, x->s, &x->pairs, within - g, h, &x->wind, second ? &x->wind2 : NULL);
        if (flood && g + h <= within) {
            /* FLOOD_PASSES: only whether it passes `within` (the check stops there). */
            int pb2 = path_flood(x->s, W, flood == FLOOD_PASSES ? within - g + 1 : -1, x->pf);
            x->flood = pb2; /* the corridor's, without the final color */
            /* One more for the color the board ends in, looked for where it tells: at
             * `within` + 1 when only passing is asked (else it would not prune). */
            if (pb2 >= 0 && pb2 + 1 > h && (flood == FLOOD_EXACT || g + pb2 + 1 > within) &&
                pf_final_color(x->pf, x->s, goal))
                pb2++;
            if (pb2 > h) h = pb2;
            if (pb2 < 0) /* (out of memory: no path-flood bound, so the winding bound after all) */
                h = winding_bound(is, x->s, &x->pairs, within - g, h, &x->wind, second ? &x->wind2 : NULL);
        }
    }
    *npresent = present;
    return h;
}

/* For a state about to be expanded with bound h, after state_bound, when the path-flood
 * bound is (or was, when it was worked out) what holds h up: its corridor in x->corridor
 * (pf_corridor; on entry, the moves asked about), and 1; a child made by a move outside it
 * keeps the bound h, not h - 1.  The bound is worked out again when state_bound did not
 * take it in full (the state came back with its bound, or the check stopped at `within`). */
static int flood_corridor(const Island *is, Scratch *x, int h) {
    if (x->flood < 0 || !x->pf->complete) x->flood = path_flood(x->s, is->W, -1, x->pf);
    return x->flood == h && pf_corridor(x->pf, x->corridor);
}

/* Work out one job (reads the store, writes only the job and the workspace); 0, or -1 when
 * out of memory. */
static int job_run(const Batch *b, Scratch *x, Job *j) {
    const Island *is = b->is;
    const KeyShape *ks = b->ks;
    const Store *st = b->st;
    int W = is->W, goal = is->goal, limit = b->limit, f = j->f;
    Entry e = j->e;
    State *s = x->s;
    j->nkids = j->settled = 0;
    j->goal_r = -1;
    j->next_f = MAXF;
    j->flooded = e.flooded;
    if (st->nodes[e.node].g != e.g) { /* reached again by a shorter path since */
        j->kind = JOB_STALE;
        return 0;
    }
    int g = e.g, h = e.h;
    memcpy(x->pkey, st->keys + (size_t)e.node * ks->bytes, ks->bytes);
    key_unpack(ks, x->pkey, x->colors);
    int npresent;
    int flood = is->path_flood && !e.flooded ? FLOOD_EXACT : FLOOD_NO;
    h = state_bound(is, x, g, h, f, flood, 0, &npresent); /* stops early once it must wait for a later turn */
    /* 2: the path-flood bound is h (flood_corridor's sign, kept with the state). */
    j->flooded = e.flooded ? e.flooded : x->flood >= 0 ? 1 + (x->flood == h) : 0;
    j->h = h;
    if (g + h > f) {
        j->kind = JOB_REQUEUE;
        return 0;
    }
    j->kind = JOB_EXPAND;
    int ng = g + 1, inherited = h - 1;
    /* Moves outside the corridor keep h.  It decides which children are at f on the
     * state's first two turns only (f = g + h, g + h + 1); later, a child at f has a
     * bound over h by the other bounds, and the corridor is not worked out again. */
    int narrow = 0;
    if (j->flooded == 2 && f <= g + h + 1) {
        memset(x->corridor, 0xFF, sizeof(uint64_t) * is->n); /* every move asked about */
        narrow = flood_corridor(is, x, h);
    }
    Moves mv;
    moves_begin(&mv, s);
    while (moves_next(&mv, s, W, x->groups, x->gcolors)) {
        int r = mv.r, c = x->gcolors[mv.k];
        const word *merged = x->groups[mv.k];
        if (same_set(merged, s->reps, W)) {
            if (goal < 0 || c == goal) {
                j->goal_r = r;
                j->goal_c = c;
                return 0;
            }
            continue;
        }
        /* The child's bound, before its key is built. */
        int left = colors_left_after(x->counts, npresent, s->color[r], c, goal);
        int hc = left > inherited ? left : inherited;
        if (narrow && hc < h && !pf_in_corridor(x->corridor, r, c)) hc = h; /* keeps h */
        if (ng + hc >= limit) continue;
        if (ng + hc <= f) {
            int hd = pair_bound_after(&x->pairs, s, merged, c, goal, W);
            if (hd > hc) hc = hd;
            if (ng + hc <= f && x->wind.on) {
                hd = wind_after(&x->wind, NULL, s, is->wind, merged, c, W);
                if (hd > hc) hc = hd;
            }
        }
        int fc = ng + hc;
        if (fc >= limit) continue;
        if (fc != f) {
            /* Partial expansion: children above f wait for the parent's next turn;
             * children below f were made on an earlier turn. */
            if (fc > f && fc < j->next_f) j->next_f = fc;
            continue;
        }
        if (!job_reserve(j, ks->bytes)) return -1;
        Kid *k = &j->kids[j->nkids];
        uint8_t *ck = j->keys + (size_t)j->nkids * ks->bytes;
        child_key(ks, ck, x->pkey, s->members[r], c, W);
        k->hash = hash_key(ck, ks->bytes);
        __builtin_prefetch(&st->table[k->hash & (st->tcap - 1)]);
        k->r = (int16_t)r;
        k->c = (uint8_t)c;
        k->hc = (uint8_t)hc;
        memcpy(k->merged, merged, W * sizeof(word));
        if (++j->nkids - j->settled == CHUNK) job_settle(j, st, s, ks->bytes, goal, f, ng, W);
    }
    job_settle(j, st, s, ks->bytes, goal, f, ng, W);
    return 0;
}

static void batch_share(Batch *b, Scratch *x) {
#ifdef KV_THREADS
    int i;
    while ((i = atomic_fetch_add(&b->next, 1)) < b->njobs) {
        if (job_run(b, x, &b->jobs[i]) < 0) b->nomem = 1;
    }
#else
    (void)b;
    (void)x;
#endif
}

#ifdef KV_THREADS
static void *batch_worker(void *arg) {
    Batch *b = arg;
    int seen = 0;
    for (;;) {
        /* Spin briefly (the next batch usually comes within microseconds), then sleep. */
        for (int spins = 0; atomic_load(&b->gen) == seen && !atomic_load(&b->quit); spins++) {
            if (spins < 20000) {
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
                continue;
            }
            pthread_mutex_lock(&b->mu);
            atomic_store(&b->sleeping, 1);
            while (atomic_load(&b->gen) == seen && !atomic_load(&b->quit)) pthread_cond_wait(&b->cv, &b->mu);
            atomic_store(&b->sleeping, 0);
            pthread_mutex_unlock(&b->mu);
        }
        if (atomic_load(&b->quit)) return NULL;
        seen = atomic_load(&b->gen);
        if (atomic_exchange(&b->token, 0)) { /* the work is the helper's to share (else done already) */
            if (b->task)
                b->task(b->task_arg);
            else
                batch_share(b, &b->wx);
            atomic_store(&b->busy, 0);
        }
    }
}
#endif

/* Start the helper thread when `threads` > 1 (and the platform has them); 0 when out of
 * memory.  With no helper the main thread does every job. */
static int batch_init(Batch *b, const Island *is, const KeyShape *ks, const Store *st, int limit, int threads) {
    memset(b, 0, sizeof(*b));
    b->is = is;
    b->ks = ks;
    b->st = st;
    b->limit = limit;
#ifdef KV_THREADS
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    if (threads > 1) {
        if (!scratch_init(&b->wx, is->n, ks->bytes, is->path_flood)) return 0;
        b->has_worker = pthread_create(&b->worker, NULL, batch_worker, b) == 0;
    }
#else
    (void)threads;
#endif
    return 1;
}

static void batch_free(Batch *b) {
#ifdef KV_THREADS
    if (b->has_worker) {
        pthread_mutex_lock(&b->mu);
        atomic_store(&b->quit, 1);
        pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
        pthread_join(b->worker, NULL);
    }
    scratch_free(&b->wx);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
#endif
    for (int i = 0; i < BATCH; i++) {
        free(b->jobs[i].kids);
        free(b->jobs[i].keys);
    }
}

#ifdef KV_THREADS
/* Offer the helper the batch's jobs, or `task` when one is set: it joins in only if it
 * takes the offer before the main thread takes it back (batch_joined). */
static void batch_offer(Batch *b) {
    atomic_store(&b->busy, 1);
    atomic_store(&b->token, 1);
    atomic_fetch_add(&b->gen, 1);
    if (atomic_load(&b->sleeping)) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
    }
}

/* Called by the main thread once it has run out of shared work: 1 when the helper took the
 * offer (then wait until `busy` is 0: it is finishing what it took), 0 when it had not and
 * now never will.  Without taking the offer back the main thread had to wait for a helper
 * that had not even woken up: on a machine whose cores were all busy, for a whole time
 * slice per batch (a test board took 26 s beside one busy process, 6.7 s alone). */
static int batch_joined(Batch *b) {
    if (atomic_exchange(&b->token, 0)) {
        atomic_store(&b->busy, 0);
        return 0;
    }
    return 1;
}

/* Wait until the helper is done with what it took: spin briefly, then yield the core,
 * which the helper may need on a busy machine. */
static void batch_wait(Batch *b) {
    if (!batch_joined(b)) return;
    for (int spins = 0; atomic_load(&b->busy); spins++) {
        if (spins >= 2000) {
            sched_yield();
            continue;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}
#endif

/* Run the batch's jobs (with the helper when there is one and more than one job); 0, or
 * -1 when out of memory. */
static int batch_run(Batch *b, Scratch *x) {
    b->nomem = 0;
#ifdef KV_THREADS
    if (b->has_worker && b->njobs > 1) {
        atomic_store(&b->next, 0);
        batch_offer(b);
        batch_share(b, x);
        batch_wait(b);
        return b->nomem ? -1 : 0;
    }
#endif
    for (int i = 0; i < b->njobs; i++)
        if (job_run(b, x, &b->jobs[i]) < 0) return -1;
    return 0;
}

/* Pop up to BATCH open states of the lowest f (deepest first); their number. */
static int batch_fill(Batch *b, Queue *q) {
    int f, n = 0;
    Entry e;
    if (!queue_pop(q, &f, &e)) return 0;
    do {
        b->jobs[n].e = e;
        b->jobs[n].f = f;
        n++;
    } while (n < BATCH && queue_pop_at(q, f, &e));
    b->njobs = n;
    return n;
}

/* Put the jobs from `from` on back in the queue (after a stop). */
static int batch_return(Batch *b, Queue *q, int from) {
    for (int i = b->njobs - 1; i >= from; i--)
        if (!queue_push(q, b->jobs[i].f, b->jobs[i].e)) return 0;
    return 1;
}

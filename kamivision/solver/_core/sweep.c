

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
 * Moves that commute are taken in one order only.  Each stored state keeps the moves that
 * reached it with its least g, up to LM_KEEP different ones (LM_ALL past them, when a
 * way in kept LM_ALL, and at the root: all moves are taken then).  For a kept move
 * m = (r, c), let M be the region it made and N[M] that region with its neighbors.  A move
 * m' = (r', c') that makes the set S' one region is skipped when, for every kept move m,
 * (r', c') comes before (r, c) (region first, then color) and the region r' it taps is
 * either not in N[M], or next to M with c' neither c nor the color c_R that r had before
 * m (kept with the move); so, of the ways in, each skips m' on its own (below, for the
 * one a solution takes):
 * - m and m' commute.  When r' is not in N[M]: r' is next to none of the regions m
 *   merged, so before m it had the same neighbors with the same colors, and m' merged the
 *   same S' (r' and its neighbors of color c'), none of them merged by m (that would make
 *   r' a neighbor of M).  With m' first, m merges the same set: S' now has color c', so it
 *   could join only if c' is c and a region of S' is next to r; but r' is not, and a
 *   neighbor of r of color c was merged by m.  With m first, S' is not next to M when c'
 *   is c (a region of S' of color c next to M would have been one region with it), so
 *   the two sets stay apart.  When r' is next to M, c' is not c and not c_R: before m,
 *   r''s neighbors among the regions m merged had color c_R (r itself) or c, neither c',
 *   so m' merged the same S' before m as after it; with m' first, r' and S' have color
 *   c', not c, so m merges the same set, and r' is none of it (r' is not in M).  Both
 *   orders reach the same state, and each move keeps its name (the lowest original
 *   region of the region it taps) in either order.  (Before 2026-11-30 the rule asked
 *   that all of S' miss N[M]: Bud5's proof stored 1,297,658 states, against 1,148,307
 *   now; tests/solver/test_core.py checks the commuting on every such pair of moves of
 *   random states, and that with c' = c_R the orders can differ.)
 * - Nothing within T is lost.  Take, of the shortest solutions within T, the one whose
 *   moves come first in lexicographic order.  Each of its prefixes is a shortest way to the
 *   state it reaches (else a shorter solution would exist), so that state is stored with
 *   that g, and every one of them has g + h <= T (h is admissible).  Its next move is never
 *   skipped: when the state keeps moves, the solution's own last move is one of them (the
 *   solution's prefix reaches it with its least g), and were the next move skipped it
 *   would be skipped against that one too: the two would commute, with the later one
 *   first, giving a solution as short and earlier in lexicographic order.  All ways to a
 *   state are stored before it is expanded (children have fewer regions), so its kept
 *   moves are final when it is expanded.  Keeping one move (LM_ALL at a second) is the
 *   same rule; keeping up to four stores 9 % fewer states on Bud5's proof (1,148,307
 *   against 1,267,004; benchmarks/sweep.py --ways 1,4).
 * A state reached by both orders of two commuting moves is now made once; the states
 * expanded can only be fewer (those reached only by skipped orders whose other order is
 * cut by the bounds), never a needed one.  tests/solver/test_core.py checks the sweep against
 * breadth-first search on random small boards.
 *
 * A leaf is tapped only at a star (the leaf rule, 2026-11-30; Island.leaf_rule).  A leaf
 * is a region with one neighbor; a star, a state where every region but at most one is a
 * leaf.  A leaf stays one until it is merged, since its one neighbor is all it touches;
 * tapping it merges it into that neighbor and changes nothing else.
 * - From any state, a shortest solution that taps a leaf only at a star exists.  By
 *   induction on the moves left, it is enough that a state P that is not a star has a
 *   shortest solution whose first move taps no leaf.  Take a shortest solution from P
 *   that starts by tapping a leaf l.  Leave that move out, tap the region of l's neighbor
 *   wherever a later move tapped the region l had joined, and end by tapping l with the
 *   final color: every later move merges what it merged (l joined nothing but its
 *   neighbor, and every region has the neighbors it had, l's neighbor one more), so at
 *   the end all but l is one region of the final color, and this is a solution as short
 *   (had a later move merged l too, it would be shorter: none was).  Its first move is the
 *   old second one.  If that taps a leaf of P, do the same again.  Were every move so, the
 *   solution would tap only P's leaves, each merging a leaf into its neighbor and leaving
 *   the other regions of P, two or more (P is not a star), apart: no solution.
 * - With the commuting rule, nothing within T is lost: the argument above holds with
 *   "the shortest solutions that tap leaves only at stars" for "the shortest solutions",
 *   once the two orders of the swap are such solutions too.  At a star no move is skipped
 *   as commuting (skipping there lost states on 102 of test_core's 199 boards).  Elsewhere,
 *   m' skipped after m: r' was no leaf after m (the rule forbids it), and before m it had
 *   as many neighbors or more (m only merges), so it is none there; r, tapped by m, had
 *   a neighbor of color c outside S' (S' holds no region m merged when r' is not in N[M],
 *   and no region of color c when c' is not c), so after m' it has that neighbor and, if
 *   it touched S', S' too, and is a leaf only if it was one before m (then that state was
 *   a star: all its moves touch its center, and none is skipped after m).
 * Leaves and stars are the same in a state and in its images, so the symmetric sweep
 * (below) keeps the rule.  tests/solver/test_core.py checks the first point by
 * breadth-first search on random states, and the rule with the commuting rule against
 * breadth-first search.  Bud5's proof expands 577,847 states instead of 695,204
 * (benchmarks/sweep.py --leaves on,off).
 *
 * Symmetric states are stored once, without `paths` (symmetry.c): a child's key may be
 * replaced by that of an image of it under an automorphism s of the island that keeps
 * its first coloring, which is reached in as many moves, has as many left, and has as
 * many regions (so the order by region count holds).  The sweep then searches the graph
 * whose nodes are the keys stored and whose edges are "a move, then the image".  Two
 * changes keep the commuting rule right on that graph:
 * - a move is named by the member of its region whose orbit under the group comes first
 *   (sym_name_region; with no symmetry, its lowest region, as above), and a child whose
 *   key was replaced keeps the image of that name under s, a member of the image of the
 *   region the move made, so N[M] is found as before;
 * - moves are compared by rank (move_rank): the name's region replaced by the lowest of
 *   its orbit, then the color.  A move and its image under any automorphism have the
 *   same rank, and a move is skipped only when its rank is lower (ties are taken).
 * Take, of the shortest solutions within T on that graph, one whose sequence of ranks
 * comes first in lexicographic order.  Were its next move m' skipped at a key Q, Q would
 * keep among its moves M: the way in from its parent P by the solution's own move m, Q
 * being the image under s of P after m, M the image of m's name; m' ranked below M, and
 * missing N[M] (as it does for every move Q keeps).  Then the preimage of m' under s
 * commutes with m at P, and P, that preimage (its image then), the image of m there, and
 * the rest of the solution from the same key is a solution as short whose ranks come
 * first: the first differs, by the rank of m' (which is that of its preimage) against
 * that of m (which is that of M).
 * tests/solver/test_symmetry.py checks it against breadth-first search on symmetric
 * boards, and the image and its name against the group. */

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
    uint8_t lc;  /* the color of the region that move taps, before it */
} SweepKid;

/* A move of a parent that its cheap bounds keep (sweep_job's first pass). */
typedef struct {
    int16_t r, rn; /* the region it taps, and rn, that region's name region (symmetry) */
    uint8_t c, hc; /* its color, and the child's bound so far */
    uint16_t name; /* move_name */
    word merged[MAXW];
} SweepMove;

typedef struct {
    int expand;         /* within T by its own bounds, when worked out */
    int h;              /* its bound */
    int goal_r, goal_c; /* a move that solves it (goal_r >= 0); no children after it */
    int nkids, cap;
    SweepKid *kids;
    uint8_t *keys; /* stride bytes each: the child's key, then its moves with `paths` */
    int nmoves, cap_moves;
    SweepMove *moves; /* the first pass's moves */
} SweepJob;

typedef struct {
    const Island *is;
    const KeyShape *ks;
    const Layer *L;
    int R, stride;
    const int *T; /* lowered by the main thread as it finds solutions */
    int commute;  /* skip commuting moves taken in the other order (see above), for states
                   * kept with at most this many ways in (0: never; up to LM_KEEP) */
    const Symmetry *sym; /* NULL, or symmetric children stored as one (keys only) */
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
    uint8_t col[MAXN];
    j->expand = 0;
    j->nkids = j->nmoves = 0;
    j->goal_r = -1;
    j->h = h;
    if (g + h > T) return 0;
    key_unpack(ks, pk, x->colors);
    int npresent;
    /* Where the path-flood bound is not taken, no corridor narrows the children: a second
     * far pair's winding bound prunes many of them before they are stored. */
    int flood = is->path_flood && g <= is->flood_depth ? FLOOD_PASSES : FLOOD_NO;
    h = state_bound(is, x, g, h, T, flood, flood == FLOOD_NO, &npresent);
    j->h = h;
    if (g + h > T) return 0;
    /* At T, near the root, the spiders of bridges (spider.c): one more move there prunes it. */
    if (is->spiders && g + h == T && g <= is->spider_depth) {
        if (!x->spc) x->spc = calloc(1, sizeof(SpiderCache)); /* without it: no cache */
        int hs = spiders_bound(is->spiders, x->colors, h + 1, x->spc);
        if (hs > h) {
            j->h = hs;
            return 0;
        }
    }
    j->expand = 1;
    int ng = g + 1, inherited = h - 1;
    /* The leaves (regions with one neighbor) not to tap: all of them, unless the state is a
     * star, every region but one a leaf (see above); none without the rule. */
    word leaves[MAXW] = {0};
    int star = is->leaf_rule && state_leaves(s, W, leaves);
    if (star) memset(leaves, 0, sizeof(leaves));
    const uint16_t *last = L->lm + k * LM_KEEP; /* the moves that reached it (LM_ALL: all are taken) */
    int nlast = last[0] == LM_ALL || star ? 0 : 1; /* (at a star, both orders: see above) */
    while (nlast && nlast < LM_KEEP && last[nlast] != LM_NONE) nlast++;
    if (nlast > ch->commute) nlast = 0;
    const Symmetry *sym = ch->sym;
    int named = -1, rn = -1; /* the region whose name region rn was worked out */
    word near[LM_KEEP][MAXW]; /* N[M] of each: the region the move made, and its neighbors */
    int rank[LM_KEEP], made[LM_KEEP];
    const uint8_t *was = L->lc + k * LM_KEEP; /* the colors their regions had before them */
    for (int i = 0; i < nlast; i++) {
        int m = made[i] = s->rep_of[last[i] >> 5];
        for (int w = 0; w < W; w++) near[i][w] = s->adj[m][w];
        near[i][m >> 6] |= (word)1 << (m & 63);
        rank[i] = move_rank(sym, last[i]);
    }
    Moves mv;
    moves_begin(&mv, s);
    while (moves_next(&mv, s, W, x->groups, x->gcolors)) {
        int r = mv.r, c = x->gcolors[mv.k];
        if (leaves[r >> 6] >> (r & 63) & 1) continue;
        const word *merged = x->groups[mv.k];
        if (same_set(merged, s->reps, W)) {
            if (goal < 0 || c == goal) { /* T falls below ng: no later child is wanted */
                j->goal_r = r;
                j->goal_c = c;
                return 0;
            }
            continue;
        }
        if (sym && r != named) { /* its member whose orbit comes first (see above) */
            named = r;
            rn = sym_name_region(sym, s->members[r], W);
        }
        uint16_t name = move_name(sym ? rn : r, c);
        if (nlast) { /* made in the other order after each way in (see above) */
            int rk = move_rank(sym, name), i = 0;
            for (; i < nlast && rk < rank[i]; i++)
                if (near[i][r >> 6] >> (r & 63) & 1 && /* next to M, it commutes with m only as below */
                    (r == made[i] || c == move_color(last[i]) || was[i] == LC_NONE || c == was[i]))
                    break;
            if (i == nlast) continue;
        }
        int left = colors_left_after(x->counts, npresent, s->color[r], c, goal);
        int hc = left > inherited ? left : inherited;
        if (ng + hc > T) continue;
        int hd = pair_bound_after(&x->pairs, s, merged, c, goal, W);
        if (hd > hc) hc = hd;
        if (ng + hc > T) continue;
        if (x->wind.on) {
            hd = wind_after(&x->wind, &x->wind2, s, is->wind, merged, c, W);
            if (hd > hc) hc = hd;
            if (ng + hc > T) continue;
        }
        if (j->nmoves == j->cap_moves) {
            int cap = j->cap_moves ? 2 * j->cap_moves : 64;
            SweepMove *moves = realloc(j->moves, cap * sizeof(SweepMove));
            if (!moves) return -1;
            j->moves = moves;
            j->cap_moves = cap;
        }
        SweepMove *sm = &j->moves[j->nmoves++];
        sm->r = (int16_t)r;
        sm->rn = (int16_t)rn;
        sm->c = (uint8_t)c;
        sm->hc = (uint8_t)hc;
        sm->name = name;
        memcpy(sm->merged, merged, sizeof(word) * W);
    }
    /* At T, a move outside the path-flood bound's corridor makes a child over T.  The
     * corridor is asked about the moves the rules and the cheap bounds above kept only
     * (one in seven on Bud5), so its trace can stop once none of them is left in it, and
     * it is not traced at all when none was kept. */
    int narrow = 0;
    if (g + h == T && x->flood == h && j->nmoves) {
        for (int w = 0; w < W; w++) /* every region the corridor reads: none asked about yet */
            for (word b = s->reps[w]; b; b &= b - 1) x->corridor[(w << 6) | lowbit(b)] = 0;
        for (int i = 0; i < j->nmoves; i++) x->corridor[j->moves[i].r] |= pf_colbit(j->moves[i].c);
        narrow = flood_corridor(is, x, h);
    }
    for (int i = 0; i < j->nmoves; i++) {
        const SweepMove *sm = &j->moves[i];
        int r = sm->r, c = sm->c, hc = sm->hc, rn = sm->rn;
        uint16_t name = sm->name;
        const word *merged = sm->merged;
        if (narrow && !pf_in_corridor(x->corridor, r, c)) continue;
        /* The child's own pair bound, measured on the parent, before it is stored: most
         * children within T by the bounds above are not by this one, and storing them
         * only to drop them when their turn comes costs far more (memory, and a contraction
         * each). */
        int hd = child_pair_bound(s, merged, c, goal, T - ng, W);
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
        if (sym) { /* the image stored, and its move's name there */
            int t = rn;
            if (sym_canon(sym, ks, ck, col, &t)) name = move_name(t, c);
        }
        if (stride > kb) {
            memcpy(ck + kb, pk + kb, 3 * (size_t)g);
            put_move(ck + kb + 3 * g, r, c);
        }
        kid->hash = hash_key(ck, kb);
        kid->rc = (int16_t)(ch->R - popcount_w(merged, W) + 1);
        kid->hc = (uint8_t)hc;
        kid->lm = name;
        kid->lc = s->color[r];
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

/* One sweep's state, shared by its layers' expansions. */
typedef struct {
    const KeyShape *ks;
    int n, kb, stride, paths, shown;
    int T; /* lowered by the main thread as it finds solutions; the chunks read it */
    Layers *ly;
    SweepChunk *chunks; /* two: one stored while the helper works out the next */
    Batch *bt;
    Scratch mx;
    Limits *lim;
    long long *expanded, max_bytes;
    long long stored; /* states stored (each evaluated when its layer's turn comes) */
    Spill sp;
    uint8_t *best; /* the shortest solution's moves, with `paths` */
    int best_len, fail;
    int tight; /* memory came near the budget: see give_back */
} Sweeper;

#define EXPAND_DONE 0
#define EXPAND_FULL 1  /* memory (or the disk's budget) ran out */
#define EXPAND_LIMIT 2 /* a limit stopped it; sw->fail says when a callback failed */

/* Memory near its budget: from then on, what the sweep frees goes back to the system.
 * glibc raises its mapping threshold after each large block freed (a layer's table grown,
 * a layer expanded), up to 32 MB, so that later blocks come from the heap, whose holes
 * stay resident: a sweep given 0.1 GB that went to disk peaked at 0.21 GB resident.  A
 * fixed threshold maps each block of 128 kB or more on its own, and malloc_trim returns
 * the holes made so far: 0.13 GB (benchmarks/sweep.py, Threegrid5 within 13).  Only near
 * the budget, because fresh mappings cost their page faults anew: set from the start, Bud4's
 * solve took 8-10 % longer.  The setting is the process's: when the last sweep that set it
 * ends, release_back puts back what glibc's own threshold grows to. */
static int tight_sweeps; /* sweeps running with the fixed threshold (threads may run several) */

static void give_back(Sweeper *sw) {
#ifdef __GLIBC__
    if (!sw->tight) {
        __atomic_add_fetch(&tight_sweeps, 1, __ATOMIC_SEQ_CST);
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
    sw->tight = 1;
    malloc_trim(0);
#else
    (void)sw;
#endif
}

/* The sweep is over and its memory freed: hand it back, and when no other sweep needs the
 * fixed threshold, set it to the largest that glibc's moving threshold reaches (32 MB on 64
 * bits; the trim threshold, which give_back left alone, stays as it was).  Left at 128 kB,
 * every later large block of the process is a fresh mapping whose pages fault in again: in
 * a test worker or a server that had run one sweep near its budget, reading and drawing
 * screenshots took about 30 % longer (a render and read of a 750 x 1334 screen, 0.52 s
 * against 0.40 s). */
static void release_back(Sweeper *sw) {
#ifdef __GLIBC__
    if (!sw->tight) return;
    malloc_trim(0);
    if (__atomic_sub_fetch(&tight_sweeps, 1, __ATOMIC_SEQ_CST) == 0) {
        mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    }
#else
    (void)sw;
#endif
}

/* Memory past the budget: spill the layers waiting their turn (below R) when the sweep
 * may (down to half the budget); 1 when it is within the budget then, else 0.  `extra`:
 * a part being expanded that is not among the layers. */
static int sweep_fits(Sweeper *sw, int R, size_t extra) {
    if (sw->max_bytes < 0) return 1;
    long long used = (long long)(layers_used(sw->ly, sw->n) + extra);
    if (!sw->tight && used > sw->max_bytes / 2) give_back(sw);
    if (used <= sw->max_bytes) return 1;
    if (!sw->sp.dir || !spill_below(&sw->sp, sw->ly, R, sw->n, extra, sw->max_bytes / 2)) return 0;
    give_back(sw);
    return (long long)(layers_used(sw->ly, sw->n) + extra) <= sw->max_bytes;
}

/* Expand every state of L (the layer of R regions, or a part of it read from disk). */
static int sweep_layer(Sweeper *sw, Layer *L, int R, int part) {
    Layers *ly = sw->ly;
    int kb = sw->kb, stride = sw->stride;
    size_t slot;
    int cur = 0;
    sweep_chunk_set(&sw->chunks[cur], L, R, 0);
    sweep_start(sw->bt, &sw->chunks[cur]);
    sweep_share(&sw->chunks[cur], &sw->mx);
    sweep_join(sw->bt);
    for (;;) {
        SweepChunk *ch = &sw->chunks[cur], *nx = &sw->chunks[cur ^ 1];
        size_t after = ch->first + ch->n;
        int more = after < L->count;
        if (more) { /* the helper works out the next chunk while this one is stored */
            sweep_chunk_set(nx, L, R, after);
            sweep_start(sw->bt, nx);
        }
        if (ch->nomem) return EXPAND_FULL;
        for (int i = 0; i < ch->n; i++) {
            const SweepJob *j = &ch->jobs[i];
            size_t k = ch->first + i;
            int g = L->gh[2 * k];
            if (!j->expand || g + j->h > sw->T) continue;
            (*sw->expanded)++;
            if ((*sw->expanded & 4095) == 0 && !sweep_fits(sw, R, part ? layer_used(L) : 0)) return EXPAND_FULL;
            /* The node limit here; the clock and Ctrl-C after the chunk (below). */
            if (sw->lim->max_nodes >= 0 && *sw->expanded > sw->lim->max_nodes) return EXPAND_LIMIT;
            int ng = g + 1;
            for (int q = 0; q < j->nkids; q++) {
                const SweepKid *kid = &j->kids[q];
                if (ng + kid->hc > sw->T) continue;
                const uint8_t *key = j->keys + (size_t)q * stride;
                Layer *C = &ly->layer[kid->rc];
                if (!ly->live[kid->rc]) {
                    if (!layer_init(C, kb, stride)) return EXPAND_FULL;
                    ly->live[kid->rc] = 1;
                }
                int64_t old = layer_find(C, key, kid->hash, &slot);
                if (old >= 0)
                    layer_merge(C, old, ng, kid->hc, kid->lm, kid->lc, sw->paths ? key + kb : NULL);
                else if (layer_add(C, key, kid->hash, slot, ng, kid->hc, kid->lm, kid->lc) < 0)
                    return EXPAND_FULL;
                else
                    sw->stored++;
            }
            if (j->goal_r >= 0 && ng <= sw->T) {
                sw->best_len = ng;
                __atomic_store_n(&sw->T, ng - 1, __ATOMIC_RELAXED); /* only a shorter one is wanted now */
                if (sw->paths) {
                    memcpy(sw->best, L->keys + k * (size_t)stride + kb, 3 * (size_t)g);
                    put_move(sw->best + 3 * g, j->goal_r, j->goal_c);
                }
            }
        }
        /* The clock, Ctrl-C and the progress report are looked at after each chunk,
         * whether its parents were expanded or not: with the path-flood bound most are
         * evaluated and dropped, and a look every 256 expanded (as the A* does) left 10.3 s
         * between two looks in KAMI 1's P39 "within 12" (10,240 expansions), which overran
         * a 10 s limit; a chunk there takes up to half a second, and a look microseconds. */
        int over = limits_now(sw->lim, *sw->expanded, sw->shown, NULL);
        if (over) {
            if (over < 0) sw->fail = FAIL_CALLBACK;
            return EXPAND_LIMIT;
        }
        if (!more) return EXPAND_DONE;
        sweep_share(nx, &sw->mx);
        sweep_join(sw->bt);
        cur ^= 1;
    }
}

/* Layer R, whose states are on disk (and perhaps some in memory): all to disk, then read
 * back and expanded in parts of a third of the memory each (the rest for their children). */
static int sweep_from_disk(Sweeper *sw, int R) {
    Layers *ly = sw->ly;
    if (!spill_layer(&sw->sp, ly, R)) return EXPAND_FULL;
    int P = spill_parts(&sw->sp, R, sw->stride, sw->max_bytes / 3);
    if (P == 0) return EXPAND_FULL;
    for (int p = 0; p < P; p++) {
        Layer part;
        if (!layer_init(&part, sw->kb, sw->stride)) return EXPAND_FULL;
        int e = spill_read(&sw->sp, R, &part, p, P) ? sweep_layer(sw, &part, R, 1) : EXPAND_FULL;
        layer_free(&part);
        give_back(sw);
        if (e != EXPAND_DONE) return e;
    }
    spill_close(&sw->sp, R, sw->stride);
    return EXPAND_DONE;
}

/* Returns 1 when a solution within *T is found (*T is then its length, and *path its
 * moves when `paths`, else empty), 0 when there is none, -1 when a limit (or memory: *full
 * set) stops it, SWEEP_FAILED when it fails (FAIL_MEMORY or FAIL_CALLBACK in *fail).
 * `at` (or NULL) gets the region count being expanded and the first, for the progress
 * reports.  With a folder in `spill_dir`, layers that do not fit in max_bytes go to disk
 * there (spill.c), up to `max_disk` bytes; *disk gets the most they took. */
static int sweep(const Island *is, const KeyShape *ks, const uint8_t *colors, int *T_io, int paths, int shown,
                 int threads, int commute, const Symmetry *sym, Limits *lim, long long *expanded, long long max_bytes,
                 const char *spill_dir, long long max_disk, long long *disk, int *full, int *fail, Path *path,
                 int *at, long long *stored) {
    int n = is->n, W = is->W, T = *T_io;
    Sweeper sw = {.ks = ks, .n = n, .kb = ks->bytes, .paths = paths, .shown = shown, .T = T, .lim = lim,
                  .expanded = expanded, .max_bytes = max_bytes, .best_len = -1, .fail = FAIL_NONE};
    sw.stride = paths ? sw.kb + 3 * (T > 0 ? T : 1) : sw.kb;
    spill_init(&sw.sp, spill_dir, max_disk);
    int stride = sw.stride, kb = sw.kb;
    sw.ly = calloc(1, sizeof(Layers));
    sw.chunks = calloc(2, sizeof(SweepChunk));
    sw.bt = malloc(sizeof(Batch));
    int batch_ok = 0;
    uint8_t *ck = malloc(stride);
    sw.best = malloc(3 * (T + 1));
    int result = 0;
    *full = 0;
    *fail = FAIL_NONE;
    path_clear(path);
    if (!sw.ly || !sw.chunks || !sw.bt || !ck || !sw.best || !scratch_init(&sw.mx, n, kb, is->path_flood) ||
        !(batch_ok = batch_init(sw.bt, is, ks, NULL, 0, threads))) {
        result = SWEEP_FAILED;
        *fail = FAIL_MEMORY;
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        sw.chunks[i].is = is;
        sw.chunks[i].ks = ks;
        sw.chunks[i].stride = stride;
        sw.chunks[i].T = &sw.T;
        sw.chunks[i].commute = commute < 0 || commute > LM_KEEP ? LM_KEEP : commute;
        sw.chunks[i].sym = sym && symmetry_on(sym) && stride == kb ? sym : NULL;
        sw.chunks[i].helper = &sw.bt->wx;
    }
    contract(is, colors, sw.mx.s);
    int R0 = popcount_w(sw.mx.s->reps, W);
    size_t slot;
    Layers *ly = sw.ly;
    if (!layer_init(&ly->layer[R0], kb, stride)) goto full;
    ly->live[R0] = 1;
    memset(ck, 0, stride);
    key_pack(ks, colors, ck);
    uint64_t h0 = hash_key(ck, kb);
    layer_find(&ly->layer[R0], ck, h0, &slot);
    if (layer_add(&ly->layer[R0], ck, h0, slot, 0, 0, LM_ALL, LC_NONE) < 0) goto full;
    for (int R = R0; R >= 2; R--) {
        if (!ly->live[R] && !sw.sp.file[R]) continue;
        if (at) {
            at[0] = R;
            at[1] = R0;
        }
        if (!sweep_fits(&sw, R, 0) && !(sw.sp.dir && spill_layer(&sw.sp, ly, R))) goto full;
        if (!ly->live[R] && !sw.sp.file[R]) continue; /* spilled, and nothing was in it */
        int e = sw.sp.file[R] ? sweep_from_disk(&sw, R) : sweep_layer(&sw, &ly->layer[R], R, 0);
        if (e == EXPAND_FULL) goto stop_full;
        if (e == EXPAND_LIMIT) {
            result = sw.fail == FAIL_CALLBACK ? SWEEP_FAILED : -1;
            *fail = sw.fail;
            goto stop;
        }
        if (ly->live[R]) layer_free(&ly->layer[R]);
        ly->live[R] = 0;
    }
    goto out;
stop_full:
    *full = 1;
    result = -1;
stop: /* the helper may be working out the next chunk: stop it and wait for it */
    for (int i = 0; i < 2; i++) __atomic_store_n(&sw.chunks[i].stop, 1, __ATOMIC_RELAXED);
    sweep_join(sw.bt);
    goto out;
full:
    *full = 1;
    result = -1;
out:
    if (result >= 0 && sw.best_len >= 0) {
        path->len = 0; /* without `paths`, only its length (*T_io) is known */
        if (paths) {
            for (int i = 0; i < sw.best_len; i++) {
                path->rep[i] = (int16_t)(sw.best[3 * i] | (sw.best[3 * i + 1] << 8));
                path->color[i] = sw.best[3 * i + 2];
            }
            path->len = sw.best_len;
        }
        *T_io = sw.best_len;
        result = 1;
    }
    *disk = sw.sp.peak;
    *stored = sw.stored;
    spill_free(&sw.sp, n, stride);
    if (sw.ly)
        for (int r = 0; r <= n; r++)
            if (sw.ly->live[r]) layer_free(&sw.ly->layer[r]);
    if (batch_ok) batch_free(sw.bt);
    if (sw.chunks)
        for (int i = 0; i < 2; i++)
            for (int q = 0; q < SWEEP_CHUNK; q++) {
                free(sw.chunks[i].jobs[q].kids);
                free(sw.chunks[i].jobs[q].keys);
                free(sw.chunks[i].jobs[q].moves);
            }
    scratch_free(&sw.mx);
    free(sw.ly);
    free(sw.chunks);
    free(sw.bt);
    free(ck);
    free(sw.best);
    release_back(&sw);
    return result;
}

/* What the caller asks of one sweep (the glue fills it from Python's arguments). */
typedef struct {
    const uint8_t *colors;  /* color of every original region (n of them) */
    const word *adjacency;  /* n * W words */
    int n, W, goal, T;      /* is there a solution within T moves? */
    double max_seconds;     /* < 0: none */
    long long max_nodes, max_bytes;
    const char *spill_dir; /* NULL: stop when max_bytes is full; else layers go to disk there */
    long long max_disk;    /* bytes they may take there */
    int paths, shown, threads, orientation, path_flood;
    int commute;           /* the commuting rule for states with at most this many ways in (0: off; < 0: LM_KEEP) */
    int flood_depth;       /* path_flood at the states with at most this many moves made; < 0: all */
    int leaf_rule;         /* a leaf tapped only at a star (see above) */
    const Spiders *spiders; /* NULL, or the spider bound's spiders (spider.c) */
    int spider_depth;      /* taken at the states at T with at most this many moves made */
    const Symmetry *sym;   /* NULL, or the island's symmetries (symmetry.c) */
    PollFn poll;
    void *poll_ctx;
    int *at; /* NULL, or two ints: the region count being expanded and the first (sweep) */
} SweepArgs;

/* One sweep, as asked in `a`: STATUS_FOUND with the shortest solution within T (its
 * length in res->bound, its moves in res->path when `paths`), STATUS_NONE, STATUS_LIMIT,
 * STATUS_INTERRUPTED, or STATUS_MEMORY when its memory (and disk) ran out.  *disk gets
 * the most bytes its layers took on disk. */
static void sweep_run(const SweepArgs *a, Result *res, long long *disk, long long *stored) {
    int n = a->n, goal = a->goal, T = a->T;
    int small_colors = goal < 64;
    for (int i = 0; i < n; i++)
        if (a->colors[i] >= 64) small_colors = 0;
    Winding wd;
    Island is = {n, a->W, a->adjacency, goal, small_colors, winding_for(a->colors, n, a->orientation, &wd), a->path_flood,
                 a->flood_depth < 0 ? MAXF : a->flood_depth, a->leaf_rule, a->spiders, a->spider_depth};
    KeyShape ks = key_shape(a->colors, n);
    Limits lim = limits_start(a->max_seconds, a->max_nodes, a->poll, a->poll_ctx);
    long long expanded = 0;
    int full = 0, fail = FAIL_NONE;
    int found = sweep(&is, &ks, a->colors, &T, a->paths, a->shown, a->threads, a->commute, a->sym, &lim, &expanded,
                      a->max_bytes, a->spill_dir, a->max_disk, disk, &full, &fail, &res->path, a->at, stored);
    res->fail = found == SWEEP_FAILED ? fail : FAIL_NONE;
    res->expanded = expanded;
    res->status = found == 1   ? STATUS_FOUND
                  : found == 0 ? STATUS_NONE
                  : full       ? STATUS_MEMORY
                  : lim.interrupted ? STATUS_INTERRUPTED
                                    : STATUS_LIMIT;
    res->bound = res->status == STATUS_FOUND ? T : -1;
}

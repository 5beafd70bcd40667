/* The path-flood bound (kamivision.solver.pathflood, whose docstring carries the
 * admissibility argument and the recurrence): the largest, over pairs of regions u, v, of
 * the fewest moves that flood the cheapest u-v path on its own.
 *
 * The regions are numbered 0..m-1 here and sets of them are bitsets of mw words.  Level k
 * holds, for each region u, the set of v with A(u, v) <= k (A: the least strange-printer
 * count over u-v walks); the bound is the first k at which every pair is in, less one.
 * A check of `need` stops at level `need`: pairs still missing there prove the bound is
 * at least `need`, which is all a search at a threshold asks. */

#define PF_MAXLEVEL 64

typedef struct {
    int16_t region[MAXN]; /* compact number -> representative */
    int16_t index[MAXN];  /* representative -> compact number */
    int16_t *near;        /* m lists of neighbors: u's from near_at[u] to near_at[u + 1] */
    int near_at[MAXN + 1];
    int16_t *alike;       /* m lists of the other regions w of u's color whose b(u, w) is
                           * found, in the order found: u's from alike_at[u] to alike_end[u]
                           * (room for all of them, up to alike_at[u + 1]) */
    int alike_at[MAXN + 1], alike_end[MAXN];
    int32_t *off;         /* alike entries: w's row at level k + 1 - b(u, w) is at
                           * (k + 1) * m * mw + off from `reach`, so off = w * mw -
                           * b(u, w) * m * mw */
    word *unknown;        /* m * mw: for each u, the later regions w > u of its color whose
                           * b(u, w) is not found yet (u makes the pair's test) */
    word *adjc;           /* m * mw: each region's neighbors, compact */
    word *reach;          /* (PF_MAXLEVEL + 1) * m * mw */
    size_t cap_near, cap_alike;
    /* The last evaluation, when it ran to the end (complete): levels 1..top are all in
     * reach, and top - 1 is the bound.  pf_corridor works on it. */
    int complete, m, mw, top;
    uint64_t colbit[MAXN]; /* each region's color as a bit (every bit for a color over 63) */
    word *seen;           /* m * m bits: the pairs a corridor's trace has taken */
    word *queued;         /* m * m bits: those on its stack */
    word *inside;         /* m * m bits: the splits (u, w) whose insides the trace has taken */
    uint64_t *brought;    /* m * m: the colors the trace brought each pair taken (pf_trace) */
    uint64_t *chain;      /* m * m: pf_chain's colors, once worked out (bit in `known`) */
    word *known;          /* m * m bits */
    int32_t *stack;       /* room for m * m pairs, each (u * m + v) << 8 | A(u, v) */
    size_t cap_pairs;
    word *splits;         /* for each u and b up to top, the regions w with b(u, w) = b */
    size_t cap_splits;
    uint64_t values[MAXN]; /* for each u, the values b its splits take (bit b) */
    uint8_t built[MAXN];   /* whether u's sets by value are made, in this corridor */
} PathFlood;

/* A color as a set of colors, as pf_in_corridor reads it (every bit for a color over 63). */
static inline uint64_t pf_colbit(int c) { return c < 64 ? (uint64_t)1 << c : ~(uint64_t)0; }

static int pathflood_init(PathFlood *pf) {
    memset(pf, 0, sizeof(*pf));
    pf->reach = malloc(sizeof(word) * (PF_MAXLEVEL + 1) * MAXN * MAXW);
    pf->adjc = malloc(sizeof(word) * MAXN * MAXW);
    pf->unknown = malloc(sizeof(word) * MAXN * MAXW);
    return pf->reach && pf->adjc && pf->unknown;
}

static void pathflood_free(PathFlood *pf) {
    free(pf->reach);
    free(pf->adjc);
    free(pf->unknown);
    free(pf->near);
    free(pf->alike);
    free(pf->off);
    free(pf->seen);
    free(pf->queued);
    free(pf->inside);
    free(pf->brought);
    free(pf->chain);
    free(pf->known);
    free(pf->stack);
    free(pf->splits);
}

static int pf_grow(int16_t **list, size_t *cap, size_t want, int32_t **also) {
    if (want <= *cap) return 0;
    size_t cap2 = want * 2;
    int16_t *l = realloc(*list, cap2 * sizeof(int16_t));
    if (!l) return -1;
    *list = l;
    if (also) {
        int32_t *a = realloc(*also, cap2 * sizeof(int32_t));
        if (!a) return -1;
        *also = a;
    }
    *cap = cap2;
    return 0;
}

/* The levels of path_flood from its lists (m regions, mw words a set): the bound, `need`,
 * or -1 (see path_flood). */
static inline __attribute__((always_inline)) int pf_levels(PathFlood *pf, int m, int mw, int need) {
    size_t level = (size_t)m * mw;
    word *reach = pf->reach;
    memset(reach, 0, sizeof(word) * 2 * level);
    for (int u = 0; u < m; u++) reach[level + (size_t)u * mw + (u >> 6)] |= (word)1 << (u & 63);
    word full_last = (m & 63) ? (((word)1 << (m & 63)) - 1) : ~(word)0;
    word grown[MAXW];
    word fullset[MAXW]; /* the rows that hold every region: they stay so, and only their copy is made */
    for (int w = 0; w < mw; w++) fullset[w] = 0;
    int nfull = 0;
    for (int k = 1;; k++) {
        if (nfull == m) {
            pf->complete = 1;
            pf->m = m;
            pf->mw = mw;
            pf->top = k;
            return k - 1;
        }
        if (need >= 0 && k >= need) return need; /* level `need` is not full: top > need */
        if (k >= PF_MAXLEVEL) return k - 1; /* a lower bound still: every pair needs more */
        const word *last = reach + (size_t)k * level;
        word *next = reach + (size_t)(k + 1) * level;
        word changed = 0;
        for (int u = 0; u < m; u++) {
            word *out = next + (size_t)u * mw;
            const word *mine = last + (size_t)u * mw;
            if (fullset[u >> 6] >> (u & 63) & 1) {
                for (int w = 0; w < mw; w++) out[w] = mine[w];
                continue;
            }
            /* One step: the union of the neighbors' sets at level k. */
            for (int w = 0; w < mw; w++) grown[w] = 0;
            for (int i = pf->near_at[u]; i < pf->near_at[u + 1]; i++) {
                const word *r = last + (size_t)pf->near[i] * mw;
                for (int w = 0; w < mw; w++) grown[w] |= r[w];
            }
            /* The row is gathered in `acc`, not in `out`: stores to `out`, which might be
             * a row read below as far as the compiler knows, made each OR a round trip
             * through memory (the loop's time, in perf). */
            word acc[MAXW];
            for (int w = 0; w < mw; w++) acc[w] = mine[w] | grown[w];
            /* The splits found: w's row at level k + 1 - b(u, w), at base + off. */
            int32_t *off = pf->off;
            const word *base = reach + (size_t)(k + 1) * level;
            for (int i = pf->alike_at[u], end = pf->alike_end[u]; i < end; i++) {
                const word *r = base + off[i];
                for (int w = 0; w < mw; w++) acc[w] |= r[w];
            }
            /* b(u, v) <= k once some neighbor of v is in `grown` (a neighbor x of u with
             * A(x, y) <= k for a neighbor y of v): then b(u, v) = k, and v's row at level 1,
             * v alone, joins u's.  b is symmetric, as A is (a walk read backwards has the
             * same count): b(v, u) is found with it.  So the test of u and v is made by
             * the first of them, at each level (`unknown` holds the later regions of u's
             * color only).  The regions still unknown are a set, not entries of the list
             * flagged as unknown: a test per entry of whether it was known cost a
             * mispredicted branch each (path_flood's loads waited on it, in perf).
             *
             * A pair already in u's set, A(u, v) <= k, is not tested: its split, b(u, v)
             * >= k (not found by level k - 1), would never be a least way.  Two walks
             * joined at v print in one stroke fewer than apart (below), so for every y
             *     A(u, y) <= A(u, v) + A(v, y) - 1 <= b(u, v) + A(v, y) - 1,
             * below what the split gives: the levels are the same without it, and the
             * corridor's trace, which follows only the ways that meet A, never takes it.
             * This also covers the pairs with a full row (the first of them is not worked
             * out again once full): the full one is in the other's set.  The stroke less:
             * prints(s c t) <= prints(s c) + prints(c t) - 1 for color strings s, t and a
             * color c, by induction on s, after the first place's recurrence (see the
             * module's docstring).  With s empty, both sides are prints(c t).  With
             * s = x s', the least printing of x s' c either prints x alone (then
             * x s' c t takes one more than s' c t), or shares x's
             * stroke with a later place k of x's color, in s' (the same split for s' c t)
             * or at c itself (x = c: s' then c t, one stroke fewer than s' then c).
             * tests/solver/test_pathflood.py checks it on random strings.  (Bud5's
             * "within 16", counted in a scratch build: 1,788,373,334 tests instead of
             * 1,877,825,586, 272,001,066 splits found instead of 361,127,825, and
             * 2,538,773,773 of their rows read instead of 3,159,360,300.)
             *
             * Nor does a test ever pass a pair whose split would only tie a step (v in
             * `grown`, A(x, v) <= k for a neighbor x of u): such a v is in u's set
             * already.  A place put before a walk ending in its own color costs no
             * stroke, prints(c Q) = prints(Q): in a least printing of Q, each stroke cut
             * to the span of the places it shows at (as in pf_corridor's lemma), the
             * stroke that shows at Q's last place spans from some place p to the end;
             * it becomes a canvas under the whole walk, and the strokes under it, which
             * hold its span, are cut to end before p, so every place keeps its color and
             * the new first place shows the canvas.  So A(u, v) <= A(x, v)
             * (tests/solver/test_pathflood.py checks the equality on random strings; a
             * scratch build counted no such pair among Bud4's proof's 18,546,961 splits
             * found). */
            const word *adjc = pf->adjc;
            word *unknown = pf->unknown + (size_t)u * mw;
            for (int ww = 0; ww < mw; ww++) {
                for (word bits = unknown[ww] & ~mine[ww]; bits; bits &= bits - 1) {
                    int v = (ww << 6) | lowbit(bits);
                    const word *a = adjc + (size_t)v * mw;
                    word meet = 0;
                    for (int w = 0; w < mw; w++) meet |= a[w] & grown[w];
                    if (!meet) continue;
                    unknown[ww] &= ~((word)1 << (v & 63));
                    int i = pf->alike_end[u]++, j = pf->alike_end[v]++;
                    pf->alike[i] = (int16_t)v;
                    off[i] = (int32_t)(v * mw) - (int32_t)(k * level);
                    pf->alike[j] = (int16_t)u;
                    off[j] = (int32_t)(u * mw) - (int32_t)(k * level);
                    acc[v >> 6] |= (word)1 << (v & 63);
                }
            }
            for (int w = 0; w < mw; w++) out[w] = acc[w];
            word all = acc[mw - 1] ^ full_last, moved = 0;
            for (int w = 0; w < mw - 1; w++) all |= ~acc[w];
            for (int w = 0; w < mw; w++) moved |= acc[w] ^ mine[w];
            changed |= moved;
            if (!all) {
                fullset[u >> 6] |= (word)1 << (u & 63);
                nfull++;
            }
        }
        if (!changed) return -1; /* not connected: no one region, and no bound here */
    }
}

/* The state's largest L(u, v), or `need` as soon as it is known to be at least `need`
 * (need < 0: no such stop); -1 when out of memory or when the regions are not connected
 * (no bound: the caller keeps its own). */
static int path_flood(const State *s, int W, int need, PathFlood *pf) {
    int m = 0;
    pf->complete = 0;
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int r = (w << 6) | lowbit(x);
            x &= x - 1;
            pf->index[r] = (int16_t)m;
            pf->region[m++] = (int16_t)r;
        }
    }
    if (m <= 1) return 0;
    int mw = (m + 63) >> 6;
    /* Neighbors and same-colored regions, compact (room for m * m of each, once). */
    size_t room = (size_t)m * m;
    if (pf_grow(&pf->near, &pf->cap_near, room, NULL) < 0 || pf_grow(&pf->alike, &pf->cap_alike, room, &pf->off) < 0)
        return -1;
    /* Each color's regions as a set: u's unknown splits start as its color's after u. */
    int slot[256], nslots = 0, count[256];
    word colors[256][MAXW];
    memset(slot, 0xff, sizeof(slot));
    for (int u = 0; u < m; u++) {
        int c = s->color[pf->region[u]];
        if (slot[c] < 0) {
            slot[c] = nslots;
            count[nslots] = 0;
            memset(colors[nslots++], 0, sizeof(word) * mw);
        }
        colors[slot[c]][u >> 6] |= (word)1 << (u & 63);
        count[slot[c]]++;
        pf->colbit[u] = pf_colbit(c);
    }
    size_t nn = 0, na = 0;
    memset(pf->adjc, 0, sizeof(word) * m * mw);
    for (int u = 0; u < m; u++) {
        int r = pf->region[u];
        pf->near_at[u] = (int)nn;
        for (int w = 0; w < W; w++) {
            word x = s->adj[r][w];
            while (x) {
                int j = (w << 6) | lowbit(x);
                x &= x - 1;
                int v = pf->index[j];
                pf->near[nn++] = (int16_t)v;
                pf->adjc[(size_t)u * mw + (v >> 6)] |= (word)1 << (v & 63);
            }
        }
        int c = slot[s->color[r]];
        word *unknown = pf->unknown + (size_t)u * mw;
        for (int w = 0; w < mw; w++) /* the words after u's, and the bits after u's in its own */
            unknown[w] = w > (u >> 6) ? colors[c][w] : w == (u >> 6) ? colors[c][w] & (~(word)1 << (u & 63)) : 0;
        pf->alike_at[u] = pf->alike_end[u] = (int)na;
        na += (size_t)(count[c] - 1);
    }
    pf->near_at[m] = (int)nn;
    pf->alike_at[m] = (int)na;
    /* The levels, with the width known to the compiler for the usual boards (KAMI 2's
     * islands have up to 173 regions: three words). */
    if (mw == 1) return pf_levels(pf, m, 1, need);
    if (mw == 2) return pf_levels(pf, m, 2, need);
    if (mw == 3) return pf_levels(pf, m, 3, need);
    return pf_levels(pf, m, mw, need);
}

/* The corridor of the last evaluation (issue 50's item 2): the moves (x, c) that can lower
 * the bound, as K[x] for each representative x, the set of colors c (of those asked about
 * in K on entry).  Returns 0 when
 * there is none to give (the evaluation stopped early, or out of memory): then any move
 * may lower it.
 *
 * Why a move outside K keeps the bound (the lemma, the lifting argument of
 * kamivision.solver.pathflood read once more).  Let (u, v) be a critical pair,
 * A(u, v) = top, the largest, and let the move recolor x to c, contracting x and its
 * c-colored neighbors into one region S.  Suppose A(u, v) falls, and let P' be a least
 * walk after the move between the regions holding u and v.  Lift it to a walk P before
 * the move: each pass through S becomes its entry member, then x, then its exit member
 * (x only when they differ, or when x is the entry or exit), and a start or end in S
 * starts or ends at u or v, through x when the walk leaves S by another member.  If P
 * does not pass through x, its colors are those of P' (S has color c, as each member it
 * keeps), so A(u, v) <= prints(P') = A(u, v) after: it did not fall.  So P passes
 * through x (once: P' may be taken simple), and P with x's place in color c, Pc, prints
 * as P' does, in at most top - 1 strokes.  Take a least printing of Pc, each stroke cut
 * to the span of the places it shows at (the strokes are then nested or apart, a later
 * one inside an earlier).  The stroke s it shows at x has color c, and it shows at some
 * other place y too: else s in x's color would print P in top - 1.  With one more stroke
 * over x alone, in x's color, on top, it prints P in top: P is a least u-v walk and this
 * a least printing of it, x printed on its own.  Cut s to its places but x: either x
 * stays inside it (s is the stroke under x's), or x is an end of s's span and s, cut,
 * lies beside x's stroke under the same stroke t (or none), x's stroke's parent.
 *
 * The recurrence of A on a walk's colors, followed along a printing, either steps (u's
 * stroke shows at u alone: u, then a least x-v walk, A(x, v) = A(u, v) - 1) or splits at
 * the next place w that u's stroke shows at (a least walk between a neighbor of u and a
 * neighbor of w, of cost b(u, w), printed on u's stroke, then a least w-v walk:
 * b(u, w) + A(w, v) = A(u, v)); every place is the first of one pair on the way (or the
 * last place of one, u = v), and each part of a least walk is least for its own ends
 * (else the cheaper part would make a cheaper whole).  So the trace, which follows every
 * step and split that meets its pair's A, reaches x as the first place of a pair (x, v')
 * that steps, or as a last place (x = v'): a place taken only where it splits, its stroke
 * shared, cannot be the move's (since 2026-11-30; Bud5's "within 16" stores 911,087
 * states instead of 999,060).  The strokes under and beside x's are read off the way
 * there.  The pairs of a stretch printed on one stroke (a split's inside, on u's; or
 * the whole walk, on the canvas) all end at the stretch's last place v', and the strokes
 * before x's in it begin at the first places of the pairs on the way from the stretch's
 * first pair to (x, v').  So the stretch's first pair brings u's color (the stroke under;
 * none on the canvas), each step brings the color of the stroke it leaves, and the
 * strokes after x's are those of a way on from a step out of x (pf_chain).  So c is
 * among the colors a way to (x, v') brings, or those of a way on from it: pf_trace gives
 * x those, and only those (since 2026-11-30, per color: Threegrid4's "within 11" stores
 * 721,452 states instead of 1,138,942, in 29.4 s against 32.8 s; Bud5's "within 16"
 * 750,064 instead of 911,087, in the same time).  So a move outside the corridor of any
 * one critical pair leaves that pair at top after the move, and the bound at least
 * top - 1, its value before.  Checked against the bound after each move on random boards
 * in tests/solver/test_pathflood.py (leaving the last places out fails four of its
 * tests; so does leaving out either the colors brought or those after). */

/* Critical pairs traced: K is the meet of their corridors (each one's lemma holds, so
 * their meet's does).  More pairs make K narrower, so fewer children are kept to be
 * evaluated, for more tracing (python benchmarks/sweep.py LEVEL --threshold T
 * --path-flood on, 2026-11-29): Threegrid4 within 11 took 166.9 s with 4 pairs, 103.3 s
 * with 16 and 103.1 s with 64; Bud5 within 16, 99.6 s with 4 and 95.1 s with 16; with
 * one thread, Bud5 within 15 1.8-2.1 s from 4 pairs up, 4.1 s with one. */
#define PF_PAIRS 16

static int pf_room(PathFlood *pf, size_t mm, size_t splits) {
    if (splits > pf->cap_splits) {
        word *sp = realloc(pf->splits, sizeof(word) * splits * 2);
        if (!sp) return -1;
        pf->splits = sp;
        pf->cap_splits = splits * 2;
    }
    if (mm <= pf->cap_pairs) return 0;
    size_t cap = mm * 2, bits = sizeof(word) * ((cap + 63) >> 6);
    word *seen = realloc(pf->seen, bits), *queued = realloc(pf->queued, bits), *known = realloc(pf->known, bits);
    word *inside = realloc(pf->inside, bits);
    if (seen) pf->seen = seen;
    if (queued) pf->queued = queued;
    if (inside) pf->inside = inside;
    if (known) pf->known = known;
    uint64_t *brought = realloc(pf->brought, sizeof(uint64_t) * cap), *chain = realloc(pf->chain, sizeof(uint64_t) * cap);
    if (brought) pf->brought = brought;
    if (chain) pf->chain = chain;
    int32_t *stack = realloc(pf->stack, sizeof(int32_t) * cap);
    if (stack) pf->stack = stack;
    if (!seen || !queued || !inside || !known || !brought || !chain || !stack) return -1;
    pf->cap_pairs = cap;
    return 0;
}

/* u's set at level a: the regions v with A(u, v) <= a (none at level 0). */
static inline const word *pf_row(const PathFlood *pf, int u, int a) {
    return pf->reach + (size_t)a * pf->m * pf->mw + (size_t)u * pf->mw;
}

/* Word w of u's critical partners v > u, the v at the top level: not in u's set at the
 * level below (`low`, u's row there), cut to the m regions.  Words from (u + 1) >> 6 on. */
static inline word pf_top_partners(const word *low, int u, int w, int m, int mw) {
    word at_top = ~low[w];
    if (w == (u + 1) >> 6) at_top &= ~(word)0 << ((u + 1) & 63);
    if (w == mw - 1 && (m & 63)) at_top &= ((word)1 << (m & 63)) - 1;
    return at_top;
}

/* The final color (issue 50): whether the state needs top moves, one more than the bound
 * of the last evaluation (complete, top - 1), because of the color it must end in.
 *
 * Ending in color k, a path needs flood_k(P) = prints(k P) - 1 moves of its own: print it
 * on a canvas of color k.  The lifting argument of the module's docstring holds for it
 * word for word (recolor x first, then follow the moves after), and one region of color k
 * has flood_k = 0; so with L_k(u, v) the least flood_k over u-v walks, the least over the
 * colors k the board may end in of the largest L_k is admissible (with the goal, k is the
 * goal).  With A_k(u, v) the least prints(k P) over
 * u-v walks, the recurrence's first place is the canvas:
 *   A_k(u, v) = A(u, v) when u or v has color k (the canvas's print reaches it),
 *   else min(1 + A(u, v), min over w of color k of B(u, w) + A(w, v)),
 *   B(u, w) = min over y next to w of A(u, y)
 * (the canvas's print reaches the walk's first place w of color k; the stretch from u to
 * the place before w is a walk to a neighbor of w).  Since A_k <= A + 1, the bound rises
 * only when every color k the board may end in has a critical pair (A(u, v) = top)
 * whose A_k is top + 1, or needs top moves anyway (colors other than k: each move removes
 * at most one).  For a critical pair, the w with B(u, w) + A(w, v) <= top are those with
 * B(u, w) <= a and A(w, v) <= top - a for some a: the neighbors of u's set at level a,
 * met with v's set at level top - a (A is symmetric); a color with such a w is reached
 * through it, the others hold.  Any subset of the critical pairs gives a sound answer; at
 * most PF_FINAL_PAIRS are looked at.  Checked against breadth-first search on random
 * boards in tests/solver/test_pathflood.py. */
#define PF_FINAL_PAIRS 64

static int pf_final_color(const PathFlood *pf, const State *s, int goal) {
    if (!pf->complete) return 0;
    int m = pf->m, mw = pf->mw, top = pf->top;
    if (top < 2) return 0;
    uint8_t col[MAXN];
    uint64_t present = 0;
    for (int u = 0; u < m; u++) {
        int c = s->color[pf->region[u]];
        if (c >= 64) return 0; /* color sets are one word */
        col[u] = (uint8_t)c;
        present |= (uint64_t)1 << c;
    }
    if (goal >= 64) return 0;
    int npresent = __builtin_popcountll(present);
    /* The colors k the board may end in that still want a critical pair: those whose
     * other colors number fewer than top. */
    uint64_t want = 0;
    if (goal >= 0) {
        int others = npresent - (int)(present >> goal & 1);
        if (others < top) want = (uint64_t)1 << goal;
    } else if (npresent - 1 < top) {
        want = present;
    }
    if (!want) return 1;
    const word *below = pf->reach + (size_t)(top - 1) * m * mw;
    /* First, whether every color wanted has a critical pair with neither end of its
     * color (cheap: the pairs' colors only); else the bound stays. */
    uint64_t could = 0;
    for (int u = 0; u < m && could != want; u++) {
        const word *low = below + (size_t)u * mw;
        uint64_t ends = 0; /* the colors of u's critical partners */
        for (int w = (u + 1) >> 6; w < mw; w++) {
            word at_top = pf_top_partners(low, u, w, m, mw);
            for (; at_top; at_top &= at_top - 1) ends |= (uint64_t)1 << col[(w << 6) | lowbit(at_top)];
        }
        if (!ends) continue;
        uint64_t mine = want & ~((uint64_t)1 << col[u]);
        /* a color k is possible when some partner's color is not k */
        could |= (ends & (ends - 1)) ? mine : mine & ~ends;
    }
    if (could != want) return 0;
    uint64_t held = 0;
    int looked = 0;
    word near[PF_MAXLEVEL][MAXW]; /* u's: the neighbors of u's set at level a, a < top */
    for (int u = 0; u < m && looked < PF_FINAL_PAIRS; u++) {
        const word *low = below + (size_t)u * mw;
        int made = 0;
        /* The critical partners v > u (A(u, v) = top), in order. */
        for (int vw = (u + 1) >> 6; vw < mw && looked < PF_FINAL_PAIRS; vw++) {
            word at_top = pf_top_partners(low, u, vw, m, mw);
            for (; at_top && looked < PF_FINAL_PAIRS; at_top &= at_top - 1) {
                int v = (vw << 6) | lowbit(at_top);
                uint64_t holds = want & ~held & ~((uint64_t)1 << col[u]) & ~((uint64_t)1 << col[v]);
                if (!holds) continue;
                looked++;
                if (!made) { /* B(u, w) <= a: w is next to u's set at level a */
                    made = 1;
                    for (int a = 1; a < top; a++) {
                        const word *now = pf_row(pf, u, a), *before = pf_row(pf, u, a - 1);
                        for (int w = 0; w < mw; w++) near[a][w] = a > 1 ? near[a - 1][w] : 0;
                        for (int w = 0; w < mw; w++)
                            for (word ys = now[w] & ~before[w]; ys; ys &= ys - 1) {
                                const word *ny = pf->adjc + (size_t)((w << 6) | lowbit(ys)) * mw;
                                for (int z = 0; z < mw; z++) near[a][z] |= ny[z];
                            }
                    }
                }
                /* The w reached: B(u, w) <= a and A(w, v) <= top - a for some a. */
                word reached[MAXW];
                for (int w = 0; w < mw; w++) reached[w] = 0;
                for (int a = 1; a < top; a++) {
                    const word *to_v = pf_row(pf, v, top - a);
                    for (int w = 0; w < mw; w++) reached[w] |= near[a][w] & to_v[w];
                }
                for (int w = 0; w < mw; w++)
                    for (word ws = reached[w]; ws; ws &= ws - 1) holds &= ~((uint64_t)1 << col[(w << 6) | lowbit(ws)]);
                held |= holds;
                if (held == want) return 1;
            }
        }
    }
    return 0;
}

/* u's splits of value b, as a set (made by pf_split_sets). */
static inline word *pf_splits_of(const PathFlood *pf, int u, int b) {
    return pf->splits + ((size_t)u * (pf->top + 1) + b) * pf->mw;
}

/* u's splits by their value, as sets (a split found after u's set was full is over
 * top), made the first time a trace reaches u: only the sets of the values taken are
 * cleared and read (pf->values). */
static void pf_split_sets(PathFlood *pf, int u) {
    int top = pf->top, mw = pf->mw;
    uint64_t values = 0;
    int32_t level = pf->m * mw;
    for (int i = pf->alike_at[u]; i < pf->alike_end[u]; i++) {
        int w = pf->alike[i];
        int b = (w * mw - pf->off[i]) / level; /* b(u, w), from where its row is found */
        if (b > top) continue;
        word *by = pf_splits_of(pf, u, b);
        if (!(values >> b & 1)) {
            values |= (uint64_t)1 << b;
            for (int ww = 0; ww < mw; ww++) by[ww] = 0;
        }
        by[w >> 6] |= (word)1 << (w & 63);
    }
    pf->values[u] = values;
    pf->built[u] = 1;
}


/* The colors of the strokes a least printing of a least p-v walk can show at its top
 * level, from p on: the first place's, then those after a step (a new stroke) or a split
 * (the same stroke, shown again at w), over every way the recurrence can go (A(p, v) = a).
 * Memoized in pf->chain for the corridor's evaluation (it depends on the levels only). */
static uint64_t pf_chain(PathFlood *pf, int p, int v, int a) {
    int m = pf->m, mw = pf->mw;
    size_t at = (size_t)p * m + v;
    if (pf->known[at >> 6] >> (at & 63) & 1) return pf->chain[at];
    uint64_t colors = pf->colbit[p];
    if (p != v) {
        const word *np = pf->adjc + (size_t)p * mw;
        if (a >= 2) {
            const word *now = pf_row(pf, v, a - 1), *before = pf_row(pf, v, a - 2);
            for (int w = 0; w < mw; w++)
                for (word bits = np[w] & now[w] & ~before[w]; bits; bits &= bits - 1)
                    colors |= pf_chain(pf, (w << 6) | lowbit(bits), v, a - 1);
        }
        if (!pf->built[p]) pf_split_sets(pf, p);
        uint64_t under = ~(uint64_t)0 >> (64 - a);
        for (uint64_t bs = pf->values[p] & under; bs; bs &= bs - 1) {
            int b = lowbit(bs);
            const word *by = pf_splits_of(pf, p, b);
            const word *now = pf_row(pf, v, a - b), *before = pf_row(pf, v, a - b - 1);
            for (int w = 0; w < mw; w++)
                for (word bits = by[w] & now[w] & ~before[w]; bits; bits &= bits - 1)
                    colors |= pf_chain(pf, (w << 6) | lowbit(bits), v, a - b);
        }
    }
    pf->known[at >> 6] |= (word)1 << (at & 63);
    pf->chain[at] = colors;
    return colors;
}

/* The trace of one critical pair (u0, v0): for each place x the trace prints on its own,
 * the colors a move of x may take to lower the pair, in may[x] (see pf_corridor).  keep[x]
 * holds the colors the pairs before kept and `open` counts the places whose keep is not
 * yet within may; returns 1 as soon as none is (then this pair cannot narrow keep).
 *
 * Each pair taken carries the colors its way in brought it (pf->brought): the stroke it
 * lies on (the split whose inside it is) and the strokes before it on that stroke.  A pair
 * reached again with more colors is taken again, with all of them. */
static int pf_trace(PathFlood *pf, int u0, int v0, const uint64_t *keep, uint64_t *may, int open) {
    int m = pf->m, mw = pf->mw;
    size_t mm = (size_t)m * m, bits = sizeof(word) * ((mm + 63) >> 6);
    memset(pf->seen, 0, bits);
    memset(pf->queued, 0, bits);
    memset(pf->inside, 0, bits);
    memset(may, 0, sizeof(uint64_t) * m);
    size_t n = 0;
    /* The stack holds (u * m + v) << 8 | A(u, v). */
#define PF_PUSH(x_, y_, a_, b_)                                                      \
    do {                                                                             \
        size_t at_ = (size_t)(x_) * m + (y_);                                        \
        word bit_ = (word)1 << (at_ & 63);                                           \
        uint64_t brought_ = (b_);                                                    \
        if (!(pf->seen[at_ >> 6] & bit_)) {                                          \
            pf->seen[at_ >> 6] |= bit_;                                              \
            pf->brought[at_] = brought_;                                             \
        } else if (brought_ & ~pf->brought[at_]) {                                   \
            pf->brought[at_] |= brought_;                                            \
        } else                                                                       \
            break;                                                                   \
        if (!(pf->queued[at_ >> 6] & bit_)) {                                        \
            pf->queued[at_ >> 6] |= bit_;                                            \
            pf->stack[n++] = (int32_t)(at_ << 8 | (size_t)(a_));                     \
        }                                                                            \
    } while (0)
    PF_PUSH(u0, v0, pf->top, 0);
    while (n) {
        int32_t top_entry = pf->stack[--n];
        int a = top_entry & 255, at = top_entry >> 8;
        pf->queued[at >> 6] &= ~((word)1 << (at & 63));
        uint64_t brought = pf->brought[at];
        int u = at / m, v = at % m;
        uint64_t mine = pf->colbit[u];
        /* A is symmetric (a walk read backwards has the same count), so the regions x
         * with A(x, v) = k are v's set at level k less level k - 1. */
        const word *nu = pf->adjc + (size_t)u * mw;
        int alone = u == v; /* u printed on its own here: the last place, or a step */
        uint64_t colors = brought; /* the strokes u's may lie on or beside */
        if (u != v && a >= 2) {
            const word *now = pf_row(pf, v, a - 1), *before = pf_row(pf, v, a - 2);
            for (int w = 0; w < mw; w++)
                for (word bits = nu[w] & now[w] & ~before[w]; bits; bits &= bits - 1) {
                    int x = (w << 6) | lowbit(bits);
                    PF_PUSH(x, v, a - 1, brought | mine); /* a step: x next to u */
                    alone = 1;
                    if (keep[u] & ~may[u] & ~colors) colors |= pf_chain(pf, x, v, a - 1);
                }
        }
        if (alone && (keep[u] & ~may[u] & colors)) {
            int was_open = (keep[u] & ~may[u]) != 0;
            may[u] |= colors;
            if (was_open && !(keep[u] & ~may[u]) && --open == 0) return 1;
        }
        if (u == v) continue;
        /* The splits: w of u's color with b(u, w) = b < a and A(w, v) = a - b (a split
         * not found before u's set was full is at least A(u, v) + 1, of no use here);
         * then the pairs of a neighbor of u and one of w at b, on u's stroke. */
        if (!pf->built[u]) pf_split_sets(pf, u);
        /* The values under a: bits 0 to a - 1 (a runs from 2, two regions, up to
         * PF_MAXLEVEL, 64, where 1 << a would be undefined). */
        uint64_t under = ~(uint64_t)0 >> (64 - a);
        for (uint64_t bs = pf->values[u] & under; bs; bs &= bs - 1) {
            int b = lowbit(bs);
            const word *by = pf_splits_of(pf, u, b);
            const word *now = pf_row(pf, v, a - b), *before = pf_row(pf, v, a - b - 1);
            for (int ww = 0; ww < mw; ww++) {
                for (word bits = by[ww] & now[ww] & ~before[ww]; bits; bits &= bits - 1) {
                    int w = (ww << 6) | lowbit(bits);
                    PF_PUSH(w, v, a - b, brought);
                    /* The inside's pairs depend on u and w alone, and come with u's color
                     * only: once taken, they are taken again to no effect (PF_PUSH). */
                    size_t uw = (size_t)u * m + w;
                    if (pf->inside[uw >> 6] >> (uw & 63) & 1) continue;
                    pf->inside[uw >> 6] |= (word)1 << (uw & 63);
                    const word *nw = pf->adjc + (size_t)w * mw;
                    for (int j = pf->near_at[u]; j < pf->near_at[u + 1]; j++) {
                        int x = pf->near[j];
                        const word *xn = pf_row(pf, x, b), *xb = pf_row(pf, x, b - 1);
                        for (int k = 0; k < mw; k++)
                            for (word ys = nw[k] & xn[k] & ~xb[k]; ys; ys &= ys - 1)
                                PF_PUSH(x, (k << 6) | lowbit(ys), b, mine);
                    }
                }
            }
        }
    }
#undef PF_PUSH
    return 0;
}

/* The corridor of the critical pairs (up to PF_PAIRS of them) in K: on entry, for each
 * representative, the colors of the moves asked about (every bit: all its moves); on
 * return those of them that can lower the bound.  Asking about fewer moves gives the same
 * answer for each of them, sooner: a trace stops once none is left open. */
static int pf_corridor(PathFlood *pf, uint64_t *K) {
    if (!pf->complete) return 0;
    int m = pf->m, mw = pf->mw, top = pf->top;
    if (top < 2 || pf_room(pf, (size_t)m * m, (size_t)m * (top + 1) * mw) < 0) return 0;
    const word *below = pf->reach + (size_t)(top - 1) * m * mw; /* the pairs under top */
    memset(pf->built, 0, (size_t)m);
    memset(pf->known, 0, sizeof(word) * (((size_t)m * m + 63) >> 6));
    /* keep[x]: the colors of x's moves kept so far, from those asked about among its
     * neighbors' (the moves). */
    uint64_t keep[MAXN], may[MAXN];
    int open = 0;
    for (int u = 0; u < m; u++) {
        uint64_t near = 0;
        for (int i = pf->near_at[u]; i < pf->near_at[u + 1]; i++) near |= pf->colbit[pf->near[i]];
        keep[u] = near & K[pf->region[u]];
        open += keep[u] != 0;
    }
    int traced = open ? 0 : PF_PAIRS; /* none asked about: the answer is no move */
    /* The critical pairs (u0, v0), u0 < v0, A(u0, v0) = top, in order: v0 not in u0's set
     * below top, found a word at a time. */
    for (int u0 = 0; u0 < m && traced < PF_PAIRS; u0++) {
        const word *low = below + (size_t)u0 * mw;
        for (int w0 = (u0 + 1) >> 6; w0 < mw && traced < PF_PAIRS; w0++) {
            word at_top = pf_top_partners(low, u0, w0, m, mw);
            for (; at_top && traced < PF_PAIRS; at_top &= at_top - 1) {
                traced++;
                if (pf_trace(pf, u0, (w0 << 6) | lowbit(at_top), keep, may, open)) continue;
                open = 0;
                for (int u = 0; u < m; u++) {
                    keep[u] &= may[u];
                    open += keep[u] != 0;
                }
                if (!open) traced = PF_PAIRS; /* no move is left: none can lower the bound */
            }
        }
    }
    for (int u = 0; u < m; u++) K[pf->region[u]] = keep[u];
    return 1;
}

/* Whether a move of region r (a representative) to color c is in the corridor K. */
static inline int pf_in_corridor(const uint64_t *K, int r, int c) { return K[r] >> (c < 64 ? c : 63) & 1; }

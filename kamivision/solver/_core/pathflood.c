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
    int16_t *alike;       /* m lists of the other regions of u's color, likewise by alike_at */
    int alike_at[MAXN + 1];
    uint8_t *split;       /* alike entries: b(u, w), 0 while unknown */
    word *adjc;           /* m * mw: each region's neighbors, compact */
    word *reach;          /* (PF_MAXLEVEL + 1) * m * mw */
    size_t cap_near, cap_alike;
} PathFlood;

static int pathflood_init(PathFlood *pf) {
    memset(pf, 0, sizeof(*pf));
    pf->reach = malloc(sizeof(word) * (PF_MAXLEVEL + 1) * MAXN * MAXW);
    pf->adjc = malloc(sizeof(word) * MAXN * MAXW);
    return pf->reach && pf->adjc;
}

static void pathflood_free(PathFlood *pf) {
    free(pf->reach);
    free(pf->adjc);
    free(pf->near);
    free(pf->alike);
    free(pf->split);
}

static int pf_grow(int16_t **list, size_t *cap, size_t want, uint8_t **also) {
    if (want <= *cap) return 0;
    size_t cap2 = want * 2;
    int16_t *l = realloc(*list, cap2 * sizeof(int16_t));
    if (!l) return -1;
    *list = l;
    if (also) {
        uint8_t *a = realloc(*also, cap2);
        if (!a) return -1;
        *also = a;
    }
    *cap = cap2;
    return 0;
}

/* The state's largest L(u, v), or `need` as soon as it is known to be at least `need`
 * (need < 0: no such stop); -1 when out of memory or when the regions are not connected
 * (no bound: the caller keeps its own). */
static int path_flood(const State *s, int W, int need, PathFlood *pf) {
    int m = 0;
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
    if (pf_grow(&pf->near, &pf->cap_near, room, NULL) < 0 || pf_grow(&pf->alike, &pf->cap_alike, room, &pf->split) < 0)
        return -1;
    int16_t first[256], next_of[MAXN]; /* each color's regions, as linked lists */
    memset(first, -1, sizeof(first));
    for (int u = m - 1; u >= 0; u--) {
        int c = s->color[pf->region[u]];
        next_of[u] = first[c];
        first[c] = (int16_t)u;
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
        pf->alike_at[u] = (int)na;
        for (int v = first[s->color[r]]; v >= 0; v = next_of[v]) {
            if (v == u) continue;
            pf->split[na] = 0;
            pf->alike[na++] = (int16_t)v;
        }
    }
    pf->near_at[m] = (int)nn;
    pf->alike_at[m] = (int)na;
    size_t level = (size_t)m * mw;
    word *reach = pf->reach;
    memset(reach, 0, sizeof(word) * 2 * level);
    for (int u = 0; u < m; u++) reach[level + (size_t)u * mw + (u >> 6)] |= (word)1 << (u & 63);
    word full_last = (m & 63) ? (((word)1 << (m & 63)) - 1) : ~(word)0;
    word grown[MAXW];
    uint8_t full[MAXN]; /* the row holds every region: it stays so, and only its copy is made */
    memset(full, 0, (size_t)m);
    int nfull = 0;
    for (int k = 1;; k++) {
        if (nfull == m) return k - 1;
        if (need >= 0 && k - 1 >= need) return need;
        if (k >= PF_MAXLEVEL) return k - 1; /* a lower bound still: every pair needs more */
        const word *last = reach + (size_t)k * level;
        word *next = reach + (size_t)(k + 1) * level;
        word changed = 0;
        for (int u = 0; u < m; u++) {
            word *out = next + (size_t)u * mw;
            const word *mine = last + (size_t)u * mw;
            if (full[u]) {
                for (int w = 0; w < mw; w++) out[w] = mine[w];
                continue;
            }
            /* One step: the union of the neighbors' sets at level k. */
            for (int w = 0; w < mw; w++) grown[w] = 0;
            for (int i = pf->near_at[u]; i < pf->near_at[u + 1]; i++) {
                const word *r = last + (size_t)pf->near[i] * mw;
                for (int w = 0; w < mw; w++) grown[w] |= r[w];
            }
            for (int w = 0; w < mw; w++) out[w] = mine[w] | grown[w];
            /* b(u, w) <= k once some neighbor of w is in `grown` (a neighbor x of u with
             * A(x, y) <= k for a neighbor y of w). */
            for (int i = pf->alike_at[u]; i < pf->alike_at[u + 1]; i++) {
                int v = pf->alike[i];
                if (!pf->split[i]) {
                    const word *a = pf->adjc + (size_t)v * mw;
                    word meet = 0;
                    for (int w = 0; w < mw; w++) meet |= a[w] & grown[w];
                    if (meet) pf->split[i] = (uint8_t)k;
                }
                int b = pf->split[i];
                if (b) {
                    const word *r = reach + (size_t)(k + 1 - b) * level + (size_t)v * mw;
                    for (int w = 0; w < mw; w++) out[w] |= r[w];
                }
            }
            word all = out[mw - 1] ^ full_last, moved = 0;
            for (int w = 0; w < mw - 1; w++) all |= ~out[w];
            for (int w = 0; w < mw; w++) moved |= out[w] ^ mine[w];
            changed |= moved;
            if (!all) {
                full[u] = 1;
                nfull++;
            }
        }
        if (!changed) return -1; /* not connected: no one region, and no bound here */
    }
}

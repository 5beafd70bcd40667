/* ---- symmetric states stored once (kamivision/solver/symmetry.py finds the symmetries) --
 *
 * An automorphism of the original regions' graph that keeps the first coloring maps each
 * state to one reached in as many moves with as many left, so the sweep stores, for each
 * key it makes, one image chosen the same way for every state of the set (sym_canon):
 * - the regions of each set of twins get their colors in ascending order;
 * - then, over the swaps (a vector space over GF(2), its basis given), the image whose
 *   pairs read least, pair by pair in their order: for pair j, with the two sides'
 *   colors compared as sequences, the greedy keeps the sides as they are or swaps them,
 *   whichever reads less, by fixing bit j of the swap chosen, if the swaps left still
 *   differ there (the pairs are disjoint, so the choice for pair j changes no other
 *   pair's colors; each choice halves the swaps left, and the first pairs decide first).
 * Any image would be sound; this one is the same for every state of the set (the least
 * of their common set of images), so symmetric states meet in one key. */

#define SYM_PAIRS (MAXN / 2) /* pairs at most: each moves two regions or more */
#define SYM_PW (SYM_PAIRS / 64)

typedef struct {
    int ntw, np, dim;
    int *tw_at, *tw_size; /* twin set i: reg[tw_at[i] .. + tw_size[i]) */
    int *p_at, *p_size;   /* pair j: reg[p_at[j] ..) then reg[p_at[j] + p_size[j] ..) */
    uint64_t basis[64][SYM_PW]; /* bitsets over the pairs */
    int *reg;
    int *first; /* n: the lowest region of each region's orbit under the group */
} Symmetry;

static void symmetry_free(Symmetry *y) {
    free(y->first);
    free(y->tw_at);
    free(y->p_at);
    free(y->reg);
    memset(y, 0, sizeof *y);
}

/* Union-find over the regions, each set's root its lowest region. */
static int orbit_root(int *up, int i) {
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
}

static void orbit_join(int *up, int a, int b) {
    a = orbit_root(up, a);
    b = orbit_root(up, b);
    if (a < b) up[b] = a;
    else up[a] = b;
}

/* Read the encoded form (symmetry.py's Symmetry.encode) for n regions: 0, or -1 when it
 * is malformed or out of memory (y is then empty). */
static int symmetry_read(Symmetry *y, const uint8_t *blob, size_t len, int n) {
    memset(y, 0, sizeof *y);
    size_t nw = len / 4, at = 0;
    if (len % 4) return -1;
    uint32_t *w = malloc((nw ? nw : 1) * sizeof(uint32_t));
    if (!w) return -1;
    memcpy(w, blob, nw * 4);
#define NEXT(v)                   \
    do {                          \
        if (at >= nw) goto bad;   \
        (v) = w[at++];            \
    } while (0)
    uint32_t k, size, v;
    NEXT(k);
    if (k > (uint32_t)n) goto bad;
    y->ntw = (int)k;
    y->tw_at = malloc(2 * (k + 1) * sizeof(int));
    y->reg = malloc((nw + 1) * sizeof(int));
    if (!y->tw_at || !y->reg) goto bad;
    y->tw_size = y->tw_at + k + 1;
    int nreg = 0;
    for (uint32_t i = 0; i < k; i++) {
        NEXT(size);
        if (size < 2 || size > (uint32_t)n) goto bad;
        y->tw_at[i] = nreg;
        y->tw_size[i] = (int)size;
        for (uint32_t j = 0; j < size; j++) {
            NEXT(v);
            if (v >= (uint32_t)n) goto bad;
            y->reg[nreg++] = (int)v;
        }
    }
    NEXT(k);
    if (k > SYM_PAIRS) goto bad;
    y->np = (int)k;
    y->p_at = malloc(2 * (k + 1) * sizeof(int));
    if (!y->p_at) goto bad;
    y->p_size = y->p_at + k + 1;
    for (uint32_t i = 0; i < k; i++) {
        NEXT(size);
        if (size < 1 || size > (uint32_t)n) goto bad;
        y->p_at[i] = nreg;
        y->p_size[i] = (int)size;
        for (uint32_t j = 0; j < 2 * size; j++) {
            NEXT(v);
            if (v >= (uint32_t)n) goto bad;
            y->reg[nreg++] = (int)v;
        }
    }
    NEXT(k);
    if (k > 64 || (k && !y->np)) goto bad;
    y->dim = (int)k;
    int halves = (y->np + 31) / 32; /* 32-bit words a vector takes */
    for (uint32_t i = 0; i < k; i++) {
        uint64_t any = 0;
        for (int h = 0; h < halves; h++) {
            NEXT(v);
            if (h == halves - 1 && y->np % 32 && v >> (y->np % 32)) goto bad; /* past the last pair */
            y->basis[i][h / 2] |= (uint64_t)v << (32 * (h % 2));
            any |= v;
        }
        if (!any) goto bad;
    }
    if (at != nw) goto bad;
#undef NEXT
    /* The orbits: the twin sets, and the regions matched across each pair, joined (every
     * pair is swapped by some element of the group). */
    y->first = malloc((n ? n : 1) * sizeof(int));
    if (!y->first) goto bad;
    for (int i = 0; i < n; i++) y->first[i] = i;
    for (int i = 0; i < y->ntw; i++)
        for (int a = 1; a < y->tw_size[i]; a++) orbit_join(y->first, y->reg[y->tw_at[i]], y->reg[y->tw_at[i] + a]);
    for (int j = 0; j < y->np; j++)
        for (int a = 0; a < y->p_size[j]; a++)
            orbit_join(y->first, y->reg[y->p_at[j] + a], y->reg[y->p_at[j] + y->p_size[j] + a]);
    for (int i = 0; i < n; i++) y->first[i] = orbit_root(y->first, i);
    free(w);
    return 0;
bad:
    free(w);
    symmetry_free(y);
    return -1;
}

static int symmetry_on(const Symmetry *y) { return y->ntw > 0 || y->dim > 0; }

/* Replace the key by its set's chosen image (see above); 1 when that changed it, and
 * then *region is the region that the automorphism used maps *region to.  col: room for n
 * colors. */
static int sym_canon(const Symmetry *y, const KeyShape *ks, uint8_t *key, uint8_t *col, int *region) {
    key_unpack(ks, key, col);
    int changed = 0, t = *region; /* changed: a color moved (the key may still read the same) */
    for (int i = 0; i < y->ntw; i++) { /* the set's colors sorted (stable), t followed */
        const int *m = y->reg + y->tw_at[i];
        int size = y->tw_size[i], moved = -1;
        uint8_t c[MAXN];
        int from[MAXN];
        for (int a = 0; a < size; a++) {
            int b = a;
            for (; b > 0 && c[b - 1] > col[m[a]]; b--) {
                c[b] = c[b - 1];
                from[b] = from[b - 1];
            }
            c[b] = col[m[a]];
            from[b] = a;
        }
        for (int a = 0; a < size; a++) {
            if (from[a] != a) changed = 1;
            if (t == m[from[a]] && moved < 0) moved = m[a];
            col[m[a]] = c[a];
        }
        if (moved >= 0) t = moved;
    }
    if (y->dim) {
        uint64_t B[64][SYM_PW], x[SYM_PW] = {0};
        int d = y->dim, pw = (y->np + 63) / 64;
        memcpy(B, y->basis, d * sizeof B[0]);
        for (int j = 0; j < y->np && d; j++) {
            const int *a = y->reg + y->p_at[j], *b = a + y->p_size[j];
            int i = 0, size = y->p_size[j], jw = j >> 6;
            while (i < size && col[a[i]] == col[b[i]]) i++;
            if (i == size) continue; /* the same either way */
            uint64_t bit = (uint64_t)1 << (j & 63), want = col[b[i]] < col[a[i]];
            int e = 0; /* a basis vector that swaps pair j */
            while (e < d && !(B[e][jw] & bit)) e++;
            if (e == d) continue; /* fixed by the pairs before */
            if ((x[jw] >> (j & 63) & 1) != want)
                for (int w = 0; w < pw; w++) x[w] ^= B[e][w];
            for (int s = 0; s < d; s++)
                if (s != e && (B[s][jw] & bit))
                    for (int w = 0; w < pw; w++) B[s][w] ^= B[e][w];
            d--;
            memcpy(B[e], B[d], sizeof B[e]);
        }
        for (int j = 0; j < y->np; j++) {
            if (!(x[j >> 6] >> (j & 63) & 1)) continue;
            int *a = y->reg + y->p_at[j], *b = a + y->p_size[j];
            for (int i = 0; i < y->p_size[j]; i++) {
                uint8_t c = col[a[i]];
                col[a[i]] = col[b[i]];
                col[b[i]] = c;
                if (t == a[i]) t = b[i];
                else if (t == b[i]) t = a[i];
            }
            changed = 1;
        }
    }
    if (!changed) return 0;
    uint8_t was[MAXN];
    memcpy(was, key, ks->bytes);
    key_pack(ks, col, key);
    if (!memcmp(was, key, ks->bytes)) return 0;
    *region = t;
    return 1;
}

/* The member of a region (its original regions) whose orbit's lowest region is lowest,
 * the lowest such: the region a move on it is named by (with no symmetry, the lowest). */
static int sym_name_region(const Symmetry *y, const word *members, int W) {
    int best = -1, key = 1 << 30;
    for (int w = 0; w < W; w++)
        for (word z = members[w]; z; z &= z - 1) {
            int x = (w << 6) | lowbit(z);
            if (y->first[x] < key) { /* members come in rising order: ties keep the lowest */
                key = y->first[x];
                best = x;
            }
        }
    return best;
}

/* A move's rank in the commuting rule: its name's region replaced by the lowest of that
 * region's orbit, so that the image of a move has its rank (see sweep.c). */
static inline int move_rank(const Symmetry *y, uint16_t name) {
    return y && name != LM_ALL ? y->first[name >> 5] * 32 + (name & 31) : name;
}

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
} Symmetry;

static void symmetry_free(Symmetry *y) {
    free(y->tw_at);
    free(y->p_at);
    free(y->reg);
    memset(y, 0, sizeof *y);
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
    free(w);
    return 0;
bad:
    free(w);
    symmetry_free(y);
    return -1;
}

static int symmetry_on(const Symmetry *y) { return y->ntw > 0 || y->dim > 0; }

/* Replace the key by its set's chosen image (see above); 1 when that changed it.  col:
 * room for n colors. */
static int sym_canon(const Symmetry *y, const KeyShape *ks, uint8_t *key, uint8_t *col) {
    key_unpack(ks, key, col);
    int changed = 0; /* a color moved (the key may still read the same) */
    for (int i = 0; i < y->ntw; i++) { /* insertion sort of the set's colors */
        const int *m = y->reg + y->tw_at[i];
        for (int a = 1; a < y->tw_size[i]; a++) {
            uint8_t c = col[m[a]];
            int b = a;
            for (; b > 0 && col[m[b - 1]] > c; b--) col[m[b]] = col[m[b - 1]];
            if (b != a) {
                col[m[b]] = c;
                changed = 1;
            }
        }
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
            int t = 0;
            while (t < d && !(B[t][jw] & bit)) t++;
            if (t == d) continue; /* fixed by the pairs before */
            if ((x[jw] >> (j & 63) & 1) != want)
                for (int w = 0; w < pw; w++) x[w] ^= B[t][w];
            for (int s = 0; s < d; s++)
                if (s != t && (B[s][jw] & bit))
                    for (int w = 0; w < pw; w++) B[s][w] ^= B[t][w];
            d--;
            memcpy(B[t], B[d], sizeof B[t]);
        }
        for (int j = 0; j < y->np; j++) {
            if (!(x[j >> 6] >> (j & 63) & 1)) continue;
            int *a = y->reg + y->p_at[j], *b = a + y->p_size[j];
            for (int i = 0; i < y->p_size[j]; i++) {
                uint8_t c = col[a[i]];
                col[a[i]] = col[b[i]];
                col[b[i]] = c;
            }
            changed = 1;
        }
    }
    if (!changed) return 0;
    uint8_t was[MAXN];
    memcpy(was, key, ks->bytes);
    key_pack(ks, col, key);
    return memcmp(was, key, ks->bytes) != 0;
}

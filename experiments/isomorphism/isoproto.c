/* EXPERIMENT (experiments/isomorphism/NOTES.md; not built with the package): the
 * canonical form of a child's colored region graph, by nauty's densenauty or, with the
 * environment variable TRACES set, by Traces, hashed to 128 bits.  Included by sweep.c
 * once sweep.patch is applied; link with -lnauty (Debian: libnauty2-dev). */
#include <nauty.h>
#include <nauty/nausparse.h>
#include <nauty/traces.h>
static int USE_TRACES = -1;

typedef struct { uint64_t a, b; } Canon;

static inline uint64_t iso_mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

/* The child of s by recoloring `merged` (a set of reps) to c. */
static Canon iso_child(const State *s, const word *merged, int c, int W) {
    if (USE_TRACES < 0) USE_TRACES = getenv("TRACES") != NULL;
    int idx[MAXN];
    int nodes[MAXN], nn = 0;
    int newnode = -1;
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int r = (w << 6) | __builtin_ctzll(x);
            x &= x - 1;
            if (merged[r >> 6] >> (r & 63) & 1) continue;
            idx[r] = nn;
            nodes[nn++] = r;
        }
    }
    newnode = nn++;
    int n = nn, m = SETWORDSNEEDED(n);
    static _Thread_local graph g[MAXN * 3], cg[MAXN * 3];
    static _Thread_local int lab[MAXN], ptn[MAXN], orbits[MAXN];
    int colour[MAXN];
    EMPTYGRAPH(g, m, n);
    word adjnew[MAXW] = {0};
    for (int w = 0; w < W; w++) adjnew[w] = 0;
    for (int w = 0; w < W; w++) {
        word x = merged[w];
        while (x) {
            int r = (w << 6) | __builtin_ctzll(x);
            x &= x - 1;
            for (int v = 0; v < W; v++) adjnew[v] |= s->adj[r][v];
        }
    }
    for (int w = 0; w < W; w++) adjnew[w] &= ~merged[w];
    for (int i = 0; i < newnode; i++) {
        int r = nodes[i];
        colour[i] = s->color[r];
        for (int w = 0; w < W; w++) {
            word x = s->adj[r][w] & ~merged[w];
            while (x) {
                int v = (w << 6) | __builtin_ctzll(x);
                x &= x - 1;
                ADDONEEDGE(g, i, idx[v], m);
            }
        }
    }
    colour[newnode] = c;
    for (int w = 0; w < W; w++) {
        word x = adjnew[w];
        while (x) {
            int v = (w << 6) | __builtin_ctzll(x);
            x &= x - 1;
            ADDONEEDGE(g, newnode, idx[v], m);
        }
    }
    /* ADDONEEDGE sets both directions, so each edge is set twice: harmless (sets). */
    /* lab/ptn: nodes by color, cells ending where the color changes. */
    int k = 0;
    uint64_t colsig = 0x9e3779b97f4a7c15ULL;
    for (int col = 0; col < 256 && k < n; col++) {
        int start = k;
        for (int i = 0; i < n; i++)
            if (colour[i] == col) lab[k++] = i;
        if (k > start) {
            for (int j = start; j < k; j++) ptn[j] = 1;
            ptn[k - 1] = 0;
            colsig = iso_mix(colsig ^ ((uint64_t)col << 16 | (uint64_t)(k - start)));
        }
    }
    if (USE_TRACES) {
        static _Thread_local int vv_e[MAXN * 64];
        static _Thread_local size_t vv_v[MAXN];
        static _Thread_local int vv_d[MAXN];
        static _Thread_local int ce[MAXN * 64];
        static _Thread_local size_t cv[MAXN];
        static _Thread_local int cd[MAXN];
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            vv_v[i] = at;
            set *gi = GRAPHROW(g, i, m);
            for (int j = -1; (j = nextelement(gi, m, j)) >= 0;) vv_e[at++] = j;
            vv_d[i] = (int)(at - vv_v[i]);
        }
        sparsegraph sg = {at, vv_v, n, vv_d, vv_e, NULL, (size_t)n, (size_t)n, (size_t)MAXN * 64, 0};
        sparsegraph csg = {0, cv, n, cd, ce, NULL, (size_t)n, (size_t)n, (size_t)MAXN * 64, 0};
        static DEFAULTOPTIONS_TRACES(topt);
        TracesStats tstats;
        topt.getcanon = TRUE;
        topt.defaultptn = FALSE;
        Traces(&sg, lab, ptn, orbits, &topt, &tstats, &csg);
        sortlists_sg(&csg);
        uint64_t a = iso_mix(colsig ^ (uint64_t)n), b = iso_mix(colsig + 0x1234567ULL + (uint64_t)n);
        for (int i = 0; i < n; i++) {
            a = iso_mix(a ^ ((uint64_t)cd[i] << 32 | 0xabcdefULL));
            b = iso_mix(b + (uint64_t)cd[i]);
            for (int t = 0; t < cd[i]; t++) {
                uint64_t x = (uint64_t)ce[cv[i] + t];
                a = iso_mix(a ^ x);
                b = iso_mix(b + x * 0x100000001b3ULL);
            }
        }
        return (Canon){a, b};
    }
    static DEFAULTOPTIONS_GRAPH(options);
    statsblk stats;
    options.getcanon = TRUE;
    options.defaultptn = FALSE;
    densenauty(g, lab, ptn, orbits, &options, &stats, m, n, cg);
    uint64_t a = iso_mix(colsig ^ (uint64_t)n), b = iso_mix(colsig + 0x1234567ULL + (uint64_t)n);
    for (int i = 0; i < n * m; i++) {
        a = iso_mix(a ^ (uint64_t)cg[i]);
        b = iso_mix(b + (uint64_t)cg[i] * 0x100000001b3ULL);
    }
    return (Canon){a, b};
}

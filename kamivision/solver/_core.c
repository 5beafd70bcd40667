/* The A* inner loop of kamivision.solver.search, compiled.
 *
 * It runs the same search as the Python reference `search.astar` (same state keys, same
 * merging moves, same admissible bounds, same upper-bound pruning), only faster; the Python
 * docstrings carry the admissibility arguments.  Results are checked against the Python
 * search and plain breadth-first search in tests/test_solver.py.
 *
 *   astar(colors, adjacency, words, goal, limit, max_nodes, max_seconds, max_bytes, progress)
 *     colors     bytes, colour of every original region of one island (n <= 64 * MAXW)
 *     adjacency  bytes, n * words little-endian uint64 bitsets over original regions
 *     goal       goal colour, or -1 for any
 *     limit      only solutions shorter than this are searched for (-1: no limit)
 *     max_nodes  expansions allowed (-1: no limit); max_seconds (< 0: no limit)
 *     max_bytes  memory allowed: stored states take up to 60 % of it, then the search goes
 *                on depth-first from its open states (deep_phase) with a table of 25 %
 *     progress   None or a callable(expanded, bound, seconds) called every 4096 expansions
 *   returns (status, path, expanded, bound):
 *     status 0: path found (a list of (representative, colour)), optimal below `limit`
 *     status 1: no solution shorter than `limit` (or none at all)
 *     status 2: a limit stopped the search; `bound` is the lower bound proven so far, and
 *               `path` the best of greedy dives from the open states (unproven), or None
 *     status 3: as 2, stopped by Ctrl-C (KeyboardInterrupt, which is cleared)
 *   dive_tries (optional, default 64): how many open states to dive from after a stop
 *   threads (optional, default 1): 2 to share the expansions with a helper thread (the
 *     answers are the same, and so are the A*'s expansions; see "expansions in batches"
 *     and "the depth-first phase, on one thread or two")
 *   improve (optional, default None): a callable(bound, expanded) called once, when memory
 *     is full and the depth-first phase is about to start (`expanded`: the expansions so
 *     far, for its progress reports); it may return the length of a solution
 *     it found (shorter than `limit`), which becomes the limit (status 1 then means no
 *     solution is shorter than that one), or None
 *   on_full (optional, default 0): 1 to return status 4 (`bound` the bound proven) when
 *     the stored states fill their share, instead of calling `improve` and going on
 *     depth-first: the caller then runs `sweep` with all the memory, and calls again with
 *     0 if the sweep runs out of it too
 *   orientation (optional, default -1): the winding bound's orientation of the colour
 *     pairs, numbered as heuristics.orientation does (-1: no winding bound)
 *
 *   sweep(...): the last threshold by region count; see "the sweep" below.
 *   choose_orientation(colors, adjacency, words): the orientation for `orientation`, as
 *     heuristics.choose_orientation picks it, or -1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXW 8
#define MAXN (64 * MAXW)
#define MAXF 256

typedef uint64_t word;

static inline int lowbit(word w) { return __builtin_ctzll(w); }

/* ---- the island and a contracted state ---------------------------------------------- */

typedef struct {
    int n, W;
    const word *adj0; /* n * W */
    int goal;
    int small_colors; /* every colour (and the goal) below 64: colour sets fit a word */
    const struct Winding *wind; /* the winding bound's weights, or NULL */
} Island;

typedef struct {
    word reps[MAXW];
    int16_t rep_of[MAXN];
    word members[MAXN][MAXW];
    word adj[MAXN][MAXW];
    uint8_t color[MAXN];
} State;

/* Functions taking `const int W` are written once and compiled for 1-4 words as constants
 * (their loops unrolled), with a dispatcher on the island's word count; they are most of
 * the search's time. */
#define HOT static inline __attribute__((always_inline))

HOT void contract_w(const Island *is, const uint8_t *key, State *s, const int W) {
    int n = is->n;
    int16_t stack[MAXN];
    memset(s->reps, 0, sizeof(s->reps));
    for (int i = 0; i < n; i++) s->rep_of[i] = -1;
    for (int start = 0; start < n; start++) {
        if (s->rep_of[start] >= 0) continue;
        uint8_t c = key[start];
        word *m = s->members[start];
        memset(m, 0, W * sizeof(word));
        m[start >> 6] |= (word)1 << (start & 63);
        s->rep_of[start] = (int16_t)start;
        int top = 0;
        stack[top++] = (int16_t)start;
        while (top) {
            int i = stack[--top];
            const word *a = is->adj0 + (size_t)i * W;
            for (int w = 0; w < W; w++) {
                word x = a[w];
                while (x) {
                    int j = (w << 6) | lowbit(x);
                    x &= x - 1;
                    if (s->rep_of[j] < 0 && key[j] == c) {
                        s->rep_of[j] = (int16_t)start;
                        m[j >> 6] |= (word)1 << (j & 63);
                        stack[top++] = (int16_t)j;
                    }
                }
            }
        }
        s->reps[start >> 6] |= (word)1 << (start & 63);
        s->color[start] = c;
        memset(s->adj[start], 0, W * sizeof(word));
    }
    for (int i = 0; i < n; i++) {
        int r = s->rep_of[i];
        const word *a = is->adj0 + (size_t)i * W;
        for (int w = 0; w < W; w++) {
            word x = a[w];
            while (x) {
                int j = (w << 6) | lowbit(x);
                x &= x - 1;
                int rr = s->rep_of[j];
                if (rr != r) s->adj[r][rr >> 6] |= (word)1 << (rr & 63);
            }
        }
    }
}

static int popcount_w(const word *b, int W) {
    int k = 0;
    for (int w = 0; w < W; w++) k += __builtin_popcountll(b[w]);
    return k;
}

HOT int distances_w(const Island *is, const State *s, int src, int16_t *dist, int *far, uint64_t *layers, const int W) {
    word seen[MAXW] = {0}, frontier[MAXW] = {0}, grown[MAXW];
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int j = (w << 6) | lowbit(x);
            x &= x - 1;
            dist[j] = -1;
        }
    }
    dist[src] = 0;
    seen[src >> 6] = frontier[src >> 6] = (word)1 << (src & 63);
    int depth = 0;
    *far = src;
    uint64_t top = (uint64_t)1 << (s->color[src] & 63), below = 0; /* colours of the last two layers */
    for (;;) {
        for (int w = 0; w < W; w++) grown[w] = 0;
        for (int w = 0; w < W; w++) {
            word x = frontier[w];
            while (x) {
                int j = (w << 6) | lowbit(x);
                x &= x - 1;
                for (int v = 0; v < W; v++) grown[v] |= s->adj[j][v];
            }
        }
        int any = 0;
        for (int w = 0; w < W; w++) {
            grown[w] &= ~seen[w];
            any |= grown[w] != 0;
        }
        if (!any) {
            layers[0] = top;
            layers[1] = below;
            /* The farthest region: the lowest of the last layer with another colour than
             * the source when there is one (for the colour term of pair_term), else the
             * lowest. */
            for (int w = 0; w < W; w++) {
                word x = frontier[w];
                while (x) {
                    int j = (w << 6) | lowbit(x);
                    x &= x - 1;
                    if (s->color[j] != s->color[src]) {
                        *far = j;
                        return depth;
                    }
                }
            }
            return depth;
        }
        depth++;
        int first = -1;
        below = top;
        top = 0;
        for (int w = 0; w < W; w++) {
            seen[w] |= grown[w];
            frontier[w] = grown[w];
            word x = grown[w];
            while (x) {
                int j = (w << 6) | lowbit(x);
                x &= x - 1;
                if (first < 0) first = j;
                dist[j] = (int16_t)depth;
                top |= (uint64_t)1 << (s->color[j] & 63);
            }
        }
        *far = first;
    }
}

static void contract_1(const Island *is, const uint8_t *key, State *s) { contract_w(is, key, s, 1); }
static void contract_2(const Island *is, const uint8_t *key, State *s) { contract_w(is, key, s, 2); }
static void contract_3(const Island *is, const uint8_t *key, State *s) { contract_w(is, key, s, 3); }
static void contract_n(const Island *is, const uint8_t *key, State *s) { contract_w(is, key, s, is->W); }

static void contract(const Island *is, const uint8_t *key, State *s) {
    switch (is->W) {
    case 1: contract_1(is, key, s); break;
    case 2: contract_2(is, key, s); break;
    case 3: contract_3(is, key, s); break;
    default: contract_n(is, key, s);
    }
}

static int distances_1(const Island *is, const State *s, int src, int16_t *d, int *far, uint64_t *l) { return distances_w(is, s, src, d, far, l, 1); }
static int distances_2(const Island *is, const State *s, int src, int16_t *d, int *far, uint64_t *l) { return distances_w(is, s, src, d, far, l, 2); }
static int distances_3(const Island *is, const State *s, int src, int16_t *d, int *far, uint64_t *l) { return distances_w(is, s, src, d, far, l, 3); }
static int distances_n(const Island *is, const State *s, int src, int16_t *d, int *far, uint64_t *l) { return distances_w(is, s, src, d, far, l, is->W); }

/* Breadth-first distances over the contracted graph from `src`; returns the eccentricity
 * and sets *far to a region of the last layer: the lowest of another colour than `src`
 * if any, else the lowest (as the Python `distances` and `_far`); layers[0] and layers[1]
 * get the colours (bit c & 63) of the last layer and of the one before it. */
static int distances(const Island *is, const State *s, int src, int16_t *dist, int *far, uint64_t *layers) {
    switch (is->W) {
    case 1: return distances_1(is, s, src, dist, far, layers);
    case 2: return distances_2(is, s, src, dist, far, layers);
    case 3: return distances_3(is, s, src, dist, far, layers);
    default: return distances_n(is, s, src, dist, far, layers);
    }
}

/* The moves of region `r`: its neighbours grouped by colour.  groups[k] is the set that
 * becomes one region when `r` takes colour gcolors[k] (r itself included); returns how many. */
static int merge_groups(const State *s, int r, int W, word groups[][MAXW], uint8_t *gcolors) {
    int count = 0;
    for (int v = 0; v < W; v++) {
        word y = s->adj[r][v];
        while (y) {
            int j = (v << 6) | lowbit(y);
            y &= y - 1;
            uint8_t c = s->color[j];
            int k = 0;
            while (k < count && gcolors[k] != c) k++;
            if (k == count) {
                gcolors[count++] = c;
                memset(groups[k], 0, W * sizeof(word));
                groups[k][r >> 6] |= (word)1 << (r & 63);
            }
            groups[k][v] |= (word)1 << (j & 63);
        }
    }
    return count;
}

/* The merging moves of a state, one at a time: region `r` taking colour gcolors[k], which
 * makes groups[k] one region (the groups of r are refilled when r changes). */
typedef struct {
    int w, r, k, count;
    word bits;
} Moves;

static void moves_begin(Moves *m, const State *s) {
    m->w = 0;
    m->bits = s->reps[0];
    m->r = -1;
    m->k = -1;
    m->count = 0;
}

static inline int moves_next(Moves *m, const State *s, int W, word groups[][MAXW], uint8_t *gcolors) {
    m->k++;
    while (m->k >= m->count) {
        while (!m->bits) {
            if (++m->w >= W) return 0;
            m->bits = s->reps[m->w];
        }
        m->r = (m->w << 6) | lowbit(m->bits);
        m->bits &= m->bits - 1;
        m->count = merge_groups(s, m->r, W, groups, gcolors);
        m->k = 0;
    }
    return 1;
}

static inline int same_set(const word *a, const word *b, int W) {
    for (int v = 0; v < W; v++)
        if (a[v] != b[v]) return 0;
    return 1;
}

/* The colour bound of the child where region `r` (colour `color_r`) takes colour `c`: the
 * parent's colours less r's if r was its last region, minus one (or minus the goal colour
 * when it is still there). */
static inline int colors_left_after(const int *counts, int npresent, int color_r, int c, int goal) {
    int left = npresent - (counts[color_r] == 1 ? 1 : 0);
    if (goal < 0 || goal == c || (counts[goal] && !(counts[goal] == 1 && color_r == goal))) left -= 1;
    return left;
}

/* Regions of each colour (counts, cleared first) and how many colours are present. */
static int count_colors(const State *s, int W, int *counts) {
    int present = 0;
    memset(counts, 0, 256 * sizeof(int));
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int j = (w << 6) | lowbit(x);
            x &= x - 1;
            if (counts[s->color[j]]++ == 0) present++;
        }
    }
    return present;
}

typedef struct {
    int count;
    int16_t *du[2], *dv[2];
    int d[2], u[2], v[2];
} Pairs;

/* Moves needed to join two regions at distance d with colours cu, cv: ceil((d + e) / 2),
 * e = 1 when the colours differ or (with a goal colour) are not both the goal colour.
 * Admissible: see pair_term in heuristics.py. */
static inline int pair_term(int d, int cu, int cv, int goal) {
    int e = cu != cv || (goal >= 0 && cu != goal);
    return (d + e + 1) / 2;
}

/* Far-apart pairs by sweeps, as the Python `far_pairs`; returns their pair bound (the
 * largest pair_term).  With `within` >= 0 it stops as soon as a distance it measured gives
 * a bound above `within` (the pairs are then incomplete): every distance measured is a
 * true shortest-path distance, so its pair_term is admissible (see heuristics.py), and a
 * state whose bound already exceeds what its turn allows needs no more. */
/* The Python `final_color_bound` from the sweeps' sources: colour, depth and the colours
 * of their last two layers; `present` the colours on the board (bits), `npresent` how many. */
static int final_color_bound(const int *src_color, const int *depth, uint64_t (*layers)[2], int nsw,
                             uint64_t present, int npresent, int goal) {
    int best = 1 << 30;
    uint64_t ks = goal >= 0 ? (uint64_t)1 << goal : present;
    for (int absent = 0; absent < 2; absent++) {
        if (absent && goal >= 0) break;
        uint64_t left = absent ? 1 : ks;
        while (left) {
            int k = absent ? -1 : lowbit(left);
            left &= left - 1;
            uint64_t kbit = k >= 0 ? (uint64_t)1 << k : 0;
            int h = npresent - ((present & kbit) ? 1 : 0);
            for (int i = 0; i < nsw; i++) {
                int e0 = src_color[i] != k;
                int t = (depth[i] + e0 + ((layers[i][0] & ~kbit) != 0) + 1) / 2;
                if (t > h) h = t;
                if (depth[i] >= 1) {
                    t = (depth[i] - 1 + e0 + ((layers[i][1] & ~kbit) != 0) + 1) / 2;
                    if (t > h) h = t;
                }
            }
            if (h < best) best = h;
        }
    }
    return best;
}

/* Far-apart pairs by sweeps, as the Python `far_pairs`; returns their pair bound (the
 * largest pair_term), raised to the Python `final_color_bound` of the same sweeps when
 * they all ran.  With `within` >= 0 it stops as soon as a distance it measured gives a
 * bound above `within` (the pairs are then incomplete): every distance measured is a true
 * shortest-path distance, so its pair_term is admissible (see heuristics.py), and a state
 * whose bound already exceeds what its turn allows needs no more. */
static int far_pairs(const Island *is, const State *s, int16_t buf[4][MAXN], Pairs *p, int within) {
    int W = is->W, start = -1, goal = is->goal;
    const uint8_t *col = s->color;
    for (int w = 0; w < W && start < 0; w++)
        if (s->reps[w]) start = (w << 6) | lowbit(s->reps[w]);
    p->count = 0;
    if (popcount_w(s->reps, W) <= 1) return goal >= 0 && col[start] != goal ? 1 : 0;
    int a, b, c, dummy;
    int src_color[4], depth[4];
    uint64_t layers[4][2];
    int d_sa = distances(is, s, start, buf[3], &a, layers[0]);
    int t_sa = pair_term(d_sa, col[start], col[a], goal);
    if (within >= 0 && t_sa > within) return t_sa;
    int d_ab = distances(is, s, a, buf[0], &b, layers[1]);
    int t_ab = pair_term(d_ab, col[a], col[b], goal);
    if (within >= 0 && t_ab > within) return t_ab;
    int d_bc = distances(is, s, b, buf[1], &c, layers[2]);
    int t_bc = pair_term(d_bc, col[b], col[c], goal);
    p->du[0] = buf[0];
    p->dv[0] = buf[1];
    p->d[0] = d_ab;
    p->u[0] = a;
    p->v[0] = b;
    p->count = 1;
    int d_c = d_ab;
    layers[3][0] = layers[1][0];
    layers[3][1] = layers[1][1];
    if (d_bc > d_ab || c != a) {
        d_c = distances(is, s, c, buf[2], &dummy, layers[3]);
        p->du[1] = buf[1];
        p->dv[1] = buf[2];
        p->d[1] = d_bc;
        p->u[1] = b;
        p->v[1] = c;
        p->count = 2;
    }
    int best = t_bc > t_ab ? t_bc : t_ab;
    if (!is->small_colors || (within >= 0 && best > within)) return best;
    src_color[0] = col[start];
    src_color[1] = col[a];
    src_color[2] = col[b];
    src_color[3] = col[c];
    depth[0] = d_sa;
    depth[1] = d_ab;
    depth[2] = d_bc;
    depth[3] = d_c;
    uint64_t present = 0;
    int npresent = 0;
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int j = (w << 6) | lowbit(x);
            x &= x - 1;
            uint64_t bit = (uint64_t)1 << col[j];
            if (!(present & bit)) npresent++;
            present |= bit;
        }
    }
    int fb = final_color_bound(src_color, depth, layers, 4, present, npresent, goal);
    return fb > best ? fb : best;
}

/* ---- the winding bound (heuristics.winding_bound) ---------------------------------- */

#define MAX_ORIENTATIONS 1024 /* as heuristics.MAX_ORIENTATIONS */

/* An orientation of the colour pairs as edge weights: fw[a][b] = 3 + sigma(a, b) from a
 * region of colour a to one of colour b, with colours by their rank among the island's
 * (idx; at most 16 colours).  A walk backwards takes each edge at its forward weight
 * (split_edges). */
typedef struct Winding {
    uint8_t idx[256];
    int8_t fw[16][16];
} Winding;

/* The regions of each colour (by rank) and the ranks present; returns how many. */
static int color_classes(const State *s, const Winding *wd, int W, word (*cls)[MAXW], int *cols) {
    int ncol = 0;
    memset(cls, 0, 16 * sizeof(*cls));
    for (int w = 0; w < W; w++) {
        word x = s->reps[w];
        while (x) {
            int u = (w << 6) | lowbit(x);
            x &= x - 1;
            cls[wd->idx[s->color[u]]][w] |= (word)1 << (u & 63);
        }
    }
    for (int c = 0; c < 16; c++) {
        word some = 0;
        for (int w = 0; w < W; w++) some |= cls[c][w];
        if (some) cols[ncol++] = c;
    }
    return ncol;
}

/* A state's edges split by weight under a winding: lo[j] holds the neighbours an edge of
 * weight 2 leads to from region j (sigma = -1), hi[j] those of weight 4 (sigma = +1).
 * Every edge joins two colours and every pair of colours is oriented, so no edge weighs
 * 3 and every walk weight is even; a walk backwards weighs an edge as the forward walk
 * does, so it takes hi at 2 and lo at 4. */
typedef struct {
    word lo[MAXN][MAXW], hi[MAXN][MAXW];
} Split;

static void split_edges(const State *s, const Winding *wd, word (*cls)[MAXW], const int *cols, int ncol, Split *sp,
                        int W) {
    word lo[16][MAXW], hi[16][MAXW];
    for (int a = 0; a < ncol; a++) {
        int c = cols[a];
        for (int w = 0; w < W; w++) lo[c][w] = hi[c][w] = 0;
        for (int z = 0; z < ncol; z++) {
            int c2 = cols[z];
            if (c2 == c) continue;
            word *to = wd->fw[c][c2] < 3 ? lo[c] : hi[c];
            for (int w = 0; w < W; w++) to[w] |= cls[c2][w];
        }
    }
    for (int w = 0; w < W; w++)
        for (word x = s->reps[w]; x; x &= x - 1) {
            int j = (w << 6) | lowbit(x), c = wd->idx[s->color[j]];
            for (int v = 0; v < W; v++) {
                sp->lo[j][v] = s->adj[j][v] & lo[c][v];
                sp->hi[j][v] = s->adj[j][v] & hi[c][v];
            }
        }
}

/* Least walk weights from `src` (forward, or backward when `back`) by Dial's buckets in
 * half units (edges of 1 and 2), a ring of three bitsets; returns the largest, or the
 * first one above `stop`.  `dist` (or NULL) gets each region's, and `far` (or NULL) the
 * lowest region at the largest. */
HOT int wdist_w(const Split *sp, int src, int stop, int16_t *dist, int back, int *far, const int W) {
    const word(*one)[MAXW] = back ? sp->hi : sp->lo, (*two)[MAXW] = back ? sp->lo : sp->hi;
    word ring[3][MAXW], seen[MAXW] = {0};
    memset(ring, 0, sizeof(ring));
    ring[0][src >> 6] = (word)1 << (src & 63);
    int t = 0, last = 0, idle = 0;
    for (;; t++) {
        word *B = ring[t % 3], b[MAXW], any = 0;
        for (int w = 0; w < W; w++) {
            b[w] = B[w] & ~seen[w];
            B[w] = 0;
            any |= b[w];
        }
        if (!any) {
            if (++idle == 2) return 2 * last; /* entries go at most two buckets ahead */
            continue;
        }
        idle = 0;
        last = t;
        if (far)
            for (int w = 0; w < W; w++)
                if (b[w]) {
                    *far = (w << 6) | lowbit(b[w]);
                    break;
                }
        if (2 * t > stop) return 2 * t;
        for (int w = 0; w < W; w++) seen[w] |= b[w];
        if (dist)
            for (int w = 0; w < W; w++)
                for (word x = b[w]; x; x &= x - 1) dist[(w << 6) | lowbit(x)] = (int16_t)(2 * t);
        word n1[MAXW] = {0}, n2[MAXW] = {0};
        for (int w = 0; w < W; w++)
            for (word x = b[w]; x; x &= x - 1) {
                int j = (w << 6) | lowbit(x);
                for (int v = 0; v < W; v++) {
                    n1[v] |= one[j][v];
                    n2[v] |= two[j][v];
                }
            }
        word *R1 = ring[(t + 1) % 3], *R2 = ring[(t + 2) % 3];
        for (int w = 0; w < W; w++) {
            R1[w] |= n1[w] & ~seen[w];
            R2[w] |= n2[w] & ~seen[w];
        }
    }
}

/* The regions other than `skip` in falling order of key[] (a counting sort), into out;
 * returns how many. */
static int sort_falling(const State *s, const int16_t *key, int skip, int16_t *out, int W) {
    int top = 0, count[4 * MAXN + 2];
    for (int w = 0; w < W; w++)
        for (word x = s->reps[w]; x; x &= x - 1) {
            int k = key[(w << 6) | lowbit(x)];
            if (k > top) top = k;
        }
    memset(count, 0, (top + 2) * sizeof(int));
    for (int w = 0; w < W; w++)
        for (word x = s->reps[w]; x; x &= x - 1) {
            int u = (w << 6) | lowbit(x);
            if (u != skip) count[top - key[u] + 1]++;
        }
    for (int i = 1; i <= top + 1; i++) count[i] += count[i - 1];
    for (int w = 0; w < W; w++)
        for (word x = s->reps[w]; x; x &= x - 1) {
            int u = (w << 6) | lowbit(x);
            if (u != skip) out[count[top - key[u]]++] = (int16_t)u;
        }
    return count[top];
}

/* The greatest weighted distance between two regions if it is at most `stop`, else some
 * distance above `stop`; at least `best`.  Walks from and to a central region c give
 * D(x, y) <= D(x, c) + D(c, y) = back[x] + to[y] (the triangle inequality), so only the
 * pairs with back[x] + to[y] above `best` (or the greatest found so far) can matter; a walk
 * forward from x measures every pair (x, .), one backward from y every pair (., y).  With
 * the x in falling order of back[x] and the y of to[y], the pairs left are those of an x
 * not walked from and a y not walked to whose sum is over the best, so they are covered
 * once the next x and the next y sum to no more.  The farthest x from c goes first (a
 * state over its threshold is usually settled by it); then the fewest walks that cover
 * what is left (k more forward, then backward from the y still over the best), planned
 * again whenever the best grows.  Every walk stops once past `stop`.  *seen is the
 * greatest distance measured, from the region *source (the greatest there is when that is
 * above `best`: every pair that could be is measured).  This takes fewer walks than
 * walking forward from every x whose back[x] + ecc(c) is over the best: Threegrid4's
 * sweep for "nothing within 10" 6.4M instead of 15.3M, P37's "within 9" 10.1M instead of
 * 15.9M. */
HOT int wfar_w(const State *s, const Split *sp, int centre, int best, int stop, int *seen, int *source, const int W) {
    int16_t to[MAXN], back[MAXN], xs[MAXN], ys[MAXN];
    int far = centre;
    int ef = wdist_w(sp, centre, stop, to, 0, NULL, W);
    *seen = ef;
    *source = centre;
    if (ef > best) best = ef;
    if (best > stop) return best;
    int eb = wdist_w(sp, centre, stop, back, 1, &far, W); /* back[x] = D(x, centre) */
    if (eb > *seen) {
        *seen = eb;
        *source = far;
    }
    if (eb > best) best = eb;
    if (best > stop) return best;
    int nx = sort_falling(s, back, centre, xs, W), ny = -1, i = 0, j = 0, pick = -1, planned = -1;
    if (nx && back[xs[0]] + ef > best) { /* the farthest from the centre first, where a far pair is likeliest */
        int d = wdist_w(sp, xs[i++], stop, NULL, 0, NULL, W);
        if (d > *seen) {
            *seen = d;
            *source = xs[0];
        }
        if (d > best) best = d;
        if (best > stop) return best;
    }
    if (i < nx) ny = sort_falling(s, to, centre, ys, W);
    while (i < nx && j < ny && back[xs[i]] + to[ys[j]] > best) {
        if (planned != best) {
            /* The fewest walks that cover what is left: the next k - i forward, then the
             * y still over the best with those done; planned again when the best grows. */
            int least = 1 << 30, over = ny;
            for (int k = i; k <= nx; k++) {
                int bx = k < nx ? back[xs[k]] : -(1 << 20);
                while (over > j && bx + to[ys[over - 1]] <= best) over--;
                int cost = (k - i) + (over - j);
                if (cost < least) {
                    least = cost;
                    pick = k;
                }
                if (over == j) break;
            }
            planned = best;
        }
        int d;
        if (pick > i) {
            int u = xs[i++];
            d = wdist_w(sp, u, stop, NULL, 0, NULL, W);
            if (d > *seen) {
                *seen = d;
                *source = u;
            }
        } else {
            int y = ys[j++];
            d = wdist_w(sp, y, stop, NULL, 1, &far, W);
            if (d > *seen) {
                *seen = d;
                *source = far; /* D(far, y) = d */
            }
        }
        if (d > best) best = d;
        if (best > stop) return best;
    }
    return best;
}

/* A region near the middle of the first far pair (least larger distance to its ends), or
 * the lowest region. */
static int centre_of(const State *s, const Pairs *p, int W) {
    int centre = -1, least = 1 << 20;
    for (int w = 0; w < W; w++)
        for (word x = s->reps[w]; x; x &= x - 1) {
            int j = (w << 6) | lowbit(x);
            if (!p || p->count == 0) return j;
            int m = p->du[0][j] > p->dv[0][j] ? p->du[0][j] : p->dv[0][j];
            if (m < least) {
                least = m;
                centre = j;
            }
        }
    return centre;
}

static int wfar(const State *s, const Split *sp, int centre, int best, int stop, int *seen, int *source, int W) {
    switch (W) {
    case 1: return wfar_w(s, sp, centre, best, stop, seen, source, 1);
    case 2: return wfar_w(s, sp, centre, best, stop, seen, source, 2);
    case 3: return wfar_w(s, sp, centre, best, stop, seen, source, 3);
    default: return wfar_w(s, sp, centre, best, stop, seen, source, W);
    }
}

static int wdist(const Split *sp, int src, int16_t *dist, int back, int W) {
    switch (W) {
    case 1: return wdist_w(sp, src, 1 << 20, dist, back, NULL, 1);
    case 2: return wdist_w(sp, src, 1 << 20, dist, back, NULL, 2);
    case 3: return wdist_w(sp, src, 1 << 20, dist, back, NULL, 3);
    default: return wdist_w(sp, src, 1 << 20, dist, back, NULL, W);
    }
}

/* The farthest pair a state's winding bound found, kept for its children's bounds: D =
 * D(u, v), to[i] = D(u, i) and from[i] = D(i, v); `on` 0 when there is none. */
typedef struct {
    int on, d, u, v;
    int16_t to[MAXN], from[MAXN];
} WindPair;

/* The winding bound of the child that contracts the connected set `merged` into one
 * region of colour c, from the parent's pair (u, v): ceil(min(D, D'(u, S) + D'(S, v)) / 6),
 * where D'(u, S) is the least to[y] + w'(y, S) over the neighbours y of S (0 when u is in
 * S), w' the child's weight of an edge into the new region (colour c), and D'(S, v) the
 * least w'(S, z) + from[z] likewise.  Admissible: a walk of the child that avoids the new
 * region is one of the parent, of the same weight (no edge of it changed colours), so at
 * least D; one through it reaches it from some neighbour y by a walk that avoids it
 * before (a parent walk, of weight at least to[y]) and an edge of weight w'(y, S), and
 * leaves it likewise. */
static int wind_after(const WindPair *wp, const State *s, const Winding *wd, const word *merged, int c, int W) {
    word around[MAXW] = {0};
    for (int w = 0; w < W; w++)
        for (word x = merged[w]; x; x &= x - 1) {
            int i = (w << 6) | lowbit(x);
            for (int v = 0; v < W; v++) around[v] |= s->adj[i][v];
        }
    int in_u = (merged[wp->u >> 6] >> (wp->u & 63)) & 1, in_v = (merged[wp->v >> 6] >> (wp->v & 63)) & 1;
    int mu = in_u ? 0 : 1 << 20, mv = in_v ? 0 : 1 << 20, k = wd->idx[c];
    for (int w = 0; w < W; w++)
        for (word x = around[w] & ~merged[w]; x; x &= x - 1) {
            int y = (w << 6) | lowbit(x), cy = wd->idx[s->color[y]];
            int a = wp->to[y] + wd->fw[cy][k], b = wd->fw[k][cy] + wp->from[y];
            if (a < mu) mu = a;
            if (b < mv) mv = b;
        }
    int d = mu + mv;
    if (d > wp->d) d = wp->d;
    return (d + 5) / 6;
}

/* The state's bound raised to its winding bound, ceil(D / 6), if that can matter (h is
 * at most `within`); stops once it is above `within`.  Admissible: see winding_bound in
 * heuristics.py.  Without `wp` it only looks for a distance that would send the state
 * past `within`.  With `wp`, when the state stays within, it also finds the farthest pair
 * worth a bound of h - 1 or more (what a child's bound can use) and keeps it there, with
 * both distance arrays, for the children's bounds (wind_after; wp->on = 0: none). */
static int winding_bound(const Island *is, const State *s, const Pairs *p, int within, int h, WindPair *wp) {
    if (wp) wp->on = 0;
    if (!is->wind || h > within || popcount_w(s->reps, is->W) <= 1) return h;
    word cls[16][MAXW];
    int cols[16], seen, source, W = is->W;
    int ncol = color_classes(s, is->wind, W, cls, cols);
    if (ncol < 3) return h; /* two colours: every weight is 3 one way and 3 back on a path */
    Split sp;
    split_edges(s, is->wind, cls, cols, ncol, &sp, W);
    int d = wfar(s, &sp, centre_of(s, p, W), wp ? 6 * (h - 2) : 6 * within, 6 * within, &seen,
                 &source, W);
    if (d > 6 * within) return (d + 5) / 6;
    int t = (seen + 5) / 6;
    if (t > h) h = t;
    if (wp && t >= h - 1) {
        wdist(&sp, source, wp->to, 0, W);
        int v = source;
        for (int w = 0; w < W; w++)
            for (word x = s->reps[w]; x; x &= x - 1) {
                int i = (w << 6) | lowbit(x);
                if (wp->to[i] > wp->to[v]) v = i;
            }
        wdist(&sp, v, wp->from, 1, W);
        wp->on = 1;
        wp->d = wp->to[v];
        wp->u = source;
        wp->v = v;
    }
    return h;
}

/* The island's colours ranked (idx), and how many; more than 16: 17. */
static int rank_colors(const uint8_t *colors, int n, Winding *wd) {
    uint8_t seen[256] = {0};
    int k = 0;
    for (int i = 0; i < n; i++) seen[colors[i]] = 1;
    memset(wd->idx, 0, sizeof(wd->idx));
    for (int c = 0; c < 256; c++)
        if (seen[c]) {
            if (k == 16) return 17;
            wd->idx[c] = (uint8_t)k++;
        }
    return k;
}

/* The orientation of the island's colour pairs numbered as heuristics.orientation does
 * (pairs of ranks i < j in order, bit p set: sigma = 1), into weights; k colours. */
static void winding_of(int k, int number, Winding *wd) {
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) wd->fw[a][b] = 3;
    int bit = 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++, bit++) {
            int v = bit < 31 && (number >> bit & 1) ? 1 : -1;
            wd->fw[i][j] = (int8_t)(3 + v);
            wd->fw[j][i] = (int8_t)(3 - v);
        }
}

/* The pair bound of the child that contracts `merged` into one region of colour `c`
 * (exact distances, see Python). */
static int pair_bound_after(const Pairs *p, const State *s, const word *merged, int c, int goal, int W) {
    int best = 0;
    for (int k = 0; k < p->count; k++) {
        int mu = p->d[k], mv = p->d[k];
        for (int w = 0; w < W; w++) {
            word x = merged[w];
            while (x) {
                int i = (w << 6) | lowbit(x);
                x &= x - 1;
                if (p->du[k][i] < mu) mu = p->du[k][i];
                if (p->dv[k][i] < mv) mv = p->dv[k][i];
            }
        }
        int nd = mu + mv;
        if (nd > p->d[k]) nd = p->d[k];
        int u = p->u[k], v = p->v[k];
        int cu = (merged[u >> 6] >> (u & 63)) & 1 ? c : s->color[u];
        int cv = (merged[v >> 6] >> (v & 63)) & 1 ? c : s->color[v];
        int t = pair_term(nd, cu, cv, goal);
        if (t > best) best = t;
    }
    return best;
}

/* The eccentricity of the source set `src` in the graph of the child that contracts the
 * connected set `merged` into one region of colour `c`, measured on the parent state `s`
 * without building the child: whenever a layer reaches `merged`, all of it joins that layer
 * (in the child it is one region, so its members are at one distance from everything).
 * `src` is one region or `merged` itself, of child colour `src_color`.  Sets `far` to a
 * region of the last layer as `distances` picks it in the child (the lowest of another
 * colour than the source if any, else the lowest; the child's region for `merged` is named
 * by its lowest member, and stands for all of `merged`), and `far_color` to its colour.
 * Distances are the child's exactly. */
HOT int ecc_merged_w(const State *s, const word *merged, int c, const word *src, int src_color, word *far,
                     int *far_color, const int W) {
    word seen[MAXW], frontier[MAXW], grown[MAXW];
    for (int w = 0; w < W; w++) seen[w] = frontier[w] = src[w];
    int depth = 0;
    for (;;) {
        for (int w = 0; w < W; w++) grown[w] = 0;
        for (int w = 0; w < W; w++) {
            word x = frontier[w];
            while (x) {
                int j = (w << 6) | lowbit(x);
                x &= x - 1;
                for (int v = 0; v < W; v++) grown[v] |= s->adj[j][v];
            }
        }
        word touch = 0, any = 0;
        for (int w = 0; w < W; w++) {
            grown[w] &= ~seen[w];
            touch |= grown[w] & merged[w];
        }
        for (int w = 0; w < W; w++) {
            if (touch) grown[w] |= merged[w] & ~seen[w];
            any |= grown[w];
        }
        if (!any) break;
        depth++;
        for (int w = 0; w < W; w++) {
            seen[w] |= grown[w];
            frontier[w] = grown[w];
        }
    }
    int low = -1, pick = -1, pick_color = -1;
    for (int w = 0; w < W && pick < 0; w++) {
        word x = frontier[w];
        while (x) {
            int j = (w << 6) | lowbit(x);
            x &= x - 1;
            int cj = (merged[w] >> (j & 63)) & 1 ? c : s->color[j];
            if (low < 0) low = j;
            if (cj != src_color) {
                pick = j;
                pick_color = cj;
                break;
            }
        }
    }
    if (pick < 0) {
        pick = low;
        pick_color = src_color;
    }
    int in_merged = (merged[pick >> 6] >> (pick & 63)) & 1;
    for (int w = 0; w < W; w++) far[w] = in_merged ? merged[w] : 0;
    if (!in_merged) far[pick >> 6] = (word)1 << (pick & 63);
    *far_color = pick_color;
    return depth;
}

/* The child's pair bound from the same sweeps `far_pairs` makes on the child (start at its
 * lowest region, then the farthest, then the farthest again), measured on the parent with
 * `ecc_merged_w`; it stops once a bound above `within` is measured.  Admissible as
 * `far_pairs` is: each eccentricity is a true shortest-path distance in the child, between
 * the source and the far region whose colour enters pair_term. */
HOT int child_pair_bound_w(const State *s, const word *merged, int c, int goal, int within, const int W) {
    word src[MAXW], far[MAXW];
    int start = -1;
    for (int w = 0; w < W && start < 0; w++)
        if (s->reps[w]) start = (w << 6) | lowbit(s->reps[w]);
    int in_merged = (merged[start >> 6] >> (start & 63)) & 1;
    for (int w = 0; w < W; w++) src[w] = in_merged ? merged[w] : 0;
    if (!in_merged) src[start >> 6] = (word)1 << (start & 63);
    int src_color = in_merged ? c : s->color[start];
    int best = 0;
    for (int sweep = 0; sweep < 3; sweep++) {
        int far_color;
        int d = ecc_merged_w(s, merged, c, src, src_color, far, &far_color, W);
        int t = pair_term(d, src_color, far_color, goal);
        if (t > best) best = t;
        if (best > within) break;
        for (int w = 0; w < W; w++) src[w] = far[w];
        src_color = far_color;
    }
    return best;
}

static int child_pair_bound_1(const State *s, const word *m, int c, int goal, int within) { return child_pair_bound_w(s, m, c, goal, within, 1); }
static int child_pair_bound_2(const State *s, const word *m, int c, int goal, int within) { return child_pair_bound_w(s, m, c, goal, within, 2); }
static int child_pair_bound_3(const State *s, const word *m, int c, int goal, int within) { return child_pair_bound_w(s, m, c, goal, within, 3); }
static int child_pair_bound_n(const State *s, const word *m, int c, int goal, int within, int W) { return child_pair_bound_w(s, m, c, goal, within, W); }

static int child_pair_bound(const State *s, const word *merged, int c, int goal, int within, int W) {
    switch (W) {
    case 1: return child_pair_bound_1(s, merged, c, goal, within);
    case 2: return child_pair_bound_2(s, merged, c, goal, within);
    case 3: return child_pair_bound_3(s, merged, c, goal, within);
    default: return child_pair_bound_n(s, merged, c, goal, within, W);
    }
}

/* ---- stored states: an arena of keys and an open-addressing hash table ------------- */

typedef struct {
    int32_t parent;
    int16_t rep;
    uint8_t color;
    uint8_t g;
    uint8_t h;
} Node;

typedef struct {
    int n;        /* key bytes, hashed and compared */
    int stride;   /* bytes kept per state: the key, then a payload derived from it */
    size_t count, cap;
    uint8_t *keys;
    Node *nodes;
    uint64_t *hashes;
    uint32_t *table; /* node index + 1, 0 = empty */
    size_t tcap;     /* power of two */
} Store;

static uint64_t hash_key(const uint8_t *key, int n) {
    /* Eight bytes at a time, multiply-xorshift mixing; the tail byte by byte. */
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, key + i, 8);
        h = (h ^ v) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    for (; i < n; i++) h = (h ^ key[i]) * 1099511628211ULL;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

static int store_init(Store *st, int n, int stride) {
    memset(st, 0, sizeof(*st));
    st->n = n;
    st->stride = stride;
    st->cap = 1024;
    st->keys = malloc(st->cap * (size_t)stride);
    st->nodes = malloc(st->cap * sizeof(Node));
    st->hashes = malloc(st->cap * sizeof(uint64_t));
    st->tcap = 4096;
    st->table = calloc(st->tcap, sizeof(uint32_t));
    return st->keys && st->nodes && st->hashes && st->table;
}

static void store_free(Store *st) {
    free(st->keys);
    free(st->nodes);
    free(st->hashes);
    free(st->table);
}

static size_t store_bytes(const Store *st) {
    return st->cap * ((size_t)st->stride + sizeof(Node) + sizeof(uint64_t)) + st->tcap * sizeof(uint32_t);
}

/* Index of `key` or -1; *slot is where it is or would go. */
static int64_t store_find(const Store *st, const uint8_t *key, uint64_t h, size_t *slot) {
    size_t mask = st->tcap - 1, i = h & mask;
    for (;;) {
        uint32_t e = st->table[i];
        if (e == 0) {
            *slot = i;
            return -1;
        }
        size_t k = e - 1;
        if (st->hashes[k] == h && memcmp(st->keys + k * st->stride, key, st->n) == 0) {
            *slot = i;
            return (int64_t)k;
        }
        i = (i + 1) & mask;
    }
}

static int store_grow_table(Store *st) {
    size_t tcap = st->tcap * 2;
    uint32_t *t = calloc(tcap, sizeof(uint32_t));
    if (!t) return 0;
    for (size_t k = 0; k < st->count; k++) {
        size_t i = st->hashes[k] & (tcap - 1);
        while (t[i]) i = (i + 1) & (tcap - 1);
        t[i] = (uint32_t)(k + 1);
    }
    free(st->table);
    st->table = t;
    st->tcap = tcap;
    return 1;
}

/* Add a new state (`key` holds `stride` bytes: the key and its payload); returns its index
 * or -1 when out of memory. */
static int64_t store_add(Store *st, const uint8_t *key, uint64_t h, size_t slot) {
    if (st->count == st->cap) {
        size_t cap = st->cap * 2;
        uint8_t *keys = realloc(st->keys, cap * (size_t)st->stride);
        if (!keys) return -1;
        st->keys = keys;
        Node *nodes = realloc(st->nodes, cap * sizeof(Node));
        if (!nodes) return -1;
        st->nodes = nodes;
        uint64_t *hashes = realloc(st->hashes, cap * sizeof(uint64_t));
        if (!hashes) return -1;
        st->hashes = hashes;
        st->cap = cap;
    }
    size_t k = st->count++;
    memcpy(st->keys + k * st->stride, key, st->stride);
    st->hashes[k] = h;
    st->table[slot] = (uint32_t)(k + 1);
    if (st->count * 2 > st->tcap && !store_grow_table(st)) return -1;
    return (int64_t)k;
}

/* Memory the stored states touch: their arena entries and the whole table (the arenas'
 * unused capacity is never written, so it takes no memory). */
static size_t store_used(const Store *st) {
    return st->count * ((size_t)st->stride + sizeof(Node) + sizeof(uint64_t)) + st->tcap * sizeof(uint32_t);
}

/* Keys of the free search: the colour of every original region, in 3 bits when every
 * colour is below 8 (KAMI has at most a handful), in 4 when below 16, else in a byte.
 * Bits past the last region are always 0, so keys are hashed and compared as bytes. */
typedef struct {
    int n, bytes, bits;
} KeyShape;

static KeyShape key_shape(const uint8_t *colors, int n) {
    int top = 0;
    for (int i = 0; i < n; i++)
        if (colors[i] > top) top = colors[i];
    int bits = top < 8 ? 3 : top < 16 ? 4 : 8;
    return (KeyShape){n, (n * bits + 7) / 8, bits};
}

/* The (up to) two bytes holding the 3-bit colour of region i, and its shift in them: its
 * bits straddle two bytes when they start past bit 5. */
static inline unsigned key_bits3(const uint8_t *key, int i, int *b, int *shift) {
    int at = 3 * i;
    *b = at >> 3;
    *shift = at & 7;
    return key[*b] | (*shift > 5 ? (unsigned)key[*b + 1] << 8 : 0u);
}

static inline void key_set(const KeyShape *ks, uint8_t *key, int i, int c) {
    if (ks->bits == 8) {
        key[i] = (uint8_t)c;
    } else if (ks->bits == 4) {
        int shift = (i & 1) * 4;
        key[i >> 1] = (uint8_t)((key[i >> 1] & ~(0x0F << shift)) | (c << shift));
    } else {
        int b, shift;
        unsigned v = key_bits3(key, i, &b, &shift);
        v = (v & ~(7u << shift)) | ((unsigned)c << shift);
        key[b] = (uint8_t)v;
        if (shift > 5) key[b + 1] = (uint8_t)(v >> 8);
    }
}

static void key_pack(const KeyShape *ks, const uint8_t *colors, uint8_t *key) {
    memset(key, 0, ks->bytes);
    for (int i = 0; i < ks->n; i++) key_set(ks, key, i, colors[i]);
}

static void key_unpack(const KeyShape *ks, const uint8_t *key, uint8_t *colors) {
    if (ks->bits == 8) {
        memcpy(colors, key, ks->n);
    } else if (ks->bits == 4) {
        for (int i = 0; i < ks->n; i++) colors[i] = (key[i >> 1] >> ((i & 1) * 4)) & 0x0F;
    } else {
        for (int i = 0; i < ks->n; i++) {
            int b, shift;
            colors[i] = (uint8_t)((key_bits3(key, i, &b, &shift) >> shift) & 7);
        }
    }
}

/* The key of the child where the region with original members `members` takes colour c. */
static inline void child_key(const KeyShape *ks, uint8_t *dst, const uint8_t *src, const word *members, int c, int W) {
    memcpy(dst, src, ks->bytes);
    for (int v = 0; v < W; v++) {
        word y = members[v];
        while (y) {
            key_set(ks, dst, (v << 6) | lowbit(y), c);
            y &= y - 1;
        }
    }
}

/* ---- the queue: buckets by f, then by g (deepest first), LIFO within ------------------ */

typedef struct {
    uint32_t node;
    uint8_t g, h;
} Entry;

typedef struct {
    Entry *items;
    size_t len, cap;
} Stack;

typedef struct {
    Stack b[MAXF][MAXF]; /* [f][g] */
    int top_g[MAXF];     /* highest g that may be non-empty, per f */
    size_t size;
    int min_f;
} Queue;

static int queue_push(Queue *q, int f, Entry e) {
    Stack *s = &q->b[f][e.g];
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        Entry *items = realloc(s->items, cap * sizeof(Entry));
        if (!items) return 0;
        s->items = items;
        s->cap = cap;
    }
    s->items[s->len++] = e;
    if (e.g > q->top_g[f]) q->top_g[f] = e.g;
    if (f < q->min_f) q->min_f = f;
    q->size++;
    return 1;
}

/* Pop from bucket `f` only (deepest first); 0 when it is empty. */
static int queue_pop_at(Queue *q, int f, Entry *e) {
    while (q->top_g[f] >= 0) {
        Stack *s = &q->b[f][q->top_g[f]];
        if (s->len) {
            *e = s->items[--s->len];
            q->size--;
            return 1;
        }
        q->top_g[f]--;
    }
    return 0;
}

/* Pop an entry of the lowest f (deepest first); 0 when the queue is empty. */
static int queue_pop(Queue *q, int *f, Entry *e) {
    if (q->size == 0) return 0;
    while (!queue_pop_at(q, q->min_f, e)) q->min_f++;
    *f = q->min_f;
    return 1;
}

static void queue_free(Queue *q) {
    for (int f = 0; f < MAXF; f++)
        for (int g = 0; g < MAXF; g++) free(q->b[f][g].items);
    free(q);
}

/* ---- the search ---------------------------------------------------------------------- */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Limits of a search.  Ctrl-C (KeyboardInterrupt) stops it like a limit and sets
 * `interrupted`, so the caller still gets the bound and the best answer found. */
typedef struct {
    double started, max_seconds;
    long long max_nodes, max_bytes;
    PyObject *progress;
    int interrupted;
} Limits;

/* A Python error during a check: Ctrl-C (raised by the signal check or inside the
 * progress callback) stops like a limit (1); any other error is passed on (-1). */
static int python_error(Limits *lim) {
    if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) return -1;
    PyErr_Clear();
    lim->interrupted = 1;
    return 1;
}

/* The time, Ctrl-C, the progress callback and memory, checked now: 0, 1 or -1 as below. */
static int limits_now(Limits *lim, long long expanded, int f, const Store *st) {
    double el = now() - lim->started;
    if (PyErr_CheckSignals() < 0) return python_error(lim);
    if (lim->progress != Py_None) {
        PyObject *r = PyObject_CallFunction(lim->progress, "Lid", expanded, f, el);
        if (!r) return python_error(lim);
        Py_DECREF(r);
    }
    if (lim->max_seconds >= 0 && el > lim->max_seconds) return 1;
    if (lim->max_bytes >= 0 && (long long)store_bytes(st) > lim->max_bytes) return 1;
    return 0;
}

/* Checked every 4096 expansions (the node limit every time): 0 to go on, 1 when a limit
 * stops the search, -1 on a Python error other than Ctrl-C. */
static int over_limits(Limits *lim, long long expanded, int f, const Store *st) {
    if ((expanded & 4095) == 0) {
        int over = limits_now(lim, expanded, f, st);
        if (over) return over;
    }
    return lim->max_nodes >= 0 && expanded > lim->max_nodes;
}

static PyObject *trace(const Store *st, int64_t k, int rep, int color) {
    int len = 1;
    for (int64_t j = k; st->nodes[j].parent >= 0; j = st->nodes[j].parent) len++;
    PyObject *path = PyList_New(len);
    if (!path) return NULL;
    PyList_SET_ITEM(path, len - 1, Py_BuildValue("(ii)", rep, color));
    int i = len - 2;
    for (int64_t j = k; st->nodes[j].parent >= 0; j = st->nodes[j].parent, i--)
        PyList_SET_ITEM(path, i, Py_BuildValue("(ii)", st->nodes[j].rep, st->nodes[j].color));
    return path;
}

/* ---- an anytime answer when a limit stops the search ---------------------------------- */

/* Greedy dives from the most promising open states (lowest f, deepest first): from each,
 * repeatedly take the move whose child has the smallest bound (then the fewest regions)
 * until one region of an allowed colour remains.  Returns the best path as a Python list,
 * or None.  Not a proof of anything: only used to give a good unproven solution. */
static PyObject *dives(const Island *is, const KeyShape *ks, Store *st, Queue *q, State *s, int16_t (*dbuf)[MAXN], int tries) {
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
out:;
    PyObject *result = NULL;
    if (best_node >= 0) {
        int head = 0;
        for (int64_t j = best_node; st->nodes[j].parent >= 0; j = st->nodes[j].parent) head++;
        result = PyList_New(head + best_prefix);
        if (result) {
            int i = head - 1;
            for (int64_t j = best_node; st->nodes[j].parent >= 0; j = st->nodes[j].parent, i--)
                PyList_SET_ITEM(result, i, Py_BuildValue("(ii)", st->nodes[j].rep, st->nodes[j].color));
            for (int k = 0; k < best_prefix; k++)
                PyList_SET_ITEM(result, head + k, Py_BuildValue("(ii)", best_rep[k], best_col[k]));
        }
    }
    free(key);
    free(rep_path);
    free(col_path);
    free(best_rep);
    free(best_col);
    return result;
}

/* ---- when memory is full: depth-first searches from the open states -------------------
 *
 * A*+IDA* (Bu and Korf, IJCAI 2019): when the stored states reach the memory allowed, the
 * search goes on without storing more.  For thresholds T = f, f + 1, ... below `limit`, a
 * depth-first search with threshold T (prune a state when g + h > T) runs from every open
 * state whose f is at most T.  No solution of length <= T is missed: a solution path
 * leaves the stored states at some point, and the last stored state on it either still
 * has its queue entry (a state goes back to the queue for the children its partial
 * expansion skipped) or stored that next state as its child.  So every solution of length
 * <= T passes through an open state with f <= T, below which the depth-first search follows
 * it (its bounds are admissible, so it is never pruned).  A child found in the store with
 * g no larger is skipped: it is an open state itself, or was expanded and is covered the
 * same way.  A child seen before in this threshold's searches with g no larger is skipped
 * too: its subtree was searched with at least as much room (a lossy table of such states,
 * `Seen`, is kept in the memory left; a state it loses is searched again, which costs
 * time, never a solution).  When a threshold finishes without a solution, T + 1 is a
 * proven lower bound; a solution found at threshold T is optimal, as T - 1 was finished. */

/* States seen in this threshold's searches, with the least g: a lossy table of two slots
 * per bucket.  A new state takes an empty slot (one of an earlier threshold counts as
 * empty) or else the one of the two with the larger g: a state nearer the open state heads
 * a larger subtree, so it is the more useful to remember.  Losing an entry costs a search
 * again, never a solution. */
typedef struct {
    uint64_t hash;
    uint16_t gen; /* the threshold (generation) it was seen in */
    uint8_t g;
} SeenHead;

typedef struct {
    uint8_t *slots; /* 2 * (mask + 1) slots of `stride` bytes: a SeenHead, then the key */
    size_t mask;
    int key_bytes, stride;
    uint16_t gen;
} Seen;

static int seen_init(Seen *t, int key_bytes, long long bytes) {
    t->key_bytes = key_bytes;
    t->stride = (int)((sizeof(SeenHead) + key_bytes + 7) / 8 * 8);
    size_t buckets = 512;
    while ((long long)(buckets * 2) * 2 * t->stride <= bytes) buckets *= 2;
    t->mask = buckets - 1;
    t->gen = 1;
    t->slots = calloc(buckets * 2, t->stride);
    return t->slots != NULL;
}

static void seen_free(Seen *t) { free(t->slots); }

/* Forget everything (a new threshold): a new generation, the slots wiped only when the
 * generations wrap. */
static void seen_reset(Seen *t) {
    if (++t->gen == 0) {
        memset(t->slots, 0, (t->mask + 1) * 2 * t->stride);
        t->gen = 1;
    }
}

/* 1 when `key` was seen with g <= ng (its subtree was searched with at least as much
 * room); otherwise it is recorded with g = ng and 0 is returned. */
static int seen_check(Seen *t, const uint8_t *key, uint64_t h, int ng) {
    uint8_t *bucket = t->slots + (h & t->mask) * 2 * t->stride;
    SeenHead *a = (SeenHead *)bucket, *b = (SeenHead *)(bucket + t->stride);
    for (int i = 0; i < 2; i++) {
        SeenHead *e = i ? b : a;
        if (e->gen == t->gen && e->hash == h && !memcmp(e + 1, key, t->key_bytes)) {
            if (e->g <= ng) return 1;
            e->g = (uint8_t)ng;
            return 0;
        }
    }
    SeenHead *v;
    if (a->gen != t->gen) v = a;
    else if (b->gen != t->gen) v = b;
    else v = a->g > b->g ? a : b;
    v->hash = h;
    v->gen = t->gen;
    v->g = (uint8_t)ng;
    memcpy(v + 1, key, t->key_bytes);
    return 0;
}

typedef struct {
    const Island *is;
    const KeyShape *ks;
    const Store *st;
    Seen seen;              /* states seen in this threshold's searches */
    State *states;          /* one per depth */
    uint8_t *keys;          /* packed key per depth */
    uint8_t *colors;        /* unpacked scratch */
    int16_t (*dbuf)[4][MAXN];
    Pairs *pairs;
    word (*groups)[256][MAXW];
    uint8_t (*gcolors)[256];
    int16_t rep_path[MAXF];
    uint8_t col_path[MAXF];
    int found;              /* moves below the open state on the path found */
    Limits *lim;            /* NULL in the helper thread, which watches `share` instead */
    long long *expanded;
    int error;
    struct DeepShare *share; /* with two threads: the open states both take from */
    long index;             /* which of them this search is under */
} Deep;

static int deep_init(Deep *x, const Island *is, const KeyShape *ks, const Store *st, Limits *lim,
                     long long *expanded, long long bytes) {
    memset(x, 0, sizeof(*x));
    x->is = is;
    x->ks = ks;
    x->st = st;
    x->lim = lim;
    x->expanded = expanded;
    x->states = malloc(sizeof(State) * MAXF);
    x->keys = malloc((size_t)ks->bytes * MAXF);
    x->colors = malloc(is->n);
    x->dbuf = malloc(sizeof(*x->dbuf) * MAXF);
    x->pairs = malloc(sizeof(Pairs) * MAXF);
    x->groups = malloc(sizeof(*x->groups) * MAXF);
    x->gcolors = malloc(sizeof(*x->gcolors) * MAXF);
    int ok = seen_init(&x->seen, ks->bytes, bytes);
    return ok && x->states && x->keys && x->colors && x->dbuf && x->pairs && x->groups && x->gcolors;
}

static void deep_free(Deep *x) {
    seen_free(&x->seen);
    free(x->states);
    free(x->keys);
    free(x->colors);
    free(x->dbuf);
    free(x->pairs);
    free(x->groups);
    free(x->gcolors);
}

static int deep_abandon(const Deep *x);

/* The search below the state whose packed key is x->keys[depth], reached with g moves:
 * 1 when a solution within T is found (its moves below the open state in x->rep_path,
 * x->col_path, x->found), 0 when there is none, -1 when a limit stops it (x->error set on
 * a Python error), -2 when it is abandoned (see deep_abandon). */
static int deep(Deep *x, int depth, int g, int T) {
    const Island *is = x->is;
    const KeyShape *ks = x->ks;
    int W = is->W, goal = is->goal;
    if (depth + 1 >= MAXF) return 0;
    State *s = &x->states[depth];
    const uint8_t *pk = x->keys + (size_t)depth * ks->bytes;
    key_unpack(ks, pk, x->colors);
    contract(is, x->colors, s);
    int counts[256];
    int npresent = count_colors(s, W, counts);
    int h = goal < 0 ? npresent - 1 : npresent - (counts[goal] ? 1 : 0);
    if (g + h > T) return 0;
    Pairs *pairs = &x->pairs[depth];
    int pb = far_pairs(is, s, x->dbuf[depth], pairs, T - g);
    if (pb > h) h = pb;
    h = winding_bound(is, s, pairs, T - g, h, NULL);
    if (g + h > T) return 0;
    (*x->expanded)++;
    if (x->lim) {
        int over = over_limits(x->lim, *x->expanded, T, x->st);
        if (over) {
            if (over < 0) x->error = 1;
            return -1;
        }
    }
    if (deep_abandon(x)) return -2;
    int ng = g + 1;
    word (*groups)[MAXW] = x->groups[depth];
    uint8_t *gcolors = x->gcolors[depth];
    uint8_t *ck = x->keys + (size_t)(depth + 1) * ks->bytes;
    Moves mv;
    moves_begin(&mv, s);
    while (moves_next(&mv, s, W, groups, gcolors)) {
        int r = mv.r, c = gcolors[mv.k];
        const word *merged = groups[mv.k];
        if (same_set(merged, s->reps, W)) {
            if (goal < 0 || c == goal) {
                x->rep_path[depth] = (int16_t)r;
                x->col_path[depth] = (uint8_t)c;
                x->found = depth + 1;
                return 1;
            }
            continue;
        }
        int left = colors_left_after(counts, npresent, s->color[r], c, goal);
        int hc = left > h - 1 ? left : h - 1;
        if (ng + hc > T) continue;
        if (ng + pair_bound_after(pairs, s, merged, c, goal, W) > T) continue;
        child_key(ks, ck, pk, s->members[r], c, W);
        uint64_t hk = hash_key(ck, ks->bytes);
        size_t slot;
        int64_t old = store_find(x->st, ck, hk, &slot);
        if (old >= 0 && x->st->nodes[old].g <= ng) continue;
        if (seen_check(&x->seen, ck, hk, ng)) continue;
        x->rep_path[depth] = (int16_t)r;
        x->col_path[depth] = (uint8_t)c;
        int res = deep(x, depth + 1, ng, T);
        if (res) return res;
    }
    return 0;
}

/* The path to stored state `node` followed by the moves x found below it. */
static PyObject *deep_path(const Store *st, int64_t node, const Deep *x) {
    int head = 0;
    for (int64_t j = node; st->nodes[j].parent >= 0; j = st->nodes[j].parent) head++;
    PyObject *path = PyList_New(head + x->found);
    if (!path) return NULL;
    int i = head - 1;
    for (int64_t j = node; st->nodes[j].parent >= 0; j = st->nodes[j].parent, i--)
        PyList_SET_ITEM(path, i, Py_BuildValue("(ii)", st->nodes[j].rep, st->nodes[j].color));
    for (int k = 0; k < x->found; k++)
        PyList_SET_ITEM(path, head + k, Py_BuildValue("(ii)", x->rep_path[k], x->col_path[k]));
    return path;
}


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
    WindPair wind;
    word groups[256][MAXW];
    uint8_t gcolors[256];
} Scratch;

static int scratch_init(Scratch *x, int n, int key_bytes) {
    x->s = malloc(sizeof(State));
    x->dbuf = malloc(sizeof(int16_t) * 4 * MAXN);
    x->colors = malloc(n);
    x->pkey = malloc(key_bytes);
    return x->s && x->dbuf && x->colors && x->pkey;
}

static void scratch_free(Scratch *x) {
    free(x->s);
    free(x->dbuf);
    free(x->colors);
    free(x->pkey);
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
    atomic_int next, left, gen, sleeping, quit;
    atomic_int ack; /* the last generation the helper has finished with */
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

/* The bound of the state whose colours are in x->colors, reached with g moves, from the
 * bound h it inherited: its colour bound, then its pair bound unless it is already over
 * `within` (g + h > within: the caller skips it or puts it off).  Leaves the state
 * contracted in x->s, with x->counts (and x->pairs when the pair bound ran) set for its
 * moves, and the number of colours present in *npresent. */
static int state_bound(const Island *is, Scratch *x, int g, int h, int within, int *npresent) {
    int W = is->W, goal = is->goal;
    contract(is, x->colors, x->s);
    int present = count_colors(x->s, W, x->counts);
    int cb = goal < 0 ? present - 1 : present - (x->counts[goal] ? 1 : 0);
    if (cb > h) h = cb;
    if (g + h <= within) {
        int pb = far_pairs(is, x->s, x->dbuf, &x->pairs, within - g);
        if (pb > h) h = pb;
        h = winding_bound(is, x->s, &x->pairs, within - g, h, &x->wind);
    }
    *npresent = present;
    return h;
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
    if (st->nodes[e.node].g != e.g) { /* reached again by a shorter path since */
        j->kind = JOB_STALE;
        return 0;
    }
    int g = e.g, h = e.h;
    memcpy(x->pkey, st->keys + (size_t)e.node * ks->bytes, ks->bytes);
    key_unpack(ks, x->pkey, x->colors);
    int npresent;
    h = state_bound(is, x, g, h, f, &npresent); /* stops early once it must wait for a later turn */
    j->h = h;
    if (g + h > f) {
        j->kind = JOB_REQUEUE;
        return 0;
    }
    j->kind = JOB_EXPAND;
    int ng = g + 1, inherited = h - 1;
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
        if (ng + hc >= limit) continue;
        if (ng + hc <= f) {
            int hd = pair_bound_after(&x->pairs, s, merged, c, goal, W);
            if (hd > hc) hc = hd;
            if (ng + hc <= f && x->wind.on) {
                hd = wind_after(&x->wind, s, is->wind, merged, c, W);
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
        atomic_fetch_sub(&b->left, 1);
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
        if (b->task) {
            b->task(b->task_arg);
            atomic_store(&b->left, 0);
        } else {
            batch_share(b, &b->wx);
        }
        atomic_store(&b->ack, seen);
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
        if (!scratch_init(&b->wx, is->n, ks->bytes)) return 0;
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
/* Wake the helper for the next batch (or task). */
static void batch_wake(Batch *b) {
    atomic_fetch_add(&b->gen, 1);
    if (atomic_load(&b->sleeping)) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
    }
}

/* Wait until the jobs are done and the helper is done with this generation.  Waiting for
 * `left` alone is not enough: a helper that woke up late, for a generation whose jobs the
 * main thread had done alone, could take jobs of the next one before the main thread had
 * counted them in `left`, and a decrement lost that way left the search waiting forever
 * (seen on Bud6 after some minutes).  With the acknowledgement the helper never runs into
 * the next generation's jobs. */
static void batch_wait(Batch *b) {
    while (atomic_load(&b->left) > 0 || atomic_load(&b->ack) != atomic_load(&b->gen)) {
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
        atomic_store(&b->left, b->njobs);
        batch_wake(b);
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
        if (res == -1) { /* a limit or a Python error (main thread only) */
            __atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
            return -1;
        }
        if (res == -2) return 0; /* abandoned: a solution under an earlier state, or a stop */
    }
}

static void deep_helper_task(void *arg) {
    DeepShare *sh = arg;
    deep_take(sh, sh->helper);
}

/* Thresholds from `f` up to `limit - 1`: sets *status (0 found, 1 none below limit, 2
 * stopped), *bound and *path; returns 0, or -1 on a Python error or no memory.  `y` is the
 * helper thread's workspace, or NULL for one thread. */
static int deep_phase(Deep *x, Deep *y, Batch *bt, Queue *q, const Store *st, int f, int limit, int *status,
                      int *bound, PyObject **path) {
    DeepShare sh;
    memset(&sh, 0, sizeof(sh));
    sh.st = st;
    sh.helper = y;
    sh.list = malloc(sizeof(Entry) * (q->size + 1));
    if (!sh.list) return -1;
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
            atomic_store(&bt->left, 1);
            batch_wake(bt);
            helping = 1;
        }
#endif
        int res = deep_take(&sh, x);
        int mine = res > 0; /* x found one, under x->index */
#ifdef KV_THREADS
        if (helping) {
            /* Wait for the helper, watching the limits (its search may take long). */
            for (int tick = 1; atomic_load(&bt->left) > 0 || atomic_load(&bt->ack) != atomic_load(&bt->gen); tick++) {
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
            *path = deep_path(st, sh.list[sh.best].node, w);
            *status = 0;
            free(sh.list);
            return *path ? 0 : -1;
        }
        if (res < 0) {
            *status = 2;
            *bound = T;
            free(sh.list);
            return x->error ? -1 : 0;
        }
        *bound = T + 1;
    }
    free(sh.list);
    *status = 1;
    return 0;
}

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
 * known.  The bound of a state is the largest of its colour and pair bounds and what its
 * parents' bounds imply (h - 1 from a parent of bound h: one move lowers the optimum by
 * at most one), all admissible; so a state pruned by
 * g + h > T has no solution within T below it, and when the sweep ends without one none
 * is within T.  A solution found lowers T to one less than its length, so the one
 * returned is the shortest within the first T.
 *
 * Moves that commute are taken in one order only.  Each stored state keeps the move that
 * reached it (LM_ALL when it was reached with its least g by two different moves, and at
 * the root).  Let m = (r, c) be that move, M the region it made and N[M] that region with
 * its neighbours.  A move m' = (r', c') that makes the set S' one region is skipped when
 * S' misses N[M] and (r', c') comes before (r, c) (region first, then colour):
 * - m and m' commute: S' misses M and M's neighbours, which were the neighbours of the
 *   regions m merged, so before m, r' had the same neighbours with the same colours and m'
 *   merged the same S'; after m', r is still a neighbour of the same regions (none of S'
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
 * cut by the bounds), never a needed one.  tests/test_solver.py checks the sweep against
 * breadth-first search on random small boards. */

/* A layer's states: the keys (and, with moves, each state's moves after its key) in an
 * arena, g and h in another, and an open-addressing table of their indices, each tagged
 * with 4 bits of its hash so that few probes compare keys.  No hashes or parent links are
 * kept (a grown table hashes the keys again): about 40 % less memory than a Store. */
#define LAYER_TAG 28 /* index bits in a table entry; the top 4 are the tag */
#define LAYER_MAX ((1u << LAYER_TAG) - 2)

#define LM_ALL 0xFFFF /* no move kept: all moves are taken */

/* A move's name for the order of commuting moves: its region, then its colour.  A colour
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

/* A move kept after a state's key: its region (two bytes, low first), then its colour. */
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
    h = state_bound(is, x, g, h, T, &npresent);
    j->h = h;
    if (g + h > T) return 0;
    j->expand = 1;
    int ng = g + 1, inherited = h - 1;
    int last = ch->commute ? L->lm[k] : LM_ALL;
    word near[MAXW]; /* N[M]: the region the last move made, and its neighbours */
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
        atomic_store(&bt->left, 1);
        batch_wake(bt);
    }
#else
    (void)bt;
    (void)ch;
#endif
}

/* Wait until the helper is done with the chunk it was given (it is finishing its last
 * parent: spin briefly, then yield the core, which it may need on a busy machine). */
static void sweep_join(Batch *bt) {
#ifdef KV_THREADS
    if (!bt->has_worker) return;
    for (int spins = 0; atomic_load(&bt->left) > 0 || atomic_load(&bt->ack) != atomic_load(&bt->gen); spins++) {
        if (spins >= 2000) {
            sched_yield();
            continue;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
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

/* Returns 1 with *path set when a solution within *T is found (*T is then its length),
 * 0 when there is none, -1 when a limit (or memory: *full set) stops it, -2 on an error. */
static int sweep(const Island *is, const KeyShape *ks, const uint8_t *colors, int *T_io, int paths, int shown,
                 int threads, int commute, Limits *lim, long long *expanded, long long max_bytes,
                 int *full, PyObject **path) {
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
    if (!ly || !chunks || !bt || !ck || !best || !scratch_init(&mx, n, kb) ||
        !(batch_ok = batch_init(bt, is, ks, NULL, 0, threads))) {
        result = -2;
        PyErr_NoMemory();
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
                    result = over < 0 ? -2 : -1;
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
    if (result >= 0 && best_len >= 0 && !paths) {
        *path = PyList_New(0); /* its length is *T_io */
        *T_io = best_len;
        result = *path ? 1 : -2;
    } else if (result >= 0 && best_len >= 0) {
        *path = PyList_New(best_len);
        if (!*path) {
            result = -2;
        } else {
            for (int i = 0; i < best_len; i++) {
                int r = best[3 * i] | (best[3 * i + 1] << 8);
                PyList_SET_ITEM(*path, i, Py_BuildValue("(ii)", r, best[3 * i + 2]));
            }
            *T_io = best_len;
            result = 1;
        }
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

/* The weights of orientation `number` (heuristics.orientation) for the search, or NULL
 * for none (number < 0, or more than 16 colours). */
static const Winding *winding_for(const uint8_t *colors, Py_ssize_t n, int number, Winding *wd) {
    if (number < 0) return NULL;
    int k = rank_colors(colors, (int)n, wd);
    if (k > 16) return NULL;
    winding_of(k, number, wd);
    return wd;
}

/* choose_orientation(colors, adjacency, words): the number of the orientation that
 * heuristics.choose_orientation picks for the island's first state (the first of the
 * greatest weighted distance between two regions), or -1. */
static PyObject *core_choose_orientation(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W;
    if (!PyArg_ParseTuple(args, "y#y#i", &colors, &n, &adjacency, &adj_len, &W)) return NULL;
    if (W < 1 || W > MAXW || n < 1 || n > 64 * W || adj_len != n * W * 8) {
        PyErr_SetString(PyExc_ValueError, "island too large or adjacency of the wrong size");
        return NULL;
    }
    Island is = {(int)n, W, (const word *)adjacency, -1, 0, NULL};
    State *s = malloc(sizeof(State));
    int16_t(*buf)[MAXN] = malloc(4 * sizeof(*buf));
    Split *sp = malloc(sizeof(Split));
    if (!s || !buf || !sp) {
        free(s);
        free(buf);
        free(sp);
        return PyErr_NoMemory();
    }
    contract(&is, colors, s);
    word cls[16][MAXW];
    int cols[16], best = -1, choice = -1;
    Winding wd;
    int ncol = rank_colors(colors, (int)n, &wd);
    if (ncol <= 16) ncol = color_classes(s, &wd, W, cls, cols);
    if (ncol >= 3 && ncol <= 16 && popcount_w(s->reps, W) > 1) {
        Pairs p;
        far_pairs(&is, s, buf, &p, -1);
        int centre = centre_of(s, &p, W);
        int pairs = ncol * (ncol - 1) / 2;
        long count = pairs >= 10 ? MAX_ORIENTATIONS : 1L << pairs;
        if (count > MAX_ORIENTATIONS) count = MAX_ORIENTATIONS;
        for (int number = 0; number < count; number++) {
            winding_of(ncol, number, &wd);
            int seen, source;
            split_edges(s, &wd, cls, cols, ncol, sp, W);
            int d = wfar(s, sp, centre, -1, 1 << 20, &seen, &source, W);
            if (d > best) {
                best = d;
                choice = number;
            }
        }
    }
    free(s);
    free(buf);
    free(sp);
    return PyLong_FromLong(choice);
}

/* sweep(colors, adjacency, words, goal, T, max_nodes, max_seconds, max_bytes, progress, paths,
 *       shown, threads, orientation, commute) -> (status, path, expanded,
 *       length): status 0 a
 * solution found, the shortest within T (its moves in path when `paths`, else an empty
 * list; its length in `length`), 1 none within T, 2 stopped by a limit, 3 by Ctrl-C, 4 by
 * memory.  `shown` is the bound the progress callback is given (the sweep proves nothing
 * until it ends); `orientation` as astar's; `commute` 0 takes commuting moves in both
 * orders (for tests and benchmarks; default 1). */
static PyObject *core_sweep(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W, goal, T;
    long long max_nodes, max_bytes;
    double max_seconds;
    PyObject *progress;
    int paths = 1, shown = 0, threads = 1, orientation = -1, commute = 1;
    if (!PyArg_ParseTuple(args, "y#y#iiiLdLO|iiiii", &colors, &n, &adjacency, &adj_len, &W, &goal, &T, &max_nodes,
                          &max_seconds, &max_bytes, &progress, &paths, &shown, &threads, &orientation, &commute))
        return NULL;
    if (W < 1 || W > MAXW || n < 1 || n > 64 * W || adj_len != n * W * 8 || T < 0 || T >= MAXF - 2) {
        PyErr_SetString(PyExc_ValueError, "island too large, adjacency of the wrong size or T out of range");
        return NULL;
    }
    int small_colors = goal < 64;
    for (Py_ssize_t i = 0; i < n; i++)
        if (colors[i] >= 64) small_colors = 0;
    Winding wd;
    Island is = {(int)n, W, (const word *)adjacency, goal, small_colors, winding_for(colors, n, orientation, &wd)};
    KeyShape ks = key_shape(colors, (int)n);
    Limits lim = {now(), max_seconds, max_nodes, -1, progress, 0};
    long long expanded = 0;
    int full = 0;
    PyObject *path = NULL;
    int res = sweep(&is, &ks, colors, &T, paths, shown, threads, commute, &lim, &expanded, max_bytes, &full, &path);
    if (res == -2) {
        Py_XDECREF(path);
        return NULL;
    }
    int status = res == 1 ? 0 : res == 0 ? 1 : full ? 4 : lim.interrupted ? 3 : 2;
    if (!path) {
        path = Py_None;
        Py_INCREF(path);
    }
    return Py_BuildValue("(iNLi)", status, path, expanded, status == 0 ? T : -1);
}

static PyObject *core_astar(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W, goal, limit;
    long long max_nodes, max_bytes;
    double max_seconds;
    PyObject *progress;
    int dive_tries = 64, threads = 1;
    PyObject *improve = Py_None;
    int on_full_return = 0; /* when the stored states fill their share: 1 return (status 4), 0 go depth-first */
    int orientation = -1;
    if (!PyArg_ParseTuple(args, "y#y#iiiLdLO|iiOii", &colors, &n, &adjacency, &adj_len, &W, &goal, &limit,
                          &max_nodes, &max_seconds, &max_bytes, &progress, &dive_tries, &threads, &improve,
                          &on_full_return, &orientation))
        return NULL;
    if (W < 1 || W > MAXW || n < 1 || n > 64 * W || adj_len != n * W * 8) {
        PyErr_SetString(PyExc_ValueError, "island too large or adjacency of the wrong size");
        return NULL;
    }
    if (limit < 0 || limit >= MAXF - 2) limit = MAXF - 2;

    int small_colors = goal < 64;
    for (Py_ssize_t i = 0; i < n; i++)
        if (colors[i] >= 64) small_colors = 0;
    Winding wd;
    Island is = {(int)n, W, (const word *)adjacency, goal, small_colors, winding_for(colors, n, orientation, &wd)};
    KeyShape ks = key_shape(colors, (int)n);
    Scratch mx;
    int ok = scratch_init(&mx, (int)n, ks.bytes);
    Queue *q = calloc(1, sizeof(Queue));
    Batch *bt = malloc(sizeof(Batch));
    Store st;
    int stored = ok && q && bt && store_init(&st, ks.bytes, ks.bytes);
    if (!stored || !batch_init(bt, &is, &ks, &st, limit, threads)) {
        if (stored) {
            batch_free(bt);
            store_free(&st);
        }
        scratch_free(&mx);
        free(bt);
        if (q) queue_free(q);
        return PyErr_NoMemory();
    }
    for (int f = 0; f < MAXF; f++) q->top_g[f] = -1;
    q->min_f = MAXF - 1;

    /* Memory: the stored states may take 60 % of max_bytes; then depth-first searches
     * from the open states go on (deep_phase) with a table of up to 25 % of it. */
    Limits lim = {now(), max_seconds, max_nodes, -1, progress, 0};
    long long astar_bytes = max_bytes >= 0 ? max_bytes / 100 * 60 : -1;
    long long expanded = 0;
    int status = 1, bound = 0;
    PyObject *path = NULL;
    int error = 0;

    /* The root. */
    size_t slot;
    key_pack(&ks, colors, mx.pkey);
    uint64_t h0hash = hash_key(mx.pkey, ks.bytes);
    store_find(&st, mx.pkey, h0hash, &slot);
    int64_t root = store_add(&st, mx.pkey, h0hash, slot);
    st.nodes[root] = (Node){-1, -1, 0, 0, 0};
    queue_push(q, 0, (Entry){(uint32_t)root, 0, 0});

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
                    if (!queue_push(q, g + h, (Entry){e.node, (uint8_t)g, (uint8_t)h})) goto nomem;
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
                if (over < 0) error = 1;
                status = 2;
                bound = f;
                batch_return(bt, q, i); /* for the dives */
                goto done;
            }
            if (j->goal_r >= 0) {
                path = trace(&st, e.node, j->goal_r, j->goal_c);
                if (!path) error = 1;
                status = 0;
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
                if (fc < limit && !queue_push(q, fc, (Entry){(uint32_t)k2, (uint8_t)ng, kid->hc})) goto nomem;
            }
            if (j->next_f < limit && !queue_push(q, j->next_f, (Entry){e.node, (uint8_t)g, (uint8_t)h})) goto nomem;
        }
    }
    status = 1;
    goto done;
deep:
    if (on_full_return) { /* the caller sweeps (see `sweep`) or calls again to go depth-first */
        status = 4;
        bound = f;
        goto done;
    }
    {
    /* The last threshold's depth-first search must find a solution of that length, which
     * can take far longer than ruling out the shorter ones: a better solution found now
     * (by the caller's `improve`) lowers the limit, and the search ends once the bound
     * reaches it. */
    if (improve != Py_None) {
        PyObject *r = PyObject_CallFunction(improve, "iL", f, expanded);
        if (!r) {
            if (python_error(&lim) < 0) error = 1;
            status = 2;
            bound = f;
            goto done;
        }
        long better = r == Py_None ? limit : PyLong_AsLong(r);
        Py_DECREF(r);
        if (better == -1 && PyErr_Occurred()) {
            error = 1;
            goto done;
        }
        if (better < limit) limit = (int)better;
        if (f >= limit) { /* no solution shorter than the better one */
            status = 1;
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
    if (ok_deep && ok_y && deep_phase(&x, two ? &y : NULL, bt, q, &st, f, limit, &status, &bound, &path) < 0)
        error = 1;
    deep_free(&x);
    if (two) deep_free(&y);
    if (!ok_deep || !ok_y) goto nomem;
    goto done;
}
nomem:
    status = 2;
    bound = f;
done:
    batch_free(bt);
    free(bt);
    if (status == 2 && !error && !path && dive_tries > 0) {
        /* The stopped search leaves its best-f states in the queue: dive from them. */
        path = dives(&is, &ks, &st, q, mx.s, mx.dbuf, dive_tries);
    }
    store_free(&st);
    queue_free(q);
    scratch_free(&mx);
    if (error) {
        Py_XDECREF(path);
        return NULL;
    }
    if (status == 1 && limit < MAXF - 2) bound = limit;
    if (status == 2 && lim.interrupted) status = 3;
    if (!path) {
        path = Py_None;
        Py_INCREF(path);
    }
    return Py_BuildValue("(iNLi)", status, path, expanded, bound);
}

/* ---- fixed pivot (Flood-It): A* on flood sets with the layered bound ------------------ *
 * The same search as kamivision.solver.pivot (whose docstrings prove the bound admissible
 * and the complete-colour pruning exact).
 *
 *   pivot_astar(colors, adjacency, words, start, max_nodes, max_seconds, max_bytes, progress)
 *   returns (status, colours, expanded, bound): status 0 solved optimally (colours is the
 *   sequence), 2 stopped by a limit (colours None, bound the lower bound reached), 3 as 2
 *   but stopped by Ctrl-C.  Memory as the free search's: stored states take up to 60 % of
 *   max_bytes, then the search goes on depth-first (pivot_deep_phase) with a table of 25 %. */

typedef struct {
    int n, W, ncol;
    const word *adj;
    word by_color[256][MAXW];
    uint8_t color_of[256]; /* colour id of each colour slot */
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

/* The neighbours of the regions in `set`, or-ed into `out`. */
HOT void add_neighbours(const Pivot *p, const word *set, word *out, const int W) {
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
        add_neighbours(p, added, grown, W);
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

/* A colour whose every region left is on the frontier (its slot), or -1: when there is one,
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
    uint8_t path[MAXF]; /* colours chosen below the open state */
    int found;          /* how many, when a solution is found */
    int error;
} PivotDeep;

/* 1 with x->path, x->found set when a solution within T is below `flood`, 0 when none,
 * -1 when a limit stops the search (x->error set on a Python error). */
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
        add_neighbours(p, taken, child_frontier, W);
        for (int w = 0; w < W; w++) child_frontier[w] &= ~child[w];
        int res = pivot_deep(x, child, child_frontier, depth + 1, ng, h - 1, T);
        if (res) return res;
    }
    return 0;
}

/* Thresholds from f over the open states: 0 with *path set (the optimum), or -1 when a
 * limit stops it (*bound: the threshold reached) or on an error (x->error). */
static int pivot_deep_phase(PivotDeep *x, Queue *q, const Store *st, int f, int *bound, PyObject **path) {
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
                        int head = en.g;
                        *path = PyList_New(head + x->found);
                        if (!*path) {
                            x->error = 1;
                            return -1;
                        }
                        int j = head - 1;
                        for (int64_t k = en.node; st->nodes[k].parent >= 0; k = st->nodes[k].parent, j--)
                            PyList_SET_ITEM(*path, j, PyLong_FromLong(st->nodes[k].color));
                        for (int d = 0; d < x->found; d++)
                            PyList_SET_ITEM(*path, head + d, PyLong_FromLong(x->path[d]));
                        return 0;
                    }
                }
            }
    }
    return -1;
}

static PyObject *core_pivot_astar(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W, start;
    long long max_nodes, max_bytes;
    double max_seconds;
    PyObject *progress;
    if (!PyArg_ParseTuple(args, "y#y#iiLdLO", &colors, &n, &adjacency, &adj_len, &W, &start, &max_nodes,
                          &max_seconds, &max_bytes, &progress))
        return NULL;
    if (W < 1 || W > MAXW || n < 1 || n > 64 * W || adj_len != n * W * 8 || start < 0 || start >= n) {
        PyErr_SetString(PyExc_ValueError, "board too large or adjacency of the wrong size");
        return NULL;
    }
    Pivot *p = calloc(1, sizeof(Pivot));
    Queue *q = calloc(1, sizeof(Queue));
    Store st;
    if (!p || !q || !store_init(&st, W * 8, 2 * W * 8)) {
        free(p);
        if (q) queue_free(q);
        return PyErr_NoMemory();
    }
    p->n = (int)n;
    p->W = W;
    p->adj = (const word *)adjacency;
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
    Limits lim = {now(), max_seconds, max_nodes, -1, progress, 0};
    long long astar_bytes = max_bytes >= 0 ? max_bytes / 100 * 60 : -1;
    long long expanded = 0;
    int status = 2, bound = 0, error = 0;
    PyObject *path = NULL;
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
    queue_push(q, h0, (Entry){(uint32_t)root, 0, (uint8_t)h0});
    if (is_all(p, flood)) {
        status = 0;
        path = PyList_New(0);
        goto done;
    }
    Entry e = {0, 0, 0};
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
                if (g + hl < MAXF - 1 && !queue_push(q, g + hl, (Entry){e.node, (uint8_t)g, (uint8_t)hl})) {
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
            if (over < 0) error = 1;
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
                /* trace */
                int len = ng;
                path = PyList_New(len);
                if (!path) {
                    error = 1;
                    goto done;
                }
                PyList_SET_ITEM(path, len - 1, PyLong_FromLong(p->color_of[k]));
                int i = len - 2;
                for (int64_t j = e.node; st.nodes[j].parent >= 0; j = st.nodes[j].parent, i--)
                    PyList_SET_ITEM(path, i, PyLong_FromLong(st.nodes[j].color));
                status = 0;
                goto done;
            }
            uint64_t ch = hash_key((const uint8_t *)child, W * 8);
            int64_t old = store_find(&st, (const uint8_t *)child, ch, &slot);
            if (old >= 0 && st.nodes[old].g <= ng) continue;
            /* A cheap bound now (colours left outside the flood: each needs a move of its
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
                add_neighbours(p, taken, child_frontier, W);
                for (int w = 0; w < W; w++) child_frontier[w] &= ~child[w];
                k2 = store_add(&st, (const uint8_t *)child, ch, slot);
                if (k2 < 0) {
                    bound = f;
                    goto done;
                }
            }
            st.nodes[k2] = (Node){(int32_t)e.node, -1 /* bound not yet computed */, p->color_of[k], (uint8_t)ng, (uint8_t)hc};
            if (!queue_push(q, ng + hc, (Entry){(uint32_t)k2, (uint8_t)ng, (uint8_t)hc})) {
                bound = f;
                goto done;
            }
        }
    }
    goto done;
deep: {
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
    if (pivot_deep_phase(&x, q, &st, f, &bound, &path) == 0) status = 0;
    else if (x.error) error = 1;
    seen_free(&x.seen);
}
done:
    store_free(&st);
    queue_free(q);
    free(p);
    if (error) {
        Py_XDECREF(path);
        return NULL;
    }
    if (status == 2 && lim.interrupted) status = 3;
    if (!path) {
        path = Py_None;
        Py_INCREF(path);
    }
    return Py_BuildValue("(iNLi)", status, path, expanded, bound);
}

static PyMethodDef methods[] = {
    {"astar", core_astar, METH_VARARGS, "A* over one island (see kamivision/solver/_core.c)."},
    {"sweep", core_sweep, METH_VARARGS, "A threshold swept by region count (see _core.c)."},
    {"pivot_astar", core_pivot_astar, METH_VARARGS, "A* for fixed-pivot boards (see _core.c)."},
    {"choose_orientation", core_choose_orientation, METH_VARARGS, "The winding bound's orientation (see _core.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Compiled A* core of kamivision.", -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }

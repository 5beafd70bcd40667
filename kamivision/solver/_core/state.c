/* A state contracted to its regions, breadth-first distances over it, and its merging
 * moves (kamivision.solver.state). */

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
    uint64_t top = (uint64_t)1 << (s->color[src] & 63), below = 0; /* colors of the last two layers */
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
            /* The farthest region: the lowest of the last layer with another color than
             * the source when there is one (for the color term of pair_term), else the
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
 * and sets *far to a region of the last layer: the lowest of another color than `src`
 * if any, else the lowest (as the Python `distances` and `_far`); layers[0] and layers[1]
 * get the colors (bit c & 63) of the last layer and of the one before it. */
static int distances(const Island *is, const State *s, int src, int16_t *dist, int *far, uint64_t *layers) {
    switch (is->W) {
    case 1: return distances_1(is, s, src, dist, far, layers);
    case 2: return distances_2(is, s, src, dist, far, layers);
    case 3: return distances_3(is, s, src, dist, far, layers);
    default: return distances_n(is, s, src, dist, far, layers);
    }
}

/* The moves of region `r`: its neighbors grouped by color.  groups[k] is the set that
 * becomes one region when `r` takes color gcolors[k] (r itself included); returns how many. */
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

/* The merging moves of a state, one at a time: region `r` taking color gcolors[k], which
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

/* The color bound of the child where region `r` (color `color_r`) takes color `c`: the
 * parent's colors less r's if r was its last region, minus one (or minus the goal color
 * when it is still there). */
static inline int colors_left_after(const int *counts, int npresent, int color_r, int c, int goal) {
    int left = npresent - (counts[color_r] == 1 ? 1 : 0);
    if (goal < 0 || goal == c || (counts[goal] && !(counts[goal] == 1 && color_r == goal))) left -= 1;
    return left;
}

/* The state's leaves, its regions with one neighbor, in `leaves` (W words, over
 * representatives); 1 when it is a star: every region but at most one is a leaf. */
static int state_leaves(const State *s, int W, word *leaves) {
    int inner = 0;
    for (int w = 0; w < W; w++) {
        leaves[w] = 0;
        for (word x = s->reps[w]; x; x &= x - 1) {
            int r = (w << 6) | lowbit(x);
            if (popcount_w(s->adj[r], W) == 1)
                leaves[w] |= (word)1 << (r & 63);
            else
                inner++;
        }
    }
    return inner <= 1;
}

/* Regions of each color (counts, cleared first) and how many colors are present. */
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

/* The color, pair and final-color bounds, for a state and for its children
 * (kamivision.solver.heuristics, whose docstrings carry the admissibility arguments). */

typedef struct {
    int count;
    int16_t *du[2], *dv[2];
    int d[2], u[2], v[2];
} Pairs;

/* Moves needed to join two regions at distance d with colors cu, cv: ceil((d + e) / 2),
 * e = 1 when the colors differ or (with a goal color) are not both the goal color.
 * Admissible: see pair_term in heuristics.py. */
static inline int pair_term(int d, int cu, int cv, int goal) {
    int e = cu != cv || (goal >= 0 && cu != goal);
    return (d + e + 1) / 2;
}

/* The Python `final_color_bound` from the sweeps' sources: color, depth and the colors
 * of their last two layers; `present` the colors on the board (bits), `npresent` how many. */
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


/* The pair bound of the child that contracts `merged` into one region of color `c`
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
 * connected set `merged` into one region of color `c`, measured on the parent state `s`
 * without building the child: whenever a layer reaches `merged`, all of it joins that layer
 * (in the child it is one region, so its members are at one distance from everything).
 * `src` is one region or `merged` itself, of child color `src_color`.  Sets `far` to a
 * region of the last layer as `distances` picks it in the child (the lowest of another
 * color than the source if any, else the lowest; the child's region for `merged` is named
 * by its lowest member, and stands for all of `merged`), and `far_color` to its color.
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
 * the source and the far region whose color enters pair_term. */
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

/* The winding bound (heuristics.winding_bound): distances weighted by an orientation of
 * the color pairs, and the choice of that orientation. */

/* ---- the winding bound (heuristics.winding_bound) ---------------------------------- */

#define MAX_ORIENTATIONS 1024 /* as heuristics.MAX_ORIENTATIONS */

/* An orientation of the color pairs as edge weights: fw[a][b] = 3 + sigma(a, b) from a
 * region of color a to one of color b, with colors by their rank among the island's
 * (idx; at most 16 colors).  A walk backwards takes each edge at its forward weight
 * (split_edges). */
typedef struct Winding {
    uint8_t idx[256];
    int8_t fw[16][16];
} Winding;

/* The regions of each color (by rank) and the ranks present; returns how many. */
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

/* A state's edges split by weight under a winding: lo[j] holds the neighbors an edge of
 * weight 2 leads to from region j (sigma = -1), hi[j] those of weight 4 (sigma = +1).
 * Every edge joins two colors and every pair of colors is oriented, so no edge weighs
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
 * region of color c, from the parent's pair (u, v): ceil(min(D, D'(u, S) + D'(S, v)) / 6),
 * where D'(u, S) is the least to[y] + w'(y, S) over the neighbors y of S (0 when u is in
 * S), w' the child's weight of an edge into the new region (color c), and D'(S, v) the
 * least w'(S, z) + from[z] likewise.  Admissible: a walk of the child that avoids the new
 * region is one of the parent, of the same weight (no edge of it changed colors), so at
 * least D; one through it reaches it from some neighbor y by a walk that avoids it
 * before (a parent walk, of weight at least to[y]) and an edge of weight w'(y, S), and
 * leaves it likewise.  With a second pair `w2` (on; else NULL), the larger of the two
 * pairs' bounds, from one walk over S's neighbors. */
static int wind_after(const WindPair *wp, const WindPair *w2, const State *s, const Winding *wd, const word *merged,
                      int c, int W) {
    word around[MAXW] = {0};
    for (int w = 0; w < W; w++)
        for (word x = merged[w]; x; x &= x - 1) {
            int i = (w << 6) | lowbit(x);
            for (int v = 0; v < W; v++) around[v] |= s->adj[i][v];
        }
    const WindPair *pairs[2] = {wp, w2};
    int np = w2 && w2->on ? 2 : 1, mu[2], mv[2], k = wd->idx[c];
    for (int p = 0; p < np; p++) {
        mu[p] = merged[pairs[p]->u >> 6] >> (pairs[p]->u & 63) & 1 ? 0 : 1 << 20;
        mv[p] = merged[pairs[p]->v >> 6] >> (pairs[p]->v & 63) & 1 ? 0 : 1 << 20;
    }
    for (int w = 0; w < W; w++)
        for (word x = around[w] & ~merged[w]; x; x &= x - 1) {
            int y = (w << 6) | lowbit(x), cy = wd->idx[s->color[y]];
            int in = wd->fw[cy][k], out = wd->fw[k][cy];
            for (int p = 0; p < np; p++) {
                int a = pairs[p]->to[y] + in, b = out + pairs[p]->from[y];
                if (a < mu[p]) mu[p] = a;
                if (b < mv[p]) mv[p] = b;
            }
        }
    int best = 0;
    for (int p = 0; p < np; p++) {
        int d = mu[p] + mv[p];
        if (d > pairs[p]->d) d = pairs[p]->d;
        if ((d + 5) / 6 > best) best = (d + 5) / 6;
    }
    return best;
}

/* The region of the state farthest by `dist` (from `start` on, the first of the farthest). */
static int wfarthest(const State *s, const int16_t *dist, int start, int W) {
    int y = start;
    for (int w = 0; w < W; w++)
        for (word b = s->reps[w]; b; b &= b - 1) {
            int i = (w << 6) | lowbit(b);
            if (dist[i] > dist[y]) y = i;
        }
    return y;
}

/* A pair (x, y) far from the pair in `wp` as well, in `w2` with its two distance arrays,
 * for the children's bounds: x the region whose distances from wp's u and to wp's v sum
 * highest (far from both ends: another arm of the board), y the region farthest from x.
 * wind_after's argument holds for any pair and its arrays, so the larger of the two
 * pairs' bounds is admissible too. */
static void second_pair(const State *s, const Split *sp, const WindPair *wp, WindPair *w2, int W) {
    int x = wp->u, best = -1;
    for (int w = 0; w < W; w++)
        for (word b = s->reps[w]; b; b &= b - 1) {
            int i = (w << 6) | lowbit(b);
            if (wp->to[i] + wp->from[i] > best) {
                best = wp->to[i] + wp->from[i];
                x = i;
            }
        }
    wdist(sp, x, w2->to, 0, W);
    int y = wfarthest(s, w2->to, x, W);
    wdist(sp, y, w2->from, 1, W);
    w2->on = 1;
    w2->d = w2->to[y];
    w2->u = x;
    w2->v = y;
}

/* The state's bound raised to its winding bound, ceil(D / 6), if that can matter (h is
 * at most `within`); stops once it is above `within`.  Admissible: see winding_bound in
 * heuristics.py.  Without `wp` it only looks for a distance that would send the state
 * past `within`.  With `wp`, when the state stays within, it also finds the farthest pair
 * worth a bound of h - 1 or more (what a child's bound can use) and keeps it there, with
 * both distance arrays, for the children's bounds (wind_after; wp->on = 0: none).  With
 * `w2` too, when the winding bound is the state's bound, a second pair (second_pair) in
 * w2 (w2->on = 0: none): where no path-flood corridor narrows the children, Threegrid5's
 * "within 13" stores 6,859,217 states instead of 9,370,665 (the children the winding bound
 * used to prune only at their own turn), in 52.4-53.8 s against 60.6 s (2026-11-30). */
static int winding_bound(const Island *is, const State *s, const Pairs *p, int within, int h, WindPair *wp,
                         WindPair *w2) {
    if (wp) wp->on = 0;
    if (w2) w2->on = 0;
    if (!is->wind || h > within || popcount_w(s->reps, is->W) <= 1) return h;
    word cls[16][MAXW];
    int cols[16], seen, source, W = is->W;
    int ncol = color_classes(s, is->wind, W, cls, cols);
    if (ncol < 3) return h; /* two colors: every weight is 3 one way and 3 back on a path */
    Split sp;
    split_edges(s, is->wind, cls, cols, ncol, &sp, W);
    int d = wfar(s, &sp, centre_of(s, p, W), wp ? 6 * (h - 2) : 6 * within, 6 * within, &seen,
                 &source, W);
    if (d > 6 * within) return (d + 5) / 6;
    int t = (seen + 5) / 6;
    if (t > h) h = t;
    if (wp && t >= h - 1) {
        wdist(&sp, source, wp->to, 0, W);
        int v = wfarthest(s, wp->to, source, W);
        wdist(&sp, v, wp->from, 1, W);
        wp->on = 1;
        wp->d = wp->to[v];
        wp->u = source;
        wp->v = v;
        if (w2 && t >= h) second_pair(s, &sp, wp, w2, W);
    }
    return h;
}

/* The island's colors ranked (idx), and how many; more than 16: 17. */
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

/* The orientation of the island's color pairs numbered as heuristics.orientation does
 * (pairs of ranks i < j in order, bit p set: sigma = 1), into weights; k colors. */
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


/* The weights of orientation `number` (heuristics.orientation) for the search, or NULL
 * for none (number < 0, or more than 16 colors). */
static const Winding *winding_for(const uint8_t *colors, int n, int number, Winding *wd) {
    if (number < 0) return NULL;
    int k = rank_colors(colors, n, wd);
    if (k > 16) return NULL;
    winding_of(k, number, wd);
    return wd;
}

#define NO_ORIENTATION (-1)
#define ORIENTATION_NO_MEMORY (-2)

/* The number of the orientation that heuristics.choose_orientation picks for the island's
 * first state (the first of the greatest weighted distance between two regions),
 * NO_ORIENTATION for none, or ORIENTATION_NO_MEMORY when memory runs out. */
static int choose_orientation(const uint8_t *colors, int n, const word *adjacency, int W) {
    Island is = {n, W, adjacency, -1, 0, NULL, 0};
    State *s = malloc(sizeof(State));
    int16_t(*buf)[MAXN] = malloc(4 * sizeof(*buf));
    Split *sp = malloc(sizeof(Split));
    if (!s || !buf || !sp) {
        free(s);
        free(buf);
        free(sp);
        return ORIENTATION_NO_MEMORY;
    }
    contract(&is, colors, s);
    word cls[16][MAXW];
    int cols[16], best = -1, choice = NO_ORIENTATION;
    Winding wd;
    int ncol = rank_colors(colors, n, &wd);
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
    return choice;
}

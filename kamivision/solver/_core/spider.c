/* The spider bound (kamivision.solver.spiders, whose docstring carries the argument): a
 * spider of bridges fixed at the island's start, read in a state's colors, needs at least
 * its strange-printer count less one moves.
 *
 * A spider is a centre region and up to SP_ARMS arms, each a path of original regions
 * going out from it.  In a state, an arm's colors are read from its regions outward with
 * runs of one color taken once, and a first run of the centre's color joined to the
 * centre (printing a tree does not change when a one-color edge is contracted); an arm
 * longer than SP_LEN runs is cut there (a shorter spider is still a subtree of bridges). */

#define SP_ARMS 3
#define SP_LEN 24
#define SP_MAX 8 /* spiders kept for one island */

typedef struct {
    int centre, len[SP_ARMS];
    const int16_t *arm[SP_ARMS]; /* original regions, outward */
} Spider;

typedef struct Spiders {
    int count;
    Spider sp[SP_MAX];
} Spiders;

/* The spiders of `blob` (encode in solver/spiders.py: int16 counts and regions):
 * 1, or 0 when it does not describe spiders of regions below n. */
static int spiders_parse(const int16_t *blob, long words, int n, Spiders *out) {
    out->count = 0;
    long at = 0;
    if (words < 1) return 0;
    int count = blob[at++];
    if (count < 0 || count > SP_MAX) return 0;
    for (int i = 0; i < count; i++) {
        Spider *sp = &out->sp[i];
        if (at + 1 + SP_ARMS > words) return 0;
        sp->centre = blob[at++];
        if (sp->centre < 0 || sp->centre >= n) return 0;
        for (int a = 0; a < SP_ARMS; a++) {
            sp->len[a] = blob[at++];
            if (sp->len[a] < 0 || sp->len[a] > n) return 0;
        }
        for (int a = 0; a < SP_ARMS; a++) {
            if (at + sp->len[a] > words) return 0;
            sp->arm[a] = blob + at;
            for (int k = 0; k < sp->len[a]; k++)
                if (blob[at + k] < 0 || blob[at + k] >= n) return 0;
            at += sp->len[a];
        }
    }
    out->count = count;
    return at == words;
}

/* prints of every stretch of s[0..len): P[i * (SP_LEN + 2) + j] for s[i..j) (the strange
 * printer's recurrence, kamivision.solver.pathflood). */
#define SP_P (SP_LEN + 2)
static void sp_string_prints(const uint8_t *s, int len, uint8_t *P) {
    for (int i = 0; i <= len; i++) P[i * SP_P + i] = 0;
    for (int span = 1; span <= len; span++)
        for (int i = 0; i + span <= len; i++) {
            int j = i + span, best = 1 + P[(i + 1) * SP_P + j];
            for (int k = i + 1; k < j; k++)
                if (s[k] == s[i]) {
                    int v = P[(i + 1) * SP_P + k] + P[k * SP_P + j];
                    if (v < best) best = v;
                }
            P[i * SP_P + j] = (uint8_t)best;
        }
}

/* The strange-printer count of a spider: centre color c0, arms seq[a][1..len[a]] (seq[a][0]
 * is c0).  F(l) is the count of the sub-spider that keeps the first l[a] places of each
 * arm.  Its first stroke either shows at the centre (each arm then printed on its own over
 * it) or first shows at place v[a] of some arms, in one color k; no later stroke crosses a
 * place it shows at, so the rest is the sub-spider inside those places and, on each arm
 * where it shows, the stretch from v[a] out, whose own first stroke it is (the argument is
 * in solver/spiders.py, whose spider_prints takes the minimum over every choice at once).
 *
 * Here the choice is made one arm at a time, for each color k: S1 (shown on arm 0 only),
 * S2 (shown on arm 0 or 1, not 2), S3 (shown somewhere), with Any = min(F(l), S): the
 * inside of an arm where the stroke does not show keeps its l.  Any1 is kept for the cells
 * of this l0, Any2 for those of this (l0, l1): the only ones S2 and S3 read.  With
 * need >= 0, a count that the printing "each arm on its own" keeps below need is returned
 * as that printing's count, not the exact one. */
static int sp_prints(uint8_t seq[SP_ARMS][SP_LEN + 1], const int len[SP_ARMS], int need) {
    static __thread uint8_t P[SP_ARMS][SP_P * SP_P];
    static __thread uint8_t F[(SP_LEN + 1) * (SP_LEN + 1) * (SP_LEN + 1)];
    static __thread uint8_t any1[SP_ARMS * SP_LEN][(SP_LEN + 1) * (SP_LEN + 1)];
    static __thread uint8_t any2[SP_ARMS * SP_LEN][SP_LEN + 1];
    for (int a = 0; a < SP_ARMS; a++) sp_string_prints(seq[a], len[a] + 1, P[a]);
    int most = 1;
    for (int a = 0; a < SP_ARMS; a++) most += P[a][0 * SP_P + len[a] + 1] - 1;
    if (need >= 0 && most < need) return most;
    /* the colors on the arms, and each arm's places of each color */
    uint8_t colors[SP_ARMS * SP_LEN];
    uint8_t at[SP_ARMS][SP_LEN + 1]; /* the color index of each place */
    int nc = 0;
    for (int a = 0; a < SP_ARMS; a++)
        for (int p = 1; p <= len[a]; p++) {
            int c = seq[a][p], i = 0;
            while (i < nc && colors[i] != c) i++;
            if (i == nc) colors[nc++] = (uint8_t)c;
            at[a][p] = (uint8_t)i;
        }
    int d1 = len[2] + 1, d0 = (len[1] + 1) * d1;
    const uint8_t *P0 = P[0], *P1 = P[1], *P2 = P[2];
    for (int l0 = 0; l0 <= len[0]; l0++)
        for (int l1 = 0; l1 <= len[1]; l1++)
            for (int l2 = 0; l2 <= len[2]; l2++) {
                int s3[SP_ARMS * SP_LEN], s2[SP_ARMS * SP_LEN];
                int best = 1 + (P0[l0 + 1] - 1) + (P1[l1 + 1] - 1) + (P2[l2 + 1] - 1); /* shown at the centre */
                for (int k = 0; k < nc; k++) s2[k] = 255;
                /* S1: shown on arm 0 (first at v), F of the inside */
                for (int v = 1; v <= l0; v++) {
                    int val = F[(v - 1) * d0 + l1 * d1 + l2] + P0[v * SP_P + l0 + 1] - 1;
                    int k = at[0][v];
                    if (val < s2[k]) s2[k] = val;
                }
                /* S2: or shown on arm 1 (first at v), arm 0 as it may be */
                for (int v = 1; v <= l1; v++) {
                    int k = at[1][v];
                    int val = any1[k][(v - 1) * d1 + l2] + P1[v * SP_P + l1 + 1] - 1;
                    if (val < s2[k]) s2[k] = val;
                }
                for (int k = 0; k < nc; k++) s3[k] = s2[k];
                /* S3: or shown on arm 2 (first at v), arms 0 and 1 as they may be */
                for (int v = 1; v <= l2; v++) {
                    int k = at[2][v];
                    int val = any2[k][v - 1] + P2[v * SP_P + l2 + 1] - 1;
                    if (val < s3[k]) s3[k] = val;
                }
                for (int k = 0; k < nc; k++)
                    if (1 + s3[k] < best) best = 1 + s3[k];
                F[l0 * d0 + l1 * d1 + l2] = (uint8_t)best;
                /* Any1 needs S1 alone: arm 1 not shown.  S1 of k is s2[k] before arm 1's
                 * places were taken, so it is worked out again here only for the colors
                 * arm 0 has: cheaper than keeping a copy for every cell. */
                for (int k = 0; k < nc; k++) any1[k][l1 * d1 + l2] = (uint8_t)best;
                for (int v = 1; v <= l0; v++) {
                    int val = F[(v - 1) * d0 + l1 * d1 + l2] + P0[v * SP_P + l0 + 1] - 1;
                    int k = at[0][v];
                    if (val < any1[k][l1 * d1 + l2]) any1[k][l1 * d1 + l2] = (uint8_t)val;
                }
                for (int k = 0; k < nc; k++) any2[k][l2] = (uint8_t)(s2[k] < best ? s2[k] : best);
            }
    return F[len[0] * d0 + len[1] * d1 + len[2]];
}

/* The arms of `sp` in `colors` (runs once, a first run of the centre's color joined to
 * it, each cut at SP_LEN runs) into seq and len. */
static void sp_read(const Spider *sp, const uint8_t *colors, uint8_t seq[SP_ARMS][SP_LEN + 1], int len[SP_ARMS]) {
    int c0 = colors[sp->centre];
    for (int a = 0; a < SP_ARMS; a++) {
        int m = 0, last = c0;
        seq[a][0] = (uint8_t)c0;
        for (int k = 0; k < sp->len[a] && m < SP_LEN; k++) {
            int c = colors[sp->arm[a][k]];
            if (c != last) seq[a][++m] = (uint8_t)c;
            last = c;
        }
        len[a] = m;
    }
}

/* The counts met, by spider and arms read (one thread's): a spider's coloring recurs in
 * many states, since most moves leave it as it was.  Direct-mapped, the whole key kept
 * (no two colorings share an entry's answer); `exact` 0 means only "less than value + 1"
 * is known (the filter of sp_prints). */
#define SPC_BITS 15
#define SPC_KEY (1 + SP_ARMS + SP_ARMS * SP_LEN)
typedef struct {
    uint8_t key[SPC_KEY];
    uint8_t used, value, exact;
} SpcEntry;

typedef struct SpiderCache {
    SpcEntry e[1 << SPC_BITS];
} SpiderCache;

/* The count of spider i read as seq, len (the cache first, when there is one); with
 * need >= 0 it may stop below need as sp_prints does. */
static int sp_count(SpiderCache *cache, int i, uint8_t seq[SP_ARMS][SP_LEN + 1], const int len[SP_ARMS], int need) {
    if (!cache) return sp_prints(seq, len, need);
    uint8_t key[SPC_KEY];
    int kl = 0;
    key[kl++] = (uint8_t)i;
    for (int a = 0; a < SP_ARMS; a++) key[kl++] = (uint8_t)len[a];
    key[kl++] = seq[0][0];
    for (int a = 0; a < SP_ARMS; a++)
        for (int p = 1; p <= len[a]; p++) key[kl++] = seq[a][p];
    memset(key + kl, 0, SPC_KEY - kl);
    uint64_t h = 1469598103934665603ULL;
    for (int b = 0; b < kl; b++) h = (h ^ key[b]) * 1099511628211ULL;
    SpcEntry *e = &cache->e[(h >> 20) & ((1 << SPC_BITS) - 1)];
    if (e->used && !memcmp(e->key, key, SPC_KEY)) {
        if (e->exact || (need >= 0 && e->value < need)) return e->value;
    }
    int v = sp_prints(seq, len, need);
    memcpy(e->key, key, SPC_KEY);
    e->used = 1;
    e->value = (uint8_t)v;
    e->exact = need < 0 || v >= need;
    return v;
}

/* The spider bound of a state whose original regions have `colors`: the largest count
 * less one over the spiders (0 with none).  With need >= 0, it stops at the first spider
 * that reaches `need` (a value that reaches it is a bound, from exact counts), and a value
 * below `need` says only that the bound is below `need` too (the counts may be those of
 * sp_prints' filter, above the exact ones but below need).  `cache`: NULL, or the thread's
 * counts met. */
static int spiders_bound(const Spiders *sps, const uint8_t *colors, int need, SpiderCache *cache) {
    int best = 0;
    for (int i = 0; i < sps->count; i++) {
        uint8_t seq[SP_ARMS][SP_LEN + 1];
        int len[SP_ARMS];
        sp_read(&sps->sp[i], colors, seq, len);
        int v = sp_count(cache, i, seq, len, need < 0 ? -1 : need + 1) - 1;
        if (v > best) best = v;
        if (need >= 0 && best >= need) break;
    }
    return best;
}

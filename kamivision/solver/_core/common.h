/* Sizes, the bitset word, an island and a contracted state: the vocabulary of the core.
 * Included once, by the unity file _core.c, before every other part. */

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
    int small_colors; /* every color (and the goal) below 64: color sets fit a word */
    const struct Winding *wind; /* the winding bound's weights, or NULL */
    int path_flood; /* take the path-flood bound (pathflood.c) at the states expanded */
    int flood_depth; /* the sweep: only at those with at most this many moves made */
    int leaf_rule;   /* the sweep: a leaf is tapped only where the rest is one region (sweep.c) */
    const struct Spiders *spiders; /* the sweep: NULL, or the spider bound's spiders (spider.c) */
    int spider_depth; /* taken at the states at the threshold with at most this many moves made */
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

/* The open states: buckets by f, then by g (deepest first), LIFO within. */

/* ---- the queue: buckets by f, then by g (deepest first), LIFO within ------------------ */

typedef struct {
    uint32_t node;
    uint8_t g, h;
    uint8_t flooded; /* h takes in the path-flood bound already (pathflood.c) */
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

/* Stored states: an arena of keys and an open-addressing hash table, and the packed keys
 * (the color of every original region, in 3 or 8 bits). */

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

/* Keys of the free search: the color of every original region, in 3 bits when every
 * color is below 8 (KAMI has at most a handful), in 4 when below 16, else in a byte.
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

/* The (up to) two bytes holding the 3-bit color of region i, and its shift in them: its
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

/* The key of the child where the region with original members `members` takes color c. */
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

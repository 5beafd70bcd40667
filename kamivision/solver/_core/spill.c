/* Layers on disk: the sweep's delayed duplicate detection, when its memory is full.
 *
 * When the layers in memory pass the sweep's memory, those waiting their turn (fewer
 * regions than the one being expanded) are appended to one file each and freed.  A
 * state may then be in a layer's file several times, and in memory once more, each copy
 * with the g, bound and last moves of the ways to it seen before that copy was written.
 * When the layer's turn comes, every copy is read back and merged (layer_merge: least g,
 * the moves that reached it with that g and their regions' colors before them, or LM_ALL
 * past LM_KEEP of them, largest bound: none of these depends on the order the ways come
 * in) before any state of it is expanded: exactly what the layer would hold had it
 * stayed in memory, since all ways to its states come from layers with more regions, all
 * expanded by then.  So the sweep expands the same states with the same g, bounds and
 * kept moves either way, and its argument (sweep.c) holds unchanged.
 *
 * A layer too large to read back whole is read in parts: part p of P holds the states
 * whose hash is p modulo P, so every copy of a state is in the same part, and the
 * parts are merged and expanded one after the other (hash-based delayed duplicate
 * detection, as Korf's).  Each part is read from the whole file, P times in all (no
 * second file to write).  Files are made in the caller's folder and unlinked at once, so
 * nothing is left behind, even when the process is killed.
 *
 * A record: the state's stride bytes (key, then moves when kept), g, bound, and the
 * names of the moves kept (LM_KEEP of two bytes, in the machine's order: the file lives
 * only as long as the sweep), then the colors their regions had (LM_KEEP bytes). */

/* Parts a layer is read in, at most: each reads the whole file, and a layer that needs
 * more has too little memory to be worth it (the sweep stops as when memory is full). */
#define SPILL_PARTS_MAX 64
#define SPILL_TAIL (2 + 3 * LM_KEEP) /* after each key on disk: g, h, the moves kept and their colors */

typedef struct {
    const char *dir;  /* where the files go; NULL: no spilling */
    long long budget; /* bytes the files may take on disk */
    long long used;   /* bytes they take now */
    long long peak;   /* the most they took */
    FILE *file[MAXN + 1];      /* a layer's records, or NULL */
    long long count[MAXN + 1]; /* records in it */
} Spill;

static void spill_init(Spill *sp, const char *dir, long long budget) {
    memset(sp, 0, sizeof(*sp));
    sp->dir = dir;
    sp->budget = budget;
}

static void spill_close(Spill *sp, int r, int stride) {
    if (!sp->file[r]) return;
    fclose(sp->file[r]);
    sp->file[r] = NULL;
    sp->used -= sp->count[r] * (stride + SPILL_TAIL);
    sp->count[r] = 0;
}

static void spill_free(Spill *sp, int n, int stride) {
    for (int r = 0; r <= n; r++) spill_close(sp, r, stride);
}

/* A new file in sp->dir, already unlinked; NULL when it cannot be made. */
static FILE *spill_open(const Spill *sp) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/kamivision-sweep-XXXXXX", sp->dir) >= (int)sizeof path) return NULL;
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (!f) {
        close(fd);
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    return f;
}

/* Append layer r's states (if it is live) to its file and free it; 0 when the disk's
 * budget or a write fails (the layer is then as it was, or partly written: the sweep
 * stops). */
static int spill_layer(Spill *sp, Layers *ly, int r) {
    Layer *L = &ly->layer[r];
    if (!ly->live[r]) return 1; /* nothing in memory */
    int stride = L->stride;
    long long bytes = (long long)L->count * (stride + SPILL_TAIL);
    if (!sp->dir || sp->used + bytes > sp->budget) return 0;
    if (L->count && !sp->file[r] && !(sp->file[r] = spill_open(sp))) return 0;
    FILE *f = sp->file[r];
    for (size_t k = 0; k < L->count; k++) {
        uint8_t tail[SPILL_TAIL] = {L->gh[2 * k], L->gh[2 * k + 1]};
        memcpy(tail + 2, L->lm + k * LM_KEEP, LM_KEEP * sizeof(uint16_t));
        memcpy(tail + 2 + 2 * LM_KEEP, L->lc + k * LM_KEEP, LM_KEEP);
        if (fwrite(L->keys + k * (size_t)stride, stride, 1, f) != 1 || fwrite(tail, SPILL_TAIL, 1, f) != 1) return 0;
    }
    sp->count[r] += (long long)L->count;
    sp->used += bytes;
    if (sp->used > sp->peak) sp->peak = sp->used;
    layer_free(L); /* made anew when a state comes (its table alone takes 8 kB) */
    ly->live[r] = 0;
    return 1;
}

/* Spill the live layers below region count R, the largest first, until the layers (and
 * `extra` bytes besides) take at most `target` bytes; 0 when one fails.  The largest
 * first, and down to well under the memory's budget, so that spills are few and large:
 * each copy of a state written costs disk and a merge when it is read back. */
static int spill_below(Spill *sp, Layers *ly, int R, int n, size_t extra, long long target) {
    while ((long long)(layers_used(ly, n) + extra) > target) {
        int big = -1;
        for (int r = R - 1; r >= 0; r--)
            if (ly->live[r] && (big < 0 || layer_used(&ly->layer[r]) > layer_used(&ly->layer[big]))) big = r;
        if (big < 0) return 1; /* nothing left to spill */
        if (!spill_layer(sp, ly, big)) return 0;
    }
    return 1;
}

/* The parts layer r's file is read in, for `part_bytes` of memory a part; 0 when it
 * would take more than SPILL_PARTS_MAX. */
static int spill_parts(const Spill *sp, int r, int stride, long long part_bytes) {
    long long need = sp->count[r] * (stride + 10 + 3 * LM_KEEP); /* a state in memory: layer_used's, table at 5/8 */
    if (part_bytes <= 0) return need ? 0 : 1;
    long long p = (need + part_bytes - 1) / part_bytes;
    return p < 1 ? 1 : p > SPILL_PARTS_MAX ? 0 : (int)p;
}

/* Read part p of P of layer r's file into the empty layer L, merging the copies of each
 * state; 0 when out of memory or a read fails. */
static int spill_read(Spill *sp, int r, Layer *L, int p, int P) {
    FILE *f = sp->file[r];
    int stride = L->stride, kb = L->n;
    uint8_t *rec = malloc(stride + SPILL_TAIL);
    if (!rec || fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) {
        free(rec);
        return 0;
    }
    int ok = 1;
    for (long long i = 0; i < sp->count[r]; i++) {
        if (fread(rec, stride + SPILL_TAIL, 1, f) != 1) {
            ok = 0;
            break;
        }
        uint64_t h = hash_key(rec, kb);
        if ((int)((h >> 32) % (uint64_t)P) != p) continue;
        int g = rec[stride], hb = rec[stride + 1];
        uint16_t lm[LM_KEEP];
        uint8_t lc[LM_KEEP];
        memcpy(lm, rec + stride + 2, sizeof(lm));
        memcpy(lc, rec + stride + 2 + sizeof(lm), sizeof(lc));
        size_t slot;
        int64_t old = layer_find(L, rec, h, &slot);
        if (old < 0 && (old = layer_add(L, rec, h, slot, g, hb, lm[0], lc[0])) < 0) {
            ok = 0;
            break;
        }
        for (int i = 0; i < LM_KEEP && (i == 0 || lm[i] != LM_NONE); i++) /* each way in, as it came */
            layer_merge(L, old, g, hb, lm[i], lc[i], stride > kb ? rec + kb : NULL);
    }
    free(rec);
    if (ok && fseek(f, 0, SEEK_END) != 0) ok = 0; /* later spills append */
    return ok;
}

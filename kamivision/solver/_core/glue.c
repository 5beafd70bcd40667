/* The Python face of the core: the only part that touches the Python C API.
 *
 * Each function checks its arguments, fills the search's arguments, runs the search (which
 * returns C arrays) and builds the Python answer.  The searches reach Python only through
 * the two callbacks below (progress reports with Ctrl-C, and the A*'s `improve`).
 * kamivision/solver/core.py wraps these functions; its docstrings say what each argument
 * means, and its Status mirrors the STATUS_* codes of limits.c.
 *
 *   astar(colors, adjacency, words, *, goal, limit, max_nodes, max_seconds, max_bytes,
 *         progress, dive_tries, threads, improve, on_full, orientation, path_flood)
 *   sweep(colors, adjacency, words, *, T, goal, max_nodes, max_seconds, max_bytes, progress,
 *         paths, shown, threads, orientation, commute, path_flood, spill_dir, max_disk, symmetry,
 *         flood_depth, leaves, spiders, spider_depth); its
 *         progress calls take two more arguments: the region count it is at and the one it
 *         started from; it returns the answer below, the most bytes it held on disk and the
 *         states it stored.  `commute`: the commuting rule for states with at most that many
 *         ways in kept (0: off; -1: all the core keeps, LM_KEEP).  `leaves`: 0 taps
 *         leaves everywhere (the leaf rule of sweep.c off; 1 by default).
 *         `symmetry` (bytes, symmetry.py's encoding) is trusted to be automorphisms of the
 *         island: only its indices are checked (core.sweep passes symmetry.find's)
 *   pivot_astar(colors, adjacency, words, *, start, max_nodes, max_seconds, max_bytes, progress,
 *               on_full)
 *     each returns (status, path, expanded, bound); path is None, a list of
 *     (region, color) moves, or for pivot_astar a list of colors.
 *   choose_orientation(colors, adjacency, words): the winding bound's orientation, or -1.
 *   spider_bound(colors, spiders): the spider bound (spider.c) of that coloring; `spiders`
 *     is spiders.py's encoding, as the sweep's `spiders` (taken at the states at T with at
 *     most `spider_depth` moves made).
 *   symmetric_image(colors, symmetry, region): the image of that coloring the sweep
 *     stores, and where the automorphism taken maps the region.
 *   path_flood(colors, adjacency, words[, need[, final]]): the path-flood bound of that coloring
 *     (with `final`, one more when the color the board ends in needs it: pf_final_color).
 *   path_flood_pairs(colors, adjacency, words): A(u, v) of every pair, m * m bytes.
 *   path_flood_corridor(colors, adjacency, words): that bound and the moves that can lower
 *     it (pf_corridor: for each region, the bitset of colors, n little-endian uint64), or
 *     None.
 *
 * colors: bytes, the color of every original region (n <= 64 * MAXW); adjacency: bytes,
 * n * words little-endian uint64 bitsets over the regions. */

/* The Python callables of one search. */
typedef struct {
    PyObject *progress; /* None or callable(expanded, bound, seconds[, at, of]) */
    PyObject *improve;  /* None or callable(bound, expanded) -> length or None */
    int at[2];          /* a sweep's region count now and its first, for progress; -1: none */
} Calls;

/* The error just raised by Python code: Ctrl-C (KeyboardInterrupt) is cleared and stops
 * the search like a limit (1); any other error is kept for the caller (-1). */
static int caught(void) {
    if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) return -1;
    PyErr_Clear();
    return 1;
}

static int poll_python(void *ctx, long long expanded, int bound, double seconds) {
    const Calls *calls = ctx;
    if (PyErr_CheckSignals() < 0) return caught();
    if (calls->progress != Py_None) {
        PyObject *r = calls->at[0] < 0 ? PyObject_CallFunction(calls->progress, "Lid", expanded, bound, seconds)
                                       : PyObject_CallFunction(calls->progress, "Lidii", expanded, bound, seconds,
                                                               calls->at[0], calls->at[1]);
        if (!r) return caught();
        Py_DECREF(r);
    }
    return 0;
}

static int improve_python(void *ctx, int bound, long long expanded, int *better) {
    const Calls *calls = ctx;
    PyObject *r = PyObject_CallFunction(calls->improve, "iL", bound, expanded);
    if (!r) return caught();
    if (r != Py_None) {
        long v = PyLong_AsLong(r);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(r);
            return -1;
        }
        *better = v < 0 ? -1 : v > MAXF ? MAXF : (int)v;
    }
    Py_DECREF(r);
    return 0;
}

static int check_callable(PyObject *f, const char *name) {
    if (f == Py_None || PyCallable_Check(f)) return 1;
    PyErr_Format(PyExc_TypeError, "%s must be callable or None", name);
    return 0;
}

static int check_island(Py_ssize_t n, Py_ssize_t adj_len, int W) {
    if (W >= 1 && W <= MAXW && n >= 1 && n <= 64 * W && adj_len == n * W * 8) return 1;
    PyErr_SetString(PyExc_ValueError, "island too large or adjacency of the wrong size");
    return 0;
}

/* The Python answer (status, path, expanded, bound), or NULL when the search failed. */
static PyObject *answer(const Result *res, int colors_only) {
    if (res->fail == FAIL_MEMORY) return PyErr_NoMemory();
    if (res->fail == FAIL_CALLBACK) return NULL; /* the callback's exception is set */
    PyObject *path = Py_None;
    if (res->path.len >= 0) {
        path = PyList_New(res->path.len);
        if (!path) return NULL;
        for (int i = 0; i < res->path.len; i++) {
            PyObject *move = colors_only ? PyLong_FromLong(res->path.color[i])
                                         : Py_BuildValue("(ii)", res->path.rep[i], res->path.color[i]);
            if (!move) {
                Py_DECREF(path);
                return NULL;
            }
            PyList_SET_ITEM(path, i, move);
        }
    } else {
        Py_INCREF(path);
    }
    return Py_BuildValue("(iNLi)", res->status, path, res->expanded, res->bound);
}

static PyObject *core_astar(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"colors", "adjacency", "words", "goal", "limit", "max_nodes", "max_seconds",
                            "max_bytes", "progress", "dive_tries", "threads", "improve", "on_full",
                            "orientation", "path_flood", NULL};
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    AstarArgs a = {0};
    Calls calls = {Py_None, Py_None, {-1, -1}};
    a.goal = a.limit = a.orientation = -1;
    a.max_nodes = a.max_bytes = -1;
    a.max_seconds = -1.0;
    a.dive_tries = 64;
    a.threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y#y#i|$iiLdLOiiOiii", names, &colors, &n, &adjacency, &adj_len, &a.W,
                                     &a.goal, &a.limit, &a.max_nodes, &a.max_seconds, &a.max_bytes, &calls.progress,
                                     &a.dive_tries, &a.threads, &calls.improve, &a.on_full_return, &a.orientation,
                                     &a.path_flood))
        return NULL;
    if (!check_island(n, adj_len, a.W) || !check_callable(calls.progress, "progress") ||
        !check_callable(calls.improve, "improve"))
        return NULL;
    a.colors = colors;
    a.adjacency = (const word *)adjacency;
    a.n = (int)n;
    a.poll = poll_python;
    a.poll_ctx = &calls;
    a.improve = calls.improve == Py_None ? NULL : improve_python;
    a.improve_ctx = &calls;
    Result res; /* about 1.6 kB: its path's arrays */
    astar_run(&a, &res);
    return answer(&res, 0);
}

static PyObject *core_sweep(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"colors", "adjacency", "words", "T", "goal", "max_nodes", "max_seconds", "max_bytes",
                            "progress", "paths", "shown", "threads", "orientation", "commute", "path_flood", "spill_dir",
                            "max_disk", "symmetry", "flood_depth", "leaves", "spiders", "spider_depth", NULL};
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    SweepArgs a = {0};
    Calls calls = {Py_None, Py_None, {-1, -1}};
    a.T = a.goal = a.orientation = -1;
    a.max_nodes = a.max_bytes = -1;
    a.max_seconds = -1.0;
    a.paths = a.threads = 1;
    a.commute = -1;
    a.flood_depth = -1;
    a.leaf_rule = 1;
    const uint8_t *sym_blob = NULL, *spider_blob = NULL;
    Py_ssize_t sym_len = 0, spider_len = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y#y#i|$iiLdLOiiiiiizLy#iiy#i", names, &colors, &n, &adjacency,
                                     &adj_len, &a.W, &a.T, &a.goal, &a.max_nodes, &a.max_seconds, &a.max_bytes,
                                     &calls.progress, &a.paths, &a.shown, &a.threads, &a.orientation, &a.commute,
                                     &a.path_flood, &a.spill_dir, &a.max_disk, &sym_blob, &sym_len, &a.flood_depth,
                                     &a.leaf_rule, &spider_blob, &spider_len, &a.spider_depth))
        return NULL;
    if (!check_island(n, adj_len, a.W) || !check_callable(calls.progress, "progress")) return NULL;
    if (a.T < 0 || a.T >= MAXF - 2) {
        PyErr_SetString(PyExc_ValueError, "T missing or out of range");
        return NULL;
    }
    a.colors = colors;
    a.adjacency = (const word *)adjacency;
    a.n = (int)n;
    a.poll = poll_python;
    a.poll_ctx = &calls;
    a.at = calls.at;
    Spiders spiders;
    if (spider_blob && spider_len) {
        if (spider_len % 2 || !spiders_parse((const int16_t *)spider_blob, (long)(spider_len / 2), (int)n, &spiders)) {
            PyErr_SetString(PyExc_ValueError, "spiders malformed");
            return NULL;
        }
        if (spiders.count) a.spiders = &spiders; /* none: the hook is never taken */
    }
    Symmetry sym;
    if (sym_blob && sym_len) {
        if (symmetry_read(&sym, sym_blob, (size_t)sym_len, (int)n) < 0) {
            PyErr_SetString(PyExc_ValueError, "symmetry malformed (or out of memory)");
            return NULL;
        }
        a.sym = &sym;
    }
    Result res; /* about 1.6 kB: its path's arrays */
    long long disk = 0, stored = 0;
    sweep_run(&a, &res, &disk, &stored);
    if (a.sym) symmetry_free(&sym);
    PyObject *out = answer(&res, 0);
    return out ? Py_BuildValue("(NLL)", out, disk, stored) : NULL;
}

static PyObject *core_pivot_astar(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"colors", "adjacency", "words", "start", "max_nodes", "max_seconds", "max_bytes",
                            "progress", "on_full", NULL};
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    PivotArgs a = {0};
    Calls calls = {Py_None, Py_None, {-1, -1}}; /* improve: the on_full callable */
    a.max_nodes = a.max_bytes = -1;
    a.max_seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y#y#i|$iLdLOO", names, &colors, &n, &adjacency, &adj_len, &a.W,
                                     &a.start, &a.max_nodes, &a.max_seconds, &a.max_bytes, &calls.progress,
                                     &calls.improve))
        return NULL;
    if (!check_island(n, adj_len, a.W) || !check_callable(calls.progress, "progress") ||
        !check_callable(calls.improve, "on_full"))
        return NULL;
    if (calls.improve != Py_None) {
        a.full = improve_python;
        a.full_ctx = &calls;
    }
    if (a.start < 0 || a.start >= n) {
        PyErr_SetString(PyExc_ValueError, "start is not a region of the board");
        return NULL;
    }
    a.colors = colors;
    a.adjacency = (const word *)adjacency;
    a.n = (int)n;
    a.poll = poll_python;
    a.poll_ctx = &calls;
    Result res; /* about 1.6 kB: its path's arrays */
    pivot_run(&a, &res);
    return answer(&res, 1);
}

/* A(u, v) of every pair from the levels of a complete evaluation, as m * m bytes (the
 * lone region's A(u, u) = 1 when there was nothing to evaluate); NULL, with the error set,
 * when out of memory. */
static PyObject *pair_table(const PathFlood *pf) {
    if (!pf->complete) return PyBytes_FromStringAndSize("\x01", 1);
    int m = pf->m;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)m * m);
    if (!out) return NULL;
    char *a = PyBytes_AS_STRING(out);
    for (int u = 0; u < m; u++)
        for (int v = 0; v < m; v++) {
            int k = 1;
            while (!(pf_row(pf, u, k)[v >> 6] >> (v & 63) & 1)) k++;
            a[(size_t)u * m + v] = (char)k;
        }
    return out;
}

/* The path-flood bound of the coloring (with `need` as in path_flood) and, when K is not
 * NULL, its corridor in K (*given: whether there is one), and when `pairs` is not NULL the
 * pairs' table (pair_table) in it; -2 when out of memory, -1 when the regions are not
 * connected (a Python error is set for both; *pairs may also be NULL with the error set). */
static int flood_of(const uint8_t *colors, int n, const uint8_t *adjacency, int W, int need, int final, uint64_t *K,
                    int *given, PyObject **pairs) {
    Island is = {n, W, (const word *)adjacency, -1, 0, NULL, 1};
    State *s = malloc(sizeof(State));
    PathFlood *pf = malloc(sizeof(PathFlood));
    int ok = s && pf && pathflood_init(pf);
    int bound = -2;
    if (ok) {
        contract(&is, colors, s);
        bound = path_flood(s, W, need, pf);
        if (final && bound >= 0 && (need < 0 || bound < need) && pf_final_color(pf, s, -1)) bound++;
        if (K) {
            *given = bound >= 0 && pf_corridor(pf, K);
            for (int r = 0; r < n; r++)
                if (s->rep_of[r] != r) K[r] = 0;
        }
        if (pairs && bound >= 0) *pairs = pair_table(pf);
    }
    if (pf) pathflood_free(pf);
    free(pf);
    free(s);
    if (bound == -2)
        PyErr_NoMemory();
    else if (bound < 0)
        PyErr_SetString(PyExc_ValueError, "the regions are not connected");
    return bound;
}

/* spider_bound(colors, spiders): the spider bound (spider.c) of that coloring. */
static PyObject *core_spider_bound(PyObject *self, PyObject *args) {
    const uint8_t *colors, *blob;
    Py_ssize_t n, len;
    if (!PyArg_ParseTuple(args, "y#y#", &colors, &n, &blob, &len)) return NULL;
    Spiders spiders;
    if (len % 2 || !spiders_parse((const int16_t *)blob, (long)(len / 2), (int)n, &spiders)) {
        PyErr_SetString(PyExc_ValueError, "spiders malformed");
        return NULL;
    }
    return PyLong_FromLong(spiders_bound(&spiders, colors, -1, NULL));
}

static PyObject *core_path_flood(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W, need = -1, final = 0;
    if (!PyArg_ParseTuple(args, "y#y#i|ip", &colors, &n, &adjacency, &adj_len, &W, &need, &final)) return NULL;
    if (!check_island(n, adj_len, W)) return NULL;
    int bound = flood_of(colors, (int)n, adjacency, W, need, final, NULL, NULL, NULL);
    return bound < 0 ? NULL : PyLong_FromLong(bound);
}

/* path_flood_corridor(colors, adjacency, words[, asked]): (the bound, the corridor of
 * pf_corridor as n little-endian uint64 color sets, one for each region and none but a
 * representative's nonzero, or None when there is none to give).  `asked`, n such sets,
 * holds the moves asked about, by representative (default: all). */
static PyObject *core_path_flood_corridor(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency, *asked = NULL;
    Py_ssize_t n, adj_len, asked_len = 0;
    int W, given = 0;
    if (!PyArg_ParseTuple(args, "y#y#i|y#", &colors, &n, &adjacency, &adj_len, &W, &asked, &asked_len)) return NULL;
    if (!check_island(n, adj_len, W)) return NULL;
    uint64_t K[MAXN];
    if (asked && asked_len != (Py_ssize_t)sizeof(uint64_t) * n) {
        PyErr_SetString(PyExc_ValueError, "asked: one 8-byte color set for each region");
        return NULL;
    }
    if (asked)
        memcpy(K, asked, sizeof(uint64_t) * n);
    else
        memset(K, 0xFF, sizeof(K));
    int bound = flood_of(colors, (int)n, adjacency, W, -1, 0, K, &given, NULL);
    if (bound < 0) return NULL;
    if (!given) return Py_BuildValue("(iO)", bound, Py_None);
    return Py_BuildValue("(iy#)", bound, (const char *)K, (Py_ssize_t)(sizeof(uint64_t) * n));
}

/* path_flood_pairs(colors, adjacency, words): A(u, v) for every pair of the coloring's
 * regions, in the order of their representatives, as m * m bytes row by row: the levels
 * path_flood reads its bound from (pathflood.pair_prints is the Python twin; the tests
 * compare them pair by pair). */
static PyObject *core_path_flood_pairs(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W;
    if (!PyArg_ParseTuple(args, "y#y#i", &colors, &n, &adjacency, &adj_len, &W)) return NULL;
    if (!check_island(n, adj_len, W)) return NULL;
    PyObject *table = NULL;
    return flood_of(colors, (int)n, adjacency, W, -1, 0, NULL, NULL, &table) < 0 ? NULL : table;
}

static PyObject *core_choose_orientation(PyObject *self, PyObject *args) {
    const uint8_t *colors, *adjacency;
    Py_ssize_t n, adj_len;
    int W;
    if (!PyArg_ParseTuple(args, "y#y#i", &colors, &n, &adjacency, &adj_len, &W)) return NULL;
    if (!check_island(n, adj_len, W)) return NULL;
    int choice = choose_orientation(colors, (int)n, (const word *)adjacency, W);
    if (choice == ORIENTATION_NO_MEMORY) return PyErr_NoMemory();
    return PyLong_FromLong(choice);
}

/* symmetric_image(colors, symmetry, region): the colors of the image the sweep stores for
 * the state with these region colors (sym_canon), as bytes, and the region that the
 * automorphism taken maps `region` to; the tests check both against the group. */
static PyObject *core_symmetric_image(PyObject *self, PyObject *args) {
    const uint8_t *colors, *blob;
    Py_ssize_t n, len;
    int region;
    if (!PyArg_ParseTuple(args, "y#y#i", &colors, &n, &blob, &len, &region)) return NULL;
    if (n < 1 || n > MAXN) {
        PyErr_SetString(PyExc_ValueError, "1 to 512 regions");
        return NULL;
    }
    Symmetry sym;
    if (symmetry_read(&sym, blob, (size_t)len, (int)n) < 0) {
        PyErr_SetString(PyExc_ValueError, "symmetry malformed (or out of memory)");
        return NULL;
    }
    if (region < 0 || region >= n) {
        symmetry_free(&sym);
        PyErr_SetString(PyExc_ValueError, "region out of range");
        return NULL;
    }
    KeyShape ks = key_shape(colors, (int)n);
    uint8_t key[MAXN], col[MAXN];
    key_pack(&ks, colors, key);
    sym_canon(&sym, &ks, key, col, &region);
    symmetry_free(&sym);
    key_unpack(&ks, key, col);
    return Py_BuildValue("(y#i)", (const char *)col, n, region);
}

#define KEYWORDS (METH_VARARGS | METH_KEYWORDS)

static PyMethodDef methods[] = {
    {"astar", (PyCFunction)(void (*)(void))core_astar, KEYWORDS, "A* over one island (see solver/core.py)."},
    {"sweep", (PyCFunction)(void (*)(void))core_sweep, KEYWORDS, "A threshold swept by region count (see solver/core.py)."},
    {"spider_bound", core_spider_bound, METH_VARARGS, "The spider bound of a coloring (spider.c)."},
    {"symmetric_image", core_symmetric_image, METH_VARARGS, "The image of a coloring the sweep stores (symmetry.c)."},
    {"pivot_astar", (PyCFunction)(void (*)(void))core_pivot_astar, KEYWORDS, "A* for fixed-pivot boards (see solver/core.py)."},
    {"path_flood", core_path_flood, METH_VARARGS, "The path-flood bound of a coloring (see solver/core.py)."},
    {"path_flood_corridor", core_path_flood_corridor, METH_VARARGS, "The path-flood bound and its corridor (see solver/core.py)."},
    {"path_flood_pairs", core_path_flood_pairs, METH_VARARGS, "A(u, v) of every pair of regions (see solver/core.py)."},
    {"choose_orientation", core_choose_orientation, METH_VARARGS, "The winding bound's orientation (see solver/core.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Compiled A* core of kamivision.", -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }

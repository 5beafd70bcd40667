/* The Python face of _patterns: the only part that touches the Python C API.  Each
 * function checks its arguments, runs a part that knows nothing of Python (build.c,
 * level.c, ida.c) without the GIL, and builds the answer.
 *
 *   build(goal_cells) -> bytes
 *   seed(goal_cells, visited, frontier), level(...) -> (placements, states, clipped)
 *   ida(tiles, [(tiles, table), ...], max_seconds, max_nodes) -> (status, path, expanded, bound)
 */

/* Ctrl-C, asked for by the IDA* now and then (without the GIL: it is taken here). */
static int interrupted(void) {
    PyGILState_STATE state = PyGILState_Ensure();
    int stop = PyErr_CheckSignals() != 0;
    if (stop) PyErr_Clear();
    PyGILState_Release(state);
    return stop;
}

static PyObject *build(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "y#", &goal, &k)) return NULL;
    if (k < 1 || k > BYTE_MAX_K) return PyErr_Format(PyExc_ValueError, "a pattern has 1 to %d tiles", BYTE_MAX_K);
    for (int i = 0; i < k; i++)
        if (goal[i] < 1 || goal[i] >= CELLS) return PyErr_Format(PyExc_ValueError, "pattern tiles are 1 to 15");
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)placements((int)k));
    if (!out) return NULL;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = build_table(goal, (int)k, (uint8_t *)PyBytes_AS_STRING(out));
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

static PyObject *ida(PyObject *self, PyObject *args) {
    const uint8_t *tiles;
    Py_ssize_t count;
    PyObject *groups, *out = NULL;
    double max_seconds;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "y#O!dK", &tiles, &count, &PyList_Type, &groups, &max_seconds, &max_nodes)) return NULL;
    if (count != CELLS) return PyErr_Format(PyExc_ValueError, "16 tiles expected");
    Py_ssize_t group_count = PyList_GET_SIZE(groups);
    if (group_count < 1 || group_count > MAX_GROUPS) return PyErr_Format(PyExc_ValueError, "1 to %d groups", MAX_GROUPS);
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    Py_buffer views[MAX_GROUPS]; /* the tables (bytes, or a file's mmap), held for the search */
    int held = 0, seen = 0;
    for (int c = 0; c < CELLS; c++) s->group_of[c] = -1;
    for (int g = 0; g < group_count; g++, s->groups++) {
        const uint8_t *members;
        Py_ssize_t k;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(groups, g), "y#y*", &members, &k, &views[g])) goto done;
        held++;
        uint64_t size = (uint64_t)views[g].len;
        if (k < 1 || k > MAX_K || (size != placements((int)k) && size != (placements((int)k) + 1) / 2)) {
            PyErr_Format(PyExc_ValueError, "group %d: its table does not fit its tiles", g);
            goto done;
        }
        s->k[g] = (int)k;
        s->table[g] = views[g].buf;
        int packed = size != placements((int)k);
        if (g > 0 && packed != s->packed) {
            PyErr_Format(PyExc_ValueError, "the tables must be all packed or all bytes");
            goto done;
        }
        s->packed = packed;
        for (int i = 0; i < k; i++) {
            int t = members[i];
            if (t < 1 || t >= CELLS || (seen >> t & 1)) {
                PyErr_Format(PyExc_ValueError, "the groups must share out the tiles 1 to 15");
                goto done;
            }
            seen |= 1 << t;
            s->tiles[g][i] = (uint8_t)t;
            s->group_of[t] = g;
            s->index_of[t] = i;
        }
    }
    if (seen != 0xFFFE) {
        PyErr_Format(PyExc_ValueError, "the groups must share out the tiles 1 to 15");
        goto done;
    }
    int blank = -1, check = 0;
    for (int c = 0; c < CELLS; c++) {
        s->tile_at[c] = tiles[c];
        if (tiles[c] >= CELLS || (check >> tiles[c] & 1)) {
            PyErr_Format(PyExc_ValueError, "the tiles must be 0 to 15, each once");
            goto done;
        }
        check |= 1 << tiles[c];
        s->cell_of[tiles[c]] = (uint8_t)c;
        if (tiles[c] == 0) blank = c;
    }
    for (int g = 0; g < s->groups; g++) {
        s->part[g] = group_value(s, g);
        s->mirror[g] = mirror_value(s, g);
        s->sum += s->part[g];
        s->mirror_sum += s->mirror[g];
    }
    for (int t = 1; s->packed && t < CELLS; t++) s->manhattan += distance[s->cell_of[t]][t];
    s->max_nodes = max_nodes;
    s->deadline = max_seconds > 0 ? now() + max_seconds : 0;
    int bound, found;
    s->interrupted = interrupted;
    Py_BEGIN_ALLOW_THREADS
    found = ida_search(s, blank, &bound);
    Py_END_ALLOW_THREADS
    PyObject *path = found == -1 ? PyBytes_FromStringAndSize((const char *)s->path, s->length) : Py_NewRef(Py_None);
    int status = found == -1 ? STATUS_FOUND : (s->status ? s->status : STATUS_NONE);
    out = Py_BuildValue("(iNKi)", status, path, (unsigned long long)s->expanded, found == -1 ? s->length : bound);
done:
    for (int g = 0; g < held; g++) PyBuffer_Release(&views[g]);
    free(s);
    return out;
}


/* Whether goal names 1 to MAX_K tiles and the buffers fit a packed build of them:
   visited (2 bytes a placement), frontier and the next level (a bit a placement, in
   64-bit words), packed (4 bits a placement); next and packed may be NULL (not given). */
static int build_fits(const uint8_t *goal, Py_ssize_t k, const Py_buffer *visited, const Py_buffer *frontier,
                      const Py_buffer *next, const Py_buffer *packed) {
    if (k < 1 || k > MAX_K) return 0;
    for (int i = 0; i < k; i++)
        if (goal[i] < 1 || goal[i] >= CELLS) return 0;
    uint64_t size = placements((int)k), words = (size + 63) / 64;
    return (uint64_t)visited->len == 2 * size && (uint64_t)frontier->len == 8 * words &&
           (!next || (uint64_t)next->len == 8 * words) && (!packed || (uint64_t)packed->len == (size + 1) / 2);
}

#define NOT_FIT "the build's buffers do not fit a pattern of 1 to %d tiles"

/* Level 0: the goal placement, with the empty cell on any free cell (its goal is not
   constrained), in visited and frontier. */
static PyObject *seed(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    Py_buffer visited, frontier;
    if (!PyArg_ParseTuple(args, "y#w*w*", &goal, &k, &visited, &frontier)) return NULL;
    int fits = build_fits(goal, k, &visited, &frontier, NULL, NULL);
    if (fits) {
        unsigned used = 0;
        for (int i = 0; i < k; i++) used |= 1u << goal[i];
        uint32_t r = rank(goal, (int)k);
        ((uint16_t *)visited.buf)[r] = (uint16_t)(~used & 0xFFFFu);
        ((uint64_t *)frontier.buf)[r >> 6] |= 1ull << (r & 63);
    }
    PyBuffer_Release(&visited);
    PyBuffer_Release(&frontier);
    if (!fits) return PyErr_Format(PyExc_ValueError, NOT_FIT, MAX_K);
    Py_RETURN_NONE;
}

static PyObject *level(PyObject *self, PyObject *args) {
    const uint8_t *goal;
    Py_ssize_t k;
    int depth, threads;
    unsigned long long first, last;
    Py_buffer views[4]; /* visited, frontier, next, packed */
    if (!PyArg_ParseTuple(args, "y#iw*w*w*w*iKK", &goal, &k, &depth, &views[0], &views[1], &views[2], &views[3],
                          &threads, &first, &last))
        return NULL;
    int fits = build_fits(goal, k, &views[0], &views[1], &views[2], &views[3]);
    uint64_t reached = 0, components = 0, clipped = 0;
    if (fits) {
        Py_BEGIN_ALLOW_THREADS
        expand_level(goal, (int)k, depth, views[0].buf, views[1].buf, views[2].buf, views[3].buf, threads, first,
                     last, &reached, &components, &clipped);
        Py_END_ALLOW_THREADS
    }
    for (int i = 0; i < 4; i++) PyBuffer_Release(&views[i]);
    if (!fits) return PyErr_Format(PyExc_ValueError, NOT_FIT, MAX_K);
    return Py_BuildValue("(KKK)", (unsigned long long)reached, (unsigned long long)components, (unsigned long long)clipped);
}

static PyMethodDef methods[] = {
    {"build", build, METH_VARARGS, "build(goal_cells) -> bytes: a pattern database of the 4 x 4 puzzle"},
    {"seed", seed, METH_VARARGS, "seed(goal_cells, visited, frontier): a packed build's level 0"},
    {"level", level, METH_VARARGS,
     "level(goal_cells, depth, visited, frontier, next, packed, threads, first_word, last_word) -> (placements, states, "
     "clipped): a slice of the next level"},
    {"ida", ida, METH_VARARGS, "ida(tiles, [(tiles, table), ...], max_seconds, max_nodes) -> (status, path, expanded, bound)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_patterns", NULL, -1, methods};

PyMODINIT_FUNC PyInit__patterns(void) {
    init_geometry();
    return PyModule_Create(&module);
}

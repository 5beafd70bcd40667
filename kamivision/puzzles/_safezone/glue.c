/* The Python face of _safezone: the only part that touches the Python C API.  astar()
 * checks its arguments, runs the search (search.c) without the GIL, and builds the
 * answer; the search reaches Python only through poll_python (Ctrl-C and progress). */

/* The progress callback and when it reports next. */
typedef struct {
    PyObject *progress; /* None: no reports */
    double next_report; /* seconds since the start */
} Calls;

/* Ctrl-C and the progress report, with the GIL taken here: 0 to go on, 1 on Ctrl-C, -1 when
 * the callback failed (its error left set). */
static int poll_python(void *ctx, long long expanded, int bound, double seconds) {
    Calls *calls = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = 0;
    if (PyErr_CheckSignals()) {
        stop = -1;
    } else if (calls->progress != Py_None && seconds >= calls->next_report) {
        calls->next_report = seconds + 0.5;
        PyObject *info = Py_BuildValue("{s:L,s:i,s:d}", "expanded", expanded, "bound", bound, "seconds", seconds);
        PyObject *r = info ? PyObject_CallOneArg(calls->progress, info) : NULL;
        Py_XDECREF(info);
        if (!r) stop = -1;
        Py_XDECREF(r);
    }
    if (stop < 0 && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) { /* Ctrl-C stops it like a limit */
        PyErr_Clear();
        stop = 1;
    }
    PyGILState_Release(gil);
    return stop;
}

/* astar(rows, columns, floor, zones, blocks, stop_on_zone, distances, max_seconds,
 *       max_nodes, progress) -> (status, moves, expanded, bound) */
static PyObject *astar(PyObject *self, PyObject *args) {
    int rows, columns, stop_on_zone;
    unsigned long long floor, zones, blocks;
    const char *distances;
    Py_ssize_t size;
    double max_seconds;
    long long max_nodes;
    PyObject *progress;
    if (!PyArg_ParseTuple(args, "iiKKKpy#dLO", &rows, &columns, &floor, &zones, &blocks, &stop_on_zone, &distances,
                          &size, &max_seconds, &max_nodes, &progress))
        return NULL;
    int n = rows * columns, z = __builtin_popcountll(zones);
    if (rows < 1 || columns < 1 || n > MAX_CELLS) return PyErr_Format(PyExc_ValueError, "1 to %d cells", MAX_CELLS);
    if (z < 1 || size != (Py_ssize_t)(z * n * 2))
        return PyErr_Format(PyExc_ValueError, "distances: %d zones x %d cells of int16 expected", z, n);
    if (progress != Py_None && !PyCallable_Check(progress)) return PyErr_Format(PyExc_TypeError, "progress must be callable");
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->zones = z;
    s->zone_bits = zones;
    s->stop_on_zone = stop_on_zone;
    for (int k = 0; k < z; k++) memcpy(s->distance[k], distances + (size_t)k * n * 2, (size_t)n * 2);
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++)
        for (int cell = 0; cell < n; cell++) {
            int r = cell / columns + dr[d], c = cell % columns + dc[d];
            int next = (r >= 0 && r < rows && c >= 0 && c < columns) ? r * columns + c : -1;
            s->step[d][cell] = (next >= 0 && (floor >> next & 1)) ? next : -1;
        }
    Calls calls = {progress, 0.5};
    Clock clock = {now(), max_seconds, max_nodes, 0, poll_python, &calls, STATUS_FOUND};
    int32_t bound = 0, goal = -1;
    int status, fail = FAIL_NONE;
    Py_BEGIN_ALLOW_THREADS
    status = run(s, blocks, &clock, &bound, &goal, &fail);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (status < 0 && fail == FAIL_MEMORY) {
        PyErr_NoMemory();
    } else if (status < 0) {
        /* FAIL_CALLBACK: the callback's error is set */
    } else {
        PyObject *moves = Py_None;
        Py_INCREF(Py_None);
        if (status == STATUS_FOUND) {
            Py_DECREF(moves);
            moves = PyList_New(0);
            for (int32_t i = goal; moves && s->nodes[i].parent >= 0; i = s->nodes[i].parent) {
                PyObject *move = Py_BuildValue("(iii)", s->nodes[i].from, s->nodes[i].dir, s->nodes[i].to);
                if (!move || PyList_Append(moves, move)) Py_CLEAR(moves);
                Py_XDECREF(move);
            }
            if (moves && PyList_Reverse(moves)) Py_CLEAR(moves);
        }
        if (moves) out = Py_BuildValue("(iNLi)", status, moves, clock.expanded, bound);
    }
    free(s->nodes);
    free(s->heap);
    free(s);
    return out;
}

static PyMethodDef methods[] = {
    {"astar", astar, METH_VARARGS,
     "astar(rows, columns, floor, zones, blocks, stop_on_zone, distances, max_seconds, max_nodes, progress)"
     " -> (status, moves, expanded, bound): Safe Zone's A* with the assignment bound"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_safezone", NULL, -1, methods};

PyMODINIT_FUNC PyInit__safezone(void) { return PyModule_Create(&module); }

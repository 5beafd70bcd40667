/* What every search returns, and the limits that stop it.
 *
 * The searches never touch Python: progress reports, Ctrl-C and the caller's `improve`
 * reach them through the function pointers below, which only the glue (glue.c) fills. */

#include "status.h" /* STATUS_*, FAIL_*, PollFn, now() */

/* Called once by the free A* when its memory fills, with the bound proven and the states
 * expanded: it may set *better to the length of a shorter solution it found (left as it
 * is: none).  Returns 0, 1 on Ctrl-C (the search stops like a limit), -1 on an error. */
typedef int (*ImproveFn)(void *ctx, int bound, long long expanded, int *better);

/* Limits of a search.  Ctrl-C stops it like a limit and sets `interrupted`, so the caller
 * still gets the bound and the best answer found. */
typedef struct {
    double started, max_seconds; /* max_seconds < 0: none */
    long long max_nodes, max_bytes; /* < 0: none */
    PollFn poll;                 /* NULL: none */
    void *ctx;
    int interrupted;
    long long every; /* the clock, Ctrl-C and progress are looked at every `every` expansions (a power of 2) */
} Limits;

static Limits limits_start(double max_seconds, long long max_nodes, PollFn poll, void *ctx) {
    return (Limits){now(), max_seconds, max_nodes, -1, poll, ctx, 0, 4096};
}

/* Expansions with the path-flood bound cost up to 400 us each (Threegrid5): 4096 of them
 * took 1.7 s between two looks at Ctrl-C and the clock; 256 take a tenth of a second, and
 * a look (the clock, a progress call) costs microseconds.  For the A*s; the sweep looks
 * after each chunk of parents instead (sweep.c). */
static void limits_for_path_flood(Limits *lim, int path_flood) {
    if (path_flood) lim->every = 256;
}

/* The time, Ctrl-C, the progress report and memory, checked now: 0 to go on, 1 when a
 * limit (or Ctrl-C) stops the search, -1 on a failed callback. */
static int limits_now(Limits *lim, long long expanded, int f, const Store *st) {
    double el = now() - lim->started;
    if (lim->poll) {
        int r = lim->poll(lim->ctx, expanded, f, el);
        if (r > 0) lim->interrupted = 1;
        if (r) return r;
    }
    if (lim->max_seconds >= 0 && el > lim->max_seconds) return 1;
    if (lim->max_bytes >= 0 && (long long)store_bytes(st) > lim->max_bytes) return 1;
    return 0;
}

/* Checked every `every` expansions (the node limit every time): 0, 1 or -1 as above. */
static int over_limits(Limits *lim, long long expanded, int f, const Store *st) {
    if ((expanded & (lim->every - 1)) == 0) {
        int over = limits_now(lim, expanded, f, st);
        if (over) return over;
    }
    return lim->max_nodes >= 0 && expanded > lim->max_nodes;
}

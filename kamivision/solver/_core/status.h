/* How a search ended or failed, how it asks for Ctrl-C and progress, and the clock its
 * limits are read on: shared by the KAMI core (limits.c), the sliding puzzle's IDA*
 * (kamivision/puzzles/_patterns/) and Safe Zone's A* (kamivision/puzzles/_safezone/);
 * the statuses are mirrored in Python by kamivision.solver.core.Status. */
#ifndef KAMIVISION_STATUS_H
#define KAMIVISION_STATUS_H

#include <time.h>

enum {
    STATUS_FOUND = 0,       /* a path found, optimal below the limit it was given */
    STATUS_NONE = 1,        /* no solution below the limit (or none at all) */
    STATUS_LIMIT = 2,       /* a time, node or memory limit stopped it */
    STATUS_INTERRUPTED = 3, /* as STATUS_LIMIT, stopped by Ctrl-C */
    STATUS_MEMORY = 4,      /* its memory filled, and it was asked to return then */
};

/* Why a search failed, when it did (its status then means nothing). */
enum {
    FAIL_NONE = 0,
    FAIL_CALLBACK = 1, /* a callback failed with an error other than Ctrl-C (the glue has it) */
    FAIL_MEMORY = 2,   /* an allocation failed */
};

/* Called now and then from the thread that started a search, by its limits: 0 to go on,
 * 1 when the user asked to stop (Ctrl-C), -1 on an error (the search then fails with
 * FAIL_CALLBACK).  Only an extension's glue fills it: the searches never touch Python. */
typedef int (*PollFn)(void *ctx, long long expanded, int bound, double seconds);

/* Seconds on the monotonic clock (the limits' only clock). */
static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#endif

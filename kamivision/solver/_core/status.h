/* How a search ended, and the clock its limits are read on: shared by the KAMI core
 * (limits.c) and the sliding puzzle's IDA* (kamivision/puzzles/_patterns.c), and mirrored
 * in Python by kamivision.solver.core.Status. */
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

/* Seconds on the monotonic clock (the limits' only clock). */
static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#endif

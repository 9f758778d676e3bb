/* benchclock.h: what the benchmark programs share: a monotonic clock in seconds and the
 * comparison of doubles for qsort (medians of repeated timings). */
#ifndef LCPBENCH_TESTS_BENCHCLOCK_H
#define LCPBENCH_TESTS_BENCHCLOCK_H

#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif

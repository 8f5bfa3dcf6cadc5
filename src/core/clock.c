/*
 * clock.c - the one clock every timing in nqueens reads.
 *
 * Monotonic, so that a run's elapsed time and its progress estimate do not
 * jump when the wall clock is set (NTP, a suspended laptop).
 */
#include <time.h>

#include "nqueens.h"

double nq_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

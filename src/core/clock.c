/*
 * clock.c - the one clock every timing in nqueens reads.
 *
 * Monotonic, so that a run's elapsed time and its progress estimate do not
 * jump when the wall clock is set (NTP, a suspended laptop).
 */
#include <time.h>

#include "core.h"

double nq_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU time of the calling thread: what an estimate times its samples
 * by, so that another program's turn on the core (or a page fault's
 * wait) is not taken for the count's own work. */
double nq_thread_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return nq_clock_seconds(); /* a system without the clock */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

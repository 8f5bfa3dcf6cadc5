/*
 * stop.h - letting a long unit give up when the run is asked to stop.
 *
 * A unit of a big board can run for hours, and a Ctrl-C that waits for it
 * is a Ctrl-C that does not work.  Whoever runs a unit (the thread pool,
 * an MPI worker) hands it the run's stop flag as data (nq_unit_env.stop,
 * and nq_frontier.stop for the kernels); the kernels look at it between
 * pieces of their search, and a unit that saw it set returns
 * NQ_ERR_STOPPED: it is not done, not reported, and runs again on resume.
 * A NULL flag never stops, and the unit runs to its end.
 */
#ifndef NQ_STOP_H
#define NQ_STOP_H

#include <signal.h>

/* The flag is set by a signal handler or another thread, hence the atomic
 * load; relaxed, since nothing else is published through it. */
static inline int nq_stop_requested(const volatile sig_atomic_t *stop)
{
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

#endif

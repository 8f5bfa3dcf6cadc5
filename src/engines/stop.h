/*
 * stop.h - letting a long unit give up when the run is asked to stop.
 *
 * A unit of a big board can run for hours, and a Ctrl-C that waits for it
 * is a Ctrl-C that does not work.  The runner points nq_unit_stop, one per
 * thread, at the run's stop flag; the kernels look at it between pieces of
 * their search, and a unit that saw it set returns NQ_ERR_STOPPED: it is
 * not done, not reported, and runs again on resume.  Threads the runner
 * did not start (MPI workers, a lone nq_plan_run_unit) leave it NULL, and
 * their units run to the end.
 */
#ifndef NQ_STOP_H
#define NQ_STOP_H

#include <signal.h>

extern _Thread_local volatile sig_atomic_t *nq_unit_stop;

static inline int nq_unit_stopping(void)
{
    return nq_unit_stop && __atomic_load_n(nq_unit_stop, __ATOMIC_RELAXED);
}

#endif

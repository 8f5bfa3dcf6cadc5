/*
 * threads.c - how many threads "0: one per core" means, decided once for
 * the whole library (the thread pool, the MPI workers, the reports).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#include <unistd.h>

#include "core.h"

/* The cores this process may run on, not the machine's: an MPI rank bound
 * to one core, a taskset or a container's cpuset get as many threads as
 * they have cores. */
int nq_resolve_threads(int asked)
{
    if (asked > 0)
        return asked;
#if defined(NQ_NO_THREADS)
    return 1;
#else
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
#endif
}

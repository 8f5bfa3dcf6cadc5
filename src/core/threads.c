/*
 * threads.c - how many threads "0: one per core" means, decided once for
 * the whole library (the thread pool, the MPI workers, the reports).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
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

/* ---- one job's items on several threads ---- */

typedef struct {
    uint64_t count;
    atomic_uint_fast64_t next;
    void (*fn)(void *ctx, uint64_t item);
    void *ctx;
} parallel_job;

static void *take_items(void *arg)
{
    parallel_job *j = arg;
    for (uint64_t i; (i = atomic_fetch_add(&j->next, 1)) < j->count;)
        j->fn(j->ctx, i);
    return NULL;
}

void nq_parallel_for(uint64_t count, int threads,
                     void (*fn)(void *ctx, uint64_t item), void *ctx)
{
    parallel_job j = {.count = count, .fn = fn, .ctx = ctx};
    pthread_t t[NQ_PARALLEL_MAX];
    int started = 1;
    atomic_init(&j.next, 0);
#if !defined(NQ_NO_THREADS)
    int n = threads < NQ_PARALLEL_MAX ? threads : NQ_PARALLEL_MAX;
    for (; started < n; started++)
        if (pthread_create(&t[started], NULL, take_items, &j) != 0)
            break;
#else
    (void)threads; /* one thread: this one */
#endif
    take_items(&j); /* this thread too, and alone where none started */
    for (int i = 1; i < started; i++)
        pthread_join(t[i], NULL);
}

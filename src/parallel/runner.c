/*
 * runner.c - running a plan's units on a pool of threads.
 *
 * Units are handed out from one atomic counter, largest first (plans list
 * them so), which balances the load without a queue or a lock.  Each
 * thread sums into its own tally; the tallies are added at the end, so the
 * result is the same for any number of threads.  The calling thread only
 * watches and reports progress.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../engines/engine.h"

typedef struct {
    const nq_plan *plan;
    atomic_uint_fast64_t next, done;
    atomic_int failed;          /* first failing nq_status, 0 if none */
    pthread_mutex_t lock;
    pthread_cond_t finished;    /* signalled as each worker ends */
    int workers_left;
} pool;

typedef struct {
    pool *pool;
    nq_tally sum;
} worker;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(pool *p, nq_status st)
{
    int expected = 0;
    atomic_compare_exchange_strong(&p->failed, &expected, (int)st);
}

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->pool;
    void *scratch = NULL;
    const nq_engine *e = p->plan->engine;
    for (;;) {
        uint64_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->plan->units || atomic_load(&p->failed))
            break;
        nq_tally t = {0};
        nq_status st = e->unit(p->plan, i, &scratch, &t);
        if (st == NQ_OK)
            st = nq_tally_add(&w->sum, &t);
        if (st != NQ_OK) {
            fail(p, st);
            break;
        }
        atomic_fetch_add(&p->done, 1);
    }
    if (e->free_scratch)
        e->free_scratch(scratch);
    pthread_mutex_lock(&p->lock);
    p->workers_left--;
    pthread_cond_signal(&p->finished);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void report(const nq_request *req, pool *p, double t0)
{
    if (!req->progress)
        return;
    nq_progress pr = {atomic_load(&p->done), p->plan->units, now() - t0};
    req->progress(req->progress_ctx, &pr);
}

/* Wait for the workers, reporting progress about five times a second. */
static void watch(const nq_request *req, pool *p, double t0)
{
    pthread_mutex_lock(&p->lock);
    while (p->workers_left > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&p->finished, &p->lock, &until);
        pthread_mutex_unlock(&p->lock);
        report(req, p, t0);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

int nq_request_threads(const nq_request *req)
{
    if (req && req->threads > 0)
        return req->threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
}

nq_status nq_plan_execute(const nq_plan *plan, const nq_request *req,
                          nq_tally *sum)
{
    int threads = nq_request_threads(req), started = 0;
    pool p = {.plan = plan, .workers_left = threads};
    worker *ws = calloc((size_t)threads, sizeof *ws);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    double t0 = now();
    nq_status st = NQ_OK;
    if (!ws || !ids) {
        free(ws);
        free(ids);
        return NQ_ERR_NOMEM;
    }
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    atomic_init(&p.failed, 0);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.finished, NULL);
    for (; started < threads; started++) {
        ws[started].pool = &p;
        if (pthread_create(&ids[started], NULL, work, &ws[started]) != 0)
            break;
    }
    if (started < threads) {
        fail(&p, NQ_ERR_THREAD);
        pthread_mutex_lock(&p.lock);
        p.workers_left -= threads - started;
        pthread_mutex_unlock(&p.lock);
    }
    watch(req, &p, t0);
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    report(req, &p, t0);
    *sum = (nq_tally){0};
    for (int i = 0; i < started && st == NQ_OK; i++)
        st = nq_tally_add(sum, &ws[i].sum);
    if (atomic_load(&p.failed))
        st = (nq_status)atomic_load(&p.failed);
    pthread_cond_destroy(&p.finished);
    pthread_mutex_destroy(&p.lock);
    free(ws);
    free(ids);
    return st;
}

nq_status nq_tally_add(nq_tally *a, const nq_tally *b)
{
    nq_tally r = *a;
    if (nq_add_u128(&r.total, b->total) || nq_add_u128(&r.unique, b->unique) ||
        nq_add_u128(&r.fixed180, b->fixed180) ||
        nq_add_u128(&r.fixed90, b->fixed90) || nq_add_u128(&r.nodes, b->nodes))
        return NQ_ERR_OVERFLOW;
    *a = r;
    return NQ_OK;
}

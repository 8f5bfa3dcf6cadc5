/*
 * runner.c - running a plan's units on a pool of threads.
 *
 * The units to run (all, an explicit list, or a share less those already
 * done) are listed first; threads then take them from one atomic counter,
 * which balances the load without a queue.  A listed share is taken in a
 * scrambled order (see scramble), so that the fraction of units done is a
 * fair measure of the work done and the ETA shown from it is honest.
 * Each thread sums into its own tally and the tallies are added at the
 * end, so the result is the same for any number of threads.  Finished
 * units are reported one at a time (a journal writes them down); a stop
 * request is honoured between units, and inside long ones (stop.h), which
 * then give up unreported, so whatever was reported is complete (a batch
 * cut short reports the units it did finish).
 * The calling thread only watches and reports progress.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/core.h"
#include "../engines/engine.h"

typedef struct {
    const nq_plan *plan;
    const nq_run_options *opt;
    uint64_t *ids, count;       /* the units to run */
    uint64_t before, share;     /* the share's units done before, in all */
    atomic_uint_fast64_t next, done;
    atomic_int failed;          /* first failing nq_status, 0 if none */
    pthread_mutex_t lock;       /* serialises on_unit; guards workers_left */
    pthread_cond_t finished;    /* signalled as each worker ends */
    int workers_left;
#if defined(NQ_NO_THREADS)
    double progress_t0, progress_last; /* the one worker's progress clock */
#endif
} pool;

/* The words of a worker's failure: what a GPU runtime says, a line. */
#define WORDS 256

typedef struct {
    pool *pool;
    nq_tally sum;
    char why[WORDS];            /* its engine's words for a failure */
} worker;

/* The first failure is the run's: its status, and its words (words NULL
 * or empty: none) in the options' buffer, written by the one thread
 * whose failure came first and read after every worker is joined. */
static void fail(pool *p, nq_status st, const char *words)
{
    int expected = 0;
    const nq_run_options *o = p->opt;
    if (atomic_compare_exchange_strong(&p->failed, &expected, (int)st) &&
        words && words[0] && o->why && o->why_size)
        snprintf(o->why, o->why_size, "%s", words);
}

static int selected(const nq_run_options *o, uint64_t u)
{
    return nq_unit_chosen(o->part, o->parts, o->done, u);
}

/* A share that names none of the units: part K of M with K not in
 * 1..M, or a part without parts (0/0 is the whole plan); a count of ids
 * with no list; threads below 0 (0 is one per core). */
static int bad_options(const nq_run_options *o)
{
    return (o->parts ? o->part < 1 || o->part > o->parts : o->part != 0) ||
           (o->count && !o->ids) || o->threads < 0;
}

uint64_t nq_plan_selected(const nq_plan *plan, const nq_run_options *o)
{
    uint64_t k = 0;
    if (!plan || !o || bad_options(o))
        return 0;
    for (uint64_t u = 0; u < plan->units; u++)
        k += (uint64_t)selected(o, u);
    return k;
}

/* Plans list their units in the order they are made, and neighbours are
 * alike: at N = 18 the fast plan's early units are several times the cost
 * of its late ones, so "1000 of 6813 units" after a tenth of the time would
 * promise an end far too soon (the ETA was off 4.6 times).  Taking them in
 * the order k -> k * s mod count, s near count / phi and prime to count,
 * spreads every stretch of the run over the whole plan (a golden-ratio
 * sequence is as even a sample as a fixed order gets); the fraction of
 * units done then tracks the work done within a few percent (1.02-1.06 at
 * N = 12..18; bench/RESULTS.md).  Unit 0, which fast plans make their
 * largest, stays first; no unit is smaller by being late, and the last
 * ones are short next to the run. */
static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

static void scramble(const uint64_t *in, uint64_t *out, uint64_t k)
{
    uint64_t s = (uint64_t)((unsigned __int128)k * 0x9E3779B97F4A7C15ull >> 64);
    while (k > 1 && gcd(s, k) != 1)
        s++;
    for (uint64_t j = 0, pos = 0; j < k; j++, pos = (pos + s) % k)
        out[j] = in[pos];
}

/* An explicit list is run as given (its caller chose the order); a unit
 * off the plan, or one listed twice, is refused: counted twice, its
 * solutions would be added twice to a sum that says nothing of it. */
static nq_status list_given(pool *p)
{
    const nq_run_options *o = p->opt;
    unsigned char *seen = calloc(p->plan->units / 8 + 1, 1);
    nq_status st = seen ? NQ_OK : NQ_ERR_NOMEM;
    for (uint64_t i = 0; i < o->count && st == NQ_OK; i++) {
        uint64_t u = p->ids[i] = o->ids[i];
        if (u >= p->plan->units || seen[u / 8] >> (u % 8) & 1)
            st = NQ_ERR_ARG;
        else
            seen[u / 8] |= (unsigned char)(1u << (u % 8));
    }
    free(seen);
    p->share = p->count = o->count;
    return st;
}

static nq_status list_units(pool *p)
{
    const nq_run_options *o = p->opt;
    nq_run_options share = {.part = o->part, .parts = o->parts};
    uint64_t k = o->ids ? o->count : nq_plan_selected(p->plan, o);
    p->ids = malloc((k ? k : 1) * sizeof *p->ids);
    if (!p->ids)
        return NQ_ERR_NOMEM;
    if (o->ids)
        return list_given(p);
    uint64_t *plan_order = malloc((k ? k : 1) * sizeof *plan_order);
    if (!plan_order)
        return NQ_ERR_NOMEM;
    k = 0;
    for (uint64_t u = 0; u < p->plan->units; u++)
        if (selected(o, u))
            plan_order[k++] = u;
    scramble(plan_order, p->ids, k);
    free(plan_order);
    p->count = k;
    p->share = nq_plan_selected(p->plan, &share);
    p->before = p->share - k;
    return NQ_OK;
}

static nq_status report_unit(pool *p, uint64_t unit, const nq_tally *t)
{
    nq_status st = NQ_OK;
    if (!p->opt->on_unit)
        return st;
    pthread_mutex_lock(&p->lock);
    st = p->opt->on_unit(p->opt->ctx, unit, t);
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* The stop flag is set by a signal handler (with an atomic store) and read
 * here by every worker. */
static int stopping(pool *p)
{
    return atomic_load(&p->failed) ||
           (p->opt->stop && __atomic_load_n(p->opt->stop, __ATOMIC_RELAXED));
}

/* Add the units of ids[i .. i+n) marked whole to the worker's tally and
 * report them, one by one. */
static nq_status report_whole(pool *p, worker *w, uint64_t i, uint64_t n,
                              const unsigned char *whole, const nq_tally *t)
{
    nq_status st = NQ_OK;
    for (uint64_t k = 0; k < n && st == NQ_OK; k++) {
        if (!whole[k])
            continue;
        st = nq_tally_add(&w->sum, &t[k]);
        if (st == NQ_OK)
            st = report_unit(p, p->ids[i + k], &t[k]);
        if (st == NQ_OK)
            atomic_fetch_add(&p->done, 1);
    }
    return st;
}

/* Run ids[i .. i+n) and report each unit; the engine may take them all in
 * one call (a GPU batch) or one at a time.  A batch that a stop cut short
 * may have counted some of its units to their end (engine.h: env->whole):
 * those are reported too, so a stop on a big board keeps them, and the
 * stop is still returned. */
static nq_status run_some(pool *p, worker *w, uint64_t i, uint64_t n,
                          nq_unit_env *env, nq_tally *t)
{
    const nq_engine *e = p->plan->engine;
    nq_status st;
    for (uint64_t k = 0; k < n; k++)
        t[k] = (nq_tally){0}, env->whole[k] = 0;
    if (e->run_batch)
        st = e->run_batch(p->plan, p->ids + i, n, env, t);
    else
        st = e->unit(p->plan, p->ids[i], env, t);
    if (st == NQ_OK)
        memset(env->whole, 1, n);
    else if (st != NQ_ERR_STOPPED)
        return st;
    nq_status reported = report_whole(p, w, i, n, env->whole, t);
    return reported != NQ_OK ? reported : st;
}

/* Units per call: an engine's batch for this plan, else one. */
static uint64_t batch_size(const nq_plan *plan)
{
    const nq_engine *e = plan->engine;
    unsigned b = e->run_batch && e->batch ? e->batch(plan) : 1;
    return b ? b : 1;
}

static void progress(pool *p, double t0)
{
    if (!p->opt->progress)
        return;
    nq_progress pr = {p->before + atomic_load(&p->done), p->share,
                      nq_clock_seconds() - t0, p->before};
    p->opt->progress(p->opt->progress_ctx, &pr);
}

/* The one worker of a build without threads reports progress itself,
 * about five times a second as watch() does for a pool. */
static void tick(pool *p)
{
#if defined(NQ_NO_THREADS)
    double now = nq_clock_seconds();
    if (now - p->progress_last >= 0.2) {
        p->progress_last = now;
        progress(p, p->progress_t0);
    }
#else
    (void)p;
#endif
}

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->pool;
    uint64_t step = batch_size(p->plan);
    nq_tally *t = calloc(step, sizeof *t);
    unsigned char *whole = calloc(step, 1);
    nq_unit_env env = {.scratch = NULL, .stop = p->opt->stop, .whole = whole,
                       .why = w->why, .why_size = sizeof w->why};
    const nq_engine *e = p->plan->engine;
    if (!t || !whole)
        fail(p, NQ_ERR_NOMEM, NULL);
    while (t && whole && !stopping(p)) {
        uint64_t i = atomic_fetch_add(&p->next, step);
        if (i >= p->count)
            break;
        uint64_t n = p->count - i < step ? p->count - i : step;
        nq_status st = run_some(p, w, i, n, &env, t);
        tick(p);
        if (st != NQ_OK) {
            if (st != NQ_ERR_STOPPED || !stopping(p)) /* else: unit given up */
                fail(p, st, w->why);
            break;
        }
    }
    free(t);
    free(whole);
    if (e->free_scratch)
        e->free_scratch(env.scratch);
    pthread_mutex_lock(&p->lock);
    p->workers_left--;
    pthread_cond_signal(&p->finished);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* A request the size rule refuses gets what a request of 0 threads does:
 * the answer is a number, with no status to say it. */
int nq_request_threads(const nq_request *given)
{
    nq_request req;
    return nq_resolve_threads(nq_request_read(given, &req) == NQ_OK
                              ? req.threads : 0);
}

#if defined(NQ_NO_THREADS)
/* No threads to start (core.h): the calling thread is the one worker,
 * and reports progress between its units as watch() would. */
static nq_status run_pool(pool *p, int threads, nq_tally *sum)
{
    worker w = {.pool = p};
    double t0 = nq_clock_seconds();
    (void)threads;
    p->workers_left = 1;
    p->progress_t0 = p->progress_last = t0;
    work(&w);
    progress(p, t0);
    return nq_tally_add(sum, &w.sum);
}
#else
/* Wait for the workers, reporting progress about five times a second. */
static void watch(pool *p, double t0)
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
        progress(p, t0);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
}

/* Start the workers, wait, and add their tallies into *sum. */
static nq_status run_pool(pool *p, int threads, nq_tally *sum)
{
    worker *ws = calloc((size_t)threads, sizeof *ws);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    double t0 = nq_clock_seconds();
    int started = 0;
    nq_status st = NQ_OK;
    if (!ws || !ids) {
        free(ws);
        free(ids);
        return NQ_ERR_NOMEM;
    }
    p->workers_left = threads;
    for (; started < threads; started++) {
        ws[started].pool = p;
        if (pthread_create(&ids[started], NULL, work, &ws[started]) != 0)
            break;
    }
    if (started < threads) {
        fail(p, NQ_ERR_THREAD, NULL);
        pthread_mutex_lock(&p->lock);
        p->workers_left -= threads - started;
        pthread_mutex_unlock(&p->lock);
    }
    watch(p, t0);
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    progress(p, t0);
    for (int i = 0; i < started && st == NQ_OK; i++)
        st = nq_tally_add(sum, &ws[i].sum);
    free(ws);
    free(ids);
    return st;
}
#endif

/* The threads asked for, but no more than units to run: a thread with
 * no unit does nothing, and INT_MAX of them asked a pool of gigabytes. */
static int pool_threads(int asked, uint64_t units)
{
    int threads = nq_resolve_threads(asked);
    return (uint64_t)threads <= units ? threads : units ? (int)units : 1;
}

nq_status nq_plan_run(const nq_plan *plan, const nq_run_options *o,
                      nq_tally *sum)
{
    pool p = {.plan = plan, .opt = o};
    uint64_t wanted;
    nq_status st;
    if (!plan || !o || !sum || bad_options(o))
        return NQ_ERR_ARG;
    if ((st = list_units(&p)) != NQ_OK) {
        free(p.ids);
        return st;
    }
    wanted = p.count;
    if (o->max_units && o->max_units < p.count) {
        p.count = o->max_units;
        p.share = p.before + p.count; /* the progress of what this run does */
    }
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    atomic_init(&p.failed, 0);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.finished, NULL);
    st = run_pool(&p, pool_threads(o->threads, p.count), sum);
    if (st == NQ_OK && atomic_load(&p.failed))
        st = (nq_status)atomic_load(&p.failed);
    if (st == NQ_OK && atomic_load(&p.done) < wanted)
        st = NQ_ERR_STOPPED;
    pthread_cond_destroy(&p.finished);
    pthread_mutex_destroy(&p.lock);
    free(p.ids);
    return st;
}

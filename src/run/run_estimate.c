/*
 * run_estimate.c - how long a count would take on this machine, before it
 * runs: measured on the count's own plan, on as many threads as it would
 * run, not carried over from smaller boards.
 *
 * A count's time is the sum of its units' times.  Units are drawn at
 * random, each with a chance in proportion to the plan's estimate of its
 * size (fast: Knuth's estimate of its search), and each drawn unit, or a
 * piece of it that the engine cuts as its kernel would count it when the
 * unit is long (engine.h, sample), is counted and timed on its thread's
 * CPU clock.  A sample's seconds over the chance of drawing it estimate
 * the sum of every unit's without bias, whatever the estimates' errors
 * (they only make the spread wider: Hansen and Hurwitz, 1943), and their
 * mean over many samples is the estimate, its spread the interval's.
 * Every thread samples at once, as a count's threads run, so that what
 * one thread costs another (the caches and, on SMT siblings, the core
 * they share) is in the times; the CPU clock leaves out another program's
 * turn on the core, which says nothing of the count.
 *
 * Sampling stops once the estimate is steady (its relative standard error
 * under the options' precision, after a least time and number), or at
 * the budget.  bench/RESULTS.md (2026-11-28) holds it against counted
 * times at N = 18 to 21.
 */
#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../core/random.h"
#include "../search/stop.h"
#include "../journal/journal.h"
#include "run.h"

/* The least a sampling runs, and the fewest samples, before its spread
 * is trusted; its budget and precision when the options give none. */
#define LEAST_SECONDS 1.0
#define LEAST_SAMPLES 40
#define BUDGET_SECONDS 10.0
#define PRECISION 0.02
/* The pieces a long unit is cut to, in the plan's estimate (fast: nodes
 * of the plain search): some 25 ms with avx512 on a Zen 4, so that a
 * second's sampling times dozens of them. */
#define PIECE_SIZE 1e8
/* The effort of the plan's estimates the units are drawn by (fast: 64
 * random paths, a quarter of verify's): they only spread the samples'
 * estimates, never shift their mean, and at N = 32 256 paths cost 4 s
 * on 2 threads. */
#define WEIGHT_EFFORT 64
/* The 80% interval of a normal spread: +-1.2816 standard deviations. */
#define Z80 1.2816
/* What sampling cannot see: the count's wall time moves with the
 * machine's other load and clock, which the samples' CPU times leave
 * out.  On a quiet 2-core Xeon (bench/RESULTS.md, 2026-12-02: N = 17 to
 * 20, 1 and 2 threads) counted over estimated wall times had an rms of
 * 4.75% in log over 22 trials of the default budget, whose sampling's
 * own error was 1.1%: some 4.6% unseen (6% on a shared Zen 4,
 * 2026-11-28, which an 80% interval may miss).  A machine
 * whose other programs take its cores is beyond any allowance: the
 * estimate reports the share of its time it ran (cpu_share). */
#define SPREAD 0.045
/* What the interval assumes of the samples' spread before they show
 * their own: a sample's relative standard deviation of 1 (at N = 19 fast's
 * pieces show 0.15-0.25; a unit timed whole by weights that are off by a
 * factor of 2 shows about 1), worth 2 samples. */
#define PRIOR_CV 1.0
#define PRIOR_SAMPLES 2.0

typedef struct {
    const nq_plan *plan;
    const volatile sig_atomic_t *stop;  /* the caller's */
    uint64_t *ids, count;       /* the units drawn from, and ... */
    double *upto, total;        /* ... their weights' running sums */
    uint64_t seed;
    double t0, budget, precision;
    double over;                /* core seconds past which it may end */
    atomic_int finish;          /* the sampling is over */
    pthread_mutex_t lock;       /* guards what follows */
    double sum, sum2, cpu;      /* of the samples' estimates; their CPU */
    double thread_cpu;          /* every sampling thread's CPU, all told */
    int sampling;               /* the threads that sampled */
    uint64_t k;
    nq_status failed;
} sampler;

typedef struct {
    sampler *s;
    int index;
} sampling_thread;

/* The units of the share not yet done into ids; how many. */
static uint64_t list_units(const nq_plan *p, const nq_estimate_options *o,
                           uint64_t *ids)
{
    uint64_t k = 0;
    for (uint64_t u = 0; u < p->units; u++)
        if (nq_unit_chosen(o->part, o->parts, o->done, u))
            ids[k++] = u;
    return k;
}

/* ---- the weights: the plan's estimates, on every thread ---- */

typedef struct {
    const nq_plan *plan;
    const uint64_t *ids;
    double *size;
    uint64_t count;
    int step, first;
} weighing;

static void *weigh(void *arg)
{
    weighing *w = arg;
    for (uint64_t i = (uint64_t)w->first; i < w->count; i += (uint64_t)w->step)
        w->size[i] = nq_plan_unit_estimate(w->plan, w->ids[i], WEIGHT_EFFORT);
    return NULL;
}

/* Every unit's estimate into size[], on `threads` threads (the work is
 * seconds at N = 27 on one). */
static nq_status weigh_all(const nq_plan *p, const uint64_t *ids,
                           uint64_t count, double *size, int threads)
{
    weighing w[64];
    pthread_t t[64];
    int n = threads < 64 ? threads : 64, started = 1;
    for (int i = 0; i < n; i++)
        w[i] = (weighing){p, ids, size, count, n, i};
#if !defined(NQ_NO_THREADS)
    for (; started < n; started++)
        if (pthread_create(&t[started], NULL, weigh, &w[started]) != 0)
            break;
#endif
    for (int i = started; i < n; i++) /* what no thread took: here */
        weigh(&w[i]);
    weigh(&w[0]);
    for (int i = 1; i < started; i++)
        pthread_join(t[i], NULL);
    return NQ_OK;
}

/* The running sums of the weights: a unit the plan cannot size (fast's
 * counts of fixed points) has none when others have one, and is left
 * out (s->count is what is left); with no estimate at all every unit
 * weighs alike.  A unit estimated at 0 weighs 1, so that it can still
 * be drawn.  Returns the units left out. */
static uint64_t weights(sampler *s, const double *size)
{
    int any = 0;
    uint64_t kept = 0;
    for (uint64_t i = 0; i < s->count; i++)
        any |= size[i] >= 0;
    s->total = 0;
    for (uint64_t i = 0; i < s->count; i++) {
        if (any && size[i] < 0)
            continue;
        s->total += any ? size[i] + 1 : 1;
        s->ids[kept] = s->ids[i], s->upto[kept++] = s->total;
    }
    uint64_t out = s->count - kept;
    s->count = kept;
    return out;
}

/* ---- the samples ---- */

/* The square root of x >= 0 by Newton's method: the library links with
 * no libm (its pkg-config module names none). */
static double root(double x)
{
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200 && x > 0; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return x > 0 ? r : 0;
}

/* A unit drawn with a chance in proportion to its weight: its index. */
static uint64_t draw(const sampler *s, uint64_t *rng)
{
    double x = (double)(nq_random_next(rng) >> 11) * 0x1p-53 * s->total;
    uint64_t lo = 0, hi = s->count - 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->upto[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Unit i timed whole (an engine that cuts no pieces). */
static nq_status time_whole(const nq_plan *p, uint64_t unit,
                            nq_unit_env *env, double *seconds)
{
    nq_tally t = {0};
    double t0 = nq_thread_seconds();
    nq_status st = p->engine->unit(p, unit, env, &t);
    *seconds = nq_thread_seconds() - t0;
    return st;
}

/* Whether the sampling has what it needs (called under the lock): the
 * budget spent, or after the least samples an estimate steady enough,
 * surely past the bound, or of a count no longer than the sampling so
 * far (timing it longer would cost more than counting it). */
static int steady(const sampler *s)
{
    double elapsed = nq_clock_seconds() - s->t0;
    if (elapsed >= s->budget)
        return 1;
    if (s->k < LEAST_SAMPLES)
        return 0;
    double mean = s->sum / (double)s->k;
    if (s->cpu >= mean)
        return 1;
    if (elapsed < LEAST_SECONDS)
        return 0;
    double var = (s->sum2 / (double)s->k - mean * mean) / (double)(s->k - 1);
    double se = root(var);
    return (mean > 0 && se <= s->precision * mean) ||
           (s->over > 0 && mean - Z80 * se > s->over);
}

/* One sample's estimate of the whole into the sums; whether to go on. */
static int add_sample(sampler *s, double y, double cpu, nq_status st)
{
    pthread_mutex_lock(&s->lock);
    if (st != NQ_OK && s->failed == NQ_OK)
        s->failed = st;
    if (st == NQ_OK) {
        s->sum += y, s->sum2 += y * y, s->cpu += cpu, s->k++;
    }
    int over = st != NQ_OK || steady(s);
    pthread_mutex_unlock(&s->lock);
    if (over)
        atomic_store(&s->finish, 1);
    return !over;
}

static void *sample_units(void *arg)
{
    sampling_thread *me = arg;
    sampler *s = me->s;
    const nq_plan *p = s->plan;
    nq_unit_env env = {.stop = s->stop};
    uint64_t rng = s->seed + 0x9e3779b97f4a7c15ull * (uint64_t)me->index;
    int go = 1, warm = 0;
    double cpu0 = nq_thread_seconds();
    while (go && !atomic_load(&s->finish)) {
        uint64_t i = draw(s, &rng);
        double seconds = 0, chance = 1;
        double weight = s->upto[i] - (i ? s->upto[i - 1] : 0);
        nq_status st = p->engine->sample
            ? p->engine->sample(p, s->ids[i], PIECE_SIZE, &rng, &env,
                                &seconds, &chance)
            : time_whole(p, s->ids[i], &env, &seconds);
        if (st == NQ_OK && nq_stop_requested(s->stop))
            st = NQ_ERR_STOPPED;
        if (!warm++ && st == NQ_OK) /* its buffers' first touch, page */
            continue;               /* faults and all: not the count's */
        go = add_sample(s, seconds / (chance * weight / s->total), seconds,
                        st);
    }
    if (p->engine->free_scratch && env.scratch)
        p->engine->free_scratch(env.scratch);
    pthread_mutex_lock(&s->lock);
    s->thread_cpu += nq_thread_seconds() - cpu0, s->sampling++;
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Sampling on `threads` threads at once, the calling one among them. */
static void sample_all(sampler *s, int threads)
{
    sampling_thread me[64];
    pthread_t t[64];
    int n = threads < 64 ? threads : 64, started = 1;
    for (int i = 0; i < n; i++)
        me[i] = (sampling_thread){s, i};
#if !defined(NQ_NO_THREADS)
    for (; started < n; started++)
        if (pthread_create(&t[started], NULL, sample_units, &me[started]))
            break;
#endif
    sample_units(&me[0]);
    for (int i = 1; i < started; i++)
        pthread_join(t[i], NULL);
}

/* ---- the estimate ---- */

/* What share of the sampling's wall time its threads ran: what the
 * machine's other programs left them, which the samples' CPU times
 * cannot show (at most 1: the clocks' grains). */
static double cpu_share(const sampler *s)
{
    double wall = (nq_clock_seconds() - s->t0) * s->sampling;
    double share = wall > 0 ? s->thread_cpu / wall : 0;
    return share < 1 ? share : 1;
}

/* The threads that run at once: the request's, at most the cores. */
/* The plan's own view of the share: its units' reference seconds summed
 * and the largest (a piece's, where the plan cut units: its estimate as
 * cut; else the weight's, the same estimate). */
static void reference(const nq_plan *p, const uint64_t *ids, uint64_t count,
                      const double *size, nq_estimate *out)
{
    for (uint64_t i = 0; i < count; i++) {
        double sec = p->cut ? nq_plan_unit_seconds(p, ids[i])
                            : size[i] * NQ_REF_SECONDS_PER_NODE;
        if (sec < 0)
            continue;
        out->reference_seconds += sec;
        if (sec > out->largest_reference)
            out->largest_reference = sec;
    }
}

static int at_once(int threads)
{
    int cores = nq_resolve_threads(0);
    return threads < cores ? threads : cores;
}

/* Student's t for the 80% interval (0.90 quantile) on df degrees of
 * freedom: the table to 10, then z + (z^3 + z) / 4df (within 0.5%). */
static double t80(double df)
{
    static const double t[] = {0, 3.078, 1.886, 1.638, 1.533, 1.476,
                               1.440, 1.415, 1.397, 1.383, 1.372};
    if (df < 1)
        return t[1];
    return df <= 10 ? t[(int)df] : Z80 + 0.8467 / df;
}

/* The variance of the mean of k samples, their own spread pooled with
 * PRIOR_SAMPLES samples of relative spread PRIOR_CV: a few samples see
 * little of the spread (one sees none, and claimed +-7.7% where six
 * answers for N = 19 spread 6.5-15.8 s), so the interval from few is
 * wide, and the samples' own spread takes over as they add up. */
static double mean_variance(const sampler *s, double mean)
{
    double k = (double)s->k;
    double own = s->k > 1 ? (s->sum2 / k - mean * mean) * k / (k - 1) : 0;
    double prior = PRIOR_CV * PRIOR_CV * mean * mean;
    double pooled = (PRIOR_SAMPLES * prior + (k - 1) * (own > 0 ? own : 0)) /
                    (PRIOR_SAMPLES + k - 1);
    return pooled / k;
}

/* The estimate from the samples' sums: the mean, and an 80% interval
 * from their standard error (Student's t on the pooled spread) and the
 * spread they cannot see. */
static void conclude(const sampler *s, int threads, nq_estimate *out)
{
    double k = (double)s->k, mean = s->k ? s->sum / k : 0;
    double var = s->k ? mean_variance(s, mean) : 0;
    double half = t80(PRIOR_SAMPLES + k - 1) *
                  root(var + SPREAD * SPREAD * mean * mean);
    int wide = at_once(threads);
    out->core_seconds = mean;
    out->low = mean > half ? mean - half : 0;
    out->high = mean + half;
    out->seconds = mean / wide;
    out->seconds_low = out->low / wide;
    out->seconds_high = out->high / wide;
    out->samples = s->k;
    out->sampled = s->cpu;
    /* this machine's rate against the reference core's, from the same
     * samples, for the largest unit in this machine's seconds */
    if (out->reference_seconds > 0)
        out->largest_seconds = out->largest_reference * mean /
                               out->reference_seconds;
}

/* What the estimate needs of the request: an engine with units that
 * counts on this CPU (a GPU's time is not the CPU's); said in the
 * request's words. */
static nq_status estimable(const nq_checked *c)
{
    if (!(c->engine->caps & NQ_CAP_UNITS)) {
        nq_request_say(c->req, "engine '%s' has no units to time",
                       c->engine->name);
        return NQ_ERR_UNSUPPORTED;
    }
    if (c->engine->caps & NQ_CAP_GPU) {
        nq_request_say(c->req, "engine '%s' counts on a GPU; an estimate "
                       "times units on this CPU", c->engine->name);
        return NQ_ERR_UNSUPPORTED;
    }
    return NQ_OK;
}

static nq_status sample_plan(const nq_plan *p, const nq_request *req,
                             const nq_estimate_options *o, nq_estimate *out)
{
    sampler s = {.plan = p, .stop = req->stop, .t0 = nq_clock_seconds(),
                 .budget = o->seconds > 0 ? o->seconds : BUDGET_SECONDS,
                 .precision = o->precision > 0 ? o->precision : PRECISION};
    int threads = nq_request_threads(req);
    double *size = NULL;
    s.over = o->over > 0 ? o->over * at_once(threads) : 0;
    s.ids = malloc((p->units ? p->units : 1) * sizeof *s.ids);
    s.upto = malloc((p->units ? p->units : 1) * sizeof *s.upto);
    if (s.ids && s.upto)
        size = malloc((p->units ? p->units : 1) * sizeof *size);
    nq_status st = size ? NQ_OK : NQ_ERR_NOMEM;
    if (st == NQ_OK) {
        out->units = s.count = list_units(p, o, s.ids);
        weigh_all(p, s.ids, s.count, size, threads);
        reference(p, s.ids, s.count, size, out);
        out->unsized = weights(&s, size);
        if (nq_stop_requested(req->stop))
            st = NQ_ERR_STOPPED;
    }
    if (st == NQ_OK && s.count) {
        uint64_t key[2];
        nq_journal_new_key(key); /* a draw of its own each time */
        s.seed = o->seed ? o->seed : key[0];
        pthread_mutex_init(&s.lock, NULL);
        s.t0 = nq_clock_seconds();
        sample_all(&s, threads);
        pthread_mutex_destroy(&s.lock);
        st = s.failed;
        out->cpu_share = cpu_share(&s);
    }
    out->threads = threads;
    conclude(&s, threads, out);
    free(size), free(s.ids), free(s.upto);
    return st;
}

/* Options that ask for something: a share that is one (0/0: the whole
 * count), no budget, precision or bound below 0 (not NaN either), and a
 * budget that ends (an infinite one with a precision never reached
 * sampled for ever). */
static int options_sane(const nq_estimate_options *o)
{
    int share = o->parts ? o->part >= 1 && o->part <= o->parts
                         : o->part == 0;
    return share && o->seconds >= 0 && o->seconds <= DBL_MAX &&
           o->precision >= 0 && o->over >= 0;
}

/* A share that holds no unit is refused as count refuses it, in the
 * same words: an estimate of 0 units would pass for a count of none. */
static nq_status share_held(const nq_plan *p, const nq_request *req,
                            const nq_estimate_options *o)
{
    char words[256];
    if (!nq_share_empty(p, o->part, o->parts, words, sizeof words))
        return NQ_OK;
    nq_request_say(req, "%s", words);
    return NQ_ERR_ARG;
}

nq_status nq_estimate_count(const nq_request *given,
                            const nq_estimate_options *o, nq_estimate *out)
{
    nq_request req;
    nq_checked c;
    nq_plan *p = NULL;
    nq_estimate_options none = {0};
    double t0 = nq_clock_seconds();
    if (!out) {
        nq_request_clear_why(given);
        return NQ_ERR_ARG;
    }
    memset(out, 0, sizeof *out);
    nq_status st = nq_request_read(given, &req);
    if (st == NQ_OK && o && !options_sane(o)) {
        nq_request_say(&req, "estimate options: a share part K of M (K from "
                       "1 to M, or 0/0), and no budget, precision or bound "
                       "below 0, nor a budget without end");
        st = NQ_ERR_ARG;
    }
    if (st == NQ_OK && (st = nq_request_resolve(&req, 0, &c)) == NQ_OK &&
        (st = estimable(&c)) == NQ_OK && (st = nq_checked_plan(&c, &p)) ==
        NQ_OK)
        st = share_held(p, &req, o ? o : &none);
    if (st == NQ_OK)
        st = sample_plan(p, &req, o ? o : &none, out);
    nq_plan_free(p);
    out->elapsed = nq_clock_seconds() - t0;
    return st;
}

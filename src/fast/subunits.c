/*
 * subunits.c - building batches of sub-units, and running them on the
 * host with the same per-thread search the GPU runs (dfs.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "fast.h"
#include "../search/stop.h"
#include "subunits.h"

/* From NQ_EVEN_FROM_N on one row: evening out cuts the heavy sub-units
 * deeper, and a shallow first cut leaves it the most to even (at N = 18,
 * the largest sub-unit is 3.4 times the mean from one row, 4.0 from two).
 * From GPU_FINE_N on two rows again: a launch's threads take sub-units
 * until none is left (nq_subunit_worker), and they end together only if
 * each takes several.  One row gives a batch of N = 22 some 1.8 x 10^4
 * sub-units, two rows 2.1 x 10^5 (210 a unit, evened out; 2.3 s of one
 * core to even a batch of 1024 units, against some 10^12 placements of
 * GPU work in it).  Alone on an H100 (270k threads) a launch would still
 * give its threads about one each; the runner's workers (one per core)
 * keep several launches in flight, which share the GPU, so that each
 * launch's resident threads take several.  Deeper, or larger batches, if
 * a GPU's timings say so. */
#define GPU_FINE_N 20

int nq_batch_depth(int n)
{
    return n < 12 || (n >= NQ_EVEN_FROM_N && n < GPU_FINE_N) ? 1 : 2;
}

/* A batch holds fewer than 2^31 sub-units: the kernels take them by a
 * 32-bit counter (nq_subunit_worker), which every thread draws once past
 * the last.  (A batch of NQ_GPU_BATCH units holds some 10^5.) */
#define MOST_SUBS (1u << 31)

static int push_sub(nq_batch *b, nq_subunit s)
{
    if (b->subs + 1 >= MOST_SUBS)
        return -1;
    if (b->subs == b->cap) {
        uint64_t cap = b->cap ? 2 * b->cap : 4096;
        nq_subunit *grown = realloc(b->sub, cap * sizeof *grown);
        if (!grown)
            return -1;
        b->sub = grown, b->cap = cap;
    }
    b->sub[b->subs++] = s;
    return 0;
}

/* Every placement of rows [i, depth) below the state, as sub-units. */
static int cut(nq_batch *b, const nq_frontier *j, int depth, int i,
               uint32_t path, uint32_t d, uint32_t l, uint32_t r)
{
    if (i == depth)
        return push_sub(b, (nq_subunit){b->jobs, (uint32_t)depth, path, d, l, r});
    uint32_t a = j->open[i] & ~(d | l | r);
    while (a) {
        uint32_t bit = nq_lowest_bit32(a), g = j->gap[i];
        uint32_t col = (uint32_t)nq_ctz(bit);
        a ^= bit;
        if (cut(b, j, depth, i + 1, path | col << (5 * i), d | bit,
                (l | bit) << g, (r | bit) >> g))
            return -1;
    }
    return 0;
}

/* Leave at least three rows to the search (two are closed form). */
static int job_depth(const nq_frontier *j, int depth)
{
    int most = j->rows - 3;
    if (depth > 6) /* the path holds 6 rows */
        depth = 6;
    return most < 0 ? 0 : depth < most ? depth : most;
}

nq_status nq_batch_build(const nq_plan *p, const uint64_t *ids, uint64_t n,
                         int depth, nq_batch *b)
{
    memset(b, 0, sizeof *b);
    b->depth = depth;
    b->job = malloc((n ? n : 1) * sizeof *b->job);
    b->unit = malloc((n ? n : 1) * sizeof *b->unit);
    b->other = malloc((n ? n : 1) * sizeof *b->other);
    if (!b->job || !b->unit || !b->other) {
        nq_batch_free(b);
        return NQ_ERR_NOMEM;
    }
    for (uint64_t k = 0; k < n; k++) {
        nq_frontier *j = &b->job[b->jobs];
        nq_frontier_state s;
        if (!nq_fast_job(p, ids[k], j, &s)) {
            b->other[b->others++] = ids[k];
            continue;
        }
        b->unit[b->jobs] = ids[k];
        if (cut(b, j, job_depth(j, depth), 0, 0, s.down, s.left, s.right)) {
            nq_batch_free(b);
            return NQ_ERR_NOMEM;
        }
        b->jobs++;
    }
    return NQ_OK;
}

/* ---- evening out: heavy sub-units cut one row deeper ---- */

/* Random paths per sub-unit estimate, and how far over the batch's mean
 * an estimate may be before its sub-unit is cut again.  Measured at
 * N = 18 (bench/RESULTS.md, make bench-subunits): 64 paths and twice the
 * mean bring the largest sub-unit from 9.0 to 3.4 times the mean; at
 * N = 16, 16 paths left it at 5.2.  The limit is the batch's mean, so the
 * nodes the engine reports (not its counts) depend on how the units were
 * batched: a resumed or split run may report other node totals. */
#define EVEN_PROBES 64
#define EVEN_FACTOR 2.0

static double sub_estimate(const nq_batch *b, nq_subunit s)
{
    return nq_frontier_estimate(&b->job[s.job], (int)s.from,
                                (nq_frontier_state){s.down, s.left, s.right},
                                EVEN_PROBES);
}

/* Push s, or if it is heavy and may be cut (six rows fit the path, and
 * three are left to the search), its children, each judged alike. */
static int push_even(nq_batch *b, nq_subunit s, double est, double limit)
{
    const nq_frontier *j = &b->job[s.job];
    int i = (int)s.from;
    if (est <= limit || i >= 6 || i >= j->rows - 3)
        return push_sub(b, s);
    uint32_t a = j->open[i] & ~(s.down | s.left | s.right), g = j->gap[i];
    while (a) {
        uint32_t bit = nq_lowest_bit32(a);
        a ^= bit;
        nq_subunit c = {s.job, s.from + 1,
                        s.path | (uint32_t)nq_ctz(bit) << (5 * i),
                        s.down | bit, (s.left | bit) << g,
                        (s.right | bit) >> g};
        if (push_even(b, c, sub_estimate(b, c), limit))
            return -1;
    }
    return 0;
}

nq_status nq_batch_even_out(nq_batch *b)
{
    uint64_t count = b->subs;
    nq_subunit *old = b->sub;
    double *est = malloc((count ? count : 1) * sizeof *est), sum = 0;
    if (!est)
        return NQ_ERR_NOMEM;
    for (uint64_t q = 0; q < count; q++)
        sum += est[q] = sub_estimate(b, old[q]);
    double limit = EVEN_FACTOR * sum / (double)(count ? count : 1);
    b->sub = NULL, b->subs = b->cap = 0;
    int failed = 0;
    for (uint64_t q = 0; q < count && !failed; q++)
        failed = push_even(b, old[q], est[q], limit);
    free(est);
    free(old);
    return failed ? NQ_ERR_NOMEM : NQ_OK;
}

nq_status nq_batch_prepare(const nq_plan *p, const uint64_t *ids,
                           uint64_t count, nq_batch *b)
{
    nq_status st = nq_batch_build(p, ids, count, nq_batch_depth(p->n), b);
    if (st == NQ_OK && p->n >= NQ_EVEN_FROM_N && (st = nq_batch_even_out(b)))
        nq_batch_free(b);
    return st;
}

void nq_batch_free(nq_batch *b)
{
    free(b->job);
    free(b->unit);
    free(b->sub);
    free(b->other);
    memset(b, 0, sizeof *b);
}

int nq_batch_stack_rows(const nq_batch *b)
{
    int most = 1;
    for (uint32_t j = 0; j < b->jobs; j++)
        most = b->job[j].rows > most ? b->job[j].rows : most;
    return most;
}

void nq_batch_watch(nq_batch *b, const volatile sig_atomic_t *stop)
{
    for (uint32_t j = 0; j < b->jobs; j++)
        b->job[j].stop = stop;
}

nq_status nq_batch_tally_new(const nq_batch *b, nq_batch_tally *t)
{
    /* one word more: a batch of no job is no failed allocation */
    t->count = calloc(2 * (size_t)b->jobs + 1, sizeof *t->count);
    t->finished = t->count ? t->count + b->jobs : NULL;
    t->nodes = 0;
    return t->count ? NQ_OK : NQ_ERR_NOMEM;
}

void nq_batch_tally_free(nq_batch_tally *t)
{
    free(t->count);
    t->count = t->finished = NULL;
}

/* The kernel's loop on this thread, into words as a launch's, so that
 * the host and the devices share one path from the words to the tally
 * (nq_batch_unpack). */
nq_status nq_batch_run_host(const nq_batch *b, nq_batch_tally *t)
{
    uint32_t shared[NQ_MAX_N * NQ_GPU_BLOCK];
    uint32_t *words = calloc(NQ_WORDS(b->jobs), sizeof *words);
    if (!words)
        return NQ_ERR_NOMEM;
    /* every job of a batch watches the one flag */
    nq_dfs_stop stop = b->jobs ? b->job[0].stop : NULL;
    nq_subunit_worker(b->job, b->sub, (uint32_t)b->subs, b->jobs, words,
                      shared, NQ_GPU_BLOCK, stop);
    nq_batch_unpack(b, words, t);
    free(words);
    return NQ_OK;
}

/* Added, not set: a tally may gather more than one launch's words. */
void nq_batch_unpack(const nq_batch *b, const uint32_t *words,
                     nq_batch_tally *t)
{
    for (uint32_t j = 0; j < b->jobs; j++) {
        const uint32_t *c = words + NQ_WORDS_COUNT(j);
        t->count[j] += c[0] | (uint64_t)c[1] << 32;
        t->finished[j] += words[NQ_WORDS_FINISHED(b->jobs, j)];
    }
    t->nodes += words[NQ_WORDS_PLACED] |
                (uint64_t)words[NQ_WORDS_PLACED + 1] << 32;
}

/* After a stop: the jobs all of whose sub-units finished are whole, their
 * counts kept and marked in env->whole (the other units, not searches,
 * were not run).  A job's finished sub-units less its sub-units is zero
 * exactly when it is whole. */
static void keep_whole(const nq_batch *b, const uint64_t *ids,
                       uint64_t count, nq_batch_tally *t, nq_unit_env *env,
                       nq_tally *out)
{
    int placements_given = 0;
    if (!env->whole)
        return;
    for (uint64_t q = 0; q < b->subs; q++)
        t->finished[b->sub[q].job]--;
    for (uint64_t k = 0, j = 0; k < count && j < b->jobs; k++) {
        if (b->unit[j] != ids[k])
            continue;
        if (t->finished[j] == 0) {
            out[k].total = t->count[j], env->whole[k] = 1;
            if (!placements_given++)
                out[k].nodes += t->nodes;
        }
        j++;
    }
}

nq_status nq_batch_finish(const nq_plan *p, nq_batch *b, const uint64_t *ids,
                          uint64_t count, nq_batch_tally *t, nq_status st,
                          nq_unit_env *env, nq_tally *out)
{
    int stopped = 0;
    if (st == NQ_ERR_STOPPED)
        keep_whole(b, ids, count, t, env, out);
    else if (env->whole) /* each unit whole unless a stop cuts it short */
        memset(env->whole, 1, count);
    /* jobs and other units are both in the order of ids */
    for (uint64_t k = 0, j = 0; st == NQ_OK && k < count; k++) {
        if (j < b->jobs && b->unit[j] == ids[k]) {
            out[k].total = t->count[j++];
            continue;
        }
        st = nq_fast_unit(p, ids[k], env, &out[k]);
        /* a stop inside a symmetric count, the searches all ended whole
         * (a GPU launch of 1024 units): only that count is lost */
        if (st == NQ_ERR_STOPPED && env->whole)
            env->whole[k] = 0, out[k] = (nq_tally){0}, stopped = 1,
            st = NQ_OK;
    }
    if (st == NQ_OK && count)
        out[0].nodes += t->nodes;
    st = st == NQ_OK && stopped ? NQ_ERR_STOPPED : st;
    nq_batch_tally_free(t);
    nq_batch_free(b);
    return st;
}

/* A launch that said it ended well, but whose words say that a sub-unit
 * was not searched to its end, failed: a kernel a driver killed (a GPU
 * watchdog) may leave the words as zeroed, and the read that follows
 * may still complete.  Its counts would go to the journal as whole
 * units; this makes it a device failure, with its words in env->why. */
static nq_status all_searched(const nq_batch *b, const nq_batch_tally *t,
                              nq_unit_env *env)
{
    uint64_t searched = 0;
    for (uint32_t j = 0; j < b->jobs; j++)
        searched += t->finished[j];
    if (searched == b->subs)
        return NQ_OK;
    if (env->why && env->why_size)
        snprintf(env->why, env->why_size, "the device searched %llu of the "
                 "batch's %llu sub-units and reported no error",
                 (unsigned long long)searched, (unsigned long long)b->subs);
    return NQ_ERR_DEVICE;
}

/* One path for every batch engine, so that readiness, stops, the check
 * that every sub-unit was searched and the journal's whole units are
 * judged alike for the host and each device. */
nq_status nq_batch_run_with(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out,
                            nq_batch_ready ready, nq_batch_launch launch)
{
    nq_batch b;
    nq_batch_tally t;
    nq_status st = ready ? ready(p, env) : NQ_OK;
    if (st == NQ_OK)
        st = nq_batch_prepare(p, ids, count, &b);
    if (st != NQ_OK)
        return st;
    if ((st = nq_batch_tally_new(&b, &t)) != NQ_OK) {
        nq_batch_free(&b);
        return st;
    }
    st = launch(p, &b, &t, env);
    if (st == NQ_OK && nq_stop_requested(env->stop))
        st = NQ_ERR_STOPPED;
    if (st == NQ_OK)
        st = all_searched(&b, &t, env);
    return nq_batch_finish(p, &b, ids, count, &t, st, env, out);
}

/* The engine's unit function (one unit at a time, wherever a caller
 * wants one) takes the batch path too, so a unit counts the same
 * whichever way it came. */
nq_status nq_batch_run_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                            nq_tally *t)
{
    return p->engine->run_batch(p, &i, 1, env, t);
}

/* The same for every plan: NQ_GPU_BATCH says why that size. */
unsigned nq_gpu_batch_units(const nq_plan *p)
{
    (void)p;
    return NQ_GPU_BATCH;
}

/* ---- engine `subunits`: the GPU's work, run on CPU threads ---- */

/* The launch of the host: every sub-unit counted by the per-thread
 * search on this thread, watching the run's own flag. */
static nq_status host_launch(const nq_plan *p, nq_batch *b, nq_batch_tally *t,
                             nq_unit_env *env)
{
    (void)p;
    nq_batch_watch(b, env->stop);
    return nq_batch_run_host(b, t);
}

/* A batch of units as the GPU engine would ship it, each sub-unit counted
 * by the per-thread search on this thread: the reference the GPU builds
 * are held to, and a test of the batch path of the runner. */
static nq_status host_batch(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out)
{
    return nq_batch_run_with(p, ids, count, env, out, NULL, host_launch);
}

/* Units a batch on the host.  A batch's units are reported when it ends:
 * a long one holds the journal and the progress bar back, and a crash
 * loses it whole (a stop keeps its finished units, nq_batch_finish); and
 * the host gains nothing from big ones, one thread running the sub-units
 * one after another.  64 up to N = 18 (about a second of one core), then
 * an eighth for each N more, as a unit's search grows some 7 times: one
 * unit a batch from N = 20, where a unit is a second of search and more.
 * (The GPUs' batches are their own: cuda.cu, opencl.c.) */
static unsigned host_batch_units(const nq_plan *p)
{
    int over = p->n - 18;
    return over <= 0 ? 64 : over >= 2 ? 1 : 64u >> (3 * over);
}

const nq_engine nq_engine_subunits = {
    .name = "subunits",
    .summary = "the GPU plan on CPU threads: fast's units cut into sub-units",
    .plan_id = NQ_FAST_PLAN_ID,
    .plan_param = NQ_FAST_PLAN_PARAMS,
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS,
    .plan = nq_fast_plan,
    .unit = nq_batch_run_unit,
    .describe = nq_fast_describe,
    .finish = nq_fast_finish,
    .forced = nq_fast_unit_forced,
    .flaw = nq_fast_record_flaw,
    .estimate = nq_fast_unit_estimate,
    .run_batch = host_batch,
    .batch = host_batch_units,
    .seconds = nq_fast_unit_seconds,
    .weigh = nq_fast_weigh,
    .cut = nq_fast_cut,
};

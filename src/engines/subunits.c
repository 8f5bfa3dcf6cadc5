/*
 * subunits.c - building batches of sub-units, and running them on the
 * host with the same per-thread search the GPU runs (dfs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "fast.h"
#include "stop.h"
#include "dfs.h"
#include "subunits.h"

int nq_batch_depth(int n)
{
    return n < 12 ? 1 : n < 20 ? 2 : 3;
}

static int push_sub(nq_batch *b, nq_subunit s)
{
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

void nq_batch_free(nq_batch *b)
{
    free(b->job);
    free(b->unit);
    free(b->sub);
    free(b->other);
    memset(b, 0, sizeof *b);
}

void nq_batch_run_host(const nq_batch *b, uint64_t *counts, uint64_t *nodes,
                       const volatile sig_atomic_t *stop)
{
    for (uint64_t q = 0; q < b->subs && !nq_stop_requested(stop); q++) {
        const nq_subunit *s = &b->sub[q];
        counts[s->job] += nq_dfs_count(&b->job[s->job], (int)s->from,
                                       s->down, s->left, s->right, nodes);
    }
}

nq_status nq_batch_finish(const nq_plan *p, nq_batch *b, const uint64_t *ids,
                          uint64_t count, uint64_t *counts, uint64_t nodes,
                          nq_status st, nq_unit_env *env, nq_tally *out)
{
    /* jobs and other units are both in the order of ids */
    for (uint64_t k = 0, j = 0; st == NQ_OK && k < count; k++) {
        if (j < b->jobs && b->unit[j] == ids[k])
            out[k].total = counts[j++];
        else
            st = nq_fast_unit(p, ids[k], env, &out[k]);
    }
    if (st == NQ_OK && count)
        out[0].nodes += nodes;
    free(counts);
    nq_batch_free(b);
    return st;
}

/* ---- engine `subunits`: the GPU's work, run on CPU threads ---- */

/* A batch of units as the GPU engine would ship it, each sub-unit counted
 * by the per-thread search on this thread: the reference the CUDA build is
 * held to, and a test of the batch path of the runner. */
static nq_status host_batch(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out)
{
    nq_batch b;
    uint64_t nodes = 0;
    nq_status st = nq_batch_build(p, ids, count, nq_batch_depth(p->n), &b);
    if (st != NQ_OK)
        return st;
    uint64_t *counts = calloc(b.jobs + 1, sizeof *counts);
    if (!counts) {
        nq_batch_free(&b);
        return NQ_ERR_NOMEM;
    }
    nq_batch_run_host(&b, counts, &nodes, env->stop);
    st = nq_stop_requested(env->stop) ? NQ_ERR_STOPPED : NQ_OK;
    return nq_batch_finish(p, &b, ids, count, counts, nodes, st, env, out);
}

static nq_status host_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                           nq_tally *t)
{
    return host_batch(p, &i, 1, env, t);
}

const nq_engine nq_engine_subunits = {
    .name = "subunits",
    .summary = "the GPU plan on CPU threads: fast's units cut into sub-units",
    .plan_id = NQ_FAST_PLAN_ID,
    .plan_param = NQ_FAST_PLAN_PARAMS,
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS,
    .plan = nq_fast_plan,
    .unit = host_unit,
    .describe = nq_fast_describe,
    .finish = nq_fast_finish,
    .run_batch = host_batch,
    .batch = 64,
};

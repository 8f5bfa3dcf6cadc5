/*
 * completion.c - the N-Queens completion problem: the solutions that extend
 * queens given in advance on some rows.
 *
 * Counting is the fast engine's problem in another guise.  Its units are
 * "the rest of a board": rows to fill, possibly with pre-filled rows
 * between them, each with the squares that pre-placed queens leave open;
 * the frontier kernel (vectorised with AVX-512 or AVX2) counts the ways to fill
 * them.  Here the given queens are the pre-placed ones.  The first free
 * rows are enumerated to split the count into units, a plan the API runs
 * on the thread pool like any other.  Listing the completions is a plain
 * bitboard search over the same open squares, in lexicographic order.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/board.h"
#include "engine.h"
#include "../search/frontier.h"
#include "../search/stop.h"

/* The free rows, and the squares of each that no given queen attacks;
 * given rows are open only at their queen. */
typedef struct {
    int n, k;                 /* board, number of free rows */
    int rows[NQ_MAX_N];       /* the free rows, top to bottom */
    uint32_t full, given_cols;
    uint32_t open[NQ_MAX_N];  /* per board row */
} board_rest;

/* The plan's data: the job of the rows below the split, then the start of
 * each unit. */
typedef struct {
    nq_frontier job;
    nq_frontier_state start[];
} complete_data;

static nq_status check_given(int n, const int *given)
{
    for (int r = 0; r < n; r++) {
        if (given[r] < -1 || given[r] >= n)
            return NQ_ERR_ARG;
        for (int q = 0; q < r && given[r] >= 0; q++)
            if (given[q] >= 0 && nq_lines_shared(q, given[q], r, given[r]))
                return NQ_ERR_INVALID;
    }
    return NQ_OK;
}

static void rest_init(board_rest *b, int n, const int *given)
{
    b->n = n, b->k = 0, b->full = (uint32_t)nq_low_bits(n), b->given_cols = 0;
    for (int r = 0; r < n; r++)
        if (given[r] >= 0)
            b->given_cols |= 1u << given[r];
    for (int r = 0; r < n; r++) {
        uint32_t open = given[r] >= 0 ? 1u << given[r] : b->full & ~b->given_cols;
        for (int q = 0; q < n; q++) {
            int dr = r > q ? r - q : q - r;
            if (given[q] < 0 || q == r)
                continue;
            if (given[q] + dr < n)
                open &= ~(1u << (given[q] + dr));
            if (given[q] - dr >= 0)
                open &= ~(1u << (given[q] - dr));
        }
        b->open[r] = open;
        if (given[r] < 0)
            b->rows[b->k++] = r;
    }
}

/* The frontier job of free rows from..k-1; every column weighs 1. */
static void rest_job(const board_rest *b, int from, nq_frontier *job)
{
    memset(job, 0, sizeof *job);
    job->full = b->full;
    job->rows = b->k - from;
    for (int i = 0; i < job->rows; i++) {
        int r = b->rows[from + i];
        job->open[i] = b->open[r];
        job->gap[i] = (uint8_t)(i + 1 < job->rows ? b->rows[from + i + 1] - r
                                                  : 1);
    }
    job->weight_cols[0] = b->full;
    job->weight[0] = 1;
}

/* ---- the plan: units are the placements of the first `split` free rows */

typedef struct {
    const board_rest *b;
    int split;
    nq_frontier_state *states;
    uint64_t count, cap;
    int failed;
} splitter;

static void keep_state(splitter *s, nq_frontier_state st)
{
    if (s->count == s->cap) {
        uint64_t cap = s->cap ? 2 * s->cap : 256;
        nq_frontier_state *ns = realloc(s->states, sizeof *ns * cap);
        if (!ns) {
            s->failed = 1;
            return;
        }
        s->states = ns, s->cap = cap;
    }
    s->states[s->count++] = st;
}

/* Place free row i's queen every way, carrying the diagonals down to the
 * next free row (gap rows below). */
static void split_rows(splitter *s, int i, nq_frontier_state st)
{
    const board_rest *b = s->b;
    if (i == s->split) {
        keep_state(s, st);
        return;
    }
    int r = b->rows[i], g = b->rows[i + 1] - r;
    uint32_t avail = b->open[r] & ~(st.down | st.left | st.right);
    while (avail && !s->failed) {
        uint32_t bit = nq_lowest_bit32(avail);
        avail ^= bit;
        split_rows(s, i + 1, (nq_frontier_state){st.down | bit,
                                                 (st.left | bit) << g,
                                                 (st.right | bit) >> g});
    }
}

/* Enough units to share among threads, each still a real search. */
static int split_depth(int k)
{
    return k >= 12 ? 3 : k >= 8 ? 2 : 0;
}

static nq_status complete_plan_build(nq_plan *p, const board_rest *b)
{
    splitter s = {.b = b, .split = split_depth(b->k)};
    split_rows(&s, 0, (nq_frontier_state){b->given_cols, 0, 0});
    complete_data *d = s.failed ? NULL
        : malloc(sizeof *d + sizeof d->start[0] * (s.count ? s.count : 1));
    if (d) {
        rest_job(b, s.split, &d->job);
        memcpy(d->start, s.states, sizeof d->start[0] * s.count);
        p->data = d, p->units = p->cap = s.count;
    }
    free(s.states);
    return d ? NQ_OK : NQ_ERR_NOMEM;
}

static nq_status complete_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                               nq_tally *t)
{
    const complete_data *d = p->data;
    nq_frontier job = d->job;
    uint64_t nodes = 0;
    nq_frontier_work *w = nq_unit_frontier_work(p, env);
    if (!w)
        return NQ_ERR_NOMEM;
    job.stop = env->stop;
    t->total = nq_frontier_count(&job, d->start[i], w, &nodes);
    t->nodes = nodes;
    return nq_stop_requested(env->stop) ? NQ_ERR_STOPPED : NQ_OK;
}

static void complete_free_scratch(void *scratch)
{
    nq_frontier_work_free(scratch);
}

/* Not in the registry: a plan of this engine is built from the givens. */
static const nq_engine complete_engine = {
    .name = "complete",
    .summary = "completions of given queens: the fast engine's frontier",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS | NQ_CAP_KERNEL,
    .unit = complete_unit,
    .free_scratch = complete_free_scratch,
};

nq_status nq_completion_plan(int n, const int *given, nq_plan **plan,
                             nq_counts *out)
{
    *plan = NULL;
    if (n < 1 || n > NQ_MAX_N)
        return NQ_ERR_ARG;
    nq_status st = check_given(n, given);
    if (st != NQ_OK)
        return st;
    board_rest b;
    rest_init(&b, n, given);
    memset(out, 0, sizeof *out);
    if (b.k == 0) { /* nothing to fill: the givens are a solution */
        out->total = 1;
        return NQ_OK;
    }
    nq_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ERR_NOMEM;
    p->engine = &complete_engine, p->n = n;
    if ((st = complete_plan_build(p, &b)) != NQ_OK) {
        nq_plan_free(p);
        return st;
    }
    *plan = p;
    return NQ_OK;
}

nq_status nq_estimate_completion_nodes(int n, const int *given,
                                       uint32_t probes, double *nodes)
{
    /* no stop flag: a bound on the probes is what keeps the call short
     * (UINT32_MAX of them ran 28 minutes); none is no estimate */
    if (!given || !nodes || n < 1 || n > NQ_MAX_N || probes < 1 ||
        probes > NQ_MAX_PROBES)
        return NQ_ERR_ARG;
    nq_status st = check_given(n, given);
    if (st != NQ_OK)
        return st;
    board_rest b;
    nq_frontier job;
    rest_init(&b, n, given);
    *nodes = 0;
    if (b.k == 0)
        return NQ_OK;
    rest_job(&b, 0, &job);
    *nodes = nq_frontier_estimate(&job, 0,
                                  (nq_frontier_state){b.given_cols, 0, 0},
                                  probes);
    return NQ_OK;
}

/* ---- listing ---- */

typedef struct {
    const board_rest *b;
    int cols[NQ_MAX_N];
    nq_solution_fn fn;
    void *ctx;
    nq_u128 count;
    int stop;
} lister;

static void list_rows(lister *ls, int r, uint32_t d, uint32_t l, uint32_t rt)
{
    const board_rest *b = ls->b;
    if (r == b->n) {
        ls->count++;
        if (ls->fn && ls->fn(ls->ctx, ls->cols, b->n))
            ls->stop = 1;
        return;
    }
    uint32_t avail = b->open[r] & ~(d | l | rt);
    while (avail && !ls->stop) {
        uint32_t bit = nq_lowest_bit32(avail);
        avail ^= bit;
        ls->cols[r] = nq_ctz(bit);
        list_rows(ls, r + 1, d | bit, (l | bit) << 1, (rt | bit) >> 1);
    }
}

nq_status nq_enumerate_completions(int n, const int *given, nq_solution_fn fn,
                                   void *ctx, nq_u128 *count)
{
    /* a listing with no one to list to is a count: nq_count_completions */
    if (!given || !fn || n < 1 || n > NQ_MAX_N)
        return NQ_ERR_ARG;
    nq_status st = check_given(n, given);
    if (st != NQ_OK)
        return st;
    board_rest b;
    rest_init(&b, n, given);
    lister ls = {.b = &b, .fn = fn, .ctx = ctx};
    list_rows(&ls, 0, 0, 0, 0);
    if (count)
        *count = ls.count;
    return NQ_OK;
}

/*
 * count.c - the entry points that count and list: the one place that
 * decides how a request runs.
 *
 * An engine without units searches the whole board on the calling thread;
 * an engine with units gets a plan whose units the thread pool runs
 * (parallel/runner.c), summed and combined by the engine.  The engines
 * below know nothing of threads; the runner knows nothing of requests.
 */
#include "../engines/engine.h"

/* Plan, run every unit on the request's threads, combine. */
static nq_status count_units(const nq_request *req, nq_counts *out)
{
    nq_plan *p;
    nq_tally sum = {0};
    nq_status st = nq_plan_create(req, &p);
    if (st != NQ_OK)
        return st;
    nq_run_options o = {.threads = req->threads, .progress = req->progress,
                        .progress_ctx = req->progress_ctx, .stop = req->stop};
    st = nq_plan_run(p, &o, &sum);
    if (st == NQ_OK)
        st = nq_plan_finish(p, &sum, out);
    nq_plan_free(p);
    return st;
}

/* Counting (fn NULL) or listing: a unit engine counts on threads; every
 * other search, and every listing, runs whole on this thread. */
static nq_status run(const nq_request *req, nq_solution_fn fn, void *ctx,
                     nq_counts *out)
{
    nq_status st = nq_check_request(req, fn != NULL);
    if (st != NQ_OK)
        return st;
    const nq_engine *e = nq_request_engine(req, fn != NULL);
    if (!fn && (e->caps & NQ_CAP_UNITS))
        return count_units(req, out);
    nq_search s = {
        .n = req->n, .iterative = req->iterative,
        .unique_only = req->unique_only, .fn = fn, .ctx = ctx,
    };
    e->search(&s);
    out->total = s.total;
    out->unique = s.unique;
    out->nodes = s.nodes;
    return NQ_OK;
}

nq_status nq_count_solutions(const nq_request *req, nq_counts *out)
{
    if (!out)
        return NQ_ERR_ARG;
    return run(req, NULL, NULL, out);
}

nq_status nq_enumerate_solutions(const nq_request *req, nq_solution_fn fn,
                                 void *ctx, nq_counts *out)
{
    if (!fn || !out)
        return NQ_ERR_ARG;
    return run(req, fn, ctx, out);
}

/* The search watched step by step: only engines that report events, and
 * always on this thread (the events come in the search's own order). */
nq_status nq_walk_search(const nq_request *req, nq_event_fn fn, void *ctx)
{
    nq_status st = nq_check_request(req, 0);
    if (st != NQ_OK)
        return st;
    const nq_engine *e = nq_request_engine(req, 0);
    if (!fn)
        return NQ_ERR_ARG;
    if (!(e->caps & NQ_CAP_EVENTS))
        return NQ_ERR_UNSUPPORTED;
    nq_search s = {.n = req->n, .iterative = req->iterative, .event = fn,
                   .event_ctx = ctx};
    e->search(&s);
    return s.stop ? NQ_ERR_STOPPED : NQ_OK;
}

/* The completion count: the engine builds a plan from the givens (or says
 * the givens already fill the board), the pool runs it. */
nq_status nq_count_completions(const nq_request *req, const int *given,
                               nq_counts *out)
{
    nq_plan *p = NULL;
    nq_tally sum = {0};
    if (!req || !given || !out)
        return NQ_ERR_ARG;
    nq_status st = nq_completion_plan(req->n, given, &p, out);
    if (st != NQ_OK || !p)
        return st;
    nq_run_options o = {.threads = req->threads, .progress = req->progress,
                        .progress_ctx = req->progress_ctx, .stop = req->stop};
    if (p->units)
        st = nq_plan_run(p, &o, &sum);
    out->total = sum.total, out->nodes = sum.nodes;
    nq_plan_free(p);
    return st;
}

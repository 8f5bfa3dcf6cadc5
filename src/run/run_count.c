/*
 * run_count.c - the entry points that count and list: the one place that
 * decides how a request runs.
 *
 * An engine without units searches the whole board on the calling thread;
 * an engine with units gets a plan whose units the thread pool runs
 * (parallel/runner.c), summed and combined by the engine.  The engines
 * below know nothing of threads; the runner knows nothing of requests.
 */
#include <limits.h>
#include <stdlib.h>

#include "../core/core.h"
#include "../registry/registry.h"
#include "../search/frontier_kernel.h"
#include "run.h"

/* "0,2" into c->devices: numbers, a comma between two, none twice. */
static nq_status parse_devices(const char *list, nq_checked *c)
{
    const char *s = list;
    c->ndevices = 0;
    if (!list)
        return NQ_OK;
    do {
        char *end;
        if (*s < '0' || *s > '9' || c->ndevices == NQ_MAX_DEVICES)
            return NQ_ERR_ARG;
        unsigned long d = strtoul(s, &end, 10);
        for (int i = 0; i < c->ndevices; i++)
            if ((unsigned long)c->devices[i] == d)
                return NQ_ERR_ARG;
        if (d > INT_MAX)
            return NQ_ERR_ARG;
        c->devices[c->ndevices++] = (int)d;
        s = end;
    } while (*s == ',' && s++);
    return *s ? NQ_ERR_ARG : NQ_OK;
}

/* The kernel and the GPUs a request names, for the engine it names:
 * each refusal said in the request's words. */
static nq_status resolve_how(const nq_request *req, nq_checked *c)
{
    const char *name = c->engine->name;
    if (req->kernel && !(c->engine->caps & NQ_CAP_KERNEL)) {
        nq_request_say(req, "engine '%s' runs no kernel", name);
        return NQ_ERR_UNSUPPORTED;
    }
    if (req->devices && !(c->engine->caps & NQ_CAP_GPU)) {
        nq_request_say(req, "engine '%s' counts on no GPU", name);
        return NQ_ERR_UNSUPPORTED;
    }
    nq_status st = nq_frontier_kernel_find(req->kernel, &c->kernel);
    if (st != NQ_OK) {
        nq_request_say(req, st == NQ_ERR_ARG ? "no kernel '%s'" :
                       "this CPU cannot run kernel '%s'", req->kernel);
        return st;
    }
    if ((st = parse_devices(req->devices, c)) != NQ_OK)
        nq_request_say(req, "devices '%s': GPU numbers, a comma between "
                       "two, none twice", req->devices);
    if (st == NQ_OK && nq_request_max_us(req) < 0) {
        nq_request_say(req, "max_unit_seconds %g: seconds up to %.0f, 0 "
                       "for the default or below 0 for units never cut",
                       req->max_unit_seconds, NQ_MAX_US / 1e6);
        st = NQ_ERR_ARG;
    }
    return st;
}

nq_status nq_request_resolve(const nq_request *req, int enumerate,
                             nq_checked *c)
{
    c->req = req;
    nq_status st = nq_request_engine(req, enumerate, &c->engine);
    return st == NQ_OK ? resolve_how(req, c) : st;
}

/* The plan, with the request's kernel and devices; devices that are not
 * there are refused now, before any unit runs (a worker would otherwise
 * find out only when it first takes its device: with few units, never). */
nq_status nq_checked_plan(const nq_checked *c, nq_plan **out)
{
    char why[256] = "";
    if (!out)
        return NQ_ERR_ARG;
    nq_status st = nq_plan_new(c->engine, c->req, out);
    if (st != NQ_OK)
        return st;
    (*out)->kernel = c->kernel;
    (*out)->ndevices = c->ndevices;
    for (int i = 0; i < c->ndevices; i++)
        (*out)->devices[i] = c->devices[i];
    if ((st = nq_plan_devices_exist(*out, why, sizeof why)) == NQ_OK)
        return NQ_OK;
    nq_request_say(c->req, "%s", why);
    nq_plan_free(*out);
    *out = NULL;
    return st;
}

/* The public check: the same resolution the count makes (engine, size,
 * kernel, devices), so that a request it passes is one the count takes. */
nq_status nq_check_request(const nq_request *given, int enumerate)
{
    nq_checked c;
    nq_request req;
    nq_status st = nq_request_read(given, &req);
    return st == NQ_OK ? nq_request_resolve(&req, enumerate, &c) : st;
}

/* The public plan of a request, carrying its kernel and GPUs as the
 * count's plan does (a plan made below, in the engines, would drop them). */
nq_status nq_plan_create(const nq_request *given, nq_plan **out)
{
    nq_checked c;
    nq_request req;
    nq_status st = nq_request_read(given, &req);
    if (st == NQ_OK)
        st = nq_request_resolve(&req, 0, &c);
    return st == NQ_OK ? nq_checked_plan(&c, out) : st;
}

/* Plan, run every unit on the request's threads, combine. */
static nq_status count_units(const nq_checked *c, nq_counts *out)
{
    const nq_request *req = c->req;
    nq_plan *p;
    nq_tally sum = {0};
    nq_status st = nq_checked_plan(c, &p);
    if (st != NQ_OK)
        return st;
    nq_run_options o = {.threads = req->threads, .progress = req->progress,
                        .progress_ctx = req->progress_ctx, .stop = req->stop,
                        .why = req->why, .why_size = req->why_size};
    st = nq_plan_run(p, &o, &sum);
    if (st == NQ_OK)
        st = nq_plan_finish_sum(p, &sum, out);
    nq_plan_free(p);
    return st;
}

/* Counting (fn NULL) or listing: a unit engine counts on threads; every
 * other search, and every listing, runs whole on this thread.  The one
 * read and the one check of the request are here. */
static nq_status run(const nq_request *given, nq_solution_fn fn, void *ctx,
                     nq_counts *out)
{
    nq_checked c;
    nq_request req;
    nq_status st = nq_request_read(given, &req);
    if (st == NQ_OK)
        st = nq_request_resolve(&req, fn != NULL, &c);
    if (st != NQ_OK)
        return st;
    if (!fn && (c.engine->caps & NQ_CAP_UNITS))
        return count_units(&c, out);
    nq_search s = {
        .n = c.req->n, .iterative = c.req->iterative,
        .unique_only = c.req->unique_only, .fn = fn, .ctx = ctx,
    };
    c.engine->search(&s);
    out->total = s.total;
    out->unique = s.unique;
    out->nodes = s.nodes;
    return NQ_OK;
}

nq_status nq_count_solutions(const nq_request *req, nq_counts *out)
{
    nq_request_clear_why(req);
    if (!out)
        return NQ_ERR_ARG;
    return run(req, NULL, NULL, out);
}

nq_status nq_enumerate_solutions(const nq_request *req, nq_solution_fn fn,
                                 void *ctx, nq_counts *out)
{
    nq_request_clear_why(req);
    if (!fn || !out)
        return NQ_ERR_ARG;
    return run(req, fn, ctx, out);
}

/* The search watched step by step: only engines that report events, and
 * always on this thread (the events come in the search's own order). */
nq_status nq_walk_search(const nq_request *given, nq_event_fn fn, void *ctx)
{
    const nq_engine *e;
    nq_request req;
    nq_status st = nq_request_read(given, &req);
    if (st == NQ_OK)
        st = nq_request_engine(&req, 0, &e);
    if (st != NQ_OK)
        return st;
    if (!fn)
        return NQ_ERR_ARG;
    if (!(e->caps & NQ_CAP_EVENTS)) {
        nq_request_say(&req, "engine '%s' reports no events", e->name);
        return NQ_ERR_UNSUPPORTED;
    }
    nq_search s = {.n = req.n, .iterative = req.iterative, .event = fn,
                   .event_ctx = ctx};
    e->search(&s);
    return s.stop ? NQ_ERR_STOPPED : NQ_OK;
}

/* The completion count: the engine builds a plan from the givens (or says
 * the givens already fill the board), the pool runs it. */
nq_status nq_count_completions(const nq_request *request, const int *given,
                               nq_counts *out)
{
    nq_plan *p = NULL;
    nq_tally sum = {0};
    nq_request rq;
    const nq_request *req = &rq;
    nq_request_clear_why(request);
    if (!given || !out)
        return NQ_ERR_ARG;
    nq_status st = nq_request_read(request, &rq);
    if (st == NQ_OK)
        st = nq_completion_plan(req->n, given, &p, out);
    if (st != NQ_OK || !p)
        return st;
    nq_run_options o = {.threads = req->threads, .progress = req->progress,
                        .progress_ctx = req->progress_ctx, .stop = req->stop,
                        .why = req->why, .why_size = req->why_size};
    if (p->units)
        st = nq_plan_run(p, &o, &sum);
    out->total = sum.total, out->nodes = sum.nodes;
    nq_plan_free(p);
    return st;
}

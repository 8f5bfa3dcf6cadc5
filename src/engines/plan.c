/*
 * plan.c - a plan of an engine's units, and the calls that dispatch to
 * its engine: making and freeing one, its units and identity, what the
 * engine knows of a unit's record, running one unit, and a unit's
 * frontier buffers.
 *
 * Engines call these (nq_plan_push, nq_plan_free, nq_unit_frontier_work)
 * and so do the layers above them; the engines' table, which names every
 * engine, is src/registry/registry.c, above the engines, so that no
 * engine calls up into it.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../search/frontier_kernel.h"
#include "engine.h"

nq_status nq_plan_new(const nq_engine *e, const nq_request *req,
                      nq_plan **out)
{
    if (!(e->caps & NQ_CAP_UNITS))
        return NQ_ERR_UNSUPPORTED;
    nq_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ERR_NOMEM;
    p->engine = e;
    p->n = req->n;
    p->stop = req->stop;
    nq_status st = e->plan(p);
    if (st != NQ_OK) {
        nq_plan_free(p);
        return st;
    }
    *out = p;
    return NQ_OK;
}

uint64_t nq_plan_units(const nq_plan *p) { return p ? p->units : 0; }

void nq_plan_describe(const nq_plan *p, uint64_t unit, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    buf[0] = '\0';
    if (p && unit < p->units)
        p->engine->describe(p, unit, buf, size);
}

/* Little-endian bytes of v, whatever the machine: the identity is part of
 * the journal format. */
static size_t put_le(unsigned char *buf, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        buf[i] = (unsigned char)(v >> (8 * i));
    return (size_t)bytes;
}

/* FNV-1a of the canonical bytes (doc/journal-format.md): "nqueens-plan",
 * N, the split's stable name, its parameters and the unit count.  Nothing
 * a person reads (a description, a display name) enters it. */
uint64_t nq_split_identity(const nq_engine *e, int n, uint64_t units)
{
    unsigned char buf[128];
    const char *id = e->plan_id ? e->plan_id : "";
    size_t len = sizeof "nqueens-plan", idlen = strlen(id) + 1;
    memcpy(buf, "nqueens-plan", len);
    len += put_le(buf + len, (uint64_t)n, 4);
    if (idlen > sizeof buf - len - 4 * NQ_PLAN_PARAMS - 8)
        idlen = sizeof buf - len - 4 * NQ_PLAN_PARAMS - 8;
    memcpy(buf + len, id, idlen);
    len += idlen;
    for (int i = 0; i < NQ_PLAN_PARAMS; i++)
        len += put_le(buf + len, e->plan_param[i], 4);
    len += put_le(buf + len, units, 8);
    return nq_fnv1a(NQ_FNV_OFFSET, buf, len);
}

uint64_t nq_plan_identity(const nq_plan *p)
{
    return p ? nq_split_identity(p->engine, p->n, p->units) : 0;
}

int nq_plan_unit_forced(const nq_plan *p, uint64_t i)
{
    return p->engine->forced && i < p->units && p->engine->forced(p, i);
}

const char *nq_plan_record_flaw(const nq_plan *p, uint64_t i,
                                const nq_tally *t)
{
    return p->engine->flaw && i < p->units ? p->engine->flaw(p, i, t) : NULL;
}

double nq_plan_unit_estimate(const nq_plan *p, uint64_t i, uint32_t effort)
{
    return p->engine->estimate && i < p->units ? p->engine->estimate(p, i,
                                                                     effort)
                                               : -1;
}

/* 0.2 ns per estimated node: fast's AVX-512 kernel on one core of an
 * Intel Xeon (family 6, model 167) at N = 16..22. */
double nq_plan_unit_seconds(const nq_plan *p, uint64_t i)
{
    double e = nq_plan_unit_estimate(p, i, 64);
    return e < 0 ? -1 : e * 2e-10;
}

nq_status nq_plan_devices_exist(const nq_plan *p, char *why, size_t size)
{
    char none[1];
    if (!p->ndevices || !p->engine->check_devices)
        return NQ_OK;
    if (!why || !size)
        why = none, size = sizeof none;
    return p->engine->check_devices(p, why, size);
}

const char *nq_plan_split(const nq_plan *p)
{
    return !p ? NULL : p->engine->plan_id ? p->engine->plan_id : "";
}

int nq_plan_push(nq_plan *p, const void *unit, size_t size)
{
    if (p->units == p->cap) {
        uint64_t cap = p->cap ? 2 * p->cap : 1024;
        void *grown = realloc(p->data, cap * size);
        if (!grown)
            return -1;
        p->data = grown, p->cap = cap;
    }
    memcpy((char *)p->data + p->units++ * size, unit, size);
    return 0;
}

void nq_plan_free(nq_plan *p)
{
    if (!p)
        return;
    free(p->data);
    free(p);
}

nq_status nq_plan_run_unit(const nq_plan *p, uint64_t unit, nq_tally *out)
{
    nq_unit_env env = {.scratch = NULL, .stop = NULL, .why = NULL};
    if (!p || !out || unit >= p->units)
        return NQ_ERR_ARG;
    *out = (nq_tally){0};
    nq_status st = p->engine->unit(p, unit, &env, out);
    if (p->engine->free_scratch)
        p->engine->free_scratch(env.scratch);
    return st;
}

nq_status nq_plan_finish(const nq_plan *p, const nq_tally *sum, nq_counts *out)
{
    if (!p || !sum || !out)
        return NQ_ERR_ARG;
    return p->engine->finish(p, sum, out);
}

struct nq_frontier_work *nq_unit_frontier_work(const nq_plan *p,
                                               nq_unit_env *env)
{
    nq_frontier_work *w = env->scratch;
    if (!w && !(w = env->scratch = nq_frontier_work_new()))
        return NULL;
    w->kernel = p->kernel;
    return w;
}

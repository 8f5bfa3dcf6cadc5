/*
 * registry.c - the engine table, and the calls that dispatch to an engine.
 *
 * One line per built-in engine below, and the engines optional back-ends
 * add at run time (libnqueens-cuda's nq_cuda_register); everything else
 * (the CLI's engine list, help and messages, the tests that cross-check
 * every engine) reads this table.
 * Running an engine's units on threads is the runner's business
 * (parallel/), choosing how a request runs the run layer's (run/): nothing
 * here calls up into them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "engine.h"

extern const nq_engine nq_engine_brute, nq_engine_backtrack, nq_engine_flags,
    nq_engine_bitmap, nq_engine_mirror, nq_engine_symmetry, nq_engine_carry,
    nq_engine_fast, nq_engine_subunits;

static const nq_engine *const built_in[] = {
    &nq_engine_brute,
    &nq_engine_backtrack,
    &nq_engine_flags,
    &nq_engine_bitmap,
    &nq_engine_mirror,
    &nq_engine_symmetry,
    &nq_engine_carry,
    &nq_engine_fast,
    &nq_engine_subunits,
};

#define BUILT_IN ((int)(sizeof built_in / sizeof built_in[0]))

/* Engines added at run time (nq_engine_add): the slot is filled before
 * the count that shows it is published, so a reader that sees the count
 * sees the engine; the lock only orders adders. */
#define ADDED_MAX 8
static const nq_engine *added[ADDED_MAX];
static int added_count;
static pthread_mutex_t add_lock = PTHREAD_MUTEX_INITIALIZER;

int nq_engine_count(void)
{
    return BUILT_IN + __atomic_load_n(&added_count, __ATOMIC_ACQUIRE);
}

const nq_engine *nq_engine_at(int index)
{
    if (index >= 0 && index < BUILT_IN)
        return built_in[index];
    return index >= BUILT_IN && index < nq_engine_count()
               ? added[index - BUILT_IN] : NULL;
}

const nq_engine *nq_engine_find(const char *name)
{
    for (int i = 0, k = nq_engine_count(); name && i < k; i++)
        if (strcmp(nq_engine_at(i)->name, name) == 0)
            return nq_engine_at(i);
    return NULL;
}

nq_status nq_engine_add(const nq_engine *e)
{
    nq_status st = NQ_OK;
    if (!e || !e->name)
        return NQ_ERR_ARG;
    pthread_mutex_lock(&add_lock);
    const nq_engine *same = nq_engine_find(e->name);
    if (same)
        st = same == e ? NQ_OK : NQ_ERR_ARG;
    else if (added_count == ADDED_MAX)
        st = NQ_ERR_NOMEM;
    else {
        added[added_count] = e;
        __atomic_store_n(&added_count, added_count + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&add_lock);
    return st;
}

/* An engine's fields; NULL (no engine: nq_engine_find's answer to a
 * name it does not know) has none, never a crash. */
const char *nq_engine_name(const nq_engine *e) { return e ? e->name : NULL; }
const char *nq_engine_summary(const nq_engine *e)
{
    return e ? e->summary : NULL;
}
int nq_engine_max_n(const nq_engine *e) { return e ? e->max_n : 0; }

const char *nq_engine_devices(const nq_engine *e, char *buf, size_t size)
{
    if (!e || !e->devices || !buf || !size)
        return NULL;
    e->devices(buf, size);
    return buf;
}
unsigned nq_engine_caps(const nq_engine *e) { return e ? e->caps : 0; }

const char *nq_default_count_engine(void) { return "fast"; }
const char *nq_default_enumerate_engine(void) { return "bitmap"; }

/* The one check of a request's engine and size, its failures said in
 * the request's words buffer too (the status alone cannot name the
 * engine). */
nq_status nq_request_engine(const nq_request *req, int enumerate,
                            const nq_engine **out)
{
    const char *name = req->engine ? req->engine
                       : enumerate ? nq_default_enumerate_engine()
                                   : nq_default_count_engine();
    const nq_engine *e = nq_engine_find(name);
    if (!e) {
        nq_request_say(req, "no engine '%s'", name);
        return NQ_ERR_ENGINE;
    }
    if (enumerate && !(e->caps & NQ_CAP_ENUMERATE)) {
        nq_request_say(req, "engine '%s' does not list solutions", name);
        return NQ_ERR_UNSUPPORTED;
    }
    if (req->n < 1 || req->n > e->max_n) {
        nq_request_say(req, "engine '%s' takes N from 1 to %d, not %d", name,
                       e->max_n, req->n);
        return NQ_ERR_RANGE;
    }
    *out = e;
    return NQ_OK;
}

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

/*
 * registry.c - the engine table: the one list of engines.
 *
 * One line per built-in engine below, and the engines optional back-ends
 * add at run time (libnqueens-cuda's nq_cuda_register); everything else
 * (the CLI's engine list, help and messages, the tests that cross-check
 * every engine) reads this table.  It names every engine, so it stands
 * above every engine's room (src/engines, src/fast): no engine calls it,
 * and what engines call of a plan (nq_plan_push and the rest) is in
 * src/engines/plan.c, below.  Running an engine's units on threads is
 * the runner's business (parallel/), choosing how a request runs the run
 * layer's (run/): nothing here calls up into them.
 */
#include <pthread.h>
#include <string.h>

#include "../core/core.h"
#include "../engines/engine.h"
#include "registry.h"

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

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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../search/frontier_kernel.h"
#include "../search/stop.h"
#include "engine.h"

/* ---- cutting units into pieces ---- */

/* Pieces the default bound aims to stay under: the bound is raised
 * above NQ_MAX_UNIT_SECONDS_DEFAULT only where an hour would cut a board
 * into more (N = 29 on: the plan's memory and the time to make it grow
 * with the pieces, some 40 bytes and 30 us of one core each). */
#define PIECES_AIMED (1u << 22)
/* Pieces no bound may ask for (about 1.3 GB of plan). */
#define PIECES_MOST (1u << 25)
/* Units a thread cuts at a time, into a table of its own. */
#define CUT_CHUNK 64

typedef struct {
    nq_plan *p;
    uint64_t floor_us, max_us;
    double *seconds;            /* per unit, weighing */
    nq_plan *parts;             /* per chunk, cutting */
    nq_status *status;
} cutter;

static void weigh_unit(void *ctx, uint64_t i)
{
    cutter *c = ctx;
    c->seconds[i] = nq_stop_requested(c->p->stop)
                        ? 0 : c->p->engine->weigh(c->p, i, c->floor_us);
}

static void cut_chunk(void *ctx, uint64_t k)
{
    cutter *c = ctx;
    nq_plan *part = &c->parts[k];
    uint64_t end = (k + 1) * CUT_CHUNK;
    part->engine = c->p->engine, part->n = c->p->n, part->stop = c->p->stop;
    c->status[k] = NQ_OK;
    for (uint64_t i = k * CUT_CHUNK; i < end && i < c->p->units &&
                                     c->status[k] == NQ_OK; i++)
        c->status[k] = c->p->engine->cut(c->p, i, c->max_us, part);
}

/* The bound of the cut: the request's, or the default, raised where an
 * hour would make more than PIECES_AIMED pieces of the units' summed
 * estimates (each piece holds a fraction of the bound).  NQ_ERR_ARG for
 * a bound that would make more than PIECES_MOST. */
static nq_status choose_bound(const nq_request *req, double total,
                              uint64_t *max_us)
{
    double bound = *max_us / 1e6;
    if (req->max_unit_seconds == 0 && total / PIECES_AIMED > bound)
        bound = total / PIECES_AIMED;
    if (total / bound > PIECES_MOST) {
        nq_request_say(req, "max_unit_seconds %g would cut N=%d into over "
                       "%u pieces (its units are estimated at %.3g "
                       "reference seconds): take a larger bound", bound,
                       req->n, PIECES_MOST, total);
        return NQ_ERR_ARG;
    }
    *max_us = (uint64_t)(bound * 1e6 + 0.5);
    return NQ_OK;
}

/* The chunks' tables, in order, as the plan's. */
static nq_status join_parts(nq_plan *p, nq_plan *parts, uint64_t chunks)
{
    uint64_t units = 0;
    for (uint64_t k = 0; k < chunks; k++)
        units += parts[k].units;
    char *data = malloc((units ? units : 1) * p->unit_size), *at = data;
    if (!data)
        return NQ_ERR_NOMEM;
    for (uint64_t k = 0; k < chunks; k++) {
        memcpy(at, parts[k].data, parts[k].units * p->unit_size);
        at += parts[k].units * p->unit_size;
        p->cut |= parts[k].cut;
    }
    free(p->data);
    p->data = data, p->units = p->cap = units;
    return NQ_OK;
}

/* Every unit weighed, then cut at the bound, on the request's threads;
 * the pieces the same whatever the threads (each chunk of units is cut
 * alone, and the chunks joined in order). */
static nq_status cut_units(nq_plan *p, const nq_request *req)
{
    int threads = nq_resolve_threads(req->threads);
    uint64_t chunks = (p->units + CUT_CHUNK - 1) / CUT_CHUNK;
    cutter c = {p, p->max_us, p->max_us, NULL, NULL, NULL};
    double total = 0;
    nq_status st = NQ_OK;
    c.seconds = malloc((p->units ? p->units : 1) * sizeof *c.seconds);
    c.parts = calloc(chunks ? chunks : 1, sizeof *c.parts);
    c.status = calloc(chunks ? chunks : 1, sizeof *c.status);
    if (!c.seconds || !c.parts || !c.status)
        st = NQ_ERR_NOMEM;
    if (st == NQ_OK)
        nq_parallel_for(p->units, threads, weigh_unit, &c);
    for (uint64_t i = 0; st == NQ_OK && i < p->units; i++)
        total += c.seconds[i];
    if (st == NQ_OK && nq_stop_requested(p->stop))
        st = NQ_ERR_STOPPED;
    if (st == NQ_OK && (st = choose_bound(req, total, &c.max_us)) == NQ_OK)
        nq_parallel_for(chunks, threads, cut_chunk, &c);
    for (uint64_t k = 0; st == NQ_OK && k < chunks; k++)
        st = c.status[k];
    if (st == NQ_OK && (st = join_parts(p, c.parts, chunks)) == NQ_OK)
        p->max_us = c.max_us;
    for (uint64_t k = 0; c.parts && k < chunks; k++)
        free(c.parts[k].data);
    free(c.seconds), free(c.parts), free(c.status);
    return st;
}

nq_status nq_plan_new(const nq_engine *e, const nq_request *req,
                      nq_plan **out)
{
    if (!(e->caps & NQ_CAP_UNITS))
        return NQ_ERR_UNSUPPORTED;
    nq_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ERR_NOMEM;
    int64_t max_us = nq_request_max_us(req);
    if (max_us < 0) {
        free(p);
        return NQ_ERR_ARG;
    }
    p->engine = e;
    p->n = req->n;
    p->stop = req->stop;
    p->max_us = (uint64_t)max_us;
    nq_status st = e->plan(p);
    if (st == NQ_OK && p->max_us && e->cut && p->units)
        st = cut_units(p, req);
    if (st != NQ_OK) {
        nq_plan_free(p);
        return st;
    }
    /* a plan that cut nothing is the plan of whole units, under the name
     * journals of whole units were written with */
    if (p->cut)
        snprintf(p->split, sizeof p->split, "%s,max=%" PRIu64 "us",
                 e->plan_id, p->max_us);
    else
        snprintf(p->split, sizeof p->split, "%s", e->plan_id ? e->plan_id
                                                             : "");
    *out = p;
    return NQ_OK;
}

int64_t nq_request_max_us(const nq_request *req)
{
    double s = req->max_unit_seconds;
    if (s == 0)
        s = NQ_MAX_UNIT_SECONDS_DEFAULT;
    if (s < 0)
        return 0;
    if (!(s <= NQ_MAX_US / 1e6))    /* NaN too */
        return -1;
    double us = s * 1e6 + 0.5;
    return us < 1 ? 1 : (int64_t)us;
}

int nq_split_parse(const char *split, char *base, size_t size,
                   uint64_t *max_us)
{
    const char *cut = strstr(split, ",max=");
    size_t len = cut ? (size_t)(cut - split) : strlen(split);
    uint64_t us = 0;
    if (len >= size)
        return -1;
    memcpy(base, split, len);
    base[len] = '\0';
    *max_us = 0;
    if (!cut)
        return 0;
    const char *d = cut + 5;
    if (*d < '1' || *d > '9')
        return -1;
    for (; *d >= '0' && *d <= '9'; d++)
        if ((us = us * 10 + (uint64_t)(*d - '0')) > NQ_MAX_US)
            return -1;
    if (strcmp(d, "us"))
        return -1;
    *max_us = us;
    return 0;
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
uint64_t nq_split_identity(const nq_engine *e, const char *split, int n,
                           uint64_t units)
{
    unsigned char buf[128];
    const char *id = split ? split : "";
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

int nq_engine_splits(const nq_engine *e, const char *split)
{
    char base[32];
    uint64_t us;
    return e->plan_id && nq_split_parse(split, base, sizeof base, &us) == 0 &&
           !strcmp(base, e->plan_id);
}

double nq_split_max_unit_seconds(const char *split)
{
    char base[32];
    uint64_t us = 0;
    if (!split) /* no name: as a name that does not parse */
        return -1;
    return nq_split_parse(split, base, sizeof base, &us) == 0 && us
               ? us / 1e6 : -1;
}

uint64_t nq_plan_identity(const nq_plan *p)
{
    return p ? nq_split_identity(p->engine, p->split, p->n, p->units) : 0;
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

double nq_plan_unit_seconds(const nq_plan *p, uint64_t unit)
{
    if (!p || unit >= p->units || !p->engine->seconds)
        return -1;
    return p->engine->seconds(p, unit);
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
    return p ? p->split : NULL;
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
    p->unit_size = size;
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

/* What any board's counts must be, known without counting.  No solution
 * of a board past 1 is its own mirror image (a queen and its image would
 * share a row, or a column, or a diagonal), so a class has 8, 4 or 2
 * members: T = 8a + 4b + 2c and U = a + b + c, hence T even and 2U <= T
 * <= 8U.  Boards 2 and 3 have none, every larger one some (the
 * construction by n mod 6), and the board of 1 has one. */
static int counts_possible(int n, const nq_counts *c)
{
    if (n <= 3)
        return c->total == (n == 1) && c->unique == (n == 1);
    return c->total >= 2 && c->total % 2 == 0 && c->unique >= 1 &&
           c->unique <= c->total / 2 && c->total / 8 <= c->unique &&
           (c->total / 8 < c->unique || c->total % 8 == 0);
}

nq_status nq_plan_finish_sum(const nq_plan *p, const nq_tally *sum,
                             nq_counts *out)
{
    nq_status st = p->engine->finish(p, sum, out);
    return st != NQ_OK || counts_possible(p->n, out) ? st : NQ_ERR_INTERNAL;
}

/* Boards counted in a millisecond or so: their sum is checked against
 * the count itself (a sum of 8 at N = 10, which every relation above
 * allows, is no count of it).  Only here, for a caller's sums: a journal
 * is checked by recounting its records (nq_journal_verify). */
#define FINISH_COUNTED_N 12

nq_status nq_plan_finish(const nq_plan *p, const nq_tally *sum, nq_counts *out)
{
    if (!p || !sum || !out)
        return NQ_ERR_ARG;
    nq_status st = nq_plan_finish_sum(p, sum, out);
    if (st != NQ_OK || p->n > FINISH_COUNTED_N)
        return st;
    nq_tally t = {0};
    nq_count_whole_board(p->n, &t);
    return t.total == out->total && t.unique == out->unique
               ? NQ_OK : NQ_ERR_INTERNAL;
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

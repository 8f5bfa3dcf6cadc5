/*
 * run_runs.c - which run wrote each record, for verify: one bad machine
 * (a worker that skips work, a host whose memory flips bits) writes its
 * records among everyone else's, and a uniform sample of a big journal
 * may hold none of them.  So every run gets a few of its records
 * recounted whatever the draw (a reservoir sample per run, drawn from
 * the check's seed), and a run whose records disagree is named, with
 * every record it wrote refused: the rest of its work is no better than
 * the records that were caught.  A run's sample is its records of the
 * least keys, each key drawn from the seed and the unit alone: the same
 * records whatever order the journals and their lines are read in, as
 * the rest of the choice (every part of a check, and merge --verified,
 * must choose alike).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/random.h"
#include "run.h"

nq_status nq_runs_init(nq_runs *rs, uint64_t units, uint64_t seed)
{
    memset(rs, 0, sizeof *rs);
    rs->seed = seed ^ UINT64_C(0x72756e732d73616d); /* apart from the draw */
    rs->of = calloc(units + 1, sizeof *rs->of);
    return rs->of ? NQ_OK : NQ_ERR_NOMEM;
}

void nq_runs_free(nq_runs *rs)
{
    free(rs->of), free(rs->at);
}

/* The index + 1 of the run with this id, added if new; 0 if the table
 * cannot grow (its records then belong to no run). */
static uint32_t find_run(nq_runs *rs, const nq_jf_run *run)
{
    for (uint32_t i = 0; i < rs->count; i++)
        if (rs->at[i].run.id == run->id)
            return i + 1;
    if (rs->count == rs->cap) {
        uint32_t cap = rs->cap ? 2 * rs->cap : 16;
        nq_run_seen *at = cap > rs->cap ? realloc(rs->at, cap * sizeof *at)
                                        : NULL;
        if (!at)
            return 0;
        rs->at = at, rs->cap = cap;
    }
    rs->at[rs->count] = (nq_run_seen){.run = *run};
    return ++rs->count;
}

void nq_runs_enter(nq_runs *rs, const nq_jf_run *run)
{
    rs->current = find_run(rs, run);
}

void nq_runs_leave(nq_runs *rs)
{
    rs->current = 0;
}

/* A record read for the first time: its run's, and in the run's sample
 * if its key is among the NQ_RUN_SAMPLE least (each of the run's
 * records equally likely; the sample kept sorted by key, ties by unit). */
void nq_runs_record(nq_runs *rs, uint64_t unit, const nq_tally *t)
{
    if (!rs->current || rs->of[unit])
        return;
    rs->of[unit] = rs->current;
    nq_run_seen *r = &rs->at[rs->current - 1];
    uint64_t key = nq_random_keyed(rs->seed, unit); /* the seed's and
                                                       unit's alone */
    uint64_t n = r->records < NQ_RUN_SAMPLE ? r->records : NQ_RUN_SAMPLE;
    r->records++;
    uint64_t i = n;
    for (; i > 0 && (r->key[i - 1] > key ||
                     (r->key[i - 1] == key && r->sample[i - 1] > unit)); i--)
        if (i < NQ_RUN_SAMPLE) /* shift up; the greatest falls off */
            r->key[i] = r->key[i - 1], r->sample[i] = r->sample[i - 1],
            r->tally[i] = r->tally[i - 1];
    if (i < NQ_RUN_SAMPLE)
        r->key[i] = key, r->sample[i] = unit, r->tally[i] = *t;
}

void nq_runs_told(const nq_runs *rs, const nq_verify_options *o,
                  nq_verify_report *r)
{
    for (uint32_t i = 0; i < rs->count; i++) {
        const nq_run_seen *s = &rs->at[i];
        nq_verify_run v = {s->run.id, s->run.host, s->run.engine,
                           s->run.kernel, s->run.pid, s->records, s->checked,
                           s->disagree, s->run.rank};
        r->runs++;
        if (s->disagree)
            r->runs_disagree++, r->run_records += s->records;
        if (o->on_run)
            o->on_run(o->ctx, &v);
    }
}

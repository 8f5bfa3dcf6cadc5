/*
 * run_runs.c - which run wrote each record, for verify: one bad machine
 * (a worker that skips work, a host whose memory flips bits) writes its
 * records among everyone else's, and a uniform sample of a big journal
 * may hold none of them.  So every run gets a few of its records
 * recounted whatever the draw (a reservoir sample per run, drawn from
 * the check's seed), and a run whose records disagree is named, with
 * every record it wrote refused: the rest of its work is no better than
 * the records that were caught.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/random.h"
#include "run.h"

nq_status nq_runs_init(nq_runs *rs, uint64_t units, uint64_t seed)
{
    memset(rs, 0, sizeof *rs);
    rs->rng = seed ^ UINT64_C(0x72756e732d73616d); /* apart from the draw */
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

/* A record read for the first time: its run's, and perhaps in the run's
 * sample (reservoir sampling, Knuth's Algorithm R: each of the run's
 * records equally likely). */
void nq_runs_record(nq_runs *rs, uint64_t unit, const nq_tally *t)
{
    if (!rs->current || rs->of[unit])
        return;
    rs->of[unit] = rs->current;
    nq_run_seen *r = &rs->at[rs->current - 1];
    uint64_t k = r->records++;
    uint64_t j = k < NQ_RUN_SAMPLE ? k : nq_random_next(&rs->rng) % (k + 1);
    if (j < NQ_RUN_SAMPLE)
        r->sample[j] = unit, r->tally[j] = *t;
}

void nq_runs_told(const nq_runs *rs, const nq_verify_options *o,
                  nq_verify_report *r)
{
    for (uint32_t i = 0; i < rs->count; i++) {
        const nq_run_seen *s = &rs->at[i];
        nq_verify_run v = {s->run.id, s->run.host, s->run.engine,
                           s->run.kernel, s->run.pid, s->records, s->checked,
                           s->disagree};
        r->runs++;
        if (s->disagree)
            r->runs_disagree++, r->run_records += s->records;
        if (o->on_run)
            o->on_run(o->ctx, &v);
    }
}

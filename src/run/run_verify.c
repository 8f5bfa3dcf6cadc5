/*
 * run_verify.c - checking journals by recounting: the way to trust parts of
 * a record hunt counted on machines nobody here controls.
 *
 * A record's tag only shows that whoever wrote it knew the key, and the
 * key is in the file.  So a sample of the recorded units, drawn at random
 * after the journals are written, is counted again and compared.  A
 * forger who changed k of R records escapes a sample of s units with
 * probability C(R-k, s) / C(R, s), about (1 - s/R)^k.  The units that
 * can hold solutions fixed by a turn are few and carry the unique count,
 * which no sample would guard, so every one of them is added to the
 * sample outright.  Which units those are is the plan's word, never the
 * record's: a forger who zeroes a record's fixed points must not thereby
 * take it out of the recount.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/random.h"
#include "../journal/journal.h"
#include "run.h"

/* The units chosen, with their records: kept sorted by unit for lookup
 * while the recount reports units in any order. */
typedef struct {
    unsigned char *drawn;       /* bit per unit: drawn at random */
    unsigned char *kept;        /* bit per unit: its record is in list */
    uint64_t *ids;
    nq_tally *records;
    uint64_t count, cap, fixed;
    int fixed_points;
    const nq_plan *plan;
    const nq_verify_options *o;
    nq_verify_report *r;
} chosen;

/* Draw `want` of the recorded units, each set of that size equally
 * likely: Knuth's selection sampling (TAOCP 3.4.2, Algorithm S) over the
 * units in order, one pass, no list of candidates. */
static void draw(chosen *c, const unsigned char *done, uint64_t units,
                 uint64_t recorded, uint64_t want, uint64_t seed)
{
    uint64_t rng = seed, left = recorded;
    for (uint64_t u = 0; u < units && want; u++) {
        if (!(done[u / 8] >> (u % 8) & 1))
            continue;
        double x = (double)(nq_random_next(&rng) >> 11) * 0x1p-53;
        if (x * (double)left < (double)want) {
            c->drawn[u / 8] |= (unsigned char)(1u << (u % 8));
            want--, c->r->sampled++;
        }
        left--;
    }
}

static nq_status keep(chosen *c, uint64_t unit, const nq_tally *t)
{
    if (c->count == c->cap) {
        uint64_t cap = c->cap ? 2 * c->cap : 64;
        uint64_t *ids = realloc(c->ids, cap * sizeof *ids);
        if (ids)
            c->ids = ids;
        nq_tally *rec = ids ? realloc(c->records, cap * sizeof *rec) : NULL;
        if (!rec)
            return NQ_ERR_NOMEM;
        c->records = rec, c->cap = cap;
    }
    c->ids[c->count] = unit, c->records[c->count++] = *t;
    c->kept[unit / 8] |= (unsigned char)(1u << (unit % 8));
    return NQ_OK;
}

static nq_status any_header(void *ctx, const char *path,
                            const nq_journal_header *h, char *why,
                            size_t wsize)
{
    (void)ctx, (void)path, (void)h, (void)why, (void)wsize;
    return NQ_OK; /* nq_journal_merge has checked every header */
}

/* A record read again: kept if drawn, or if its plan says the unit
 * can hold fixed points and those are wanted; a unit recorded twice is
 * kept once (merging has shown that its records agree). */
static nq_status take(void *ctx, const char *path, long line, uint64_t unit,
                      const nq_tally *t, char *why, size_t wsize)
{
    chosen *c = ctx;
    (void)path, (void)line, (void)why, (void)wsize;
    int drawn = c->drawn[unit / 8] >> (unit % 8) & 1;
    int fixed = c->fixed_points && nq_plan_unit_forced(c->plan, unit);
    if ((!drawn && !fixed) || (c->kept[unit / 8] >> (unit % 8) & 1))
        return NQ_OK;
    c->fixed += !drawn;
    return keep(c, unit, t);
}

static int by_unit(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort ids and records together: records are few (the sample), so an
 * index sort through a scratch copy is enough. */
static nq_status sort_chosen(chosen *c)
{
    uint64_t (*pairs)[2] = malloc((c->count ? c->count : 1) * sizeof *pairs);
    nq_tally *rec = malloc((c->count ? c->count : 1) * sizeof *rec);
    if (!pairs || !rec) {
        free(pairs), free(rec);
        return NQ_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < c->count; i++)
        pairs[i][0] = c->ids[i], pairs[i][1] = i;
    qsort(pairs, c->count, sizeof *pairs, by_unit);
    for (uint64_t i = 0; i < c->count; i++)
        c->ids[i] = pairs[i][0], rec[i] = c->records[pairs[i][1]];
    free(pairs);
    free(c->records);
    c->records = rec;
    return NQ_OK;
}

static int same_counts(const nq_tally *a, const nq_tally *b)
{
    return a->total == b->total && a->unique == b->unique &&
           a->fixed180 == b->fixed180 && a->fixed90 == b->fixed90;
}

/* A unit recounted: compared with its record (the runner calls this one
 * unit at a time). */
static nq_status compare(void *ctx, uint64_t unit, const nq_tally *t)
{
    chosen *c = ctx;
    const uint64_t *at = bsearch(&unit, c->ids, c->count, sizeof unit, by_unit);
    const nq_tally *rec = at ? &c->records[at - c->ids] : NULL;
    c->r->checked++;
    if (rec && same_counts(rec, t))
        return NQ_OK;
    c->r->disagree++;
    if (c->o->on_disagree && rec)
        c->o->on_disagree(c->o->ctx, unit, rec, t);
    return NQ_OK;
}

/* The chosen units counted again with the plan's engine. */
static nq_status recount(chosen *c)
{
    nq_run_options ro = {.threads = c->o->threads, .ids = c->ids,
                         .count = c->count, .stop = c->o->stop,
                         .on_unit = compare, .ctx = c,
                         .progress = c->o->progress,
                         .progress_ctx = c->o->progress_ctx};
    nq_tally sum = {0};
    return c->count ? nq_plan_run(c->plan, &ro, &sum) : NQ_OK;
}

/* The records of the chosen units, read again from every journal. */
static nq_status collect(chosen *c, const char *const *paths, int count,
                         char *why, size_t wsize)
{
    nq_jf_reader rd = {any_header, take, c, c->o->stop};
    nq_status st = NQ_OK;
    for (int i = 0; i < count && st == NQ_OK; i++) {
        nq_jf_result res;
        st = nq_run_read_journal(paths[i], &rd, &res, why, wsize);
    }
    return st == NQ_OK ? sort_chosen(c) : st;
}

/* How many to draw: the share asked for, rounded up, but at least
 * at_least, and never more than there are. */
static uint64_t sample_size(const nq_verify_options *o, uint64_t recorded)
{
    double share = o->percent / 100.0 * (double)recorded;
    uint64_t want = share >= (double)recorded ? recorded : (uint64_t)share;
    want += (double)want < share;
    if (want < o->at_least)
        want = o->at_least;
    return want < recorded ? want : recorded;
}

static nq_status verify_chosen(chosen *c, const char *const *paths,
                               int count, const nq_journal_header *h,
                               const unsigned char *done, char *why,
                               size_t wsize)
{
    uint64_t bytes = h->units / 8 + 1;
    if (!(c->drawn = calloc(bytes, 1)) || !(c->kept = calloc(bytes, 1)))
        return NQ_ERR_NOMEM;
    draw(c, done, h->units, c->r->recorded,
         sample_size(c->o, c->r->recorded), c->r->seed);
    nq_status st = collect(c, paths, count, why, wsize);
    c->r->fixed_points = c->fixed;
    return st == NQ_OK ? recount(c) : st;
}

nq_status nq_journal_verify(const char *const *paths, int count,
                            const nq_verify_options *o,
                            nq_journal_header *header, nq_verify_report *r,
                            char *why, size_t wsize)
{
    nq_journal_state state;
    unsigned char *done = NULL;
    double t0 = nq_clock_seconds();
    memset(r, 0, sizeof *r);
    if (!o || !(o->percent >= 0 && o->percent <= 100))
        return NQ_ERR_ARG;
    nq_plan *plan = NULL;
    nq_status st = nq_run_merge(paths, count, o->stop, header, &state, &done,
                                &plan, why, wsize);
    if (st != NQ_OK)
        return st;
    uint64_t key[2];
    nq_journal_new_key(key); /* a seed no journal's writer could know */
    r->units = header->units, r->recorded = state.units_done;
    r->seed = o->seed ? o->seed : (key[0] >> 11) | 1; /* exact in JSON */
    chosen c = {.fixed_points = o->fixed_points, .plan = plan, .o = o,
                .r = r};
    st = verify_chosen(&c, paths, count, header, done, why, wsize);
    free(done), free(c.drawn), free(c.kept), free(c.ids), free(c.records);
    nq_plan_free(plan);
    r->seconds = nq_clock_seconds() - t0;
    return st;
}

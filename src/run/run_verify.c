/*
 * run_verify.c - checking journals by recounting: the way to trust parts of
 * a record hunt counted on machines nobody here controls.
 *
 * A record's tag only shows that whoever wrote it knew the key, and the
 * key is in the file.  So a sample of the recorded units, drawn at random
 * after the journals are written, is counted again and compared.  A
 * forger who changed k of R records escapes a sample of s units with
 * probability C(R-k, s) / C(R, s), about (1 - s/R)^k, whatever the size
 * of each change: a draw alone lets one record raised by 10^12 through as
 * often as one raised by 8.  So the records that stand out by size are
 * recounted whatever the draw: the `largest` greatest totals, and the
 * `largest` greatest for the plan's own estimate of each unit's size (a
 * small unit raised far past its size, while still below the greatest
 * totals).  A record left out of both holds at most the least of the
 * greatest totals (the report's size_bound), so no one record can be
 * off by more than that unseen, and a total off by more needs that many
 * wrong records for the draw to miss.  The units that can hold solutions
 * fixed by a turn are few and carry the unique count, which no sample
 * would guard, so every one of them is recounted outright.  Which units
 * those are, and each unit's estimate, is the plan's word, never the
 * record's: a forger who zeroes a record's fixed points must not thereby
 * take it out of the recount.
 *
 * Those bounds look upward; a worker who skips work lowers records.  So
 * the `largest` least records for their unit's estimate, (total + 1)
 * over it, are recounted too (a large search recorded with almost
 * nothing: every genuine record but the few large searches with no
 * solution scores higher), every record left out of them holds at least
 * low_ratio times its estimate, and the journal is weighed as a whole,
 * stratum by stratum of estimate (run_strata.c), which sees many records
 * lowered a little.
 *
 * A uniform draw and bars by size still let a forger spread a raise
 * over many records each kept under both bars (67 records at N = 17
 * raised the total 4.2% past 5 verifies in 10).  So two more draws are
 * weighted, as auditors sample money (monetary unit sampling): records
 * drawn in proportion to the total they claim, and in proportion to
 * their unit's estimated work, each record on its own.  Every solution
 * claimed then has the same chance of a recount, and so has every
 * estimated node of work: a raise of D escapes with chance at most
 * exp(-D / claim_step), wrong records holding a share g of the work
 * (skipped, lowered, anything) at most exp(-g / work_share), however the
 * forger spreads them.  And each run that wrote records (journal format
 * 4) gets a few of its own recounted (run_runs.c): one bad machine is
 * named, and every record it wrote refused.
 *
 * The recount runs on a CPU engine of the plan unless the caller names
 * another: the header's engine is for people only, and a GPU named there
 * may be absent or failing here.  A GPU engine that fails hands the units
 * it left to the CPU engine, said through on_fallback.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../core/random.h"
#include "../journal/journal.h"
#include "run.h"

/* The effort of the plan's estimate a record's total is weighed against:
 * fast's 256 random paths.  At N = 14 and 16 the 16th largest ratio of
 * total to it is 2.1 to 2.7 times the median (64 paths, 2.4 to 2.7;
 * nodes to depth 2 to 4 counted exactly, 3.5 to 5.8): the closer, the
 * less a record can be raised below the second bar. */
#define RATIO_EFFORT 256

/* A record that stands out by size, kept in a heap of the greatest. */
typedef struct {
    uint64_t unit;
    double ratio;               /* its total over its unit's estimate
                                   (lows: its total + 1 over it) */
    double estimate;            /* its unit's estimate */
    nq_tally t;
} standout;

/* What a heap keeps: the greatest totals, the greatest ratios, or the
 * least ratios (records lowered: a unit of the plan's largest searches
 * recorded with almost no solutions). */
enum { BY_TOTAL, BY_RATIO, BY_LOW };

/* The `want` greatest records seen, by total or by ratio: a min-heap,
 * its least at the root, so that most records are turned away by one
 * comparison. */
typedef struct {
    standout *at;
    uint64_t count, want;
    uint64_t seen;              /* records offered: past want, some were
                                   turned away */
    int by;                     /* BY_TOTAL, BY_RATIO or BY_LOW */
} greatest;

/* The units chosen, with their records: kept sorted by unit for lookup
 * while the recount reports units in any order. */
typedef struct {
    unsigned char *drawn;       /* bit per unit: drawn at random */
    unsigned char *picked;      /* bit per unit: by a weighted draw */
    unsigned char *kept;        /* bit per unit: its record is in list */
    unsigned char *weighed;     /* bit per unit: its record was weighed */
    unsigned char *compared;    /* per entry of ids: recounted and compared
                                   (VERDICT_AGREE or VERDICT_DISAGREE) */
    uint32_t *part_of;          /* per entry of ids: its part, from 0 */
    uint64_t *ids;
    nq_tally *records;
    uint64_t count, cap, fixed;
    greatest totals, ratios, lows;
    greatest claims, work;      /* the weighted draws' greatest keys */
    nq_u128 claimed, worked;    /* their weights summed: totals, and
                                   estimates in whole nodes; integers,
                                   so that any order of reading (each
                                   part's, merge --verified's) draws
                                   alike */
    nq_weighed *weighed_list;   /* every record weighed by its estimate,
                                   for the strata */
    uint64_t weighed_count, weighed_cap;
    nq_runs runs;               /* which run wrote each record */
    int fixed_points;
    const nq_plan *plan;        /* the plan the records were checked by */
    const nq_record_set *first; /* what the first reading found */
    unsigned char *again;       /* bit per unit: read again */
    uint64_t read_again;        /* distinct units read again */
    const nq_verify_options *o;
    nq_verify_report *r;
    const nq_runner *runner;    /* who recounts (NULL: this process's
                                   threads) */
    char why[1024];             /* a GPU engine's words, for a fallback;
                                   a runner's, for a failure */
} chosen;

static int bit(const unsigned char *set, uint64_t u)
{
    return set[u / 8] >> (u % 8) & 1;
}

static void set_bit(unsigned char *set, uint64_t u)
{
    set[u / 8] |= (unsigned char)(1u << (u % 8));
}

/* Draw `want` of the recorded units, each set of that size equally
 * likely: Knuth's selection sampling (TAOCP 3.4.2, Algorithm S) over the
 * units in order, one pass, no list of candidates. */
static void draw(chosen *c, const unsigned char *done, uint64_t units,
                 uint64_t recorded, uint64_t want, uint64_t seed)
{
    uint64_t rng = seed, left = recorded;
    for (uint64_t u = 0; u < units && want; u++) {
        if (!bit(done, u))
            continue;
        double x = (double)(nq_random_next(&rng) >> 11) * 0x1p-53;
        if (x * (double)left < (double)want) {
            set_bit(c->drawn, u);
            want--, c->r->sampled++;
        }
        left--;
    }
}

/* n bytes of v, little-endian, into the FNV-1a hash h: digests that are
 * the same on every machine. */
static uint64_t fnv_le(uint64_t h, nq_u128 v, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned char b = (unsigned char)(v >> (8 * i));
        h = nq_fnv1a(h, &b, 1);
    }
    return h;
}

/* One record's share of the records' digest: FNV-1a of its unit (8
 * bytes) and its four counts (16 bytes each); the digest sums them, so
 * that neither the order of the files nor of their lines moves it. */
static uint64_t record_digest(uint64_t unit, const nq_tally *t)
{
    uint64_t h = fnv_le(NQ_FNV_OFFSET, unit, 8);
    const nq_u128 v[4] = {t->total, t->unique, t->fixed180, t->fixed90};
    for (int i = 0; i < 4; i++)
        h = fnv_le(h, v[i], 16);
    return h;
}

/* ---- the records that stand out by size ---- */

/* a below b: by ratio or total, and between equals the higher unit, so
 * that which records stand out never hangs on the order they were
 * written in (the order a run's threads finished its units). */
static int less(const greatest *g, const standout *a, const standout *b)
{
    if (g->by == BY_LOW) { /* the higher ratio is the less suspicious;
                              between equals the smaller search */
        if (a->ratio != b->ratio)
            return a->ratio > b->ratio;
        if (a->estimate != b->estimate)
            return a->estimate < b->estimate;
        return a->unit > b->unit;
    }
    if (g->by ? a->ratio != b->ratio : a->t.total != b->t.total)
        return g->by ? a->ratio < b->ratio : a->t.total < b->t.total;
    return a->unit > b->unit;
}

static void sift_down(greatest *g, uint64_t i)
{
    for (;;) {
        uint64_t least = i, l = 2 * i + 1, r = l + 1;
        if (l < g->count && less(g, &g->at[l], &g->at[least]))
            least = l;
        if (r < g->count && less(g, &g->at[r], &g->at[least]))
            least = r;
        if (least == i)
            return;
        standout t = g->at[i];
        g->at[i] = g->at[least], g->at[least] = t;
        i = least;
    }
}

/* s, if it is among the `want` greatest so far. */
static void weigh(greatest *g, const standout *s)
{
    g->seen++;
    if (g->count < g->want) {
        uint64_t i = g->count++;
        g->at[i] = *s;
        for (; i && less(g, &g->at[i], &g->at[(i - 1) / 2]); i = (i - 1) / 2) {
            standout t = g->at[i];
            g->at[i] = g->at[(i - 1) / 2], g->at[(i - 1) / 2] = t;
        }
    } else if (g->want && less(g, &g->at[0], s)) {
        g->at[0] = *s;
        sift_down(g, 0);
    }
}

/* A record kept for the strata; a list that cannot grow leaves the
 * strata unweighed (said by strata 0), not the recount undone. */
static void list_weighed(chosen *c, uint64_t unit, double e, double total)
{
    if (c->weighed_count == c->weighed_cap) {
        uint64_t cap = c->weighed_cap ? 2 * c->weighed_cap : 1024;
        nq_weighed *w = realloc(c->weighed_list, cap * sizeof *w);
        if (!w) {
            c->weighed_cap = UINT64_MAX; /* no more: no strata */
            return;
        }
        c->weighed_list = w, c->weighed_cap = cap;
    }
    c->weighed_list[c->weighed_count++] = (nq_weighed){unit, e, total};
}

/* A uniform number in (0, 1], the draw's seed's and the unit's alone;
 * `stream` keeps the draws apart (a unit's chance in one is not its
 * chance in another, nor in its run's sample). */
static double uniform(uint64_t seed, uint64_t stream, uint64_t unit)
{
    return (double)((nq_random_keyed(seed ^ stream, unit) >> 11) + 1) *
           0x1p-53;
}

/* A record's keys in the weighted draws: its weight over its uniform
 * number.  A record is drawn when its key passes the weights' sum over
 * the draw's size (the step), that is with chance min(1, weight /
 * step), each on its own; the heaps keep the greatest keys, more than
 * the draw takes. */
static void weigh_drawn(chosen *c, standout s, double e)
{
    if (!c->claims.want)
        return;
    c->claimed += s.t.total; /* a journal's totals sum to a count: no
                                wrap in 128 bits */
    s.ratio = (double)s.t.total /
              uniform(c->r->seed, UINT64_C(0x636c61696d), s.unit);
    weigh(&c->claims, &s);
    uint64_t w = e >= 0x1p63 ? UINT64_C(1) << 63 : e > 0 ?
                 (uint64_t)(e + 0.5) : 0;
    if (!w)
        return;
    c->worked += w, s.estimate = e;
    s.ratio = (double)w / uniform(c->r->seed, UINT64_C(0x776f726b), s.unit);
    weigh(&c->work, &s);
}

/* A record weighed once for its size, unless a turn's fixed points
 * already have it recounted: by its total, by its total over the plan's
 * estimate of the unit (an estimate of 0 under a total that is not:
 * infinitely far past it), and by its total + 1 over the estimate, the
 * least of which are records lowered (the + 1 ranks a unit of no
 * solutions by its size: a large search with none stands out, a small
 * one does not). */
static void weigh_record(chosen *c, uint64_t unit, const nq_tally *t)
{
    if (bit(c->weighed, unit))
        return;
    set_bit(c->weighed, unit);
    standout s = {unit, 0, 0, *t};
    if (nq_plan_unit_forced(c->plan, unit)) { /* in the draws, unless
                                                 recounted anyway */
        if (!c->fixed_points && c->claims.want)
            weigh_drawn(c, s, nq_plan_unit_estimate(c->plan, unit,
                                                    RATIO_EFFORT));
        return;
    }
    weigh(&c->totals, &s);
    double e = c->ratios.want || c->claims.want
               ? nq_plan_unit_estimate(c->plan, unit, RATIO_EFFORT) : -1;
    weigh_drawn(c, s, e);
    if (e < 0)
        return;
    s.estimate = e;
    s.ratio = !t->total ? 0 : e > 0 ? (double)t->total / e : INFINITY;
    weigh(&c->ratios, &s);
    if (e <= 0)
        return;
    s.ratio = ((double)t->total + 1) / e;
    weigh(&c->lows, &s);
    list_weighed(c, unit, e, (double)t->total);
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
    set_bit(c->kept, unit);
    return NQ_OK;
}

/* The greatest records into the list, those not drawn counted as added
 * for their size; the least of the greatest totals is the bound on every
 * other record (none while every record is among them). */
static nq_status keep_greatest(chosen *c)
{
    greatest *both[3] = {&c->totals, &c->ratios, &c->lows};
    nq_status st = NQ_OK;
    for (int g = 0; g < 3; g++)
        for (uint64_t i = 0; i < both[g]->count && st == NQ_OK; i++) {
            const standout *s = &both[g]->at[i];
            if (bit(c->kept, s->unit))
                continue;
            c->r->by_size++;
            st = keep(c, s->unit, &s->t);
        }
    if (c->totals.count == c->totals.want && c->totals.want)
        c->r->size_bound = c->totals.at[0].t.total;
    if (c->lows.count == c->lows.want && c->lows.want)
        c->r->low_ratio = c->lows.at[0].ratio;
    return st;
}

/* A weighted draw's records into the list, counted as by weight if not
 * chosen already; its step into *step (0 for no weight).  When the heap
 * turned keys away and its least still passes the step, that key is the
 * step instead: a smaller draw, and the step said is the one that held
 * (more than 2K + 16 keys passing where K are expected: a chance under
 * 1e-15, by Chernoff's bound, for any K). */
static nq_status keep_drawn(chosen *c, const greatest *g, nq_u128 weights,
                            double *step)
{
    double sum = (double)weights, bar = sum / (double)c->o->weighted;
    if (g->seen > g->want && g->count && g->at[0].ratio > bar)
        bar = g->at[0].ratio;
    *step = sum > 0 ? bar : 0;
    nq_status st = NQ_OK;
    for (uint64_t i = 0; i < g->count && st == NQ_OK && sum > 0; i++) {
        const standout *s = &g->at[i];
        if (!(s->ratio > bar) || bit(c->kept, s->unit))
            continue;
        set_bit(c->picked, s->unit);
        c->r->by_weight++;
        st = keep(c, s->unit, &s->t);
    }
    return st;
}

/* Both weighted draws; the work's step as a share of the work. */
static nq_status keep_weighted(chosen *c)
{
    double step = 0;
    if (!c->o->weighted)
        return NQ_OK;
    nq_status st = keep_drawn(c, &c->claims, c->claimed, &c->r->claim_step);
    if (st == NQ_OK)
        st = keep_drawn(c, &c->work, c->worked, &step);
    c->r->work_share = c->worked > 0 ? step / (double)c->worked : 0;
    return st;
}

/* A journal read again that is not what the first reading found: it
 * was replaced or written to in between, and what would be recounted is
 * not what was read (nor what merge --verify would add up). */
static nq_status changed(const char *path, char *why, size_t wsize)
{
    nq_jf_why(why, wsize, "%s changed while verify read it (a second "
              "reading, to collect the units to recount, does not hold "
              "what the first held); run verify again once no one writes "
              "it", path);
    return NQ_ERR_IO;
}

static nq_status same_header(void *ctx, const char *path,
                             const nq_journal_header *h, char *why,
                             size_t wsize)
{
    chosen *c = ctx;
    nq_runs_leave(&c->runs); /* a new file: no run line read yet */
    if (h->n == c->plan->n && h->units == c->plan->units &&
        !strcmp(h->plan, nq_plan_split(c->plan)) &&
        h->identity == nq_plan_identity(c->plan))
        return NQ_OK;
    return changed(path, why, wsize);
}

/* A record read again, which must be one the first reading found, with
 * the same counts: weighed for its size; kept if drawn, or if its plan
 * says the unit can hold fixed points and those are wanted; a unit
 * recorded twice is kept once (merging has shown that its records
 * agree). */
static nq_status take(void *ctx, const char *path, long line, uint64_t unit,
                      const nq_tally *t, char *why, size_t wsize)
{
    chosen *c = ctx;
    (void)line;
    if (!nq_record_set_holds(c->first, unit, t))
        return changed(path, why, wsize);
    if (!bit(c->again, unit)) {
        set_bit(c->again, unit);
        c->read_again++;
        c->r->records_digest += record_digest(unit, t);
        nq_runs_record(&c->runs, unit, t);
    }
    weigh_record(c, unit, t);
    uint32_t run = c->runs.current;
    int drawn = bit(c->drawn, unit) ||
                (c->o->run && run && c->runs.at[run - 1].run.id == c->o->run);
    int fixed = c->fixed_points && nq_plan_unit_forced(c->plan, unit);
    if ((!drawn && !fixed) || bit(c->kept, unit))
        return NQ_OK;
    c->fixed += !drawn;
    return keep(c, unit, t);
}

/* An opening run line: the records after it are that run's. */
static nq_status take_run(void *ctx, const char *path, long line,
                          const nq_jf_run *run, char *why, size_t wsize)
{
    chosen *c = ctx;
    (void)path, (void)line, (void)why, (void)wsize;
    nq_runs_enter(&c->runs, run);
    return NQ_OK;
}

/* Each run's sample into the list, those not chosen already counted as
 * added for their run. */
static nq_status keep_run_samples(chosen *c)
{
    nq_status st = NQ_OK;
    for (uint32_t i = 0; i < c->runs.count && st == NQ_OK; i++) {
        const nq_run_seen *s = &c->runs.at[i];
        for (uint64_t j = 0; j < s->records && j < NQ_RUN_SAMPLE &&
                             st == NQ_OK; j++)
            if (!bit(c->kept, s->sample[j])) {
                c->r->by_run++;
                st = keep(c, s->sample[j], &s->tally[j]);
            }
    }
    return st;
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
    if (!pairs || !rec || !(c->compared = calloc(c->count + 1, 1))) {
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
    int agree = rec && same_counts(rec, t);
    if (at)
        c->compared[at - c->ids] = agree ? VERDICT_AGREE : VERDICT_DISAGREE;
    c->r->checked++;
    if (c->runs.of[unit]) {
        nq_run_seen *s = &c->runs.at[c->runs.of[unit] - 1];
        s->checked++, s->disagree += !agree;
    }
    if (agree)
        return NQ_OK;
    c->r->disagree++;
    if (c->o->on_disagree && rec)
        c->o->on_disagree(c->o->ctx, unit, rec, t);
    return NQ_OK;
}

/* ---- the parts ---- */

/* A unit's estimate in whole nanoseconds (0 for none, at most 2^63):
 * the deal sums integers, so every part deals alike whatever its
 * floating point. */
static uint64_t nanos(double seconds)
{
    return seconds > 9e9 ? UINT64_C(1) << 63 : seconds > 0 ?
           (uint64_t)(seconds * 1e9 + 0.5) : 0;
}

/* A chosen entry for the deal: its estimate and its index. */
typedef struct {
    uint64_t weight, index;
} dealt;

/* Largest estimate first, then the lower unit (the ids are sorted, so
 * the lower index). */
static int by_weight(const void *a, const void *b)
{
    const dealt *x = a, *y = b;
    if (x->weight != y->weight)
        return (x->weight < y->weight) - (x->weight > y->weight);
    return (x->index > y->index) - (x->index < y->index);
}

/* Each entry to the part with the least estimated work so far (the
 * lower part on ties), largest first: equal work, and the same deal in
 * every part. */
static nq_status deal_by_size(chosen *c, const uint64_t *weight)
{
    uint32_t parts = c->r->parts;
    dealt *order = malloc((c->count ? c->count : 1) * sizeof *order);
    nq_u128 *load = calloc(parts, sizeof *load);
    if (!order || !load || !(c->part_of = calloc(c->count + 1,
                                                 sizeof *c->part_of))) {
        free(order), free(load);
        return NQ_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < c->count; i++)
        order[i] = (dealt){weight[i], i};
    qsort(order, c->count, sizeof *order, by_weight);
    for (uint64_t i = 0; i < c->count; i++) {
        uint32_t least = 0;
        for (uint32_t k = 1; k < parts; k++)
            least = load[k] < load[least] ? k : least;
        c->part_of[order[i].index] = least;
        load[least] += order[i].weight;
    }
    free(order), free(load);
    return NQ_OK;
}

/* What the choice and the part's share hold, why each unit was chosen,
 * their estimates and the chosen set's digest, told unit by unit. */
static void tell_chosen(chosen *c, const double *seconds)
{
    nq_verify_report *r = c->r;
    r->chosen = c->count, r->chosen_digest = NQ_FNV_OFFSET;
    for (uint64_t i = 0; i < c->count; i++) {
        uint64_t u = c->ids[i];
        int mine = c->part_of[i] == r->part - 1;
        r->chosen_digest = fnv_le(r->chosen_digest, u, 8);
        r->chosen_seconds += seconds[i] > 0 ? seconds[i] : 0;
        r->unestimated += seconds[i] < 0;
        if (c->o->on_chosen)
            c->o->on_chosen(c->o->ctx, u, c->part_of[i] + 1, seconds[i]);
        if (!mine)
            continue;
        r->share++;
        r->share_seconds += seconds[i] > 0 ? seconds[i] : 0;
        r->share_unestimated += seconds[i] < 0;
        if (bit(c->drawn, u))
            r->share_sampled++;
        else if (bit(c->picked, u))
            r->share_by_weight++;
        else if (c->fixed_points && nq_plan_unit_forced(c->plan, u))
            r->share_fixed_points++;
        else
            r->share_by_size++;
    }
}

/* The chosen units dealt to the parts and told. */
static nq_status deal(chosen *c)
{
    double *seconds = malloc((c->count + 1) * sizeof *seconds);
    uint64_t *weight = malloc((c->count + 1) * sizeof *weight);
    nq_status st = seconds && weight ? NQ_OK : NQ_ERR_NOMEM;
    for (uint64_t i = 0; st == NQ_OK && i < c->count; i++) {
        seconds[i] = nq_plan_unit_seconds(c->plan, c->ids[i]);
        weight[i] = nanos(seconds[i]);
    }
    if (st == NQ_OK && (st = deal_by_size(c, weight)) == NQ_OK)
        tell_chosen(c, seconds);
    free(seconds), free(weight);
    return st;
}

/* ---- the engine that recounts ---- */

/* The first engine of this release that counts `split` on the CPU. */
static const nq_engine *cpu_engine(const char *split)
{
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        if (nq_engine_splits(e, split) && !(e->caps & NQ_CAP_GPU))
            return e;
    }
    return NULL;
}

/* The engine the options ask for, or the CPU engine; NULL (said) if the
 * one named does not count the journals' plan. */
static const nq_engine *recounter(const chosen *c, char *why, size_t wsize)
{
    const char *split = nq_plan_split(c->plan), *name = c->o->engine;
    const nq_engine *e = name ? nq_engine_find(name) : cpu_engine(split);
    if (e && nq_engine_splits(e, split) && c->plan->n <= e->max_n)
        return e;
    nq_jf_why(why, wsize, "engine '%s' does not count plan %s N=%d, the "
              "journals' units", name ? name : "(none)", split, c->plan->n);
    return NULL;
}

/* The journals' plan for engine e: the one made to check them, or the
 * same split made for e (engines that share a split share its units). */
static nq_status plan_for(const chosen *c, const nq_engine *e, nq_plan **p)
{
    nq_request req = {.size = sizeof req, .n = c->plan->n,
                      .stop = c->o->stop,
                      .max_unit_seconds = nq_split_max_unit_seconds(c->plan->split)};
    if (e == c->plan->engine) {
        *p = NULL;
        return NQ_OK;
    }
    return nq_plan_new(e, &req, p);
}

/* The units ro names run by the caller's runner (an MPI job's ranks),
 * its words on a failure kept for the caller, or on this process's
 * threads. */
static nq_status run_units(chosen *c, const nq_plan *p,
                           const nq_run_options *ro, nq_tally *sum)
{
    if (!c->runner)
        return nq_plan_run(p, ro, sum);
    nq_run_report rr = NQ_RUN_REPORT_INIT;
    nq_status st = c->runner->run(c->runner->ctx, p, ro, NULL, sum, &rr);
    if (st != NQ_OK && rr.why[0])
        snprintf(c->why, sizeof c->why, "%s", rr.why);
    return st;
}

/* The chosen units not yet compared, counted again on engine e. */
static nq_status recount_on(chosen *c, const nq_engine *e)
{
    nq_plan *own = NULL;
    uint64_t *ids = malloc((c->count ? c->count : 1) * sizeof *ids), k = 0;
    nq_status st = ids ? plan_for(c, e, &own) : NQ_ERR_NOMEM;
    for (uint64_t i = 0; ids && i < c->count; i++)
        if (!c->compared[i] && c->part_of[i] == c->r->part - 1)
            ids[k++] = c->ids[i];
    nq_run_options ro = {.threads = c->o->threads, .ids = ids, .count = k,
                         .stop = c->o->stop, .on_unit = compare, .ctx = c,
                         .progress = c->o->progress,
                         .progress_ctx = c->o->progress_ctx,
                         .why = c->why, .why_size = sizeof c->why};
    nq_tally sum = {0};
    snprintf(c->r->engine, sizeof c->r->engine, "%s", e->name);
    if (st == NQ_OK && k)
        st = run_units(c, own ? own : c->plan, &ro, &sum);
    nq_plan_free(own);
    free(ids);
    return st;
}

/* The chosen units counted again; a GPU engine that fails leaves the
 * rest to the CPU engine. */
static nq_status recount(chosen *c, char *why, size_t wsize)
{
    const nq_engine *e = recounter(c, why, wsize), *cpu;
    if (!e)
        return NQ_ERR_ARG;
    nq_status st = recount_on(c, e);
    if (st == NQ_ERR_DEVICE && (e->caps & NQ_CAP_GPU) &&
        (cpu = cpu_engine(nq_plan_split(c->plan)))) {
        c->r->fell_back = 1;
        if (c->o->on_fallback)
            c->o->on_fallback(c->o->ctx, e->name, cpu->name, c->why);
        c->why[0] = '\0';
        st = recount_on(c, cpu);
    }
    if (st != NQ_OK && st != NQ_ERR_STOPPED && c->why[0])
        nq_jf_why(why, wsize, "%s", c->why); /* a runner's, or a GPU's */
    return st;
}

/* ---- choosing ---- */

/* The records of the chosen units, read again from every journal, and
 * those that stand out by size. */
static nq_status collect(chosen *c, const char *const *paths, int count,
                         char *why, size_t wsize)
{
    nq_jf_reader rd = {same_header, take, c, c->o->stop, take_run};
    nq_status st = NQ_OK;
    for (int i = 0; i < count && st == NQ_OK; i++) {
        nq_jf_result res;
        st = nq_run_read_journal(paths[i], &rd, &res, why, wsize);
    }
    if (st == NQ_OK && c->read_again != c->r->recorded) /* units gone */
        st = changed(count == 1 ? paths[0] : "a journal", why, wsize);
    if (st == NQ_OK)
        st = keep_greatest(c);
    if (st == NQ_OK)
        st = keep_weighted(c);
    if (st == NQ_OK)
        st = keep_run_samples(c);
    if (st == NQ_OK && c->weighed_cap != UINT64_MAX)
        nq_strata_weigh(c->weighed_list, c->weighed_count, c->r);
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

/* The bit sets and heaps of a choice over `units`. */
static nq_status make_chosen(chosen *c, uint64_t units)
{
    /* no more standouts than units: `largest` may be any number (at
     * UINT64_MAX, want + 1 wrapped to a heap of none) */
    uint64_t bytes = units / 8 + 1, want = c->o->largest;
    uint64_t weighted = c->o->weighted; /* keys kept: twice the draw and
                                           16 (see keep_drawn); at most
                                           every unit */
    want = want < units ? want : units;
    weighted = weighted < units / 2 ? 2 * weighted + 16 : units;
    weighted = weighted < units ? weighted : units;
    if (!(c->drawn = calloc(bytes, 1)) || !(c->kept = calloc(bytes, 1)) ||
        !(c->picked = calloc(bytes, 1)) ||
        !(c->weighed = calloc(bytes, 1)) || !(c->again = calloc(bytes, 1)) ||
        !(c->totals.at = calloc(want + 1, sizeof *c->totals.at)) ||
        !(c->ratios.at = calloc(want + 1, sizeof *c->ratios.at)) ||
        !(c->lows.at = calloc(want + 1, sizeof *c->lows.at)) ||
        !(c->claims.at = calloc(weighted + 1, sizeof *c->claims.at)) ||
        !(c->work.at = calloc(weighted + 1, sizeof *c->work.at)) ||
        nq_runs_init(&c->runs, units, c->r->seed) != NQ_OK)
        return NQ_ERR_NOMEM;
    c->totals.want = c->ratios.want = c->lows.want = want;
    c->ratios.by = BY_RATIO, c->lows.by = BY_LOW;
    c->claims.want = c->work.want = c->o->weighted ? weighted : 0;
    c->claims.by = c->work.by = BY_RATIO;
    return NQ_OK;
}

static nq_status verify_chosen(chosen *c, const char *const *paths,
                               int count, const nq_journal_header *h,
                               const unsigned char *done, char *why,
                               size_t wsize)
{
    if (make_chosen(c, h->units) != NQ_OK)
        return NQ_ERR_NOMEM;
    draw(c, done, h->units, c->r->recorded,
         sample_size(c->o, c->r->recorded), c->r->seed);
    nq_status st = collect(c, paths, count, why, wsize);
    c->r->fixed_points = c->fixed;
    if (st == NQ_OK)
        st = deal(c);
    if (st != NQ_OK || c->o->estimate_only)
        return st;
    if ((st = recount(c, why, wsize)) != NQ_OK)
        return st;
    nq_runs_told(&c->runs, c->o, c->r);
    if (!c->o->verdict)
        return st;
    nq_verdict v = {h, c->r, c->ids, c->compared, c->part_of, c->count};
    return nq_verdict_write(c->o->verdict, &v, c->o, why, wsize);
}

static void free_chosen(chosen *c)
{
    free(c->drawn), free(c->kept), free(c->weighed), free(c->compared);
    free(c->picked);
    free(c->part_of);
    free(c->again);
    free(c->ids), free(c->records), free(c->totals.at), free(c->ratios.at);
    free(c->lows.at), free(c->weighed_list);
    free(c->claims.at), free(c->work.at);
    nq_runs_free(&c->runs);
}

/* The checks of what the public call is handed. */
static nq_status verify_args(const nq_verify_options *o,
                             const nq_journal_header *header,
                             const nq_verify_report *r, char *why,
                             size_t wsize)
{
    if (!header || !r) {
        nq_jf_why(why, wsize, "nowhere to put the verdict (a NULL header "
                  "or report)");
        return NQ_ERR_ARG;
    }
    if (!o || !(o->percent >= 0 && o->percent <= 100)) {
        nq_jf_why(why, wsize, "no options, or a sample that is no "
                  "percentage from 0 to 100");
        return NQ_ERR_ARG;
    }
    /* a check that recounts nothing would say OK of any journal */
    if (!o->percent && !o->at_least && !o->largest && !o->fixed_points &&
        !o->weighted) {
        nq_jf_why(why, wsize, "options that choose no unit to recount "
                  "(0%%, none at least, none by size, no fixed points, "
                  "none weighted)");
        return NQ_ERR_ARG;
    }
    if (o->threads < 0) {
        nq_jf_why(why, wsize, "threads %d: 0 (one per core) or more",
                  o->threads);
        return NQ_ERR_ARG;
    }
    if (o->parts > NQ_VERIFY_MAX_PARTS || (o->parts ? o->part < 1 ||
                                           o->part > o->parts : o->part)) {
        nq_jf_why(why, wsize, "part %u/%u: a part is 1 to M, M at most %u",
                  o->part, o->parts, NQ_VERIFY_MAX_PARTS);
        return NQ_ERR_ARG;
    }
    if (o->parts && !o->seed) {
        nq_jf_why(why, wsize, "verifying in parts needs a seed: a seed drawn "
                  "by each part would give each part another sample");
        return NQ_ERR_ARG;
    }
    return NQ_OK;
}

nq_status nq_journal_verify(const char *const *paths, int count,
                            const nq_verify_options *o,
                            nq_journal_header *header, nq_verify_report *r,
                            nq_journal_state *state, unsigned char **done,
                            nq_counts *counts, char *why, size_t wsize)
{
    nq_verified v = {header, r, state, done, counts};
    return nq_verify_with(paths, count, o, NULL, &v, why, wsize);
}

nq_status nq_verify_with(const char *const *paths, int count,
                         const nq_verify_options *o, const nq_runner *rn,
                         const nq_verified *v, char *why, size_t wsize)
{
    nq_journal_header *header = v->header;
    nq_verify_report *r = v->r;
    nq_journal_state own_state;
    nq_record_set set = {0};
    unsigned char *own_done = NULL, **d = v->done ? v->done : &own_done;
    nq_plan *plan = NULL;
    double t0 = nq_clock_seconds();
    nq_status st = verify_args(o, header, r, why, wsize);
    if (st != NQ_OK)
        return st;
    memset(r, 0, sizeof *r);
    nq_merged m = {header, v->state ? v->state : &own_state, d, v->counts,
                   &plan, &set, NULL};
    if ((st = nq_run_merge(paths, count, o->stop, &m, why, wsize)) != NQ_OK)
        return st;
    uint64_t key[2];
    nq_journal_new_key(key); /* a seed no journal's writer could know */
    r->units = header->units, r->recorded = m.state->units_done;
    r->seed = o->seed ? o->seed : (key[0] >> 11) | 1; /* exact in JSON */
    r->part = o->parts ? o->part : 1, r->parts = o->parts ? o->parts : 1;
    chosen c = {.fixed_points = o->fixed_points, .plan = plan,
                .first = &set, .o = o, .r = r, .runner = rn};
    st = verify_chosen(&c, paths, count, header, *d, why, wsize);
    if (st != NQ_OK || !v->done) {
        free(*d);
        *d = NULL;
    }
    free_chosen(&c);
    nq_record_set_free(&set);
    nq_plan_free(plan);
    r->seconds = nq_clock_seconds() - t0;
    return st;
}

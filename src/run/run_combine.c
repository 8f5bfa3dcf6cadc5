/*
 * run_combine.c - the verdicts of a check run in parts put together with
 * the journals it checked (merge --verified).
 *
 * Putting them together trusts no part's word on what the choice was:
 * the choice is made again from the journals and the seed, and every
 * part must have recounted exactly its share of it.  Nor on the journal
 * as a whole: making the choice again weighs the journals' strata
 * (run_strata.c), and a stratum past its bound refuses them, as plain
 * verify does, whatever the parts recounted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* The verdicts agree on what was checked, and one of each part is
 * there: by_part[k] is part k+1's verdict. */
static nq_status same_check(const nq_part_verdict *v, int nv, int *by_part,
                            char *why, size_t wsize)
{
    const nq_part_verdict *a = &v[0];
    for (int i = 1; i < nv; i++) {
        const nq_part_verdict *b = &v[i];
        const char *what = b->seed != a->seed ? "seed"
            : b->parts != a->parts ? "number of parts"
            : b->identity != a->identity || b->n != a->n ||
              strcmp(b->plan, a->plan) ? "count"
            : b->records != a->records ? "journals (their records' digest)"
            : b->percent != a->percent || b->at_least != a->at_least ||
              b->largest != a->largest || b->fixed != a->fixed ||
              b->weighted != a->weighted ? "sample"
            : b->digest != a->digest || b->chosen != a->chosen
            ? "chosen units" : NULL;
        if (what) {
            nq_jf_why(why, wsize, "%s and %s are not parts of one check: "
                      "another %s", a->path, b->path, what);
            return NQ_ERR_MISMATCH;
        }
    }
    for (uint32_t k = 0; k < a->parts; k++)
        by_part[k] = -1;
    for (int i = 0; i < nv; i++) {
        int *at = &by_part[v[i].part - 1];
        if (*at >= 0) {
            nq_jf_why(why, wsize, "%s and %s are both part %u/%u",
                      v[*at].path, v[i].path, v[i].part, v[i].parts);
            return NQ_ERR_MISMATCH;
        }
        *at = i;
    }
    return NQ_OK;
}

/* Each part missing, named (a few, then how many). */
static nq_status parts_present(const nq_part_verdict *v, const int *by_part,
                               char *why, size_t wsize)
{
    uint32_t missing = 0, first = 0;
    for (uint32_t k = 0; k < v->parts; k++)
        if (by_part[k] < 0 && !missing++)
            first = k + 1;
    if (!missing)
        return NQ_OK;
    nq_jf_why(why, wsize, "the check is incomplete: no verdict given of %u "
              "of its %u parts (the first: part %u/%u)", missing, v->parts,
              first, v->parts);
    return NQ_ERR_MISMATCH;
}

/* Walking the choice made again against the parts' lists. */
typedef struct {
    nq_part_verdict *v;
    const int *by_part;
    char *why;
    size_t wsize;
    nq_status st;
} coverage;

static void covered(void *ctx, uint64_t unit, uint32_t part, double seconds)
{
    coverage *c = ctx;
    nq_part_verdict *p = &c->v[c->by_part[part - 1]];
    (void)seconds;
    if (c->st != NQ_OK)
        return;
    if (p->cursor < p->count && p->ids[p->cursor] == unit) {
        p->cursor++;
        return;
    }
    c->st = NQ_ERR_MISMATCH;
    if (p->cursor < p->count && p->ids[p->cursor] < unit)
        nq_jf_why(c->why, c->wsize, "%s (part %u/%u) recounted unit %" PRIu64
                  ", which is not in its share", p->path, p->part, p->parts,
                  p->ids[p->cursor]);
    else
        nq_jf_why(c->why, c->wsize, "%s (part %u/%u) did not recount unit %"
                  PRIu64 " of its share", p->path, p->part, p->parts, unit);
}

/* What the choice made again says of the verdicts: the same journals,
 * the same choice, every unit of it recounted once by its part. */
static nq_status check_cover(coverage *c, int nv, const nq_verify_report *r,
                             const nq_journal_header *h)
{
    const nq_part_verdict *a = c->v;
    if (h->identity != a->identity || h->n != a->n) {
        nq_jf_why(c->why, c->wsize, "%s checked N=%d plan %s, the journals "
                  "are of N=%d plan %s", a->path, a->n, a->plan, h->n,
                  h->plan);
        return NQ_ERR_MISMATCH;
    }
    if (r->records_digest != a->records || r->chosen_digest != a->digest) {
        nq_jf_why(c->why, c->wsize, "%s checked other journals: the %s "
                  "digest %016" PRIx64 " is not these journals' %016" PRIx64,
                  a->path, r->records_digest != a->records ? "records'" :
                  "chosen units'", r->records_digest != a->records ?
                  a->records : a->digest, r->records_digest != a->records ?
                  r->records_digest : r->chosen_digest);
        return NQ_ERR_MISMATCH;
    }
    for (int i = 0; i < nv && c->st == NQ_OK; i++)
        if (c->v[i].cursor < c->v[i].count)
            covered(c, UINT64_MAX, c->v[i].part, 0);
    return c->st;
}

/* Every recount agreed, or the units that did not, named. */
static nq_status all_agree(const nq_part_verdict *v, int nv, char *why,
                           size_t wsize)
{
    uint64_t bad = 0;
    size_t at = 0;
    char list[512] = "";
    for (int i = 0; i < nv; i++)
        for (uint64_t k = 0; k < v[i].count; k++)
            if (v[i].bad[k] && bad++ < 8 && at < sizeof list)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%"
                                       PRIu64 " (part %u/%u)", bad > 1 ? ", "
                                       : "", v[i].ids[k], v[i].part,
                                       v[i].parts);
    if (!bad)
        return NQ_OK;
    nq_jf_why(why, wsize, "the check is complete and %" PRIu64 " recounted "
              "units disagree with their records: %s%s", bad, list,
              bad > 8 ? ", ..." : "");
    return NQ_ERR_MISMATCH;
}

/* The journals' strata within their bounds, or the one that strays
 * furthest, said: records lowered (or raised) a little in many units,
 * which a recount of a sample may miss, refuse the journals as they
 * refuse plain verify, whatever the parts recounted (NQ_ERR_MISMATCH,
 * as a recount that disagrees; those are counted in the same line). */
static nq_status strata_agree(const nq_verify_report *r, char *why,
                              size_t wsize)
{
    if (!r->strata_off)
        return NQ_OK;
    double off = r->stratum_off < 0 ? -r->stratum_off : r->stratum_off;
    char also[96] = "";
    if (r->disagree)
        snprintf(also, sizeof also, "; and %" PRIu64 " recounted units "
                 "disagree with their records", r->disagree);
    nq_jf_why(why, wsize, "the journals' stratum %u of %u (%" PRIu64 " units "
              "estimated at %.4g to %.4g nodes) strays: its totals over its "
              "estimates are %.1f%% %s the rest's, past its bound of %.1f%% "
              "(%.0f%% + %.0f%% / sqrt(units)); %u of the %u strata stray "
              "(records lowered or raised), whatever the parts recounted%s",
              r->stratum, r->strata, r->stratum_units, r->stratum_least,
              r->stratum_most, 100 * off, r->stratum_off < 0 ? "below" :
              "above", 100 * r->stratum_bound, 100 * NQ_STRATUM_SLACK,
              100 * NQ_STRATUM_NOISE, r->strata_off, r->strata, also);
    return NQ_ERR_MISMATCH;
}

/* The options the verdicts were drawn with, to draw again. */
static nq_verify_options redraw(const nq_verify_options *o,
                                const nq_part_verdict *a, coverage *c)
{
    nq_verify_options w = {.percent = a->percent, .at_least = a->at_least,
                           .largest = a->largest, .fixed_points = a->fixed,
                           .weighted = a->weighted,
                           .seed = a->seed, .part = 1, .parts = a->parts,
                           .estimate_only = 1, .on_chosen = covered,
                           .ctx = c, .stop = o->stop,
                           .progress = o->progress,
                           .progress_ctx = o->progress_ctx};
    return w;
}

static nq_status combine(const char *const *journals, int count,
                         nq_part_verdict *v, int nv, const nq_verify_options *o,
                         nq_merged *m, nq_verify_report *r, char *why,
                         size_t wsize)
{
    nq_status st = NQ_OK;
    for (int i = 0; i < nv && st == NQ_OK; i++)
        st = nq_verdict_read(&v[i], why, wsize);
    int *by_part = st == NQ_OK ? malloc(v[0].parts * sizeof *by_part) : NULL;
    if (st == NQ_OK && !by_part)
        st = NQ_ERR_NOMEM;
    if (st == NQ_OK && (st = same_check(v, nv, by_part, why, wsize)) == NQ_OK)
        st = parts_present(v, by_part, why, wsize);
    coverage c = {v, by_part, why, wsize, NQ_OK};
    nq_verify_options w = redraw(o, &v[0], &c);
    if (st == NQ_OK)
        st = nq_journal_verify(journals, count, &w, m->header, r, m->state,
                               m->done, m->counts, why, wsize);
    if (st == NQ_OK)
        st = check_cover(&c, nv, r, m->header);
    for (int i = 0; i < nv && st == NQ_OK; i++)
        r->checked += v[i].count, r->disagree += v[i].disagree;
    if (st == NQ_OK)
        st = strata_agree(r, why, wsize);
    if (st == NQ_OK)
        st = all_agree(v, nv, why, wsize);
    free(by_part);
    return st;
}

nq_status nq_journal_verify_combine(const char *const *journals, int count,
                                    const char *const *verdicts,
                                    int nverdicts,
                                    const nq_verify_options *o,
                                    nq_journal_header *header,
                                    nq_verify_report *r,
                                    nq_journal_state *state,
                                    unsigned char **done, nq_counts *counts,
                                    char *why, size_t wsize)
{
    if (!verdicts || nverdicts < 1 || !o || !header || !r) {
        nq_jf_why(why, wsize, "no verdicts, options, header or report");
        return NQ_ERR_ARG;
    }
    for (int i = 0; i < nverdicts; i++)
        if (!verdicts[i]) { /* as merge says of a NULL journal: no file */
            nq_jf_why(why, wsize, "verdict %d of %d: no path (NULL)", i + 1,
                      nverdicts);
            return NQ_ERR_ARG;
        }
    nq_part_verdict *v = calloc((size_t)nverdicts, sizeof *v);
    if (!v)
        return NQ_ERR_NOMEM;
    for (int i = 0; i < nverdicts; i++)
        v[i].path = verdicts[i];
    nq_merged m = {header, state, done, counts, NULL, NULL, NULL};
    nq_status st = combine(journals, count, v, nverdicts, o, &m, r, why,
                           wsize);
    for (int i = 0; i < nverdicts; i++)
        free(v[i].ids), free(v[i].bad);
    free(v);
    return st;
}

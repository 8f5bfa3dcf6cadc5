/*
 * run_strata.c - the journal as a whole weighed against the plan's
 * estimate: a verify that recounts a sample cannot see a total lowered
 * a little in many records, nor one lowered a lot in a few that the
 * draw happens to miss.  The plan estimates every unit's search
 * (Knuth's estimator, fixed paths); solutions per estimated node differ
 * by N, but hardly between units of one journal.  So the records are
 * sorted by their unit's estimate into strata of equal counts, and each
 * stratum's total over its estimate is compared with the rest's: a
 * stratum whose records were lowered (or raised) falls (or rises) off
 * the rest.  Comparing with the rest, not with a number for N, needs no
 * table of N; a journal lowered evenly throughout changes most of its
 * records, which the random sample finds.
 *
 * The bound is calibrated on genuine journals (bench/RESULTS.md,
 * "Verify's strata"): the estimator's error shrinks with the units
 * summed, and what remains is how solutions per node drift with a
 * unit's size (up to 14% between strata at N = 18 cut into pieces).
 */
#include <math.h>
#include <stdlib.h>

#include "run.h"

/* Strata: as many as hold NQ_STRATUM_LEAST records each, at most
 * NQ_STRATA: fewer records, fewer and wider strata. */
#define NQ_STRATA 8
#define NQ_STRATUM_LEAST 64

static int by_estimate(const void *a, const void *b)
{
    const nq_weighed *x = a, *y = b;
    if (x->estimate != y->estimate)
        return (x->estimate > y->estimate) - (x->estimate < y->estimate);
    return (x->unit > y->unit) - (x->unit < y->unit);
}

/* The square root of x >= 1 by Newton's steps: the library links no
 * libm, and the bound needs no last bit. */
static double root(double x)
{
    double y = x;
    for (int i = 0; i < 64 && y * y - x > 1e-9 * x; i++)
        y = (y + x / y) / 2;
    return y;
}

double nq_stratum_bound(uint64_t units)
{
    return NQ_STRATUM_SLACK + NQ_STRATUM_NOISE / root(units ? (double)units
                                                            : 1);
}

/* Stratum s of k over m records: [from, to). */
static void stratum_span(uint64_t m, uint32_t k, uint32_t s, uint64_t *from,
                         uint64_t *to)
{
    *from = m * s / k, *to = m * (s + 1) / k;
}

/* Each stratum's ratio against the rest's; the one furthest past its
 * bound (or, with none past, the nearest to it) into r. */
void nq_strata_weigh(nq_weighed *w, uint64_t m, nq_verify_report *r)
{
    uint64_t k64 = m / NQ_STRATUM_LEAST;
    uint32_t k = k64 > NQ_STRATA ? NQ_STRATA : (uint32_t)k64;
    double total = 0, est = 0, worst = -INFINITY;
    r->strata = k < 2 ? 0 : k;
    if (k < 2)          /* too few records to compare strata */
        return;
    qsort(w, m, sizeof *w, by_estimate);
    for (uint64_t i = 0; i < m; i++)
        total += w[i].total, est += w[i].estimate;
    for (uint32_t s = 0; s < k; s++) {
        uint64_t from, to;
        double t = 0, e = 0;
        stratum_span(m, k, s, &from, &to);
        for (uint64_t i = from; i < to; i++)
            t += w[i].total, e += w[i].estimate;
        double rest = (total - t) / (est - e);
        double off = rest > 0 && e > 0 ? t / e / rest - 1 : 0;
        double bound = nq_stratum_bound(to - from);
        r->strata_off += fabs(off) > bound;
        if (fabs(off) - bound > worst) {
            worst = fabs(off) - bound;
            r->stratum = s + 1, r->stratum_units = to - from;
            r->stratum_least = w[from].estimate;
            r->stratum_most = w[to - 1].estimate;
            r->stratum_off = off, r->stratum_bound = bound;
        }
    }
}

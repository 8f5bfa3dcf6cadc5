/*
 * bench_subunits.c - `make bench-subunits`: how even the GPU's sub-units
 * are.  A warp waits for its slowest thread, so what matters is the
 * spread of the sub-units' costs, not their sum.
 *
 *   nq-bench-subunits N [DEPTH...]     (default: N = 18, depths 1 2)
 *
 * For each depth, fixed and evened out (heavy sub-units cut deeper,
 * subunits.c), every sub-unit of the fast plan is counted on this CPU with
 * the GPU kernel's own per-thread body, and its search nodes taken as its
 * cost; one Markdown row each: count, mean, median, 99.9th percentile,
 * largest, largest over mean, and the seconds spent evening out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nqueens.h"
#include "../src/fast/subunits.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Each sub-unit's nodes (one more for the sub-unit itself), sorted. */
static double *costs(const nq_batch *b)
{
    uint32_t stack[NQ_MAX_N];
    double *c = malloc((b->subs ? b->subs : 1) * sizeof *c);
    for (uint64_t q = 0; c && q < b->subs; q++) {
        uint64_t count, placed = 0;
        nq_subunit_thread(b->job, b->sub, q, stack, 1, NULL, &count,
                          &placed);
        c[q] = (double)placed + 1;
    }
    if (c)
        qsort(c, b->subs, sizeof *c, by_value);
    return c;
}

static void row(const nq_plan *p, const uint64_t *ids, int depth, int even)
{
    nq_batch b;
    double sum = 0;
    int built = nq_batch_build(p, ids, nq_plan_units(p), depth, &b) == NQ_OK;
    double t0 = nq_clock_seconds();
    if (!built || (even && nq_batch_even_out(&b) != NQ_OK)) {
        fprintf(stderr, "nq-bench-subunits: out of memory\n");
        exit(1);
    }
    double evening = even ? nq_clock_seconds() - t0 : 0;
    double *c = costs(&b);
    if (!c || !b.subs) {
        fprintf(stderr, "nq-bench-subunits: no sub-units\n");
        exit(1);
    }
    for (uint64_t q = 0; q < b.subs; q++)
        sum += c[q];
    double mean = sum / (double)b.subs;
    printf("| %d row%s%s | %llu | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n",
           depth, depth == 1 ? "" : "s", even ? ", evened" : "",
           (unsigned long long)b.subs, mean, c[b.subs / 2],
           c[b.subs * 999 / 1000], c[b.subs - 1], c[b.subs - 1] / mean,
           evening);
    free(c);
    nq_batch_free(&b);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 18;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_plan *p;
    if (n < 8 || n > 22 || nq_plan_create(&req, &p) != NQ_OK) {
        fprintf(stderr, "usage: nq-bench-subunits N [DEPTH...] (8 <= N <= 22)\n");
        return 2;
    }
    uint64_t units = nq_plan_units(p), *ids = malloc(units * sizeof *ids);
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    printf("N=%d, %llu units of the fast plan; cost = search nodes\n\n"
           "| cut | sub-units | mean | median | 99.9th pct | largest | "
           "largest / mean | evening out (s) |\n"
           "|---|---|---|---|---|---|---|---|\n", n, (unsigned long long)units);
    int depths[8] = {1, 2}, k = argc > 2 ? 0 : 2;
    for (int i = 2; i < argc && k < 8; i++)
        depths[k++] = atoi(argv[i]);
    for (int i = 0; i < k; i++) {
        row(p, ids, depths[i], 0);
        row(p, ids, depths[i], 1);
    }
    free(ids);
    nq_plan_free(p);
    return 0;
}

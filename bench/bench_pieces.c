/*
 * bench_pieces.c - `make bench-pieces`: the reference core's rate, and
 * what the cut of fast's units into pieces gives for big boards.
 *
 *   nq-bench-pieces rate N [STEP]           every STEP-th ring unit of N
 *       counted on one thread and its estimate made: nanoseconds per
 *       estimated node (NQ_REF_SECONDS_PER_NODE is this, measured once)
 *   nq-bench-pieces cut N [SECONDS] [THREADS]
 *       N's plan whole and cut at SECONDS (default: the default bound):
 *       units, the largest, pieces, the largest piece, the reference
 *       core-hours of all, and the time the cut took on THREADS
 *
 * The estimate is Knuth's (64 random paths); a unit's time is this
 * machine's, on the default kernel.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nqueens.h"
#include "../src/engines/engine.h"

static nq_status plan(int n, double bound, int threads, nq_plan **p)
{
    nq_request req = NQ_REQUEST_INIT;
    req.n = n, req.engine = "fast", req.threads = threads;
    req.max_unit_seconds = bound;
    return nq_plan_create(&req, p);
}

static int rate(int n, uint64_t step)
{
    nq_plan *p;
    double nodes = 0, seconds = 0;
    uint64_t k = 0;
    if (plan(n, -1, 1, &p) != NQ_OK)
        return 1;
    for (uint64_t i = 2; i < nq_plan_units(p); i += step, k++) {
        nq_tally t;
        nodes += nq_plan_unit_seconds(p, i) / NQ_REF_SECONDS_PER_NODE;
        double t0 = nq_clock_seconds();
        if (nq_plan_run_unit(p, i, &t) != NQ_OK)
            return 1;
        seconds += nq_clock_seconds() - t0;
    }
    printf("N=%d units=%llu timed=%llu seconds=%.2f ns_per_node=%.3f\n", n,
           (unsigned long long)nq_plan_units(p), (unsigned long long)k,
           seconds, 1e9 * seconds / nodes);
    nq_plan_free(p);
    return 0;
}

/* The largest estimate among a plan's units, and their sum. */
static double largest(const nq_plan *p, double *sum)
{
    double most = 0;
    *sum = 0;
    for (uint64_t i = 0; i < nq_plan_units(p); i++) {
        double s = nq_plan_unit_seconds(p, i);
        most = s > most ? s : most;
        *sum += s > 0 ? s : 0;
    }
    return most;
}

static int cut(int n, double bound, int threads)
{
    nq_plan *whole, *cut;
    double sum, sum_cut;
    if (plan(n, -1, threads, &whole) != NQ_OK)
        return 1;
    double t0 = nq_clock_seconds();
    if (plan(n, bound, threads, &cut) != NQ_OK)
        return 1;
    double took = nq_clock_seconds() - t0;
    double big = largest(whole, &sum), big_piece = largest(cut, &sum_cut);
    printf("N=%d units=%llu largest_unit=%.0fs pieces=%llu "
           "largest_piece=%.0fs core_hours=%.4g plan=%s cut_seconds=%.1f "
           "threads=%d\n", n, (unsigned long long)nq_plan_units(whole), big,
           (unsigned long long)nq_plan_units(cut), big_piece, sum_cut / 3600,
           nq_plan_split(cut), took, threads);
    nq_plan_free(whole);
    nq_plan_free(cut);
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (argc > 2 && argv[1][0] == 'r' && n >= 4 && n <= 32)
        return rate(n, argc > 3 ? strtoull(argv[3], NULL, 10) : 1);
    if (argc > 2 && argv[1][0] == 'c' && n >= 4 && n <= 32)
        return cut(n, argc > 3 ? atof(argv[3]) : 0,
                   argc > 4 ? atoi(argv[4]) : 0);
    fprintf(stderr, "usage: nq-bench-pieces rate N [STEP] | cut N [SECONDS "
                    "[THREADS]]\n");
    return 2;
}

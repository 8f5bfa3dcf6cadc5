/*
 * bench.c - `make bench`: every engine on growing boards, one table.
 *
 * Each engine runs N = 4, 5, ... until the next size is predicted (from the
 * growth of the last two) to take more than the budget, so slow engines
 * stop early and fast ones go far.  Nodes per second is the figure that
 * compares engines doing different amounts of work per node.
 *
 *   nq-bench [--budget SECONDS] [--iterative] [--engine NAME]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens.h"

static void bench_engine(const nq_engine *e, int iterative, double budget)
{
    double last = 0, before = 0;
    for (int n = 4; n <= nq_engine_max_n(e); n++) {
        nq_request req = {.size = sizeof req, .n = n,
                          .engine = nq_engine_name(e),
                          .iterative = iterative};
        nq_counts c;
        double growth = before > 1e-3 ? last / before : 10.0;
        if (last * (growth > 4 ? growth : 4) > budget)
            break;
        double t0 = nq_clock_seconds();
        if (nq_count_solutions(&req, &c) != NQ_OK)
            break;
        double t = nq_clock_seconds() - t0;
        char total[NQ_U128_DIGITS], nodes[NQ_U128_DIGITS];
        printf("%-10s %3d %16s %16s %10.3f %14.0f\n", nq_engine_name(e), n,
               nq_format_u128(c.total, total), nq_format_u128(c.nodes, nodes),
               t, t > 0 ? (double)c.nodes / t : 0.0);
        fflush(stdout);
        before = last, last = t;
    }
}

int main(int argc, char **argv)
{
    double budget = 3.0;
    int iterative = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc)
            budget = atof(argv[++i]);
        else if (strcmp(argv[i], "--iterative") == 0)
            iterative = 1;
        else if (strcmp(argv[i], "--engine") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: nq-bench [--budget S] [--iterative] "
                    "[--engine NAME]\n");
            return 2;
        }
    }
    printf("%-10s %3s %16s %16s %10s %14s\n", "engine", "N", "total", "nodes",
           "seconds", "nodes/s");
    for (int i = 0; i < nq_engine_count(); i++)
        if (!only || strcmp(only, nq_engine_name(nq_engine_at(i))) == 0)
            bench_engine(nq_engine_at(i), iterative, budget);
    return 0;
}

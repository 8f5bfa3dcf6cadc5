/*
 * estimate.c - how long a count would take on this machine, before it
 * runs: `compare` prints the estimates, `count` refuses what could not
 * finish in any reasonable time.
 *
 * The engine is timed at growing sizes until a run takes a noticeable
 * time; the node counts of the last sizes give the growth per size, which
 * carries the last time to the size asked for.  Node counts are exact, so
 * unlike times they extrapolate steadily.
 */
#include <stdio.h>

#include "cli.h"

void cli_growth_add(cli_growth *gr, double nodes)
{
    double g = gr->nodes[1] > 0 ? nodes / gr->nodes[1] : 0;
    if (gr->g > 0 && g > 0) {
        gr->gg = g / gr->g;
        gr->gg = gr->gg < 1 ? 1 : gr->gg > 1.3 ? 1.3 : gr->gg;
    }
    gr->g = g;
    gr->nodes[0] = gr->nodes[1], gr->nodes[1] = nodes;
}

double cli_grown(const cli_growth *gr, double x, int k)
{
    double g = gr->g;
    for (int i = 0; i < k; i++) {
        g *= gr->gg;
        x *= g;
    }
    return x;
}

/* The growth needs sizes with nodes enough to be steady: from 8 on. */
#define FIRST_STEADY 8

/* A run of `t` seconds at a size whose nodes grew `g` times over the size
 * before, carried to `k` sizes more at twice that growth, and as if it had
 * taken a millisecond at least (small runs are mostly noise): more than
 * any search here grows, so a count under it is surely under it. */
static double bound(double t, double g, int k)
{
    double x = t > 1e-3 ? t : 1e-3;
    for (int i = 0; i < k; i++)
        x *= 2 * g;
    return x;
}

double cli_estimate_seconds(const char *engine, const char *kernel, int n,
                            int threads, double enough,
                            volatile sig_atomic_t *stop)
{
    cli_growth gr = {{0, 0}, 0, 1};
    double t = 0;
    int m = 4;
    for (; m < n; m++) {
        nq_request req = {.size = sizeof req, .n = m, .engine = engine,
                          .threads = threads, .stop = stop, .kernel = kernel};
        nq_counts c;
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, &c);
        if (st != NQ_OK)
            return st == NQ_ERR_STOPPED ? -1 : 0;
        t = nq_clock_seconds() - t0;
        cli_growth_add(&gr, (double)c.nodes);
        if (m >= FIRST_STEADY && t > 0.05)
            break;
        double most = bound(t, gr.g, n - m);
        if (m >= FIRST_STEADY && gr.g > 0 && most <= enough)
            return most;
    }
    gr.gg = 1; /* the growth of the growth, measured on small boards, would
                  compound over many sizes into a gross overestimate; without
                  it the estimate is low (searches grow ever faster), which
                  is the side to err on before refusing a run */
    return m >= n ? t : cli_grown(&gr, t, n - m);
}

/* Random paths for a completion's estimate: a millisecond's work. */
#define PROBES 2000

/* Below this many nodes a count is seconds on any machine: not timed. */
#define QUICK_NODES 1e9

double cli_estimate_completion_seconds(int n, const int *given, int threads)
{
    double nodes, ref_nodes, t = 0;
    int empty[NQ_MAX_N];
    if (nq_estimate_completion_nodes(n, given, PROBES, &nodes) != NQ_OK ||
        nodes < QUICK_NODES)
        return 0;
    for (int r = 0; r < NQ_MAX_N; r++)
        empty[r] = -1;
    for (int m = FIRST_STEADY; m < n; m++) {
        nq_request req = {.size = sizeof req, .n = m, .threads = threads};
        nq_counts c;
        double t0 = nq_clock_seconds();
        if (nq_count_completions(&req, empty, &c) != NQ_OK ||
            nq_estimate_completion_nodes(m, empty, PROBES, &ref_nodes) != NQ_OK)
            return 0;
        if ((t = nq_clock_seconds() - t0) > 0.05)
            return nodes / ref_nodes * t;
    }
    return 0; /* a board this small is counted sooner than timed */
}

void cli_format_duration(double seconds, char *buf, size_t size)
{
    double year = 365.25 * 86400;
    if (seconds >= 1000 * year) {
        int e = 0;
        for (double y = seconds / year; y >= 10 && e < 999; y /= 10)
            e++;
        snprintf(buf, size, "10^%d years", e);
    }
    else if (seconds >= year)
        snprintf(buf, size, "%.0f years", seconds / year);
    else if (seconds >= 86400)
        snprintf(buf, size, "%.0f days", seconds / 86400);
    else if (seconds >= 3600)
        snprintf(buf, size, "%.0f hours", seconds / 3600);
    else
        snprintf(buf, size, "%.0f seconds", seconds);
}

/*
 * test_bench.c - the benchmark programs (bench/), run the way a reader runs
 * them: NQ_BENCH_DIR (the Makefile's build directory) holds nq-bench-fast
 * and nq-bench-order.  A mistyped option must not start a benchmark of
 * minutes, and bench-order's independent search is a check of the
 * kernels' own counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Runs prog with args; a failure unless it exits `code`. */
static void run_expect(t_proc *p, const char *prog, const char *const *args,
                       int code)
{
    CHECKF(t_run_signalled(p, prog, args, 0, 0) == 0, "could not run %s", prog);
    CHECKF(p->exit_code == code, "%s exited %d, not %d: %s%s", prog,
           p->exit_code, code, p->out ? p->out : "", p->err ? p->err : "");
}

/* bench-order on every unit of N = 12: its orders agree with the
 * kernels' totals and OEIS's, its board order makes exactly the scalar
 * kernel's nodes and its vector model the vector kernel's (where this CPU
 * has one: the exit status says so); the same nodes on a sample of
 * N = 18's units; a bad N is a usage error. */
static void order_agrees(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-bench-order");
    t_proc p;
    char want[64];
    if (!prog)
        return;
    run_expect(&p, prog, ARGS(prog, "12"), 0);
    snprintf(want, sizeof want, "solutions %llu",
             (unsigned long long)t_oeis_total(12));
    CHECKF(p.out && strstr(p.out, want) &&
               strstr(p.out, "board order's nodes equal the scalar kernel's") &&
               !strstr(p.out, "DIFFER"),
           "%s", p.out ? p.out : "");
    t_proc_free(&p);
    /* every 4000th unit of N = 18 (0.2 s): 16-column jobs, whose squares
     * reach a field's top bit, where the scalar kernel's row test takes
     * its wide form */
    run_expect(&p, prog, ARGS(prog, "18", "4000"), 0);
    CHECKF(p.out && strstr(p.out, "board order's nodes equal the scalar kernel's") &&
               !strstr(p.out, "DIFFER"),
           "%s", p.out ? p.out : "");
    t_proc_free(&p);
    run_expect(&p, prog, ARGS(prog, "3"), 2);
    CHECKF(p.err && strstr(p.err, "usage"), "%s", p.err ? p.err : "");
    t_proc_free(&p);
}

/* Each mistyped command line is refused at once, with the usage line and
 * nothing on stdout (the benchmark never started). */
static void fast_usage(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-bench-fast");
    static const char *const bad[][4] = {
        {"--from", NULL}, {"--from", "99"}, {"--threads", "two"},
        {"--to", ""}, {"--fast", "16"}, {"--from", "16", "--to"},
        {"--rounds", "0"}, {"--rounds", "100"}, {"--rounds", "1", "--engines", "fast"},
        {"--kernels", "nosuch"}, {"--kernels", "scalar,avx"},
        {"--engines", "fast", "--kernels", "scalar"},
    };
    if (!prog)
        return;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_proc p;
        const char *args[6] = {prog, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL};
        run_expect(&p, prog, args, 2);
        CHECKF(p.err && strstr(p.err, "usage: nq-bench-fast") && p.out_len == 0,
               "%s %s: %s%s", bad[i][0], bad[i][1] ? bad[i][1] : "",
               p.out ? p.out : "", p.err ? p.err : "");
        t_proc_free(&p);
    }
}

/* A small real run: the CPU line, and N = 8's total with the scalar
 * kernel on one thread. */
static void fast_runs(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-bench-fast");
    t_proc p;
    if (!prog)
        return;
    run_expect(&p, prog, ARGS(prog, "--from", "8", "--to", "8", "--kernels",
                              "scalar", "--threads", "1"), 0);
    unsigned long long total = 0;
    const char *row = p.out ? strstr(p.out, "\nfast ") : NULL;
    CHECKF(p.out && strstr(p.out, "cpu: ") && row &&
               sscanf(row, " fast scalar 8 1 %llu", &total) == 1 &&
               total == (unsigned long long)t_oeis_total(8),
           "%s", p.out ? p.out : "");
    t_proc_free(&p);
}

/* Rounds: every kernel this CPU runs at N = 8, twice each (an even
 * count, whose median is the mean of the middle two), taking turns.  A
 * row for each kernel the CPU line names, each total OEIS's, each ratio
 * to the fastest kernel within its range (a round's ratio may be below 1:
 * another kernel may win a round), and the fastest kernel's own ratio 1
 * in every round.  Which kernel is fastest, and by how much, is timing,
 * which tests do not judge. */
static void fast_rounds(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-bench-fast");
    t_proc p;
    if (!prog)
        return;
    run_expect(&p, prog, ARGS(prog, "--from", "8", "--to", "8", "--threads", "1",
                              "--rounds", "2"), 0);
    int rows = 0, fastest = 0, kernels = 0;
    const char *line = p.out ? strstr(p.out, "kernels this CPU runs:") : NULL;
    char names[256] = "";
    if (line)
        sscanf(line, "kernels this CPU runs:%255[^\n]", names);
    for (char *k = strtok(names, " "); k; k = strtok(NULL, " "))
        kernels++;
    for (const char *row = p.out; row && (row = strstr(row, "\nfast ")); row++) {
        char kernel[16];
        unsigned long long total = 0;
        double x, lo, hi;
        int n = sscanf(row, " fast %15s 8 1 %llu %*f %*f %*f %*f %*f %*f %lf (%lf-%lf)",
                       kernel, &total, &x, &lo, &hi);
        CHECKF(n == 5 && total == (unsigned long long)t_oeis_total(8) &&
                   lo <= x && x <= hi && lo > 0,
               "row %d: %.80s", rows, row + 1);
        rows++;
        fastest += n == 5 && x == 1.0 && hi == 1.0;
    }
    CHECKF(kernels >= 1 && rows == kernels && fastest >= 1,
           "%d kernels, %d rows, %d fastest: %s", kernels, rows, fastest,
           p.out ? p.out : "");
    t_proc_free(&p);
}

/* A peer timed beside a kernel, the way a reader times another counter:
 * here the CLI itself, counting N = 10 (its table holds 724).  Its row
 * and each kernel's ratio against it are printed; a peer that counts
 * another N, prints the total only inside another number, or fails, ends
 * the run with status 1 and a line on stderr saying so; a peer without
 * rounds, or over a range of N, is a usage error. */
static void fast_peer(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-bench-fast"), *cli = getenv("NQ_CLI");
    char good[600], wrong[600];
    t_proc p;
    if (!prog)
        return;
    snprintf(good, sizeof good, "%s count 10 -t 1 -q", cli ? cli : "build/nqueens");
    snprintf(wrong, sizeof wrong, "%s count 9 -t 1 -q", cli ? cli : "build/nqueens");
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "10", "--threads", "1",
                              "--kernels", "scalar", "--rounds", "3", "--peer", good), 0);
    double x, lo, hi;
    const char *row = p.out ? strstr(p.out, "\npeer      -") : NULL;
    const char *vs = p.out ? strstr(p.out, "\nscalar  against the peer: ") : NULL;
    CHECKF(row && strstr(row, " 724 ") && vs &&
               sscanf(vs, "\nscalar  against the peer: %lf (rounds %lf-%lf)", &x, &lo, &hi) == 3 &&
               lo <= x && x <= hi && lo > 0,
           "%s", p.out ? p.out : "");
    t_proc_free(&p);
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "10", "--threads", "1",
                              "--kernels", "scalar", "--rounds", "2", "--peer", wrong), 1);
    CHECKF(p.err && strstr(p.err, "does not hold the total, 724") && !strstr(p.out, "against"),
           "%s", p.err ? p.err : "");
    t_proc_free(&p);
    /* the total inside a decimal is no answer */
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "10", "--threads", "1",
                              "--kernels", "scalar", "--rounds", "1", "--peer",
                              "echo 'solutions 0 in 0.724 s'"), 1);
    CHECKF(p.err && strstr(p.err, "does not hold the total, 724, as a number: solutions 0 in 0.724 s\n"),
           "%s", p.err ? p.err : "");
    t_proc_free(&p);
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "10", "--kernels", "scalar",
                              "--rounds", "2", "--peer", "exit 3"), 1);
    CHECKF(p.err && strstr(p.err, "the peer 'exit 3' exited 3"), "%s", p.err ? p.err : "");
    t_proc_free(&p);
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "11", "--rounds", "2",
                              "--peer", good), 2);
    CHECKF(p.out_len == 0 && p.err && strstr(p.err, "usage"), "%s", p.err ? p.err : "");
    t_proc_free(&p);
    run_expect(&p, prog, ARGS(prog, "--from", "10", "--to", "10", "--peer", good), 2);
    CHECKF(p.out_len == 0 && p.err && strstr(p.err, "usage"), "%s", p.err ? p.err : "");
    t_proc_free(&p);
}

/* The record sample's journals (bench/record/, make bench-record) are
 * whole parts of this release's fast plans: a change of the plan for
 * N = 21..23 shows here, in a moment, not when someone next spends
 * minutes on the benchmark. */
static void record_sample_fits(void *arg)
{
    static const char *const parts[] = {
        "bench/record/n21-part11-of-30.journal",
        "bench/record/n22-part11-of-300.journal",
        "bench/record/n23-part11-of-3000.journal",
    };
    (void)arg;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        nq_journal_header h;
        nq_journal_state st;
        unsigned char *done = NULL;
        char why[512] = "";
        nq_plan *plan = NULL;
        CHECKF(nq_journal_merge(&parts[i], 1, NULL, &h, &st, &done, NULL, why,
                                sizeof why) == NQ_OK, "%s: %s", parts[i], why);
        free(done);
        nq_request req = {.size = sizeof req, .n = h.n, .engine = h.engine};
        CHECK(nq_plan_create(&req, &plan) == NQ_OK);
        nq_run_options o = {.part = h.part, .parts = h.parts};
        CHECKF(nq_plan_identity(plan) == h.identity &&
                   nq_plan_selected(plan, &o) == st.units_done &&
                   h.n == 21 + (int)i && st.sum.total > 0,
               "%s: not a whole part of fast's plan for N = %d", parts[i],
               21 + (int)i);
        nq_plan_free(plan);
    }
}

void tests_bench(void)
{
    t_case(record_sample_fits, NULL,
           "bench/record-sample-journals-are-whole-parts-of-fast's-plans");
    t_case(order_agrees, NULL, "bench/order-12-and-18-totals-and-nodes");
    t_case(fast_usage, NULL, "bench/fast-mistyped-options-refused");
    t_case(fast_runs, NULL, "bench/fast-8-scalar-vs-oeis");
    t_case(fast_rounds, NULL, "bench/fast-8-rounds-every-kernel-vs-oeis");
    t_full_case(fast_peer, NULL, "bench/fast-10-beside-a-peer-checked");
}

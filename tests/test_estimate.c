/*
 * test_estimate.c - how long a count would take, before it runs
 * (nq_estimate_count, `nqueens estimate`, and what count says and
 * refuses with it): the table and its JSON, the units it leaves out (a
 * journal's, another share's), its refusals and its stop.  How close the
 * estimates come to counted times is a benchmark's to say (make
 * bench-estimate, bench/RESULTS.md), not a timed test's.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* A number member of a JSON line, or -1. */
static double member(const char *line, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *at = strstr(line, key);
    return at ? atof(at + strlen(key)) : -1;
}

static uint64_t plan_units(int n)
{
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *p;
    uint64_t u = 0;
    req.n = n;
    if (nq_plan_create(&req, &p) == NQ_OK) {
        u = nq_plan_units(p);
        nq_plan_free(p);
    }
    return u;
}

/* The table: a header naming the threads, a row per N; the JSON: a line
 * per N, its interval around its estimate, its wall time the CPU time
 * over one thread, every unit of the plan but the two fixed-point
 * counts estimated. */
static void table_and_json(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("estimate", "13-14", "--threads", "1"));
    T_BAIL();
    int table = !strncmp(p.out, " N:    units  core-hours (80%)", 30) &&
                strstr(p.out, "wall, 1 thread (80%)") &&
                strstr(p.out, "\n13:     1257  ") &&
                strstr(p.out, "\n14:     1877  ");
    char out[400];
    snprintf(out, sizeof out, "%s", p.out);
    t_proc_free(&p);
    CHECKF(table, "the table: %s", out);
    t_run_ok(&p, ARGS("estimate", "15", "--threads", "1", "--json"));
    T_BAIL();
    double s = member(p.out, "seconds"), lo = member(p.out, "seconds_low");
    double hi = member(p.out, "seconds_high"), core = member(p.out,
                                                             "core_hours");
    int json = p.out_len && strchr(p.out, '\n') == p.out + p.out_len - 1 &&
               member(p.out, "n") == 15 && member(p.out, "threads") == 1 &&
               member(p.out, "units") == (double)plan_units(15) &&
               s > 0 && lo <= s && s <= hi && member(p.out, "samples") >= 40 &&
               core > 0 && s > 3599.9 * core && s < 3600.1 * core &&
               strstr(p.out, "\"engine\":\"fast\"") &&
               strstr(p.out, "\"kernel\":");
    snprintf(out, sizeof out, "%s", p.out);
    t_proc_free(&p);
    CHECKF(json, "estimate --json: %s", out);
}

/* Engines it cannot time, and bad options: one line, exit 2. */
static void refusals(void *arg)
{
    (void)arg;
    const char *const *cases[] = {
        ARGS("estimate", "12", "--engine", "bitmap"),
        ARGS("estimate", "12", "--seconds", "soon"),
        ARGS("estimate", "12", "--seconds", "-1"),
        ARGS("estimate", "12", "--part", "3/2"),
        ARGS("estimate", "12", "--threads", "0"),
        ARGS("estimate"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, cases[i]) == 0);
        int refused = p.exit_code == 2 && p.out_len == 0 &&
                      !strncmp(p.err, "nqueens: ", 9) &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        CHECKF(refused, "case %zu was not refused in one line", i);
    }
}

/* The units estimated are those a count would run: a share's, less
 * those its journal holds; the plan's fixed-point counts, which it
 * cannot size, are left out and said. */
static void units_left_out(void *arg)
{
    (void)arg;
    nq_request req = NQ_REQUEST_INIT;
    nq_estimate e;
    nq_plan *plan;
    req.n = 14, req.threads = 1;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    T_BAIL();
    uint64_t units = nq_plan_units(plan);
    unsigned char *done = calloc(units / 8 + 1, 1);
    CHECK(done);
    T_BAIL();
    for (uint64_t u = 0; u < units - 10; u++) /* all but the last ten */
        done[u / 8] |= (unsigned char)(1u << (u % 8));
    nq_estimate_options o = {.done = done, .seconds = 0.2};
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_OK);
    CHECKF(e.units == 10 && e.unsized == 0, "%llu units, %llu unsized",
           (unsigned long long)e.units, (unsigned long long)e.unsized);
    nq_estimate_options share = {.part = 2, .parts = 3, .seconds = 0.2};
    nq_run_options ro = {.part = 2, .parts = 3};
    CHECK(nq_estimate_count(&req, &share, &e) == NQ_OK);
    CHECKF(e.units == nq_plan_selected(plan, &ro) && e.unsized == 1,
           "part 2/3: %llu units, %llu unsized", (unsigned long long)e.units,
           (unsigned long long)e.unsized); /* unit 1: the quarter turn's */
    nq_estimate_options all = {.seconds = 0.2};
    CHECK(nq_estimate_count(&req, &all, &e) == NQ_OK);
    CHECK(e.units == units && e.unsized == 2 && e.threads == 1);
    free(done);
    nq_plan_free(plan);
}

/* The stop flag ends the sampling: NQ_ERR_STOPPED. */
static void stops(void *arg)
{
    (void)arg;
    volatile sig_atomic_t stop = 1;
    nq_request req = NQ_REQUEST_INIT;
    nq_estimate e;
    req.n = 20, req.stop = &stop;
    CHECK(nq_estimate_count(&req, NULL, &e) == NQ_ERR_STOPPED);
}

/* count says its estimate as it starts from N = 20, on one line of
 * stderr before any unit runs ("about", an interval, the threads, how it
 * was measured); not with --quiet or --force. */
static void count_says_it(void *arg)
{
    (void)arg;
    char j[64];
    t_proc p;
    snprintf(j, sizeof j, "/tmp/nq-estimate-%d.journal", (int)getpid());
    unlink(j);
    CHECK(t_run_cli(&p, ARGS("count", "20", "-t", "1", "--checkpoint", j,
                             "--max-units", "1")) == 0);
    const char *said = strstr(p.err, "nqueens: count 20: about ");
    int ok = said == p.err && strstr(p.err, ") on 1 thread (estimated in ") &&
             strstr(p.err, " timed samples of its units)\n") &&
             strstr(p.err, "stopped with 1 of 11458 units");
    char err[400];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(ok, "count 20: %s", err);
    CHECK(t_run_cli(&p, ARGS("count", "20", "-t", "1", "--checkpoint", j,
                             "--max-units", "1", "--force")) == 0);
    ok = !strstr(p.err, "about");
    t_proc_free(&p);
    unlink(j);
    CHECKF(ok, "count 20 --force estimated");
}

/* A count this machine could not finish in a week is refused with its
 * estimate, an interval, the threads and what to do, plural right. */
static void refusal_says_it(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "25", "-t", "2")) == 0);
    int ok = p.exit_code == 2 && p.out_len == 0 &&
             !strncmp(p.err, "nqueens: count 25 with engine fast would take "
                      "about ", 52) &&
             strstr(p.err, ") on 2 threads; --force to run, --checkpoint "
                    "FILE to make it resumable\n") &&
             !strstr(p.err, " 1 years") && !strstr(p.err, " 1 months");
    char err[400];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(ok, "count 25: %s", err);
}

void tests_estimate(void)
{
    t_case(table_and_json, NULL, "estimate/table-and-json");
    t_case(refusals, NULL, "estimate/refuses-engines-and-options-it-cannot-"
           "take");
    t_case(units_left_out, NULL, "estimate/units-of-the-share-less-those-"
           "done");
    t_case(stops, NULL, "estimate/stop-flag-ends-it");
    t_full_case(count_says_it, NULL, "estimate/count-20-says-it-as-it-"
                "starts");
    t_case(refusal_says_it, NULL, "estimate/count-25-refused-with-it");
}

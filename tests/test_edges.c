/*
 * test_edges.c - the public calls handed nonsense (issue 57, item 4):
 * each is refused with a status, never answered NQ_OK, and never
 * overflows (make asan runs these under AddressSanitizer).  Negative
 * threads, a unit listed twice, options that choose nothing or overflow
 * a size, sums that cannot be a count, probes without end, a run line
 * whose time is no time, a share of no unit, an interval from one
 * sample.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/journal/journal_format.h"

static nq_request request(int n, const char *engine)
{
    nq_request req = NQ_REQUEST_INIT;
    req.n = n, req.engine = engine, req.threads = 1;
    return req;
}

/* A whole journal of N = n (fast) at path; 1 if written. */
static int journal_of(int n, const char *path)
{
    nq_request req = request(n, "fast");
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    o.journal = path;
    return nq_count_resumable(&req, &o, &r) == NQ_OK && r.complete;
}

/* nq_plan_run: threads below 0, a unit listed twice (it was counted
 * three times for {5, 5, 5}); a list of each once still runs. */
static void plan_run_edges(void *arg)
{
    (void)arg;
    nq_request req = request(10, "fast");
    nq_plan *p = NULL;
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    nq_tally sum = {0}, one = {0};
    nq_run_options neg = {.threads = -3};
    CHECK(nq_plan_run(p, &neg, &sum) == NQ_ERR_ARG);
    const uint64_t thrice[3] = {5, 5, 5}, late[3] = {1, 5, 1};
    nq_run_options o = {.threads = 1, .ids = thrice, .count = 3};
    CHECK(nq_plan_run(p, &o, &sum) == NQ_ERR_ARG);
    o.ids = late;
    CHECK(nq_plan_run(p, &o, &sum) == NQ_ERR_ARG);
    o.ids = thrice, o.count = 1;
    memset(&sum, 0, sizeof sum);
    CHECK(nq_plan_run(p, &o, &sum) == NQ_OK);
    CHECK(nq_plan_run_unit(p, 5, &one) == NQ_OK && one.total == sum.total);
    /* INT_MAX threads asked for a pool of gigabytes: no more threads
     * than units are started */
    o.threads = INT32_MAX;
    memset(&sum, 0, sizeof sum);
    CHECK(nq_plan_run(p, &o, &sum) == NQ_OK && sum.total == one.total);
    nq_plan_free(p);
}

/* The rest of the calls with the same kind of hole: a budget without
 * end, a NULL verdict path, a NULL split name (it crashed). */
static void other_edges(void *arg)
{
    (void)arg;
    nq_request req = request(12, "fast");
    nq_estimate_options o = {.seconds = INFINITY, .precision = 1e-300};
    nq_estimate e;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG);
    CHECK(nq_split_max_unit_seconds(NULL) == -1);
    const char *j = t_file("combine.journal"), *paths[1] = {j};
    const char *verdicts[2] = {t_file("v1"), NULL};
    CHECK(journal_of(8, j));
    nq_verify_options vo = {.percent = 1};
    nq_journal_header h;
    nq_verify_report r;
    char why[256] = "";
    CHECK(nq_journal_verify_combine(paths, 1, verdicts, 2, &vo, &h, &r, NULL,
                                    NULL, NULL, why, sizeof why) ==
          NQ_ERR_ARG && why[0]);
}

/* nq_plan_finish: sums no board of that size has; N = 10 is checked
 * against its count. */
static void finish_edges(void *arg)
{
    (void)arg;
    nq_request req = request(10, "fast");
    nq_plan *p = NULL;
    nq_counts c;
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    nq_tally zero = {0}, eight = {.total = 8, .unique = 1};
    CHECK(nq_plan_finish(p, &zero, &c) == NQ_ERR_INTERNAL);
    CHECK(nq_plan_finish(p, &eight, &c) == NQ_ERR_INTERNAL);
    nq_tally real = {0};
    nq_run_options all = {.threads = 1};
    CHECK(nq_plan_run(p, &all, &real) == NQ_OK);
    CHECK(nq_plan_finish(p, &real, &c) == NQ_OK && c.total == 724 &&
          c.unique == 92);
    nq_plan_free(p);
}

/* Past N = 12 the relations every count obeys: fast's fixed points in
 * classes of 8, 4 and 2, carry's unique count within T/8..T/2. */
static void finish_relations(void *arg)
{
    (void)arg;
    nq_request req = request(14, "fast");
    nq_plan *p = NULL;
    nq_counts c;
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    nq_u128 P = 0, R = 0, T = 365596; /* N = 14's total */
    CHECK(nq_count_symmetric_solutions(14, &P, &R) == NQ_OK && R == 0);
    nq_tally t = {.total = T, .fixed180 = P};
    CHECK(nq_plan_finish(p, &t, &c) == NQ_OK && c.unique == 45752);
    t.total += 4, t.fixed180 += 4; /* one more class fixed by the half */
    CHECK(nq_plan_finish(p, &t, &c) == NQ_OK); /* turn: no relation's */
    const struct {
        nq_u128 total, fixed180, fixed90;
        const char *what;
    } bad[] = {
        {0, 0, 0, "no solution"},
        {T + 2, P + 2, 2, "a quarter turn's at N = 14 (2 mod 4)"},
        {16, 24, 0, "more fixed by the half turn than solutions"},
        {T + 2, P + 2, 0, "P - R not a multiple of 4"},
        {T + 1, P + 7, 0, "an odd total"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nq_tally b = {.total = bad[i].total, .fixed180 = bad[i].fixed180,
                      .fixed90 = bad[i].fixed90};
        CHECKF(nq_plan_finish(p, &b, &c) == NQ_ERR_INTERNAL, "%s",
               bad[i].what);
    }
    nq_plan_free(p);
    req.engine = "carry"; /* unique recorded, no fixed points */
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    nq_tally more = {.total = 365596, .unique = 365596 / 2 + 1};
    nq_tally fewer = {.total = 365596, .unique = 365596 / 8 - 1};
    CHECK(nq_plan_finish(p, &more, &c) == NQ_ERR_INTERNAL);
    CHECK(nq_plan_finish(p, &fewer, &c) == NQ_ERR_INTERNAL);
    nq_plan_free(p);
}

/* Completions: a listing to no one, and probes without end (UINT32_MAX
 * ran 28 minutes, with no way to stop it). */
static void completion_edges(void *arg)
{
    (void)arg;
    int given[12];
    double nodes = -1;
    nq_u128 k;
    memset(given, -1, sizeof given);
    CHECK(nq_enumerate_completions(12, given, NULL, NULL, &k) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(12, given, UINT32_MAX, &nodes) ==
          NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(12, given, NQ_MAX_PROBES + 1,
                                       &nodes) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(12, given, 0, &nodes) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(12, given, 1000, &nodes) == NQ_OK &&
          nodes > 0);
}

/* nq_journal_verify with extreme options: refused where they make no
 * check, never an overflow (largest = UINT64_MAX wrapped a heap's size
 * to 0), and every unit recounted where they ask for more than there
 * are. */
static void verify_extreme_options(void *arg)
{
    (void)arg;
    const char *j = t_file("extreme.journal");
    CHECK(journal_of(10, j));
    T_BAIL();
    const char *paths[1] = {j};
    nq_journal_header h;
    nq_verify_report r;
    char why[256];
    const nq_verify_options refused[] = {
        {.percent = 1, .threads = -4},
        {.percent = 0},
        {.percent = 1e300},
        {.percent = -1},
        {.percent = NAN},
        {.percent = INFINITY},
        {.percent = 100.0000001},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        why[0] = 0;
        CHECKF(nq_journal_verify(paths, 1, &refused[i], &h, &r, NULL, NULL,
                                 NULL, why, sizeof why) == NQ_ERR_ARG &&
               why[0], "options %zu", i);
    }
    const nq_verify_options all[] = {
        {.largest = UINT64_MAX, .threads = 1},
        {.at_least = UINT64_MAX, .threads = 1},
        {.percent = 100, .at_least = UINT64_MAX, .largest = UINT64_MAX,
         .fixed_points = 1, .threads = 1},
        {.largest = UINT64_MAX - 1, .seed = 7, .part = 2, .parts = 2,
         .threads = 1},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        nq_status st = nq_journal_verify(paths, 1, &all[i], &h, &r, NULL,
                                         NULL, NULL, why, sizeof why);
        /* every record by size (size_bound 0: all that can hold a
         * total, which fast's two fixed-point units cannot), or all */
        int every = all[i].at_least ? r.checked == r.recorded
                                    : r.size_bound == 0 && r.chosen >= 1;
        CHECKF(st == NQ_OK && r.disagree == 0 && every,
               "options %zu: %s, %llu of %llu checked (%s)", i,
               nq_strerror(st), (unsigned long long)r.checked,
               (unsigned long long)r.recorded, why);
    }
    nq_verify_options one = {.fixed_points = 1, .threads = 1};
    CHECK(nq_journal_verify(paths, 1, &one, &h, &r, NULL, NULL, NULL, why,
                            sizeof why) == NQ_OK && r.checked >= 1);
    /* weighted draws of more than there are: every record (each has
     * solutions or an estimate at N = 10), the fixed points' units
     * besides, no heap wrapped to nothing */
    nq_verify_options heavy = {.weighted = UINT64_MAX, .fixed_points = 1,
                               .threads = 1};
    CHECK(nq_journal_verify(paths, 1, &heavy, &h, &r, NULL, NULL, NULL, why,
                            sizeof why) == NQ_OK && r.disagree == 0 &&
          r.checked == r.recorded && r.by_weight > 0 && r.claim_step > 0);
}

/* A run line whose time is inf, nan, 1e300 or below 0, tagged with the
 * journal's own key (a tag proves nothing: the key is in the file):
 * refused as damage, naming the line. */
static void run_line_time_edges(void *arg)
{
    (void)arg;
    const double times[] = {INFINITY, NAN, -INFINITY, 1e300, -1, 1e10};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        const char *j = t_file("runline.journal");
        CHECK(journal_of(8, j));
        nq_journal_header h;
        CHECK(t_read_journal_header(j, &h));
        T_BAIL();
        char line[1024];
        nq_jf_run_line(line, sizeof line, &h, times[i], 1, 1);
        FILE *f = fopen(j, "a");
        CHECK(f && fputs(line, f) >= 0);
        if (f)
            fclose(f);
        const char *paths[1] = {j};
        nq_journal_state s;
        unsigned char *done = NULL;
        char why[512] = "";
        nq_status st = nq_journal_merge(paths, 1, NULL, &h, &s, &done, NULL,
                                        why, sizeof why);
        CHECKF(st == NQ_ERR_CORRUPT && strstr(why, " line "),
               "seconds %g: %s (%s)", times[i], nq_strerror(st), why);
        free(done);
        remove(j);
    }
}

/* A share with no unit in it is refused by estimate as by count, in the
 * same words: it estimated 0 units and said OK. */
static void estimate_share_edges(void *arg)
{
    (void)arg;
    nq_request req = request(12, "fast");
    nq_plan *p = NULL;
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    uint32_t units = (uint32_t)nq_plan_units(p);
    nq_plan_free(p);
    char words[512] = "", m[32];
    req.why = words, req.why_size = sizeof words;
    nq_estimate_options o = {.part = units + 1, .parts = units + 1,
                             .seconds = 0.1};
    nq_estimate e;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG &&
          strstr(words, "holds no unit"));
    snprintf(m, sizeof m, "%u/%u", units + 1, units + 1);
    t_proc est, count;
    t_run_cli(&est, ARGS("estimate", "12", "--part", m));
    t_run_cli(&count, ARGS("count", "12", "--part", m, "--checkpoint",
                           t_file("share.journal")));
    CHECKF(est.exit_code == count.exit_code && est.exit_code != 0 &&
           est.err && count.err && strcmp(est.err, count.err) == 0,
           "estimate said %d '%s', count "
           "%d '%s'", est.exit_code, est.err, count.exit_code, count.err);
    t_proc_free(&est);
    t_proc_free(&count);
}

/* An estimate from a sample or two claims no narrow interval: one sample
 * claimed +-7.7% where such answers spread by a factor of 2.4. */
static void estimate_few_samples(void *arg)
{
    (void)arg;
    nq_request req = request(16, "fast");
    nq_estimate_options o = {.seconds = 1e-9, .seed = 1};
    nq_estimate e;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_OK);
    T_BAIL();
    CHECKF(e.samples >= 1 && (e.samples > 3 ||
                              e.high - e.low >= e.core_seconds),
           "%llu samples: %g (%g-%g)", (unsigned long long)e.samples,
           e.core_seconds, e.low, e.high);
    CHECKF(e.cpu_share > 0 && e.cpu_share <= 1, "the sampling ran %g of "
           "its time", e.cpu_share);
    t_proc p;
    t_run_cli(&p, ARGS("estimate", "16", "--seconds", "0.000001", "-t", "1"));
    CHECKF(p.exit_code == 0 && p.err && strstr(p.err, "widened"),
           "exit %d: %s",
           p.exit_code, p.err);
    t_proc_free(&p);
}

void tests_edges(void)
{
    t_case(plan_run_edges, NULL, "edges/plan-run-negative-threads-repeated-ids");
    t_case(finish_edges, NULL, "edges/finish-refuses-sums-that-are-no-count");
    t_case(finish_relations, NULL, "edges/finish-refuses-sums-no-count-obeys");
    t_case(other_edges, NULL, "edges/estimate-budget-verdict-split-null");
    t_case(completion_edges, NULL, "edges/completions-no-callback-endless-probes");
    t_case(verify_extreme_options, NULL, "edges/api-verify-extreme-options");
    t_case(run_line_time_edges, NULL, "edges/journal-run-line-time-not-finite");
    t_case(estimate_share_edges, NULL, "edges/estimate-share-of-no-unit");
    t_case(estimate_few_samples, NULL, "edges/estimate-few-samples-wide-interval");
}

/*
 * test_api.c - every function of the public header (nqueens.h, stable
 * and advanced) called with NULL in each pointer, and with each field
 * of what it is handed made bad in turn: a status and words, never a
 * crash (issue 49: nq_journal_merge(NULL, 1, ...), nq_journal_verify
 * with a NULL path, nq_engine_*(NULL) and nq_parse_u128(s, NULL)
 * crashed; nq_count_resumable of part 0/2 or 3/2 counted nothing, said
 * NQ_OK and left a journal no reader takes).  Each group is a case of
 * its own, run in a child process, so a crash fails it by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static int never(void *ctx, const int *cols, int n)
{
    (void)ctx, (void)cols, (void)n;
    return 0;
}

static int no_event(void *ctx, const nq_event *e)
{
    (void)ctx, (void)e;
    return 0;
}

/* A request of this header's size for n with engine e. */
static nq_request request(int n, const char *e)
{
    nq_request req = NQ_REQUEST_INIT;
    req.n = n, req.engine = e;
    return req;
}

/* The engine table and the version with nothing, or nothing sensible. */
static void engines_null(void *arg)
{
    (void)arg;
    char buf[64];
    CHECK(nq_engine_name(NULL) == NULL);
    CHECK(nq_engine_summary(NULL) == NULL);
    CHECK(nq_engine_max_n(NULL) == 0);
    CHECK(nq_engine_caps(NULL) == 0);
    CHECK(nq_engine_devices(NULL, buf, sizeof buf) == NULL);
    CHECK(nq_engine_devices(nq_engine_find("fast"), NULL, 0) == NULL);
    CHECK(nq_engine_find(NULL) == NULL);
    CHECK(nq_engine_at(-1) == NULL && nq_engine_at(nq_engine_count()) == NULL);
    CHECK(nq_strerror((nq_status)-1) && nq_strerror(NQ_STATUS_COUNT) &&
          nq_strerror((nq_status)12345));
    CHECK(nq_kernel_at(-1) == NULL && nq_kernel_at(nq_kernel_count()) == NULL);
    CHECK(nq_kernel_supported(NULL) == 0);
    CHECK(nq_select_kernel("no-such") == NQ_ERR_ARG);
    CHECK(nq_select_kernel(NULL) == NQ_OK);
}

/* 128-bit numbers, placements and symmetries with NULL or off bounds. */
static void values_null(void *arg)
{
    (void)arg;
    nq_u128 v = 0;
    int cols[8] = {0}, row = 0, col = 0;
    CHECK(nq_parse_u128("12", NULL) == NQ_ERR_ARG);
    CHECK(nq_parse_u128(NULL, &v) == NQ_ERR_ARG);
    CHECK(nq_parse_u128("", &v) == NQ_ERR_ARG);
    CHECK(nq_add_u128(NULL, 1) == NQ_ERR_ARG);
    CHECK(nq_format_u128(1, NULL) == NULL);
    CHECK(nq_check_placement(NULL, 4) == NQ_ERR_ARG);
    CHECK(nq_check_placement(cols, 0) == NQ_ERR_ARG);
    CHECK(nq_check_placement(cols, -3) == NQ_ERR_ARG);
    CHECK(nq_canonical_weight(NULL, 8) == 0);
    CHECK(nq_canonical_weight(cols, -1) == 0);
    CHECK(nq_canonical_weight(cols, NQ_MAX_N + 1) == 0);
    nq_transform_square(8, 1, NULL, &col);
    nq_transform_square(8, 1, &row, NULL);
    nq_transform_square(8, 99, &row, &col);
    nq_transform_square(-1, 1, &row, &col);
    nq_transform_placement(NULL, 8, 1, cols);
    nq_transform_placement(cols, 8, 1, NULL);
    nq_transform_placement(cols, 8, -5, cols);
    nq_transform_placement(cols, NQ_MAX_N + 1, 1, cols);
    CHECK(nq_attack_lines(0, 0, 1, 1) == NQ_BY_DIF);
    CHECK(nq_find_solution(8, NQ_FIND_FORMULA, 0, NULL) == NQ_ERR_ARG);
    CHECK(nq_find_solution(8, (nq_find_method)7, 0, cols) == NQ_ERR_ARG);
    CHECK(nq_find_solution(0, NQ_FIND_FORMULA, 0, cols) == NQ_ERR_ARG);
    CHECK(nq_count_symmetric_solutions(0, &v, NULL) == NQ_ERR_RANGE);
    CHECK(nq_count_symmetric_solutions(NQ_MAX_N + 1, NULL, &v) ==
          NQ_ERR_RANGE);
}

/* Counting and listing with a NULL request, answer or callback, and
 * with each of the request's fields bad. */
static void counts_null(void *arg)
{
    (void)arg;
    nq_counts c;
    nq_request req = request(8, "fast");
    CHECK(nq_count_solutions(NULL, &c) == NQ_ERR_ARG);
    CHECK(nq_count_solutions(&req, NULL) == NQ_ERR_ARG);
    CHECK(nq_check_request(NULL, 0) == NQ_ERR_ARG);
    CHECK(nq_request_threads(NULL) >= 1);
    CHECK(nq_enumerate_solutions(NULL, never, NULL, &c) == NQ_ERR_ARG);
    req.engine = "bitmap";
    CHECK(nq_enumerate_solutions(&req, NULL, NULL, &c) == NQ_ERR_ARG);
    CHECK(nq_enumerate_solutions(&req, never, NULL, NULL) == NQ_ERR_ARG);
    CHECK(nq_walk_search(NULL, no_event, NULL) == NQ_ERR_ARG);
    CHECK(nq_walk_search(&req, NULL, NULL) == NQ_ERR_ARG);
    const struct {
        nq_request req;
        nq_status want;
    } bad[] = {
        {request(0, "fast"), NQ_ERR_RANGE},
        {request(-5, "fast"), NQ_ERR_RANGE},
        {request(NQ_MAX_N + 1, "fast"), NQ_ERR_RANGE},
        {request(8, "no-such-engine"), NQ_ERR_ENGINE},
        {request(8, ""), NQ_ERR_ENGINE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(nq_count_solutions(&bad[i].req, &c) == bad[i].want,
               "bad request %zu", i);
    nq_request threads = request(8, "fast");
    threads.threads = -2;
    CHECK(nq_count_solutions(&threads, &c) == NQ_ERR_ARG);
    nq_request kernel = request(8, "fast");
    kernel.kernel = "no-such";
    CHECK(nq_count_solutions(&kernel, &c) == NQ_ERR_ARG);
    nq_request devices = request(8, "fast");
    devices.devices = "0,,1";
    CHECK(nq_count_solutions(&devices, &c) == NQ_ERR_UNSUPPORTED);
}

/* Completions with NULL and with given queens off the board. */
static void completions_null(void *arg)
{
    (void)arg;
    int given[8];
    nq_counts c;
    nq_u128 k;
    double nodes;
    nq_request req = request(8, NULL);
    memset(given, -1, sizeof given);
    CHECK(nq_count_completions(NULL, given, &c) == NQ_ERR_ARG);
    CHECK(nq_count_completions(&req, NULL, &c) == NQ_ERR_ARG);
    CHECK(nq_count_completions(&req, given, NULL) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(8, NULL, 10, &nodes) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(8, given, 10, NULL) == NQ_ERR_ARG);
    CHECK(nq_estimate_completion_nodes(0, given, 10, &nodes) == NQ_ERR_ARG);
    CHECK(nq_enumerate_completions(8, NULL, never, NULL, &k) == NQ_ERR_ARG);
    CHECK(nq_enumerate_completions(0, given, never, NULL, &k) == NQ_ERR_ARG);
    /* no callback: refused (nq_count_completions counts); no count:
     * listed only */
    CHECK(nq_enumerate_completions(8, given, NULL, NULL, &k) == NQ_ERR_ARG);
    CHECK(nq_enumerate_completions(8, given, never, NULL, NULL) == NQ_OK);
    given[3] = 8; /* off the board */
    CHECK(nq_count_completions(&req, given, &c) == NQ_ERR_ARG);
    given[3] = -7;
    CHECK(nq_enumerate_completions(8, given, never, NULL, &k) == NQ_ERR_ARG);
}

/* A long count with NULLs, and with each bad share: refused, and no
 * journal left behind (part 0/2 and 3/2 said NQ_OK, counted nothing and
 * wrote one no reader takes). */
static void resumable_null(void *arg)
{
    (void)arg;
    char j[64];
    snprintf(j, sizeof j, "/tmp/nq-api-%d.journal", (int)getpid());
    nq_request req = request(12, "fast");
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    CHECK(nq_count_resumable(NULL, &o, &r) == NQ_ERR_ARG);
    CHECK(nq_count_resumable(&req, NULL, &r) == NQ_ERR_ARG);
    CHECK(nq_count_resumable(&req, &o, NULL) == NQ_ERR_ARG);
    const uint32_t shares[][2] = {{0, 2}, {3, 2}, {1, 0}, {0, 0}, {5, 1},
                                  {900, 1000}, {4999, 5000}};
    o.journal = j;
    for (size_t i = 0; i < sizeof shares / sizeof shares[0]; i++) {
        if (!shares[i][0] && !shares[i][1])
            continue; /* 0/0: the whole count, a good share */
        unlink(j);
        o.part = shares[i][0], o.parts = shares[i][1];
        nq_status st = nq_count_resumable(&req, &o, &r);
        CHECKF(st == NQ_ERR_ARG && r.why[0] && access(j, F_OK) != 0,
               "part %u/%u: %s, '%s', journal %s", shares[i][0],
               shares[i][1], nq_strerror(st), r.why,
               access(j, F_OK) ? "absent" : "left");
    }
    unlink(j);
    o = (nq_resume_options)NQ_RESUME_OPTIONS_INIT;
    o.max_units = 3; /* without a journal */
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_ARG);
}

/* Plans and their runs with NULLs and bad shares. */
static void plans_null(void *arg)
{
    (void)arg;
    nq_plan *p = NULL;
    nq_tally t = {0}, sum = {0};
    nq_counts c;
    char buf[64] = "x";
    nq_request req = request(10, "fast");
    CHECK(nq_plan_create(NULL, &p) == NQ_ERR_ARG);
    CHECK(nq_plan_create(&req, NULL) == NQ_ERR_ARG);
    CHECK(nq_plan_units(NULL) == 0);
    CHECK(nq_plan_identity(NULL) == 0);
    CHECK(nq_plan_split(NULL) == NULL);
    nq_plan_describe(NULL, 0, buf, sizeof buf);
    CHECK(buf[0] == '\0');
    nq_plan_free(NULL);
    CHECK(nq_plan_run_unit(NULL, 0, &t) == NQ_ERR_ARG);
    CHECK(nq_tally_add(NULL, &t) == NQ_ERR_ARG);
    CHECK(nq_tally_add(&t, NULL) == NQ_ERR_ARG);
    CHECK(nq_plan_finish(NULL, &sum, &c) == NQ_ERR_ARG);
    nq_run_options ro = {0};
    CHECK(nq_plan_run(NULL, &ro, &sum) == NQ_ERR_ARG);
    CHECK(nq_plan_selected(NULL, &ro) == 0);
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    T_BAIL();
    nq_plan_describe(p, nq_plan_units(p), buf, sizeof buf); /* past the end */
    nq_plan_describe(p, 0, NULL, 10);
    CHECK(nq_plan_run_unit(p, nq_plan_units(p), &t) == NQ_ERR_ARG);
    CHECK(nq_plan_run_unit(p, 0, NULL) == NQ_ERR_ARG);
    CHECK(nq_plan_finish(p, NULL, &c) == NQ_ERR_ARG);
    CHECK(nq_plan_finish(p, &sum, NULL) == NQ_ERR_ARG);
    CHECK(nq_plan_run(p, NULL, &sum) == NQ_ERR_ARG);
    CHECK(nq_plan_run(p, &ro, NULL) == NQ_ERR_ARG);
    CHECK(nq_plan_selected(p, NULL) == 0);
    const uint32_t shares[][2] = {{0, 2}, {3, 2}, {1, 0}};
    for (size_t i = 0; i < sizeof shares / sizeof shares[0]; i++) {
        ro.part = shares[i][0], ro.parts = shares[i][1];
        CHECKF(nq_plan_run(p, &ro, &sum) == NQ_ERR_ARG, "part %u/%u",
               shares[i][0], shares[i][1]);
        CHECKF(nq_plan_selected(p, &ro) == 0, "part %u/%u selected",
               shares[i][0], shares[i][1]);
    }
    uint64_t past = nq_plan_units(p);
    nq_run_options ids = {.ids = &past, .count = 1};
    CHECK(nq_plan_run(p, &ids, &sum) == NQ_ERR_ARG);
    nq_run_options none = {.ids = NULL, .count = 3, .parts = 0};
    CHECK(nq_plan_run(p, &none, &sum) == NQ_ERR_ARG); /* count, no ids */
    nq_plan_free(p);
}

/* Journals: NULL lists, paths, outputs and options, each refused with
 * words. */
static void journals_null(void *arg)
{
    (void)arg;
    nq_journal_header h;
    nq_journal_state s;
    nq_verify_report r;
    nq_counts c;
    unsigned char *done = NULL;
    char why[256];
    const char *none[2] = {NULL, NULL};
    const char *one[1] = {"/nonexistent/nq-api.journal"};
    nq_verify_options o = {.percent = 1};
    why[0] = 0;
    CHECK(nq_journal_merge(NULL, 1, NULL, &h, &s, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG && why[0]);
    CHECK(nq_journal_merge(none, 2, NULL, &h, &s, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, 0, NULL, &h, &s, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, -1, NULL, &h, &s, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, 1, NULL, NULL, &s, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, 1, NULL, &h, NULL, &done, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, 1, NULL, &h, &s, NULL, NULL, why,
                           sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_merge(one, 1, NULL, &h, &s, &done, NULL, NULL,
                           0) == NQ_ERR_IO);
    CHECK(nq_journal_merge(none, 1, NULL, &h, &s, &done, &c, why,
                           sizeof why) == NQ_ERR_ARG);
    CHECK(nq_journal_verify(NULL, 1, &o, &h, &r, NULL, NULL, NULL, why,
                            sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_verify(none, 1, &o, &h, &r, NULL, NULL, NULL, why,
                            sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_verify(one, 1, NULL, &h, &r, NULL, NULL, NULL, why,
                            sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_verify(one, 1, &o, NULL, &r, NULL, NULL, NULL, why,
                            sizeof why) ==
          NQ_ERR_ARG);
    CHECK(nq_journal_verify(one, 1, &o, &h, NULL, NULL, NULL, NULL, why,
                            sizeof why) ==
          NQ_ERR_ARG);
    const double percents[] = {-1, 101, 0.0 / 0.0};
    for (int i = 0; i < 3; i++) {
        o.percent = percents[i];
        CHECKF(nq_journal_verify(one, 1, &o, &h, &r, NULL, NULL, NULL, why,
                                 sizeof why) ==
               NQ_ERR_ARG, "percent %g", percents[i]);
    }
    CHECK(nq_journal_verify(none, 1, &o, &h, &r, &s, &done, &c, why,
                            sizeof why) == NQ_ERR_ARG);
}

/* The estimate with NULLs and bad options. */
static void estimate_null(void *arg)
{
    (void)arg;
    nq_estimate e;
    nq_estimate_options o = {0};
    nq_request req = request(12, "fast");
    CHECK(nq_estimate_count(NULL, &o, &e) == NQ_ERR_ARG);
    CHECK(nq_estimate_count(&req, &o, NULL) == NQ_ERR_ARG);
    CHECK(nq_estimate_count(&req, NULL, &e) == NQ_OK); /* the defaults */
    o.part = 0, o.parts = 2;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG);
    o.part = 3;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG);
    o.part = 1, o.seconds = -1;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG);
    o.seconds = 0, o.precision = -0.5;
    CHECK(nq_estimate_count(&req, &o, &e) == NQ_ERR_ARG);
    nq_request bitmap = request(12, "bitmap");
    o.precision = 0;
    CHECK(nq_estimate_count(&bitmap, &o, &e) == NQ_ERR_UNSUPPORTED);
}

void tests_api(void)
{
    t_case(engines_null, NULL, "api/engines-kernels-and-words-with-null");
    t_case(values_null, NULL, "api/numbers-placements-symmetries-with-null");
    t_case(counts_null, NULL, "api/counts-with-null-and-bad-requests");
    t_case(completions_null, NULL, "api/completions-with-null-and-bad-givens");
    t_case(resumable_null, NULL, "api/long-count-with-null-and-bad-shares");
    t_case(plans_null, NULL, "api/plans-with-null-and-bad-shares");
    t_case(journals_null, NULL, "api/journals-with-null-and-bad-options");
    t_case(estimate_null, NULL, "api/estimate-with-null-and-bad-options");
}

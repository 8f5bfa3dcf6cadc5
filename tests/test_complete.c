/*
 * test_complete.c - completing a partial placement: counts and listings
 * checked against the whole board's solutions filtered by the givens.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct {
    const int *given;
    unsigned long long match;
} filter;

/* Count the solutions of the whole board that keep the givens: the
 * answer completion must reach by another road. */
static int keep_matching(void *ctx, const int *cols, int n)
{
    filter *f = ctx;
    int ok = 1;
    for (int r = 0; r < n && ok; r++)
        ok = f->given[r] < 0 || f->given[r] == cols[r];
    f->match += (unsigned long long)ok;
    return 0;
}

/* A listing that only needs to run (its givens are refused first). */
static int list_none(void *ctx, const int *cols, int n)
{
    (void)ctx, (void)cols, (void)n;
    return 0;
}

/* Listed completions: valid, keeping the givens, in increasing order. */
typedef struct {
    const int *given;
    t_board_reader r;
    int lost_given;
} completion_check;

/* Check one listed completion (nq_enumerate_completions callback). */
static int check_completion(void *ctx, const int *cols, int n)
{
    completion_check *cc = ctx;
    for (int r = 0; r < n; r++)
        cc->lost_given += cc->given[r] >= 0 && cc->given[r] != cols[r];
    t_reader_add(&cc->r, cols);
    return 0;
}

/* Random partial placements on N = 8..12 (attacking ones drawn again):
 * the count, on 1 and 3 threads, and the listing agree with the solutions
 * of the whole board filtered by the givens. */
static void completion_counts(void *arg)
{
    (void)arg;
    unsigned seed = 12345;
    for (int trial = 0; trial < 60; trial++) {
        int n = 8 + trial % 5, given[NQ_MAX_N];
        for (int r = 0; r < n; r++)
            given[r] = -1;
        for (int k = trial % 4; k > 0; k--) {
            seed = seed * 1103515245u + 12345u;
            int r = (int)(seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            given[r] = (int)(seed >> 8) % n;
        }
        filter f = {given, 0};
        nq_request all = {.size = sizeof all, .n = n, .engine = "bitmap"};
        nq_counts full, c1, c3;
        CHECK(nq_enumerate_solutions(&all, keep_matching, &f, &full) == NQ_OK);
        nq_request one = {.size = sizeof one, .n = n, .threads = 1};
        nq_request three = {.size = sizeof three, .n = n, .threads = 3};
        nq_status st = nq_count_completions(&one, given, &c1);
        if (st == NQ_ERR_INVALID) {
            CHECKF(f.match == 0, "trial %d: valid givens refused", trial);
            continue;
        }
        CHECK(st == NQ_OK);
        CHECK(nq_count_completions(&three, given, &c3) == NQ_OK);
        completion_check cc = {given, {.n = n}, 0};
        nq_u128 listed;
        CHECK(nq_enumerate_completions(n, given, check_completion, &cc,
                                       &listed) == NQ_OK);
        CHECKF(c1.total == f.match && c3.total == f.match &&
               listed == f.match && (nq_u128)cc.r.count == f.match,
               "trial %d (N=%d): %llu counted, %llu listed, %llu filtered",
               trial, n, (unsigned long long)c1.total,
               (unsigned long long)listed, f.match);
        CHECKF(cc.r.bad == 0 && cc.lost_given == 0, "trial %d: bad listing",
               trial);
    }
}

/* No givens: every solution is a completion (OEIS). */
static void completion_of_nothing(void *arg)
{
    (void)arg;
    for (int n = 1; n <= 14; n++) {
        int given[NQ_MAX_N];
        for (int r = 0; r < n; r++)
            given[r] = -1;
        nq_request req = {.size = sizeof(nq_request), .n = n, .threads = 2};
        nq_counts c;
        CHECK(nq_count_completions(&req, given, &c) == NQ_OK);
        CHECKF(c.total == t_oeis_total(n), "N=%d", n);
    }
}

/* Givens that attack each other are refused as invalid, a column off
 * the board as a bad argument. */
static void completion_refusals(void *arg)
{
    (void)arg;
    int attack[8] = {0, -1, 2, -1, -1, -1, -1, -1};
    int off[8] = {8, -1, -1, -1, -1, -1, -1, -1};
    nq_request req = {.size = sizeof(nq_request), .n = 8};
    nq_counts c;
    CHECK(nq_count_completions(&req, attack, &c) == NQ_ERR_INVALID);
    CHECK(nq_enumerate_completions(8, attack, list_none, NULL, NULL) ==
          NQ_ERR_INVALID);
    CHECK(nq_count_completions(&req, off, &c) == NQ_ERR_ARG);
}

/* complete on the command line: a count, a full listing read back and
 * checked against the givens, and "no completion" (exit 1). */
static void complete_cli(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("complete", "8", "--given", "0:0"));
    T_BAIL();
    int four = strncmp(p.out, "4 completions", 13) == 0;
    t_proc_free(&p);
    CHECK(four);
    t_run_ok(&p, ARGS("complete", "10", "--given", "0:1,4:0", "--all"));
    T_BAIL();
    int given[10] = {1, -1, -1, -1, 0, -1, -1, -1, -1, -1};
    completion_check cc = {given, {.n = 10}, 0};
    int cols[10];
    for (const char *s = p.out; *s; s = strchr(s, '\n') + 1)
        if (t_read_cols(s, cols, 10, ' ') == 0)
            check_completion(&cc, cols, 10);
        else
            cc.r.bad++;
    t_proc_free(&p);
    nq_counts want_counts;
    nq_request req = {.size = sizeof(nq_request), .n = 10, .threads = 1};
    CHECK(nq_count_completions(&req, given, &want_counts) == NQ_OK);
    nq_u128 want = want_counts.total;
    CHECKF((nq_u128)cc.r.count == want && cc.r.bad == 0 && !cc.lost_given,
           "%d listed, %d bad", cc.r.count, cc.r.bad);
    CHECK(t_run_cli(&p, ARGS("complete", "8", "--given", "0:0,1:2",
                             "--first")) == 0);
    int none = p.exit_code == 1 && strstr(p.err, "no completion");
    t_proc_free(&p);
    CHECK(none);
}

/* The library's counts and listings, then the command line. */
void tests_complete(void)
{
    t_case(completion_counts, NULL, "complete/vs-filtered");
    t_case(completion_of_nothing, NULL, "complete/nothing-given");
    t_case(completion_refusals, NULL, "complete/refusals");
    t_case(complete_cli, NULL, "complete/cli");
}

/*
 * test_find.c - finding one solution on boards far past counting, in the
 * library and on the command line; each placement is checked here by the
 * tests' own O(n) check, not the library's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct {
    int lo, hi, step;
    nq_find_method method;
    int seeds;
} find_case;

/* Every N of the case's range (each seed): a valid placement, or "no
 * solution" for N = 2 and 3, where none exists. */
static void find_range(void *arg)
{
    const find_case *fc = arg;
    int *cols = malloc(sizeof *cols * (size_t)fc->hi);
    CHECK(cols);
    int failed = 0;
    for (int n = fc->lo; n <= fc->hi && !failed; n += fc->step)
        for (int s = 0; s < fc->seeds && !failed; s++) {
            nq_status st = nq_find_solution(n, fc->method, (uint64_t)s, cols);
            if (n == 2 || n == 3)
                failed = st != NQ_ERR_NOSOLUTION ? n : 0;
            else
                failed = st != NQ_OK || !t_own_valid(cols, n) ? n : 0;
        }
    free(cols);
    CHECKF(!failed, "N=%d: no valid solution", failed);
}

/* Different seeds, different solutions; the same seed, the same one. */
static void find_seeds(void *arg)
{
    (void)arg;
    int a[64], b[64], c[64];
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 1, a) == NQ_OK);
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 1, b) == NQ_OK);
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 2, c) == NQ_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
}

/* The library's own O(n) check refuses broken large placements. */
static void large_check_refuses(void *arg)
{
    (void)arg;
    enum { N = 1000 };
    int cols[N];
    CHECK(nq_find_solution(N, NQ_FIND_FORMULA, 0, cols) == NQ_OK);
    CHECK(nq_check_placement(cols, N) == NQ_OK);
    int t = cols[10];
    cols[10] = cols[500]; /* two in one column */
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
    cols[10] = t, cols[11] = cols[10] + 1; /* a diagonal (maybe a column) */
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
    cols[11] = N;
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
}

/* find on the command line: the array read back and checked here. */
static void find_cli(void *arg)
{
    const char *method = arg;
    t_proc p;
    t_run_ok(&p, ARGS("find", "100000", "--method", method));
    T_BAIL();
    int *cols = malloc(sizeof *cols * 100000);
    int ok = cols && t_read_cols(p.out, cols, 100000, ' ') == 0 &&
             t_own_valid(cols, 100000);
    free(cols);
    t_proc_free(&p);
    CHECK(ok);
}

/* find --verify says it checked; N=3 says no solution exists (exit 1);
 * --format svg draws the one board found. */
static void find_cli_verify_and_none(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("find", "1000", "--verify")) == 0);
    int ok = p.exit_code == 0 && strstr(p.err, "verified: 1000 queens");
    t_proc_free(&p);
    CHECK(ok);
    CHECK(t_run_cli(&p, ARGS("find", "3")) == 0);
    ok = p.exit_code == 1 && p.out_len == 0 &&
         strstr(p.err, "no solution exists");
    t_proc_free(&p);
    CHECK(ok);
    t_run_ok(&p, ARGS("find", "12", "--format", "svg", "--method", "search"));
    T_BAIL();
    t_check_svg_boards(p.out, 12, 1);
    t_proc_free(&p);
}

/* Small boards every one, then single huge ones (odd and even, both
 * methods), then seeds, the large check and the command line. */
void tests_find(void)
{
    static const find_case finds[] = {
        {1, 200, 1, NQ_FIND_FORMULA, 1},
        {1, 200, 1, NQ_FIND_SEARCH, 3},
        {1000000, 1000000, 1, NQ_FIND_FORMULA, 1},
        {10000000, 10000000, 1, NQ_FIND_FORMULA, 1},
        {9999999, 9999999, 1, NQ_FIND_FORMULA, 1},
        {100000, 100000, 1, NQ_FIND_SEARCH, 2},
        {1000000, 1000000, 1, NQ_FIND_SEARCH, 1},
    };
    for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++)
        t_case(find_range, (void *)&finds[i], "find/%s/%d..%d",
               finds[i].method == NQ_FIND_SEARCH ? "search" : "formula",
               finds[i].lo, finds[i].hi);
    t_case(find_seeds, NULL, "find/seeds");
    t_case(large_check_refuses, NULL, "find/large-check-refuses");
    t_case(find_cli, "formula", "find/cli/formula");
    t_case(find_cli, "search", "find/cli/search");
    t_case(find_cli_verify_and_none, NULL, "find/cli-verify-none-svg");
}

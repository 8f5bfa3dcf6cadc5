/*
 * test_solutions.c - enumerated solutions: valid, distinct, in order, the
 * right number, the same list from every engine, and --unique right.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define LIST_MAX_N 10 /* 724 solutions: a list every engine makes quickly */

typedef struct {
    int n, count, cap, limit;
    int *cols; /* count rows of n */
} solution_list;

static int collect(void *ctx, const int *cols, int n)
{
    solution_list *l = ctx;
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        int *nc = realloc(l->cols, sizeof *nc * (size_t)cap * (size_t)n);
        if (!nc)
            return 1;
        l->cols = nc, l->cap = cap;
    }
    memcpy(l->cols + (size_t)l->count * (size_t)n, cols, sizeof *cols * (size_t)n);
    l->count++;
    return l->limit && l->count >= l->limit;
}

static nq_status list_solutions(const char *engine, int n, int iterative,
                                int unique_only, solution_list *l)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative,
                      .unique_only = unique_only};
    nq_counts c;
    memset(l, 0, sizeof *l);
    l->n = n;
    return nq_enumerate_solutions(&req, collect, l, &c);
}

static const int *row_of(const solution_list *l, int i)
{
    return l->cols + (size_t)i * (size_t)l->n;
}

static int lex_compare(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Valid placements, strictly increasing (hence distinct), as many as OEIS. */
static void check_list(const solution_list *l, nq_u128 expected)
{
    CHECKF((nq_u128)l->count == expected, "N=%d: %d solutions listed",
           l->n, l->count);
    for (int i = 0; i < l->count; i++) {
        CHECKF(nq_check_placement(row_of(l, i), l->n) == NQ_OK,
               "N=%d: solution %d is not a valid placement", l->n, i);
        CHECKF(i == 0 || lex_compare(row_of(l, i - 1), row_of(l, i), l->n) < 0,
               "N=%d: solutions %d and %d out of order or repeated", l->n, i - 1, i);
    }
}

typedef struct {
    const char *engine;
    int iterative, max_n;
} form;

static void lists_all_solutions(void *arg)
{
    const form *f = arg;
    for (int n = 1; n <= f->max_n; n++) {
        solution_list l, ref;
        CHECK(list_solutions(f->engine, n, f->iterative, 0, &l) == NQ_OK);
        CHECK(list_solutions("bitmap", n, 0, 0, &ref) == NQ_OK);
        check_list(&l, t_oeis_total(n));
        int same = l.count == ref.count &&
                   (l.count == 0 || memcmp(l.cols, ref.cols, sizeof *l.cols *
                                   (size_t)l.count * (size_t)n) == 0);
        free(l.cols);
        free(ref.cols);
        T_BAIL();
        CHECKF(same, "N=%d: list differs from the bitmap engine's", n);
    }
}

/* Distinct images of a solution, computed by building all eight. */
static int class_size(const int *cols, int n)
{
    int img[NQ_SYMMETRIES][NQ_MAX_N], distinct = 0;
    for (int k = 0; k < NQ_SYMMETRIES; k++) {
        int seen = 0;
        nq_transform_placement(cols, n, k, img[k]);
        for (int j = 0; j < k && !seen; j++)
            seen = memcmp(img[j], img[k], sizeof(int) * (size_t)n) == 0;
        distinct += !seen;
    }
    return distinct;
}

static void lists_unique_solutions(void *arg)
{
    const form *f = arg;
    for (int n = 1; n <= f->max_n; n++) {
        solution_list l;
        nq_u128 covered = 0;
        CHECK(list_solutions(f->engine, n, f->iterative, 1, &l) == NQ_OK);
        check_list(&l, t_oeis_unique(n));
        for (int i = 0; i < l.count && !t_failed(); i++) {
            int img[NQ_MAX_N];
            for (int k = 1; k < NQ_SYMMETRIES; k++) {
                nq_transform_placement(row_of(&l, i), n, k, img);
                if (lex_compare(img, row_of(&l, i), n) < 0)
                    t_fail(__FILE__, __LINE__, "N=%d: listed solution %d is "
                           "not the smallest of its class", n, i);
            }
            covered += (nq_u128)class_size(row_of(&l, i), n);
        }
        free(l.cols);
        T_BAIL();
        CHECKF(covered == t_oeis_total(n),
               "N=%d: the classes listed do not cover every solution", n);
    }
}

static void limit_stops_early(void *arg)
{
    (void)arg;
    solution_list l;
    nq_request req = {.size = sizeof(nq_request), .n = 10, .engine = "bitmap"};
    nq_counts c;
    for (int iterative = 0; iterative < 2; iterative++) {
        memset(&l, 0, sizeof l);
        l.n = 10, l.limit = 5, req.iterative = iterative;
        CHECK(nq_enumerate_solutions(&req, collect, &l, &c) == NQ_OK);
        free(l.cols);
        CHECKF(l.count == 5, "asked to stop after 5, got %d", l.count);
    }
}

void tests_solutions(void)
{
    static form forms[32];
    int k = 0;
    for (int i = 0; i < nq_engine_count() && k + 2 <= 32; i++) {
        const nq_engine *e = nq_engine_at(i);
        if (!(nq_engine_caps(e) & NQ_CAP_ENUMERATE))
            continue;
        int max_n = strcmp(nq_engine_name(e), "brute") == 0 ? 8 : LIST_MAX_N;
        for (int it = 0; it < 2; it++) {
            forms[k] = (form){nq_engine_name(e), it, max_n};
            t_case(lists_all_solutions, &forms[k], "solutions/%s/%s/all-1..%d",
                   forms[k].engine, it ? "iterative" : "recursive", max_n);
            t_case(lists_unique_solutions, &forms[k],
                   "solutions/%s/%s/unique-1..%d", forms[k].engine,
                   it ? "iterative" : "recursive", max_n);
            k++;
        }
    }
    t_case(limit_stops_early, NULL, "solutions/stop-after-k");
}

/*
 * test_engines.c - every engine, recursive and iterative, against the
 * known answers and against each other.
 */
#include <string.h>

#include "harness.h"

/* How far each engine is checked: a size it does in a few seconds at
 * most.  Every registered engine must be listed (a new engine gets
 * tested).  The sanitizer build, several times slower, stops the unit
 * engines earlier; it runs the same code paths. */
#if defined(__SANITIZE_ADDRESS__)
#define UNIT_MAX_N 13
#else
#define UNIT_MAX_N 16
#endif
static const struct {
    const char *name;
    int max_n;
    int tree; /* its node count is the plain backtracking tree */
} limits[] = {
    {"brute", 8, 0},    {"backtrack", 11, 1}, {"flags", 11, 1},
    {"bitmap", 14, 1},  {"mirror", 14, 0},    {"symmetry", 14, 0},
    {"carry", UNIT_MAX_N, 0}, {"fast", UNIT_MAX_N, 0},
    {"subunits", UNIT_MAX_N - 2, 0}, {"cuda", UNIT_MAX_N, 0},
};

/* The largest N an engine is tested to: 14 at most in the quick tier
 * (carry's N = 15 and 16 are seconds). */
static int limit_of(const char *name)
{
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (strcmp(limits[i].name, name) == 0)
            return t_quick() && limits[i].max_n > 14 ? 14 : limits[i].max_n;
    return 0;
}

static void every_engine_listed(void *arg)
{
    (void)arg;
    CHECK(nq_engine_count() >= 6);
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        CHECKF(limit_of(nq_engine_name(e)) > 0, "engine %s has no tests",
               nq_engine_name(e));
        CHECK(nq_engine_find(nq_engine_name(e)) == e);
        CHECK(nq_engine_max_n(e) >= 8 && nq_engine_max_n(e) <= NQ_MAX_N);
        CHECK(strlen(nq_engine_summary(e)) > 10);
    }
    CHECK(nq_engine_at(nq_engine_count()) == NULL);
    CHECK(nq_engine_find("no-such-engine") == NULL);
}

typedef struct {
    const char *engine;
    int iterative;
} form;

static nq_status count(const char *engine, int n, int iterative, nq_counts *c)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative};
    return nq_count_solutions(&req, c);
}

static void matches_oeis(void *arg)
{
    const form *f = arg;
    char got[NQ_U128_DIGITS], want[NQ_U128_DIGITS];
    for (int n = 1; n <= limit_of(f->engine); n++) {
        nq_counts c;
        CHECK(count(f->engine, n, f->iterative, &c) == NQ_OK);
        CHECKF(c.total == t_oeis_total(n), "N=%d total %s, OEIS A000170 says %s",
               n, nq_format_u128(c.total, got), nq_format_u128(t_oeis_total(n), want));
        CHECKF(c.unique == t_oeis_unique(n), "N=%d unique %s, OEIS A002562 says %s",
               n, nq_format_u128(c.unique, got), nq_format_u128(t_oeis_unique(n), want));
    }
}

/* A unit engine's count on `threads` threads. */
static nq_status count_on(const char *engine, int n, int threads, nq_counts *c)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .threads = threads};
    return nq_count_solutions(&req, c);
}

/* Node counts: the plain tree (OEIS A319235) for the engines that walk it,
 * 1 + N + ... + N^N for brute force; the same in both forms for the
 * classic engines, and for unit engines (one form) the same on 1 and 3
 * threads, whose units finish in another order. */
static void node_counts(void *arg)
{
    const form *f = arg;
    char got[NQ_U128_DIGITS], want[NQ_U128_DIGITS];
    int tree = 0;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (strcmp(limits[i].name, f->engine) == 0)
            tree = limits[i].tree;
    int units = nq_engine_caps(nq_engine_find(f->engine)) & NQ_CAP_UNITS;
    for (int n = 1; n <= limit_of(f->engine) && n <= 12; n++) {
        nq_counts rec, it;
        CHECK((units ? count_on(f->engine, n, 1, &rec)
                     : count(f->engine, n, 0, &rec)) == NQ_OK);
        CHECK((units ? count_on(f->engine, n, 3, &it)
                     : count(f->engine, n, 1, &it)) == NQ_OK);
        CHECKF(rec.nodes == it.nodes, "N=%d: %s %s nodes, %s %s", n,
               units ? "1 thread" : "recursive", nq_format_u128(rec.nodes, got),
               units ? "3 threads" : "iterative",
               nq_format_u128(it.nodes, want));
        CHECKF(rec.nodes > rec.total || units, "N=%d: fewer nodes than "
               "solutions", n);
        CHECKF(rec.nodes > 0 || n < 8, "N=%d: no nodes", n);
        nq_u128 expect = 0, power = 1;
        if (strcmp(f->engine, "brute") == 0)
            for (int k = 0; k <= n; k++, power *= (nq_u128)n)
                expect += power;
        else if (tree)
            expect = t_tree_nodes(n);
        if (expect)
            CHECKF(rec.nodes == expect, "N=%d: %s nodes, expected %s", n,
                   nq_format_u128(rec.nodes, got), nq_format_u128(expect, want));
    }
}

/* All engines give the same total and unique for every N they all reach. */
static void engines_agree(void *arg)
{
    (void)arg;
    for (int n = 1; n <= 14; n++) {
        nq_counts first = {0}, c;
        const char *first_name = NULL;
        for (int i = 0; i < nq_engine_count(); i++) {
            const char *name = nq_engine_name(nq_engine_at(i));
            if (n > limit_of(name))
                continue;
            CHECK(count(name, n, 0, &c) == NQ_OK);
            if (!first_name) {
                first = c;
                first_name = name;
            }
            CHECKF(c.total == first.total && c.unique == first.unique,
                   "N=%d: %s and %s disagree", n, name, first_name);
        }
    }
}

/* The point of mirror and symmetry is a smaller tree: mirror walks half of
 * bitmap's, symmetry well under a third. */
static void reductions_prune(void *arg)
{
    (void)arg;
    for (int n = 8; n <= 12; n++) {
        nq_counts bitmap, mirror, symmetry;
        CHECK(count("bitmap", n, 0, &bitmap) == NQ_OK);
        CHECK(count("mirror", n, 0, &mirror) == NQ_OK);
        CHECK(count("symmetry", n, 0, &symmetry) == NQ_OK);
        CHECKF(2 * mirror.nodes <= bitmap.nodes + 2, "N=%d: mirror walks more "
               "than half the tree", n);
        CHECKF(3 * symmetry.nodes < bitmap.nodes, "N=%d: symmetry walks a "
               "third of the tree or more", n);
    }
}

static void request_errors(void *arg)
{
    (void)arg;
    nq_counts c;
    nq_request req = {.size = sizeof(nq_request), .n = 0};
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_RANGE);
    req.n = NQ_MAX_N + 1;
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_RANGE);
    req.n = 8, req.engine = "no-such-engine";
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ENGINE);
    req.engine = "brute", req.n = nq_engine_max_n(nq_engine_find("brute")) + 1;
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_RANGE);
    req.engine = "mirror", req.n = 8;
    CHECK(nq_check_request(&req, 1) == NQ_ERR_UNSUPPORTED);
    CHECK(nq_count_solutions(&req, NULL) == NQ_ERR_ARG);
    CHECK(nq_count_solutions(NULL, &c) == NQ_ERR_ARG);
    CHECK(nq_enumerate_solutions(&req, NULL, NULL, &c) == NQ_ERR_ARG);
}

void tests_engines(void)
{
    static form forms[2 * 16];
    int k = 0;
    t_case(every_engine_listed, NULL, "engines/all-registered-and-tested");
    for (int i = 0; i < nq_engine_count() && k + 2 <= 32; i++)
        for (int it = 0; it < 2; it++) {
            /* unit engines have one form: the iterative one is the same */
            if (it && (nq_engine_caps(nq_engine_at(i)) & NQ_CAP_UNITS))
                continue;
            forms[k] = (form){nq_engine_name(nq_engine_at(i)), it};
            int one = nq_engine_caps(nq_engine_at(i)) & NQ_CAP_UNITS;
            t_case(matches_oeis, &forms[k], "engines/%s/%soeis-1..%d",
                   forms[k].engine, one ? "" : it ? "iterative/"
                   : "recursive/", limit_of(forms[k].engine));
            k++;
        }
    for (int i = 0; i < k; i++)
        if (!forms[i].iterative)
            t_case(node_counts, &forms[i], "engines/%s/node-counts",
                   forms[i].engine);
    t_case(engines_agree, NULL, "engines/all-agree-on-total-and-unique");
    t_case(reductions_prune, NULL, "engines/mirror-and-symmetry-prune");
    t_case(request_errors, NULL, "engines/request-errors");
}

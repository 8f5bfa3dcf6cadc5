/*
 * test_pieces.c - units cut into pieces by a time bound (src/search/
 * pieces.c, the cut in src/engines/plan.c): the pieces of every count add
 * up to OEIS (A000170, A002562), none is estimated over the bound, the
 * cut is the same on any number of threads and with any kernel, and the
 * bound is checked and named in the split.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct {
    int n;
    double bound;               /* seconds of the reference core */
    const char *engine;         /* that counts them: fast, or subunits (the
                                   GPU engines' batches, on the host) */
} cut_case;

static nq_status make_plan(int n, double bound, int threads,
                           const char *kernel, nq_plan **p)
{
    nq_request req = NQ_REQUEST_INIT;
    req.n = n, req.engine = "fast", req.threads = threads;
    req.max_unit_seconds = bound, req.kernel = kernel;
    return nq_plan_create(&req, p);
}

/* The whole plan's units, for comparison. */
static uint64_t whole_units(int n)
{
    nq_plan *p;
    uint64_t u = 0;
    if (make_plan(n, -1, 1, NULL, &p) == NQ_OK) {
        u = nq_plan_units(p);
        nq_plan_free(p);
    }
    return u;
}

/* The plan cut (more units than whole, its name saying the bound), no
 * unit estimated over the bound, and the count OEIS's. */
static void pieces_add_up(void *arg)
{
    const cut_case *c = arg;
    nq_plan *p;
    char want[64];
    CHECK(make_plan(c->n, c->bound, 0, NULL, &p) == NQ_OK);
    uint64_t units = nq_plan_units(p), over = 0;
    for (uint64_t i = 0; i < units; i++)
        over += nq_plan_unit_seconds(p, i) > c->bound;
    snprintf(want, sizeof want, "fast-ring/1,max=%.0fus", c->bound * 1e6);
    int named = !strcmp(nq_plan_split(p), want);
    char split[64];
    snprintf(split, sizeof split, "%s", nq_plan_split(p));
    nq_plan_free(p);
    CHECKF(named, "split '%s', not '%s'", split, want);
    CHECKF(units > whole_units(c->n), "%llu units: nothing cut",
           (unsigned long long)units);
    CHECKF(over == 0, "%llu pieces estimated over %g s",
           (unsigned long long)over, c->bound);
    nq_request req = NQ_REQUEST_INIT;
    nq_counts got;
    req.n = c->n, req.engine = c->engine, req.max_unit_seconds = c->bound;
    CHECK(nq_count_solutions(&req, &got) == NQ_OK);
    CHECK(got.total == t_oeis_total(c->n) && got.unique == t_oeis_unique(c->n));
}

/* One plan whatever the threads that cut it and the kernel it will
 * count with: the same identity and the same words for every unit. */
static void same_cut_anywhere(void *arg)
{
    (void)arg;
    nq_plan *ref, *other;
    const int threads[] = {2, 5};
    CHECK(make_plan(17, 2e-5, 1, "scalar", &ref) == NQ_OK);
    for (int k = 0; k < 2 && !t_failed(); k++) {
        CHECK(make_plan(17, 2e-5, threads[k], NULL, &other) == NQ_OK);
        int same = nq_plan_identity(ref) == nq_plan_identity(other) &&
                   nq_plan_units(ref) == nq_plan_units(other);
        for (uint64_t i = 0; same && i < nq_plan_units(ref); i++) {
            char a[512], b[512];
            nq_plan_describe(ref, i, a, sizeof a);
            nq_plan_describe(other, i, b, sizeof b);
            same = !strcmp(a, b);
        }
        nq_plan_free(other);
        CHECKF(same, "the cut on %d threads differs from one", threads[k]);
    }
    nq_plan_free(ref);
}

/* A bound no unit reaches cuts nothing: the plan is the whole one, its
 * name and identity those of every journal of whole units. */
static void uncut_plan_is_whole(void *arg)
{
    (void)arg;
    nq_plan *cut, *whole;
    CHECK(make_plan(14, 0, 0, NULL, &cut) == NQ_OK);
    CHECK(make_plan(14, -1, 0, NULL, &whole) == NQ_OK);
    int same = nq_plan_identity(cut) == nq_plan_identity(whole) &&
               !strcmp(nq_plan_split(cut), "fast-ring/1");
    nq_plan_free(cut);
    nq_plan_free(whole);
    CHECK(same);
}

/* Bounds that are no number of seconds are refused, in words. */
static void bound_checked(void *arg)
{
    (void)arg;
    const double bad[] = {NAN, INFINITY, 4.1e6, 1e300};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[256] = "";
        nq_request req = NQ_REQUEST_INIT;
        nq_plan *p = NULL;
        req.n = 12, req.max_unit_seconds = bad[i];
        req.why = why, req.why_size = sizeof why;
        nq_status st = nq_plan_create(&req, &p);
        nq_plan_free(p);
        CHECKF(st == NQ_ERR_ARG && strstr(why, "max_unit_seconds"),
               "bound %g: %s '%s'", bad[i], nq_strerror(st), why);
    }
}

/* A bound that would cut a board into more pieces than a plan may hold
 * is refused before cutting, naming the board. */
static void too_many_pieces_refused(void *arg)
{
    (void)arg;
    char why[256] = "";
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *p = NULL;
    req.n = 21, req.max_unit_seconds = 1e-6;
    req.why = why, req.why_size = sizeof why;
    nq_status st = nq_plan_create(&req, &p);
    nq_plan_free(p);
    CHECKF(st == NQ_ERR_ARG && strstr(why, "N=21") && strstr(why, "pieces"),
           "%s '%s'", nq_strerror(st), why);
}

/* Split names read back into the bound that makes them, and names no
 * plan of this release has read as none. */
static void split_names_read_back(void *arg)
{
    (void)arg;
    static const struct {
        const char *name;
        double seconds;
    } names[] = {
        {"fast-ring/1", -1},
        {"fast-ring/1,max=100us", 1e-4},
        {"fast-ring/1,max=3600000000us", 3600},
        {"fast-ring/1,max=0us", -1},
        {"fast-ring/1,max=0100us", -1},
        {"fast-ring/1,max=100ms", -1},
        {"fast-ring/1,max=us", -1},
        {"fast-ring/1,max=99999999999999999999us", -1},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double got = nq_split_max_unit_seconds(names[i].name);
        CHECKF(got == names[i].seconds, "'%s' read as %g, not %g",
               names[i].name, got, names[i].seconds);
    }
}

/* The default bound, an hour, cuts the first board that has a unit
 * estimated over it (N = 25, one unit of 4,460 s, whose pieces' finer
 * estimates add up to 3,460 s) and leaves none of its pieces over it. */
static void default_cuts_n25(void *arg)
{
    (void)arg;
    nq_plan *p;
    CHECK(make_plan(25, 0, 0, NULL, &p) == NQ_OK);
    double largest = 0;
    for (uint64_t i = 0; i < nq_plan_units(p); i++) {
        double s = nq_plan_unit_seconds(p, i);
        largest = s > largest ? s : largest;
    }
    int named = !strcmp(nq_plan_split(p), "fast-ring/1,max=3600000000us");
    nq_plan_free(p);
    CHECKF(named, "N=25 not cut at an hour");
    CHECKF(largest <= 3600 && largest > 1800, "largest piece %.0f s",
           largest);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* `units` lists the pieces, one a line, each with its estimate, none
 * over the bound, under a header naming the split. */
static void units_lists_pieces(void *arg)
{
    (void)arg;
    t_proc p;
    nq_plan *plan;
    CHECK(make_plan(17, 1e-4, 0, NULL, &plan) == NQ_OK);
    uint64_t want = nq_plan_units(plan), lines = 0, over = 0, rings = 0;
    nq_plan_free(plan);
    CHECK(t_run_cli(&p, ARGS("units", "17", "--max-unit-seconds", "0.0001"))
          == 0);
    int header = p.exit_code == 0 &&
                 strstr(p.out, "(plan fast-ring/1,max=100us)") == strchr(
                     p.out, '(');
    for (char *save, *line = strtok_r(p.out, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strrchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        lines++;
        if (strstr(line, "| weight")) {
            rings++;
            over += !(strtod(tab + 1, NULL) <= 1e-4);
        }
    }
    t_proc_free(&p);
    CHECK(header);
    CHECKF(lines == want && rings == want - 2 && over == 0,
           "%llu lines (%llu rings, %llu over the bound) for %llu units",
           (unsigned long long)lines, (unsigned long long)rings,
           (unsigned long long)over, (unsigned long long)want);
}

/* A number after "key": in a JSON line, or -1. */
static double member(const char *json, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *at = strstr(json, k);
    return at ? strtod(at + strlen(k), NULL) : -1;
}

/* `estimate --json` says how many pieces the count has and the largest
 * one's estimate, the plan's and this machine's. */
static void estimate_says_pieces(void *arg)
{
    (void)arg;
    t_proc p;
    nq_plan *plan;
    CHECK(make_plan(17, 1e-4, 0, NULL, &plan) == NQ_OK);
    double want = (double)nq_plan_units(plan);
    nq_plan_free(plan);
    CHECK(t_run_cli(&p, ARGS("estimate", "17", "--max-unit-seconds",
                             "0.0001", "--seconds", "0.5", "-t", "1",
                             "--json")) == 0);
    double pieces = member(p.out, "pieces"),
           ref = member(p.out, "largest_piece_reference_seconds"),
           here = member(p.out, "largest_piece_seconds"),
           bound = member(p.out, "max_unit_seconds");
    int ok = p.exit_code == 0;
    t_proc_free(&p);
    CHECKF(ok && pieces == want && ref > 5e-5 && ref <= 1e-4 && here > 0 &&
           bound == 1e-4, "pieces %g of %g, largest %g s (%g here), "
           "bound %g", pieces, want, ref, here, bound);
}

/* --max-unit-seconds takes seconds or 0: anything else is one line on
 * stderr naming the option, exit 2, for each command that takes it. */
static void option_checked(void *arg)
{
    (void)arg;
    static const char *const bad[] = {"junk", "-1", "5e6", "nan", "", "1e-9",
                                      "1s"};
    static const char *const commands[] = {"count", "units", "estimate"};
    for (size_t c = 0; c < 3; c++)
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            t_proc p;
            CHECK(t_run_cli(&p, ARGS(commands[c], "12", "--max-unit-seconds",
                                     bad[i])) == 0);
            int ok = p.exit_code == 2 && p.out_len == 0 &&
                     strstr(p.err, "--max-unit-seconds") &&
                     strchr(p.err, '\n') == p.err + p.err_len - 1;
            t_proc_free(&p);
            CHECKF(ok, "%s --max-unit-seconds '%s' not refused in a line",
                   commands[c], bad[i]);
        }
}

void tests_pieces(void)
{
    static const cut_case cases[] = {
        {16, 2e-5, "fast"}, {17, 2e-5, "fast"}, {17, 1e-4, "fast"},
        {18, 1e-4, "fast"}, {15, 5e-6, "subunits"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        (cases[i].n < 18 ? t_case : t_full_case)(
            pieces_add_up, (void *)&cases[i],
            "pieces/N=%d-cut-at-%gs-adds-up-to-oeis/%s", cases[i].n,
            cases[i].bound, cases[i].engine);
    t_case(same_cut_anywhere, NULL, "pieces/same-cut-on-any-threads-any-kernel");
    t_case(uncut_plan_is_whole, NULL, "pieces/nothing-cut-is-the-whole-plan");
    t_case(bound_checked, NULL, "pieces/bound-not-seconds-refused");
    t_case(too_many_pieces_refused, NULL, "pieces/too-many-pieces-refused");
    t_case(split_names_read_back, NULL, "pieces/split-names-read-back");
    t_full_case(default_cuts_n25, NULL, "pieces/default-hour-cuts-N=25");
    t_case(units_lists_pieces, NULL, "pieces/units-lists-pieces-with-estimates");
    t_case(estimate_says_pieces, NULL, "pieces/estimate-json-says-pieces");
    t_case(option_checked, NULL, "pieces/option-values-checked");
}

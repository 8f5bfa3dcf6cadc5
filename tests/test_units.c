/*
 * test_units.c - the unit engines (fast, carry): symmetric counts, threads,
 * plans that cover every solution exactly once, and the frontier kernels
 * agreeing with each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/core/bits.h"
#include "../src/search/frontier.h"

/* OEIS A032522 (solutions fixed by the half turn) and A033148 (fixed by
 * the quarter turn), n = 1..16, from https://oeis.org/A032522 and
 * https://oeis.org/A033148. */
static const unsigned long long a032522[17] = {
    0, 1, 0, 0, 2, 2, 4, 8, 4, 16, 12, 48, 80, 136, 420, 1240, 3000,
};
static const unsigned long long a033148[17] = {
    0, 1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64,
};

static void symmetric_counts(void *arg)
{
    (void)arg;
    for (int n = 1; n <= 16; n++) {
        nq_u128 p, r;
        CHECK(nq_count_symmetric_solutions(n, &p, &r) == NQ_OK);
        CHECKF(p == a032522[n], "N=%d: %llu fixed by the half turn, A032522 "
               "says %llu", n, (unsigned long long)p, a032522[n]);
        CHECKF(r == a033148[n], "N=%d: %llu fixed by the quarter turn, A033148 "
               "says %llu", n, (unsigned long long)r, a033148[n]);
        /* Burnside: classes = (T + P + 2R) / 8 for n > 1 */
        if (n > 1)
            CHECKF((t_oeis_total(n) + p + 2 * r) / 8 == t_oeis_unique(n),
                   "N=%d: Burnside does not give OEIS A002562", n);
    }
    CHECK(nq_count_symmetric_solutions(0, NULL, NULL) == NQ_ERR_RANGE);
}

typedef struct {
    const char *engine;
    int n;
} board;

static void same_for_any_threads(void *arg)
{
    const board *b = arg;
    static const int threads[] = {1, 2, 3, 8};
    nq_counts first = {0};
    for (int i = 0; i < 4; i++) {
        nq_request req = {.size = sizeof req, .n = b->n, .engine = b->engine,
                          .threads = threads[i]};
        nq_counts c;
        CHECK(nq_count_solutions(&req, &c) == NQ_OK);
        CHECKF(c.total == t_oeis_total(b->n) && c.unique == t_oeis_unique(b->n),
               "%d threads: wrong count", threads[i]);
        if (i == 0)
            first = c;
        CHECKF(c.nodes == first.nodes, "%d threads: node count differs",
               threads[i]);
    }
}

/* ---- plans cover every solution exactly once ---- */

typedef struct {
    int n, count;
    int (*cols)[NQ_MAX_N];
} all_solutions;

static int keep_solution(void *ctx, const int *cols, int n)
{
    all_solutions *a = ctx;
    memcpy(a->cols[a->count++], cols, sizeof(int) * (size_t)n);
    return 0;
}

static int load_solutions(int n, all_solutions *a)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "bitmap"};
    nq_counts c;
    a->n = n, a->count = 0;
    a->cols = malloc(sizeof *a->cols * (size_t)t_oeis_total(n) + 1);
    return a->cols && nq_enumerate_solutions(&req, keep_solution, a, &c) == NQ_OK;
}

/* A unit's description: "r:c r:c ..." queens, then either "weight W" (carry)
 * or "| weight W for R:b,b,..." groups (fast: the bottom row's columns). */
typedef struct {
    int count, r[NQ_MAX_N], c[NQ_MAX_N];
    int below;                  /* fast corner rule: column 1's queen below
                                   this row, or -1 */
    int weight;                 /* carry */
    int bottom_weight[NQ_MAX_N]; /* fast: weight by bottom column, 0 = none */
    int special;                /* a unit with no queens (symmetric search) */
} unit_text;

static void parse_unit(const char *text, int n, unit_text *u)
{
    const char *s = text;
    int r, c, k;
    memset(u, 0, sizeof *u);
    while (sscanf(s, " %d:%d%n", &r, &c, &k) == 2) {
        u->r[u->count] = r, u->c[u->count++] = c;
        s += k;
    }
    u->special = u->count == 0;
    const char *rule = strstr(s, "column 1 below row ");
    u->below = rule ? atoi(rule + strlen("column 1 below row ")) : -1;
    const char *w = strstr(s, "weight");
    if (w && sscanf(w, "weight %d for%n", &u->weight, &k) == 1 &&
        strstr(w, " for ")) {
        /* fast: "weight W for n-1:b,b | weight W2 for ..." */
        for (; w; w = strstr(w + 1, "weight")) {
            int weight, row;
            const char *list;
            if (sscanf(w, "weight %d for %d:", &weight, &row) != 2 || row != n - 1)
                break;
            list = strchr(w, ':') + 1;
            while (sscanf(list, "%d%n", &c, &k) == 1) {
                u->bottom_weight[c] = weight;
                list += k;
                if (*list != ',')
                    break;
                list++;
            }
        }
        u->weight = 0;
    } else if (w) {
        sscanf(w, "weight %d", &u->weight);
    }
}

static int holds(const unit_text *u, const int *cols)
{
    for (int q = 0; q < u->count; q++)
        if (cols[u->r[q]] != u->c[q])
            return 0;
    for (int r = 0; r <= u->below; r++)
        if (cols[r] == 1)
            return 0;
    return 1;
}

/* For every unit, what it reports must be what plain enumeration finds:
 * the solutions holding its queens, each counted with its weight; and the
 * units' sum is the total. */
static void units_cover(void *arg)
{
    const board *b = arg;
    all_solutions all;
    nq_plan *plan;
    nq_request req = {.size = sizeof req, .n = b->n, .engine = b->engine};
    CHECK(load_solutions(b->n, &all));
    if (nq_plan_create(&req, &plan) != NQ_OK) {
        free(all.cols);
        CHECK(!"plan");
    }
    nq_u128 sum = 0;
    for (uint64_t i = 0; i < nq_plan_units(plan) && !t_failed(); i++) {
        char text[512];
        unit_text u;
        nq_tally t;
        nq_plan_describe(plan, i, text, sizeof text);
        parse_unit(text, b->n, &u);
        if (nq_plan_run_unit(plan, i, &t) != NQ_OK) {
            t_fail(__FILE__, __LINE__, "unit %llu failed", (unsigned long long)i);
            break;
        }
        if (u.special)
            continue;
        nq_u128 expect = 0;
        for (int s = 0; s < all.count; s++)
            if (holds(&u, all.cols[s]))
                expect += (nq_u128)(u.weight ? u.weight
                                    : u.bottom_weight[all.cols[s][b->n - 1]]);
        if (t.total != expect)
            t_fail(__FILE__, __LINE__, "unit %llu (%s): %llu, enumeration "
                   "gives %llu", (unsigned long long)i, text,
                   (unsigned long long)t.total, (unsigned long long)expect);
        sum += t.total;
    }
    nq_plan_free(plan);
    free(all.cols);
    T_BAIL();
    CHECKF(sum == t_oeis_total(b->n), "units sum to %llu",
           (unsigned long long)sum);
}

/* Carry: every solution's frame lies in the orbit of exactly one unit. */
static void carry_orbits_exact(void *arg)
{
    const board *b = arg;
    int n = b->n;
    all_solutions all;
    nq_plan *plan;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "carry"};
    CHECK(load_solutions(n, &all));
    if (nq_plan_create(&req, &plan) != NQ_OK) {
        free(all.cols);
        CHECK(!"plan");
    }
    uint64_t units = nq_plan_units(plan);
    unit_text *u = calloc(units, sizeof *u);
    for (uint64_t i = 0; u && i < units; i++) {
        char text[512];
        nq_plan_describe(plan, i, text, sizeof text);
        parse_unit(text, n, &u[i]);
    }
    for (int s = 0; s < all.count && u && !t_failed(); s++) {
        int hits = 0, img[NQ_SYMMETRIES][NQ_MAX_N];
        for (int k = 0; k < NQ_SYMMETRIES; k++)
            nq_transform_placement(all.cols[s], n, k, img[k]);
        for (uint64_t i = 0; i < units; i++) {
            int any = 0;
            for (int k = 0; k < NQ_SYMMETRIES && !any; k++)
                any = holds(&u[i], img[k]);
            hits += any;
        }
        if (hits != 1)
            t_fail(__FILE__, __LINE__, "solution %d is in %d units' orbits", s,
                   hits);
    }
    free(u);
    nq_plan_free(plan);
    free(all.cols);
}

/* Two plans of the same board list the same units, in the same order. */
static void plans_deterministic(void *arg)
{
    const board *b = arg;
    nq_plan *p1, *p2;
    nq_request req = {.size = sizeof req, .n = b->n, .engine = b->engine};
    CHECK(nq_plan_create(&req, &p1) == NQ_OK);
    if (nq_plan_create(&req, &p2) != NQ_OK) {
        nq_plan_free(p1);
        CHECK(!"second plan");
    }
    int same = nq_plan_units(p1) == nq_plan_units(p2);
    for (uint64_t i = 0; same && i < nq_plan_units(p1); i++) {
        char a[512], c[512];
        nq_plan_describe(p1, i, a, sizeof a);
        nq_plan_describe(p2, i, c, sizeof c);
        same = strcmp(a, c) == 0 && a[0];
    }
    nq_plan_free(p1);
    nq_plan_free(p2);
    CHECK(same);
}

void tests_units(void)
{
    static const board threads[] = {{"fast", 13}, {"carry", 11}};
    static const board cover[] = {
        {"carry", 6}, {"carry", 8}, {"carry", 9}, {"fast", 7}, {"fast", 9},
        {"fast", 10}, {"fast", 12},
    };
    static const board orbits[] = {{"carry", 8}, {"carry", 9}};
    static const board plans[] = {{"carry", 12}, {"fast", 16}};
    t_case(symmetric_counts, NULL, "units/half-and-quarter-turn-vs-oeis");
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        t_case(same_for_any_threads, (void *)&threads[i],
               "units/%s/N=%d/threads-1-2-3-8-agree", threads[i].engine,
               threads[i].n);
    for (size_t i = 0; i < sizeof cover / sizeof cover[0]; i++)
        t_case(units_cover, (void *)&cover[i], "units/%s/N=%d/each-unit-vs-"
               "enumeration", cover[i].engine, cover[i].n);
    for (size_t i = 0; i < sizeof orbits / sizeof orbits[0]; i++)
        t_case(carry_orbits_exact, (void *)&orbits[i],
               "units/carry/N=%d/each-solution-in-one-orbit", orbits[i].n);
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
        t_case(plans_deterministic, (void *)&plans[i],
               "units/%s/N=%d/plan-deterministic", plans[i].engine, plans[i].n);
}

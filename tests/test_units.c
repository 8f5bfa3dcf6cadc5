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
#include "../src/engines/frontier.h"
#include "../src/engines/simd.h"

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
        nq_request req = {.n = b->n, .engine = b->engine, .threads = threads[i]};
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
    nq_request req = {.n = n, .engine = "bitmap"};
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
    nq_request req = {.n = b->n, .engine = b->engine};
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
    nq_request req = {.n = n, .engine = "carry"};
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
    nq_request req = {.n = b->n, .engine = b->engine};
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

/* ---- the two frontier kernels agree ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

typedef struct {
    int left, *out;
} pick_ctx;

static int pick_solution(void *ctx, const int *cols, int n)
{
    pick_ctx *p = ctx;
    memcpy(p->out, cols, sizeof(int) * (size_t)n);
    return --p->left <= 0;
}

/* A random job: a random solution of an n-board (8 <= n <= 18) with 3 to 10
 * of its rows emptied (always the last), and half the time two of the kept
 * queens swapping columns, so that many jobs have no completion.  The
 * queens kept rule out squares of the emptied rows; the last row's columns
 * get random weights. */
static void random_job(nq_frontier *j, nq_frontier_state *s)
{
    int n = 8 + (int)(rng() % 11), cols[NQ_MAX_N], empty[NQ_MAX_N] = {0};
    int rows[NQ_MAX_N], k = 0;
    pick_ctx pick = {1 + (int)(rng() % 200), cols};
    nq_request req = {.n = n, .engine = "bitmap"};
    nq_counts c;
    nq_enumerate_solutions(&req, pick_solution, &pick, &c);
    empty[n - 1] = 1;
    for (int e = 3 + (int)(rng() % 8); e > 1; e--)
        empty[rng() % (uint64_t)n] = 1;
    int r1 = (int)(rng() % (uint64_t)n), r2 = (int)(rng() % (uint64_t)n);
    if ((rng() & 1) && !empty[r1] && !empty[r2]) {
        int t = cols[r1];
        cols[r1] = cols[r2], cols[r2] = t;
    }
    memset(j, 0, sizeof *j);
    j->full = (1u << n) - 1;
    uint32_t used = 0;
    for (int r = 0; r < n; r++) {
        if (empty[r])
            rows[k++] = r;
        else
            used |= 1u << cols[r];
    }
    j->rows = k;
    for (int i = 0; i < k; i++) {
        uint32_t open = j->full & ~used;
        for (int q = 0; q < n; q++) {
            int d = rows[i] > q ? rows[i] - q : q - rows[i];
            if (empty[q])
                continue;
            if (cols[q] + d < n)
                open &= ~(1u << (cols[q] + d));
            if (cols[q] - d >= 0)
                open &= ~(1u << (cols[q] - d));
        }
        j->open[i] = open;
        j->gap[i] = (uint8_t)(i + 1 < k ? rows[i + 1] - rows[i] : 1);
    }
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        j->weight_cols[w] = (uint32_t)rng() & j->full;
        j->weight[w] = 1u << w;
    }
    *s = (nq_frontier_state){used, 0, 0};
}

static void kernels_agree(void *arg)
{
    (void)arg;
    nq_frontier_work *w = nq_frontier_work_new();
    CHECK(w);
    for (int t = 0; t < 2000 && !t_failed(); t++) {
        nq_frontier j;
        nq_frontier_state s;
        uint64_t n1 = 0, n2 = 0;
        random_job(&j, &s);
        uint64_t a = nq_frontier_count_scalar(&j, s, &n1);
        uint64_t b = nq_frontier_count(&j, s, w, &n2);
        if (a != b)
            t_fail(__FILE__, __LINE__, "job %d (%d rows): scalar %llu, "
                   "kernel %llu", t, j.rows, (unsigned long long)a,
                   (unsigned long long)b);
    }
    nq_frontier_work_free(w);
}

#if NQ_SIMD_LANES
/* The lane operations the vector kernel is built on, for every mask: a
 * wrong table entry would drop or duplicate partial placements only for
 * the masks that use it, which random jobs might never meet. */
static void simd_every_mask(void *arg)
{
    (void)arg;
    enum { L = NQ_SIMD_LANES };
    uint32_t in[L], old[L], out[L];
    nq_simd_init();
    for (int i = 0; i < L; i++)
        in[i] = 100 + (uint32_t)i, old[i] = 1000 + (uint32_t)i;
    for (unsigned m = 0; m <= V_ALL && !t_failed(); m++) {
        v_store(out, v_expand(v_load(old), (vmask)m, v_sel((vmask)m), in));
        for (int i = 0, k = 0; i < L; i++) {
            uint32_t want = m >> i & 1 ? in[k++] : old[i];
            CHECKF(out[i] == want, "expand, mask %#x, lane %d", m, i);
        }
        v_store(out, v_blend(v_load(old), v_sel((vmask)m), v_load(in)));
        for (int i = 0; i < L; i++)
            CHECKF(out[i] == (m >> i & 1 ? in[i] : old[i]),
                   "blend, mask %#x, lane %d", m, i);
        v_compress(out, (vmask)m, v_load(in));
        for (int i = 0, k = 0; i < L; i++)
            if (m >> i & 1)
                CHECKF(out[k++] == in[i], "compress, mask %#x, lane %d", m, i);
        CHECK(v_nonzero(v_and(v_load(in), v_zero())) == 0);
        for (int c = 0; c < nq_popcount(m); c++) {
            unsigned want = m, got = v_first_lanes((vmask)m, (size_t)c);
            while (nq_popcount(want) > c)
                want &= ~(1u << (31 - __builtin_clz(want)));
            CHECKF(got == want, "first %d lanes of %#x: %#x", c, m, got);
        }
    }
}
#endif

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
#if NQ_SIMD_LANES
    t_case(simd_every_mask, NULL, "units/simd-%d-lanes-every-mask",
           NQ_SIMD_LANES);
#endif
    if (nq_frontier_vectorized())
        t_case(kernels_agree, NULL, "units/frontier-kernels-agree-%d-lane-"
               "vector-vs-scalar", nq_frontier_vectorized());
    else
        t_case(kernels_agree, NULL, "units/frontier-kernels-agree-scalar-only");
}

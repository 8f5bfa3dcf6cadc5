/*
 * test_plans.c - what journals are keyed by: the plan identity, computed
 * here from doc/journal-format.md's definition, and a pinned digest of
 * what every unit of every plan counts, which fails when a unit split
 * changes without a new plan name (and not when a description is
 * reworded: that must orphan no journal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The parameters of each plan, as the format document lists them. */
static const struct {
    const char *engine, *plan;
    uint32_t param[4];
} plans[] = {
    {"fast", "fast-ring/1", {4, 12, 0, 0}},
    {"subunits", "fast-ring/1", {4, 12, 0, 0}},
    {"carry", "carry-frame/1", {4, 2, 0, 0}},
};
#define PLANS (sizeof plans / sizeof plans[0])

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fnv_le(uint64_t h, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        unsigned char b = (unsigned char)(v >> (8 * i));
        h = fnv(h, &b, 1);
    }
    return h;
}

/* The identity by the document's recipe. */
static uint64_t documented_identity(int k, int n, uint64_t units)
{
    uint64_t h = fnv(0xcbf29ce484222325ull, "nqueens-plan", 13); /* and its NUL */
    h = fnv_le(h, (uint64_t)n, 4);
    h = fnv(h, plans[k].plan, strlen(plans[k].plan) + 1);
    for (int i = 0; i < 4; i++)
        h = fnv_le(h, plans[k].param[i], 4);
    return fnv_le(h, units, 8);
}

static nq_plan *make_plan(const char *engine, int n)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = engine};
    nq_plan *p = NULL;
    return nq_plan_create(&req, &p) == NQ_OK ? p : NULL;
}

static void identity_as_documented(void *arg)
{
    (void)arg;
    for (size_t k = 0; k < PLANS; k++)
        for (int n = 1; n <= (k == 2 ? 12 : 16); n++) { /* carry's are big */
            nq_plan *p = make_plan(plans[k].engine, n);
            CHECKF(p, "%s N=%d: no plan", plans[k].engine, n);
            int same = nq_plan_identity(p) ==
                           documented_identity((int)k, n, nq_plan_units(p)) &&
                       !strcmp(nq_plan_split(p), plans[k].plan);
            nq_plan_free(p);
            CHECKF(same, "%s N=%d: identity differs from the document",
                   plans[k].engine, n);
        }
}

/* Engines that share a split share the identity; different N, plans and
 * unit counts do not collide here. */
static void identities_distinct(void *arg)
{
    (void)arg;
    uint64_t seen[2 * 16];
    int k = 0;
    for (int e = 0; e < 3; e += 2) /* fast and carry */
        for (int n = 1; n <= (e ? 12 : 16); n++) {
            nq_plan *p = make_plan(plans[e].engine, n), *q;
            CHECK(p);
            seen[k] = nq_plan_identity(p);
            for (int i = 0; i < k; i++)
                CHECKF(seen[i] != seen[k], "%s N=%d collides", plans[e].engine,
                       n);
            q = make_plan("subunits", n);
            int shared = e != 0 || (q && nq_plan_identity(q) == seen[k]);
            nq_plan_free(q);
            nq_plan_free(p);
            CHECKF(shared, "subunits N=%d does not share fast's plan", n);
            k++;
        }
}

static nq_status keep_tally(void *ctx, uint64_t unit, const nq_tally *t)
{
    ((nq_tally *)ctx)[unit] = *t;
    return NQ_OK;
}

/* FNV-1a over the units in order: id and the four counts, 16 bytes
 * little-endian each.  The units run on the thread pool, each reported
 * into its own slot. */
static uint64_t units_digest(const nq_plan *p)
{
    uint64_t h = 0xcbf29ce484222325ull, units = nq_plan_units(p);
    nq_tally *all = calloc(units, sizeof *all), sum = {0};
    nq_run_options o = {.on_unit = keep_tally, .ctx = all};
    if (!all || nq_plan_run(p, &o, &sum) != NQ_OK) {
        free(all);
        return 0;
    }
    for (uint64_t u = 0; u < units; u++) {
        nq_tally t = all[u];
        nq_u128 v[5] = {u, t.total, t.unique, t.fixed180, t.fixed90};
        for (int i = 0; i < 5; i++)
            h = fnv_le(fnv_le(h, (uint64_t)v[i], 8), (uint64_t)(v[i] >> 64), 8);
    }
    free(all);
    return h;
}

/* tests/data/plan-digests.tsv: plan, engine, N, units, digest.  A split that
 * changes must come with a new plan name and new lines here. */
static void splits_pinned(void *arg)
{
    (void)arg;
    FILE *f = fopen(t_data_path("plan-digests.tsv"), "r");
    char line[256], plan[64], engine[32];
    int n, rows = 0;
    unsigned long long units, digest;
    CHECKF(f, "no %s", t_data_path("plan-digests.tsv"));
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %31s %d %llu %llx", plan,
                                     engine, &n, &units, &digest) != 5)
            continue;
        nq_plan *p = make_plan(engine, n);
        int same = p && !strcmp(nq_plan_split(p), plan) &&
                   nq_plan_units(p) == units && units_digest(p) == digest;
        nq_plan_free(p);
        if (!same)
            fclose(f);
        CHECKF(same, "plan %s N=%d split differently: give it a new name",
               plan, n);
        rows++;
    }
    fclose(f);
    CHECKF(rows == 24, "%d rows, not 24", rows);
}

/* The units one thread ran, in the order it ran them. */
typedef struct {
    uint64_t *order, count;
    double *nodes; /* by unit */
} run_log;

static nq_status log_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    run_log *l = ctx;
    l->order[l->count++] = unit;
    l->nodes[unit] = (double)t->nodes;
    return NQ_OK;
}

/* How far an ETA taken from the fraction of units done strays from the
 * truth, work being the units' search nodes (what their time follows,
 * bench/RESULTS.md): the worst ratio, either way, of the estimated to the
 * true time left, once 10% and until 90% of the work is done. */
static double eta_error(const uint64_t *order, const double *nodes,
                        uint64_t count)
{
    double total = 0, done = 0, worst = 1;
    for (uint64_t i = 0; i < count; i++)
        total += nodes[order[i]];
    for (uint64_t i = 0; i < count; i++) {
        double ft = (done += nodes[order[i]]) / total;
        double fe = (double)(i + 1) / (double)count;
        if (ft < 0.1 || ft > 0.9 || fe >= 1)
            continue;
        double r = (1 - fe) / fe / ((1 - ft) / ft);
        worst = r > worst ? r : 1 / r > worst ? 1 / r : worst;
    }
    return worst;
}

/* The runner takes a plan's units in an order that makes "k of K units"
 * a fair measure of the work: the ETA is within 1.5 times the truth after
 * 10% of the run.  The plan's own order would not be (its early units are
 * the large ones): that it fails the same measure shows the measure can
 * fail. */
static void run_order_fair(void *arg)
{
    (void)arg;
    nq_plan *p = make_plan("fast", 14);
    CHECK(p);
    uint64_t units = nq_plan_units(p), *plan_order = NULL;
    run_log l = {calloc(units, sizeof *l.order), 0,
                 calloc(units, sizeof *l.nodes)};
    nq_run_options o = {.threads = 1, .on_unit = log_unit, .ctx = &l};
    nq_tally sum = {0};
    int ok = l.order && l.nodes && nq_plan_run(p, &o, &sum) == NQ_OK &&
             (plan_order = calloc(units, sizeof *plan_order));
    nq_plan_free(p);
    double run = ok ? eta_error(l.order, l.nodes, l.count) : 0, planned = 0;
    for (uint64_t u = 0; ok && u < units; u++)
        plan_order[u] = u;
    if (ok)
        planned = eta_error(plan_order, l.nodes, units);
    free(l.order), free(l.nodes), free(plan_order);
    CHECK(ok && l.count == units);
    CHECKF(run <= 1.5, "ETA off %.2f times in the runner's order", run);
    CHECKF(planned > 1.5, "the plan's own order is off only %.2f times: "
           "the measure may not tell", planned);
}

void tests_plans(void)
{
    t_case(identity_as_documented, NULL, "plans/identity-as-documented");
    t_case(identities_distinct, NULL, "plans/identities-distinct-or-shared");
    t_case(splits_pinned, NULL, "plans/unit-splits-pinned");
    t_case(run_order_fair, NULL, "plans/run-order-makes-an-honest-eta");
}

/*
 * test_gpu.c - the GPU engine's work, checked on the CPU: the sub-unit
 * plan covers every unit's solutions exactly once, and the per-thread
 * search (dfs.h, the code a GPU thread runs) counts them right.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/engines/subunits.h"

typedef struct {
    int n, depth;
} cut;

static int compare_subs(const void *a, const void *b)
{
    const nq_subunit *x = a, *y = b;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    return x->path < y->path ? -1 : x->path > y->path;
}

/* Each unit's sub-units sum to the unit's own count (the vector kernel's),
 * and no two sub-units of a unit pre-place the same queens: together, each
 * solution of the unit lies in exactly one sub-unit. */
static void subunits_partition_units(void *arg)
{
    const cut *c = arg;
    nq_request req = {.n = c->n, .engine = "fast"};
    nq_plan *plan;
    nq_batch b;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    uint64_t units = nq_plan_units(plan), *ids = malloc(units * sizeof *ids);
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    if (!ids || nq_batch_build(plan, ids, units, c->depth, &b) != NQ_OK) {
        free(ids);
        nq_plan_free(plan);
        CHECK(!"batch");
    }
    uint64_t *counts = calloc(b.jobs + 1, sizeof *counts), nodes = 0;
    nq_batch_run_host(&b, counts, &nodes, NULL);
    for (uint32_t j = 0; counts && j < b.jobs && !t_failed(); j++) {
        nq_tally t;
        if (nq_plan_run_unit(plan, b.unit[j], &t) != NQ_OK || t.total != counts[j])
            t_fail(__FILE__, __LINE__, "unit %llu: sub-units give %llu, the "
                   "unit %llu", (unsigned long long)b.unit[j],
                   (unsigned long long)counts[j], (unsigned long long)t.total);
    }
    qsort(b.sub, b.subs, sizeof *b.sub, compare_subs);
    for (uint64_t q = 1; q < b.subs && !t_failed(); q++)
        if (b.sub[q].job == b.sub[q - 1].job && b.sub[q].path == b.sub[q - 1].path)
            t_fail(__FILE__, __LINE__, "two sub-units of job %u pre-place the "
                   "same queens", b.sub[q].job);
    int cut_some = c->depth == 0 || b.subs > b.jobs;
    free(counts);
    free(ids);
    nq_batch_free(&b);
    nq_plan_free(plan);
    T_BAIL();
    CHECKF(cut_some, "depth %d cut no unit", c->depth);
}

void tests_gpu(void)
{
    static const cut cuts[] = {
        {8, 0}, {8, 1}, {10, 2}, {12, 1}, {12, 3}, {13, 2}, {14, 4},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        t_case(subunits_partition_units, (void *)&cuts[i],
               "gpu/N=%d/depth-%d/sub-units-partition-each-unit", cuts[i].n,
               cuts[i].depth);
}

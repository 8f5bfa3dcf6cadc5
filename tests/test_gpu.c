/*
 * test_gpu.c - the GPU engine's work, checked on the CPU: the sub-unit
 * plan covers every unit's solutions exactly once, and the per-thread
 * search (dfs.h, the code a GPU thread runs) counts them right.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../src/engines/subunits.h"

typedef struct {
    int n, depth, even; /* even: heavy sub-units cut deeper */
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
    if (!ids || nq_batch_build(plan, ids, units, c->depth, &b) != NQ_OK ||
        (c->even && nq_batch_even_out(&b) != NQ_OK)) {
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
    int deeper = 0;
    for (uint64_t q = 0; q < b.subs; q++)
        deeper |= (int)b.sub[q].from > c->depth;
    int cut_some = (c->depth == 0 || b.subs > b.jobs) && deeper == c->even;
    free(counts);
    free(ids);
    nq_batch_free(&b);
    nq_plan_free(plan);
    T_BAIL();
    CHECKF(cut_some, "depth %d cut no unit, or evening out cut %s",
           c->depth, deeper ? "some deeper unasked" : "none deeper");
}

static nq_status keep_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    ((nq_tally *)ctx)[unit] = *t;
    return NQ_OK;
}

/* The plan of fast for n and every unit's tally from the vector or
 * scalar kernel, run on the thread pool (the reference). */
static nq_plan *reference(int n, nq_tally **tallies)
{
    nq_request req = {.n = n, .engine = "fast"};
    nq_plan *plan;
    if (nq_plan_create(&req, &plan) != NQ_OK)
        return NULL;
    nq_tally sum = {0};
    *tallies = calloc(nq_plan_units(plan), sizeof **tallies);
    nq_run_options o = {.on_unit = keep_unit, .ctx = *tallies};
    if (!*tallies || nq_plan_run(plan, &o, &sum) != NQ_OK) {
        free(*tallies);
        nq_plan_free(plan);
        return NULL;
    }
    return plan;
}

/* The GPU kernel's per-thread body, run on the host over every sub-unit
 * of N (blocks of NQ_GPU_BLOCK threads emulated one thread after another,
 * their stacks interleaved as in shared memory), cut at the depth the
 * GPU engine uses: each unit as the fast engine counts it, and the board
 * as OEIS has it. */
static void kernel_body_vs_oeis(void *arg)
{
    int n = (int)(intptr_t)arg;
    nq_tally *want, *got = NULL, sum = {0};
    nq_plan *plan = reference(n, &want);
    CHECK(plan);
    uint64_t units = nq_plan_units(plan), *ids = malloc(units * sizeof *ids);
    nq_unit_env env = {0};
    nq_batch b;
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    int ok = ids && (got = calloc(units, sizeof *got)) &&
             nq_batch_build(plan, ids, units, nq_batch_depth(n), &b) == NQ_OK;
    uint64_t *counts = ok ? calloc(b.jobs + 1, sizeof *counts) : NULL;
    if (counts) {
        nq_batch_run_host(&b, counts, &(uint64_t){0}, NULL);
        ok = nq_batch_finish(plan, &b, ids, units, counts, 0, NQ_OK, &env,
                             got) == NQ_OK;
    } else if (ok) {
        nq_batch_free(&b), ok = 0;
    }
    uint64_t bad = units;
    for (uint64_t u = 0; ok && u < units; u++) {
        if (got[u].total != want[u].total && bad == units)
            bad = u;
        nq_tally_add(&sum, &got[u]);
    }
    nq_counts c = {0};
    ok = ok && bad == units && nq_plan_finish(plan, &sum, &c) == NQ_OK;
    free(ids), free(got), free(want);
    nq_plan_free(plan);
    CHECKF(bad == units, "N=%d unit %llu: the kernel body disagrees with "
           "fast", n, (unsigned long long)bad);
    CHECK(ok);
    CHECKF(c.total == t_oeis_total(n) && c.unique == t_oeis_unique(n),
           "N=%d: not OEIS's counts", n);
}

/* The stacks' layout: a thread writes only its own column of the block's
 * array (words t, t + BLOCK, ...); the rest, filled with a pattern, is
 * found as it was after each of a block's threads has run. */
static void stacks_stay_in_their_column(void *arg)
{
    (void)arg;
    static uint32_t shared[NQ_MAX_N * NQ_GPU_BLOCK];
    nq_request req = {.n = 12, .engine = "fast"};
    nq_plan *plan;
    nq_batch b;
    uint64_t ids[8] = {2, 3, 4, 5, 6, 7, 8, 9}, c, placed = 0;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    int built = nq_batch_build(plan, ids, 8, 1, &b) == NQ_OK;
    nq_plan_free(plan);
    CHECK(built);
    int rows = nq_batch_stack_rows(&b), clean = 1;
    for (uint64_t q = 0; q < b.subs && q < NQ_GPU_BLOCK && clean; q++) {
        for (size_t w = 0; w < sizeof shared / sizeof shared[0]; w++)
            shared[w] = 0xa5a5a5a5u;
        nq_subunit_thread(b.job, b.sub, q, shared + q, NQ_GPU_BLOCK, &c,
                          &placed);
        for (int w = 0; w < NQ_MAX_N * NQ_GPU_BLOCK && clean; w++)
            clean = w % NQ_GPU_BLOCK == (int)q || shared[w] == 0xa5a5a5a5u;
    }
    uint64_t subs = b.subs;
    nq_batch_free(&b);
    CHECKF(clean, "a thread wrote outside its stack column");
    CHECKF(subs > 8 && rows > 3 && placed > 0, "%llu sub-units searched",
           (unsigned long long)subs);
}

/* Exit 1, nothing on stdout, and one line on stderr starting `start` and
 * naming the CUDA error. */
static int said_cuda_error(const t_proc *p, const char *start)
{
    return p->exit_code == 1 && p->out_len == 0 &&
           !strncmp(p->err, start, strlen(start)) &&
           strstr(p->err, "(cudaError") &&
           strchr(p->err, '\n') == p->err + p->err_len - 1;
}

/* nqueens-cuda as a user meets it.  On a GPU: N=12 counted to OEIS's
 * row.  Without one: one line on stderr naming the CUDA error, exit 1,
 * the journal left for any engine of the plan to finish (fast does). */
static void cuda_binary(void *arg)
{
    (void)arg;
    const char *cuda = getenv("NQ_CUDA");
    char j[64], row[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    t_proc p;
    snprintf(j, sizeof j, "/tmp/nq-cuda-%d.journal", (int)getpid());
    snprintf(row, sizeof row, "\n12:%13s%13s", nq_format_u128(t_oeis_total(12),
             total), nq_format_u128(t_oeis_unique(12), unique));
    unlink(j);
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "cuda",
                                         "--checkpoint", j), 0, 0) == 0);
    int counted = p.exit_code == 0 && strstr(p.out, row);
    int said = said_cuda_error(&p, "nqueens: count 12: no usable GPU");
    t_proc_free(&p);
    CHECKF(counted || said, "neither OEIS's row nor a one-line CUDA error");
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "fast",
                                         "--checkpoint", j), 0, 0) == 0);
    int finished = p.exit_code == 0 && strstr(p.out, row);
    t_proc_free(&p);
    unlink(j);
    CHECKF(finished, "fast did not finish the cuda engine's journal");
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "cuda",
                                         "--devices", "0"), 0, 0) == 0);
    counted = p.exit_code == 0 && strstr(p.out, row);
    said = p.exit_code == 1 && strstr(p.err, "(cudaError");
    t_proc_free(&p);
    CHECKF(counted || said, "--devices 0: neither OEIS's row nor the CUDA "
           "error");
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "fast",
                                         "--devices", "0"), 0, 0) == 0);
    int refused = p.exit_code == 2 && strstr(p.err, "(engines that do: cuda)");
    t_proc_free(&p);
    CHECKF(refused, "--devices with a CPU engine was not refused");
}

/* examples/count_cuda.c, a C program linked with libnqueens-cuda.a: it
 * reaches engine cuda through the library's table once it has called
 * nq_cuda_register.  On a GPU: N=12 counted to OEIS's row; without one:
 * a clean NQ_ERR_DEVICE with the CUDA runtime's words, no crash.  The
 * same with a device list in the request. */
static void cuda_library(void *arg)
{
    const char *example = getenv("NQ_CUDA_EXAMPLE"), *devices = arg;
    char row[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    t_proc p;
    snprintf(row, sizeof row, "12 %s %s\n", nq_format_u128(t_oeis_total(12),
             total), nq_format_u128(t_oeis_unique(12), unique));
    CHECK(t_run_signalled(&p, example, devices ? ARGS(example, "12", devices)
                          : ARGS(example, "12"), 0, 0) == 0);
    int counted = p.exit_code == 0 && !strcmp(p.out, row);
    int said = said_cuda_error(&p, "count_cuda: no usable GPU");
    t_proc_free(&p);
    CHECKF(counted || said, "neither OEIS's row nor a one-line CUDA error");
}

/* mk/check-ptxas.sh, which `make cuda` runs on ptxas's report: passes a
 * kernel with no stack frame, fails one with a frame or spills. */
static void ptxas_check(void *arg)
{
    (void)arg;
    static const struct {
        const char *file;
        int want;
    } cases[] = {{"ptxas-sm90.txt", 0}, {"ptxas-stack-frame.txt", 1},
                 {"ptxas-spills.txt", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        char path[512];
        snprintf(path, sizeof path, "%s", t_data_path(cases[i].file));
        CHECK(t_run_signalled(&p, "sh", ARGS("sh", "mk/check-ptxas.sh", path,
                                             "count_subunits"), 0, 0) == 0);
        int ok = p.exit_code == cases[i].want &&
                 strstr(p.out, "count_subunits (sm_90): ");
        t_proc_free(&p);
        CHECKF(ok, "%s: not exit %d with the kernel's line", cases[i].file,
               cases[i].want);
    }
}

void tests_gpu(void)
{
    static const cut cuts[] = {
        {8, 0, 0}, {8, 1, 0}, {10, 2, 0}, {12, 1, 0}, {12, 3, 0}, {13, 2, 0},
        {14, 4, 0}, {12, 1, 1}, {14, 1, 1}, {15, 2, 1},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        t_case(subunits_partition_units, (void *)&cuts[i],
               "gpu/N=%d/depth-%d%s/sub-units-partition-each-unit",
               cuts[i].n, cuts[i].depth, cuts[i].even ? "-evened" : "");
    for (int n = 4; n <= 16; n++)
        t_case(kernel_body_vs_oeis, (void *)(intptr_t)n,
               "gpu/N=%d/kernel-body-on-the-host-vs-fast-and-oeis", n);
    t_case(stacks_stay_in_their_column, NULL,
           "gpu/stacks-interleaved-by-thread-stay-in-their-column");
    t_case(ptxas_check, NULL, "gpu/ptxas-check-refuses-a-stack-frame");
    if (getenv("NQ_CUDA"))
        t_case(cuda_binary, NULL, "gpu/nqueens-cuda-counts-or-names-the-"
               "cuda-error-and-fast-resumes");
    else
        t_skip_group("gpu/nqueens-cuda-counts-or-names-the-cuda-error-and-"
                     "fast-resumes", 1, "no nvcc");
    if (getenv("NQ_CUDA_EXAMPLE")) {
        t_case(cuda_library, NULL, "gpu/library-program-reaches-engine-cuda-"
               "counts-or-names-the-cuda-error");
        t_case(cuda_library, "0", "gpu/library-program-with-devices-0-counts-"
               "or-names-the-cuda-error");
    } else {
        t_skip_group("gpu/library-program-reaches-engine-cuda", 2, "no nvcc");
    }
}

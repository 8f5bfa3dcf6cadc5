/*
 * cuda.cu - engine `cuda`: fast's units counted on an NVIDIA GPU (built by
 * `make cuda` into build/nqueens-cuda; the plain build never needs nvcc).
 *
 * The host cuts each batch of units into sub-units (subunits.c: the first
 * rows of each unit's search pre-placed; symmetry and weights come with
 * the unit) and ships them in one launch.  Each GPU thread runs the plain
 * iterative DFS of dfs.h on one sub-unit (no recursion, the last two rows
 * in closed form), the very code `make test` checks on the CPU.  Counts are
 * summed on the GPU: the lanes of a warp working on one unit (sub-units
 * are sorted by unit) add up their counts and one of them does the atomic
 * add.  The units that are not searches (the half- and quarter-turn counts
 * behind unique, whole small boards) run on the host.  Plan, journals,
 * parts and the unique count by Burnside's lemma are fast's.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "../engines/engine.h"
#include "../engines/fast.h"
#include "../engines/subunits.h"
}

#define CUDA_BATCH 2048 /* units per launch: hundreds of thousands of threads */
#define BLOCK NQ_GPU_BLOCK

/* The threads' stacks, rows x BLOCK words, sized at launch. */
extern __shared__ uint32_t stacks[];

/* 16 blocks of 128 threads, an SM's 2048, fit when a thread takes 32
 * registers: ptxas then keeps the search in 32 with no spill (40 without
 * the bound, which leaves room for 12 blocks only; bench/RESULTS.md). */
#define BLOCKS_PER_SM 16

static __global__ void __launch_bounds__(BLOCK, BLOCKS_PER_SM)
count_subunits(const nq_frontier *jobs,
                                      const nq_subunit *subs, uint64_t n,
                                      unsigned long long *counts,
                                      unsigned long long *nodes)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, valid = i < n;
    unsigned job = 0xffffffffu;
    unsigned long long c = 0, p = 0;
    if (valid) {
        uint64_t count, placed = 0;
        job = nq_subunit_thread(jobs, subs, i, stacks + threadIdx.x,
                                blockDim.x, &count, &placed);
        c = count, p = placed;
    }
    /* every lane takes part, so the shuffles see the whole warp */
    unsigned same = __match_any_sync(0xffffffffu, job);
    unsigned long long sc = 0, sp = 0;
    for (int k = 0; k < 32; k++) {
        unsigned long long vc = __shfl_sync(0xffffffffu, c, k);
        unsigned long long vp = __shfl_sync(0xffffffffu, p, k);
        if (same >> k & 1)
            sc += vc, sp += vp;
    }
    if (valid && lane == __ffs(same) - 1) {
        atomicAdd(&counts[job], sc);
        atomicAdd(nodes, sp);
    }
}

typedef struct {
    nq_frontier *jobs;
    nq_subunit *subs;
    unsigned long long *counts; /* jobs + 1: the last one holds nodes */
    size_t jobs_cap, subs_cap, counts_cap;
} device_buffers;

static int ok(cudaError_t e) { return e == cudaSuccess; }

/* Make *ptr hold at least `need` items of `size` bytes. */
static int reserve(void **ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    cudaFree(*ptr);
    *ptr = NULL, *cap = 0;
    size_t want = need + need / 2 + 64;
    if (!ok(cudaMalloc(ptr, want * size)))
        return 0;
    *cap = want;
    return 1;
}

static nq_status launch(device_buffers *g, const nq_batch *b, uint64_t *counts,
                        uint64_t *nodes)
{
    if (!reserve((void **)&g->jobs, &g->jobs_cap, b->jobs, sizeof *g->jobs) ||
        !reserve((void **)&g->counts, &g->counts_cap, b->jobs + 1,
                 sizeof *g->counts) ||
        !reserve((void **)&g->subs, &g->subs_cap, b->subs, sizeof *g->subs))
        return NQ_ERR_DEVICE;
    unsigned long long *host = (unsigned long long *)calloc(b->jobs + 1,
                                                            sizeof *host);
    if (!host)
        return NQ_ERR_NOMEM;
    int fine =
        ok(cudaMemcpy(g->jobs, b->job, b->jobs * sizeof *b->job,
                      cudaMemcpyHostToDevice)) &&
        ok(cudaMemcpy(g->subs, b->sub, b->subs * sizeof *b->sub,
                      cudaMemcpyHostToDevice)) &&
        ok(cudaMemset(g->counts, 0, (b->jobs + 1) * sizeof *g->counts));
    if (fine && b->subs) {
        unsigned blocks = (unsigned)((b->subs + BLOCK - 1) / BLOCK);
        size_t shared = (size_t)nq_batch_stack_rows(b) * BLOCK * sizeof(uint32_t);
        count_subunits<<<blocks, BLOCK, shared>>>(g->jobs, g->subs, b->subs,
                                                  g->counts,
                                                  g->counts + b->jobs);
        fine = ok(cudaGetLastError());
    }
    fine = fine && ok(cudaMemcpy(host, g->counts, (b->jobs + 1) * sizeof *host,
                                 cudaMemcpyDeviceToHost));
    for (uint32_t j = 0; fine && j < b->jobs; j++)
        counts[j] = host[j];
    if (fine)
        *nodes += host[b->jobs];
    free(host);
    return fine ? NQ_OK : NQ_ERR_DEVICE;
}

static void release(void *scratch)
{
    device_buffers *g = (device_buffers *)scratch;
    if (!g)
        return;
    cudaFree(g->jobs);
    cudaFree(g->subs);
    cudaFree(g->counts);
    free(g);
}

static nq_status device_ready(nq_unit_env *env)
{
    int devices = 0;
    if (env->scratch)
        return NQ_OK;
    if (!ok(cudaGetDeviceCount(&devices)) || devices < 1)
        return NQ_ERR_DEVICE;
    env->scratch = calloc(1, sizeof(device_buffers));
    return env->scratch ? NQ_OK : NQ_ERR_NOMEM;
}

static nq_status cuda_batch(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out)
{
    nq_batch b;
    nq_status st = device_ready(env);
    if (st == NQ_OK)
        st = nq_batch_prepare(p, ids, count, &b);
    if (st != NQ_OK)
        return st;
    uint64_t *counts = (uint64_t *)calloc(b.jobs + 1, sizeof *counts), nodes = 0;
    st = counts ? launch((device_buffers *)env->scratch, &b, counts, &nodes)
                : NQ_ERR_NOMEM;
    return nq_batch_finish(p, &b, ids, count, counts, nodes, st, env, out);
}

static nq_status cuda_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                           nq_tally *t)
{
    return cuda_batch(p, &i, 1, env, t);
}

/* C++20 designated initialisers (nvcc -std=c++20) must follow the order of
 * the fields in struct nq_engine. */
extern "C" const nq_engine nq_engine_cuda = {
    .name = "cuda",
    .summary = "fast's units cut into sub-units, one GPU thread each",
    .plan_id = NQ_FAST_PLAN_ID,
    .plan_param = NQ_FAST_PLAN_PARAMS,
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS,
    .plan = nq_fast_plan,
    .unit = cuda_unit,
    .describe = nq_fast_describe,
    .finish = nq_fast_finish,
    .free_scratch = release,
    .run_batch = cuda_batch,
    .batch = CUDA_BATCH,
};

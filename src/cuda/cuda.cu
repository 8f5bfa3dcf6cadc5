/*
 * cuda.cu - engine `cuda`: fast's units counted on an NVIDIA GPU (built by
 * `make cuda` into libnqueens-cuda.a and build/nqueens-cuda; the plain
 * build never needs nvcc).  The engine joins the library's table at run
 * time (nq_cuda_register, nqueens_cuda.h): nothing below names it.
 *
 * The host cuts each batch of units into sub-units (subunits.c: the first
 * rows of each unit's search pre-placed, heavy ones cut deeper; symmetry
 * and weights come with the unit) and ships them in one launch.  Each GPU
 * thread runs the iterative DFS of dfs.h on the sub-units it takes (no
 * recursion, its stack one word per row in shared memory, the last two
 * rows in closed form), the very code `make test` runs on the CPU.  Every
 * runner worker drives a GPU on its own stream (several per GPU, all
 * visible GPUs), so batches overlap with the host's building and
 * journalling.  A launch's threads persist: as many as the GPU holds at
 * once, each taking the next sub-unit from the launch's counter until
 * none is left and adding each one's count to its job's words
 * (subunits.h, nq_subunit_worker: the loop the OpenCL kernel and the CPU
 * tests run too).  The units that are not searches (the half- and
 * quarter-turn counts behind unique, whole small boards) run on the host.
 * Plan, journals, parts and the unique count by Burnside's lemma are
 * fast's.
 */
#include <atomic>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens_cuda.h"

extern "C" {
#include "../core/core.h"
#include "../engines/engine.h"
#include "../registry/registry.h"
#include "../fast/fast.h"
#include "../search/stop.h"
#include "../fast/subunits.h"
}

/* Units per launch: NQ_GPU_BATCH (subunits.h).
 *
 * What a stop costs.  The threads of a launch take its sub-units in
 * order, so its units end spread over the launch; a stop ends the threads
 * within NQ_DFS_POLL placements (dfs.h) and keeps only the units whose
 * sub-units had all finished: the rest of the work in flight, up to a
 * batch a worker, is lost and counted again on resume.  Smaller batches
 * would lose less but give each thread fewer sub-units to take, so the
 * launch's threads would end less together (nq_batch_depth); to be timed
 * on a GPU first.  The host engine, which runs sub-units one at a time,
 * keeps its batches short instead (subunits.c). */
#define BLOCK NQ_GPU_BLOCK

/* The threads' stacks, rows x BLOCK words, sized at launch. */
extern __shared__ uint32_t stacks[];

/* 16 blocks of 128 threads, an SM's 2048, fit when a thread takes 32
 * registers: ptxas then keeps the search in 32 with no spill (40 without
 * the bound, which leaves room for 12 blocks only; bench/RESULTS.md). */
#define BLOCKS_PER_SM 16

/* The launch's threads, each running nq_subunit_worker (subunits.h):
 * sub-units taken from the launch's counter until none is left, counted
 * into the words (NQ_WORDS, zeroed before), the stop flag the host's,
 * mapped for the device. */
static __global__ void __launch_bounds__(BLOCK, BLOCKS_PER_SM)
count_subunits(const nq_frontier *jobs, const nq_subunit *subs, uint32_t n,
               uint32_t njobs, uint32_t *words, nq_dfs_stop stop)
{
    nq_subunit_worker(jobs, subs, n, njobs, words,
                      stacks + NQ_THREAD_LOCAL_ID(), NQ_THREAD_BLOCK_SIZE(),
                      stop);
}

/* One runner worker's hold on a GPU: its device, its own stream, and
 * buffers on both sides (host ones pinned, so copies run asynchronously
 * and at full speed).  Several workers share each GPU: while one waits
 * for its batch, another builds the next and launches it on its stream,
 * and a third journals the last; the GPU never waits for the CPU. */
typedef struct {
    int device;
    cudaStream_t stream;
    nq_frontier *jobs, *host_jobs;
    nq_subunit *subs, *host_subs;
    uint32_t *words, *host_words; /* NQ_WORDS(jobs): the kernel's counts */
    size_t jobs_cap, subs_cap, words_cap;
    size_t host_jobs_cap, host_subs_cap, host_words_cap;
    unsigned most_blocks;       /* the blocks the GPU holds at once */
    sig_atomic_t *stop, *device_stop; /* pinned, mapped: the kernel's flag */
} gpu_worker;

/* Workers are dealt to the visible GPUs in turn. */
static std::atomic<unsigned> workers_started;

/* The runtime's words for a failure, name and text, into the unit's
 * words buffer (engine.h): they go up with the status, as data of this
 * worker's call, so that two workers or two counts failing at once each
 * keep their own and nothing outlives the call. */
static nq_status device_failed(nq_unit_env *env, cudaError_t e)
{
    if (env->why && env->why_size)
        snprintf(env->why, env->why_size, "%s: %s", cudaGetErrorName(e),
                 cudaGetErrorString(e));
    return NQ_ERR_DEVICE;
}

/* Return NQ_ERR_DEVICE, with the words into env's buffer, if a call of
 * the runtime failed (a function using it has its nq_unit_env *env). */
#define TRY(call)                                                            \
    do {                                                                     \
        cudaError_t e_ = (call);                                             \
        if (e_ != cudaSuccess)                                               \
            return device_failed(env, e_);                                   \
    } while (0)

/* Make *ptr hold at least `need` items of `size` bytes, on the device or
 * pinned on the host. */
static cudaError_t reserve(void **ptr, size_t *cap, size_t need, size_t size,
                           int pinned)
{
    if (need <= *cap)
        return cudaSuccess;
    if (pinned)
        cudaFreeHost(*ptr);
    else
        cudaFree(*ptr);
    *ptr = NULL, *cap = 0;
    size_t want = need + need / 2 + 64;
    cudaError_t e = pinned ? cudaHostAlloc(ptr, want * size, cudaHostAllocDefault)
                           : cudaMalloc(ptr, want * size);
    if (e == cudaSuccess)
        *cap = want;
    return e;
}

static nq_status reserve_all(gpu_worker *g, const nq_batch *b,
                             nq_unit_env *env)
{
    size_t jobs = b->jobs, subs = b->subs, words = NQ_WORDS(b->jobs);
    TRY(reserve((void **)&g->jobs, &g->jobs_cap, jobs, sizeof *g->jobs, 0));
    TRY(reserve((void **)&g->subs, &g->subs_cap, subs, sizeof *g->subs, 0));
    TRY(reserve((void **)&g->words, &g->words_cap, words,
                sizeof *g->words, 0));
    TRY(reserve((void **)&g->host_jobs, &g->host_jobs_cap, jobs,
                sizeof *g->jobs, 1));
    TRY(reserve((void **)&g->host_subs, &g->host_subs_cap, subs,
                sizeof *g->subs, 1));
    TRY(reserve((void **)&g->host_words, &g->host_words_cap, words,
                sizeof *g->words, 1));
    return NQ_OK;
}

/* Wait for the worker's stream, passing a stop on to its kernel: the
 * threads read the mapped flag (dfs.h) and give up, so a stop waits for
 * no launch to end.  Polled every millisecond, which also spares the
 * core that cudaStreamSynchronize may spin on. */
static cudaError_t wait_watching(gpu_worker *g,
                                 const volatile sig_atomic_t *stop)
{
    struct timespec ms = {0, 1000000};
    cudaError_t e;
    while ((e = cudaStreamQuery(g->stream)) == cudaErrorNotReady) {
        if (nq_stop_requested(stop))
            __atomic_store_n(g->stop, 1, __ATOMIC_RELAXED);
        nanosleep(&ms, NULL);
    }
    return e;
}

/* Copy in, count, copy out, all queued on the stream of env's worker
 * (device_ready); then wait for it (other workers' streams go on
 * meanwhile), watching env's stop flag.  The kernel watches the worker's
 * mapped flag, cleared for each launch. */
static nq_status launch(const nq_plan *p, nq_batch *b, nq_batch_tally *t,
                        nq_unit_env *env)
{
    gpu_worker *g = (gpu_worker *)env->scratch;
    nq_status st = reserve_all(g, b, env);
    (void)p;
    if (st != NQ_OK)
        return st;
    size_t words_bytes = NQ_WORDS(b->jobs) * sizeof *g->words;
    *g->stop = 0;
    memcpy(g->host_jobs, b->job, b->jobs * sizeof *b->job);
    memcpy(g->host_subs, b->sub, b->subs * sizeof *b->sub);
    TRY(cudaMemcpyAsync(g->jobs, g->host_jobs, b->jobs * sizeof *b->job,
                        cudaMemcpyHostToDevice, g->stream));
    TRY(cudaMemcpyAsync(g->subs, g->host_subs, b->subs * sizeof *b->sub,
                        cudaMemcpyHostToDevice, g->stream));
    TRY(cudaMemsetAsync(g->words, 0, words_bytes, g->stream));
    if (b->subs) {
        uint64_t need = (b->subs + BLOCK - 1) / BLOCK;
        unsigned blocks = need < g->most_blocks ? (unsigned)need : g->most_blocks;
        size_t shared = (size_t)nq_batch_stack_rows(b) * BLOCK * sizeof(uint32_t);
        count_subunits<<<blocks, BLOCK, shared, g->stream>>>(
            g->jobs, g->subs, (uint32_t)b->subs, b->jobs, g->words,
            g->device_stop);
        TRY(cudaGetLastError());
    }
    TRY(cudaMemcpyAsync(g->host_words, g->words, words_bytes,
                        cudaMemcpyDeviceToHost, g->stream));
    TRY(wait_watching(g, env->stop));
    nq_batch_unpack(b, g->host_words, t);
    return NQ_OK;
}

static void release(void *scratch)
{
    gpu_worker *g = (gpu_worker *)scratch;
    if (!g)
        return;
    cudaSetDevice(g->device);
    cudaFree(g->jobs);
    cudaFree(g->subs);
    cudaFree(g->words);
    cudaFreeHost(g->host_jobs);
    cudaFreeHost(g->host_subs);
    cudaFreeHost(g->host_words);
    cudaFreeHost(g->stop);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    free(g);
}

/* This worker's GPU (the next of the plan's list, or of the visible ones,
 * in turn) and stream, made on its first batch; the runtime binds a
 * device to the calling thread, so it is set again on each. */
static nq_status device_ready(const nq_plan *p, nq_unit_env *env)
{
    gpu_worker *g = (gpu_worker *)env->scratch;
    int devices = 0;
    if (g) {
        TRY(cudaSetDevice(g->device));
        return NQ_OK;
    }
    TRY(cudaGetDeviceCount(&devices));
    if (devices < 1)
        return device_failed(env, cudaErrorNoDevice);
    if (!(g = (gpu_worker *)calloc(1, sizeof *g)))
        return NQ_ERR_NOMEM;
    env->scratch = g;
    unsigned k = workers_started++;
    g->device = p->ndevices ? p->devices[k % (unsigned)p->ndevices]
                            : (int)(k % (unsigned)devices);
    TRY(cudaSetDevice(g->device));
    int sms = 0;
    TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                               g->device));
    g->most_blocks = (unsigned)(sms > 0 ? sms : 1) * BLOCKS_PER_SM;
    TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    TRY(cudaHostAlloc((void **)&g->stop, sizeof *g->stop,
                      cudaHostAllocMapped));
    TRY(cudaHostGetDevicePointer((void **)&g->device_stop, g->stop, 0));
    return NQ_OK;
}

/* The batch's common path (subunits.c): the GPU first, then the launch. */
static nq_status cuda_batch(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out)
{
    return nq_batch_run_with(p, ids, count, env, out, device_ready, launch);
}

/* What `nqueens-cuda --version` and make bench-gpu show of the GPUs. */
static void describe_devices(char *buf, size_t size)
{
    int devices = 0, driver = 0;
    size_t len = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    buf[0] = '\0';
    if (e != cudaSuccess) {
        snprintf(buf, size, "no GPU (%s: %s)", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        return;
    }
    if (devices < 1) {
        snprintf(buf, size, "no GPU (none visible)");
        return;
    }
    cudaDriverGetVersion(&driver);
    for (int d = 0; d < devices && len < size; d++) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
            continue;
        int k = snprintf(buf + len, size - len, "%sGPU %d: %s, sm_%d%d, %d "
                         "SMs, %zu GiB; driver %d.%d", len ? "\n" : "", d,
                         p.name, p.major, p.minor, p.multiProcessorCount,
                         p.totalGlobalMem >> 30, driver / 1000,
                         driver % 1000 / 10);
        len += k > 0 ? (size_t)k : 0;
    }
}

/* Every GPU the plan lists is one the runtime sees (the engine's
 * check_devices, before any unit runs): a worker would otherwise find
 * out only when it first takes its GPU, which a count of a few units
 * never does. */
static nq_status check_devices(const nq_plan *p, char *why, size_t size)
{
    int devices = 0;
    nq_unit_env env = {};
    env.why = why, env.why_size = size;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess)
        return device_failed(&env, e);
    for (int i = 0; i < p->ndevices; i++)
        if (p->devices[i] >= devices) {
            snprintf(why, size, "no GPU %d: %d visible, numbered from 0",
                     p->devices[i], devices);
            return NQ_ERR_DEVICE;
        }
    return NQ_OK;
}

extern "C" const nq_engine nq_engine_cuda =
    NQ_GPU_ENGINE("cuda", "fast's units cut into sub-units, taken by GPU "
                  "threads", cuda_batch, release, describe_devices,
                  check_devices);

nq_status nq_cuda_register(void)
{
    return nq_engine_add(&nq_engine_cuda);
}

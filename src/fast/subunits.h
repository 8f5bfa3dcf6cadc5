/*
 * subunits.h - units cut into sub-units, the pieces GPU threads take.
 *
 * A batch takes some units of a fast-style plan, turns each into its
 * frontier job, and pre-places the queens of the job's first `depth` rows
 * in every way possible: each way is a sub-unit, its state the occupancy
 * after those rows.  A unit's sub-units partition its solutions (each
 * solution has one set of queens in those rows), so the unit's count is
 * the sum of theirs; weights and symmetry come with the job.
 */
#ifndef NQ_SUBUNITS_H
#define NQ_SUBUNITS_H

#include <stdint.h>

#include "../search/dfs.h"
#include "../engines/engine.h"
#include "fast.h"
#include "../search/frontier.h"

typedef struct {
    uint32_t job;               /* which job of the batch */
    uint32_t from;              /* its first row left to the search */
    uint32_t path;              /* the pre-placed columns, 5 bits a row */
    uint32_t down, left, right; /* occupancy aligned to row `from` */
} nq_subunit;

/* Threads of a GPU block, and so of the blocks nq_batch_run_host
 * emulates: the stacks of a block's threads share one array, thread t's
 * row i at word i * NQ_GPU_BLOCK + t (dfs.h).  (An OpenCL work-group may
 * be smaller, where a device's local memory holds fewer stacks.) */
#define NQ_GPU_BLOCK 128

/* One GPU thread's work: sub-unit i counted with the stack given (in a
 * block's shared array, or anywhere on the host), watching `stop`;
 * returns its job, the count in *count, the placements added to
 * *placed. */
static inline NQ_HD uint32_t
nq_subunit_thread(const NQ_GLOBAL nq_frontier *jobs,
                  const NQ_GLOBAL nq_subunit *subs, uint64_t i,
                  NQ_LOCAL uint32_t *stack, unsigned stride, nq_dfs_stop stop,
                  uint64_t *count, uint64_t *placed)
{
    nq_subunit s = subs[i];
    *count = nq_dfs_count_on(&jobs[s.job], (int)s.from, s.down, s.left,
                             s.right, stack, stride, stop, placed);
    return s.job;
}

/* The words a launch counts into, one layout for every device (32-bit
 * words: OpenCL 1.2 promises atomics on no wider), zeroed before it:
 * the placements of all its sub-units (two words, low first), then per
 * job its count (two words), then per job its sub-units searched to
 * their end, then the counter of sub-units taken. */
#define NQ_WORDS_PLACED 0
#define NQ_WORDS_COUNT(job) (2 + 2 * (uint64_t)(job))
#define NQ_WORDS_FINISHED(jobs, job) (2 + 2 * (uint64_t)(jobs) + (job))
#define NQ_WORDS_NEXT(jobs) (2 + 3 * (uint64_t)(jobs))
#define NQ_WORDS(jobs) (NQ_WORDS_NEXT(jobs) + 1)

/* Add v to the 64-bit count at w (two words, low first) with 32-bit
 * atomics: the low word's add returns its old value, from which its
 * carry into the high word follows.  The words are read only after the
 * launch, so the two adds need not be one. */
static inline NQ_HD void nq_words_add64(volatile NQ_GLOBAL uint32_t *w,
                                        uint64_t v)
{
    uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
    uint32_t old = NQ_DEVICE_FETCH_ADD32(&w[0], lo);
    hi += (uint32_t)((uint32_t)(old + lo) < old);
    if (hi)
        NQ_DEVICE_FETCH_ADD32(&w[1], hi);
}

/* One GPU thread's whole work in a launch: it takes the next sub-unit
 * from the launch's counter, one atomic add, until none is left or the
 * stop flag is set, and adds each one's count to its job's words.  So a
 * launch needs only as many threads as the device holds at once
 * (persistent threads), and it ends when the work does, not when its
 * slowest thread's one sub-unit does: a thread that drew short ones
 * draws again.  A sub-unit is finished if the flag was still clear
 * after its search; one taken after a stop is not searched.  The host
 * runs this very loop for engine subunits and the tests
 * (nq_batch_run_host), one thread taking every sub-unit in turn. */
static inline NQ_HD void
nq_subunit_worker(const NQ_GLOBAL nq_frontier *jobs,
                  const NQ_GLOBAL nq_subunit *subs, uint32_t n, uint32_t njobs,
                  volatile NQ_GLOBAL uint32_t *words, NQ_LOCAL uint32_t *stack,
                  unsigned stride, nq_dfs_stop stop)
{
    for (;;) {
        uint32_t i = NQ_DEVICE_FETCH_ADD32(&words[NQ_WORDS_NEXT(njobs)], 1u);
        if (i >= n || nq_dfs_stop_seen(stop))
            break;
        uint64_t count, placed = 0;
        uint32_t job = nq_subunit_thread(jobs, subs, i, stack, stride, stop,
                                         &count, &placed);
        nq_words_add64(&words[NQ_WORDS_COUNT(job)], count);
        /* added each time: a sum kept across the searches held two more
         * registers through them, and ptxas spilled (mk/check-ptxas.sh) */
        nq_words_add64(&words[NQ_WORDS_PLACED], placed);
        if (!nq_dfs_stop_seen(stop))
            NQ_DEVICE_FETCH_ADD32(&words[NQ_WORDS_FINISHED(njobs, job)], 1u);
    }
}

/* The rest is the host's alone (an OpenCL device compiles the above,
 * device.h). */
#ifndef NQ_OPENCL_C

typedef struct {
    int depth;                  /* rows pre-placed in each job (fewer where
                                   a job leaves too few to the search) */
    uint32_t jobs;
    nq_frontier *job;           /* one per searched unit */
    uint64_t *unit;             /* the plan unit of each job */
    nq_subunit *sub;
    uint64_t subs, cap;
    uint64_t *other;            /* units that are not searches (run on the */
    uint64_t others;            /* host by the engine's unit function) */
} nq_batch;

/* Rows of stack a batch's threads need (the most of any job). */
int nq_batch_stack_rows(const nq_batch *b);

/* The rows to pre-place for jobs of a board of n: enough sub-units to
 * fill a GPU, not so many that each is trivial (from NQ_EVEN_FROM_N on,
 * the first cut: heavy sub-units are cut deeper, see below). */
int nq_batch_depth(int n);

/* Build the batch of the given units (at most NQ_MAX_N rows pre-placed:
 * fewer where a job has fewer rows to leave to the search). */
nq_status nq_batch_build(const nq_plan *p, const uint64_t *ids, uint64_t n,
                         int depth, nq_batch *b);
void nq_batch_free(nq_batch *b);

/* Sub-units cut at a fixed depth differ in cost by 10 times and more; a
 * GPU warp waits for its slowest thread, and a launch for its slowest
 * warp.  Evening out cuts each sub-unit whose estimated search (Knuth's
 * estimator, random paths) is over twice the batch's mean one row deeper,
 * and its heavy children again.  From N = NQ_EVEN_FROM_N on, where a
 * batch is seconds of GPU work; below, the estimates would cost more
 * host time than the GPU loses. */
#define NQ_EVEN_FROM_N 18
nq_status nq_batch_even_out(nq_batch *b);
/* The batch an engine runs: cut at nq_batch_depth, evened out from
 * NQ_EVEN_FROM_N on. */
nq_status nq_batch_prepare(const nq_plan *p, const uint64_t *ids,
                           uint64_t count, nq_batch *b);

/* Every job of the batch watches *stop (NULL: never stops): a sub-unit
 * gives up within NQ_DFS_POLL placements of it being set (dfs.h).  On a
 * GPU, stop is the device's view of a flag the host sets (cuda.cu). */
void nq_batch_watch(nq_batch *b, const volatile sig_atomic_t *stop);

/* What a batch's run gives back: per job its count and how many of its
 * sub-units were searched to their end (all of them, unless a stop cut
 * the run short), and the placements of all. */
typedef struct {
    uint64_t *count, *finished; /* b->jobs each, one allocation */
    uint64_t nodes;
} nq_batch_tally;
nq_status nq_batch_tally_new(const nq_batch *b, nq_batch_tally *t);
void nq_batch_tally_free(nq_batch_tally *t);

/* Count the sub-units on the calling thread, adding into t: the GPU
 * kernel's loop (nq_subunit_worker) run by one thread, which takes every
 * sub-unit in turn, its stack laid out as a column of a block-wide array
 * as in the GPU's shared memory.  Once the jobs' stop flag is set, the
 * sub-unit under way gives up and no other starts; a sub-unit is
 * finished if the flag was still clear after its search, as the kernel
 * judges it.  NQ_ERR_NOMEM if the words cannot be had. */
nq_status nq_batch_run_host(const nq_batch *b, nq_batch_tally *t);

/* The words a launch of batch b counted into (NQ_WORDS(b->jobs) of
 * them), added into t. */
void nq_batch_unpack(const nq_batch *b, const uint32_t *words,
                     nq_batch_tally *t);

/* The end of a batch run with status st: the jobs' counts (and the other
 * units, run here by the engine's unit function) into out[k] for ids[k],
 * the placements to the batch's first unit; frees the tally and the
 * batch.  A run a stop cut short (NQ_ERR_STOPPED) still gives the jobs
 * whose sub-units all finished: their counts into out, env->whole marked
 * (the placements go with the first of them), the rest to run again. */
nq_status nq_batch_finish(const nq_plan *p, nq_batch *b, const uint64_t *ids,
                          uint64_t count, nq_batch_tally *t, nq_status st,
                          nq_unit_env *env, nq_tally *out);

/* A GPU engine's device made ready for env's worker (in env->scratch,
 * on its first batch), before any batch is built: a machine without one
 * fails before the host spends time cutting units.  NQ_OK, or a failure
 * with its words in env->why. */
typedef nq_status (*nq_batch_ready)(const nq_plan *p, nq_unit_env *env);

/* Count a batch's sub-units on the device, into the tally: a GPU
 * engine's part of nq_batch_run_with, its launch (buffers, the kernel,
 * the wait).  NQ_OK, or a failure with its words in env->why; a stop
 * seen by the engine's wait is nq_batch_run_with's to say. */
typedef nq_status (*nq_batch_launch)(const nq_plan *p, nq_batch *b,
                                     nq_batch_tally *t, nq_unit_env *env);

/* A batch engine's run_batch around its device: made ready (`ready`,
 * NULL for none), the batch prepared (nq_batch_prepare), counted by
 * `launch`, said stopped if env's flag is set after it, and finished
 * (nq_batch_finish) into out.  The one path of engine subunits (launch:
 * the host's thread) and the GPU engines (cuda.cu, opencl.c). */
nq_status nq_batch_run_with(const nq_plan *p, const uint64_t *ids,
                            uint64_t count, nq_unit_env *env, nq_tally *out,
                            nq_batch_ready ready, nq_batch_launch launch);

/* A batch engine's unit function: its run_batch on the one unit. */
nq_status nq_batch_run_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                            nq_tally *t);

/* Units a GPU engine ships per launch (its batch function).  A plan has
 * 7k (N = 18) to 22k (N = 23) units, which make some 14 to 18 sub-units
 * each at N = 18 and 19, 140 to 210 from N = 20 (nq_batch_depth): 1024
 * units a batch give 7 to 22 batches, so that every worker has batches
 * to build while others are on the GPU, and the journal grows steadily.
 * A launch's threads are as many as the GPU holds (an H100: 270k), each
 * taking sub-units until none is left; the launches of several workers'
 * streams (or queues) run at once (one worker per core by default) and
 * share it (nq_batch_depth says what that means per thread).  What a stop
 * costs, and why batches are not smaller: cuda.cu. */
#define NQ_GPU_BATCH 1024
unsigned nq_gpu_batch_units(const nq_plan *p);

/* The engine table's entry of a GPU engine (cuda.cu, opencl.c): fast's
 * plan, journals and unique count, its units in batches of NQ_GPU_BATCH
 * through run_batch; its name, summary, batch function, scratch release,
 * device list and device check its own.  Designated initialisers in the order of
 * struct nq_engine's fields, as C++20 (nvcc) requires. */
#define NQ_GPU_ENGINE(NAME, SUMMARY, RUN_BATCH, FREE_SCRATCH, DEVICES,      \
                      CHECK_DEVICES) {                                     \
    .name = NAME, .summary = SUMMARY, .plan_id = NQ_FAST_PLAN_ID,          \
    .plan_param = NQ_FAST_PLAN_PARAMS, .max_n = NQ_MAX_N,                  \
    .caps = NQ_CAP_UNITS | NQ_CAP_GPU, .plan = nq_fast_plan,               \
    .unit = nq_batch_run_unit, .describe = nq_fast_describe,               \
    .finish = nq_fast_finish, .forced = nq_fast_unit_forced,               \
    .flaw = nq_fast_record_flaw, .estimate = nq_fast_unit_estimate,        \
    .free_scratch = FREE_SCRATCH, .run_batch = RUN_BATCH,                  \
    .batch = nq_gpu_batch_units, .devices = DEVICES,                       \
    .check_devices = CHECK_DEVICES, .seconds = nq_fast_unit_seconds,     \
    .weigh = nq_fast_weigh, .cut = nq_fast_cut}
#endif

#endif

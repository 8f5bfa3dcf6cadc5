/*
 * dfs.h - the completion count of one partial placement by a plain
 * iterative bitboard DFS: the search one GPU thread runs on one sub-unit,
 * and the reference the CPU kernels are tested against.
 *
 * Plain C, no recursion, no allocation, one word of stack per row (see
 * nq_dfs_count_on): nvcc compiles it for the device (NQ_HD is __host__
 * __device__), an OpenCL compiler for any vendor's device, any C
 * compiler for the host (the three languages' differences: device.h), so
 * the code a GPU runs is the code `make test` checks against OEIS.  The
 * last two rows are counted in closed form, as in the vector kernel
 * (frontier.c).
 */
#ifndef NQ_DFS_H
#define NQ_DFS_H

#include <stdint.h>

#include "../core/bits.h"
#include "frontier.h"
#include "stop.h"

/* Row i is the last: the open squares, each with its column's weight. */
static inline NQ_HD uint64_t nq_dfs_last_row(const NQ_GLOBAL nq_frontier *j,
                                             int i,
                                             uint32_t d, uint32_t l, uint32_t r)
{
    uint32_t a = j->open[i] & ~(d | l | r);
    uint64_t c = 0;
    for (int k = 0; k < NQ_FRONTIER_WEIGHTS; k++)
        c += j->weight[k] * (uint64_t)nq_popcount(a & j->weight_cols[k]);
    return c;
}

/* The last two rows, from a state aligned to the first of them: the two
 * free columns x < y go in either order, unless they are exactly the row
 * gap apart (the two queens would share a diagonal).  The last row's
 * column carries the weight. */
static inline NQ_HD uint64_t nq_dfs_last_two(const NQ_GLOBAL nq_frontier *j,
                                             uint32_t d, uint32_t l,
                                             uint32_t r)
{
    int i = j->rows - 2, g = j->gap[i];
    uint32_t a0 = j->open[i] & ~(d | l | r);
    uint32_t a1 = j->open[i + 1] & ~(d | l << g | r >> g);
    uint32_t f = j->full & ~d, x = nq_lowest_bit32(f), y = f ^ x;
    uint64_t c = 0;
    if (!x || !y || (x << g) == y)
        return 0;
    for (int k = 0; k < NQ_FRONTIER_WEIGHTS; k++) {
        uint32_t a1k = a1 & j->weight_cols[k];
        unsigned ways = (unsigned)((a0 & x) && (a1k & y)) +
                        (unsigned)((a0 & y) && (a1k & x));
        c += j->weight[k] * (uint64_t)ways;
    }
    return c;
}

/* Placements between two looks at the job's stop flag (a power of two).
 * A sub-unit of a big board is seconds to minutes of search, and a stop
 * must not wait for it.  On the host (some 10^8 placements a second) 2^16
 * is under a millisecond.  On a GPU (not yet timed): N = 22 is some
 * 2 x 10^13 placements, so the target of 40 s on an H100's 270k threads
 * is 2 x 10^6 a thread a second, a look every 30 ms, and the flag, in
 * host memory mapped for the device (cuda.cu), is read a few million
 * times a second in all, a read a warp stalls on every few thousand of
 * its steps. */
#define NQ_DFS_POLL (1u << 16)

/* The stop flag a search watches, given apart from its job: on the host
 * the job's own (nq_frontier.stop), on a GPU a flag of the launch's (a
 * host flag mapped for the device, cuda.cu; a buffer of its own, opencl.c),
 * as a job's pointer member means nothing to a device whose pointers are
 * not the host's. */
#ifdef NQ_OPENCL_C
typedef const volatile __global int *nq_dfs_stop;
#else
typedef const volatile sig_atomic_t *nq_dfs_stop;
#endif

/* Whether the run was asked to stop: on the host as stop.h reads the
 * flag, on a GPU a plain volatile read; a NULL flag never stops.  A
 * search that saw it gives up part way, so a caller that reads it set
 * after a search must drop that search's count (read after a whole
 * search it only drops a whole one: never wrong). */
static inline NQ_HD int nq_dfs_stop_seen(nq_dfs_stop stop)
{
#ifdef NQ_DEVICE_CODE
    return stop && *stop;
#else
    return nq_stop_requested(stop);
#endif
}

/* Weighted completions of the state (d, l, r) aligned to row `from` of
 * the job, the search's stack given: one word per row, `stride` words
 * apart (*nodes grows by the placements made).
 *
 * The stack holds only each row's candidates still to try, the queen
 * standing there as their lowest bit; the column and diagonal words live
 * in registers and are restored on the way up by undoing the step down
 * (down ^ b, left >> g, right << g).  Undoing a shift recovers every bit
 * only if none was shifted out of the word, so the diagonals are carried
 * in 64 bits: left from bit 0 (it rises at most N - 1 places), right from
 * bit 32 (it falls at most N - 1).  A GPU thread's stack is then a column
 * of a block-wide array in shared memory, thread t's row i at word
 * i * blockDim + t: the 32 lanes of a warp touch 32 consecutive words,
 * one per bank, and nothing of the search sits in local memory (cuda.cu).
 * Every NQ_DFS_POLL placements it looks at the stop flag, and gives up
 * if it is set (the count is then short: nq_dfs_stop_seen). */
static inline NQ_HD uint64_t nq_dfs_count_on(const NQ_GLOBAL nq_frontier *j,
                                             int from, uint32_t d,
                                             uint32_t l32, uint32_t r32,
                                             NQ_LOCAL uint32_t *stack,
                                             unsigned stride,
                                             nq_dfs_stop stop,
                                             uint64_t *nodes)
{
    int last = j->rows - 2, i = from;
    uint64_t count = 0, placed = 0, l = l32, r = (uint64_t)r32 << 32;
    if (from >= j->rows - 1)
        return from == j->rows - 1 ? nq_dfs_last_row(j, from, d, l32, r32) : 0;
    if (from == last)
        return nq_dfs_last_two(j, d, l32, r32);
    uint32_t avail = j->open[i] & ~(d | l32 | r32);
    for (;;) {
        if (!avail) { /* the row is done: back to the queen above */
            if (i == from)
                break;
            avail = stack[--i * stride];
            uint32_t b = nq_lowest_bit32(avail), g = j->gap[i];
            avail ^= b;
            d ^= b, l = (l >> g) ^ b, r = (r << g) ^ (uint64_t)b << 32;
            continue;
        }
        uint32_t b = nq_lowest_bit32(avail), g = j->gap[i];
        uint32_t nd = d | b;
        uint64_t nl = (l | b) << g, nr = (r | (uint64_t)b << 32) >> g;
        if (!(++placed & (NQ_DFS_POLL - 1)) && nq_dfs_stop_seen(stop))
            break;
        if (i + 1 == last) {
            avail ^= b;
            count += nq_dfs_last_two(j, nd, (uint32_t)nl, (uint32_t)(nr >> 32));
            continue;
        }
        stack[i++ * stride] = avail;
        d = nd, l = nl, r = nr;
        avail = j->open[i] & ~(d | (uint32_t)l | (uint32_t)(r >> 32));
    }
    *nodes += placed;
    return count;
}

/* The same with the stack on the caller's stack, watching the job's own
 * flag (the CPU's plain DFS; not an OpenCL device's, whose jobs hold no
 * pointer of its own). */
#ifndef NQ_OPENCL_C
static inline NQ_HD uint64_t nq_dfs_count(const nq_frontier *j, int from,
                                          uint32_t d, uint32_t l, uint32_t r,
                                          uint64_t *nodes)
{
    uint32_t stack[NQ_MAX_N];
    return nq_dfs_count_on(j, from, d, l, r, stack, 1, j->stop, nodes);
}
#endif

#endif

/*
 * dfs.h - the completion count of one partial placement by a plain
 * iterative bitboard DFS: the search one GPU thread runs on one sub-unit,
 * and the scalar kernel of the CPU engines.
 *
 * Plain C, no recursion, no allocation, the stack a few arrays indexed by
 * row: nvcc compiles it for the device (NQ_HD is __host__ __device__), any
 * C compiler for the host, so the code a GPU runs is the code `make test`
 * checks against OEIS.  The last two rows are counted in closed form, as
 * in the vector kernel (frontier.c).
 */
#ifndef NQ_DFS_H
#define NQ_DFS_H

#include <stdint.h>

#include "../core/bits.h"
#include "frontier.h"

/* Row i is the last: the open squares, each with its column's weight. */
static inline NQ_HD uint64_t nq_dfs_last_row(const nq_frontier *j, int i,
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
static inline NQ_HD uint64_t nq_dfs_last_two(const nq_frontier *j, uint32_t d,
                                             uint32_t l, uint32_t r)
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

/* Weighted completions of the state (d, l, r) aligned to row `from` of
 * the job; *nodes grows by the placements made. */
static inline NQ_HD uint64_t nq_dfs_count(const nq_frontier *j, int from,
                                          uint32_t d, uint32_t l, uint32_t r,
                                          uint64_t *nodes)
{
    uint32_t avail[NQ_MAX_N], down[NQ_MAX_N], left[NQ_MAX_N], right[NQ_MAX_N];
    int last = j->rows - 2, i = from;
    uint64_t count = 0, placed = 0;
    if (from >= j->rows - 1)
        return from == j->rows - 1 ? nq_dfs_last_row(j, from, d, l, r) : 0;
    if (from == last)
        return nq_dfs_last_two(j, d, l, r);
    down[i] = d, left[i] = l, right[i] = r;
    avail[i] = j->open[i] & ~(d | l | r);
    for (;;) {
        if (!avail[i]) {
            if (i == from)
                break;
            i--;
            continue;
        }
        uint32_t b = nq_lowest_bit32(avail[i]), g = j->gap[i];
        avail[i] ^= b;
        placed++;
        uint32_t nd = down[i] | b, nl = (left[i] | b) << g,
                 nr = (right[i] | b) >> g;
        if (i + 1 == last) {
            count += nq_dfs_last_two(j, nd, nl, nr);
            continue;
        }
        i++;
        down[i] = nd, left[i] = nl, right[i] = nr;
        avail[i] = j->open[i] & ~(nd | nl | nr);
    }
    *nodes += placed;
    return count;
}

#endif

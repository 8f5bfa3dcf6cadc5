/*
 * frontier.h - counting the completions of a partial placement, fast.
 *
 * A job is the rest of a board: the rows still to fill (in order, possibly
 * with pre-filled rows between them), the squares of each that pre-placed
 * queens leave open, and weights on the columns of the last row.  The count
 * is the weighted number of ways to fill those rows.  The board's free
 * columns (full less the start's down) are exactly as many as the rows to
 * fill, so every completion fills each of them: the closed form of the
 * last two rows and the split of wide jobs (frontier.c) rely on it.
 *
 * A plain depth-first search (the GPU's per-thread search, and the tests'
 * reference) and the kernels of frontier_vec.c give the same answer: a
 * frontier expansion that carries a register of partial placements (1 to
 * 32 lanes, by instruction set and board) and packs the children of each
 * level, so no branch depends on one placement's fate.  All count the last
 * two rows in closed form.  bench/RESULTS.md has their speeds.
 */
#ifndef NQ_FRONTIER_H
#define NQ_FRONTIER_H

#include <signal.h>
#include <stdint.h>

#include "nqueens.h"
#include "../core/device.h"

/* Weight classes of the last row's columns (8, 4, 2 in the fast engine). */
#define NQ_FRONTIER_WEIGHTS 3

typedef struct {
    int rows;                       /* rows left to fill, >= 1 */
    uint32_t full;                  /* the board's columns */
    uint32_t open[NQ_MAX_N];        /* per row to fill: squares left open */
    uint8_t gap[NQ_MAX_N];          /* board rows from row i to row i+1 */
    uint32_t weight_cols[NQ_FRONTIER_WEIGHTS]; /* last row: columns ... */
    uint32_t weight[NQ_FRONTIER_WEIGHTS];      /* ... and what each counts */
#ifndef NQ_OPENCL_C
    const volatile sig_atomic_t *stop; /* give up when set (stop.h); a
                                          GPU thread is handed its flag
                                          apart (dfs.h) */
#else
    nq_host_pointer stop;           /* the host's pointer, its size only:
                                       the layouts must agree (opencl.c
                                       checks them on the device) */
#endif
} nq_frontier;

/* The start: columns taken and the diagonals of the dynamically placed
 * queens, aligned to the first row to fill.  Diagonal words may carry bits
 * past the board; they are masked by `open`. */
typedef struct {
    uint32_t down, left, right;
} nq_frontier_state;

/* The rest is the host's alone (an OpenCL device compiles the job and
 * dfs.h's search, device.h). */
#ifndef NQ_OPENCL_C

typedef struct nq_frontier_work nq_frontier_work; /* per-thread buffers */

nq_frontier_work *nq_frontier_work_new(void);
void nq_frontier_work_free(nq_frontier_work *w);

/* Weighted completions of `start`; *nodes grows by the placements made
 * (the children the kernel generated: kernels that prune alike count
 * alike; a job split into 16-bit ones, frontier.c's count_split, counts
 * the sub-jobs' placements, so at N = 19 to 23 avx512 without VBMI2,
 * which does not split, counts other nodes than the rest).  Uses w's
 * kernel (nq_unit_frontier_work), else the process default (kernels.c). */
uint64_t nq_frontier_count(const nq_frontier *job, nq_frontier_state start,
                           nq_frontier_work *w, uint64_t *nodes);
/* The pieces of job j whose times add up to j's as the kernel counts it
 * (w's kernel, else the process default): for a job it splits, the
 * split's own (count_split: a queen of an outer free column placed in
 * each row it can take), else the job with each queen of its first row
 * placed; into kids and ks, NQ_MAX_N at most; how many.  An estimate of
 * a count's time (fast.c) times a piece in place of a long unit: pieces
 * of another cut than the kernel's would cost it more (bench/RESULTS.md,
 * 2026-11-28: 14 to 16% more at N = 20 and 21 cut by the first row, where
 * the kernel splits). */
int nq_frontier_pieces(const nq_frontier *j, nq_frontier_state s,
                       const nq_frontier_work *w, nq_frontier *kids,
                       nq_frontier_state *ks);
/* The job with the queen of column b (one bit, open in its first row and
 * not attacked) placed in its first row, into *kid and *ks: the rest of
 * the job, its state aligned to its next row.  What a piece of a unit
 * (fast.c) is made of, whatever the kernel. */
void nq_frontier_place_first(const nq_frontier *j, nq_frontier_state s,
                             uint32_t b, nq_frontier *kid,
                             nq_frontier_state *ks);
/* The plain DFS alone (the reference for tests; no lookahead, so it
 * counts more nodes). */
uint64_t nq_frontier_count_dfs(const nq_frontier *job,
                                  nq_frontier_state start, uint64_t *nodes);
/* The nodes of the job's search tree from row `from` (the state aligned
 * to it), estimated from `probes` random paths (Knuth's estimator; the
 * same answer for the same job). */
double nq_frontier_estimate(const nq_frontier *job, int from,
                            nq_frontier_state start, uint32_t probes);
#endif

#endif

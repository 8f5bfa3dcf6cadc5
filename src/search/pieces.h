/*
 * pieces.h - a search cut into pieces of bounded size.
 *
 * A unit of a big board can be a thousand core-hours: too long for a
 * batch system's time limit, for a journal that records a unit only when
 * it ends, and for a cluster's last hours.  So a job estimated over a
 * bound is cut into pieces, each a deeper prefix of the same search: the
 * queens of its first rows placed, and the queen of the row after them
 * kept to a set of columns (siblings too small alone are packed
 * together).  The pieces of a job partition its completions, so their
 * counts add up to the job's.  The cut depends on the job and the bound
 * alone (Knuth's estimator with its fixed seed), never on the machine or
 * the kernel: every machine cuts a plan alike.
 */
#ifndef NQ_PIECES_H
#define NQ_PIECES_H

#include <signal.h>
#include <stdint.h>

#include "frontier.h"

/* Rows a piece may place: 5 bits a column in path's 32. */
#define NQ_PIECE_DEPTH 6

/* The job with the queens of its first `depth` rows placed (row k's
 * column in bits 5k to 5k+4 of path) and, when mask is not 0, the queen
 * of the next row in one of mask's columns.  depth 0 and mask 0: the job
 * whole. */
typedef struct {
    uint32_t path;
    uint32_t mask;
    uint8_t depth;
} nq_piece;

/* The piece's job and start, made from its whole job's (in place). */
void nq_piece_job(const nq_piece *pc, nq_frontier *job,
                  nq_frontier_state *start);

/* Where a cut puts each piece, in order, with its estimated nodes; a
 * non-zero return stops the cut and is returned. */
typedef int (*nq_piece_fn)(void *ctx, const nq_piece *pc, double nodes);

/* Cut the job into pieces each estimated at `bound` nodes at most
 * (Knuth's estimator, `probes` random paths), but for a piece NQ_PIECE_DEPTH
 * rows deep or with too few rows left to cut (kept as it is); the job
 * whole if its estimate (made by the caller with the same probes) is no
 * more.  Returns 0, fn's non-zero, or -1 when *stop was set. */
int nq_pieces_cut(const nq_frontier *job, nq_frontier_state start,
                  double estimate, double bound, uint32_t probes,
                  const volatile sig_atomic_t *stop, nq_piece_fn fn,
                  void *ctx);

/* A cheap bound no estimate of the job can exceed: each level's branching
 * taken as its row's open squares less the start's columns.  A job under
 * the cut's bound by this needs no estimate to be left whole. */
double nq_pieces_ceiling(const nq_frontier *job, nq_frontier_state start);

#endif

/*
 * board.h - the one test of whether two queens attack each other.
 *
 * Every engine that compares queens pairwise (backtracking, the fast
 * engine's ring, the completion problem, the placement check) asks this,
 * so that "attack" means one thing everywhere.  Inline: backtracking asks
 * it at every node.
 */
#ifndef NQ_BOARD_H
#define NQ_BOARD_H

#include "nqueens.h"

/* The lines two queens share (NQ_BY_* bits), 0 if they do not attack. */
static inline unsigned nq_lines_shared(int r1, int c1, int r2, int c2)
{
    return (r1 == r2 ? NQ_BY_ROW : 0u) | (c1 == c2 ? NQ_BY_COLUMN : 0u) |
           (r1 + c1 == r2 + c2 ? NQ_BY_SUM : 0u) |
           (r1 - c1 == r2 - c2 ? NQ_BY_DIF : 0u);
}

#endif

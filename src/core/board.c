/*
 * board.c - checking that a placement really is a solution.
 *
 * Every solution nqueens prints or a test trusts goes through here, so it
 * is written for obviousness, not speed: each pair of queens compared.
 */
#include "nqueens.h"

static int attacks(int r1, int c1, int r2, int c2)
{
    int dr = r1 - r2, dc = c1 - c2;
    return c1 == c2 || dr == dc || dr == -dc;
}

nq_status nq_check_placement(const int *cols, int n)
{
    if (!cols || n < 1 || n > NQ_MAX_N)
        return NQ_ERR_ARG;
    for (int r = 0; r < n; r++) {
        if (cols[r] < 0 || cols[r] >= n)
            return NQ_ERR_INVALID;
        for (int q = 0; q < r; q++)
            if (attacks(q, cols[q], r, cols[r]))
                return NQ_ERR_INVALID;
    }
    return NQ_OK;
}

/*
 * board.c - checking that a placement really is a solution.
 *
 * Every solution nqueens prints or a test trusts goes through here, so it
 * is written for obviousness, not speed: each pair of queens compared.
 * Boards past NQ_MAX_N (from find, up to millions of queens) cannot afford
 * n^2 pairs and are checked by marking lines instead.
 */
#include <stdlib.h>

#include "board.h"

unsigned nq_attack_lines(int r1, int c1, int r2, int c2)
{
    return nq_lines_shared(r1, c1, r2, c2);
}

/* Large boards (find): each column and diagonal marked once, O(n) time. */
static nq_status check_large(const int *cols, int n)
{
    size_t len = 2 * (size_t)n;
    unsigned char *seen = calloc(3, len);
    if (!seen)
        return NQ_ERR_NOMEM;
    unsigned char *col = seen, *sum = seen + len, *dif = seen + 2 * len;
    nq_status st = NQ_OK;
    for (int r = 0; r < n && st == NQ_OK; r++) {
        int c = cols[r];
        if (c < 0 || c >= n || col[c] || sum[r + c] || dif[r - c + n - 1])
            st = NQ_ERR_INVALID;
        else
            col[c] = sum[r + c] = dif[r - c + n - 1] = 1;
    }
    free(seen);
    return st;
}

nq_status nq_check_placement(const int *cols, int n)
{
    if (!cols || n < 1 || n > NQ_FIND_MAX_N)
        return NQ_ERR_ARG;
    if (n > NQ_MAX_N)
        return check_large(cols, n);
    for (int r = 0; r < n; r++) {
        if (cols[r] < 0 || cols[r] >= n)
            return NQ_ERR_INVALID;
        for (int q = 0; q < r; q++)
            if (nq_lines_shared(q, cols[q], r, cols[r]))
                return NQ_ERR_INVALID;
    }
    return NQ_OK;
}

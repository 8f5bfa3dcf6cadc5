/*
 * construct.c - one solution for any board, by formula.
 *
 * Counting stops near N = 30; one solution is easy for any N >= 4 because
 * explicit constructions exist (Hoffman, Loessi and Moore, "Constructions
 * for the solution of the m queens problem", Mathematics Magazine 42, 1969;
 * also Bernhardsson, SIGART Bulletin 2(2), 1991).  Rows and columns here
 * count from 0.  For even n:
 *  - n mod 6 != 2: the first half of the rows take the odd columns 1, 3,
 *    5, ... and the second half the even columns 0, 2, 4, ...: two runs of
 *    knight-like steps that never share a diagonal.
 *  - n mod 6 == 2 (where the runs above collide): row i < n/2 takes column
 *    (2i + n/2 - 1) mod n and row n-1-i the mirror image of that column.
 * For odd n, the solution for n - 1 leaves the main diagonal empty, so the
 * corner (n-1, n-1) completes it.
 * The answer is checked by the caller in O(n) (nq_check_placement); the
 * tests check every n up to 200 and two of ten million.
 */
#include "engine.h"

static void formula_even(int n, int *cols)
{
    int h = n / 2;
    for (int i = 0; i < h; i++) {
        if (n % 6 != 2) {
            cols[i] = 2 * i + 1;
            cols[h + i] = 2 * i;
        } else {
            int c = (2 * i + h - 1) % n;
            cols[i] = c;
            cols[n - 1 - i] = n - 1 - c;
        }
    }
}

static void formula(int n, int *cols)
{
    formula_even(n - n % 2, cols);
    if (n % 2)
        cols[n - 1] = n - 1;
}

nq_status nq_find_solution(int n, nq_find_method method, uint64_t seed,
                           int *cols)
{
    if (!cols || n < 1 || n > NQ_FIND_MAX_N ||
        (method != NQ_FIND_FORMULA && method != NQ_FIND_SEARCH))
        return NQ_ERR_ARG;
    if (n == 2 || n == 3)
        return NQ_ERR_NOSOLUTION;
    if (method == NQ_FIND_SEARCH)
        return nq_min_conflicts(n, seed, cols);
    formula(n, cols);
    return NQ_OK;
}

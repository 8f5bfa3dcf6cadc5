/*
 * backtrack.c - Gauss and Laquiere's PlaceQueens (seeds 000, 001).
 *
 * Queens go in row by row; a square is tried only if no queen already on
 * the board attacks it, checked against each of them in turn.  A dead end
 * is abandoned at once, so the search walks the tree of consistent partial
 * placements (OEIS A319235) instead of all N^N.
 */
#include "engine.h"

static int square_is_safe(const int *cols, int row, int c)
{
    for (int i = 0; i < row; i++) {
        int d = cols[i] - c;
        if (d == 0 || d == row - i || d == i - row)
            return 0;
    }
    return 1;
}

static void backtrack_rec(nq_search *s, int *cols, int row)
{
    if (row == s->n) {
        nq_search_solution(s, cols);
        return;
    }
    for (int c = 0; c < s->n && !s->stop; c++) {
        if (!square_is_safe(cols, row, c))
            continue;
        cols[row] = c;
        s->nodes++;
        backtrack_rec(s, cols, row + 1);
    }
}

/* The column to resume each row from is cols[row] itself. */
static void backtrack_iter(nq_search *s, int *cols)
{
    int row = 0;
    cols[0] = -1;
    while (row >= 0 && !s->stop) {
        int c = cols[row] + 1;
        while (c < s->n && !square_is_safe(cols, row, c))
            c++;
        if (c == s->n) {
            row--;
            continue;
        }
        cols[row] = c;
        s->nodes++;
        if (row == s->n - 1)
            nq_search_solution(s, cols);
        else
            cols[++row] = -1;
    }
}

static void backtrack_search(nq_search *s)
{
    int cols[NQ_MAX_N] = {0};
    s->nodes = 1;
    if (s->iterative)
        backtrack_iter(s, cols);
    else
        backtrack_rec(s, cols, 0);
}

const nq_engine nq_engine_backtrack = {
    .name = "backtrack",
    .summary = "place row by row, check each queen against all earlier ones",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_ENUMERATE,
    .search = backtrack_search,
};

/*
 * flags.c - placement flags (seeds 002, 003).
 *
 * Backtracking, but the question "is this square attacked?" is answered by
 * three occupancy arrays instead of a loop over earlier queens: one per
 * column and one per diagonal of each direction.  The square (r, c) lies on
 * diagonal r + c of one direction and r - c + n - 1 of the other, so each
 * check is three lookups.
 */
#include "engine.h"

typedef struct {
    nq_search *s;
    int cols[NQ_MAX_N];
    char col[NQ_MAX_N];          /* column taken */
    char sum[2 * NQ_MAX_N - 1];  /* diagonal r + c taken */
    char dif[2 * NQ_MAX_N - 1];  /* diagonal r - c + n - 1 taken */
} flags_board;

static int flags_free(const flags_board *b, int r, int c)
{
    return !b->col[c] && !b->sum[r + c] && !b->dif[r - c + b->s->n - 1];
}

static void flags_set(flags_board *b, int r, int c, char v)
{
    b->col[c] = v;
    b->sum[r + c] = v;
    b->dif[r - c + b->s->n - 1] = v;
}

static void flags_rec(flags_board *b, int row)
{
    nq_search *s = b->s;
    if (row == s->n) {
        nq_search_solution(s, b->cols);
        return;
    }
    for (int c = 0; c < s->n && !s->stop; c++) {
        if (!flags_free(b, row, c))
            continue;
        b->cols[row] = c;
        s->nodes++;
        flags_set(b, row, c, 1);
        flags_rec(b, row + 1);
        flags_set(b, row, c, 0);
    }
}

/* On resuming a row, its previous queen's flags are cleared first: that is
 * the "unmark" step the recursion does after its call returns. */
static void flags_iter(flags_board *b)
{
    nq_search *s = b->s;
    int row = 0;
    b->cols[0] = -1;
    while (row >= 0 && !s->stop) {
        int c = b->cols[row];
        if (c >= 0)
            flags_set(b, row, c, 0);
        for (c++; c < s->n && !flags_free(b, row, c); c++)
            ;
        if (c == s->n) {
            row--;
            continue;
        }
        b->cols[row] = c;
        s->nodes++;
        flags_set(b, row, c, 1);
        if (row == s->n - 1)
            nq_search_solution(s, b->cols);
        else
            b->cols[++row] = -1;
    }
}

static void flags_search(nq_search *s)
{
    flags_board b = {.s = s};
    s->nodes = 1;
    if (s->iterative)
        flags_iter(&b);
    else
        flags_rec(&b, 0);
}

const nq_engine nq_engine_flags = {
    .name = "flags",
    .summary = "backtracking with column and diagonal occupancy arrays",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_ENUMERATE,
    .search = flags_search,
};

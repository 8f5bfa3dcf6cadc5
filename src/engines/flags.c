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

/* Report an event with the three arrays as they are after it. */
static void flags_event(const flags_board *b, nq_event_kind kind, int r, int c,
                        unsigned reason)
{
    nq_event e = {.kind = kind, .row = r, .col = c, .reason = reason,
                  .by_row = -1, .cols = b->cols, .col_flags = b->col,
                  .sum_flags = b->sum, .dif_flags = b->dif};
    nq_search_emit(b->s, &e);
}

/* Three lookups; a watched search hears which flags refused the square. */
static int flags_free(const flags_board *b, int r, int c)
{
    unsigned why = (b->col[c] ? NQ_BY_COLUMN : 0) |
                   (b->sum[r + c] ? NQ_BY_SUM : 0) |
                   (b->dif[r - c + b->s->n - 1] ? NQ_BY_DIF : 0);
    if (why && b->s->event)
        flags_event(b, NQ_EVENT_REJECT, r, c, why);
    return !why;
}

/* Mark (v = 1) or unmark the square's column and diagonals. */
static void flags_set(flags_board *b, int r, int c, char v)
{
    b->col[c] = v;
    b->sum[r + c] = v;
    b->dif[r - c + b->s->n - 1] = v;
    if (b->s->event)
        flags_event(b, v ? NQ_EVENT_PLACE : NQ_EVENT_REMOVE, r, c, 0);
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
    .caps = NQ_CAP_ENUMERATE | NQ_CAP_EVENTS | NQ_CAP_FLAG_ARRAYS,
    .search = flags_search,
};

/*
 * backtrack.c - Gauss and Laquiere's PlaceQueens (seeds 000, 001).
 *
 * Queens go in row by row; a square is tried only if no queen already on
 * the board attacks it, checked against each of them in turn.  A dead end
 * is abandoned at once, so the search walks the tree of consistent partial
 * placements (OEIS A319235) instead of all N^N.
 */
#include "../core/board.h"
#include "engine.h"

/* The first earlier row whose queen attacks (row, c), or -1; *how says
 * along which line. */
static int attacker(const int *cols, int row, int c, unsigned *how)
{
    for (int i = 0; i < row; i++)
        if ((*how = nq_lines_shared(i, cols[i], row, c)))
            return i;
    return -1;
}

/* Is (row, c) safe?  A watched search hears why not. */
static int square_is_safe(nq_search *s, const int *cols, int row, int c)
{
    unsigned how;
    int by = attacker(cols, row, c, &how);
    if (by >= 0 && s->event) {
        nq_event e = {.kind = NQ_EVENT_REJECT, .row = row, .col = c,
                      .reason = how, .by_row = by, .cols = cols};
        nq_search_emit(s, &e);
    }
    return by < 0;
}

static void backtrack_rec(nq_search *s, int *cols, int row)
{
    if (row == s->n) {
        nq_search_solution(s, cols);
        return;
    }
    for (int c = 0; c < s->n && !s->stop; c++) {
        if (!square_is_safe(s, cols, row, c))
            continue;
        cols[row] = c;
        s->nodes++;
        nq_search_event(s, NQ_EVENT_PLACE, row, c, cols);
        backtrack_rec(s, cols, row + 1);
        nq_search_event(s, NQ_EVENT_REMOVE, row, c, cols);
    }
}

/* The column to resume each row from is cols[row] itself; resuming a row
 * lifts its queen first, as the recursion does when its call returns. */
static void backtrack_iter(nq_search *s, int *cols)
{
    int row = 0;
    cols[0] = -1;
    while (row >= 0 && !s->stop) {
        int c = cols[row] + 1;
        if (c > 0)
            nq_search_event(s, NQ_EVENT_REMOVE, row, c - 1, cols);
        while (c < s->n && !square_is_safe(s, cols, row, c))
            c++;
        if (c == s->n) {
            row--;
            continue;
        }
        cols[row] = c;
        s->nodes++;
        nq_search_event(s, NQ_EVENT_PLACE, row, c, cols);
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
    .caps = NQ_CAP_ENUMERATE | NQ_CAP_EVENTS,
    .search = backtrack_search,
};

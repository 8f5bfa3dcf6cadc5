/*
 * mirror.c - bitmap with left-right mirror halving.
 *
 * Reflecting a solution in the board's vertical axis gives another
 * solution, never the same one (for n > 1 its row-0 queen would have to be
 * its own mirror image, and so would every other queen).  So only solutions
 * whose row-0 queen is in the left half are searched, and each counts
 * twice.  For odd n the row-0 queen may also sit in the middle column; those
 * solutions pair up by the row-1 queen instead, which then goes in the left
 * half (it cannot share the middle column).
 *
 * Every class has its smallest member among the solutions searched, so the
 * unique count is the number of searched solutions that are smallest.
 */
#include "dfs_board.h"

static void mirror_leaf(nq_dfs_board *d)
{
    nq_search *s = d->s;
    nq_search_event(s, NQ_EVENT_SOLUTION, d->n - 1, d->cols[d->n - 1], d->cols);
    s->total += (unsigned)d->weight;
    s->unique += nq_canonical_weight(d->cols, d->n) != 0;
}

/* The row-0 queen in col; row 0's loop (for a watched search) tries the
 * left half, then the middle column of an odd board. */
static void mirror_from(nq_dfs_board *d, int col)
{
    uint32_t down = 0, left = 0, right = 0;
    uint32_t loop = (uint32_t)nq_low_bits(d->n / 2 + d->n % 2);
    nq_dfs_board_place(d, 0, col, loop, &down, &left, &right);
    nq_dfs_board_run(d, 1, down, left, right);
    nq_dfs_board_unplace(d, 0, loop, 0, 0, 0);
}

static void mirror_search(nq_search *s)
{
    nq_dfs_board d;
    int n = s->n, half = n / 2;
    nq_dfs_board_init(&d, s, mirror_leaf);
    s->nodes = 1;
    d.weight = 2;
    for (int c = 0; c < half; c++)
        mirror_from(&d, c);
    if (n % 2 == 1) {
        /* Row 1 takes the left half only; with no row 1 (n = 1) the lone
         * queen is its own mirror image and counts once. */
        d.forbid[1] = d.full & ~(uint32_t)nq_low_bits(half);
        d.weight = n > 1 ? 2 : 1;
        mirror_from(&d, half);
    }
}

const nq_engine nq_engine_mirror = {
    .name = "mirror",
    .summary = "bitmap, first queen in the left half only, counted twice",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_EVENTS,
    .search = mirror_search,
};

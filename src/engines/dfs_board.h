/*
 * dfs_board.h - the bitboard depth-first search shared by bitmap, mirror and
 * symmetry.
 *
 * Columns and both diagonals are words: bit c of `down` is an occupied
 * column, `left` and `right` the diagonals, shifted one column per row as
 * they run down the board.  The free squares of a row are one AND-NOT, and
 * the lowest of them is one instruction, so a node costs a handful of
 * operations.  The three engines differ only in how they start the search
 * (which first-row squares, which per-row squares are ruled out) and in what
 * a solution is worth, so the loop lives here once, in a recursive and an
 * explicit-stack form.
 */
#ifndef NQ_DFS_BOARD_H
#define NQ_DFS_BOARD_H

#include "engine.h"
#include "../core/bits.h"

typedef struct nq_dfs_board nq_dfs_board;
struct nq_dfs_board {
    nq_search *s;
    int n;
    uint32_t full;                /* the n board columns */
    uint32_t forbid[NQ_MAX_N];    /* squares an engine rules out per row */
    int cols[NQ_MAX_N];           /* the placement so far */
    int weight;                   /* what the leaf handler may use */
    void (*leaf)(nq_dfs_board *d);   /* called with cols[0..n-1] complete */
};

static inline void nq_dfs_board_init(nq_dfs_board *d, nq_search *s,
                                  void (*leaf)(nq_dfs_board *))
{
    d->s = s;
    d->n = s->n;
    d->full = (uint32_t)nq_low_bits(s->n);
    for (int r = 0; r < NQ_MAX_N; r++)
        d->forbid[r] = 0;
    d->weight = 1;
    d->leaf = leaf;
}

static inline uint32_t nq_dfs_board_free(const nq_dfs_board *d, int row,
                                      uint32_t down, uint32_t left,
                                      uint32_t right)
{
    return d->full & ~(down | left | right | d->forbid[row]);
}

/* A watched search hears each placement and removal with the row's three
 * masks as they were before it (the columns attacked in that row), the
 * squares the node still has to try (with the placed one, for a
 * placement; after it, for a removal) and the squares the engine's own
 * rule rules out of the row.  Built out of line, and only when s->event
 * is set: a count's loop holds nothing of it but the test (unused: an
 * includer that never watches need not say so). */
__attribute__((noinline, cold, unused))
static void nq_dfs_board_emit(const nq_dfs_board *d, nq_event_kind kind,
                              int row, uint32_t down, uint32_t left,
                              uint32_t right, uint32_t untried, uint32_t ruled)
{
    nq_event e = {.kind = kind, .row = row, .col = d->cols[row],
                  .by_row = -1, .cols = d->cols, .has_masks = 1,
                  .down = down & d->full, .left = left & d->full,
                  .right = right & d->full, .untried = untried & d->full,
                  .ruled = ruled & d->full};
    nq_search_emit(d->s, &e);
}

static inline void nq_dfs_board_event(const nq_dfs_board *d, nq_event_kind kind,
                                   int row, uint32_t down, uint32_t left,
                                   uint32_t right, uint32_t untried,
                                   uint32_t ruled)
{
    if (d->s->event)
        nq_dfs_board_emit(d, kind, row, down, left, right, untried, ruled);
}

static inline void nq_dfs_board_rec(nq_dfs_board *d, int row, uint32_t down,
                          uint32_t left, uint32_t right)
{
    if (row == d->n) {
        d->leaf(d);
        return;
    }
    uint32_t avail = nq_dfs_board_free(d, row, down, left, right);
    while (avail && !d->s->stop) {
        uint32_t bit = (uint32_t)nq_lowest_bit(avail);
        avail ^= bit;
        d->s->nodes++;
        d->cols[row] = nq_ctz(bit);
        nq_dfs_board_event(d, NQ_EVENT_PLACE, row, down, left, right,
                           avail | bit, d->forbid[row]);
        nq_dfs_board_rec(d, row + 1, down | bit, (left | bit) << 1,
                      (right | bit) >> 1);
        nq_dfs_board_event(d, NQ_EVENT_REMOVE, row, down, left, right,
                           avail, d->forbid[row]);
    }
}

/* The same walk with the recursion's locals kept in arrays indexed by row:
 * what the recursive form keeps on the call stack, made explicit.  A row's
 * queen is taken back (cols[row] = -1) before its next square is tried or
 * the walk goes up, as the recursion does when its call returns. */
static inline void nq_dfs_board_iter(nq_dfs_board *d, int row0, uint32_t down,
                           uint32_t left, uint32_t right)
{
    uint32_t avail[NQ_MAX_N], dn[NQ_MAX_N], lf[NQ_MAX_N], rt[NQ_MAX_N];
    int row = row0;
    if (row0 == d->n) {
        d->leaf(d);
        return;
    }
    dn[row] = down, lf[row] = left, rt[row] = right;
    avail[row] = nq_dfs_board_free(d, row, down, left, right);
    d->cols[row] = -1;
    for (;;) {
        if (d->cols[row] >= 0) {
            nq_dfs_board_event(d, NQ_EVENT_REMOVE, row, dn[row], lf[row],
                               rt[row], avail[row], d->forbid[row]);
            d->cols[row] = -1;
        }
        if (!avail[row] || d->s->stop) {
            if (row == row0)
                return;
            row--;
            continue;
        }
        uint32_t bit = (uint32_t)nq_lowest_bit(avail[row]);
        avail[row] ^= bit;
        d->s->nodes++;
        d->cols[row] = nq_ctz(bit);
        nq_dfs_board_event(d, NQ_EVENT_PLACE, row, dn[row], lf[row], rt[row],
                           avail[row] | bit, d->forbid[row]);
        if (row + 1 == d->n) {
            d->leaf(d);
            continue;
        }
        dn[row + 1] = dn[row] | bit;
        lf[row + 1] = (lf[row] | bit) << 1;
        rt[row + 1] = (rt[row] | bit) >> 1;
        row++;
        avail[row] = nq_dfs_board_free(d, row, dn[row], lf[row], rt[row]);
        d->cols[row] = -1;
    }
}

/* Search rows row..n-1 below the given occupancy, in the form the request
 * asked for. */
static inline void nq_dfs_board_run(nq_dfs_board *d, int row, uint32_t down,
                                 uint32_t left, uint32_t right)
{
    if (d->s->iterative)
        nq_dfs_board_iter(d, row, down, left, right);
    else
        nq_dfs_board_rec(d, row, down, left, right);
}

/* The columns of `loop` after col: what an engine's own first-row loop
 * (ascending, over the columns `loop`) has left once it has tried col. */
static inline uint32_t nq_dfs_board_after(uint32_t loop, int col)
{
    return loop & ~(uint32_t)nq_low_bits(col + 1);
}

/* Place a queen in `col` of `row` by hand (an engine's own first rows,
 * whose loop tries the columns `loop` in ascending order): counts the node
 * and returns the occupancy seen by the next row.  A watched search hears
 * the loop's columns from col on as still to try, and the columns it never
 * visits as ruled out. */
static inline void nq_dfs_board_place(nq_dfs_board *d, int row, int col,
                                   uint32_t loop, uint32_t *down,
                                   uint32_t *left, uint32_t *right)
{
    uint32_t bit = (uint32_t)1 << col;
    d->s->nodes++;
    d->cols[row] = col;
    nq_dfs_board_event(d, NQ_EVENT_PLACE, row, *down, *left, *right,
                       nq_dfs_board_after(loop, col) | bit, ~loop);
    *down |= bit;
    *left = (*left | bit) << 1;
    *right = (*right | bit) >> 1;
}

/* Take back a queen placed by hand; the masks and the loop are the ones
 * it was placed with (what nq_dfs_board_place was given). */
static inline void nq_dfs_board_unplace(nq_dfs_board *d, int row,
                                     uint32_t loop, uint32_t down,
                                     uint32_t left, uint32_t right)
{
    nq_dfs_board_event(d, NQ_EVENT_REMOVE, row, down, left, right,
                       nq_dfs_board_after(loop, d->cols[row]), ~loop);
}

#endif

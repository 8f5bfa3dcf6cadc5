/*
 * bitmap.c - bitmask depth-first search.
 *
 * The flags engine's three arrays become three machine words and the
 * squares left in a row come out of one expression (see dfs_board.h).  Same
 * tree as backtrack and flags, visited many times faster.
 */
#include "dfs_board.h"

static void bitmap_leaf(nq_dfs_board *d)
{
    nq_search_solution(d->s, d->cols);
}

static void bitmap_search(nq_search *s)
{
    nq_dfs_board d;
    nq_dfs_board_init(&d, s, bitmap_leaf);
    s->nodes = 1;
    nq_dfs_board_run(&d, 0, 0, 0, 0);
}

const nq_engine nq_engine_bitmap = {
    .name = "bitmap",
    .summary = "bitmask DFS: columns and both diagonals as bits of a word",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_ENUMERATE | NQ_CAP_EVENTS,
    .search = bitmap_search,
};

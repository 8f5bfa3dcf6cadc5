/*
 * symmetry.c - bitmap with symmetry elimination.
 *
 * Each class of solutions under the 8 rotations and reflections is found
 * once, through its lexicographically smallest member, and weighted by the
 * number of distinct images it has (8, or 4 if a half turn fixes it, or 2
 * if a quarter turn does; no reflection fixes a solution of n > 1).
 *
 * Being smallest forces shape on the board before any search, and those
 * necessary conditions prune the tree:
 *  - Row 0's queen, in column m, is the closest of the four edge queens to
 *    a corner: an image brings any edge queen to row 0 at its distance from
 *    the nearer corner.  So m <= (n-1)/2, and on the left and right edges no
 *    queen stands less than m rows from the top or bottom, and the queen of
 *    the last row stands in columns m..n-1-m.
 *  - With m = 0 the corner (0,0) is taken; the transposed image also has a
 *    corner queen in row 0, and comparing row 1 says the queen of column 1
 *    must stand below the queen of row 1: column 1 is ruled out in rows
 *    2..c1-1, where c1 is row 1's column.
 * Whatever ties remain are settled at the leaf by comparing the solution
 * with its images (nq_canonical_weight), which also gives the weight.
 */
#include "dfs_board.h"

static void symmetry_leaf(nq_dfs_board *d)
{
    nq_search *s = d->s;
    int w = nq_canonical_weight(d->cols, d->n);
    nq_search_event(s, NQ_EVENT_SOLUTION, d->n - 1, d->cols[d->n - 1], d->cols);
    s->total += (unsigned)w;
    s->unique += w != 0;
}

static void clear_forbid(nq_dfs_board *d)
{
    for (int r = 0; r < d->n; r++)
        d->forbid[r] = 0;
}

/* The columns row 0's loop tries: the corner, then m = 1..(n-1)/2. */
static uint32_t row0_loop(const nq_dfs_board *d)
{
    return (uint32_t)nq_low_bits((d->n - 1) / 2 + 1);
}

/* Queen in the corner (0,0); row 1's loop tries columns 2..n-1. */
static void symmetry_corner(nq_dfs_board *d)
{
    uint32_t down = 0, left = 0, right = 0;
    uint32_t row1 = d->full & ~(uint32_t)3;
    nq_dfs_board_place(d, 0, 0, row0_loop(d), &down, &left, &right);
    if (d->n == 1)
        nq_dfs_board_run(d, 1, down, left, right);
    for (int c1 = 2; c1 < d->n && !d->s->stop; c1++) {
        uint32_t dn = down, lf = left, rt = right;
        clear_forbid(d);
        for (int r = 2; r < c1; r++)
            d->forbid[r] = 2;
        nq_dfs_board_place(d, 1, c1, row1, &dn, &lf, &rt);
        nq_dfs_board_run(d, 2, dn, lf, rt);
        nq_dfs_board_unplace(d, 1, row1, down, left, right);
    }
    nq_dfs_board_unplace(d, 0, row0_loop(d), 0, 0, 0);
}

/* Queen of row 0 in column m >= 1, nearest of the edge queens to a corner. */
static void symmetry_edge(nq_dfs_board *d, int m)
{
    int n = d->n;
    uint32_t down = 0, left = 0, right = 0;
    uint32_t sides = 1u | (uint32_t)1 << (n - 1);
    clear_forbid(d);
    for (int r = 1; r < n; r++)
        if (r < m || r > n - 1 - m)
            d->forbid[r] = sides;
    d->forbid[n - 1] |= (uint32_t)nq_low_bits(m) |
                        (d->full & ~(uint32_t)nq_low_bits(n - m));
    nq_dfs_board_place(d, 0, m, row0_loop(d), &down, &left, &right);
    nq_dfs_board_run(d, 1, down, left, right);
    nq_dfs_board_unplace(d, 0, row0_loop(d), 0, 0, 0);
}

static void symmetry_search(nq_search *s)
{
    nq_dfs_board d;
    nq_dfs_board_init(&d, s, symmetry_leaf);
    s->nodes = 1;
    symmetry_corner(&d);
    for (int m = 1; 2 * m <= s->n - 1; m++)
        symmetry_edge(&d, m);
}

void nq_count_whole_board(int n, nq_tally *t)
{
    nq_search s = {.n = n};
    symmetry_search(&s);
    t->total = s.total, t->unique = s.unique, t->nodes = s.nodes;
}

const nq_engine nq_engine_symmetry = {
    .name = "symmetry",
    .summary = "bitmap searching one solution per symmetry class, weighted",
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_EVENTS,
    .search = symmetry_search,
};

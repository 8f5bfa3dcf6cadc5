/*
 * brute.c - generate and test (seed 004).
 *
 * Every one of the N^N ways to put one queen in each row is generated, and
 * only a complete placement is checked.  Nothing is pruned, which is the
 * point: the node count 1 + N + N^2 + ... + N^N is what backtracking saves.
 */
#include "engine.h"

static void brute_rec(nq_search *s, int *cols, int row)
{
    if (row == s->n) {
        if (nq_check_placement(cols, s->n) == NQ_OK)
            nq_search_solution(s, cols);
        return;
    }
    for (int c = 0; c < s->n && !s->stop; c++) {
        cols[row] = c;
        s->nodes++;
        brute_rec(s, cols, row + 1);
    }
}

/* cols[row] doubles as the loop counter of each level: -1 means the level
 * has not tried a column yet. */
static void brute_iter(nq_search *s, int *cols)
{
    int row = 0;
    cols[0] = -1;
    while (row >= 0 && !s->stop) {
        if (++cols[row] == s->n) {
            row--;
            continue;
        }
        s->nodes++;
        if (row == s->n - 1) {
            if (nq_check_placement(cols, s->n) == NQ_OK)
                nq_search_solution(s, cols);
            continue;
        }
        cols[++row] = -1;
    }
}

static void brute_search(nq_search *s)
{
    int cols[NQ_MAX_N] = {0};
    s->nodes = 1;
    if (s->iterative)
        brute_iter(s, cols);
    else
        brute_rec(s, cols, 0);
}

/* 26: the node count passes 2^128 beyond it (27^28 > 2^128). */
const nq_engine nq_engine_brute = {
    .name = "brute",
    .summary = "generate all N^N row placements, test each complete one",
    .max_n = 26,
    .caps = NQ_CAP_ENUMERATE,
    .search = brute_search,
};

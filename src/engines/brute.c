/*
 * brute.c - generate and test (seed 004).
 *
 * Every one of the N^N ways to put one queen in each row is generated, and
 * only a complete placement is checked.  Nothing is pruned, which is the
 * point: the node count 1 + N + N^2 + ... + N^N is what backtracking saves.
 */
#include "engine.h"

/* A complete placement: a solution, or (watched) a failure. */
static void brute_test(nq_search *s, const int *cols)
{
    if (nq_check_placement(cols, s->n) == NQ_OK)
        nq_search_solution(s, cols);
    else
        nq_search_event(s, NQ_EVENT_FAIL, s->n - 1, cols[s->n - 1], cols);
}

static void brute_rec(nq_search *s, int *cols, int row)
{
    if (row == s->n) {
        brute_test(s, cols);
        return;
    }
    for (int c = 0; c < s->n && !s->stop; c++) {
        cols[row] = c;
        s->nodes++;
        nq_search_event(s, NQ_EVENT_PLACE, row, c, cols);
        brute_rec(s, cols, row + 1);
        nq_search_event(s, NQ_EVENT_REMOVE, row, c, cols);
    }
}

/* cols[row] doubles as the loop counter of each level: -1 means the level
 * has not tried a column yet.  Moving on from a column lifts its queen. */
static void brute_iter(nq_search *s, int *cols)
{
    int row = 0;
    cols[0] = -1;
    while (row >= 0 && !s->stop) {
        if (cols[row] >= 0)
            nq_search_event(s, NQ_EVENT_REMOVE, row, cols[row], cols);
        if (++cols[row] == s->n) {
            row--;
            continue;
        }
        s->nodes++;
        nq_search_event(s, NQ_EVENT_PLACE, row, cols[row], cols);
        if (row == s->n - 1) {
            brute_test(s, cols);
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
    .caps = NQ_CAP_ENUMERATE | NQ_CAP_EVENTS,
    .search = brute_search,
};

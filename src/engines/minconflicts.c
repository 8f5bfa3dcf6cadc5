/*
 * minconflicts.c - one random solution by local search.
 *
 * The queens are kept a permutation (one per row and per column), so only
 * diagonals can clash; a move swaps the columns of two rows, which keeps
 * it a permutation.  This is the scheme of Sosic and Gu ("Efficient local
 * search with conflict minimization: a case study of the n-queens problem",
 * IEEE TKDE 6(5), 1994):
 *  - start: each row in turn takes a random column still free, retried a
 *    few times until no earlier queen shares its diagonals, so that almost
 *    every queen starts safe and only a handful of rows are in conflict;
 *  - repair: each attacked row swaps with a random row when that lowers
 *    the number of attacking pairs, until none is left.
 * The attacked rows are kept in a list, so a pass costs what is in conflict
 * rather than n.  Large boards converge in a few passes; the rare start
 * that stalls (small n) is abandoned for a fresh one.
 */
#include <stdlib.h>

#include "../core/random.h"
#include "engine.h"

typedef struct {
    int n;
    int *cols;
    int *sum, *dif;          /* queens on each diagonal r+c, r-c+n-1 */
    int *list, count;        /* rows that may be attacked */
    unsigned char *listed;
    uint64_t rng;
    int64_t pairs;           /* pairs of queens sharing a diagonal */
} mc_board;

enum { INIT_TRIES = 32, STALE_PASSES = 4096, MAX_STARTS = 10000 };

/* The seed fixes the solution. */
static int mc_below(mc_board *b, int n)
{
    return (int)nq_random_below(&b->rng, (uint32_t)n);
}

/* Add (d = 1) or lift (d = -1) the queen of row r; returns the pairs it
 * makes or made with the other queens on its diagonals. */
static inline int64_t mc_put(mc_board *b, int r, int d)
{
    int *s = &b->sum[r + b->cols[r]], *f = &b->dif[r - b->cols[r] + b->n - 1];
    if (d < 0)
        *s -= 1, *f -= 1;
    int64_t made = *s + *f;
    if (d > 0)
        *s += 1, *f += 1;
    return made;
}

static inline int mc_attacked(const mc_board *b, int r)
{
    return b->sum[r + b->cols[r]] + b->dif[r - b->cols[r] + b->n - 1] > 2;
}

/* Swap the columns of rows i and j; returns the change in pairs. */
static int64_t mc_swap(mc_board *b, int i, int j)
{
    int64_t delta = -mc_put(b, i, -1);
    delta -= mc_put(b, j, -1);
    int c = b->cols[i];
    b->cols[i] = b->cols[j], b->cols[j] = c;
    delta += mc_put(b, i, 1);
    return delta + mc_put(b, j, 1);
}

static void mc_list(mc_board *b, int r)
{
    if (!b->listed[r] && mc_attacked(b, r)) {
        b->listed[r] = 1;
        b->list[b->count++] = r;
    }
}

/* A fresh start: a random permutation built row by row, each row retried
 * a few times for a column that no earlier queen attacks. */
static void mc_start(mc_board *b)
{
    int n = b->n;
    for (int i = 0; i < 2 * n - 1; i++)
        b->sum[i] = b->dif[i] = 0;
    for (int r = 0; r < n; r++)
        b->cols[r] = r, b->listed[r] = 0;
    b->pairs = 0;
    for (int r = 0; r < n; r++) {
        for (int t = 0; t < INIT_TRIES; t++) {
            int j = r + mc_below(b, n - r), c = b->cols[j];
            b->cols[j] = b->cols[r], b->cols[r] = c;
            if (!b->sum[r + c] && !b->dif[r - c + n - 1])
                break;
        }
        b->pairs += mc_put(b, r, 1);
    }
    b->count = 0;
    for (int r = 0; r < n; r++)
        mc_list(b, r);
}

/* One pass over the listed rows: each still attacked tries one swap. */
static void mc_pass(mc_board *b)
{
    int count = b->count;
    b->count = 0;
    for (int k = 0; k < count; k++)
        b->listed[b->list[k]] = 0;
    for (int k = 0; k < count && b->pairs > 0; k++) {
        int i = b->list[k], j = mc_below(b, b->n);
        if (!mc_attacked(b, i) || i == j)
            continue;
        int64_t delta = mc_swap(b, i, j);
        if (delta >= 0)
            mc_swap(b, i, j); /* no better: undo */
        else
            b->pairs += delta;
        mc_list(b, i);
        mc_list(b, j);
    }
    if (b->count == 0 && b->pairs > 0) /* others hit by a move: rescan */
        for (int r = 0; r < b->n; r++)
            mc_list(b, r);
}

static int mc_solve(mc_board *b)
{
    for (int start = 0; start < MAX_STARTS; start++) {
        mc_start(b);
        int stale = 0;
        while (b->pairs > 0 && stale < STALE_PASSES) {
            int64_t before = b->pairs;
            mc_pass(b);
            stale = b->pairs < before ? 0 : stale + 1;
        }
        if (b->pairs == 0)
            return 1;
    }
    return 0;
}

nq_status nq_min_conflicts(int n, uint64_t seed, int *cols)
{
    mc_board b = {.n = n, .cols = cols, .rng = seed};
    size_t diags = 2 * (size_t)n - 1;
    b.sum = malloc(sizeof *b.sum * diags);
    b.dif = malloc(sizeof *b.dif * diags);
    b.list = malloc(sizeof *b.list * (size_t)n);
    b.listed = malloc((size_t)n);
    nq_status st = NQ_ERR_NOMEM;
    if (b.sum && b.dif && b.list && b.listed)
        st = mc_solve(&b) ? NQ_OK : NQ_ERR_INTERNAL;
    free(b.sum);
    free(b.dif);
    free(b.list);
    free(b.listed);
    return st;
}

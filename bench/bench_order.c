/*
 * bench_order.c - `make bench-order`: how many nodes fast's units cost
 * with each way of choosing the line a queen is placed in next.
 *
 *   nq-bench-order N [STEP]     (every STEP-th ring unit; default 1)
 *
 * The kernels fill a unit's rows in board order, one row a level, so that
 * every lane of a register does the same step.  A search may instead
 * branch on the row with the fewest open squares (the most constrained
 * variable, as Knuth's Algorithm X picks its column), or on whichever
 * line, a row or a free column, has the fewest places left.  Between
 * those and board order lie the cheaper choices a kernel might afford:
 * board order that also drops a child leaving a free column with no
 * place; a row with one open square first (a forced queen), else board
 * order; the fewest open squares with three or more counted alike.  This
 * walks every unit's job (its real rows, open squares, gaps and weights)
 * with a plain recursive search in each order and counts its nodes as the
 * kernels count them: a child made while three or more rows are left to
 * fill (the last two are counted in closed form), dead or not.  Every row
 * left must keep an open square (the scalar kernel's test).
 *
 * Then orders that keep most of board order's structure: board order
 * upside down (the rows filled from the last up); the fewer open squares
 * of the next two or three rows in board order (a window a kernel could
 * read at fixed places); board order whose row drops the squares that
 * attack a forced queen (a row left with one open square) anywhere below;
 * and a model of the vector kernels (board order, a child kept while its
 * own row, the next and the last are open: its nodes must equal theirs),
 * with and without the squares that attack a forced next or last row.
 *
 * Besides the nodes it shows, for each order, the nodes made on a line
 * of two or more places (a kernel that placed forced queens for nothing
 * would pay only for these) and where the nodes are: per solution, by
 * the rows left when the queen is placed (a table of the last k rows
 * could save at most the nodes with k or fewer left).
 *
 * Checks: every order's total is the same and is what the fast engine
 * counts, the board order's nodes are exactly the scalar kernel's (which
 * prunes the same way; its jobs are not split here, so that N = 18 gives
 * it 16-column jobs, its wide row test), and the vector model's exactly
 * the vector kernel's this CPU runs (to N = 18, where no job is split).
 *
 * A measurement for bench/RESULTS.md, not a counter: the search here is
 * plain, recursive and slow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "../src/core/bits.h"
#include "../src/fast/fast.h"
#include "../src/search/frontier_kernel.h"

enum {
    BOARD, COLUMNS, FORCED, CAPPED, ROWS, LINES, REVERSE, NEXT2, NEXT3,
    TRIMMED, VECTOR, VECTOR_TRIMMED, ORDERS
};
static const char *const order_name[ORDERS] = {
    "board order (the scalar kernel's)",
    "board order, every free column kept placeable",
    "a forced row first, else board order",
    "fewest open squares, three or more alike",
    "fewest open squares (rows)",
    "fewest places (rows and columns)",
    "board order upside down (the last row first)",
    "the fewer open squares of the next two rows",
    "the fewest open squares of the next three rows",
    "board order, no square attacking a forced row",
    "vector kernels' model (next, next but one, last row open)",
    "vector model, no square attacking a forced next or last row"};
static const char *const short_name[ORDERS] = {
    "board", "board, columns placeable", "forced first", "fewest, 3+ alike",
    "fewest squares", "fewest places", "upside down", "next two",
    "next three", "board, forced trim", "vector", "vector, trim"};

/* One unit's job as rows of open squares: row i lies at[i] board rows
 * below the first, its queen attacks another row j at distance
 * |at[i] - at[j]|, and a queen in the last row counts w[column]. */
typedef struct {
    int rows, at[NQ_MAX_N];
    uint64_t w[32];
    int order;
    double nodes, branching; /* all; made on a line of 2+ places */
    double by_left[NQ_MAX_N + 1]; /* nodes by rows left when placed */
} walk;

static uint32_t attacks(const walk *k, int from, int to, uint32_t c)
{
    int dist = k->at[from] > k->at[to] ? k->at[from] - k->at[to]
                                       : k->at[to] - k->at[from];
    return (uint32_t)nq_row_attacks(c, dist);
}

/* The two rows left, p above q, their open squares fp and fq: the two
 * free columns in either order, unless a queen on each would attack, the
 * last row's queen counting its weight. */
static uint64_t last_two(const walk *k, int p, int q, uint32_t fp, uint32_t fq)
{
    uint32_t u = fp | fq, x = nq_lowest_bit32(u), y = u ^ x;
    uint64_t ways = 0;
    if (!y || (y & (y - 1)) || (attacks(k, p, q, x) & y))
        return 0;
    if ((fp & x) && (fq & y))
        ways += q == k->rows - 1 ? k->w[nq_ctz(y)] : p == k->rows - 1 ? k->w[nq_ctz(x)] : 1;
    if ((fp & y) && (fq & x))
        ways += q == k->rows - 1 ? k->w[nq_ctz(x)] : p == k->rows - 1 ? k->w[nq_ctz(y)] : 1;
    return ways;
}

/* The places of column bit c: the rows left (row[0..left)) open there. */
static int places(const uint32_t *f, int left, uint32_t c)
{
    int n = 0;
    for (int i = 0; i < left; i++)
        n += (f[i] & c) != 0;
    return n;
}

/* What the order makes of a row with n open squares: the row with the
 * smallest key is chosen, the first (in board order) on a tie. */
static int row_key(int order, int n)
{
    switch (order) {
    case FORCED: return n == 1 ? 0 : 1;
    case CAPPED: return n < 3 ? n : 3;
    case ROWS:
    case LINES:
    case NEXT2:
    case NEXT3: return n;
    default: return 0;
    }
}

/* The rows that must be open for a state to live: the vector kernels
 * test a child's own row, the next and the last (the root, the one state
 * with every row left, only its own row); the other orders every row. */
static int dead(const walk *k, const uint32_t *f, int left)
{
    if (k->order == VECTOR || k->order == VECTOR_TRIMMED)
        return !f[0] || (left < k->rows && (!f[1] || !f[left - 1]));
    for (int i = 0; i < left; i++)
        if (!f[i])
            return 1;
    return 0;
}

/* The rows an order chooses among: the first `window` rows left, in
 * board order (the others any row; board order's keys are all alike). */
static int window(int order, int left)
{
    return order == NEXT2 ? 2 : order == NEXT3 ? 3 : left;
}

/* The line to branch on: *col 0 for a row (its index into row[] is
 * returned), else the column bit.  -1: some line has no place (dead). */
static int choose(const walk *k, const uint32_t *f, int left, uint32_t *col)
{
    int best = 0, fewest = 33, rows = window(k->order, left);
    uint32_t all = 0;
    *col = 0;
    if (dead(k, f, left))
        return -1;
    for (int i = 0; i < left; i++) {
        int key = row_key(k->order, nq_popcount(f[i]));
        all |= f[i];
        if (i < rows && key < fewest)
            best = i, fewest = key;
    }
    if ((k->order == COLUMNS || k->order == LINES) &&
        nq_popcount(all) < left)
        return -1; /* a free column no row can take */
    if (k->order != LINES)
        return best;
    for (uint32_t a = all; a; a &= a - 1) {
        uint32_t c = nq_lowest_bit32(a);
        int n = places(f, left, c);
        if (n < fewest)
            fewest = n, *col = c;
    }
    return best;
}

/* Books a line of n places, each a node made with `left` rows left. */
static void count_line(walk *k, int left, int n)
{
    k->nodes += n;
    k->by_left[left] += n;
    k->branching += n > 1 ? n : 0;
}

static uint64_t search(walk *k, const int *row, const uint32_t *f, int left);

/* Row row[t]'s squares less those attacking the queen of a row below it
 * that has one open square left (forced: every completion puts its queen
 * there): every such row for TRIMMED, the next and the last row for
 * VECTOR_TRIMMED (the rows the vector kernels read anyway). */
static uint32_t trimmed(const walk *k, const int *row, const uint32_t *f,
                        int left, int t)
{
    uint32_t a = f[t];
    for (int i = t + 1; i < left; i++) {
        int use = k->order == TRIMMED ||
                  (k->order == VECTOR_TRIMMED && (i == t + 1 || i == left - 1));
        if (use && !(f[i] & (f[i] - 1)))
            a &= ~attacks(k, row[i], row[t], f[i]);
    }
    return a;
}

/* Row row[t] takes a queen on column bit c; the rest are left. */
static uint64_t place(walk *k, const int *row, const uint32_t *f, int left,
                      int t, uint32_t c)
{
    int nrow[NQ_MAX_N];
    uint32_t nf[NQ_MAX_N];
    for (int i = 0, m = 0; i < left; i++)
        if (i != t) {
            nrow[m] = row[i];
            nf[m++] = f[i] & ~attacks(k, row[t], row[i], c);
        }
    uint64_t ways = left - 1 == 2 ? last_two(k, nrow[0], nrow[1], nf[0], nf[1])
                                  : search(k, nrow, nf, left - 1);
    return row[t] == k->rows - 1 ? ways * k->w[nq_ctz(c)] : ways;
}

/* Weighted completions of the rows left (three or more), in k's order. */
static uint64_t search(walk *k, const int *row, const uint32_t *f, int left)
{
    uint32_t col;
    int t = choose(k, f, left, &col);
    uint64_t ways = 0;
    if (t < 0)
        return 0;
    if (col) {
        count_line(k, left, places(f, left, col));
        for (int i = 0; i < left; i++)
            if (f[i] & col)
                ways += place(k, row, f, left, i, col);
        return ways;
    }
    uint32_t squares = trimmed(k, row, f, left, t);
    count_line(k, left, nq_popcount(squares));
    for (uint32_t a = squares; a; a &= a - 1)
        ways += place(k, row, f, left, t, nq_lowest_bit32(a));
    return ways;
}

/* One unit's job in the given order. */
static uint64_t walk_job(walk *k, const nq_frontier *j, nq_frontier_state s)
{
    int row[NQ_MAX_N];
    uint32_t f[NQ_MAX_N];
    k->rows = j->rows;
    for (int i = 0, at = 0; i < j->rows; at += j->gap[i++]) {
        int t = k->order == REVERSE ? j->rows - 1 - i : i;
        k->at[i] = at;
        row[t] = i;
        f[t] = j->open[i] & ~(s.down | s.left << at | s.right >> at);
    }
    for (int c = 0; c < 32; c++) {
        k->w[c] = 0;
        for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++)
            k->w[c] += (j->weight_cols[w] >> c & 1) ? j->weight[w] : 0;
    }
    if (j->rows < 3)
        return j->rows == 2 ? last_two(k, row[0], row[1], f[0], f[1]) : 0;
    return search(k, row, f, j->rows);
}

/* The orders' nodes per solution: in all, on lines of two or more places,
 * and by the rows left when the queen is placed. */
static void report(const walk *k, double solutions, double vector_nodes)
{
    int most = 3;
    printf("| order | nodes | per solution | against board order | per solution, on lines of 2+ places |\n"
           "|---|---|---|---|---|\n");
    printf("| vector kernels (board order, next, next but one and last row open) | %.0f | %.2f | %.2f | |\n",
           vector_nodes, vector_nodes / solutions, vector_nodes / k[BOARD].nodes);
    for (int o = 0; o < ORDERS; o++)
        printf("| %s | %.0f | %.2f | %.2f | %.2f |\n", order_name[o], k[o].nodes,
               k[o].nodes / solutions, k[o].nodes / k[BOARD].nodes,
               k[o].branching / solutions);
    for (int left = 3; left <= NQ_MAX_N; left++)
        if (k[BOARD].by_left[left] > 0)
            most = left;
    printf("\nNodes per solution by the rows left when the queen is placed:\n\n"
           "| rows left |");
    for (int o = 0; o < ORDERS; o++)
        printf(" %s |", short_name[o]);
    printf("\n|---|");
    for (int o = 0; o < ORDERS; o++)
        printf("---|");
    for (int left = 3; left <= most; left++) {
        printf("\n| %d |", left);
        for (int o = 0; o < ORDERS; o++)
            printf(" %.2f |", k[o].by_left[left] / solutions);
    }
    printf("\n");
}

/* A kernel's count and nodes of one job. */
static uint64_t kernel_job(nq_frontier_work *w, const nq_frontier *j,
                           nq_frontier_state s, double *nodes)
{
    uint64_t n = 0, ways = nq_frontier_count(j, s, w, &n);
    *nodes += (double)n;
    return ways;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    long step = argc > 2 ? atol(argv[2]) : 1;
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *plan;
    if (n < NQ_FAST_RING_MIN_N || n > 24 || step < 1) {
        fprintf(stderr, "usage: nq-bench-order N [STEP]   (N = %d..24)\n",
                NQ_FAST_RING_MIN_N);
        return 2;
    }
    req.n = n;
    req.engine = "fast";
    nq_frontier_work *scalar = nq_frontier_work_new(), *vector = nq_frontier_work_new();
    const nq_frontier_kernel *found;
    if (nq_plan_create(&req, &plan) != NQ_OK || !scalar || !vector ||
        nq_frontier_kernel_find("scalar", &found) != NQ_OK) {
        fprintf(stderr, "nq-bench-order: cannot set up N=%d\n", n);
        return 1;
    }
    nq_frontier_kernel unsplit = *found;
    unsplit.span16 = 16;
    scalar->kernel = &unsplit;
    walk k[ORDERS] = {{0}};
    double scalar_nodes = 0, vector_nodes = 0;
    uint64_t total[ORDERS] = {0}, kernel_total = 0, units = 0;
    for (uint64_t u = 0; u < nq_plan_units(plan); u += (uint64_t)step) {
        nq_frontier job;
        nq_frontier_state s;
        if (!nq_fast_job(plan, u, &job, &s))
            continue;
        units++;
        uint64_t ways = kernel_job(scalar, &job, s, &scalar_nodes);
        if (kernel_job(vector, &job, s, &vector_nodes) != ways) {
            fprintf(stderr, "nq-bench-order: kernels disagree on unit %llu\n",
                    (unsigned long long)u);
            return 1;
        }
        kernel_total += ways;
        for (int o = 0; o < ORDERS; o++) {
            k[o].order = o;
            total[o] += walk_job(&k[o], &job, s);
        }
        for (int o = 1; o < ORDERS; o++)
            if (total[o] != total[0]) {
                fprintf(stderr, "nq-bench-order: orders disagree on unit %llu\n",
                        (unsigned long long)u);
                return 1;
            }
        if (total[0] != kernel_total) {
            fprintf(stderr, "nq-bench-order: the search and the kernel disagree on unit %llu\n",
                    (unsigned long long)u);
            return 1;
        }
    }
    /* jobs in 16 columns (N <= 18) run whole in every vector kernel; the
     * scalar kernel (a CPU with no vector kernel) is not modelled */
    const char *kernel = nq_frontier_kernel_current()->name;
    int modelled = n <= 18 && strcmp(kernel, "scalar") != 0;
    int same = k[BOARD].nodes == scalar_nodes;
    int model = k[VECTOR].nodes == vector_nodes;
    printf("N=%d: %llu ring units (every %ld), solutions %llu\n\n",
           n, (unsigned long long)units, step, (unsigned long long)total[0]);
    report(k, (double)total[0], vector_nodes);
    printf("\nboard order's nodes %s the scalar kernel's (%.0f)\n",
           same ? "equal" : "DIFFER FROM", scalar_nodes);
    if (modelled)
        printf("the vector model's nodes %s the %s kernel's (%.0f)\n",
               model ? "equal" : "DIFFER FROM", kernel, vector_nodes);
    nq_frontier_work_free(scalar);
    nq_frontier_work_free(vector);
    nq_plan_free(plan);
    return same && (model || !modelled) ? 0 : 1;
}

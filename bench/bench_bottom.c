/*
 * bench_bottom.c - `make bench-bottom`: how often fast's search meets the
 * same bottom state (issue: a counter whose cost per solution falls).
 *
 *   nq-bench-bottom N [STEP]     (every STEP-th unit; default 1)
 *   nq-bench-bottom N 1 levels   (fast's tree by level only: no state sets,
 *                                 so N = 18 and beyond fit in memory)
 *
 * Inside each unit of the fast plan (its real frontier job: rows left,
 * open squares, gaps, weights) the search is walked, and at every node
 * with k = 2..6 rows left the state is taken: the squares of each row left
 * that nothing attacks yet (and which of the last row's weigh 8, 4 or 2),
 * all the rest of the count depends on.  Per unit, the paths that reach k
 * rows left and the distinct states among them; across units, the
 * distinct states once the spacing of the unit's last rows and its weights
 * are part of the key, which is what a table shared by all units would
 * hold.  One Markdown row per k.  Then fast's own tree, pruned as its
 * kernel prunes (checked against the node count fast reports): its nodes
 * by rows left, and the share of them below k rows left, which bounds
 * what any method counting k-row bottoms for free could save.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "../src/core/bits.h"
#include "../src/fast/fast.h"

#define KMIN 2
#define KMAX 6

/* An open-addressing set of nonzero 64-bit keys. */
typedef struct {
    uint64_t *slot, cap, count;
} key_set;

static void set_grow(key_set *s);

static void set_add(key_set *s, uint64_t key)
{
    if (2 * (s->count + 1) > s->cap)
        set_grow(s);
    uint64_t i = (key * 0x9e3779b97f4a7c15ull) >> 20 & (s->cap - 1);
    while (s->slot[i] && s->slot[i] != key)
        i = (i + 1) & (s->cap - 1);
    if (!s->slot[i])
        s->slot[i] = key, s->count++;
}

static void set_grow(key_set *s)
{
    key_set t = {calloc(s->cap ? 2 * s->cap : 1024, sizeof *t.slot),
                 s->cap ? 2 * s->cap : 1024, 0};
    if (!t.slot) {
        fprintf(stderr, "nq-bench-bottom: out of memory\n");
        exit(1);
    }
    for (uint64_t i = 0; i < s->cap; i++)
        if (s->slot[i])
            set_add(&t, s->slot[i]);
    free(s->slot);
    *s = t;
}

static void set_clear(key_set *s)
{
    if (s->slot)
        memset(s->slot, 0, s->cap * sizeof *s->slot);
    s->count = 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xbf58476d1ce4e5b9ull ^ h >> 31;
}

typedef struct {
    const nq_frontier *j;
    uint64_t bottom[KMAX + 1];     /* the unit's bottom k rows, hashed */
    key_set unit[KMAX + 1], all[KMAX + 1];
    double paths[KMAX + 1], unit_distinct[KMAX + 1], most[KMAX + 1];
} walk;

/* What the rest of the count depends on: the squares of each row left
 * that no queen attacks yet (the k queens still to place attack each
 * other the same way whatever came before), and of the last row's, which
 * weigh what. */
static uint64_t free_squares(const nq_frontier *j, int i, uint32_t d,
                             uint32_t l, uint32_t r)
{
    uint64_t h = 3, L = l, R = (uint64_t)r << 32;
    for (int t = i; t < j->rows; t++) {
        uint32_t a = j->open[t] & ~(d | (uint32_t)L | (uint32_t)(R >> 32));
        h = mix(h, a);
        if (t + 1 == j->rows)
            for (int c = 0; c < NQ_FRONTIER_WEIGHTS; c++)
                h = mix(h, a & j->weight_cols[c]);
        L <<= j->gap[t], R >>= j->gap[t];
    }
    return h;
}

static void visit(walk *w, int i, uint32_t d, uint32_t l, uint32_t r)
{
    const nq_frontier *j = w->j;
    int k = j->rows - i;
    if (k >= KMIN && k <= KMAX) {
        uint64_t state = free_squares(j, i, d, l, r);
        w->paths[k]++;
        set_add(&w->unit[k], state | 1);
        set_add(&w->all[k], mix(state, w->bottom[k]) | 1);
    }
    if (k <= KMIN)
        return;
    uint32_t avail = j->open[i] & ~(d | l | r), g = j->gap[i];
    while (avail) {
        uint32_t b = nq_lowest_bit32(avail);
        avail ^= b;
        visit(w, i + 1, d | b, (l | b) << g, (r | b) >> g);
    }
}

/* One unit's bottom states: its own set of each k cleared, the key of its
 * bottom rows' spacing and weights made, the walk, and its tallies. */
static void walk_states(walk *w, const nq_frontier *job, nq_frontier_state s)
{
    w->j = job;
    for (int k = KMIN; k <= KMAX && k <= job->rows; k++) {
        uint64_t h = 7;
        for (int i = job->rows - k; i + 1 < job->rows; i++)
            h = mix(h, job->gap[i]); /* the rows' spacing */
        for (int c = 0; c < NQ_FRONTIER_WEIGHTS; c++)
            h = mix(h, job->weight[c]);
        w->bottom[k] = h;
        set_clear(&w->unit[k]);
    }
    visit(w, 0, s.down, s.left, s.right);
    for (int k = KMIN; k <= KMAX; k++) {
        w->unit_distinct[k] += (double)w->unit[k].count;
        if ((double)w->unit[k].count > w->most[k])
            w->most[k] = (double)w->unit[k].count;
    }
}

/* The bottom states met, per unit and across units, one row per k. */
static void print_states(const walk *w, int n, uint64_t walked,
                         uint64_t units, int step)
{
    printf("N=%d: %llu of %llu units walked (every %d%s)\n\n"
           "| rows left k | paths | distinct per unit (sum) | paths per state, "
           "per unit | largest unit's states | distinct, all units | paths "
           "per state, all units | table of all (MiB, 16 B/entry) |\n"
           "|---|---|---|---|---|---|---|---|\n", n,
           (unsigned long long)walked, (unsigned long long)units, step,
           step == 1 ? "" : ": shared states undercounted");
    for (int k = KMIN; k <= KMAX; k++)
        printf("| %d | %.4g | %.4g | %.3g | %.0f | %llu | %.3g | %.1f |\n", k,
               w->paths[k], w->unit_distinct[k],
               w->paths[k] / w->unit_distinct[k], w->most[k],
               (unsigned long long)w->all[k].count,
               w->paths[k] / (double)w->all[k].count,
               (double)w->all[k].count * 16 / (1 << 20));
}

/* Whether row t has an open square, seen from a state aligned to row i. */
static int row_open(const nq_frontier *j, int i, int t, uint32_t d,
                    uint32_t l, uint32_t r)
{
    for (; i < t; i++)
        l <<= j->gap[i], r >>= j->gap[i];
    return (j->open[t] & ~(d | l | r)) != 0;
}

/* fast's own tree, which the walk above is not: the vector kernel makes a
 * child (a node) on every open square, keeps it only if its next row, the
 * row after and the last row are open, and counts the last two rows in
 * closed form, without nodes.  Nodes are filed by the rows left below
 * them; their sum must be the node count fast reports. */
static void pruned(const nq_frontier *j, int i, uint32_t d, uint32_t l,
                   uint32_t r, double *level)
{
    int k = j->rows - i - 1;
    if (k < 1)
        return;
    uint32_t avail = j->open[i] & ~(d | l | r), g = j->gap[i];
    while (avail) {
        uint32_t b = nq_lowest_bit32(avail);
        avail ^= b;
        level[k]++;
        uint32_t d2 = d | b, l2 = (l | b) << g, r2 = (r | b) >> g;
        if (k > 2 && row_open(j, i + 1, i + 1, d2, l2, r2) &&
            row_open(j, i + 1, i + 2, d2, l2, r2) &&
            row_open(j, i + 1, j->rows - 1, d2, l2, r2))
            pruned(j, i + 1, d2, l2, r2, level);
    }
}

/* Where fast's work is: its nodes by rows left, and the share below a
 * state with k rows left, which bounds (by node count) what counting such
 * states for free could save.  The vector kernels prune as `pruned` does;
 * the scalar one (no AVX2) does not, so only theirs is compared. */
static void print_levels(int n, const double *level, int whole)
{
    double all = 0, below = 0;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_counts c;
    for (int k = 0; k <= NQ_MAX_N; k++)
        all += level[k];
    if (all == 0) {
        printf("\nfast's own tree: no search unit walked\n");
        return;
    }
    printf("\nfast's own tree (pruned as its kernel prunes): %.0f nodes%s",
           all, whole ? "" : " in the units walked");
    if (whole && nq_count_solutions(&req, &c) == NQ_OK)
        printf(" (fast reports %.0f: %s)", (double)c.nodes,
               (double)c.nodes == all ? "equal" : "DIFFER");
    printf("\n\n| rows left below a node | nodes | share | share below k "
           "rows left | bound on a free k-row bottom's speed-up (by node "
           "count, unlimited sharing) |\n|---|---|---|---|---|\n");
    for (int k = 2; k <= 8 && below < all; k++) {
        printf("| %d | %.4g | %.1f%% | %.1f%% | %.2fx |\n", k, level[k],
               100 * level[k] / all, 100 * below / all, all / (all - below));
        below += level[k];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 14, step = argc > 2 ? atoi(argv[2]) : 1;
    int states = argc <= 3;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_plan *p;
    if (n < 12 || n > 21 || step < 1 || argc > 4 ||
        (argc == 4 && strcmp(argv[3], "levels") != 0) ||
        nq_plan_create(&req, &p) != NQ_OK) {
        fprintf(stderr,
                "usage: nq-bench-bottom N [STEP [levels]] (12 <= N <= 21)\n");
        return 2;
    }
    static walk w;
    static double level[NQ_MAX_N + 1];
    uint64_t units = nq_plan_units(p), walked = 0;
    for (uint64_t u = 0; u < units; u += (uint64_t)step) {
        nq_frontier job;
        nq_frontier_state s;
        if (!nq_fast_job(p, u, &job, &s))
            continue;
        walked++;
        if (states)
            walk_states(&w, &job, s);
        pruned(&job, 0, s.down, s.left, s.right, level);
    }
    if (states)
        print_states(&w, n, walked, units, step);
    print_levels(n, level, step == 1);
    nq_plan_free(p);
    return 0;
}

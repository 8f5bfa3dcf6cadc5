/*
 * frontier.c - the completion counters behind the fast engine: the plain
 * DFS, the kernels' buffers, and the call that runs the kernel
 * chosen for this CPU (kernels.c).
 *
 * The plain DFS is the iterative bitboard search of dfs.h (the same code
 * a GPU thread runs on a sub-unit): the reference the kernels are tested
 * against, and the counter of jobs too small to stream.  The kernels are
 * frontier_vec.c, built once per instruction set and lane width.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/random.h"
#include "dfs.h"
#include "frontier_kernel.h"
#include "stop.h"

/* ---- the plain DFS: the GPU's per-thread search (dfs.h) ---- */

/* Rows the DFS is left with once a stop can wait for it: at most a few
 * seconds of search on any board this library takes. */
#define STOP_ROWS 12

/* The DFS, its first rows (two at least, all but STOP_ROWS on big boards)
 * placed here so that a stop request is seen between the pieces; the
 * placements are counted as the DFS would. */
static uint64_t scalar_from(const nq_frontier *j, int i, uint32_t d,
                            uint32_t l, uint32_t r, uint64_t *nodes)
{
    if ((i >= 2 && j->rows - i <= STOP_ROWS) || i >= j->rows - 3)
        return nq_dfs_count(j, i, d, l, r, nodes);
    uint32_t avail = j->open[i] & ~(d | l | r), g = j->gap[i];
    uint64_t count = 0;
    while (avail && !nq_stop_requested(j->stop)) {
        uint32_t b = nq_lowest_bit32(avail);
        avail ^= b;
        ++*nodes;
        count += scalar_from(j, i + 1, d | b, (l | b) << g, (r | b) >> g,
                             nodes);
    }
    return count;
}

uint64_t nq_frontier_count_dfs(const nq_frontier *j, nq_frontier_state s,
                                  uint64_t *nodes)
{
    return scalar_from(j, 0, s.down, s.left, s.right, nodes);
}

/* ---- the size of the search, estimated ---- */

/* One random path down the tree: the products of the branchings met, each
 * level's an estimate of that level's width, summed. */
static double probe(const nq_frontier *j, int from, nq_frontier_state s,
                    uint64_t *rng)
{
    double width = 1, nodes = 0;
    for (int i = from; i < j->rows; i++) {
        uint32_t avail = j->open[i] & ~(s.down | s.left | s.right);
        int k = nq_popcount(avail), g = j->gap[i];
        if (k == 0)
            break;
        nodes += width *= k;
        for (uint32_t skip = nq_random_below(rng, (uint32_t)k); skip; skip--)
            avail &= avail - 1;
        uint32_t b = nq_lowest_bit32(avail);
        s = (nq_frontier_state){s.down | b, (s.left | b) << g,
                                (s.right | b) >> g};
    }
    return nodes;
}

/* Knuth's estimator (Mathematics of Computation 29, 1975): the mean over
 * random paths is an unbiased estimate of the tree's size.  Its error is
 * mostly on the low side (the rare deep, bushy paths carry the mean), so
 * a time predicted from it errs towards letting a run go.  The seed is
 * fixed: the same job always gets the same estimate. */
double nq_frontier_estimate(const nq_frontier *j, int from,
                            nq_frontier_state s, uint32_t probes)
{
    uint64_t rng = 0x243f6a8885a308d3ull; /* pi's digits: any seed would do */
    double sum = 0;
    for (uint32_t p = 0; p < probes; p++)
        sum += probe(j, from, s, &rng);
    return probes ? sum / probes : 0;
}

/* ---- the per-thread buffers of the vector kernels ---- */

nq_frontier_work *nq_frontier_work_new(void)
{
    nq_frontier_work *w = calloc(1, sizeof *w);
    size_t seg = NQ_FRONTIER_SEG + NQ_FRONTIER_PAD;
    size_t planes = 3 * (NQ_MAX_N + 1) + 4;
    if (!w || !(w->memory = aligned_alloc(64, planes * seg * sizeof(uint32_t)))) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i <= NQ_MAX_N; i++)
        w->level[i] = w->memory + 3 * seg * i;
    w->scratch = w->memory + 3 * seg * (NQ_MAX_N + 1);
    return w;
}

void nq_frontier_work_free(nq_frontier_work *w)
{
    if (w)
        free(w->memory);
    free(w);
}

/* ---- the kernel in use ---- */

/* The job in 16 columns, if it fits: the squares it can still fill (every
 * row's open squares; the free columns the closed form reads) must lie in
 * 16 consecutive columns, the window, and the start's diagonals must not
 * hold a bit that would later move into it (a left diagonal below it
 * rises, a right one above it falls).  Bits on the other side only move
 * further away, so they are dropped with everything outside the window. */
static int narrow(const nq_frontier *j, nq_frontier_state *s, nq_frontier *n)
{
    uint32_t used = j->full & ~s->down;
    for (int i = 0; i < j->rows; i++)
        used |= j->open[i];
    int low = used ? nq_ctz(used) : 0;
    if ((used >> low) > 0xffffu || (s->left & (uint32_t)nq_low_bits(low)) ||
        (low + 16 < 32 && s->right >> (low + 16)))
        return 0;
    *n = *j;
    n->full = (j->full >> low) & 0xffffu;
    for (int i = 0; i < j->rows; i++)
        n->open[i] = (j->open[i] >> low) & 0xffffu;
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++)
        n->weight_cols[w] = (j->weight_cols[w] >> low) & 0xffffu;
    s->down = (s->down >> low) & 0xffffu;
    s->left = (s->left >> low) & 0xffffu;
    s->right = (s->right >> low) & 0xffffu;
    return 1;
}

/* ---- wide jobs as narrow ones ---- */

/* The job with the queen of column c placed in row t (to fill; its square
 * open), into *sub and *ss: the row leaves the job, the queen's column
 * and diagonals leave every other row's open squares, and the gaps close
 * over the row.  at[i] is row i's distance from the first row to fill.
 * The start's diagonals stay aligned to the first row to fill, shifted
 * down a row when t is that row.  Returns what each of the sub-job's
 * completions counts: the weight of c when t is the last row (the
 * sub-job's last row then counts 1 on every column), else 1. */
static uint64_t place_in_row(const nq_frontier *j, nq_frontier_state s,
                             uint32_t c, int t, const int *at,
                             nq_frontier *sub, nq_frontier_state *ss)
{
    int k = 0;
    *sub = *j;
    for (int i = 0; i < j->rows; i++) {
        if (i == t)
            continue;
        int dist = at[i] > at[t] ? at[i] - at[t] : at[t] - at[i];
        sub->open[k] = j->open[i] & ~(uint32_t)nq_row_attacks(c, dist);
        sub->gap[k++] = (uint8_t)(i + 1 == t && t + 1 < j->rows
                                      ? j->gap[i] + j->gap[t] : j->gap[i]);
    }
    sub->rows = k;
    *ss = (nq_frontier_state){s.down | c, s.left, s.right};
    if (t == 0)
        ss->left = s.left << j->gap[0], ss->right = s.right >> j->gap[0];
    if (t + 1 < j->rows)
        return 1;
    uint64_t weight = 0;
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        weight += (j->weight_cols[w] & c) ? j->weight[w] : 0;
        sub->weight_cols[w] = w ? 0 : j->full;
        sub->weight[w] = w ? 0 : 1;
    }
    return weight;
}

/* The widest span of free columns count_split takes: 21, five splits
 * deep for the vector kernels' 16 columns (N = 19 to 23 in the fast
 * engine), six for the scalar kernel's 15.  Each split level multiplies
 * the kernel calls by the rows, but twice the lanes a register pay for
 * them up to there: on the record sample (bench/RESULTS.md, 2026-11-27)
 * N = 22 costs 0.81-0.90 of the cycles per solution with avx2 split to
 * 16 columns as in 32-bit lanes, 0.71-0.73 with avx512, 0.44 with the
 * scalar kernel, and N = 23 about 0.7-0.9.  Wider (N = 24) is not
 * measured yet. */
#define SPLIT_SPAN 21

/* A job whose free columns span more than the kernel's span16 (up to
 * SPLIT_SPAN: N = 19 to 23 in the fast engine, from N = 18 for the scalar
 * kernel) as the sum of jobs that do not: each of its two outer free
 * columns takes a queen in some row, so the job is the sum over the rows
 * of the one open in fewer rows of the job with its queen placed there.
 * Each of those spans a column fewer, so a span of 17 fits 16 after one
 * split (18 after two, 19 after three; one more to reach 15) and 16-bit
 * lanes, twice as many a register, count it.  Paths that meet that column
 * late are walked once for each row it could still take, but the placed
 * queen prunes each sub-job from its first row (bench/RESULTS.md has
 * what it gains). */
/* The outer free column count_split places a queen in: the one open in
 * fewer rows. */
static uint32_t split_column(const nq_frontier *j, uint32_t free)
{
    uint32_t low = nq_lowest_bit32(free), high = 1u << nq_top_index(free);
    int rows_low = 0, rows_high = 0;
    for (int i = 0; i < j->rows; i++)
        rows_low += !!(j->open[i] & low), rows_high += !!(j->open[i] & high);
    return rows_low <= rows_high ? low : high;
}

/* count_split's piece of row t, into *sub and *ss: the job with column
 * c's queen placed there, and what each of its completions counts (0:
 * the square is attacked, no piece).  at[] as place_in_row's. */
static uint64_t split_piece(const nq_frontier *j, nq_frontier_state s,
                            uint32_t c, int t, const int *at,
                            nq_frontier *sub, nq_frontier_state *ss)
{
    if (!(j->open[t] & c & ~(s.left << at[t] | s.right >> at[t])))
        return 0;
    return place_in_row(j, s, c, t, at, sub, ss);
}

static void row_offsets(const nq_frontier *j, int *at)
{
    for (int i = 0, row = 0; i < j->rows; row += j->gap[i++])
        at[i] = row;
}

static uint64_t count_split(const nq_frontier *j, nq_frontier_state s,
                            uint32_t free, nq_frontier_work *w,
                            uint64_t *nodes)
{
    uint32_t c = split_column(j, free);
    uint64_t count = 0;
    int at[NQ_MAX_N];
    row_offsets(j, at);
    for (int t = 0; t < j->rows && !nq_stop_requested(j->stop); t++) {
        nq_frontier sub;
        nq_frontier_state ss;
        uint64_t weight = split_piece(j, s, c, t, at, &sub, &ss);
        if (weight)
            count += weight * nq_frontier_count(&sub, ss, w, nodes);
    }
    return count;
}

/* How the kernel counts job j: 16-bit lanes (the job narrowed into *n),
 * split (count_split), or 32-bit lanes. */
typedef enum { WAY_DFS, WAY_16, WAY_SPLIT, WAY_32 } count_way;

static count_way way_of(const nq_frontier *j, nq_frontier_state *s,
                        const nq_frontier_kernel *k, nq_frontier *n)
{
    uint32_t free = j->full & ~s->down;
    int span = free ? nq_top_index(free) - nq_ctz(free) + 1 : 0;
    if (j->rows < 3)
        return WAY_DFS;
    if (k->count16 && span <= k->span16 && narrow(j, s, n))
        return WAY_16;
    if (k->count16 && span > k->span16 && span <= SPLIT_SPAN &&
        (!k->narrow_pays || k->narrow_pays()))
        return WAY_SPLIT;
    return WAY_32;
}

void nq_frontier_place_first(const nq_frontier *j, nq_frontier_state s,
                             uint32_t b, nq_frontier *kid,
                             nq_frontier_state *ks)
{
    int g = j->gap[0];
    *kid = *j;
    kid->rows = j->rows - 1;
    memmove(kid->open, j->open + 1, (size_t)kid->rows * sizeof j->open[0]);
    memmove(kid->gap, j->gap + 1, (size_t)kid->rows);
    *ks = (nq_frontier_state){s.down | b, (s.left | b) << g,
                              (s.right | b) >> g};
}

/* The job with each queen of its first row placed: the pieces of a job
 * the kernel streams whole. */
static int first_row_pieces(const nq_frontier *j, nq_frontier_state s,
                            nq_frontier *kids, nq_frontier_state *ks)
{
    uint32_t avail = j->open[0] & ~(s.down | s.left | s.right);
    int k = 0;
    for (; avail; avail &= avail - 1, k++)
        nq_frontier_place_first(j, s, nq_lowest_bit32(avail), &kids[k],
                                &ks[k]);
    return k;
}

int nq_frontier_pieces(const nq_frontier *j, nq_frontier_state s,
                       const nq_frontier_work *w, nq_frontier *kids,
                       nq_frontier_state *ks)
{
    nq_frontier narrowed;
    nq_frontier_state n = s;
    const nq_frontier_kernel *k = w && w->kernel ? w->kernel
                                                 : nq_frontier_kernel_current();
    if (way_of(j, &n, k, &narrowed) != WAY_SPLIT)
        return j->rows > 1 ? first_row_pieces(j, s, kids, ks) : 0;
    uint32_t c = split_column(j, j->full & ~s.down);
    int at[NQ_MAX_N], count = 0;
    row_offsets(j, at);
    for (int t = 0; t < j->rows; t++)
        count += split_piece(j, s, c, t, at, &kids[count], &ks[count]) != 0;
    return count;
}

/* Jobs of under three rows have no level to stream; a thread without
 * buffers (out of memory) counts with the plain DFS.  The kernel is the
 * buffers' (its count's), else the process default.  A kernel with
 * 16-bit lanes takes every job whose free columns span at most its
 * span16 and that narrows, and wider jobs split until they do
 * (count_split); a job narrow but for stray diagonals of its start goes
 * to 32-bit lanes. */
uint64_t nq_frontier_count(const nq_frontier *j, nq_frontier_state s,
                           nq_frontier_work *w, uint64_t *nodes)
{
    nq_frontier narrowed;
    if (!w)
        return nq_frontier_count_dfs(j, s, nodes);
    const nq_frontier_kernel *k = w->kernel ? w->kernel
                                            : nq_frontier_kernel_current();
    nq_frontier_state n = s;
    switch (way_of(j, &n, k, &narrowed)) {
    case WAY_DFS:
        return nq_frontier_count_dfs(j, s, nodes);
    case WAY_16:
        return k->count16(&narrowed, n, w, nodes);
    case WAY_SPLIT:
        return count_split(j, s, j->full & ~s.down, w, nodes);
    default:
        return k->count32(j, s, w, nodes);
    }
}

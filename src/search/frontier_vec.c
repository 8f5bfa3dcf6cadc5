/*
 * frontier_vec.c - the frontier count, one body for every kernel: built
 * once per instruction set and lane width (simd.h lists them) with
 * NQ_KERNEL and NQ_LANE_BITS naming the entry points (frontier_kernel.h).
 *
 * The tree is walked level by level in chunks, over the lane operations
 * of simd.h.  A chunk of a level's states is read in passes, a register
 * of parents at a time: each parent makes the child on its lowest untried
 * square, the kept children are packed into the next level (compress),
 * and the parents with squares left are packed, with those squares, into
 * a scratch run for the next pass.  Every register but a pass's last is
 * full, the loads are plain, and the passes shrink fast (half the parents
 * have one child, a sixth three or more).  Children with no open square
 * in their next row (or a row after it, or the last) are dropped on the
 * spot, and the children of the level before the last two rows are
 * counted in registers and never stored.  A plain DFS loses most of its
 * time to mispredicted branches; this loop has none that depend on the
 * data, even in the scalar build, whose "register" is one lane.
 *
 * The 16-bit builds take jobs already moved into a 16-column window
 * (frontier.c), which doubles the lanes per register.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "frontier_kernel.h"
#include "simd.h"
#include "stop.h"

#if !defined(NQ_KERNEL)
#error "frontier_vec.c is built with NQ_KERNEL set (the Makefile's kernel rules)"
#endif

#define KERNEL_INIT NQ_SIMD_NAME3(nq_frontier_init_, NQ_KERNEL, NQ_LANE_BITS)
#define KERNEL_COUNT NQ_SIMD_NAME3(nq_frontier_count_, NQ_KERNEL, NQ_LANE_BITS)

/* ---- tables, filled once ---- */

#if defined(NQ_ISA_avx2) && NQ_LANE_BITS == 32
uint64_t nq_simd_compress_idx[256];

static void fill_tables(void)
{
    for (unsigned m = 0; m < 256; m++) {
        uint64_t compress = 0;
        for (int lane = 0, k = 0; lane < 8; lane++)
            if (m >> lane & 1)
                compress |= (uint64_t)lane << (8 * k++);
        nq_simd_compress_idx[m] = compress;
    }
}
#elif (defined(NQ_ISA_avx2) && NQ_LANE_BITS == 16) || defined(NQ_ISA_sse4) || \
    defined(NQ_ISA_neon) || defined(NQ_ISA_simd128)
/* One table per build, for the lanes of a 128-bit block: for each mask
 * of the block's lanes, the shuffle that packs the mask's lanes to the
 * front.  Index 0x80 (x86) and out-of-range indices (tbl, i8x16.swizzle)
 * give a zero byte; those lanes are never read.  Each build fills its
 * own, so no kernel calls back into the rest of the search (frontier.c
 * calls the kernels, through kernels.c). */
nq_shuffles NQ_SIMD_SHUFFLES;
static void fill_tables(void)
{
    const int lanes = 128 / NQ_LANE_BITS, bytes = NQ_LANE_BITS / 8;
    memset(&NQ_SIMD_SHUFFLES, 0x80, sizeof NQ_SIMD_SHUFFLES);
    for (unsigned m = 0; m < 1u << lanes; m++) {
        int k = 0;
        for (int lane = 0; lane < lanes; lane++) {
            if (!(m >> lane & 1))
                continue;
            for (int b = 0; b < bytes; b++)
                NQ_SIMD_SHUFFLES.compress[m][k * bytes + b] =
                    (uint8_t)(lane * bytes + b);
            k++;
        }
    }
}
#else
static void fill_tables(void) {}
#endif

void KERNEL_INIT(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}

/* Rows beyond the next one a stored child must have open: a child with a
 * closed row ahead leads nowhere, and dropping it before it is stored is
 * cheaper than expanding it.  One measured best (bench/RESULTS.md). */
#define LOOKAHEAD 1

/* Whether pass() makes a register's children before storing the last
 * one's (it says why).  Measured at N = 17 on one thread (Zen 4,
 * bench/RESULTS.md): avx2 1.5 times faster, avx512 1.2; sse4 and scalar,
 * whose path from load to store is short, 8-11% slower, until the loops
 * were unrolled: since then sse4 gains 8-11% from it too (Zen 5).  The
 * scalar build, NEON (not timed here) and simd128 keep the plain loop
 * (under V8, with 15 vector registers to allocate, the pipelined one
 * spills more and was no faster: bench/RESULTS.md, 2026-11-28). */
#if defined(NQ_ISA_avx2) || defined(NQ_ISA_avx512) || defined(NQ_ISA_sse4)
#define PIPELINE 1
#else
#define PIPELINE 0
#endif

/* How many times pass()'s plain loop is unrolled (pass says why), but
 * for simd128: V8's code gains nothing from it, and the kernel, 2.4
 * times the size, takes V8 longer to optimise, which a short count waits
 * for in V8's baseline code (3% at N = 16, bench/RESULTS.md,
 * 2026-11-28). */
#if defined(NQ_ISA_simd128)
#define UNROLL_PLAIN 1
#else
#define UNROLL_PLAIN 4
#endif
#define NQ_PRAGMA(x) _Pragma(#x)
#define UNROLL(n) NQ_PRAGMA(GCC unroll n)

/* A level's input is cut into chunks small enough that their children fit
 * the next level's buffer (a parent has at most popcount(open) children)
 * and large enough that the partial last register of each pass is rare.
 * A chunk also bounds a 16-bit counter's lanes between sums (summed as
 * signed, so below 2^15): a lane counts at most two completions an item,
 * and a chunk's passes give each lane at most 16 items per 16 parents. */
#define SEG NQ_FRONTIER_SEG
#define MAX_CHUNK 2048
_Static_assert(NQ_LANE_BITS == 32 || 2 * (MAX_CHUNK / NQ_LANES + 1) * 16 <= 32767,
               "16-bit counters would overflow within a chunk");

/* A run of states: d at d[0..], l, r (and in the scratch run the untried
 * squares a) in the planes after it, a fixed distance apart (frontier.c's
 * layout), so that a run is one pointer. */
#define PLANE ((NQ_FRONTIER_SEG + NQ_FRONTIER_PAD) * sizeof(uint32_t) / sizeof(lane_t))
#define L_OF(p) ((p) + PLANE)
#define R_OF(p) ((p) + 2 * PLANE)
#define A_OF(p) ((p) + 3 * PLANE)

/* Constants of one level's step. */
typedef struct {
    vu open, open_next, full, open0, open1;
    vu weight_cols[NQ_FRONTIER_WEIGHTS];
    vshift shift, gap2;   /* this level's row gap; the last two rows' */
    vshift ahead_shift[LOOKAHEAD], last_shift;
    vu ahead_open[LOOKAHEAD], last_open;
    uint32_t weight[NQ_FRONTIER_WEIGHTS];
} step_consts;

/* Completions of each weight class, counted in lanes between sums. */
typedef struct {
    vacc ways[NQ_FRONTIER_WEIGHTS];
} counters;

/* The open squares of the row `sh` rows below the one the lanes' states
 * are aligned to: the row's squares less the columns and the diagonals
 * moved down to it. */
static inline vu open_below(vu d, vu l, vu r, vshift sh, vu open)
{
    return v_andnot(v_or3(d, v_sll(l, sh), v_srl(r, sh)), open);
}

/* Completions of the lanes' states aligned to the second-last row: the
 * two free columns x < y go in either order, unless they are exactly the
 * row gap apart; the last row's column carries the weight (dfs.h's
 * nq_dfs_last_two, with each condition a set of lanes). */
static inline void count_two_vec(vsel live, vu d, vu l, vu r,
                                 const step_consts *k, counters *c)
{
    vu a0 = v_andnot(v_or3(d, l, r), k->open0);
    vu a1 = open_below(d, l, r, k->gap2, k->open1);
    vu f = v_andnot(d, k->full);
    vu x = v_lowest(f), y = v_xor(f, x);
    vsel ok = v_sel_and_ne(live, v_sll(x, k->gap2), y);
    vsel x0 = v_sel_and_test(ok, a0, x), y0 = v_sel_and_test(ok, a0, y);
    for (int i = 0; i < NQ_FRONTIER_WEIGHTS; i++) {
        if (!k->weight[i])
            continue;
        vu a1w = v_and(a1, k->weight_cols[i]);
        c->ways[i] = v_acc_add(c->ways[i], v_sel_and_test(x0, a1w, y));
        c->ways[i] = v_acc_add(c->ways[i], v_sel_and_test(y0, a1w, x));
    }
}

/* The lanes of the last, partial register of a pass. */
static inline vmask first_lanes(size_t count)
{
    return count >= NQ_LANES ? V_ALL : (vmask)NQ_SIMD_MASK_OF((1ull << count) - 1);
}

static inline void store3(lane_t *out, vplan p, vu d, vu l, vu r)
{
    v_compress(out, p, d);
    v_compress(L_OF(out), p, l);
    v_compress(R_OF(out), p, r);
}

/* The children of one register of a pass, and which lanes keep theirs. */
typedef struct {
    vu cd, cl, cr;
    vmask mk;
} pass_reg;

/* Load the register of parents at in + i (its lanes `live`), store those
 * with squares left, with those squares, at left[*lp...], and make their
 * children.  With `fused` the children are counted here.  The lane sets
 * are masks in a general register, where a full register's `live` (all
 * lanes) costs nothing; simd.h says how each set combines them. */
static inline __attribute__((always_inline)) void
pass_make(const step_consts *k, const lane_t *in, size_t i, vmask live,
          int first, counters *c, int fused, lane_t *left, size_t *lp,
          pass_reg *s)
{
    vu d = v_load(in + i), l = v_load(L_OF(in) + i), r = v_load(R_OF(in) + i);
    /* a level's run has no a plane; its states' rows are open (checked
     * when they were stored, and at the root by KERNEL_COUNT) */
    vu a = first ? v_andnot(v_or3(d, l, r), k->open) : v_load(A_OF(in) + i);
    vu b = v_lowest(a), rest = v_xor(a, b);
    vmask ml = v_live_nonzero(live, rest);
    vplan pl = v_plan_compress(ml);
    store3(left + *lp, pl, d, l, r);
    v_compress(A_OF(left) + *lp, pl, rest);
    *lp += (size_t)v_count(ml);
    s->cd = v_or(d, b);
    s->cl = v_sll(v_or(l, b), k->shift);
    s->cr = v_srl(v_or(r, b), k->shift);
    s->mk = 0;
    if (fused) {
        count_two_vec(v_sel(live), s->cd, s->cl, s->cr, k, c);
        return;
    }
#if defined(NQ_SIMD_MASK_REGISTERS) /* each test predicated by the last: free */
    vsel keep = v_keep_open(v_sel(live), k->open_next, s->cd, s->cl, s->cr);
    for (int x = 0; x < LOOKAHEAD; x++)
        keep = v_keep_open(keep, k->ahead_open[x], s->cd,
                           v_sll(s->cl, k->ahead_shift[x]),
                           v_srl(s->cr, k->ahead_shift[x]));
    keep = v_keep_open(keep, k->last_open, s->cd, v_sll(s->cl, k->last_shift),
                       v_srl(s->cr, k->last_shift));
    s->mk = v_mask(keep);
#else
    /* the rows' open squares: a lane fails when their (unsigned) minimum
     * is 0, one test for every row tested (next, LOOKAHEAD after, last) */
    vu lo = v_andnot(v_or3(s->cd, s->cl, s->cr), k->open_next);
    for (int x = 0; x < LOOKAHEAD; x++)
        lo = v_min(lo, open_below(s->cd, s->cl, s->cr, k->ahead_shift[x],
                                  k->ahead_open[x]));
    lo = v_min(lo, open_below(s->cd, s->cl, s->cr, k->last_shift, k->last_open));
    s->mk = v_live_nonzero(live, lo);
#endif
}

/* Store the kept children of what pass_make made at out[*o...]. */
static inline __attribute__((always_inline)) void
pass_store(const pass_reg *s, lane_t *out, size_t *o, int fused)
{
    if (!fused) {
        store3(out + *o, v_plan_compress(s->mk), s->cd, s->cl, s->cr);
        *o += (size_t)v_count(s->mk);
    }
}

/* One pass over m parents at `in` (their untried squares in the a plane,
 * or, on the first pass, all their open squares): each makes the child on
 * its lowest untried square.  Kept children (their next row, LOOKAHEAD
 * rows after and the last row open) are packed at out[*op...]; with
 * `fused` they are the second-last row's states and are counted instead.
 * Parents with squares left are packed, with those squares, at the front
 * of the scratch run `left`, which may be `in` itself: a register's
 * parents are loaded before anything is stored over them.  Every stored
 * parent has a square to try (its row was checked open), so the lanes are
 * full but in the last register, and no branch depends on the data.
 *
 * The loop is software-pipelined: the next register's children are made
 * before this one's are stored.  A register's path from its loads to its
 * stores (arithmetic, the lane mask, the table load for the shuffle) is
 * some 40 cycles long, longer than the out-of-order window covers, and
 * made in this order the two registers' work overlaps.  The two take
 * turns in `cur` and `next` rather than one being copied into the other
 * each step, which left five register moves a step that the unrolled
 * copies kept (sse4 4% faster on a Zen 5).  Both loops are unrolled four
 * times (4% for avx2 and sse4 at count 17 on a Zen 5, bench/RESULTS.md).
 * Returns the parents left. */
static inline __attribute__((always_inline)) size_t
pass(const step_consts *k, const lane_t *in, size_t m, int first,
     lane_t *left, lane_t *out, size_t *op, counters *c, int fused)
{
    size_t lp = 0, o = *op; /* locals: the stores may alias anything */
    pass_reg cur, next;
    size_t full = m / NQ_LANES * NQ_LANES; /* the whole registers: all lanes live */
    const vmask all = V_LIVE_ALL;
    if (!PIPELINE) {
        UNROLL(UNROLL_PLAIN)
        for (size_t i = 0; i < full; i += NQ_LANES) {
            pass_make(k, in, i, all, first, c, fused, left, &lp, &cur);
            pass_store(&cur, out, &o, fused);
        }
        if (full < m) {
            pass_make(k, in, full, first_lanes(m - full), first, c, fused, left, &lp, &cur);
            pass_store(&cur, out, &o, fused);
        }
    } else if (m) {
        size_t i = NQ_LANES;
        pass_make(k, in, 0, first_lanes(m), first, c, fused, left, &lp, &cur);
#pragma GCC unroll 2
        for (; i + NQ_LANES < full; i += 2 * NQ_LANES) {
            pass_make(k, in, i, all, first, c, fused, left, &lp, &next);
            pass_store(&cur, out, &o, fused);
            pass_make(k, in, i + NQ_LANES, all, first, c, fused, left, &lp, &cur);
            pass_store(&next, out, &o, fused);
        }
        if (i < full) {
            pass_make(k, in, i, all, first, c, fused, left, &lp, &next);
            pass_store(&cur, out, &o, fused);
            cur = next;
        }
        if (full < m && full) {
            pass_make(k, in, full, first_lanes(m - full), first, c, fused, left, &lp, &next);
            pass_store(&cur, out, &o, fused);
            cur = next;
        }
        pass_store(&cur, out, &o, fused);
    }
    *op = o;
    return lp;
}

/* All the children of m parents at `in`: passes until no parent has a
 * square left.  Returns the children stored at `out`. */
static inline __attribute__((always_inline)) size_t
expand(const step_consts *k, const lane_t *in, size_t m, lane_t *scratch,
       lane_t *out, uint64_t *count, uint64_t *nodes, int fused)
{
    counters c;
    size_t op = 0;
    for (int i = 0; i < NQ_FRONTIER_WEIGHTS; i++)
        c.ways[i] = v_acc_zero();
    *nodes += m;
    m = pass(k, in, m, 1, scratch, out, &op, &c, fused);
    while (m) {
        *nodes += m;
        m = pass(k, scratch, m, 0, scratch, out, &op, &c, fused);
    }
    for (int i = 0; fused && i < NQ_FRONTIER_WEIGHTS; i++)
        if (k->weight[i])
            *count += k->weight[i] * v_acc_sum(c.ways[i]);
    return op;
}

static void consts_for(const nq_frontier *j, int i, step_consts *k)
{
    int last = j->rows - 2;
    k->open = v_set1(j->open[i]);
    k->open_next = v_set1(j->open[i + 1]);
    k->full = v_set1(j->full);
    k->open0 = v_set1(j->open[last]);
    k->open1 = v_set1(j->open[last + 1]);
    k->shift = v_shift(j->gap[i]);
    for (int a = 0, sh = 0; a < LOOKAHEAD; a++) {
        int row = i + 2 + a;
        if (row < j->rows)
            sh += j->gap[row - 1];
        k->ahead_shift[a] = v_shift(row < j->rows ? sh : 0);
        k->ahead_open[a] = v_set1(row < j->rows ? j->open[row] : ~0u);
    }
    {
        int sh = 0;
        for (int row = i + 2; row < j->rows; row++)
            sh += j->gap[row - 1];
        k->last_shift = v_shift(sh);
        k->last_open = v_set1(i + 2 + LOOKAHEAD < j->rows ? j->open[j->rows - 1] : ~0u);
    }
    k->gap2 = v_shift(j->gap[last]);
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        k->weight_cols[w] = v_set1(j->weight_cols[w]);
        k->weight[w] = j->weight_cols[w] ? j->weight[w] : 0;
    }
}

static lane_t *level_run(nq_frontier_work *w, int level)
{
    return (lane_t *)w->level[level];
}

/* Level i holds states aligned to row i.  Each chunk's children are
 * carried to the bottom before the next chunk, so each level's buffer
 * holds one chunk's worth; the passes of every level share one scratch
 * run, free again by the time the level below starts. */
static void expand_level(const nq_frontier *j, nq_frontier_work *w, int i,
                         const lane_t *in, size_t m, uint64_t *count,
                         uint64_t *nodes)
{
    step_consts k;
    int fused = i + 1 == j->rows - 2;
    size_t fan = (size_t)nq_popcount(j->open[i]) + 1;
    size_t chunk = SEG / fan < MAX_CHUNK ? SEG / fan : MAX_CHUNK;
    lane_t *out = level_run(w, i + 1), *scratch = (lane_t *)w->scratch;
    consts_for(j, i, &k);
    for (size_t at = 0; at < m && !nq_stop_requested(j->stop); at += chunk) {
        size_t take = m - at < chunk ? m - at : chunk;
        if (fused) {
            expand(&k, in + at, take, scratch, NULL, count, nodes, 1);
            continue;
        }
        size_t kids = expand(&k, in + at, take, scratch, out, count, nodes, 0);
        expand_level(j, w, i + 1, out, kids, count, nodes);
    }
}

uint64_t KERNEL_COUNT(const nq_frontier *j, nq_frontier_state s,
                      nq_frontier_work *w, uint64_t *nodes)
{
    uint64_t count = 0;
    if (!(j->open[0] & ~(s.down | s.left | s.right)))
        return 0; /* the root's row is closed: no state to expand */
    lane_t *root = level_run(w, 0);
    root[0] = (lane_t)s.down, L_OF(root)[0] = (lane_t)s.left;
    R_OF(root)[0] = (lane_t)s.right;
    expand_level(j, w, 0, root, 1, &count, nodes);
    return count;
}

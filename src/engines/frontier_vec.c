/*
 * frontier_vec.c - the frontier count, one body for every kernel: built
 * once per instruction set and lane width (simd.h lists them) with
 * NQ_KERNEL and NQ_LANE_BITS naming the entry points (frontier_kernel.h).
 *
 * The tree is walked level by level in chunks.  Each level's states are
 * streamed through the lanes of a register, over the lane operations of
 * simd.h; a lane whose state has no untried square left is refilled from
 * the input (expand) and every lane emits one child per step, the children
 * packed into the next level (compress).  Children with no open square in
 * their next row (or a row after it, or the last) are dropped on the spot,
 * and the children of the level before the last two rows are counted in
 * registers and never stored.  Two independent streams run side by side
 * to hide the latency of the refill chain.  A plain DFS loses most of its
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

#define NQ_GLUE3(a, b, c) a##b##_##c
#define NQ_NAME(a, b, c) NQ_GLUE3(a, b, c)
#define KERNEL_INIT NQ_NAME(nq_frontier_init_, NQ_KERNEL, NQ_LANE_BITS)
#define KERNEL_COUNT NQ_NAME(nq_frontier_count_, NQ_KERNEL, NQ_LANE_BITS)

/* ---- tables, filled once ---- */

#if defined(NQ_ISA_avx2) && NQ_LANE_BITS == 32
uint64_t nq_simd_compress_idx[256], nq_simd_expand_idx[256];

static void fill_tables(void)
{
    for (unsigned m = 0; m < 256; m++) {
        uint64_t compress = 0, expand = 0;
        int below = 0, k = 0;
        for (int lane = 0; lane < 8; lane++) {
            if (!(m >> lane & 1))
                continue;
            compress |= (uint64_t)lane << (8 * k++);
            expand |= (uint64_t)below++ << (8 * lane);
        }
        nq_simd_compress_idx[m] = compress;
        nq_simd_expand_idx[m] = expand;
    }
}
#elif defined(NQ_ISA_avx2) && NQ_LANE_BITS == 16
nq_shuffles nq_simd_shuffles16;
static void fill_tables(void) { nq_simd_fill_shuffles(&nq_simd_shuffles16, 8, 2); }
#elif defined(NQ_ISA_sse4)
nq_shuffles NQ_SSE(nq_simd_shuffles_sse);
static void fill_tables(void)
{
    nq_simd_fill_shuffles(&NQ_SSE(nq_simd_shuffles_sse), NQ_LANES, NQ_LANE_BITS / 8);
}
#elif defined(NQ_ISA_neon)
nq_shuffles NQ_NEON(nq_simd_shuffles);
static void fill_tables(void)
{
    nq_simd_fill_shuffles(&NQ_NEON(nq_simd_shuffles), NQ_LANES, NQ_LANE_BITS / 8);
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

/* Each level has two buffers, one per stream, of SEG states.  A level's
 * input is cut into chunks small enough that their children fit (a parent
 * has at most popcount(open) children) and large enough to keep the
 * streams' start and drain, where lanes idle, rare.  A chunk's children
 * are also what bounds a 16-bit counter's lanes between sums: a stream
 * makes at most MAX_CHUNK * 16 steps on a 16-column board, and a lane
 * counts at most one child, or two completions, a step. */
#define SEG NQ_FRONTIER_SEG
#define MAX_CHUNK (NQ_LANE_BITS == 16 ? 2047 : 2048)
_Static_assert(NQ_LANE_BITS == 32 || 2 * MAX_CHUNK * 16 <= 65535,
               "16-bit counters would overflow within a chunk");

/* A run of states: d at d[0..], l and r in the planes after it, a fixed
 * distance apart (frontier.c's layout), so that a run is one pointer and
 * the streams' six runs do not crowd the registers. */
typedef struct {
    lane_t *d;
} level_buf;
#define PLANE ((NQ_FRONTIER_SEG + NQ_FRONTIER_PAD) * sizeof(uint32_t) / sizeof(lane_t))
#define L_OF(b) ((b)->d + PLANE)
#define R_OF(b) ((b)->d + 2 * PLANE)

typedef struct {
    vu d, l, r, a;        /* a: squares of the parent not yet tried */
    size_t ip, end, op;   /* input position and end, output count */
} lanes;

static inline int lanes_live(const lanes *s)
{
    return s->ip < s->end || v_any(s->a);
}

/* Lanes with nothing left to try (`take`, m as a mask) take the next
 * parents of the input; at its end, only as many lanes as it has left. */
static inline void refill(lanes *s, const level_buf *in, vu open, vsel take,
                          vmask m)
{
    size_t rem = s->end - s->ip;
    if (rem < NQ_LANES && (size_t)v_count(m) > rem) {
        m = v_first_lanes(m, rem);
        take = v_sel(m);
    }
    vplan p = v_plan_expand(m);
    s->d = v_expand(s->d, p, take, in->d + s->ip);
    s->l = v_expand(s->l, p, take, L_OF(in) + s->ip);
    s->r = v_expand(s->r, p, take, R_OF(in) + s->ip);
    s->a = v_blend(s->a, take, v_andnot(v_or3(s->d, s->l, s->r), open));
    s->ip += (size_t)v_count(m);
}

static inline void refill_one(lanes *s, const level_buf *in, vu open)
{
    vsel take = v_sel_zero(s->a);
    if (s->ip < s->end)
        refill(s, in, open, take, v_mask(take));
}

/* Both streams at once: their masks in one conversion where the set can
 * (a stream whose input is used up takes nothing: refill's end rule). */
static inline void refill_two(lanes *s0, const level_buf *in0, lanes *s1,
                              const level_buf *in1, vu open)
{
    vsel t0 = v_sel_zero(s0->a), t1 = v_sel_zero(s1->a);
    vmask m0, m1;
    v_mask2(t0, t1, &m0, &m1);
    refill(s0, in0, open, t0, m0);
    refill(s1, in1, open, t1, m1);
}

/* Constants of one level's step. */
typedef struct {
    vu open, open_next, full, open0, open1;
    vu weight_cols[NQ_FRONTIER_WEIGHTS];
    vshift shift, gap2;   /* this level's row gap; the last two rows' */
    vshift ahead_shift[LOOKAHEAD], last_shift;
    vu ahead_open[LOOKAHEAD], last_open;
    uint32_t weight[NQ_FRONTIER_WEIGHTS];
} step_consts;

/* What a stream counts between sums: its children, and at the fused level
 * the completions of each weight class. */
typedef struct {
    vacc nodes, ways[NQ_FRONTIER_WEIGHTS];
} counters;

/* Completions of the lanes' states aligned to the second-last row: the
 * two free columns x < y go in either order, unless they are exactly the
 * row gap apart; the last row's column carries the weight (dfs.h's
 * nq_dfs_last_two, with each condition a set of lanes). */
static inline void count_two_vec(vsel live, vu d, vu l, vu r,
                                 const step_consts *k, counters *c)
{
    vu a0 = v_andnot(v_or3(d, l, r), k->open0);
    vu a1 = v_andnot(v_or3(d, v_sll(l, k->gap2), v_srl(r, k->gap2)), k->open1);
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

/* A stream's children of one step, before they are stored. */
typedef struct {
    vu d, l, r;
    vsel keep;
} children;

/* Every lane with a square left makes the child on its lowest one.  With
 * `fused` the children are the second-last row's states and are counted
 * here; otherwise those with an open square in their next row, LOOKAHEAD
 * rows after and the last row are kept, to be stored. */
static inline __attribute__((always_inline)) void
make(lanes *s, const step_consts *k, counters *c, int fused, children *ch)
{
    vsel live = v_sel_nonzero(s->a);
    vu b = v_lowest(s->a);
    s->a = v_xor(s->a, b);
    vu d = v_or(s->d, b);
    vu l = v_sll(v_or(s->l, b), k->shift);
    vu r = v_srl(v_or(s->r, b), k->shift);
    c->nodes = v_acc_add(c->nodes, live);
    if (fused) {
        count_two_vec(live, d, l, r, k, c);
        return;
    }
    vsel keep = v_keep_open(live, k->open_next, d, l, r);
    for (int a = 0; a < LOOKAHEAD; a++)
        keep = v_keep_open(keep, k->ahead_open[a], d,
                           v_sll(l, k->ahead_shift[a]),
                           v_srl(r, k->ahead_shift[a]));
    ch->keep = v_keep_open(keep, k->last_open, d, v_sll(l, k->last_shift),
                           v_srl(r, k->last_shift));
    ch->d = d, ch->l = l, ch->r = r;
}

static inline void store(lanes *s, const level_buf *out, const children *ch,
                         vmask m)
{
    vplan p = v_plan_compress(m);
    v_compress(out->d + s->op, p, ch->d);
    v_compress(L_OF(out) + s->op, p, ch->l);
    v_compress(R_OF(out) + s->op, p, ch->r);
    s->op += (size_t)v_count(m);
}

static inline __attribute__((always_inline)) void
emit_one(lanes *s, const step_consts *k, const level_buf *out, counters *c,
         int fused)
{
    children ch;
    make(s, k, c, fused, &ch);
    if (!fused)
        store(s, out, &ch, v_mask(ch.keep));
}

static inline __attribute__((always_inline)) void
emit_two(lanes *s0, const level_buf *out0, lanes *s1, const level_buf *out1,
         const step_consts *k, counters *c, int fused)
{
    children c0, c1;
    vmask m0, m1;
    make(s0, k, c, fused, &c0);
    make(s1, k, c, fused, &c1);
    if (fused)
        return;
    v_mask2(c0.keep, c1.keep, &m0, &m1);
    store(s0, out0, &c0, m0);
    store(s1, out1, &c1, m1);
}

static void lanes_init(lanes *s, size_t ip, size_t end)
{
    s->d = s->l = s->r = s->a = v_zero();
    s->ip = ip, s->end = end, s->op = 0;
}

static void counters_init(counters *c)
{
    c->nodes = v_acc_zero();
    for (int i = 0; i < NQ_FRONTIER_WEIGHTS; i++)
        c->ways[i] = v_acc_zero();
}

/* Expand two runs of parents, each by its own stream into its own output
 * (or count their children's completions, fused); kids gets the children
 * each stream stored. */
static inline __attribute__((always_inline)) void
expand(const level_buf *in0, size_t m0, const level_buf *in1, size_t m1,
       const level_buf *out0, const level_buf *out1, const step_consts *k,
       uint64_t *count, uint64_t *nodes, size_t *kids, int fused)
{
    lanes s0, s1;
    counters c;
    counters_init(&c);
    lanes_init(&s0, 0, m0);
    lanes_init(&s1, 0, m1);
    while (lanes_live(&s0) && lanes_live(&s1)) {
        refill_two(&s0, in0, &s1, in1, k->open);
        emit_two(&s0, out0, &s1, out1, k, &c, fused);
    }
    while (lanes_live(&s0)) {
        refill_one(&s0, in0, k->open);
        emit_one(&s0, k, out0, &c, fused);
    }
    while (lanes_live(&s1)) {
        refill_one(&s1, in1, k->open);
        emit_one(&s1, k, out1, &c, fused);
    }
    *nodes += v_acc_sum(c.nodes);
    for (int i = 0; fused && i < NQ_FRONTIER_WEIGHTS; i++)
        if (k->weight[i])
            *count += k->weight[i] * v_acc_sum(c.ways[i]);
    kids[0] = s0.op, kids[1] = s1.op;
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

static level_buf slice(const level_buf *b, size_t off)
{
    return (level_buf){b->d + off};
}

static level_buf buffer(nq_frontier_work *w, int level, int stream)
{
    return (level_buf){(lane_t *)w->level[level][stream].d};
}

/* Level i holds states aligned to row i, in two runs (the two streams'
 * children).  Each step takes the next chunk of each run, one per stream;
 * once a run is used up the other is split between the streams.  The
 * children, again two runs, are carried to the bottom before the next step,
 * so each level's buffers hold one step's worth. */
static void expand_level(const nq_frontier *j, nq_frontier_work *w, int i,
                         level_buf in0, size_t m0, level_buf in1, size_t m1,
                         uint64_t *count, uint64_t *nodes)
{
    step_consts k;
    int fused = i + 1 == j->rows - 2;
    size_t fan = (size_t)nq_popcount(j->open[i]) + 1;
    size_t chunk = SEG / fan < MAX_CHUNK ? SEG / fan : MAX_CHUNK;
    level_buf out[2] = {buffer(w, i + 1, 0), buffer(w, i + 1, 1)};
    consts_for(j, i, &k);
    while (m0 + m1 > 0 && !nq_stop_requested(j->stop)) {
        level_buf a = in0, b = in1;
        size_t ta = m0 < chunk ? m0 : chunk, tb = m1 < chunk ? m1 : chunk;
        if (m0 == 0 || m1 == 0) { /* split what is left of one run */
            level_buf *only = m0 ? &in0 : &in1;
            size_t rest = m0 + m1;
            a = *only;
            ta = rest >= 2 * chunk ? chunk : (rest + 1) / 2;
            b = slice(only, ta);
            tb = rest - ta < chunk ? rest - ta : chunk;
            in0 = slice(only, ta + tb), m0 = rest - ta - tb, m1 = 0;
        } else {
            in0 = slice(&in0, ta), m0 -= ta;
            in1 = slice(&in1, tb), m1 -= tb;
        }
        size_t kids[2];
        if (fused) {
            expand(&a, ta, &b, tb, NULL, NULL, &k, count, nodes, kids, 1);
            continue;
        }
        expand(&a, ta, &b, tb, &out[0], &out[1], &k, count, nodes, kids, 0);
        expand_level(j, w, i + 1, out[0], kids[0], out[1], kids[1], count,
                     nodes);
    }
}

uint64_t KERNEL_COUNT(const nq_frontier *j, nq_frontier_state s,
                      nq_frontier_work *w, uint64_t *nodes)
{
    uint64_t count = 0;
    level_buf root = buffer(w, 0, 0);
    root.d[0] = (lane_t)s.down, L_OF(&root)[0] = (lane_t)s.left;
    R_OF(&root)[0] = (lane_t)s.right;
    expand_level(j, w, 0, root, 1, root, 0, &count, nodes);
    return count;
}

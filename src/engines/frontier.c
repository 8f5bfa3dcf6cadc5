/*
 * frontier.c - the completion counters behind the fast engine.
 *
 * Scalar: the iterative bitboard DFS of dfs.h (the same code a GPU thread
 * runs on a sub-unit), the last two rows counted in closed form.  Vector (AVX-512): the same tree walked level by level in
 * chunks.  Each level's states are streamed through 16-lane registers;
 * a lane whose state has no untried square left is refilled from the input
 * (vpexpandd) and every lane emits one child per step, the children packed
 * into the next level with vpcompressd.  Children with no open square in
 * their next row are dropped on the spot, and the children of the level
 * before the last two rows are counted in registers and never stored.
 * Two independent streams run side by side to hide the latency of the
 * refill chain.  A plain DFS on this machine loses most of its time to
 * mispredicted branches; this loop has none that depend on the data.
 */
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "stop.h"
#include "../core/bits.h"
#include "../gpu/dfs.h"

#if defined(__AVX512F__) && defined(__AVX512CD__) && defined(__BMI2__)
#define NQ_FRONTIER_AVX512 1
#include <immintrin.h>
#else
#define NQ_FRONTIER_AVX512 0
#endif

/* ---- scalar kernel: the GPU's per-thread search (dfs.h) ---- */

/* The DFS, its first two rows placed here so that a stop request is seen
 * between the pieces (the placements are counted as the DFS would). */
static uint64_t scalar_from(const nq_frontier *j, int i, uint32_t d,
                            uint32_t l, uint32_t r, uint64_t *nodes)
{
    if (i == 2 || i >= j->rows - 3)
        return nq_dfs_count(j, i, d, l, r, nodes);
    uint32_t avail = j->open[i] & ~(d | l | r), g = j->gap[i];
    uint64_t count = 0;
    while (avail && !nq_unit_stopping()) {
        uint32_t b = avail & (~avail + 1);
        avail ^= b;
        ++*nodes;
        count += scalar_from(j, i + 1, d | b, (l | b) << g, (r | b) >> g,
                             nodes);
    }
    return count;
}

uint64_t nq_frontier_count_scalar(const nq_frontier *j, nq_frontier_state s,
                                  uint64_t *nodes)
{
    return scalar_from(j, 0, s.down, s.left, s.right, nodes);
}

#if !NQ_FRONTIER_AVX512

struct nq_frontier_work {
    int unused;
};

nq_frontier_work *nq_frontier_work_new(void)
{
    return calloc(1, sizeof(nq_frontier_work));
}

void nq_frontier_work_free(nq_frontier_work *w) { free(w); }

int nq_frontier_vectorized(void) { return 0; }

uint64_t nq_frontier_count(const nq_frontier *j, nq_frontier_state s,
                           nq_frontier_work *w, uint64_t *nodes)
{
    (void)w;
    return nq_frontier_count_scalar(j, s, nodes);
}

#else

/* ---- vector kernel ---- */

/* Rows beyond the next one a stored child must have open: a child with a
 * closed row ahead leads nowhere, and dropping it before it is stored is
 * cheaper than expanding it.  Two measured best (bench/RESULTS.md). */
#define LOOKAHEAD 1

/* Each level has two buffers, one per stream, of SEG states.  A level's
 * input is cut into chunks small enough that their children fit (a parent
 * has at most popcount(open) children) and large enough to keep the
 * streams' start and drain, where lanes idle, rare. */
#define SEG 65536
#define MAX_CHUNK 2048
#define PAD 64

typedef struct {
    uint32_t *d, *l, *r;
} level_buf;

struct nq_frontier_work {
    level_buf level[NQ_MAX_N + 1][2];
    uint32_t *memory;
};

nq_frontier_work *nq_frontier_work_new(void)
{
    nq_frontier_work *w = calloc(1, sizeof *w);
    size_t per = (size_t)3 * (SEG + PAD), count = 2 * (NQ_MAX_N + 1);
    if (!w || !(w->memory = aligned_alloc(64, per * count * sizeof(uint32_t)))) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        level_buf *b = &w->level[i / 2][i % 2];
        b->d = w->memory + per * i;
        b->l = b->d + SEG + PAD;
        b->r = b->l + SEG + PAD;
    }
    return w;
}

void nq_frontier_work_free(nq_frontier_work *w)
{
    if (w)
        free(w->memory);
    free(w);
}

int nq_frontier_vectorized(void) { return 1; }

typedef struct {
    __m512i d, l, r, a;   /* a: squares of the parent not yet tried */
    size_t ip, end, op;   /* input position and end, output count */
} lanes;

static inline __m512i lowest(__m512i a)
{
    return _mm512_and_si512(a, _mm512_sub_epi32(_mm512_setzero_si512(), a));
}

static inline __m512i or3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_ternarylogic_epi32(a, b, c, 0xfe);
}

/* ~(a | b | c) in one instruction: testing it against a row's open squares
 * tells whether any is left. */
static inline __m512i nor3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_ternarylogic_epi32(a, b, c, 0x01);
}

static inline int lanes_live(const lanes *s)
{
    return s->ip < s->end || _mm512_test_epi32_mask(s->a, s->a);
}

/* Lanes with nothing left to try take the next parents of the input. */
static inline void refill(lanes *s, const level_buf *in, __m512i open)
{
    if (s->ip >= s->end)
        return;
    __mmask16 take = _mm512_testn_epi32_mask(s->a, s->a);
    size_t rem = s->end - s->ip;
    if (rem < 16 && (size_t)nq_popcount(take) > rem)
        take = (__mmask16)_pdep_u32((1u << rem) - 1, take);
    s->d = _mm512_mask_expand_epi32(s->d, take, _mm512_loadu_si512(in->d + s->ip));
    s->l = _mm512_mask_expand_epi32(s->l, take, _mm512_loadu_si512(in->l + s->ip));
    s->r = _mm512_mask_expand_epi32(s->r, take, _mm512_loadu_si512(in->r + s->ip));
    s->a = _mm512_mask_andnot_epi32(s->a, take, or3(s->d, s->l, s->r), open);
    s->ip += (size_t)nq_popcount(take);
}

/* Constants of one level's step. */
typedef struct {
    __m512i open, open_next, full, open0, open1;
    __m512i weight_cols[NQ_FRONTIER_WEIGHTS];
    __m128i shift, gap2;   /* this level's row gap; the last two rows' */
    __m128i ahead_shift[LOOKAHEAD], last_shift;
    __m512i ahead_open[LOOKAHEAD], last_open;
    uint32_t weight[NQ_FRONTIER_WEIGHTS];
} step_consts;

/* Weighted completions of 16 states aligned to the second-last row: as
 * count_two, with each condition a 16-lane mask. */
static inline uint64_t count_two_vec(__mmask16 live, __m512i d, __m512i l,
                                     __m512i r, const step_consts *k)
{
    __m512i a0 = _mm512_andnot_si512(or3(d, l, r), k->open0);
    __m512i a1 = _mm512_andnot_si512(or3(d, _mm512_sll_epi32(l, k->gap2),
                                         _mm512_srl_epi32(r, k->gap2)), k->open1);
    __m512i f = _mm512_andnot_si512(d, k->full);
    __m512i x = lowest(f), y = _mm512_xor_si512(f, x);
    __mmask16 ok = live & ~_mm512_cmpeq_epi32_mask(_mm512_sll_epi32(x, k->gap2), y);
    __mmask16 x0 = _mm512_test_epi32_mask(a0, x), y0 = _mm512_test_epi32_mask(a0, y);
    uint64_t c = 0;
    for (int i = 0; i < NQ_FRONTIER_WEIGHTS; i++) {
        if (!k->weight[i])
            continue;
        __m512i a1w = _mm512_and_si512(a1, k->weight_cols[i]);
        __mmask16 t1 = x0 & _mm512_test_epi32_mask(a1w, y);
        __mmask16 t2 = y0 & _mm512_test_epi32_mask(a1w, x);
        c += k->weight[i] * (uint64_t)(nq_popcount(t1 & ok) + nq_popcount(t2 & ok));
    }
    return c;
}

/* Every lane with a square left emits the child on its lowest one.  With
 * `fused` the children are the second-last row's states and are counted
 * here; otherwise those with an open square in their next row are stored. */
static inline __attribute__((always_inline)) uint64_t
emit(lanes *s, const step_consts *k, const level_buf *out, uint64_t *nodes,
     int fused)
{
    __mmask16 live = _mm512_test_epi32_mask(s->a, s->a);
    __m512i b = lowest(s->a);
    s->a = _mm512_xor_si512(s->a, b);
    __m512i d = _mm512_or_si512(s->d, b);
    __m512i l = _mm512_sll_epi32(_mm512_or_si512(s->l, b), k->shift);
    __m512i r = _mm512_srl_epi32(_mm512_or_si512(s->r, b), k->shift);
    *nodes += (uint64_t)nq_popcount(live);
    if (fused)
        return count_two_vec(live, d, l, r, k);
    /* keep the child if its next row, LOOKAHEAD rows after, and the last
     * row all still have an open square */
    __mmask16 keep = _mm512_mask_test_epi32_mask(live, k->open_next,
                                                 nor3(d, l, r));
    for (int a = 0; a < LOOKAHEAD; a++)
        keep = _mm512_mask_test_epi32_mask(keep, k->ahead_open[a],
                   nor3(d, _mm512_sll_epi32(l, k->ahead_shift[a]),
                        _mm512_srl_epi32(r, k->ahead_shift[a])));
    keep = _mm512_mask_test_epi32_mask(keep, k->last_open,
               nor3(d, _mm512_sll_epi32(l, k->last_shift),
                    _mm512_srl_epi32(r, k->last_shift)));
    _mm512_storeu_si512(out->d + s->op, _mm512_maskz_compress_epi32(keep, d));
    _mm512_storeu_si512(out->l + s->op, _mm512_maskz_compress_epi32(keep, l));
    _mm512_storeu_si512(out->r + s->op, _mm512_maskz_compress_epi32(keep, r));
    s->op += (size_t)nq_popcount(keep);
    return 0;
}

static void lanes_init(lanes *s, size_t ip, size_t end)
{
    s->d = s->l = s->r = s->a = _mm512_setzero_si512();
    s->ip = ip, s->end = end, s->op = 0;
}

/* Expand two runs of parents, each by its own stream into its own output
 * (or count their children, fused).  Returns the children stored. */
static inline __attribute__((always_inline)) void
expand(const level_buf *in0, size_t m0, const level_buf *in1, size_t m1,
       const level_buf *out0, const level_buf *out1, const step_consts *k,
       uint64_t *count, uint64_t *nodes, size_t *kids, int fused)
{
    lanes s0, s1;
    uint64_t c = 0;
    lanes_init(&s0, 0, m0);
    lanes_init(&s1, 0, m1);
    while (lanes_live(&s0) && lanes_live(&s1)) {
        refill(&s0, in0, k->open);
        refill(&s1, in1, k->open);
        c += emit(&s0, k, out0, nodes, fused);
        c += emit(&s1, k, out1, nodes, fused);
    }
    while (lanes_live(&s0)) {
        refill(&s0, in0, k->open);
        c += emit(&s0, k, out0, nodes, fused);
    }
    while (lanes_live(&s1)) {
        refill(&s1, in1, k->open);
        c += emit(&s1, k, out1, nodes, fused);
    }
    *count += c;
    kids[0] = s0.op, kids[1] = s1.op;
}

static void consts_for(const nq_frontier *j, int i, step_consts *k)
{
    int last = j->rows - 2;
    k->open = _mm512_set1_epi32((int)j->open[i]);
    k->open_next = _mm512_set1_epi32((int)j->open[i + 1]);
    k->full = _mm512_set1_epi32((int)j->full);
    k->open0 = _mm512_set1_epi32((int)j->open[last]);
    k->open1 = _mm512_set1_epi32((int)j->open[last + 1]);
    k->shift = _mm_cvtsi32_si128(j->gap[i]);
    for (int a = 0, sh = 0; a < LOOKAHEAD; a++) {
        int row = i + 2 + a;
        if (row < j->rows)
            sh += j->gap[row - 1];
        k->ahead_shift[a] = _mm_cvtsi32_si128(row < j->rows ? sh : 0);
        k->ahead_open[a] = _mm512_set1_epi32(row < j->rows ? (int)j->open[row] : -1);
    }
    {
        int sh = 0;
        for (int row = i + 2; row < j->rows; row++)
            sh += j->gap[row - 1];
        k->last_shift = _mm_cvtsi32_si128(sh);
        k->last_open = _mm512_set1_epi32(i + 2 + LOOKAHEAD < j->rows ? (int)j->open[j->rows - 1] : -1);
    }
    k->gap2 = _mm_cvtsi32_si128(j->gap[last]);
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        k->weight_cols[w] = _mm512_set1_epi32((int)j->weight_cols[w]);
        k->weight[w] = j->weight_cols[w] ? j->weight[w] : 0;
    }
}

static level_buf slice(const level_buf *b, size_t off)
{
    return (level_buf){b->d + off, b->l + off, b->r + off};
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
    level_buf *out = w->level[i + 1];
    consts_for(j, i, &k);
    while (m0 + m1 > 0 && !nq_unit_stopping()) {
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

uint64_t nq_frontier_count(const nq_frontier *j, nq_frontier_state s,
                           nq_frontier_work *w, uint64_t *nodes)
{
    if (j->rows < 3 || !w)
        return nq_frontier_count_scalar(j, s, nodes);
    uint64_t count = 0;
    level_buf *root = &w->level[0][0];
    root->d[0] = s.down, root->l[0] = s.left, root->r[0] = s.right;
    expand_level(j, w, 0, *root, 1, *root, 0, &count, nodes);
    return count;
}

#endif

/*
 * simd_lanes.c - the lane operations of simd.h checked on every mask, once
 * per kernel build: compiled like frontier_vec.c, with the set's target
 * flags, NQ_KERNEL and NQ_LANE_BITS naming the test
 * (t_simd_every_mask_avx2_16, ...), and run only where the CPU has the set
 * (test_kernels.c).
 */
#include "harness.h"
#include "../src/core/bits.h"
#include "../src/engines/frontier_kernel.h"
#include "../src/engines/simd.h"

#if !defined(NQ_KERNEL)
#error "simd_lanes.c is built with NQ_KERNEL set (the Makefile's kernel rules)"
#endif

#define GLUE3(a, b, c) a##b##_##c
#define NAME(a, b, c) GLUE3(a, b, c)
#define LANES_TEST NAME(t_simd_every_mask_, NQ_KERNEL, NQ_LANE_BITS)
#define KERNEL_INIT NAME(nq_frontier_init_, NQ_KERNEL, NQ_LANE_BITS)

void LANES_TEST(void *arg);

enum { L = NQ_LANES, PAD = 64 };

/* The lowest c lanes of m, the slow way. */
static unsigned first_lanes(unsigned m, int c)
{
    while (nq_popcount(m) > c)
        m &= ~(1u << (31 - __builtin_clz(m)));
    return m;
}

static void check_mask(unsigned bits, const lane_t *in, const lane_t *old)
{
    lane_t out[L + PAD];
    unsigned m = NQ_SIMD_MASK_OF(bits);
    vsel s = v_sel((vmask)m);
    CHECKF(v_mask(s) == m, "mask %#x round trip: %#x", m, (unsigned)v_mask(s));
    v_store(out, v_expand(v_load(old), v_plan_expand((vmask)m), s, in));
    for (int i = 0, k = 0; i < L; i++) {
        lane_t want = bits >> i & 1 ? in[k++] : old[i];
        CHECKF(out[i] == want, "expand, mask %#x, lane %d", m, i);
    }
    v_store(out, v_blend(v_load(old), s, v_load(in)));
    for (int i = 0; i < L; i++)
        CHECKF(out[i] == (bits >> i & 1 ? in[i] : old[i]),
               "blend, mask %#x, lane %d", m, i);
    v_compress(out, v_plan_compress((vmask)m), v_load(in));
    for (int i = 0, k = 0; i < L; i++)
        if (bits >> i & 1)
            CHECKF(out[k++] == in[i], "compress, mask %#x, lane %d", m, i);
    vacc c = v_acc_add(v_acc_add(v_acc_zero(), s), s);
    CHECKF(v_acc_sum(c) == 2u * (unsigned)nq_popcount(m), "count, mask %#x", m);
    for (int c = 0; c < nq_popcount(bits); c++)
        CHECKF(NQ_SIMD_MASK_BITS(v_first_lanes((vmask)m, (size_t)c)) ==
                   first_lanes(bits, c), "first %d lanes of %#x", c, m);
}

/* The lane operations the kernel is built on, for every mask: a wrong
 * table entry would drop or duplicate partial placements only for the
 * masks that use it, which random jobs might never meet.  The values use
 * every byte of a lane, so a shuffle that moves half a lane shows. */
void LANES_TEST(void *arg)
{
    (void)arg;
    lane_t in[L + PAD], old[L + PAD];
    KERNEL_INIT();
    for (int i = 0; i < L + PAD; i++) {
        in[i] = (lane_t)(0x0101u * (unsigned)(i + 1) + 0x3000u);
        old[i] = (lane_t)(0x0102u * (unsigned)(i + 1) + 0x6000u);
    }
    for (unsigned b = 0; b < 1u << L && !t_failed(); b++)
        check_mask(b, in, old);
    CHECK(v_mask(v_sel_zero(v_zero())) == V_ALL);
    CHECK(v_mask(v_sel_nonzero(v_load(in))) == V_ALL);
    CHECK(v_mask(v_sel_zero(v_load(in))) == 0);
}

/*
 * simd_lanes.c - the lane operations of simd.h checked mask by mask, once
 * per kernel build: compiled like frontier_vec.c, with the set's target
 * flags, NQ_KERNEL and NQ_LANE_BITS naming the test
 * (t_simd_every_mask_avx2_16, ...), and run only where the CPU has what
 * the build needs (test_kernels.c).
 */
#include "harness.h"
#include "../src/core/bits.h"
#include "../src/search/frontier_kernel.h"
#include "../src/search/simd.h"

#if !defined(NQ_KERNEL)
#error "simd_lanes.c is built with NQ_KERNEL set (the Makefile's kernel rules)"
#endif

#define LANES_TEST NQ_SIMD_NAME3(t_simd_every_mask_, NQ_KERNEL, NQ_LANE_BITS)
#define KERNEL_INIT NQ_SIMD_NAME3(nq_frontier_init_, NQ_KERNEL, NQ_LANE_BITS)

void LANES_TEST(void *arg);

enum { L = NQ_LANES, PAD = 64 };

/* Lane i of a vector whose lane i is bit i of `bits` (all ones or 0). */
static void lanes_of(uint32_t bits, lane_t *out)
{
    for (int i = 0; i < L; i++)
        out[i] = bits >> i & 1 ? (lane_t)~0u : 0;
}

/* One mask (bit i for lane i): the conversions, the count, the packing of
 * lanes (compress), and the tests the kernel combines
 * masks with.  The values use every byte of a lane, so a shuffle that
 * moves half a lane shows. */
static void check_mask(uint32_t bits, const lane_t *in)
{
    lane_t out[L + PAD], sel[L + PAD];
    vmask m = (vmask)NQ_SIMD_MASK_OF(bits);
    vsel s = v_sel(m);
    CHECKF(v_mask(s) == m, "mask %#x round trip", bits);
    CHECKF(v_count(m) == nq_popcount(bits), "count of %#x", bits);
    v_compress(out, v_plan_compress(m), v_load(in));
    for (int i = 0, k = 0; i < L; i++)
        if (bits >> i & 1)
            CHECKF(out[k++] == in[i], "compress, mask %#x, lane %d", bits, i);
    lanes_of(bits, sel);
    vu v = v_load(sel), all = v_set1(~0u);
    CHECKF(v_mask(v_sel_and_test(v_sel(V_ALL), v, all)) == m,
           "test, mask %#x", bits);
    CHECKF(v_mask(v_sel_and_ne(v_sel(V_ALL), v, v_zero())) == m,
           "not equal, mask %#x", bits);
    vmask none = (vmask)NQ_SIMD_MASK_OF(~bits & ((1ull << L) - 1));
#if defined(NQ_SIMD_MASK_REGISTERS)
    CHECKF(v_mask(v_keep_open(v_sel(V_ALL), all, v, v_zero(), v_zero())) == none,
           "open squares, mask %#x", bits);
#endif
    /* V_LIVE_ALL, a full register's lanes as the kernel passes them, may
     * set bits outside the layout's lanes: the result must not */
    CHECKF(v_live_nonzero(V_ALL, v) == m && v_live_nonzero(V_LIVE_ALL, v) == m &&
               v_live_nonzero(m, v) == m &&
               v_live_nonzero(none, v) == 0 && v_live_nonzero(m, v_zero()) == 0,
           "live and not zero, mask %#x", bits);
#if !defined(NQ_SIMD_MASK_REGISTERS)
    /* the minimum, unsigned: a lane with its top bit set is the larger */
    lane_t low[L + PAD];
    v_store(low, v_min(v, v_load(in)));
    for (int i = 0; i < L; i++)
        CHECKF(low[i] == (bits >> i & 1 ? in[i] : 0), "minimum, mask %#x, lane %d", bits, i);
    v_store(low, v_min(v_set1(1u << (NQ_LANE_BITS - 1)), v_load(in)));
    for (int i = 0; i < L; i++)
        CHECKF(low[i] == in[i], "minimum against the top bit, lane %d", i);
#endif
    vacc c = v_acc_add(v_acc_add(v_acc_zero(), s), s);
    CHECKF(v_acc_sum(c) == 2u * (unsigned)nq_popcount(bits), "sum, mask %#x", bits);
}

/* Every mask up to 16 lanes; with 32, every mask of each half, alone and
 * with a scrambled other half: a wrong table entry would drop or
 * duplicate partial placements only for the masks that use it, which
 * random jobs might never meet. */
void LANES_TEST(void *arg)
{
    (void)arg;
    lane_t in[L + PAD];
    KERNEL_INIT();
    for (int i = 0; i < L + PAD; i++)
        in[i] = (lane_t)(0x0101u * (unsigned)(i + 1) + 0x3000u);
    for (uint32_t b = 0; b < (L > 16 ? 1u << 16 : 1u << L) && !t_failed(); b++) {
        check_mask(b, in);
        if (L > 16) {
            uint32_t other = (b * 0x9e37u + 0x7f4au) & 0xffffu;
            check_mask(b << 16, in);
            check_mask(b << 16 | other, in);
            check_mask(other << 16 | b, in);
        }
    }
    /* a count near what a chunk may leave in a 16-bit lane (below 2^15) */
    vacc c = v_acc_zero();
    for (int i = 0; i < 20000; i++)
        c = v_acc_add(c, v_sel(V_ALL));
    CHECKF(v_acc_sum(c) == 20000u * L, "sum of 20000 full registers: %llu",
           (unsigned long long)v_acc_sum(c));
}

/*
 * simd_lanes.c - the lane operations of simd.h checked on every mask, once
 * per instruction set: built like frontier_vec.c, with the set's target
 * flags and NQ_KERNEL naming the test (t_simd_every_mask_avx2, ...), and
 * run only where the CPU has the set (test_kernels.c).
 */
#include "harness.h"
#include "../src/core/bits.h"
#include "../src/engines/frontier_kernel.h"
#include "../src/engines/simd.h"

#if !NQ_SIMD_LANES || !defined(NQ_KERNEL)
#error "simd_lanes.c is built with AVX2 or AVX-512 flags and NQ_KERNEL set"
#endif

#define GLUE(a, b) a##b
#define NAME(a, b) GLUE(a, b)
#define LANES_TEST NAME(t_simd_every_mask_, NQ_KERNEL)
#define KERNEL_INIT NAME(nq_frontier_init_, NQ_KERNEL)

void LANES_TEST(void *arg);

/* The lane operations the vector kernel is built on, for every mask: a
 * wrong table entry would drop or duplicate partial placements only for
 * the masks that use it, which random jobs might never meet. */
void LANES_TEST(void *arg)
{
    (void)arg;
    enum { L = NQ_SIMD_LANES };
    uint32_t in[L], old[L], out[L];
    KERNEL_INIT();
    for (int i = 0; i < L; i++)
        in[i] = 100 + (uint32_t)i, old[i] = 1000 + (uint32_t)i;
    for (unsigned m = 0; m <= V_ALL && !t_failed(); m++) {
        v_store(out, v_expand(v_load(old), (vmask)m, v_sel((vmask)m), in));
        for (int i = 0, k = 0; i < L; i++) {
            uint32_t want = m >> i & 1 ? in[k++] : old[i];
            CHECKF(out[i] == want, "expand, mask %#x, lane %d", m, i);
        }
        v_store(out, v_blend(v_load(old), v_sel((vmask)m), v_load(in)));
        for (int i = 0; i < L; i++)
            CHECKF(out[i] == (m >> i & 1 ? in[i] : old[i]),
                   "blend, mask %#x, lane %d", m, i);
        v_compress(out, (vmask)m, v_load(in));
        for (int i = 0, k = 0; i < L; i++)
            if (m >> i & 1)
                CHECKF(out[k++] == in[i], "compress, mask %#x, lane %d", m, i);
        CHECK(v_nonzero(v_and(v_load(in), v_zero())) == 0);
        for (int c = 0; c < nq_popcount(m); c++) {
            unsigned want = m, got = v_first_lanes((vmask)m, (size_t)c);
            while (nq_popcount(want) > c)
                want &= ~(1u << (31 - __builtin_clz(want)));
            CHECKF(got == want, "first %d lanes of %#x: %#x", c, m, got);
        }
    }
}

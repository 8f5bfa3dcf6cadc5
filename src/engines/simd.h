/*
 * simd.h - the few lane operations the frontier kernel is written in, for
 * AVX-512 (16 lanes of 32 bits) and AVX2 (8 lanes).
 *
 * frontier.c's vector kernel is one body over these; each instruction set
 * gives them in a handful of instructions.  AVX-512 has what the kernel
 * wants natively: lane masks, ternary logic, vpcompressd and vpexpandd.
 * AVX2 has none of these, so there a lane mask is the movemask bits of a
 * comparison, and compress and expand are permutations looked up by the
 * mask in 256-entry tables, expand followed by a blend.  Machines without
 * AVX-512 (most desktops before 2022, Zen 2 and 3) are why the second
 * exists: the scalar kernel is ~25 times slower than the AVX-512 one.
 *
 * vmask: bit i for lane i.  vsel: the same set of lanes in whatever form
 * the instruction set selects lanes with (a mask register, or a vector of
 * all-ones lanes).
 */
#ifndef NQ_SIMD_H
#define NQ_SIMD_H

#include <stdint.h>

#include "../core/bits.h"

#if defined(__AVX512F__)
#define NQ_SIMD_LANES 16
#elif defined(__AVX2__)
#define NQ_SIMD_LANES 8
#else
#define NQ_SIMD_LANES 0
#endif

#if NQ_SIMD_LANES
#include <immintrin.h>

#if NQ_SIMD_LANES == 16
typedef __mmask16 vmask; /* kept in mask registers */
#else
typedef unsigned vmask;
#endif

#define V_ALL ((vmask)((1u << NQ_SIMD_LANES) - 1))

/* The lowest `count` lanes of m (count < the lanes in m).  Rare (at the
 * end of a run of input), so kept small: an unrolled loop here, inlined
 * into the hot loop, cost a few percent (bench/RESULTS.md). */
static inline vmask v_first_lanes(vmask m, size_t count)
{
#if defined(__BMI2__)
    return (vmask)_pdep_u32((1u << count) - 1, m);
#else
    vmask out = 0;
#pragma GCC unroll 1
    for (; count; count--) {
        out |= (vmask)nq_lowest_bit32(m);
        m &= m - 1;
    }
    return out;
#endif
}
#endif

#if NQ_SIMD_LANES == 16

typedef __m512i vu;
typedef __mmask16 vsel;

static inline vu v_set1(uint32_t x) { return _mm512_set1_epi32((int)x); }
static inline vu v_load(const uint32_t *p) { return _mm512_loadu_si512(p); }
static inline void v_store(uint32_t *p, vu a) { _mm512_storeu_si512(p, a); }
static inline vu v_zero(void) { return _mm512_setzero_si512(); }
static inline vu v_and(vu a, vu b) { return _mm512_and_si512(a, b); }
static inline vu v_or(vu a, vu b) { return _mm512_or_si512(a, b); }
static inline vu v_xor(vu a, vu b) { return _mm512_xor_si512(a, b); }
/* ~a & b */
static inline vu v_andnot(vu a, vu b) { return _mm512_andnot_si512(a, b); }
static inline vu v_or3(vu a, vu b, vu c)
{
    return _mm512_ternarylogic_epi32(a, b, c, 0xfe);
}
static inline vu v_sll(vu a, __m128i n) { return _mm512_sll_epi32(a, n); }
static inline vu v_srl(vu a, __m128i n) { return _mm512_srl_epi32(a, n); }
static inline vu v_lowest(vu a)
{
    return _mm512_and_si512(a, _mm512_sub_epi32(_mm512_setzero_si512(), a));
}
static inline vmask v_nonzero(vu a) { return _mm512_test_epi32_mask(a, a); }
static inline vmask v_iszero(vu a) { return _mm512_testn_epi32_mask(a, a); }
/* lanes where a & b is not 0 */
static inline vmask v_test(vu a, vu b) { return _mm512_test_epi32_mask(a, b); }
static inline vmask v_eq(vu a, vu b) { return _mm512_cmpeq_epi32_mask(a, b); }
/* lanes of m where open has a bit outside d | l | r: ~(d|l|r) is one
 * instruction, and the masked test another */
static inline vmask v_open(vmask m, vu open, vu d, vu l, vu r)
{
    return _mm512_mask_test_epi32_mask(m, open,
                                       _mm512_ternarylogic_epi32(d, l, r, 0x01));
}
static inline vsel v_sel(vmask m) { return m; }
/* the lanes of s from a, the others from old */
static inline vu v_blend(vu old, vsel s, vu a)
{
    return _mm512_mask_mov_epi32(old, s, a);
}
/* The lanes of m take p[0], p[1], ... in order; the others keep src. */
static inline vu v_expand(vu src, vmask m, vsel s, const uint32_t *p)
{
    (void)s;
    return _mm512_mask_expand_epi32(src, m, v_load(p));
}
/* The lanes of m stored to p[0], p[1], ...; a whole vector is written. */
static inline void v_compress(uint32_t *p, vmask m, vu a)
{
    v_store(p, _mm512_maskz_compress_epi32(m, a));
}

#elif NQ_SIMD_LANES == 8

typedef __m256i vu;
typedef __m256i vsel;

/* Per mask: byte k is the source lane of output lane k (compress: the k-th
 * lane of the mask; expand: how many mask lanes lie below lane k), and a
 * byte 0xff per lane of the mask. */
extern uint64_t nq_simd_compress_idx[256], nq_simd_expand_idx[256],
    nq_simd_lane_bytes[256];

static inline vu v_set1(uint32_t x) { return _mm256_set1_epi32((int)x); }
static inline vu v_load(const uint32_t *p)
{
    return _mm256_loadu_si256((const void *)p);
}
static inline void v_store(uint32_t *p, vu a) { _mm256_storeu_si256((void *)p, a); }
static inline vu v_zero(void) { return _mm256_setzero_si256(); }
static inline vu v_and(vu a, vu b) { return _mm256_and_si256(a, b); }
static inline vu v_or(vu a, vu b) { return _mm256_or_si256(a, b); }
static inline vu v_xor(vu a, vu b) { return _mm256_xor_si256(a, b); }
static inline vu v_andnot(vu a, vu b) { return _mm256_andnot_si256(a, b); }
static inline vu v_or3(vu a, vu b, vu c) { return v_or(v_or(a, b), c); }
static inline vu v_sll(vu a, __m128i n) { return _mm256_sll_epi32(a, n); }
static inline vu v_srl(vu a, __m128i n) { return _mm256_srl_epi32(a, n); }
static inline vu v_lowest(vu a)
{
    return _mm256_and_si256(a, _mm256_sub_epi32(_mm256_setzero_si256(), a));
}
static inline vmask v_eq(vu a, vu b)
{
    return (vmask)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)));
}
static inline vmask v_iszero(vu a) { return v_eq(a, v_zero()); }
static inline vmask v_nonzero(vu a) { return ~v_iszero(a) & V_ALL; }
static inline vmask v_test(vu a, vu b) { return v_nonzero(v_and(a, b)); }
static inline vmask v_open(vmask m, vu open, vu d, vu l, vu r)
{
    return m & v_nonzero(v_andnot(v_or3(d, l, r), open));
}
static inline vu v_bytes_to_lanes(uint64_t bytes, int sign)
{
    __m128i b = _mm_cvtsi64_si128((long long)bytes);
    return sign ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}
static inline vsel v_sel(vmask m)
{
    return v_bytes_to_lanes(nq_simd_lane_bytes[m], 1);
}
static inline vu v_blend(vu old, vsel s, vu a)
{
    return _mm256_blendv_epi8(old, a, s);
}
static inline vu v_expand(vu src, vmask m, vsel s, const uint32_t *p)
{
    vu idx = v_bytes_to_lanes(nq_simd_expand_idx[m], 0);
    vu moved = _mm256_permutevar8x32_epi32(v_load(p), idx);
    return _mm256_blendv_epi8(src, moved, s);
}
static inline void v_compress(uint32_t *p, vmask m, vu a)
{
    vu idx = v_bytes_to_lanes(nq_simd_compress_idx[m], 0);
    v_store(p, _mm256_permutevar8x32_epi32(a, idx));
}

#endif
#endif

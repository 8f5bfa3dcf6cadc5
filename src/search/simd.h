/*
 * simd.h - the few lane operations the frontier kernel is written in, for
 * each instruction set and lane width it is built for.
 *
 * frontier_vec.c is one body over these; the Makefile builds it once per
 * (set, width) with NQ_ISA_<set> and NQ_LANE_BITS defined.  The 16-bit
 * builds take boards whose free columns fit 16 bits (N <= 18 in the fast
 * engine), in twice the lanes of the 32-bit ones:
 *
 *   avx512 16/32  32 or 16 lanes: mask registers, ternary logic and
 *               vpcompressw/d do what the kernel wants in one instruction
 *               each (vpcompressw is AVX512_VBMI2: Ice Lake, Zen 4 on).
 *   avx2 32     8 lanes: a lane mask is the movemask of a comparison, and
 *               compress is a vpermd by indices looked up by the mask.
 *   avx2 16     16 lanes: each 128-bit half packs its 8 lanes with one
 *               vpshufb from a 256-entry table, and the halves are stored
 *               at the offset the low half's count gives.
 *   sse4 16/32  x86-64-v2 (SSSE3, SSE4.1), 8 or 4 lanes: the x86 CPUs
 *               before AVX2 (Nehalem to Ivy Bridge, Bulldozer to Jaguar),
 *               one pshufb per vector from the same tables.
 *   neon 16/32  aarch64's Advanced SIMD, 8 or 4 lanes: the same byte
 *               tables, one tbl per vector.
 *   simd128 16/32  WebAssembly SIMD (a module built with -msimd128), 8
 *               or 4 lanes: the same byte tables, one i8x16.swizzle per
 *               vector; shifts as below (the engine takes their count
 *               modulo the lane width).
 *   scalar 32   one lane in a general register, for every other CPU:
 *               the same branch-free body (a plain DFS loses most of its
 *               time to mispredicted branches).  The scalar kernel's
 *               16-column jobs go to frontier_rows.c, a method of its own
 *               (four 16-bit lanes in a 64-bit register, this body's old
 *               scalar 16 build, was 1.1 to 1.25 times slower there).
 *
 * vsel is a set of lanes in the form the set selects lanes with (a mask
 * register, or a vector of all-ones lanes); vmask is the same set as bits
 * of an integer, for table lookups and counts (bit i for lane i, but for
 * avx2 16: see its v_mask).  A vplan is what compress needs for one mask,
 * computed once and used for every state word.  A vacc counts set lanes
 * over many steps; its lanes may be 16 bits (frontier_vec.c bounds the
 * steps between sums).
 */
#ifndef NQ_SIMD_H
#define NQ_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../core/bits.h"
#include "frontier_kernel.h"

#ifndef NQ_LANE_BITS
#define NQ_LANE_BITS 32
#endif

/* The byte-shuffle table of this build (avx2 16, sse4, neon), one per
 * build: nq_simd_shuffles_sse4_16, ... (frontier_vec.c fills it). */
#define NQ_SIMD_GLUE3(a, b, c) a##b##_##c
#define NQ_SIMD_NAME3(a, b, c) NQ_SIMD_GLUE3(a, b, c)
#define NQ_SIMD_SHUFFLES NQ_SIMD_NAME3(nq_simd_shuffles_, NQ_KERNEL, NQ_LANE_BITS)

#if NQ_LANE_BITS == 16
typedef uint16_t lane_t;
#else
typedef uint32_t lane_t;
#endif


/* ------------------------------------------------------------------ */
#if defined(NQ_ISA_avx512)
#include <immintrin.h>

#if NQ_LANE_BITS == 16
#define NQ_LANES 32
#define NQ_Z(op) op##_epi16
#define NQ_ZM(op) op##_epi16_mask
typedef __mmask32 vsel;
#else
#define NQ_LANES 16
#define NQ_Z(op) op##_epi32
#define NQ_ZM(op) op##_epi32_mask
typedef __mmask16 vsel;
#endif
typedef __m512i vu;
typedef vsel vmask;
typedef vsel vplan;
typedef __m128i vshift;
typedef uint64_t vacc;

static inline vu v_set1(uint32_t x) { return NQ_Z(_mm512_set1)((int)(lane_t)x); }
static inline vu v_load(const lane_t *p) { return _mm512_loadu_si512(p); }
static inline void v_store(lane_t *p, vu a) { _mm512_storeu_si512(p, a); }
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
static inline vshift v_shift(int n) { return _mm_cvtsi32_si128(n); }
static inline vu v_sll(vu a, vshift n) { return NQ_Z(_mm512_sll)(a, n); }
static inline vu v_srl(vu a, vshift n) { return NQ_Z(_mm512_srl)(a, n); }
static inline vu v_lowest(vu a)
{
    return _mm512_and_si512(a, NQ_Z(_mm512_sub)(_mm512_setzero_si512(), a));
}
/* lanes of m where a & b is not 0; where a != b */
static inline vsel v_sel_and_test(vsel m, vu a, vu b)
{
    return NQ_ZM(_mm512_mask_test)(m, a, b);
}
static inline vsel v_sel_and_ne(vsel m, vu a, vu b)
{
    return NQ_ZM(_mm512_mask_cmpneq)(m, a, b);
}
/* lanes of m where open has a square outside d | l | r: ~(d|l|r) is one
 * instruction, and the masked test another */
static inline vsel v_keep_open(vsel m, vu open, vu d, vu l, vu r)
{
    return v_sel_and_test(m, open, _mm512_ternarylogic_epi32(d, l, r, 0x01));
}
/* The lanes of live where a is not 0: one test predicated by live.  With
 * mask registers each test is predicated by the last for free, so the
 * kernel chains them (NQ_SIMD_MASK_REGISTERS). */
static inline vmask v_live_nonzero(vmask live, vu a) { return v_sel_and_test(live, a, a); }
#define NQ_SIMD_MASK_REGISTERS 1
static inline vmask v_mask(vsel s) { return s; }
static inline vsel v_sel(vmask m) { return m; }
static inline vplan v_plan_compress(vmask m) { return m; }
/* The lanes of the plan's mask stored to p[0], p[1], ...; a whole vector
 * is written.  vpcompressw is AVX512_VBMI2 (Ice Lake, Zen 4 on). */
static inline void v_compress(lane_t *p, vplan m, vu a)
{
    v_store(p, NQ_Z(_mm512_maskz_compress)(m, a));
}
static inline vacc v_acc_zero(void) { return 0; }
static inline vacc v_acc_add(vacc c, vsel s) { return c + (uint64_t)nq_popcount(s); }
static inline uint64_t v_acc_sum(vacc c) { return c; }

/* ------------------------------------------------------------------ */
#elif defined(NQ_ISA_avx2)
#include <immintrin.h>

#if NQ_LANE_BITS == 16
#define NQ_LANES 16
#define NQ_Y(op) op##_epi16
typedef struct {
    __m256i idx;   /* per 128-bit half, a byte shuffle */
    unsigned low;  /* lanes of the mask in the low half */
} vplan;
extern nq_shuffles NQ_SIMD_SHUFFLES;
#else
#define NQ_LANES 8
#define NQ_Y(op) op##_epi32
typedef __m256i vplan;
/* Per mask: byte k is the source lane of output lane k, the k-th lane of
 * the mask. */
extern uint64_t nq_simd_compress_idx[256];
#endif
typedef __m256i vu;
typedef __m256i vsel;
typedef unsigned vmask;
typedef __m128i vshift;
typedef __m256i vacc;

static inline vu v_set1(uint32_t x) { return NQ_Y(_mm256_set1)((int)(lane_t)x); }
static inline vu v_load(const lane_t *p)
{
    return _mm256_loadu_si256((const void *)p);
}
static inline void v_store(lane_t *p, vu a) { _mm256_storeu_si256((void *)p, a); }
static inline vu v_zero(void) { return _mm256_setzero_si256(); }
static inline vu v_and(vu a, vu b) { return _mm256_and_si256(a, b); }
static inline vu v_or(vu a, vu b) { return _mm256_or_si256(a, b); }
static inline vu v_xor(vu a, vu b) { return _mm256_xor_si256(a, b); }
static inline vu v_andnot(vu a, vu b) { return _mm256_andnot_si256(a, b); }
static inline vu v_or3(vu a, vu b, vu c) { return v_or(v_or(a, b), c); }
static inline vshift v_shift(int n) { return _mm_cvtsi32_si128(n); }
static inline vu v_sll(vu a, vshift n) { return NQ_Y(_mm256_sll)(a, n); }
static inline vu v_srl(vu a, vshift n) { return NQ_Y(_mm256_srl)(a, n); }
static inline vu v_lowest(vu a)
{
    return _mm256_and_si256(a, NQ_Y(_mm256_sub)(_mm256_setzero_si256(), a));
}
static inline vu v_ones(void) { return _mm256_set1_epi32(-1); }
#if NQ_LANE_BITS == 16
static inline vu v_min(vu a, vu b) { return _mm256_min_epu16(a, b); }
#else
static inline vu v_min(vu a, vu b) { return _mm256_min_epu32(a, b); }
#endif
static inline vsel v_sel_eq(vu a, vu b) { return NQ_Y(_mm256_cmpeq)(a, b); }
#define NQ_SIMD_VECTOR_SELECTORS 1

#if NQ_LANE_BITS == 32
static inline vmask v_mask(vsel s)
{
    return (vmask)_mm256_movemask_ps(_mm256_castsi256_ps(s));
}
static inline vsel v_sel(vmask m)
{
    const vu bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)m), bit), bit);
}
static inline vplan v_plan_compress(vmask m)
{
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)nq_simd_compress_idx[m]));
}
static inline void v_compress(lane_t *p, vplan idx, vu a)
{
    v_store(p, _mm256_permutevar8x32_epi32(a, idx));
}
#else
/* Packing the lanes to bytes beside zeros puts lanes 0-7 in bits 0-7 of
 * the movemask and lanes 8-15 in bits 16-23: vmask keeps that layout,
 * whose bytes are the two halves' table indices. */
static inline vmask v_mask(vsel s)
{
    return (unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(s, _mm256_setzero_si256()));
}
static inline vsel v_sel(vmask m)
{
    const vu bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
                                     1024, 2048, 4096, 8192, 16384, -32768);
    vu all = _mm256_set1_epi16((short)(m | m >> 8));
    return _mm256_cmpeq_epi16(_mm256_and_si256(all, bit), bit);
}
#define NQ_SIMD_MASK_OF(b) (((b) & 0xffu) | ((b) & 0xff00u) << 8)
/* Two 16-byte loads as the halves of a register: each broadcast by the
 * load unit and one blend, not vinserti128, which competes with the
 * shuffles for one port on Zen 3. */
static inline vu v_halves(const void *lo, const void *hi)
{
    return _mm256_blend_epi32(_mm256_broadcastsi128_si256(_mm_loadu_si128(lo)),
                              _mm256_broadcastsi128_si256(_mm_loadu_si128(hi)),
                              0xf0);
}
static inline vplan v_plan_of(const uint8_t (*t)[16], vmask m)
{
    vplan p;
    p.idx = v_halves(t[m & 0xff], t[m >> 16]);
    p.low = (unsigned)nq_popcount(m & 0xff);
    return p;
}
static inline vplan v_plan_compress(vmask m)
{
    return v_plan_of(NQ_SIMD_SHUFFLES.compress, m);
}
/* The lanes of live where a is not 0.  Packed beside all-ones bytes, the
 * zero lanes' movemask, inverted, has 0 between the two halves' lane
 * bits, so a full register's live can be every bit (V_LIVE_ALL) and the
 * and goes. */
static inline vmask v_live_nonzero(vmask live, vu a)
{
    vu zero = _mm256_cmpeq_epi16(a, _mm256_setzero_si256());
    return live & ~(unsigned)_mm256_movemask_epi8(
                      _mm256_packs_epi16(zero, _mm256_set1_epi32(-1)));
}
#define NQ_SIMD_LIVE_NONZERO 1
#define V_LIVE_ALL (~(vmask)0)
static inline void v_compress(lane_t *out, vplan p, vu a)
{
    vu packed = _mm256_shuffle_epi8(a, p.idx);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)(out + p.low), _mm256_extracti128_si256(packed, 1));
}
#endif

/* ------------------------------------------------------------------ */
#elif defined(NQ_ISA_sse4)
#include <immintrin.h>

#if NQ_LANE_BITS == 16
#define NQ_LANES 8
#define NQ_SSE(op) op##_epi16
#else
#define NQ_LANES 4
#define NQ_SSE(op) op##_epi32
#endif
typedef __m128i vu;
typedef __m128i vsel;
typedef unsigned vmask;
typedef __m128i vplan;
typedef __m128i vshift;
typedef __m128i vacc;

extern nq_shuffles NQ_SIMD_SHUFFLES;

static inline vu v_set1(uint32_t x) { return NQ_SSE(_mm_set1)((int)(lane_t)x); }
static inline vu v_load(const lane_t *p) { return _mm_loadu_si128((const void *)p); }
static inline void v_store(lane_t *p, vu a) { _mm_storeu_si128((void *)p, a); }
static inline vu v_zero(void) { return _mm_setzero_si128(); }
static inline vu v_and(vu a, vu b) { return _mm_and_si128(a, b); }
static inline vu v_or(vu a, vu b) { return _mm_or_si128(a, b); }
static inline vu v_xor(vu a, vu b) { return _mm_xor_si128(a, b); }
static inline vu v_andnot(vu a, vu b) { return _mm_andnot_si128(a, b); }
static inline vu v_or3(vu a, vu b, vu c) { return v_or(v_or(a, b), c); }
static inline vshift v_shift(int n) { return _mm_cvtsi32_si128(n); }
static inline vu v_sll(vu a, vshift n) { return NQ_SSE(_mm_sll)(a, n); }
static inline vu v_srl(vu a, vshift n) { return NQ_SSE(_mm_srl)(a, n); }
static inline vu v_lowest(vu a) { return v_and(a, NQ_SSE(_mm_sub)(v_zero(), a)); }
static inline vu v_ones(void) { return _mm_set1_epi32(-1); }
#if NQ_LANE_BITS == 16
static inline vu v_min(vu a, vu b) { return _mm_min_epu16(a, b); }
#else
static inline vu v_min(vu a, vu b) { return _mm_min_epu32(a, b); }
#endif
static inline vsel v_sel_eq(vu a, vu b) { return NQ_SSE(_mm_cmpeq)(a, b); }
static inline vmask v_mask(vsel s)
{
#if NQ_LANE_BITS == 16
    return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(s, s)) & 0xffu;
#else
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(s));
#endif
}
static inline vsel v_sel(vmask m)
{
#if NQ_LANE_BITS == 16
    const vu bit = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
#else
    const vu bit = _mm_setr_epi32(1, 2, 4, 8);
#endif
    return v_sel_eq(v_and(v_set1(m), bit), bit);
}
static inline vplan v_plan_compress(vmask m)
{
    return _mm_loadu_si128((const void *)NQ_SIMD_SHUFFLES.compress[m]);
}
static inline void v_compress(lane_t *p, vplan idx, vu a)
{
    v_store(p, _mm_shuffle_epi8(a, idx));
}
static inline vacc v_acc_zero(void) { return v_zero(); }
static inline vacc v_acc_add(vacc c, vsel s) { return NQ_SSE(_mm_sub)(c, s); }
static inline uint64_t v_acc_sum(vacc c)
{
#if NQ_LANE_BITS == 16
    c = _mm_madd_epi16(c, _mm_set1_epi16(1)); /* signed: lanes < 2^15 */
#endif
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0x4e));
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(c);
}
#define NQ_SIMD_VECTOR_SELECTORS 1

/* ------------------------------------------------------------------ */
#elif defined(NQ_ISA_neon)
#include <arm_neon.h>

#if NQ_LANE_BITS == 16
#define NQ_LANES 8
typedef uint16x8_t vu;
typedef int16x8_t vshift_one;
#define NQ_NEON(op) op##_u16
#define NQ_NEON_S(op) op##_s16
#else
#define NQ_LANES 4
typedef uint32x4_t vu;
typedef int32x4_t vshift_one;
#define NQ_NEON(op) op##_u32
#define NQ_NEON_S(op) op##_s32
#endif
typedef vu vsel;
typedef unsigned vmask;
typedef uint8x16_t vplan;
typedef struct {
    vshift_one left, right;
} vshift;
typedef vu vacc;

extern nq_shuffles NQ_SIMD_SHUFFLES;

static inline vu v_set1(uint32_t x) { return NQ_NEON(vdupq_n)((lane_t)x); }
static inline vu v_load(const lane_t *p) { return NQ_NEON(vld1q)(p); }
static inline void v_store(lane_t *p, vu a) { NQ_NEON(vst1q)(p, a); }
static inline vu v_zero(void) { return NQ_NEON(vdupq_n)(0); }
static inline vu v_and(vu a, vu b) { return NQ_NEON(vandq)(a, b); }
static inline vu v_or(vu a, vu b) { return NQ_NEON(vorrq)(a, b); }
static inline vu v_xor(vu a, vu b) { return NQ_NEON(veorq)(a, b); }
static inline vu v_andnot(vu a, vu b) { return NQ_NEON(vbicq)(b, a); }
static inline vu v_or3(vu a, vu b, vu c) { return v_or(v_or(a, b), c); }
static inline vshift v_shift(int n)
{
    vshift s = {NQ_NEON_S(vdupq_n)(n), NQ_NEON_S(vdupq_n)(-n)};
    return s;
}
static inline vu v_sll(vu a, vshift n) { return NQ_NEON(vshlq)(a, n.left); }
static inline vu v_srl(vu a, vshift n) { return NQ_NEON(vshlq)(a, n.right); }
static inline vu v_lowest(vu a) { return v_and(a, NQ_NEON(vsubq)(v_zero(), a)); }
static inline vu v_ones(void) { return NQ_NEON(vdupq_n)((lane_t)~0u); }
static inline vu v_min(vu a, vu b) { return NQ_NEON(vminq)(a, b); }
static inline vsel v_sel_eq(vu a, vu b) { return NQ_NEON(vceqq)(a, b); }
static inline vu v_lane_bits(void)
{
#if NQ_LANE_BITS == 16
    static const uint16_t bit[8] = {1, 2, 4, 8, 16, 32, 64, 128};
#else
    static const uint32_t bit[4] = {1, 2, 4, 8};
#endif
    return v_load(bit);
}
static inline vmask v_mask(vsel s)
{
    return (vmask)NQ_NEON(vaddvq)(v_and(s, v_lane_bits()));
}
static inline vsel v_sel(vmask m)
{
    return NQ_NEON(vtstq)(v_set1(m), v_lane_bits());
}
static inline vplan v_plan_compress(vmask m)
{
    return vld1q_u8(NQ_SIMD_SHUFFLES.compress[m]);
}
static inline vu v_shuffle(vu a, vplan idx)
{
#if NQ_LANE_BITS == 16
    return vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(a), idx));
#else
    return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(a), idx));
#endif
}
static inline void v_compress(lane_t *p, vplan idx, vu a)
{
    v_store(p, v_shuffle(a, idx));
}
#define NQ_SIMD_VECTOR_SELECTORS 1

/* ------------------------------------------------------------------ */
#elif defined(NQ_ISA_simd128)
#include <wasm_simd128.h>

#if NQ_LANE_BITS == 16
#define NQ_LANES 8
#define NQ_WASM(op) wasm_i16x8_##op
#define NQ_WASM_U(op) wasm_u16x8_##op
#else
#define NQ_LANES 4
#define NQ_WASM(op) wasm_i32x4_##op
#define NQ_WASM_U(op) wasm_u32x4_##op
#endif
typedef v128_t vu;
typedef v128_t vsel;
typedef unsigned vmask;
typedef v128_t vplan;
typedef v128_t vacc;
/* WebAssembly takes a shift's count modulo the lane width, where x86's
 * and NEON's shifts by the width or more give 0, as the kernel needs: a
 * diagonal moved past the last column is gone (16-bit lanes meet rows 16
 * or more apart from N = 17 on, and in split and completion jobs).  So a
 * left shift is a multiplication by 2^n, 0 for such a count (one
 * instruction, where V8 makes a shift by a variable count three more:
 * move, mask, move to a vector register), and a right shift is masked
 * by keep, 0 for such a count. */
typedef struct {
    v128_t mul;
    uint32_t n;
    v128_t keep;
} vshift;

extern nq_shuffles NQ_SIMD_SHUFFLES;

static inline vu v_set1(uint32_t x) { return NQ_WASM(splat)((lane_t)x); }
static inline vu v_load(const lane_t *p) { return wasm_v128_load(p); }
static inline void v_store(lane_t *p, vu a) { wasm_v128_store(p, a); }
static inline vu v_zero(void) { return wasm_i32x4_const_splat(0); }
static inline vu v_ones(void) { return wasm_i32x4_const_splat(-1); }
static inline vu v_and(vu a, vu b) { return wasm_v128_and(a, b); }
static inline vu v_or(vu a, vu b) { return wasm_v128_or(a, b); }
static inline vu v_xor(vu a, vu b) { return wasm_v128_xor(a, b); }
/* ~a & b: WebAssembly's andnot is a & ~b */
static inline vu v_andnot(vu a, vu b) { return wasm_v128_andnot(b, a); }
static inline vu v_or3(vu a, vu b, vu c) { return v_or(v_or(a, b), c); }
static inline vshift v_shift(int n)
{
    int wide = n >= NQ_LANE_BITS;
    vshift s = {v_set1(wide ? 0 : 1u << n), (uint32_t)n,
                wide ? v_zero() : v_ones()};
    return s;
}
static inline vu v_sll(vu a, vshift s) { return NQ_WASM(mul)(a, s.mul); }
/* The count passed through an empty asm at each shift: clang 14 (Debian's
 * emscripten 3.1.6) hoists the splat of a loop's constant count out of
 * the loop, and its instruction selection, seeing a shift by a vector it
 * cannot tell is a splat, makes it eight extracts, shifts and inserts,
 * three times slower (LLVM 15 sinks the splat back).  The asm costs
 * nothing itself. */
static inline uint32_t v_count_here(uint32_t n)
{
    __asm__ volatile("" : "+r"(n));
    return n;
}
static inline vu v_srl(vu a, vshift s)
{
    return v_and(NQ_WASM_U(shr)(a, v_count_here(s.n)), s.keep);
}
static inline vu v_lowest(vu a) { return v_and(a, NQ_WASM(neg)(a)); }
static inline vu v_min(vu a, vu b) { return NQ_WASM_U(min)(a, b); }
static inline vsel v_sel_eq(vu a, vu b) { return NQ_WASM(eq)(a, b); }
static inline vmask v_mask(vsel s) { return NQ_WASM(bitmask)(s); }
static inline vsel v_sel(vmask m)
{
#if NQ_LANE_BITS == 16
    const vu bit = wasm_i16x8_const(1, 2, 4, 8, 16, 32, 64, 128);
#else
    const vu bit = wasm_i32x4_const(1, 2, 4, 8);
#endif
    return v_sel_eq(v_and(v_set1(m), bit), bit);
}
static inline vplan v_plan_compress(vmask m)
{
    return wasm_v128_load(NQ_SIMD_SHUFFLES.compress[m]);
}
/* i8x16.swizzle, like NEON's tbl, gives 0 for an index past 15. */
static inline void v_compress(lane_t *p, vplan idx, vu a)
{
    v_store(p, wasm_i8x16_swizzle(a, idx));
}
static inline vacc v_acc_zero(void) { return v_zero(); }
static inline vacc v_acc_add(vacc c, vsel s) { return NQ_WASM(sub)(c, s); }
static inline uint64_t v_acc_sum(vacc c)
{
#if NQ_LANE_BITS == 16
    c = wasm_i32x4_extadd_pairwise_i16x8(c); /* signed: lanes < 2^15 */
#endif
    c = wasm_i32x4_add(c, wasm_i32x4_shuffle(c, c, 2, 3, 0, 1));
    c = wasm_i32x4_add(c, wasm_i32x4_shuffle(c, c, 1, 0, 3, 2));
    return (uint32_t)wasm_i32x4_extract_lane(c, 0);
}
#define NQ_SIMD_VECTOR_SELECTORS 1

/* ------------------------------------------------------------------ */
#elif defined(NQ_ISA_scalar)
#define NQ_LANES 1

typedef uint32_t vu;
typedef uint32_t vsel;   /* bit 31 */
typedef unsigned vmask;  /* 1 or 0 */
typedef unsigned vplan;
/* Shifts as multiplications: x86 before BMI2 shifts by a variable count
 * only from cl, and the kernel's four counts would queue for it. */
typedef struct {
    uint32_t left;
    uint64_t right;
} vshift;
typedef uint64_t vacc;

static inline vu v_set1(uint32_t x) { return x; }
static inline vu v_load(const lane_t *p) { return *p; }
static inline void v_store(lane_t *p, vu a) { *p = a; }
static inline vu v_zero(void) { return 0; }
static inline vu v_and(vu a, vu b) { return a & b; }
static inline vu v_or(vu a, vu b) { return a | b; }
static inline vu v_xor(vu a, vu b) { return a ^ b; }
static inline vu v_andnot(vu a, vu b) { return ~a & b; }
static inline vu v_or3(vu a, vu b, vu c) { return a | b | c; }
static inline vshift v_shift(int n)
{
    vshift s = {n < 32 ? 1u << n : 0, (uint64_t)1 << (32 - n)};
    return s;
}
static inline vu v_sll(vu a, vshift n) { return a * n.left; }
static inline vu v_srl(vu a, vshift n) { return (vu)((a * n.right) >> 32); }
static inline vu v_lowest(vu a) { return a & (0u - a); }
/* A lane set is its top bit: x | -x has it exactly when x is not 0
 * (below 2^31, and when x has it already), so the lane tests are plain
 * arithmetic, with no flags to move into registers. */
static inline vsel v_nz(vu x) { return x | (0u - x); }
static inline vsel v_sel_and_test(vsel m, vu a, vu b) { return m & v_nz(a & b); }
static inline vsel v_sel_and_ne(vsel m, vu a, vu b) { return m & v_nz(a ^ b); }
/* The smaller: a compare and a conditional move, no branch. */
static inline vu v_min(vu a, vu b) { return a < b ? a : b; }
/* The lanes of live (here one) where a is not 0. */
static inline vmask v_live_nonzero(vmask live, vu a) { return live & (a != 0); }
static inline vmask v_mask(vsel s) { return s >> 31; }
static inline vsel v_sel(vmask m) { return 0u - m; }
static inline int v_count(vmask m) { return (int)m; }
static inline vplan v_plan_compress(vmask m) { return m; }
/* Stored whether kept or not: the count of kept lanes decides whether the
 * next store overwrites it. */
static inline void v_compress(lane_t *p, vplan m, vu a)
{
    (void)m;
    *p = a;
}
static inline vacc v_acc_zero(void) { return 0; }
static inline vacc v_acc_add(vacc c, vsel s) { return c + (s >> 31); }
static inline uint64_t v_acc_sum(vacc c) { return c; }

#else
#error "simd.h: build with NQ_ISA_<set> for one of the sets listed above"
#endif

#if !defined(NQ_ISA_scalar)
/* The lanes in a mask (one bit a lane in every layout). */
static inline int v_count(vmask m) { return nq_popcount(m); }
#endif


/* Lane bits (bit i for lane i) as a vmask: the same but for avx2 16,
 * whose masks keep the movemask layout. */
#ifndef NQ_SIMD_MASK_OF
#define NQ_SIMD_MASK_OF(b) (b)
#endif
#define V_ALL ((vmask)NQ_SIMD_MASK_OF((1ull << NQ_LANES) - 1))
#ifndef V_LIVE_ALL
#define V_LIVE_ALL V_ALL
#endif

/* ---- selectors as vectors of all-ones lanes (avx2, sse4, neon,
 * simd128) and as one general register (scalar): the combinations, in
 * terms of the above ---- */
#if defined(NQ_SIMD_VECTOR_SELECTORS)
static inline vsel v_sel_zero(vu a) { return v_sel_eq(a, v_zero()); }
static inline vsel v_sel_and_test(vsel m, vu a, vu b)
{
    return v_andnot(v_sel_zero(v_and(a, b)), m);
}
static inline vsel v_sel_and_ne(vsel m, vu a, vu b)
{
    return v_andnot(v_sel_eq(a, b), m);
}
/* The lanes of live where a is not 0: the zero lanes' mask, inverted in
 * a general register (the kernel's lane sets are masks there, where a
 * full register's `live` costs nothing). */
#if !defined(NQ_SIMD_LIVE_NONZERO)
static inline vmask v_live_nonzero(vmask live, vu a) { return live & ~v_mask(v_sel_zero(a)); }
#endif
#endif

/* Counters in vector lanes (a selected lane is all ones, -1: subtract). */
#if defined(NQ_ISA_avx2)
static inline vacc v_acc_zero(void) { return _mm256_setzero_si256(); }
static inline vacc v_acc_add(vacc c, vsel s) { return NQ_Y(_mm256_sub)(c, s); }
static inline uint64_t v_acc_sum(vacc c)
{
#if NQ_LANE_BITS == 16
    c = _mm256_madd_epi16(c, _mm256_set1_epi16(1)); /* signed: lanes < 2^15 */
#endif
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(c),
                              _mm256_extracti128_si256(c, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}
#elif defined(NQ_ISA_neon)
static inline vacc v_acc_zero(void) { return v_zero(); }
static inline vacc v_acc_add(vacc c, vsel s) { return NQ_NEON(vsubq)(c, s); }
#if NQ_LANE_BITS == 16
static inline uint64_t v_acc_sum(vacc c) { return vaddlvq_u16(c); }
#else
static inline uint64_t v_acc_sum(vacc c) { return vaddlvq_u32(c); }
#endif
#endif

#endif

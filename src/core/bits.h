/*
 * bits.h - the bit tricks every bitboard engine leans on, in one place.
 *
 * Builtins when the compiler has them (one instruction with -march=native),
 * portable loops otherwise, so the core builds with any C11 compiler; the
 * device's builtins when nvcc or an OpenCL compiler compiles them for a
 * GPU (device.h), so the search a GPU thread runs (search/dfs.h) steps
 * through bits the same way.
 * Columns are bits: bit c of a row mask is column c.
 */
#ifndef NQ_BITS_H
#define NQ_BITS_H

#include <stdint.h>

#include "device.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(NQ_DEVICE_CODE)
#define NQ_HAVE_BUILTINS 1
#endif

/* 1 when every bit of x is set, else 0: the carry out of x + 1, which
 * compilers make an add and an add-with-carry into the caller's counter,
 * with no compare and no 64-bit constant to hold in a register (the
 * scalar frontier kernel's row test: 4% of its time at count 17). */
static inline NQ_HD unsigned nq_all_ones64(uint64_t x)
{
#if (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5)) && !defined(NQ_DEVICE_CODE)
    uint64_t sum;
    return (unsigned)__builtin_add_overflow(x, 1, &sum);
#else
    return x == ~(uint64_t)0;
#endif
}

/* The bit scans below are undefined for 0 (and tzcnt and bsf, which the
 * x86-64 build's nq_ctz_index runs as on different CPUs, disagree there),
 * so a 0 is a caller's bug that may show on one CPU only: `make asan`
 * (gcc defines __SANITIZE_ADDRESS__) traps on it on every CPU. */
#if defined(__SANITIZE_ADDRESS__) && !defined(NQ_DEVICE_CODE)
#define NQ_NOT_ZERO(x) ((x) ? (void)0 : __builtin_trap())
#else
#define NQ_NOT_ZERO(x) ((void)0)
#endif

/* Index of the lowest set bit; x must not be 0. */
static inline NQ_HD int nq_ctz(uint64_t x)
{
    NQ_NOT_ZERO(x);
#ifdef NQ_DEVICE_CODE
    return NQ_DEVICE_CTZ64(x);
#elif defined(NQ_HAVE_BUILTINS)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* nq_ctz as a 64-bit index, for table lookups in hot loops; x must not
 * be 0 (tzcnt gives 64 then, bsf leaves garbage).  gcc wraps
 * its own tzcnt in a zeroing `xor` (a false dependency some Intel cores
 * have on the output) and zero-extends the int it returns; on x86-64 the
 * instruction is written out so neither is emitted (`tzcnt` runs as `bsf`
 * before BMI1, the same for x != 0).  2-3% of the scalar frontier kernel's
 * time at count 17 (bench/RESULTS.md). */
static inline NQ_HD uint64_t nq_ctz_index(uint64_t x)
{
    NQ_NOT_ZERO(x);
#if defined(__x86_64__) && defined(NQ_HAVE_BUILTINS)
    uint64_t i;
    __asm__("tzcnt {%1, %0|%0, %1}" : "=r"(i) : "r"(x) : "cc");
    return i;
#else
    return (uint64_t)nq_ctz(x);
#endif
}

/* Index of the highest set bit; x must not be 0. */
static inline NQ_HD int nq_top_index(uint64_t x)
{
#ifdef NQ_DEVICE_CODE
    return NQ_DEVICE_TOP64(x);
#elif defined(NQ_HAVE_BUILTINS)
    return 63 - __builtin_clzll(x);
#else
    int i = 0;
    while (x >>= 1)
        i++;
    return i;
#endif
}

static inline NQ_HD int nq_popcount(uint64_t x)
{
#ifdef NQ_DEVICE_CODE
    return NQ_DEVICE_POPCOUNT64(x);
#elif defined(NQ_HAVE_BUILTINS)
    return __builtin_popcountll(x);
#else
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
#endif
}

/* The n low bits set, for 0 <= n <= 64 (n = 64 would be UB with a shift). */
static inline NQ_HD uint64_t nq_low_bits(int n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* The lowest set bit alone: the next square a search tries. */
static inline NQ_HD uint64_t nq_lowest_bit(uint64_t x)
{
    return x & (~x + 1);
}

/* The same for a row mask, kept 32 bits wide (the GPU's registers). */
static inline NQ_HD uint32_t nq_lowest_bit32(uint32_t x)
{
    return x & (~x + 1);
}

/* The squares a queen on column bit(s) c attacks in a row `dist` rows
 * above or below it: its column and both diagonals (none of the
 * diagonals once they have left 64 columns behind). */
static inline NQ_HD uint64_t nq_row_attacks(uint64_t c, int dist)
{
    return c | (dist < 64 ? c << dist | c >> dist : 0);
}

#endif

/*
 * bits.h - the bit tricks every bitboard engine leans on, in one place.
 *
 * Builtins when the compiler has them (one instruction with -march=native),
 * portable loops otherwise, so the core builds with any C11 compiler.
 * Columns are bits: bit c of a row mask is column c.
 */
#ifndef NQ_BITS_H
#define NQ_BITS_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define NQ_HAVE_BUILTINS 1
#endif

/* Index of the lowest set bit; x must not be 0. */
static inline int nq_ctz(uint64_t x)
{
#ifdef NQ_HAVE_BUILTINS
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

static inline int nq_popcount(uint64_t x)
{
#ifdef NQ_HAVE_BUILTINS
    return __builtin_popcountll(x);
#else
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
#endif
}

/* The n low bits set, for 0 <= n <= 64 (n = 64 would be UB with a shift). */
static inline uint64_t nq_low_bits(int n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* The lowest set bit alone. */
static inline uint64_t nq_lowest_bit(uint64_t x)
{
    return x & (~x + 1);
}

#endif

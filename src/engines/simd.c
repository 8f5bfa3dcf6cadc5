/*
 * simd.c - the permutation tables of the AVX2 lane operations (simd.h).
 *
 * 256 masks of 8 lanes, three 64-bit words each (6 KiB), computed once
 * rather than written out: a table of numbers nobody can check by eye is
 * a place for a typo to hide.
 */
#include <pthread.h>

#include "simd.h"

#if NQ_SIMD_LANES == 8

uint64_t nq_simd_compress_idx[256], nq_simd_expand_idx[256],
    nq_simd_lane_bytes[256];

static void fill_tables(void)
{
    for (unsigned m = 0; m < 256; m++) {
        uint64_t compress = 0, expand = 0, lanes = 0;
        int below = 0, k = 0;
        for (int lane = 0; lane < 8; lane++) {
            if (!(m >> lane & 1))
                continue;
            compress |= (uint64_t)lane << (8 * k++);
            expand |= (uint64_t)below++ << (8 * lane);
            lanes |= (uint64_t)0xff << (8 * lane);
        }
        nq_simd_compress_idx[m] = compress;
        nq_simd_expand_idx[m] = expand;
        nq_simd_lane_bytes[m] = lanes;
    }
}

void nq_simd_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}

#elif NQ_SIMD_LANES

void nq_simd_init(void) {}

#else

typedef int nq_simd_unused; /* ISO C wants something in a translation unit */

#endif

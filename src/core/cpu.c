/*
 * cpu.c - which of the kernels' instruction sets this CPU, and the system
 * running on it, can execute.
 *
 * The vector kernels are built for x86-64-v2 (SSE4.2, SSSE3, POPCNT:
 * Nehalem on), x86-64-v3 (AVX2 with BMI, FMA, LZCNT,
 * MOVBE: Haswell on) and x86-64-v4 (AVX-512 F, BW, CD, DQ, VL: Skylake-X,
 * Zen 4 on), whole levels, because the compiler may use any instruction of
 * the level it was given anywhere in the kernel's object.  A CPU having an
 * instruction set is not enough: the operating system must also save the
 * wider registers on a context switch, which XGETBV reports.
 */
#include "core.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

enum { CPUID_1_ECX, CPUID_7_EBX, CPUID_7_ECX, CPUID_X1_ECX, XCR0, WORDS };

/* The feature words, read once (racing first calls read the same). */
static const unsigned *features(void)
{
    static unsigned w[WORDS];
    static int done;
    unsigned a, b, c, d;
    if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
        return w;
    if (__get_cpuid(1, &a, &b, &c, &d))
        w[CPUID_1_ECX] = c;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        w[CPUID_7_EBX] = b, w[CPUID_7_ECX] = c;
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
        w[CPUID_X1_ECX] = c;
    if (w[CPUID_1_ECX] >> 27 & 1) { /* OSXSAVE: XGETBV may be used */
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        w[XCR0] = lo;
    }
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    return w;
}

static int all(unsigned word, unsigned bits) { return (word & bits) == bits; }

/* x86-64-v2: SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT, CMPXCHG16B, LAHF
 * (Nehalem, Bulldozer on); XMM state is saved by every x86-64 system. */
int nq_cpu_has_sse4(void)
{
    const unsigned *w = features();
    unsigned ecx1 = 1u << 0 | 1u << 9 | 1u << 13 | 1u << 19 | 1u << 20 | 1u << 23;
    return all(w[CPUID_1_ECX], ecx1) && all(w[CPUID_X1_ECX], 1u << 0);
}

int nq_cpu_has_avx2(void)
{
    const unsigned *w = features();
    unsigned ecx1 = 1u << 12 | 1u << 22 | 1u << 23 | 1u << 28 | 1u << 29;
    unsigned ebx7 = 1u << 3 | 1u << 5 | 1u << 8; /* BMI1, AVX2, BMI2 */
    return all(w[CPUID_1_ECX], ecx1) &&    /* FMA, MOVBE, POPCNT, AVX, F16C */
           all(w[CPUID_7_EBX], ebx7) &&
           all(w[CPUID_X1_ECX], 1u << 5) && /* LZCNT */
           all(w[XCR0], 0x6);               /* the OS saves XMM and YMM */
}

int nq_cpu_has_avx512(void)
{
    const unsigned *w = features();
    /* F, DQ, CD, BW, VL */
    unsigned ebx7 = 1u << 16 | 1u << 17 | 1u << 28 | 1u << 30 | 1u << 31;
    return nq_cpu_has_avx2() && all(w[CPUID_7_EBX], ebx7) &&
           all(w[XCR0], 0xe6); /* and opmask, ZMM 0-15 high, ZMM 16-31 */
}

/* AVX512_VBMI2 (vpcompressw: Ice Lake, Zen 4 on), on top of AVX-512. */
int nq_cpu_has_avx512_vbmi2(void)
{
    return nq_cpu_has_avx512() && all(features()[CPUID_7_ECX], 1u << 6);
}

#else

int nq_cpu_has_avx512_vbmi2(void) { return 0; }
int nq_cpu_has_sse4(void) { return 0; }
int nq_cpu_has_avx2(void) { return 0; }
int nq_cpu_has_avx512(void) { return 0; }

#endif

/*
 * frontier_kernel.h - what frontier.c (the scalar kernel and the choice of
 * kernel) shares with the vector kernels of frontier_vec.c.
 *
 * frontier_vec.c is one body compiled once per instruction set, each time
 * with that set's target flags (the Makefile's AVX2_FLAGS, AVX512_FLAGS)
 * and NQ_KERNEL naming its entry point; the library picks one at run time
 * (kernels.c), so a binary built for any x86-64 runs the fastest kernel
 * its CPU has.
 */
#ifndef NQ_FRONTIER_KERNEL_H
#define NQ_FRONTIER_KERNEL_H

#include "frontier.h"

/* Each level has a buffer of SEG states (frontier_vec.c says how they
 * are used), and the levels share a scratch buffer. */
#define NQ_FRONTIER_SEG 65536
#define NQ_FRONTIER_PAD 64

/* Each run is its d plane; l, r (and in the scratch run the untried
 * squares) are planes NQ_FRONTIER_SEG + NQ_FRONTIER_PAD words after it,
 * the kernels address them from d. */
struct nq_frontier_work {
    uint32_t *level[NQ_MAX_N + 1], *scratch;
    uint32_t *memory;
    const struct nq_frontier_kernel *kernel; /* NULL: the process default */
};

/* Shuffle tables for the sets that pack lanes with byte shuffles (avx2
 * with 16-bit lanes, sse4, neon, simd128): per mask of a 128-bit block's lanes, 16
 * byte indices.  Filled at run time by each kernel build's init
 * (frontier_vec.c), since a table of numbers nobody can check by eye is a
 * place for a typo to hide. */
typedef struct {
    uint8_t compress[256][16];
} nq_shuffles;

typedef uint64_t nq_frontier_count_fn(const nq_frontier *job,
                                      nq_frontier_state start,
                                      nq_frontier_work *w, uint64_t *nodes);

/* A kernel: prepare its tables (once, before any count), count.  count16
 * (may be NULL) takes jobs whose columns fit 16 bits (frontier.c says
 * which), in twice the lanes; count32 takes any job.  span16 is the
 * widest span of free columns count16 is given (16, or 15 for the scalar
 * kernel, whose row test is cheaper with a field's top bit free); wider
 * jobs are split to reach it, but only where narrow_pays (NULL: always)
 * says count16 has its lanes on this CPU. */
typedef struct nq_frontier_kernel {
    const char *name;
    int (*supported)(void);
    void (*init)(void);
    nq_frontier_count_fn *count16, *count32;
    int span16;
    int (*narrow_pays)(void);
} nq_frontier_kernel;

/* Each build of frontier_vec.c: nq_frontier_init_<set>_<bits> and
 * nq_frontier_count_<set>_<bits>. */
#define NQ_KERNEL_DECLARE(isa, bits)                                         \
    void nq_frontier_init_##isa##_##bits(void);                              \
    nq_frontier_count_fn nq_frontier_count_##isa##_##bits;
NQ_KERNEL_DECLARE(scalar, 32)
/* The scalar kernel's 16-column jobs: frontier_rows.c, its own method. */
nq_frontier_count_fn nq_frontier_count_rows_16;
#if defined(__x86_64__)
NQ_KERNEL_DECLARE(sse4, 16)
NQ_KERNEL_DECLARE(sse4, 32)
NQ_KERNEL_DECLARE(avx2, 16)
NQ_KERNEL_DECLARE(avx2, 32)
NQ_KERNEL_DECLARE(avx512, 16)
NQ_KERNEL_DECLARE(avx512, 32)
#endif
#if defined(__aarch64__)
NQ_KERNEL_DECLARE(neon, 16)
NQ_KERNEL_DECLARE(neon, 32)
#endif
#if defined(__wasm_simd128__)
NQ_KERNEL_DECLARE(simd128, 16)
NQ_KERNEL_DECLARE(simd128, 32)
#endif

/* The process default kernel (kernels.c). */
const nq_frontier_kernel *nq_frontier_kernel_current(void);
/* The named kernel, its tables ready (NULL name: *k NULL, the process
 * default); NQ_ERR_ARG for an unknown name, NQ_ERR_UNSUPPORTED for one
 * this CPU cannot run. */
nq_status nq_frontier_kernel_find(const char *name,
                                  const nq_frontier_kernel **k);

#endif

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

/* Each level has two buffers, one per stream, of SEG states (frontier_vec.c
 * says how they are used). */
#define NQ_FRONTIER_SEG 65536
#define NQ_FRONTIER_PAD 64

typedef struct {
    uint32_t *d, *l, *r;
} nq_level_buf;

struct nq_frontier_work {
    nq_level_buf level[NQ_MAX_N + 1][2];
    uint32_t *memory;
};

/* A vector kernel: prepare its tables (once, before any count), count. */
typedef struct {
    const char *name;
    int lanes;
    int (*supported)(void);
    void (*init)(void);
    uint64_t (*count)(const nq_frontier *job, nq_frontier_state start,
                      nq_frontier_work *w, uint64_t *nodes);
} nq_frontier_kernel;

#define NQ_KERNEL_DECLARE(isa)                                               \
    void nq_frontier_init_##isa(void);                                       \
    uint64_t nq_frontier_count_##isa(const nq_frontier *job,                 \
                                     nq_frontier_state start,                \
                                     nq_frontier_work *w, uint64_t *nodes);
#if defined(__x86_64__)
NQ_KERNEL_DECLARE(avx2)
NQ_KERNEL_DECLARE(avx512)
#endif

/* The kernel in use (kernels.c); NULL for the scalar one. */
const nq_frontier_kernel *nq_frontier_kernel_current(void);

#endif

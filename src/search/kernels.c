/*
 * kernels.c - the search's inner kernel (fast's, completion's), chosen at
 * run time: the kernel table, the one place that names the kernels.
 *
 * The library holds a scalar kernel, which runs everywhere, on x86-64 an
 * SSE4 (x86-64-v2), an AVX2 and an AVX-512 kernel, each built with its own target flags,
 * on aarch64 a NEON kernel (Advanced SIMD is part of every aarch64), and
 * in a WebAssembly module built with SIMD (-msimd128) a simd128 kernel.
 * The first count picks the widest this CPU runs, the process default;
 * nq_select_kernel changes the default.  A request may name its own
 * kernel (nq_request.kernel): its plan then carries it to the units' buffers,
 * so counts in one process can run different kernels at once.  The
 * kernels give the same counts, so the choice changes only the speed.
 * frontier.c calls in here for the kernel of a count; the kernels call
 * nothing back (each fills its own tables), so the three are no circle.
 */
#include <pthread.h>
#include <string.h>

#include "../core/core.h"
#include "frontier_kernel.h"
#include "nqueens.h"

static int always(void) { return 1; }

static void init_scalar(void)
{
    nq_frontier_init_scalar_32();
}

#if defined(__x86_64__)
static void init_sse4(void)
{
    nq_frontier_init_sse4_16();
    nq_frontier_init_sse4_32();
}

/* The 16-bit build needs AVX512_VBMI2 besides AVX-512 (vpcompressw); on
 * a CPU without it (Skylake-X, Cascade Lake) the 32-bit build counts the
 * narrowed job, which is a job like any other. */
static int avx512_16;

static void init_avx512(void)
{
    __atomic_store_n(&avx512_16, nq_cpu_has_avx512_vbmi2(), __ATOMIC_RELAXED);
    nq_frontier_init_avx512_16();
    nq_frontier_init_avx512_32();
}

static int avx512_16_lanes(void)
{
    return __atomic_load_n(&avx512_16, __ATOMIC_RELAXED);
}

static uint64_t count_avx512_16(const nq_frontier *j, nq_frontier_state s,
                                nq_frontier_work *w, uint64_t *nodes)
{
    return avx512_16_lanes() ? nq_frontier_count_avx512_16(j, s, w, nodes)
                             : nq_frontier_count_avx512_32(j, s, w, nodes);
}

static void init_avx2(void)
{
    nq_frontier_init_avx2_16();
    nq_frontier_init_avx2_32();
}
#endif
#if defined(__aarch64__)
static void init_neon(void)
{
    nq_frontier_init_neon_16();
    nq_frontier_init_neon_32();
}
#endif
#if defined(__wasm_simd128__)
static void init_simd128(void)
{
    nq_frontier_init_simd128_16();
    nq_frontier_init_simd128_32();
}
#endif

/* Widest last: the automatic choice is the last one supported. */
static const nq_frontier_kernel kernels[] = {
    {"scalar", always, init_scalar, nq_frontier_count_rows_16,
     nq_frontier_count_scalar_32, 15, NULL},
#if defined(__x86_64__)
    {"sse4", nq_cpu_has_sse4, init_sse4, nq_frontier_count_sse4_16,
     nq_frontier_count_sse4_32, 16, NULL},
    {"avx2", nq_cpu_has_avx2, init_avx2,
     nq_frontier_count_avx2_16, nq_frontier_count_avx2_32, 16, NULL},
    {"avx512", nq_cpu_has_avx512, init_avx512, count_avx512_16,
     nq_frontier_count_avx512_32, 16, avx512_16_lanes},
#endif
#if defined(__aarch64__)
    {"neon", always, init_neon, nq_frontier_count_neon_16,
     nq_frontier_count_neon_32, 16, NULL},
#endif
#if defined(__wasm_simd128__)
    /* a module built with SIMD runs only where the engine validates it */
    {"simd128", always, init_simd128, nq_frontier_count_simd128_16,
     nq_frontier_count_simd128_32, 16, NULL},
#endif
};
#define KERNELS ((int)(sizeof kernels / sizeof kernels[0]))

static const nq_frontier_kernel *chosen; /* NULL until the first use */

static const nq_frontier_kernel *find(const char *name)
{
    for (int i = 0; name && i < KERNELS; i++)
        if (!strcmp(kernels[i].name, name))
            return &kernels[i];
    return NULL;
}

static const nq_frontier_kernel *best(void)
{
    for (int i = KERNELS - 1; i > 0; i--)
        if (kernels[i].supported())
            return &kernels[i];
    return &kernels[0];
}

/* A kernel's tables are filled once, before any count uses it: the
 * default and a request's kernel may be readied by two threads at once. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char ready[KERNELS];

static void prepare(const nq_frontier_kernel *k)
{
    pthread_mutex_lock(&init_lock);
    if (!ready[k - kernels] && k->init)
        k->init();
    ready[k - kernels] = 1;
    pthread_mutex_unlock(&init_lock);
}

/* Tables first, then the pointer: a thread that sees the kernel sees it
 * ready. */
static void use(const nq_frontier_kernel *k)
{
    prepare(k);
    __atomic_store_n(&chosen, k, __ATOMIC_RELEASE);
}

static const nq_frontier_kernel *current(void)
{
    const nq_frontier_kernel *k = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!k) {
        k = best();
        use(k);
    }
    return k;
}

const nq_frontier_kernel *nq_frontier_kernel_current(void)
{
    return current();
}

int nq_kernel_count(void) { return KERNELS; }

const char *nq_kernel_at(int index)
{
    return index >= 0 && index < KERNELS ? kernels[index].name : NULL;
}

int nq_kernel_supported(const char *name)
{
    const nq_frontier_kernel *k = find(name);
    return k && k->supported();
}

const char *nq_kernel_best(void) { return best()->name; }

const char *nq_kernel_current(void) { return current()->name; }

nq_status nq_frontier_kernel_find(const char *name,
                                  const nq_frontier_kernel **out)
{
    const nq_frontier_kernel *k = name ? find(name) : NULL;
    *out = NULL;
    if (!name)
        return NQ_OK;
    if (!k)
        return NQ_ERR_ARG;
    if (!k->supported())
        return NQ_ERR_UNSUPPORTED;
    prepare(k);
    *out = k;
    return NQ_OK;
}

nq_status nq_select_kernel(const char *name)
{
    const nq_frontier_kernel *k = best();
    nq_status st = name ? nq_frontier_kernel_find(name, &k) : NQ_OK;
    if (st == NQ_OK)
        use(k);
    return st;
}

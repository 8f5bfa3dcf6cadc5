/*
 * core.h - internal helpers of the core shared by the library's parts.
 */
#ifndef NQ_CORE_H
#define NQ_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "nqueens.h"

#define NQ_FNV_OFFSET 0xcbf29ce484222325ull

/* CRC-32 of data, continuing from crc (0 to start). */
uint32_t nq_crc32(uint32_t crc, const void *data, size_t len);
/* 64-bit FNV-1a of data, continuing from hash (NQ_FNV_OFFSET to start). */
uint64_t nq_fnv1a(uint64_t hash, const void *data, size_t len);

/* SipHash-2-4 of data under the 128-bit key (k0, k1): the key's 16 bytes
 * are k0 then k1, each little-endian. */
uint64_t nq_siphash(uint64_t k0, uint64_t k1, const void *data, size_t len);

/* 1 if this CPU and system run code built for x86-64-v3 (AVX2) or
 * x86-64-v4 (AVX-512); 0 elsewhere (cpu.c). */
int nq_cpu_has_sse4(void);
int nq_cpu_has_avx2(void);
int nq_cpu_has_avx512(void);
int nq_cpu_has_avx512_vbmi2(void);

/* CPU seconds of the calling thread (only differences mean anything). */
double nq_thread_seconds(void);

/* Threads for a request of `asked`: itself, or for 0 the cores this
 * process may run on (its affinity: an MPI rank bound to one core, a
 * taskset or a container's cpuset), else the online cores.  The one
 * place "0 threads: every core" is decided. */
int nq_resolve_threads(int asked);
/* fn(ctx, i) for each item i below count, on `threads` threads at most
 * (NQ_PARALLEL_MAX; this one among them), each taking the next item left
 * until none is; returns when all are done.  In no particular order: fn
 * writes each item's result where the item alone writes. */
#define NQ_PARALLEL_MAX 256
void nq_parallel_for(uint64_t count, int threads,
                     void (*fn)(void *ctx, uint64_t item), void *ctx);

/* A build with no threads to start: WebAssembly without shared memory
 * (a page opened from file:// has no SharedArrayBuffer).  There "every
 * core" is one thread and the runner counts on the calling thread. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define NQ_NO_THREADS 1
#endif

/* The structs with a size first (sized.c, doc/abi.md).  What each must
 * hold at least: a request its fields up to stop (those after are
 * optional, zero when left out), the others all of this release's. */
#define NQ_REQUEST_LEAST offsetof(nq_request, kernel)
#define NQ_RESUME_LEAST sizeof(nq_resume_options)
#define NQ_REPORT_LEAST sizeof(nq_run_report)
/* given's struct into *full: NQ_ERR_ARG for a size under `least` (0: a
 * size forgotten) or past any struct's, NQ_ERR_UNSUPPORTED for a set
 * field past this release's; else NQ_OK, fields it lacks zero. */
nq_status nq_sized_read(const void *given, size_t least, void *full,
                        size_t full_size);
/* NQ_OK if given (not NULL) holds at least `least` bytes by its size. */
nq_status nq_sized_check(const void *given, size_t least);
/* *full back into given, no further than given's size. */
void nq_sized_write(void *given, const void *full, size_t full_size);
/* nq_sized_read for a request, its why emptied first (every call given
 * one leaves a string there); a size that ends inside a field (no
 * release's struct) is NQ_ERR_ARG as well. */
nq_status nq_request_read(const nq_request *given, nq_request *full);
/* Empty given's why if its size (sane) reaches why_size, whatever else
 * is wrong: for the calls that refuse before reading the request. */
void nq_request_clear_why(const nq_request *given);
/* Words for the failure into req->why, when it has a buffer. */
void nq_request_say(const nq_request *req, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif

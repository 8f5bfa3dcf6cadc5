/*
 * nqueens_cuda.h - the CUDA back-end of libnqueens (libnqueens-cuda.a,
 * built with `make cuda`; link with the CUDA runtime, see nqueens-cuda.pc).
 *
 * The library's engine table holds the CPU engines; this back-end adds
 * engine `cuda` (fast's units counted on NVIDIA GPUs) to it at run time.
 * After nq_cuda_register(), every call of nqueens.h reaches it by name
 * like any other engine (nq_engine_find("cuda"), a request's engine).
 * On a machine without a usable GPU the engine is still listed; a count
 * with it returns NQ_ERR_DEVICE, and the request's why buffer (or the
 * run report's why) gets the CUDA runtime's words ("cudaErrorNoDevice:
 * no CUDA-capable device is detected").
 */
#ifndef NQUEENS_CUDA_H
#define NQUEENS_CUDA_H

#include "nqueens.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Add engine cuda to this process's engine table (again: no effect).
 * NQ_OK, or NQ_ERR_NOMEM if the table is full.  It does not touch the
 * GPU: that waits for the first count. */
nq_status nq_cuda_register(void);

#ifdef __cplusplus
}
#endif
#endif

/*
 * nqueens_opencl.h - the OpenCL back-end of libnqueens
 * (libnqueens-opencl.a, built with `make opencl` where the OpenCL headers
 * and the ICD loader are found; link with -lOpenCL, see
 * nqueens-opencl.pc).
 *
 * The library's engine table holds the CPU engines; this back-end adds
 * engine `opencl` (fast's units counted on any OpenCL 1.2 device: AMD,
 * Intel and NVIDIA GPUs, and CPUs through PoCL) to it at run time.
 * After nq_opencl_register(), every call of nqueens.h reaches it by name
 * like any other engine (nq_engine_find("opencl"), a request's engine).
 * A request's devices name OpenCL devices by their number in the order
 * nq_engine_devices() lists them (the platforms' devices in turn);
 * without a list the engine uses every GPU and accelerator, or, where
 * there is none, every device (a CPU's, under PoCL).  On a machine
 * without a usable device the engine is still listed; a count with it
 * returns NQ_ERR_DEVICE, and the request's why buffer (or the run
 * report's why) gets the words ("CL_PLATFORM_NOT_FOUND_KHR: no OpenCL
 * platform is installed"), as it does when the device program fails to
 * build (the build log's first lines) or a device runs out of memory.
 */
#ifndef NQUEENS_OPENCL_H
#define NQUEENS_OPENCL_H

#include <stdint.h>

#include "nqueens.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Add engine opencl to this process's engine table (again: no effect).
 * NQ_OK, or NQ_ERR_NOMEM if the table is full.  It does not touch
 * OpenCL: that waits for the first count. */
nq_status nq_opencl_register(void);

/* For developers and tests (nqueens-opencl takes them from the
 * environment, NQ_OPENCL_SOURCE and NQ_OPENCL_MEMORY), each for the
 * counts that start after the call, in every thread: call them before
 * counting, not during a count.
 *
 * nq_opencl_set_source: the OpenCL program to build instead of the one
 * built into the library (a whole program: the kernels
 * nq_count_subunits and nq_layout, and the search body they call), or
 * NULL for the built-in one; the text is copied.  NQ_OK, or NQ_ERR_NOMEM.
 *
 * nq_opencl_set_memory_limit: the most bytes of a device's memory the
 * engine may hold at once, below what the device itself has (0: the
 * device's own limits); a batch that needs more fails as a device out
 * of memory does. */
nq_status nq_opencl_set_source(const char *text);
void nq_opencl_set_memory_limit(uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif

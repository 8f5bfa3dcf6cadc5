/*
 * device.h - the few differences between the three languages the GPU
 * search body is compiled as: the host's C (gcc, clang), CUDA (nvcc) and
 * OpenCL C (any vendor's compiler, from OpenCL 1.2 on).
 *
 * The body (bits.h, frontier.h's job, dfs.h, subunits.h's thread
 * function) is written once; what the languages spell differently is
 * here, and only here: where a function may run (NQ_HD), the address
 * spaces of the job and stack pointers (NQ_GLOBAL, NQ_LOCAL), the
 * fixed-width integer types, the bit-scan builtins, and the thread's
 * place in its block.  On the host every macro is empty or plain C, so
 * the CPU tests run the very code the devices run.
 *
 * An OpenCL compiler reads no files: the OpenCL back-end hands it this
 * header and the body's headers one after another, their #include lines
 * dropped (Makefile, OPENCL_PROGRAM), with NQ_MAX_N and
 * NQ_HOST_POINTER_BYTES given as build options.
 */
#ifndef NQ_DEVICE_H
#define NQ_DEVICE_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define NQ_OPENCL_C 1
#endif
/* Compiled for a GPU (or OpenCL's device, which may be a CPU): no libc,
 * no gcc builtins, no inline assembly. */
#if defined(NQ_OPENCL_C) || defined(__CUDA_ARCH__)
#define NQ_DEVICE_CODE 1
#endif

/* Functions that nvcc compiles for both the host and the device (OpenCL
 * C compiles every function for the device alone). */
#ifdef __CUDACC__
#define NQ_HD __host__ __device__
#else
#define NQ_HD
#endif

#ifdef NQ_OPENCL_C
/* OpenCL C has no <stdint.h>; its integer types have fixed widths. */
typedef uchar uint8_t;
typedef uint uint32_t;
typedef ulong uint64_t;
typedef int int32_t;
typedef long int64_t;

/* The jobs and sub-units a launch reads lie in global memory, a
 * thread's stack in the work-group's local memory (CUDA's shared memory,
 * where a generic pointer reaches both). */
#define NQ_GLOBAL __global
#define NQ_LOCAL __local

/* A pointer member of a struct the host fills (nq_frontier.stop), kept
 * only for its size: the device gets the stop flag as a buffer of its
 * own, and the host's pointer may be another size than the device's. */
#if NQ_HOST_POINTER_BYTES == 4
typedef uint nq_host_pointer;
#else
typedef ulong nq_host_pointer;
#endif

/* Bit scans, x != 0 where the caller says so (bits.h).  OpenCL 1.2 has
 * popcount and clz but no ctz: the lowest bit alone, then its index. */
#define NQ_DEVICE_POPCOUNT64(x) ((int)popcount((ulong)(x)))
#define NQ_DEVICE_CTZ64(x) (63 - (int)clz((ulong)(x) & (0 - (ulong)(x))))
#define NQ_DEVICE_TOP64(x) (63 - (int)clz((ulong)(x)))

/* A thread's place: its index in the launch, in its block and the
 * block's size (OpenCL's work-group). */
#define NQ_THREAD_GLOBAL_ID() ((uint64_t)get_global_id(0))
#define NQ_THREAD_LOCAL_ID() ((unsigned)get_local_id(0))
#define NQ_THREAD_BLOCK_SIZE() ((unsigned)get_local_size(0))
#else
#include <stdint.h>

#define NQ_GLOBAL
#define NQ_LOCAL

#ifdef __CUDA_ARCH__
#define NQ_DEVICE_POPCOUNT64(x) __popcll(x)
#define NQ_DEVICE_CTZ64(x) (__ffsll((long long)(x)) - 1)
#define NQ_DEVICE_TOP64(x) (63 - __clzll((long long)(x)))
#endif

/* (nvcc reads a kernel's body in its host pass too.) */
#ifdef __CUDACC__
#define NQ_THREAD_GLOBAL_ID() (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x)
#define NQ_THREAD_LOCAL_ID() ((unsigned)threadIdx.x)
#define NQ_THREAD_BLOCK_SIZE() ((unsigned)blockDim.x)
#endif
#endif

/* Add v to the 32-bit word at p, returning the word before: the one
 * atomic the kernels need, which every OpenCL 1.2 device has on global
 * memory (64-bit ones are an extension there).  On the host a relaxed
 * atomic, so that the host's run of the kernel's loop (subunits.c) is
 * the devices' to the letter. */
#if defined(NQ_OPENCL_C)
#define NQ_DEVICE_FETCH_ADD32(p, v) atomic_add((p), (v))
#elif defined(__CUDA_ARCH__)
#define NQ_DEVICE_FETCH_ADD32(p, v) atomicAdd((unsigned *)(p), (v))
#else
#define NQ_DEVICE_FETCH_ADD32(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#endif

#endif

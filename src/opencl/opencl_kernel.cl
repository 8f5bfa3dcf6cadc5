/*
 * opencl_kernel.cl - the OpenCL program's kernels, OpenCL C 1.2 with no
 * extension.
 *
 * Not compiled alone: the Makefile puts the search body before it
 * (src/core/device.h, src/core/bits.h, src/search/frontier.h,
 * src/search/dfs.h and src/fast/subunits.h, their #include lines dropped:
 * an OpenCL compiler reads no files) and builds the whole into
 * libnqueens-opencl as one string; opencl.c passes NQ_MAX_N and
 * NQ_HOST_POINTER_BYTES as build options.  So each work-item runs the very
 * nq_subunit_worker that cuda.cu's threads and the CPU tests run.
 */

/* The launch's work-items, each running nq_subunit_worker (subunits.h):
 * as many as the device holds at once, each taking sub-units from the
 * launch's counter until none is left, its stack a column of the
 * work-group's local array (dfs.h's layout: word i * group size + its
 * index).  The words (subunits.h, NQ_WORDS) come zeroed. */
__kernel void nq_count_subunits(__global const nq_frontier *jobs,
                                __global const nq_subunit *subs, uint n,
                                uint njobs, volatile __global uint *words,
                                nq_dfs_stop stop, __local uint *stacks)
{
    nq_subunit_worker(jobs, subs, n, njobs, words,
                      stacks + NQ_THREAD_LOCAL_ID(), NQ_THREAD_BLOCK_SIZE(),
                      stop);
}

/* The layout this compiler gives the structs the host fills, for the
 * host to compare with its own before it trusts a count: the job's size
 * and the offsets of its last two fields, and the sub-unit's size. */
__kernel void nq_layout(__global uint *out)
{
    nq_frontier f;
    __private char *base = (__private char *)&f;
    out[0] = (uint)sizeof(nq_frontier);
    out[1] = (uint)((__private char *)&f.weight - base);
    out[2] = (uint)((__private char *)&f.stop - base);
    out[3] = (uint)sizeof(nq_subunit);
}

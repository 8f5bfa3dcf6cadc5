/*
 * opencl_kernel.cl - the OpenCL program's kernels, OpenCL C 1.2 with no
 * extension.
 *
 * Not compiled alone: the Makefile puts the search body before it
 * (src/core/device.h, src/core/bits.h, src/fast/frontier.h,
 * src/fast/dfs.h and src/fast/subunits.h, their #include lines dropped:
 * an OpenCL compiler reads no files) and builds the whole into
 * libnqueens-opencl as one string; opencl.c passes NQ_MAX_N and
 * NQ_HOST_POINTER_BYTES as build options.  So each work-item runs the very
 * nq_subunit_thread that cuda.cu's threads and the CPU tests run.
 */

/* Add v to the 64-bit count at w (low word first) with 32-bit atomics:
 * the low word's add returns its old value, from which its carry into
 * the high word follows.  The words are read only after the kernel, so
 * the adds need not be one.  64-bit atomics (cl_khr_int64_base_atomics)
 * are optional in OpenCL 1.2, and a work-item adds here once, at the end
 * of a search of 10^4 to 10^9 placements: what a reduction in local
 * memory would save is not worth a barrier every work-item, those past
 * the batch's end included, must reach. */
static void nq_add64(volatile __global uint *w, ulong v)
{
    uint lo = (uint)v, hi = (uint)(v >> 32);
    uint old = atomic_add(&w[0], lo);
    hi += (uint)(old + lo < old);
    if (hi)
        atomic_add(&w[1], hi);
}

/* One work-item per sub-unit, its stack a column of the work-group's
 * local array (dfs.h's layout: word i * group size + its index).  The
 * counts, in 32-bit words: per job its count (two words), then per job
 * its finished sub-units (those whose search ended before the stop flag
 * was seen, as cuda.cu judges them), then the placements of all (two
 * words).  A work-item that starts after a stop searches nothing: most
 * sub-units end before the search's first look at the flag (dfs.h,
 * NQ_DFS_POLL), and a device that runs a launch's work-items a few at a
 * time (a CPU's) would otherwise run the rest of the launch. */
__kernel void nq_count_subunits(__global const nq_frontier *jobs,
                                __global const nq_subunit *subs, ulong n,
                                uint njobs, volatile __global uint *counts,
                                nq_dfs_stop stop, __local uint *stacks)
{
    ulong i = NQ_THREAD_GLOBAL_ID(), count, placed = 0;
    if (i >= n || nq_dfs_stop_seen(stop))
        return;
    uint job = nq_subunit_thread(jobs, subs, i, stacks + NQ_THREAD_LOCAL_ID(),
                                 NQ_THREAD_BLOCK_SIZE(), stop, &count,
                                 &placed);
    nq_add64(counts + 2 * (size_t)job, count);
    if (!nq_dfs_stop_seen(stop))
        atomic_inc(counts + 2 * (size_t)njobs + job);
    nq_add64(counts + 3 * (size_t)njobs, placed);
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

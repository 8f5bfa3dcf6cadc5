/*
 * count_opencl.c - count one board on OpenCL devices with
 * libnqueens-opencl (installed where `make opencl` built it).
 *
 *     cc examples/count_opencl.c $(pkg-config --cflags --libs nqueens-opencl) -o count_opencl
 *     ./count_opencl 12        prints "12 14200 1787": N, total, unique
 *     ./count_opencl 12 0,1    ... on OpenCL devices 0 and 1 only
 *
 * The engine joins the library's table with nq_opencl_register(); then it
 * is an engine like the others, by name.  On a machine without a usable
 * OpenCL device it says so (exit 1) with the back-end's words, which come
 * back in the request's why buffer, e.g. "count_opencl: no usable GPU, or
 * the GPU failed (CL_PLATFORM_NOT_FOUND_KHR: no OpenCL platform is
 * installed)".
 */
#include <stdio.h>
#include <stdlib.h>

#include <nqueens_opencl.h>

int main(int argc, char **argv)
{
    nq_request req = NQ_REQUEST_INIT;
    nq_counts c;
    char why[256], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    req.n = argc > 1 ? atoi(argv[1]) : 12;
    req.engine = "opencl";
    req.devices = argc > 2 ? argv[2] : NULL; /* NULL: the default devices */
    req.why = why, req.why_size = sizeof why;
    why[0] = '\0';
    nq_status st = nq_opencl_register();
    if (st == NQ_OK)
        st = nq_count_solutions(&req, &c);
    if (st != NQ_OK) {
        fprintf(stderr, why[0] ? "count_opencl: %s (%s)\n"
                               : "count_opencl: %s\n", nq_strerror(st), why);
        return 1;
    }
    printf("%d %s %s\n", req.n, nq_format_u128(c.total, total),
           nq_format_u128(c.unique, unique));
    return 0;
}

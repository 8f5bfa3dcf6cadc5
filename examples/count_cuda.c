/*
 * count_cuda.c - count one board on the GPUs with libnqueens-cuda
 * (installed where `make cuda` built it).
 *
 *     cc examples/count_cuda.c $(pkg-config --cflags --libs nqueens-cuda) -o count_cuda
 *     ./count_cuda 12        prints "12 14200 1787": N, total, unique
 *     ./count_cuda 12 0,1    ... on GPUs 0 and 1 only
 *
 * The engine joins the library's table with nq_cuda_register(); then it
 * is an engine like the others, by name.  On a machine without a usable
 * GPU it says so (exit 1) with the CUDA runtime's words, which come back
 * in the request's why buffer, e.g. "count_cuda: no usable GPU, or the
 * GPU failed (cudaErrorNoDevice: no CUDA-capable device is detected)".
 */
#include <stdio.h>
#include <stdlib.h>

#include <nqueens_cuda.h>

int main(int argc, char **argv)
{
    nq_request req = NQ_REQUEST_INIT;
    nq_counts c;
    char why[256], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    req.n = argc > 1 ? atoi(argv[1]) : 12;
    req.engine = "cuda";
    req.devices = argc > 2 ? argv[2] : NULL; /* NULL: every visible GPU */
    req.why = why, req.why_size = sizeof why;
    why[0] = '\0';
    nq_status st = nq_cuda_register();
    if (st == NQ_OK)
        st = nq_count_solutions(&req, &c);
    if (st != NQ_OK) {
        fprintf(stderr, why[0] ? "count_cuda: %s (%s)\n" : "count_cuda: %s\n",
                nq_strerror(st), why);
        return 1;
    }
    printf("%d %s %s\n", req.n, nq_format_u128(c.total, total),
           nq_format_u128(c.unique, unique));
    return 0;
}

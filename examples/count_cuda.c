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
 * GPU it says so (exit 1) with the CUDA runtime's words, e.g.
 * "count_cuda: no usable GPU, or the GPU failed (cudaErrorNoDevice: no
 * CUDA-capable device is detected)".
 */
#include <stdio.h>
#include <stdlib.h>

#define NQ_ADVANCED_API /* nq_request_ext: the GPUs of this count */
#include <nqueens_cuda.h>

int main(int argc, char **argv)
{
    nq_request_ext x = {.base = {.n = argc > 1 ? atoi(argv[1]) : 12,
                                 .engine = "cuda"},
                        .devices = argc > 2 ? argv[2] : NULL};
    nq_counts c;
    char words[256], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    nq_status st = nq_cuda_register();
    if (st == NQ_OK)
        st = nq_count_solutions_ext(&x, &c);
    if (st != NQ_OK) {
        const char *device = nq_device_error(words, sizeof words);
        fprintf(stderr, device ? "count_cuda: %s (%s)\n" : "count_cuda: %s\n",
                nq_strerror(st), device);
        return 1;
    }
    printf("%d %s %s\n", x.base.n, nq_format_u128(c.total, total),
           nq_format_u128(c.unique, unique));
    return 0;
}

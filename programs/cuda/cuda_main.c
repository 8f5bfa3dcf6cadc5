/*
 * cuda_main.c - nqueens-cuda: the nqueens command line with the CUDA
 * back-end's engine added to the library's table (libnqueens-cuda).  Built
 * by `make cuda` only.
 */
#include "../cli.h"
#include "nqueens_cuda.h"

int main(int argc, char **argv)
{
    nq_status st = nq_cuda_register();
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "cannot add engine cuda: %s",
                         nq_strerror(st));
    return cli_main(argc, argv);
}

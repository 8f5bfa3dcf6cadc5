/*
 * nqueens_main.c - nqueens: the command line with the library's own
 * engines.  (nqueens-cuda's main, programs/cuda/cuda_main.c, adds the CUDA
 * back-end's first, nqueens-opencl's, programs/opencl/opencl_main.c, the
 * OpenCL back-end's; nqueens-mpi's is programs/mpi/mpi_main.c.)
 */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}

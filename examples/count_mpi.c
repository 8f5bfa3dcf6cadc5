/*
 * count_mpi.c - count one board over the ranks of an MPI job with
 * libnqueens-mpi (installed where `make mpi` built it).
 *
 *     mpicc examples/count_mpi.c $(pkg-config --cflags --static --libs nqueens-mpi) -o count_mpi
 *     mpirun -np 3 ./count_mpi 14     rank 0 prints "14 365596 45752"
 *     ./count_mpi 8                    one process (an MPI singleton): "8 92 12"
 *
 * Rank 0 hands the units out and, with more than one rank, only
 * coordinates; every rank must call with the same request.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <unistd.h>
#include <nqueens_mpi.h>

int main(int argc, char **argv)
{
    int provided, is_root = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    nq_request req = NQ_REQUEST_INIT;
    /* no journal: a plain count */
    nq_resume_options opt = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    req.n = argc > 1 ? atoi(argv[1]) : 12;
    nq_status st = provided >= MPI_THREAD_FUNNELED
                       ? nq_mpi_count_resumable(&req, &opt, NULL, &r, &is_root)
                       : NQ_ERR_ARG;
    if (is_root && st == NQ_OK) {
        char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
        printf("%d %s %s\n", req.n, nq_format_u128(r.counts.total, total),
               nq_format_u128(r.counts.unique, unique));
    } else if (is_root || st != NQ_OK) {
        fprintf(stderr, r.why[0] ? "count_mpi: %s (%s)\n" : "count_mpi: %s\n",
                nq_strerror(st), r.why);
    }
    /* a rank lost: MPI_Finalize would wait for it forever.  Rank 0 (the
     * report says so whatever the status: r.lost) ends the job; a worker
     * that lost rank 0 just exits. */
    if (is_root && (st == NQ_ERR_LOST || r.lost > 0))
        MPI_Abort(MPI_COMM_WORLD, st == NQ_OK ? 3 : 1);
    if (!is_root && st == NQ_ERR_LOST)
        _exit(1);
    MPI_Finalize();
    return st == NQ_OK ? 0 : 1;
}

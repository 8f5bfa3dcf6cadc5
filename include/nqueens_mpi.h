/*
 * nqueens_mpi.h - a long count spread over an MPI job (libnqueens built
 * with `make mpi`; link with MPI).
 *
 * The same count as nq_count_resumable, its units handed out by rank 0 to
 * the other ranks, which count them on all their cores; rank 0 keeps the
 * journal (the same format, so a threaded run and an MPI run resume each
 * other).  The library never aborts the job: every rank returns.
 */
#ifndef NQUEENS_MPI_H
#define NQUEENS_MPI_H

#include "nqueens.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Call on every rank with the same arguments, after MPI_Init_thread with
 * at least MPI_THREAD_FUNNELED (threads count, one thread calls MPI).
 * *is_root is set on rank 0, whose report is the job's: its failed_rank
 * names a rank that failed (or whose plan differs, another build or other
 * arguments) and its why says what happened.  The stop flag is read on
 * rank 0: a stop there stops every rank's units.  The library sets no
 * signal handler and leaves CPU affinity alone: a program whose worker
 * ranks must survive the SIGINT or SIGTERM mpirun forwards should ignore
 * them there (rank 0 stops the workers cleanly), and one that wants a
 * single rank per machine to use all its cores should widen the affinity
 * mpirun gave it, as nqueens-mpi does.  The request (its kernel and GPUs
 * included), the options and the report follow nqueens.h's size rule. */
nq_status nq_mpi_count_resumable(const nq_request *req,
                                 const nq_resume_options *o,
                                 nq_run_report *report, int *is_root);

#ifdef __cplusplus
}
#endif
#endif

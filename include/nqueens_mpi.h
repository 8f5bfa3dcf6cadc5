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

/* What a job does about ranks that stop answering (a machine lost, its
 * network cut, a process killed).  Each worker speaks to rank 0 at least
 * every second, even inside an hours-long unit, and rank 0 answers; so
 * silence, not a unit's cost, is what is timed.  A worker silent for
 * worker_timeout seconds is lost: rank 0 calls on_lost (on rank 0, from
 * the calling thread), takes back its units not yet reported and hands
 * them to the others, and no longer waits for it.  A worker whose rank 0
 * is silent as long gives up (NQ_ERR_LOST): its units are redone on
 * resume.  The size follows nqueens.h's size rule; NULL: the defaults. */
typedef struct {
    size_t size;
    double worker_timeout;      /* seconds, at least 1; 0:
                                   NQ_MPI_TIMEOUT_DEFAULT */
    void (*on_lost)(void *ctx, int rank, const char *host, double silent,
                    uint64_t units_back);
    void *ctx;
    /* Optional (a struct may end before it): rank 0 asked a worker for
     * units it had not started, for another with nothing left to do, and
     * it gave `units` back (0: it had started them all).  On rank 0, from
     * the calling thread; NULL: not told. */
    void (*on_take_back)(void *ctx, int rank, uint64_t units);
    /* Optional: at the end of each run on rank 0, once per worker rank,
     * the units it counted and reported (a lost rank's count includes
     * what it reported before it was lost). */
    void (*on_rank_units)(void *ctx, int rank, uint64_t units);
} nq_mpi_options;
#define NQ_MPI_OPTIONS_INIT { sizeof(nq_mpi_options), 0, 0, 0, 0, 0 }
#define NQ_MPI_TIMEOUT_DEFAULT 30.0

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
 * included), the options and the report follow nqueens.h's size rule.
 *
 * After a lost rank (on rank 0: on_lost called, and the report's lost
 * above 0 and failed_rank naming the first, whatever the status: a
 * count finished, stopped or failed) the job cannot end with
 * MPI_Finalize, which
 * waits for every rank: rank 0 ends it with MPI_Abort once it has said
 * what it must (nqueens-mpi uses errorcode 3 when the count is complete),
 * and a worker that returns NQ_ERR_LOST (it lost rank 0) exits without
 * MPI_Finalize.  Every other worker returns as usual, a lost one that
 * came back included, and waits in MPI_Finalize for rank 0's abort.  The
 * deadlines hold while units are counted, not during MPI_Init and the
 * ranks' first agreement on the plan, which OpenMPI itself runs. */
nq_status nq_mpi_count_resumable(const nq_request *req,
                                 const nq_resume_options *o,
                                 const nq_mpi_options *mo,
                                 nq_run_report *report, int *is_root);

#ifdef NQ_ADVANCED_API
/* nq_journal_verify over the job: call on every rank, after
 * MPI_Init_thread as above, with the same options (workers use threads
 * and ignore the rest; only rank 0 reads paths, which may be NULL
 * elsewhere).  Rank 0 reads the journals and chooses the units exactly as
 * nq_journal_verify does (o->seed, part, parts, estimate_only and
 * verdict included: a part of a check in parts can itself run over a
 * job), and the chosen units are recounted by the ranks as a count's
 * units are, largest estimate first, the report's numbers the same.  On
 * rank 0 (*is_root) the status and header, report and why are the
 * check's; a worker returns NQ_OK when rank 0 is done with it, or
 * NQ_ERR_LOST when it lost rank 0 (then exit without MPI_Finalize).
 * *lost: on rank 0, the worker ranks lost during the recount (their
 * units recounted by the others); above 0, end the job with MPI_Abort as
 * after nq_mpi_count_resumable. */
nq_status nq_mpi_journal_verify(const char *const *paths, int count,
                                const nq_verify_options *o,
                                const nq_mpi_options *mo,
                                nq_journal_header *header,
                                nq_verify_report *r, int *lost, char *why,
                                size_t why_size, int *is_root);
#endif

#ifdef __cplusplus
}
#endif
#endif

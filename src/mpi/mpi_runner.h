/*
 * mpi_runner.h - a count spread over an MPI job (see mpi_runner.c).
 */
#ifndef NQ_MPI_RUNNER_H
#define NQ_MPI_RUNNER_H

#include "nqueens_mpi.h"

typedef struct {
    int rank;          /* the first rank that failed (or was lost), or -1 */
    nq_status status;  /* why (NQ_ERR_NOMEM, NQ_ERR_THREAD, NQ_ERR_MISMATCH,
                          NQ_ERR_LOST, ...); NQ_OK: a rank was lost but the
                          others counted its units */
    char host[64];     /* the machine of that rank, as MPI names it */
    int lost;          /* workers lost on the way, whatever the status */
} nq_mpi_failure;

/* Run a plan's units over MPI_COMM_WORLD (after MPI_Init_thread with at
 * least MPI_THREAD_FUNNELED).  Every rank calls it with the same plan;
 * rank 0 (*is_root) gets the tallies through o->on_unit and *sum, and uses
 * done, max_units and stop; workers run on o->threads threads.  Never
 * aborts or exits: every rank returns, with NQ_OK, NQ_ERR_STOPPED (stop
 * flag or budget), or the failure, which *failure names on rank 0 (and on
 * the failing rank itself).  Ranks that stop answering are handled as
 * mo says (nqueens_mpi.h; mo's timeout resolved, not 0).  journal: rank
 * 0's (NULL: none, or another rank), where each unit a worker reports is
 * recorded under that worker's own run (its host, pid, rank: every rank
 * sends rank 0 its run at the start), in place of o->on_unit, which
 * would record it under rank 0's; a unit rank 0 counts itself (a job of
 * one rank) goes to o->on_unit. */
struct nq_journal;
nq_status nq_mpi_run(const nq_plan *plan, const nq_run_options *o,
                     const nq_mpi_options *mo, struct nq_journal *journal,
                     nq_tally *sum, int *is_root, nq_mpi_failure *failure);

/* The job's options by the size rule (NULL: the defaults), the deadline
 * resolved: 0 is the default; one under a second (a worker pings once a
 * second) or not a number is NQ_ERR_ARG. */
nq_status nq_mpi_read_options(const nq_mpi_options *given,
                              nq_mpi_options *mo);

#endif

/*
 * nq_mpi.h - a count spread over an MPI job (see mpi.c).
 */
#ifndef NQ_MPI_H
#define NQ_MPI_H

#include "nqueens.h"

/* Run a plan's units over MPI_COMM_WORLD (after MPI_Init).  Every rank
 * calls it with the same plan; rank 0 (*is_root) gets the tallies through
 * o->on_unit and *sum, and uses done, max_units and stop; workers run on
 * o->threads threads.  Returns once every rank is done with this count. */
nq_status nq_mpi_run(const nq_plan *plan, const nq_run_options *o,
                     nq_tally *sum, int *is_root);

#endif

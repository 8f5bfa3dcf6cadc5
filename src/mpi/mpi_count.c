/*
 * mpi_count.c - the long count over an MPI job: the one long-count path
 * (resumable.c) with the ranks of MPI_COMM_WORLD as its runner.  Built by
 * `make mpi` only.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

#include "mpi_runner.h"
#include "../run/run.h"
#include "nqueens_mpi.h"

/* Every rank learns whether all of them are fine, and if not, which one
 * failed first: a rank that could not make its plan, or rank 0 that could
 * not open the journal, ends the count on every rank at once instead of
 * leaving the others waiting. */
static int all_agree(void *ctx, int ok)
{
    int rank, mine, lowest = INT_MAX;
    (void)ctx;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = ok ? INT_MAX : rank;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return lowest == INT_MAX ? -1 : lowest;
}

static nq_status run_ranks(void *ctx, const nq_plan *p,
                           const nq_run_options *o, nq_tally *sum,
                           nq_run_report *r)
{
    nq_mpi_failure f = {.rank = -1};
    int is_root;
    (void)ctx;
    nq_status st = nq_mpi_run(p, o, sum, &is_root, &f);
    if (st == NQ_OK || f.rank < 0)
        return st;
    r->failed_rank = f.rank;
    snprintf(r->why, sizeof r->why, "%s", f.status == NQ_ERR_MISMATCH
             ? "its plan differs from rank 0's (another count, engine or "
               "build)" : nq_strerror(f.status));
    return st;
}

/* Every rank reads the request by the size rule, the same way
 * (nq_count_with): each returns the same refusal. */
nq_status nq_mpi_count_resumable(const nq_request *req,
                                 const nq_resume_options *o,
                                 nq_run_report *report, int *is_root)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nq_runner rn = {.root = rank == 0, .agree = all_agree, .run = run_ranks,
                    .workers = size};
    *is_root = rank == 0;
    return nq_count_with(req, o, &rn, report);
}

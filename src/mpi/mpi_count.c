/*
 * mpi_count.c - the long count over an MPI job: the one long-count path
 * (resumable.c) with the ranks of MPI_COMM_WORLD as its runner.  Built by
 * `make mpi` only.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

#include "mpi_runner.h"
#include "../core/core.h"
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

/* Rank 0's value to every rank (the bound of a resumed journal's pieces,
 * which rank 0 alone reads). */
static void share_root(void *ctx, double *v)
{
    (void)ctx;
    MPI_Bcast(v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* What rank 0 says of a failed or lost rank, in the report's why. */
static void say_failure(const nq_mpi_failure *f, nq_status st,
                        nq_run_report *r)
{
    const char *on = f->host[0] ? " on " : "";
    if (f->status == NQ_ERR_MISMATCH)
        snprintf(r->why, sizeof r->why, "its plan differs from rank 0's "
                 "(another count, engine or build)");
    else if (f->status == NQ_ERR_LOST && st == NQ_ERR_LOST)
        snprintf(r->why, sizeof r->why, "every worker rank stopped "
                 "answering, the first rank %d%s%s; what they reported is "
                 "recorded", f->rank, on, f->host);
    else if (f->status == NQ_OK)
        snprintf(r->why, sizeof r->why, "rank %d%s%s stopped answering; the "
                 "other ranks counted its units", f->rank, on, f->host);
    else
        snprintf(r->why, sizeof r->why, "%s", nq_strerror(f->status));
}

/* Rank 0 records each worker's units under the worker's own run
 * (journal), so that verify can name a bad rank. */
static nq_status run_ranks(void *ctx, const nq_plan *p,
                           const nq_run_options *o, struct nq_journal *journal,
                           nq_tally *sum, nq_run_report *r)
{
    nq_mpi_failure f = {.rank = -1};
    int is_root;
    nq_status st = nq_mpi_run(p, o, ctx, journal, sum, &is_root, &f);
    r->lost = f.lost;
    if (f.rank < 0)
        return st;
    r->failed_rank = f.rank;
    if (st != NQ_ERR_STOPPED) /* a stop is said as a stop; lost says it */
        say_failure(&f, st, r);
    return st;
}

/* Every rank reads the request by the size rule, the same way
 * (nq_count_with): each returns the same refusal. */
nq_status nq_mpi_count_resumable(const nq_request *req,
                                 const nq_resume_options *o,
                                 const nq_mpi_options *given,
                                 nq_run_report *report, int *is_root)
{
    int rank = 0, size = 1;
    nq_mpi_options mo;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *is_root = rank == 0;
    nq_status st = nq_mpi_read_options(given, &mo);
    if (st != NQ_OK)
        return st;
    nq_runner rn = {.root = rank == 0, .agree = all_agree, .run = run_ranks,
                    .workers = size, .ctx = &mo, .share = share_root};
    return nq_count_with(req, o, &rn, report);
}

/*
 * mpi_verify.c - checking journals over an MPI job: rank 0 reads the
 * journals and chooses the units to recount exactly as nq_journal_verify
 * does (run_verify.c); the recount is spread over the ranks by the count's
 * own runner (mpi_runner.c: largest estimate first, tails taken back, lost
 * ranks' units handed on), so a record's check takes its recount's work
 * over the job's cores, not over one machine's.  Built by `make mpi` only.
 *
 * The workers read no journal.  Before each recount rank 0 sends every
 * worker the plan to make (its engine, N and the bound its units were cut
 * by: a GO message), and at the end an END, whatever happened: a journal
 * refused, an estimate only, nothing chosen.  A worker waits for these
 * without a deadline (rank 0 may read journals for minutes) and without
 * spinning (a worker often shares rank 0's machine); the count's
 * deadlines hold while units are counted.  Every worker then agrees on
 * the plan with rank 0 (nq_mpi_run compares them), so a worker built
 * otherwise is named, not trusted.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../core/core.h"
#include "../engines/engine.h"
#include "../run/run.h"
#include "mpi_runner.h"

#define TAG_PLAN 41              /* rank 0 to a worker: GO or END */
enum { END, GO };
#define ENGINE_WORDS 4           /* an engine's name, 32 bytes at most */
#define PLAN_WORDS (3 + ENGINE_WORDS)

/* What rank 0 says to each worker: [GO or END, N, the bound's bits,
 * the engine's name]. */
typedef struct {
    uint64_t w[PLAN_WORDS];
} plan_message;

typedef struct {
    const nq_mpi_options *mo;
    const nq_verify_options *o;
    int runs, lost;              /* recounts run; a rank lost in one */
} verify_job;

static plan_message describe(const nq_plan *p)
{
    plan_message m = {{GO, (uint64_t)p->n}};
    double bound = nq_split_max_unit_seconds(nq_plan_split(p));
    memcpy(&m.w[2], &bound, sizeof bound);
    snprintf((char *)&m.w[3], ENGINE_WORDS * sizeof(uint64_t), "%s",
             p->engine->name);
    return m;
}

/* Rank 0's word to every worker (they are all listening: END follows a
 * job with no rank lost, each GO one whose ranks all answered). */
static void tell_workers(const plan_message *m)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int w = 1; w < size; w++)
        MPI_Send(m->w, PLAN_WORDS, MPI_UINT64_T, w, TAG_PLAN, MPI_COMM_WORLD);
}

/* Every rank learns whether all made the plan: the lowest that did not,
 * or -1. */
static int first_unplanned(int ok)
{
    int rank, mine, lowest;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = ok ? INT_MAX : rank;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return lowest == INT_MAX ? -1 : lowest;
}

/* The recount's runner on rank 0: the plan said, every rank's plan made,
 * then the count's runner over the chosen ids.  After a rank was lost no
 * other recount starts (the lost rank would never answer). */
static nq_status run_ranks(void *ctx, const nq_plan *p,
                           const nq_run_options *o, struct nq_journal *journal,
                           nq_tally *sum, nq_run_report *r)
{
    verify_job *j = ctx;
    nq_mpi_failure f = {.rank = -1};
    int is_root, bad;
    if (j->lost)
        return NQ_ERR_LOST;
    plan_message m = describe(p);
    tell_workers(&m);
    j->runs++;
    if ((bad = first_unplanned(1)) >= 0) {
        snprintf(r->why, sizeof r->why, "rank %d could not make the "
                 "journals' plan (%s N=%d)", bad, p->engine->name, p->n);
        return NQ_ERR_MISMATCH;
    }
    nq_status st = nq_mpi_run(p, o, j->mo, journal, sum, &is_root, &f);
    j->lost = f.lost;
    if (f.rank >= 0 && f.status != NQ_OK)
        snprintf(r->why, sizeof r->why, "rank %d%s%s: %s", f.rank,
                 f.host[0] ? " on " : "", f.host,
                 f.status == NQ_ERR_MISMATCH ? "its plan differs from rank "
                 "0's (another build)" : nq_strerror(f.status));
    return st;
}

/* A worker's wait for rank 0's next word, polled with short sleeps. */
static void wait_word(plan_message *m)
{
    int ready = 0;
    struct timespec ts = {0, 2000000};
    for (;;) {
        MPI_Iprobe(0, TAG_PLAN, MPI_COMM_WORLD, &ready, MPI_STATUS_IGNORE);
        if (ready)
            break;
        nanosleep(&ts, NULL);
    }
    MPI_Recv(m->w, PLAN_WORDS, MPI_UINT64_T, 0, TAG_PLAN, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

/* The plan rank 0 described, made here (NULL if not). */
static nq_plan *plan_of(const plan_message *m, const nq_verify_options *o)
{
    char name[ENGINE_WORDS * sizeof(uint64_t)];
    memcpy(name, &m->w[3], sizeof name);
    name[sizeof name - 1] = '\0';
    nq_request req = {.size = sizeof req, .n = (int)m->w[1],
                      .threads = o->threads, .stop = o->stop};
    memcpy(&req.max_unit_seconds, &m->w[2], sizeof req.max_unit_seconds);
    const nq_engine *e = nq_engine_find(name);
    nq_plan *p = NULL;
    if (!e || nq_plan_new(e, &req, &p) != NQ_OK)
        return NULL;
    return p;
}

/* A worker: a recount for each GO, until END. */
static nq_status serve(const nq_verify_options *o, const nq_mpi_options *mo)
{
    for (;;) {
        plan_message m;
        wait_word(&m);
        if (m.w[0] != GO)
            return NQ_OK;
        nq_plan *p = plan_of(&m, o);
        if (first_unplanned(p != NULL) >= 0) {
            nq_plan_free(p);
            continue; /* rank 0 fails the check and says END */
        }
        nq_run_options ro = {.threads = o->threads};
        nq_tally sum = {0};
        int is_root;
        nq_status st = nq_mpi_run(p, &ro, mo, NULL, &sum, &is_root, NULL);
        nq_plan_free(p);
        if (st == NQ_ERR_LOST)
            return st; /* rank 0 is gone: nothing more will come */
    }
}

nq_status nq_mpi_journal_verify(const char *const *paths, int count,
                                const nq_verify_options *o,
                                const nq_mpi_options *given,
                                nq_journal_header *header,
                                nq_verify_report *r, int *lost, char *why,
                                size_t wsize, int *is_root)
{
    int rank;
    nq_mpi_options mo;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *is_root = rank == 0;
    *lost = 0;
    nq_status st = nq_mpi_read_options(given, &mo);
    if (st != NQ_OK || !o)
        return st != NQ_OK ? st : NQ_ERR_ARG;
    if (rank != 0)
        return serve(o, &mo);
    verify_job j = {&mo, o, 0, 0};
    nq_runner rn = {.root = 1, .run = run_ranks, .ctx = &j};
    nq_verified v = {header, r, NULL, NULL, NULL};
    st = nq_verify_with(paths, count, o, &rn, &v, why, wsize);
    if (!j.lost) {
        plan_message end = {{END}};
        tell_workers(&end);
    }
    *lost = j.lost;
    return st;
}

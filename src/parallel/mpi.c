/*
 * mpi.c - a count spread over an MPI job (built by `make mpi` only).
 *
 * Every rank makes the same plan (it is deterministic; rank 0 checks the
 * hashes agree).  Rank 0 hands out batches of unit ids, one batch per
 * worker at a time, and a new one as each comes back, so fast workers get
 * more; batches shrink as the work runs out, to finish together.  Workers
 * run each batch on all their cores (the thread pool) and send back one
 * tally per unit.  Rank 0 passes each unit's tally to the caller as it
 * arrives (the journal records it), exactly as the threaded runner does,
 * so journals, resumes and merges are the same with or without MPI.
 *
 * Stopping (a signal at rank 0, or a unit budget): rank 0 hands out no
 * more, collects the batches out, and tells every worker to end.  Workers
 * ignore SIGINT and SIGTERM so that mpirun forwarding them does not kill
 * a batch half done.
 */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "nq_mpi.h"

enum { TAG_WORK = 1, TAG_RESULT = 2 };

/* A unit's result on the wire: id, then each 128-bit field as two words. */
#define WORDS 11

static void pack(uint64_t unit, const nq_tally *t, uint64_t *w)
{
    const nq_u128 *f[5] = {&t->total, &t->unique, &t->fixed180, &t->fixed90,
                           &t->nodes};
    w[0] = unit;
    for (int i = 0; i < 5; i++) {
        w[1 + 2 * i] = (uint64_t)*f[i];
        w[2 + 2 * i] = (uint64_t)(*f[i] >> 64);
    }
}

static void unpack(const uint64_t *w, uint64_t *unit, nq_tally *t)
{
    nq_u128 *f[5] = {&t->total, &t->unique, &t->fixed180, &t->fixed90,
                     &t->nodes};
    *unit = w[0];
    for (int i = 0; i < 5; i++)
        *f[i] = (nq_u128)w[1 + 2 * i] | (nq_u128)w[2 + 2 * i] << 64;
}

/* ---- workers ---- */

typedef struct {
    uint64_t *words;
    uint64_t count;
} batch_out;

static nq_status keep_result(void *ctx, uint64_t unit, const nq_tally *t)
{
    batch_out *b = ctx;
    pack(unit, t, b->words + WORDS * b->count++);
    return NQ_OK;
}

static int worker(const nq_plan *plan, int threads)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    for (;;) {
        MPI_Status ms;
        int count;
        MPI_Probe(0, TAG_WORK, MPI_COMM_WORLD, &ms);
        MPI_Get_count(&ms, MPI_UINT64_T, &count);
        uint64_t *ids = malloc(((size_t)count + 1) * sizeof *ids);
        batch_out out = {malloc(((size_t)count + 1) * WORDS * sizeof(uint64_t)), 0};
        if (!ids || !out.words)
            MPI_Abort(MPI_COMM_WORLD, 1);
        MPI_Recv(ids, count, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &ms);
        if (count == 0) { /* no more work */
            free(ids);
            free(out.words);
            return 0;
        }
        nq_run_options o = {.threads = threads, .ids = ids,
                            .count = (uint64_t)count, .on_unit = keep_result,
                            .ctx = &out};
        nq_tally sum = {0};
        if (nq_plan_run(plan, &o, &sum) != NQ_OK)
            MPI_Abort(MPI_COMM_WORLD, 1);
        MPI_Send(out.words, (int)(out.count * WORDS), MPI_UINT64_T, 0,
                 TAG_RESULT, MPI_COMM_WORLD);
        free(ids);
        free(out.words);
    }
}

/* ---- rank 0 ---- */

typedef struct {
    const nq_plan *plan;
    const nq_run_options *o;
    uint64_t *todo, left, next; /* units to hand out, from next on */
    uint64_t handed, budget;    /* units handed out; limit (0: none) */
    int workers, failed;
} dispatcher;

static int stopping(const dispatcher *d)
{
    return d->failed || (d->o->stop && *d->o->stop) ||
           (d->budget && d->handed >= d->budget);
}

/* Send `worker` its next batch (empty: stop); 1 if it got work. */
static int hand_out(dispatcher *d, int worker)
{
    uint64_t rest = d->left - d->next, size = 0;
    if (!stopping(d) && rest) {
        size = rest / ((uint64_t)d->workers * 8) + 1;
        size = size > 64 ? 64 : size;
        if (d->budget && size > d->budget - d->handed)
            size = d->budget - d->handed;
    }
    MPI_Send(d->todo + d->next, (int)size, MPI_UINT64_T, worker, TAG_WORK,
             MPI_COMM_WORLD);
    d->next += size, d->handed += size;
    return size > 0;
}

/* Receive one batch's results and pass them on; the sender's rank. */
static int collect(dispatcher *d, nq_tally *sum, nq_status *st)
{
    MPI_Status ms;
    int count;
    MPI_Probe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ms);
    MPI_Get_count(&ms, MPI_UINT64_T, &count);
    uint64_t *w = malloc(((size_t)count + 1) * sizeof *w);
    if (!w)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Recv(w, count, MPI_UINT64_T, ms.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
             &ms);
    for (int i = 0; i + WORDS <= count; i += WORDS) {
        uint64_t unit;
        nq_tally t;
        unpack(w + i, &unit, &t);
        nq_status s = nq_tally_add(sum, &t);
        if (s == NQ_OK && d->o->on_unit)
            s = d->o->on_unit(d->o->ctx, unit, &t);
        if (s != NQ_OK && *st == NQ_OK)
            *st = s;
    }
    free(w);
    return ms.MPI_SOURCE;
}

static nq_status dispatch(dispatcher *d, nq_tally *sum)
{
    nq_status st = NQ_OK;
    int busy = 0;
    for (int w = 1; w <= d->workers; w++)
        busy += hand_out(d, w);
    while (busy > 0) {
        int from = collect(d, sum, &st);
        busy--;
        d->failed = st != NQ_OK;
        busy += hand_out(d, from);
    }
    if (st == NQ_OK && d->next < d->left)
        st = NQ_ERR_STOPPED;
    return st;
}

/* The units left (not in o->done), in plan order. */
static nq_status units_left(dispatcher *d)
{
    uint64_t units = nq_plan_units(d->plan);
    d->todo = malloc((units ? units : 1) * sizeof *d->todo);
    if (!d->todo)
        return NQ_ERR_NOMEM;
    for (uint64_t u = 0; u < units; u++)
        if (!(d->o->done && (d->o->done[u / 8] >> (u % 8) & 1)))
            d->todo[d->left++] = u;
    return NQ_OK;
}

nq_status nq_mpi_run(const nq_plan *plan, const nq_run_options *o,
                     nq_tally *sum, int *is_root)
{
    int rank, size;
    uint64_t hash = nq_plan_hash(plan), root_hash = hash;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast(&root_hash, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    *is_root = rank == 0;
    if (root_hash != hash) /* ranks running different builds */
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank != 0)
        return worker(plan, o->threads) ? NQ_ERR_INTERNAL : NQ_OK;
    if (size == 1) /* no workers: run here */
        return nq_plan_run(plan, o, sum);
    dispatcher d = {.plan = plan, .o = o, .budget = o->max_units,
                    .workers = size - 1};
    nq_status st = units_left(&d);
    if (st == NQ_OK)
        st = dispatch(&d, sum);
    else
        for (int w = 1; w < size; w++) /* release the workers */
            MPI_Send(NULL, 0, MPI_UINT64_T, w, TAG_WORK, MPI_COMM_WORLD);
    free(d.todo);
    return st;
}

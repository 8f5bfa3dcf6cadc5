/*
 * mpi.c - a count spread over an MPI job (built by `make mpi` only).
 *
 * Every rank makes the same plan (it is deterministic; rank 0 checks the
 * hashes agree).  Rank 0 coordinates: it answers each worker's request for
 * work with a batch of unit ids (smaller as the work runs out, so that all
 * finish together), receives the finished units' tallies and passes them
 * to the caller one by one (the journal records them), exactly as the
 * threaded runner does; journals, resumes and merges are the same with or
 * without MPI.
 *
 * A worker streams: its threads take units from a local queue and put
 * their tallies in an outbox; its main thread alone talks MPI, sending
 * what the outbox holds and asking for more before the queue runs dry.  So
 * no thread waits for a batch's slowest unit or for a round trip to rank
 * 0, and each thread keeps its buffers for the whole run.
 *
 * Stopping (a signal at rank 0, or a unit budget): rank 0 answers requests
 * with empty batches; workers finish what they hold, report it and end.
 * On a signal rank 0 also sends each worker a stop message, and the
 * workers' units give up where they are (stop.h): a unit of a big board
 * runs for hours.  Units given up are not reported, so rank 0 counts the
 * units reported, not those handed out.  Every worker gets exactly one
 * stop message, at the latest as the answer to its final report, and ends
 * only when it has it, so no message is left unreceived.  Workers ignore
 * SIGINT and SIGTERM so that mpirun forwarding them does not kill
 * half-done units.  Waits poll with short sleeps, because
 * MPI_Probe spins and rank 0 often shares a machine with workers.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engines/engine.h"
#include "nq_mpi.h"

enum { TAG_WORK = 1, TAG_REPORT = 2, TAG_STOP = 3 };
enum { WANT_MORE = 1, FINAL = 2 }; /* report flags */

/* A unit's result on the wire: id, then each 128-bit field as two words.
 * A report is [flags, count, count results]. */
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

/* Sleep between polls, longer while nothing happens (50 us to 2 ms): a
 * quick answer when work flows, little CPU taken from the counting threads
 * when it does not. */
typedef struct {
    long ns, max;
} backoff;

static void backoff_wait(backoff *b)
{
    struct timespec ts = {0, b->ns};
    nanosleep(&ts, NULL);
    b->ns = 2 * b->ns < b->max ? 2 * b->ns : b->max;
}

static void backoff_reset(backoff *b) { b->ns = 50000; }

/* A message waiting from source with tag, without spinning; 0 if none is
 * there now (once) or, with `block`, wait for it. */
static int wait_for(int source, int tag, MPI_Status *ms, int block)
{
    int ready = 0;
    backoff b = {0, 500000}; /* rank 0 answers requests within 0.5 ms */
    backoff_reset(&b);
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &ready, ms);
        if (ready || !block)
            return ready;
        backoff_wait(&b);
    }
}

static uint64_t *receive(int source, int tag, int *count)
{
    MPI_Status ms;
    wait_for(source, tag, &ms, 1);
    MPI_Get_count(&ms, MPI_UINT64_T, count);
    uint64_t *w = malloc(((size_t)*count + 1) * sizeof *w);
    if (!w)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Recv(w, *count, MPI_UINT64_T, ms.MPI_SOURCE, tag, MPI_COMM_WORLD, &ms);
    return w;
}

/* ---- workers ---- */

typedef struct {
    const nq_plan *plan;
    pthread_mutex_t lock;
    pthread_cond_t work;        /* units queued, or no more coming */
    uint64_t *queue, queued, head, cap;
    uint64_t *outbox, out_count, out_cap; /* packed results */
    int no_more, running;       /* running: threads not yet ended */
    nq_status failed;
    volatile sig_atomic_t stop; /* rank 0 said stop: units give up */
} worker_state;

static int push_words(uint64_t **buf, uint64_t *count, uint64_t *cap,
                      const uint64_t *w, uint64_t k)
{
    if (*count + k > *cap) {
        uint64_t ncap = 2 * (*count + k) + 64;
        uint64_t *nb = realloc(*buf, ncap * sizeof *nb);
        if (!nb)
            return -1;
        *buf = nb, *cap = ncap;
    }
    memcpy(*buf + *count, w, k * sizeof *w);
    *count += k;
    return 0;
}

static void *worker_thread(void *arg)
{
    worker_state *ws = arg;
    nq_unit_env env = {.scratch = NULL, .stop = &ws->stop};
    const nq_engine *e = ws->plan->engine;
    pthread_mutex_lock(&ws->lock);
    for (;;) {
        while (ws->head == ws->queued && !ws->no_more && !ws->failed &&
               !ws->stop)
            pthread_cond_wait(&ws->work, &ws->lock);
        if (ws->head == ws->queued || ws->failed || ws->stop)
            break;
        uint64_t unit = ws->queue[ws->head++], w[WORDS];
        pthread_mutex_unlock(&ws->lock);
        nq_tally t = {0};
        nq_status st = e->unit(ws->plan, unit, &env, &t);
        pack(unit, &t, w);
        pthread_mutex_lock(&ws->lock);
        if (st == NQ_ERR_STOPPED && ws->stop)
            continue; /* given up: not reported, done again on resume */
        if (st == NQ_OK && push_words(&ws->outbox, &ws->out_count,
                                      &ws->out_cap, w, WORDS))
            st = NQ_ERR_NOMEM;
        if (st != NQ_OK && !ws->failed)
            ws->failed = st;
    }
    ws->running--;
    pthread_mutex_unlock(&ws->lock);
    if (e->free_scratch)
        e->free_scratch(env.scratch);
    return NULL;
}

/* Send [flags, n, results] to rank 0 and empty the outbox. */
static void report(worker_state *ws, uint64_t flags)
{
    uint64_t head[2] = {flags, ws->out_count / WORDS};
    uint64_t *msg = malloc((ws->out_count + 2) * sizeof *msg);
    if (!msg)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memcpy(msg, head, sizeof head);
    memcpy(msg + 2, ws->outbox, ws->out_count * sizeof *msg);
    MPI_Send(msg, (int)(ws->out_count + 2), MPI_UINT64_T, 0, TAG_REPORT,
             MPI_COMM_WORLD);
    free(msg);
    ws->out_count = 0;
}

/* A batch from rank 0 into the queue (an empty one: no more). */
static void take_batch(worker_state *ws)
{
    int count;
    uint64_t *ids = receive(0, TAG_WORK, &count);
    pthread_mutex_lock(&ws->lock);
    if (count == 0)
        ws->no_more = 1;
    else if (push_words(&ws->queue, &ws->queued, &ws->cap, ids,
                        (uint64_t)count) && !ws->failed)
        ws->failed = NQ_ERR_NOMEM;
    pthread_cond_broadcast(&ws->work);
    pthread_mutex_unlock(&ws->lock);
    free(ids);
}

/* The rank's main thread: ask for work while the queue runs low, pass the
 * outbox on, until the threads have ended and everything is reported. */
static int worker(const nq_plan *plan, int threads)
{
    worker_state ws = {.plan = plan, .running = threads};
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    int asked = 0, started = 0, done = 0, stopped = 0, final_sent = 0;
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    pthread_mutex_init(&ws.lock, NULL);
    pthread_cond_init(&ws.work, NULL);
    for (; ids && started < threads; started++)
        if (pthread_create(&ids[started], NULL, worker_thread, &ws) != 0)
            break;
    ws.running = started;
    if (!started)
        MPI_Abort(MPI_COMM_WORLD, 1);
    backoff b = {0, 2000000};
    backoff_reset(&b);
    while (!done) {
        MPI_Status ms;
        int active = 0;
        if (asked && wait_for(0, TAG_WORK, &ms, 0)) {
            take_batch(&ws);
            asked = 0, active = 1;
        }
        if (!stopped && wait_for(0, TAG_STOP, &ms, 0)) {
            free(receive(0, TAG_STOP, &(int){0}));
            pthread_mutex_lock(&ws.lock);
            __atomic_store_n(&ws.stop, 1, __ATOMIC_RELAXED);
            pthread_cond_broadcast(&ws.work);
            pthread_mutex_unlock(&ws.lock);
            stopped = 1, active = 1;
        }
        pthread_mutex_lock(&ws.lock);
        /* ask early: the queue must outlast a round trip to rank 0 */
        int low = ws.queued - ws.head < 4 * (uint64_t)started + 4 &&
                  !ws.no_more;
        int ended = ws.running == 0;
        uint64_t flags = (low && !asked ? WANT_MORE : 0) | (ended ? FINAL : 0);
        if (ws.failed)
            MPI_Abort(MPI_COMM_WORLD, 1);
        if (!final_sent && (flags || ws.out_count)) {
            report(&ws, flags);
            asked |= (flags & WANT_MORE) != 0;
            final_sent = ended, active = 1;
        }
        /* the last answers to wait for: a batch asked for, the stop */
        done = final_sent && stopped && !asked;
        pthread_mutex_unlock(&ws.lock);
        if (active)
            backoff_reset(&b);
        else if (!done)
            backoff_wait(&b);
    }
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    pthread_cond_destroy(&ws.work);
    pthread_mutex_destroy(&ws.lock);
    free(ids);
    free(ws.queue);
    free(ws.outbox);
    return 0;
}

/* Threads for this worker: the machine's cores shared by the worker ranks
 * on it.  mpirun binds each rank to one core when there are no more ranks
 * than cores; a worker undoes that, so that one rank per machine counts
 * with all its cores.  --threads overrides.  Every rank must call this
 * (it is collective). */
static int worker_threads(int asked, int rank)
{
    MPI_Comm local;
    int local_size, lowest;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &local);
    MPI_Comm_size(local, &local_size);
    MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, local);
    MPI_Comm_free(&local);
    int workers = local_size - (lowest == 0); /* rank 0 only coordinates */
    if (rank != 0) {
        cpu_set_t all;
        CPU_ZERO(&all);
        for (long c = 0; c < cores && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &all);
        sched_setaffinity(0, sizeof all, &all);
    }
    if (asked > 0)
        return asked;
    int share = (int)(cores / (workers > 0 ? workers : 1));
    return share > 0 ? share : 1;
}

/* ---- rank 0 ---- */

typedef struct {
    const nq_plan *plan;
    const nq_run_options *o;
    uint64_t *todo, left, next; /* units to hand out, from next on */
    uint64_t handed, budget;    /* units handed out; limit (0: none) */
    uint64_t reported;          /* units whose results came back */
    int workers, failed;
    char *told;                 /* per rank: stop message sent */
} dispatcher;

static int signalled(const dispatcher *d)
{
    return d->o->stop && __atomic_load_n(d->o->stop, __ATOMIC_RELAXED);
}

static void tell_stop(dispatcher *d, int worker)
{
    if (!d->told[worker])
        MPI_Send(NULL, 0, MPI_UINT64_T, worker, TAG_STOP, MPI_COMM_WORLD);
    d->told[worker] = 1;
}

/* Wait for a report; on a signal, first tell every worker to stop. */
static void wait_report(dispatcher *d, MPI_Status *ms)
{
    backoff b = {0, 500000};
    backoff_reset(&b);
    while (!wait_for(MPI_ANY_SOURCE, TAG_REPORT, ms, 0)) {
        if (signalled(d))
            for (int w = 1; w <= d->workers; w++)
                tell_stop(d, w);
        backoff_wait(&b);
    }
}

static int stopping(const dispatcher *d)
{
    return d->failed || signalled(d) || (d->budget && d->handed >= d->budget);
}

/* The next batch for `worker` (empty: no more work). */
static void hand_out(dispatcher *d, int worker)
{
    uint64_t rest = d->left - d->next, size = 0;
    if (!stopping(d) && rest) {
        size = rest / ((uint64_t)d->workers * 16) + 1;
        size = size > 256 ? 256 : size;
        if (d->budget && size > d->budget - d->handed)
            size = d->budget - d->handed;
    }
    MPI_Send(size ? d->todo + d->next : NULL, (int)size, MPI_UINT64_T, worker,
             TAG_WORK, MPI_COMM_WORLD);
    d->next += size, d->handed += size;
}

/* Handle one report; 1 if it was the worker's last. */
static int collect(dispatcher *d, nq_tally *sum, nq_status *st)
{
    MPI_Status ms;
    int count;
    wait_report(d, &ms);
    int from = ms.MPI_SOURCE;
    MPI_Get_count(&ms, MPI_UINT64_T, &count);
    uint64_t *w = malloc(((size_t)count + 1) * sizeof *w);
    if (!w)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Recv(w, count, MPI_UINT64_T, from, TAG_REPORT, MPI_COMM_WORLD, &ms);
    for (int i = 2; i + WORDS <= count; i += WORDS) {
        uint64_t unit;
        nq_tally t;
        unpack(w + i, &unit, &t);
        nq_status s = nq_tally_add(sum, &t);
        if (s == NQ_OK && d->o->on_unit)
            s = d->o->on_unit(d->o->ctx, unit, &t);
        if (s != NQ_OK && *st == NQ_OK)
            *st = s;
        d->reported++;
    }
    d->failed = *st != NQ_OK;
    uint64_t flags = count >= 1 ? w[0] : FINAL;
    free(w);
    if (flags & WANT_MORE)
        hand_out(d, from);
    if (flags & FINAL)
        tell_stop(d, from); /* the answer it waits for to end */
    return (flags & FINAL) != 0;
}

static nq_status dispatch(dispatcher *d, nq_tally *sum)
{
    nq_status st = NQ_OK;
    int running = d->workers;
    while (running > 0)
        running -= collect(d, sum, &st);
    if (st == NQ_OK && d->reported < d->left)
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
    int threads = worker_threads(o->threads, rank);
    if (rank != 0)
        return worker(plan, threads) ? NQ_ERR_INTERNAL : NQ_OK;
    if (size == 1) /* no workers: run here */
        return nq_plan_run(plan, o, sum);
    dispatcher d = {.plan = plan, .o = o, .budget = o->max_units,
                    .workers = size - 1, .told = calloc((size_t)size, 1)};
    nq_status st = d.told ? units_left(&d) : NQ_ERR_NOMEM;
    d.failed = st != NQ_OK; /* then every request is answered with nothing */
    if (!d.told) /* without it the workers could not be told to end */
        MPI_Abort(MPI_COMM_WORLD, 1);
    nq_status run = dispatch(&d, sum);
    free(d.todo);
    free(d.told);
    return st != NQ_OK ? st : run;
}

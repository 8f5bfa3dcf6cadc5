/*
 * mpi_runner.c - a count spread over an MPI job (built by `make mpi` only).
 *
 * Every rank makes the same plan (it is deterministic).  First all ranks
 * check that they agree: each compares its plan's hash and the wire format
 * below with rank 0's, and all learn the lowest rank that differs, so that
 * every rank returns NQ_ERR_MISMATCH naming it rather than count a wrong
 * board.  Then rank 0 coordinates: every decision of what goes where is
 * the schedule's (src/parallel/schedule.c, MPI-free, so that
 * bench/sim_cluster.c simulates a cluster with the same code): each
 * worker keeps one request for work out, and rank 0 answers it with a
 * batch of unit ids, largest estimate first, while the worker holds less
 * than its threads' share of estimated seconds, or holds the request
 * until it does.  With nothing left to hand out, a worker's request makes
 * rank 0 ask another for the units at its queue's tail (TAG_TAKE); that
 * worker gives back those it has not started (a report with GIVEN), and
 * only then are they handed on, so no unit is held twice or by none.
 * Rank 0 receives the finished units' tallies and passes them
 * to the caller one by one (the journal records them), exactly as the
 * threaded runner does, except that each goes under the opening run line
 * of the worker rank that counted it (every rank sends rank 0 its run at
 * the start: gather_runs), so that verify can name a bad worker;
 * journals, resumes and merges are the same with or without MPI.
 *
 * A worker streams: its threads take units from a local queue and put
 * their tallies in an outbox; its main thread alone talks MPI, sending
 * what the outbox holds and keeping a request for more out, which rank 0
 * answers when the queue runs low (by its estimate).  So
 * no thread waits for a batch's slowest unit or for a round trip to rank
 * 0, and each thread keeps its buffers for the whole run.  A report is
 * [flags, count, status, given, count results, given ids], at most
 * REPORT_MAX results or BATCH_MAX ids given back (a fuller outbox goes as
 * several, the flags on the last), and a batch or an ask at most
 * BATCH_MAX ids, so that both sides receive into buffers they hold from
 * the start, no message waits on an allocation, and none is over shared
 * memory's eager limit (REPORT_WORDS).
 *
 * Stopping (a signal at rank 0, or a unit budget): rank 0 answers requests
 * with empty batches; workers finish what they hold, report it and end.
 * On a signal rank 0 also sends each worker a stop message, and the
 * workers' units give up where they are (stop.h): a unit of a big board
 * runs for hours.  Units given up are not reported, so rank 0 counts the
 * units reported, not those handed out.  Every worker gets exactly one
 * stop message, at the latest as the answer to its final report, which
 * says how many asks for units back rank 0 sent it, and ends only when it
 * has it and them all (an ask that crosses the final report is received
 * and not answered: rank 0 counts the ended worker's ask as over), so no
 * message is left unreceived.  The program
 * decides what a signal does to a worker (nqueens-mpi's workers ignore
 * SIGINT and SIGTERM, so that mpirun forwarding them does not kill
 * half-done units); the library sets no handler.  Waits poll with short
 * sleeps, because
 * MPI_Probe spins and rank 0 often shares a machine with workers.
 *
 * Failing: nothing here aborts or exits; every rank returns a status and
 * the program decides.  A worker that fails (no memory, no thread, a unit
 * in error) sends a report with the FAILED flag and its status, stops its
 * threads, and then ends like a stopped worker: its final report, its one
 * stop message.  Rank 0 keeps the first failure (a worker's, its own, or
 * the caller's on_unit), hands out no more work, sends every worker its
 * stop message, collects until all have reported FINAL and returns the
 * failure; units reported before it stay reported (in the journal).
 *
 * Losing a rank (its machine gone, its network cut, the process killed):
 * MPI says nothing of it, a message to it just never arrives.  So every
 * worker pings rank 0 at least once a second and rank 0 answers each
 * ping, and each side times the other's silence.  A worker silent past
 * the deadline is lost: rank 0 takes back the units it held (the schedule),
 * hands them out again among the rest, largest first, discards whatever
 * the worker might still send,
 * and no longer waits for it; a request for work that finds nothing left
 * to hand out while units are still held elsewhere waits, so that units
 * taken back later find a worker; a lost worker that speaks again is told
 * it is lost and waits, answered, for the job's end.  A worker that has
 * heard nothing from rank 0 for the deadline stops its threads and
 * returns NQ_ERR_LOST.  Each side's own pauses (a stopped process, a
 * frozen machine) restart its clocks instead of counting as the other's
 * silence.  Neither side can then end with MPI_Finalize (it waits for
 * every rank): the program ends the job (nqueens_mpi.h).
 */
#include <mpi.h>
#include <stddef.h>
#include <limits.h>
#include <pthread.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/core.h"
#include "../engines/engine.h"
#include "../journal/journal.h"
#include "../parallel/schedule.h"
#include "../search/frontier_kernel.h"
#include "mpi_runner.h"

enum { TAG_WORK = 1, TAG_REPORT = 2, TAG_STOP = 3, TAG_ALIVE = 4,
       TAG_TAKE = 5 };
enum { WANT_MORE = 1, FINAL = 2, FAILED = 4, PING = 8,
       GIVEN = 16 }; /* report flags */

/* A unit's result on the wire: id, then each 128-bit field as two words. */
#define WORDS 11
#define HEAD 4           /* a report's header: flags, count, status,
                            units given back */
#define REPORT_MAX 32    /* results in one report */
#define BATCH_MAX 256    /* unit ids in one batch, asked or given back */
/* A report holds results or units given back, never both, so that it
 * stays under shared memory's eager limit (4 KiB): the whole message is
 * in rank 0's hands when it is posted, and rank 0 never waits on a
 * sender stopped in the middle of a larger one (seen: a worker stopped
 * late held rank 0 in MPI_Recv past the other worker's deadline). */
#define REPORT_WORDS (HEAD + (REPORT_MAX * WORDS > BATCH_MAX ? \
                              REPORT_MAX * WORDS : BATCH_MAX))
#define HOST_MAX 64      /* a rank's machine name, as rank 0 keeps it */
/* The wire format, compared between ranks with the plan: a rank built
 * with other sizes would misread every message, and one of another
 * format (5: each rank's run gathered at the start, gather_runs) would
 * miss a collective call. */
#define WIRE ((uint64_t)5 << 56 | (uint64_t)HEAD << 48 | \
              (uint64_t)WORDS << 32 | (uint64_t)REPORT_MAX << 16 | BATCH_MAX)

/* A result into its WORDS words (and back): plain words, so that ranks
 * on any machine read them alike. */
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

/* ---- workers ---- */

typedef struct {
    const nq_plan *plan;
    pthread_mutex_t lock;
    pthread_cond_t work;        /* units queued, no more coming, or stop */
    uint64_t *queue, queued, head, cap;
    uint64_t *outbox, out_count, out_cap; /* packed results */
    int no_more, running;       /* running: threads not yet ended */
    nq_status failed;           /* the worker's first failure */
    volatile sig_atomic_t stop; /* stop (rank 0's word, or a failure):
                                   units give up */
    /* the main thread's own: */
    int started, asked, stopped, final_sent, failure_sent;
    int pinged;                 /* a ping awaits rank 0's answer */
    int lost;                   /* rank 0 counts this worker as lost */
    double timeout, beat;       /* rank 0's deadline; seconds between pings */
    double ping_at, heard_at;   /* when the last ping went; when rank 0
                                   was last heard */
    double looked;              /* when the main thread last looked */
    MPI_Request sending;        /* the report in flight (msg) */
    uint64_t msg[REPORT_WORDS]; /* a report being sent */
    uint64_t given[BATCH_MAX], ngiven; /* units given back, to report */
    int give_due;               /* an ask of rank 0's to answer (GIVEN) */
    uint64_t takes_seen, takes_due; /* asks received; sent (the stop
                                       message says) */
} worker_state;

/* Append k words to a growing buffer (the queue, the outbox); -1 without
 * memory, the buffer as it was. */
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

/* Note the worker's first failure (lock held) and wake the threads, which
 * then end: the main thread reports it. */
static void worker_fail(worker_state *ws, nq_status st)
{
    if (!ws->failed)
        ws->failed = st;
    pthread_cond_broadcast(&ws->work);
}

/* A counting thread: units from the queue, tallies into the outbox, until
 * the queue is empty and no more is coming, or a stop, or a failure. */
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
        if (st != NQ_OK)
            worker_fail(ws, st);
    }
    ws->running--;
    pthread_mutex_unlock(&ws->lock);
    if (e->free_scratch)
        e->free_scratch(env.scratch);
    return NULL;
}

/* Set the stop flag (lock held): running units give up, waiting threads
 * end. */
static void stop_threads(worker_state *ws)
{
    __atomic_store_n(&ws->stop, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&ws->work);
}

/* Start the counting threads.  They wait for a first batch, so none ends
 * before `running` is right.  A worker that could start none fails (and
 * ends through the usual reports). */
static pthread_t *start_threads(worker_state *ws, int threads)
{
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    ws->running = threads;
    for (; ids && ws->started < threads; ws->started++)
        if (pthread_create(&ids[ws->started], NULL, worker_thread, ws) != 0)
            break;
    pthread_mutex_lock(&ws->lock);
    ws->running = ws->started;
    if (!ws->started)
        worker_fail(ws, ids ? NQ_ERR_THREAD : NQ_ERR_NOMEM);
    pthread_mutex_unlock(&ws->lock);
    return ids;
}

/* Post one report to rank 0 (lock held): the units given back, if an
 * ask is to be answered, else up to REPORT_MAX of the outbox's results;
 * and `flags` (and the status, with FAILED) only on the report that
 * empties it; 1 if the flags went.  Not waited for: a rank 0
 * that stopped reading must not hold the thread that times its silence. */
static int report(worker_state *ws, uint64_t flags)
{
    uint64_t n = ws->out_count / WORDS;
    uint64_t k = ws->give_due ? 0 : n < REPORT_MAX ? n : REPORT_MAX;
    uint64_t g = ws->give_due ? ws->ngiven : 0;
    int last = k == n;
    ws->msg[0] = (last ? flags : 0) | (ws->give_due ? GIVEN : 0);
    ws->msg[1] = k;
    ws->msg[2] = last && (flags & FAILED) ? (uint64_t)ws->failed : NQ_OK;
    ws->msg[3] = g;
    memcpy(ws->msg + HEAD, ws->outbox, k * WORDS * sizeof *ws->msg);
    memcpy(ws->msg + HEAD + k * WORDS, ws->given, g * sizeof *ws->msg);
    memmove(ws->outbox, ws->outbox + k * WORDS,
            (n - k) * WORDS * sizeof *ws->outbox);
    ws->out_count -= k * WORDS;
    ws->give_due = 0, ws->ngiven = 0;
    MPI_Isend(ws->msg, (int)(HEAD + k * WORDS + g), MPI_UINT64_T, 0,
              TAG_REPORT, MPI_COMM_WORLD, &ws->sending);
    return last;
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Unit ids rank 0 sent with this tag (a batch, an ask), BATCH_MAX at
 * most, into ids; how many. */
static int recv_ids(uint64_t *ids, int tag)
{
    MPI_Status ms;
    int count;
    MPI_Recv(ids, BATCH_MAX, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, &ms);
    MPI_Get_count(&ms, MPI_UINT64_T, &count);
    return count;
}

/* Rank 0 asks for units back, for a worker that has nothing to do: those
 * of them still in the queue (not started) leave it, and go back with the
 * next report (GIVEN), maybe none; the rest are running or done and stay
 * this worker's, so that no unit is counted twice or lost.  After the
 * last report (or once lost) an ask is only received: rank 0 counts it
 * answered by the end. */
static void take_ask(worker_state *ws)
{
    uint64_t ids[BATCH_MAX];
    int count = recv_ids(ids, TAG_TAKE);
    ws->takes_seen++;
    if (ws->final_sent || ws->lost)
        return;
    qsort(ids, (size_t)count, sizeof *ids, by_id);
    pthread_mutex_lock(&ws->lock);
    uint64_t kept = ws->head;
    for (uint64_t i = ws->head; i < ws->queued; i++)
        if (ws->ngiven < BATCH_MAX &&
            bsearch(&ws->queue[i], ids, (size_t)count, sizeof *ids, by_id))
            ws->given[ws->ngiven++] = ws->queue[i];
        else
            ws->queue[kept++] = ws->queue[i];
    ws->queued = kept;
    ws->give_due = 1;
    pthread_mutex_unlock(&ws->lock);
}

/* A batch from rank 0 into the queue (an empty one: no more). */
static void take_batch(worker_state *ws)
{
    uint64_t ids[BATCH_MAX];
    int count = recv_ids(ids, TAG_WORK);
    pthread_mutex_lock(&ws->lock);
    if (count == 0)
        ws->no_more = 1;
    else if (push_words(&ws->queue, &ws->queued, &ws->cap, ids,
                        (uint64_t)count))
        worker_fail(ws, NQ_ERR_NOMEM);
    pthread_cond_broadcast(&ws->work);
    pthread_mutex_unlock(&ws->lock);
}

/* Take what rank 0 sent: the batch asked for, a ping's answer, asks for
 * units back, the stop message (its first word 1: rank 0 counts this
 * worker as lost, after a silence it has come back from; its second: the
 * asks rank 0 sent, all to be received before the end).  1 if anything
 * came. */
static int poll_root(worker_state *ws, double now)
{
    MPI_Status ms;
    int active = 0, count = 0;
    uint64_t words[2] = {0, 0};
    if (ws->asked && wait_for(0, TAG_WORK, &ms, 0)) {
        take_batch(ws);
        ws->asked = 0, active = 1;
    }
    if (ws->pinged && wait_for(0, TAG_ALIVE, &ms, 0)) {
        MPI_Recv(NULL, 0, MPI_UINT64_T, 0, TAG_ALIVE, MPI_COMM_WORLD, &ms);
        ws->pinged = 0, active = 1;
    }
    while (wait_for(0, TAG_TAKE, &ms, 0))
        take_ask(ws), active = 1;
    if (!ws->stopped && wait_for(0, TAG_STOP, &ms, 0)) {
        MPI_Recv(words, 2, MPI_UINT64_T, 0, TAG_STOP, MPI_COMM_WORLD, &ms);
        MPI_Get_count(&ms, MPI_UINT64_T, &count);
        pthread_mutex_lock(&ws->lock);
        stop_threads(ws);
        ws->lost = count == 2 && words[0] == 1;
        ws->takes_due = count == 2 ? words[1] : 0;
        pthread_mutex_unlock(&ws->lock);
        ws->stopped = 1, active = 1;
    }
    if (active)
        ws->heard_at = now;
    return active;
}

/* The flags of the report due now (lock held).  A worker rank 0 counts
 * as lost only pings: its results are counted by others, and it waits for
 * rank 0 to end the job (or for rank 0's silence). */
static uint64_t flags_due(worker_state *ws, int ping)
{
    if (ws->lost) {
        ws->out_count = 0;
        return ping ? PING : 0;
    }
    if (ws->failed && !ws->stop)
        stop_threads(ws); /* a failed worker counts no more */
    int low = !ws->no_more && !ws->failed; /* rank 0 sizes the queue */
    return (low && !ws->asked ? WANT_MORE : 0) |
           (ws->running == 0 ? FINAL : 0) | (ping ? PING : 0) |
           (ws->failed && !ws->failure_sent ? FAILED : 0);
}

/* Send rank 0 what is due, once the last report has gone: the outbox's
 * results, the units given back (an ask answered), a request once the
 * last is answered (rank 0 holds it until the queue runs low: an early
 * ask outlasts a round trip), a ping when the last is a beat old and
 * answered, a failure once, FINAL once the threads have ended and all is
 * sent.  1 if a report went out. */
static int send_due(worker_state *ws, double now)
{
    int done = 1, sent = 0;
    if (ws->sending != MPI_REQUEST_NULL)
        MPI_Test(&ws->sending, &done, MPI_STATUS_IGNORE);
    if (!done)
        return 0;
    int ping = !ws->pinged && now - ws->ping_at >= ws->beat;
    pthread_mutex_lock(&ws->lock);
    uint64_t flags = flags_due(ws, ping);
    if (!ws->final_sent && (flags || ws->out_count || ws->give_due)) {
        if (report(ws, flags)) {
            ws->asked |= (flags & WANT_MORE) != 0;
            if (flags & PING)
                ws->pinged = 1, ws->ping_at = now;
            ws->failure_sent |= (flags & FAILED) != 0;
            ws->final_sent = (flags & FINAL) != 0;
        }
        sent = 1;
    }
    pthread_mutex_unlock(&ws->lock);
    return sent;
}

/* Rank 0 has said nothing for the deadline (a worker pings it every beat
 * and it answers, so silence means it is gone): so is this worker's work
 * in hand (redone on resume).  The threads stop; the worker ends without
 * the answers it waits for.  A pause of this worker's own (stopped, its
 * machine frozen) is no silence of rank 0's: the clock starts again. */
static int root_lost(worker_state *ws, double now)
{
    if (now - ws->looked > ws->timeout / 2)
        ws->heard_at = now;
    ws->looked = now;
    if (now - ws->heard_at <= ws->timeout)
        return 0;
    pthread_mutex_lock(&ws->lock);
    if (!ws->failed) /* a failure of its own says more */
        ws->failed = NQ_ERR_LOST;
    stop_threads(ws);
    pthread_mutex_unlock(&ws->lock);
    return 1;
}

/* The rank's main thread: ask for work while the queue runs low, pass the
 * outbox on, until the threads have ended, everything is reported and the
 * last answers (a batch asked for, a ping's answer, the stop message) are
 * in, or rank 0 is lost.  Returns the worker's failure, NQ_OK if none. */
static nq_status worker(const nq_plan *plan, int threads, double timeout)
{
    double now = nq_clock_seconds();
    worker_state ws = {.plan = plan, .timeout = timeout,
                       .beat = timeout / 4 < 1 ? timeout / 4 : 1,
                       .ping_at = now, .heard_at = now, .looked = now,
                       .sending = MPI_REQUEST_NULL};
    pthread_mutex_init(&ws.lock, NULL);
    pthread_cond_init(&ws.work, NULL);
    pthread_t *ids = start_threads(&ws, threads);
    backoff b = {0, 2000000};
    backoff_reset(&b);
    for (;;) {
        now = nq_clock_seconds();
        int active = poll_root(&ws, now);
        active |= send_due(&ws, now);
        if ((ws.final_sent && ws.stopped && !ws.asked && !ws.pinged &&
             ws.takes_seen >= ws.takes_due &&
             ws.sending == MPI_REQUEST_NULL) || root_lost(&ws, now))
            break;
        if (active)
            backoff_reset(&b);
        else
            backoff_wait(&b);
    }
    for (int i = 0; i < ws.started; i++)
        pthread_join(ids[i], NULL);
    pthread_cond_destroy(&ws.work);
    pthread_mutex_destroy(&ws.lock);
    free(ids);
    free(ws.queue);
    free(ws.outbox);
    return ws.failed;
}

/* Which machine this rank runs on, as a hash: the kernel's boot id,
 * which every container and network namespace of a machine shares (as
 * they share its cores), else the host name.  Not MPI_Comm_split_type's
 * idea of a node: OpenMPI 4.1 tells nodes apart by host name, and where
 * two machines have one (containers often do) its ranks disagree on who
 * shares a node (seen: the rank alone on the second machine counted the
 * first's as local, they did not), so the split built communicators that
 * did not match and the job crashed in OpenMPI (doc/cluster.md). */
static uint64_t machine_id(void)
{
    char key[MPI_MAX_PROCESSOR_NAME] = "";
    int len;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f || !fgets(key, sizeof key, f))
        MPI_Get_processor_name(key, &len);
    if (f)
        fclose(f);
    return nq_fnv1a(0xcbf29ce484222325ull, key, strlen(key));
}

/* The worker ranks on this rank's machine (rank 0 only coordinates);
 * 1 if the ranks cannot all learn it (no memory for the list). */
static int workers_here(int size)
{
    uint64_t mine = machine_id();
    uint64_t *all = malloc((size_t)size * sizeof *all);
    int ok = all != NULL, all_ok, here = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok)
        MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T,
                      MPI_COMM_WORLD);
    for (int r = 1; all_ok && r < size; r++)
        here += all[r] == mine;
    free(all);
    return here > 0 ? here : 1;
}

/* Threads for this worker: its cores (nq_resolve_threads) shared by the
 * worker ranks on its machine.  (mpirun binds each rank to a core or a
 * socket unless oversubscribed: nqueens-mpi widens its workers'
 * affinity to every core again, a policy left to the program.)
 * --threads overrides.  Every rank must call this (it is collective). */
static int worker_threads(int asked, int size)
{
    int workers = workers_here(size);
    int share = nq_resolve_threads(0) / workers;
    if (asked > 0)
        return asked;
    return share > 0 ? share : 1;
}

/* ---- rank 0 ---- */

enum { RUNNING, ENDED, LOST }; /* a worker, as rank 0 sees it */

typedef struct {
    const nq_plan *plan;
    const nq_run_options *o;
    const nq_mpi_options *mo;
    const char *hosts;          /* per rank: its machine (HOST_MAX bytes;
                                   NULL: unknown) */
    const int *threads;         /* per rank: its counting threads */
    nq_journal *journal;        /* where each worker's units are recorded
                                   under its run (NULL: o->on_unit) */
    const nq_jf_run *runs;      /* per rank: its run (NULL: unknown) */
    nq_schedule *sched;         /* who holds which unit, what goes next */
    uint64_t left;              /* units to count in this run */
    uint64_t handed, budget;    /* units handed out; limit (0: none) */
    uint64_t reported;          /* units whose results came back */
    int workers, active;        /* workers; those still RUNNING */
    int lost;                   /* workers LOST */
    char *state;                /* per rank: RUNNING, ENDED or LOST */
    uint64_t *takes;            /* per rank: asks for units back sent */
    uint64_t *counted;          /* per rank: units it reported */
    uint64_t **batch, **ask;    /* per rank: its last batch and ask, as
                                   sent (MPI_Isend; NULL until the first) */
    uint64_t *stop_words;       /* per rank: its stop message */
    double *heard;              /* per rank: when it last spoke */
    double polled;              /* when rank 0 last looked */
    nq_status st;               /* the first failure */
    int failed_rank;            /* its rank (-1: the caller's on_unit) */
    int first_lost;             /* the first rank lost, or -1 */
    char *told;                 /* per rank: stop message sent */
    uint64_t msg[REPORT_WORDS]; /* a report received */
} dispatcher;

/* The caller's stop flag (set by its signal handler). */
static int signalled(const dispatcher *d)
{
    return d->o->stop && __atomic_load_n(d->o->stop, __ATOMIC_RELAXED);
}

/* Send without waiting: rank 0 never blocks on a worker, which may be
 * stopped (a blocking send to one, once shared memory's box for it was
 * full, held rank 0 past the other workers' deadline).  buf must stay as
 * it is until the worker has it: each kind of message has its own, and
 * the next of a kind goes only after the worker answered the last (a
 * request after its batch, an ask's answer after the ask). */
static void post(const uint64_t *buf, int count, int worker, int tag)
{
    MPI_Request r = MPI_REQUEST_NULL;
    /* a send that failed set no request to free (MPI_ERRORS_RETURN) */
    if (MPI_Isend(buf, count, MPI_UINT64_T, worker, tag, MPI_COMM_WORLD,
                  &r) == MPI_SUCCESS && r != MPI_REQUEST_NULL)
        MPI_Request_free(&r);
}

static void fail(dispatcher *d, int rank, nq_status st);

/* Worker's buffer for a kind of message (*slot, made on first use), or
 * NULL without memory: the run then fails. */
static uint64_t *buffer(dispatcher *d, uint64_t **slot)
{
    if (!*slot && !(*slot = malloc(BATCH_MAX * sizeof **slot)))
        fail(d, 0, NQ_ERR_NOMEM);
    return *slot;
}

/* The worker's one stop message: sent once, whichever comes first (a
 * signal, a failure, its FINAL, or as a lost one).  It says whether the
 * worker is lost, and how many asks for units back it was sent: it
 * receives them all before it ends, answered or not. */
static void tell_stop(dispatcher *d, int worker, int lost)
{
    uint64_t *words = d->stop_words + 2 * worker;
    if (d->told[worker])
        return;
    words[0] = (uint64_t)lost, words[1] = d->takes[worker];
    post(words, 2, worker, TAG_STOP);
    d->told[worker] = 1;
}

/* Stop every worker's units now (a signal or a failure); a lost one is
 * not written to. */
static void stop_all(dispatcher *d)
{
    for (int w = 1; w <= d->workers; w++)
        if (d->state[w] != LOST)
            tell_stop(d, w, 0);
}

/* The run fails: the first failure is the one returned; no more work goes
 * out and every worker stops, so that the job ends soon. */
static void fail(dispatcher *d, int rank, nq_status st)
{
    if (d->st == NQ_OK)
        d->st = st, d->failed_rank = rank;
    stop_all(d);
}

/* No more work goes out: a failure, a signal, or the budget handed out. */
static int stopping(const dispatcher *d)
{
    return d->st != NQ_OK || signalled(d) ||
           (d->budget && d->handed >= d->budget);
}

/* Answer worker's request for work (nq_schedule_request): a batch, an
 * empty one (no more work: the end, a stop, a failure, the budget), or
 * nothing yet, the request held; with nothing left to hand out, the
 * schedule may name a donor to ask for units back first. */
static void serve(dispatcher *d, int worker)
{
    uint32_t max = BATCH_MAX;
    if (d->budget && d->budget - d->handed < max)
        max = (uint32_t)(d->budget - d->handed);
    uint64_t ids[BATCH_MAX], *buf;
    if (stopping(d))
        nq_schedule_stop(d->sched);
    nq_sched_answer a = nq_schedule_request(d->sched, worker, ids, max);
    if (a.kind == NQ_SCHED_WAIT && a.donor) {
        if (!(buf = buffer(d, &d->ask[a.donor])))
            return; /* the ask is never answered: the run fails */
        memcpy(buf, ids, a.count * sizeof *ids);
        post(buf, (int)a.count, a.donor, TAG_TAKE);
        d->takes[a.donor]++;
    } else if (a.kind != NQ_SCHED_WAIT) {
        if (!(buf = buffer(d, &d->batch[worker])))
            return;
        memcpy(buf, ids, a.count * sizeof *ids);
        post(buf, (int)a.count, worker, TAG_WORK);
        d->handed += a.count;
    }
}

/* Requests held, answered once there is work or an end to say (units
 * done or given back, a worker lost, a stop). */
static void serve_waiting(dispatcher *d)
{
    int w;
    if (stopping(d))
        nq_schedule_stop(d->sched);
    while ((w = nq_schedule_wakeable(d->sched)) > 0)
        if (d->state[w] == RUNNING)
            serve(d, w);
}

/* A rank's machine ("" if rank 0 had no memory to learn them). */
static const char *host_of(const dispatcher *d, int rank)
{
    return d->hosts ? d->hosts + (size_t)rank * HOST_MAX : "";
}

/* A worker silent past the deadline: its units go back to be handed out
 * first, and the run no longer waits for it. */
static void lose(dispatcher *d, int worker, double now)
{
    uint64_t back = nq_schedule_lose(d->sched, worker);
    d->handed -= back;
    d->state[worker] = LOST, d->active--, d->lost++;
    if (d->first_lost < 0)
        d->first_lost = worker;
    if (d->mo->on_lost)
        d->mo->on_lost(d->mo->ctx, worker, host_of(d, worker),
                       now - d->heard[worker], back);
    serve_waiting(d);
}

/* Lose every running worker silent past the deadline; 1 if any was.  A
 * pause of rank 0's own (a slow disk under the journal) is no worker's
 * silence: the clocks start again after it. */
static int lose_silent(dispatcher *d)
{
    double now = nq_clock_seconds();
    int lost = 0;
    for (int w = 1; w <= d->workers; w++) {
        if (now - d->polled > d->mo->worker_timeout / 2)
            d->heard[w] = now;
        if (d->state[w] == RUNNING &&
            now - d->heard[w] > d->mo->worker_timeout)
            lose(d, w, now), lost = 1;
    }
    d->polled = now;
    return lost;
}

/* Wait for a report (1) or a worker lost (0); on a signal, first tell
 * every worker to stop.  The deadlines are checked before each report
 * too: the others' steady reports must not hide one worker's silence. */
static int wait_report(dispatcher *d, MPI_Status *ms)
{
    backoff b = {0, 500000};
    backoff_reset(&b);
    for (;;) {
        if (lose_silent(d))
            return 0;
        if (wait_for(MPI_ANY_SOURCE, TAG_REPORT, ms, 0))
            return 1;
        if (signalled(d)) {
            stop_all(d);
            serve_waiting(d);
        }
        backoff_wait(&b);
    }
}

/* Pass a report's results on, into *sum and to on_unit (the journal).
 * Each must be of a unit the worker holds: anything else is a bug. */
static void take_results(dispatcher *d, nq_tally *sum, int count, int from)
{
    for (int i = HEAD; i + WORDS <= count && i < HEAD + (int)d->msg[1] * WORDS;
         i += WORDS) {
        uint64_t unit;
        nq_tally t;
        unpack(d->msg + i, &unit, &t);
        if (!nq_schedule_done(d->sched, from, unit)) {
            fail(d, from, NQ_ERR_INTERNAL);
            continue;
        }
        nq_status s = nq_tally_add(sum, &t);
        if (s == NQ_OK && d->journal) /* under the run of the rank that
                                         counted it */
            s = nq_journal_record_as(d->journal, d->runs ? &d->runs[from]
                                                         : NULL, unit, &t);
        else if (s == NQ_OK && d->o->on_unit)
            s = d->o->on_unit(d->o->ctx, unit, &t);
        if (s != NQ_OK)
            fail(d, -1, s);
        d->reported++;
        d->counted[from]++;
    }
}

/* A lost worker that speaks again (it was only slow, or its network came
 * back): its results are dropped (its units went to others), but it is
 * answered, told once that it is lost, and so stays quiet and alive until
 * the job ends; left unanswered it would give up on rank 0 and exit, and
 * mpirun would end the job under the count. */
static void answer_lost(dispatcher *d, int worker, uint64_t flags)
{
    if (flags & WANT_MORE)
        post(NULL, 0, worker, TAG_WORK);
    tell_stop(d, worker, 1);
}

/* The units a worker gave back, answering an ask (GIVEN): to be handed
 * out again first.  Any it does not hold is a bug, as in take_results. */
static void take_given(dispatcher *d, int count, int from)
{
    uint64_t results = d->msg[1], given = d->msg[3];
    const uint64_t *ids = d->msg + HEAD + results * WORDS;
    if (HEAD + results * WORDS + given > (uint64_t)count ||
        !nq_schedule_given(d->sched, from, ids, (uint32_t)given))
        fail(d, from, NQ_ERR_INTERNAL);
    else
        d->handed -= given;
    if (d->mo->on_take_back)
        d->mo->on_take_back(d->mo->ctx, from, given);
}

/* Handle one report, or a worker lost.  A failure is taken before the
 * request, so that a failed run's answer is an empty batch; a ping is
 * answered before the rest, and a lost worker's words are dropped. */
static void collect(dispatcher *d, nq_tally *sum)
{
    MPI_Status ms;
    int count;
    if (!wait_report(d, &ms))
        return;
    int from = ms.MPI_SOURCE;
    MPI_Recv(d->msg, REPORT_WORDS, MPI_UINT64_T, from, TAG_REPORT,
             MPI_COMM_WORLD, &ms);
    MPI_Get_count(&ms, MPI_UINT64_T, &count);
    /* a report too short to read (no such build gets past the check of
     * the wire format) counts as the worker's failure and last report */
    uint64_t flags = count >= HEAD ? d->msg[0] : FAILED | FINAL;
    uint64_t st = count >= HEAD ? d->msg[2] : NQ_ERR_INTERNAL;
    if (flags & PING)
        post(NULL, 0, from, TAG_ALIVE);
    if (d->state[from] == LOST) {
        answer_lost(d, from, flags);
        return;
    }
    d->heard[from] = nq_clock_seconds();
    take_results(d, sum, count, from);
    if (flags & GIVEN)
        take_given(d, count, from);
    if (flags & FAILED)
        fail(d, from, st > NQ_OK && st < NQ_STATUS_COUNT ? (nq_status)st
                                                         : NQ_ERR_INTERNAL);
    if (flags & WANT_MORE)
        serve(d, from);
    if (flags & FINAL) {
        /* a request still held (a worker that failed and ended in one
         * report) is answered, empty: the worker ends only once every
         * request it sent has its answer */
        if (nq_schedule_waiting(d->sched, from))
            post(NULL, 0, from, TAG_WORK);
        tell_stop(d, from, 0); /* the answer it waits for to end */
        d->state[from] = ENDED, d->active--;
        nq_schedule_retire(d->sched, from);
    }
    serve_waiting(d);
}

/* Collect until every worker has sent FINAL or is lost; the first
 * failure, else with units left NQ_ERR_LOST if every worker was lost
 * (no signal), NQ_ERR_STOPPED otherwise (a signal, the budget: a worker
 * that ended normally ended only with nothing left to hand out). */
static nq_status dispatch(dispatcher *d, nq_tally *sum)
{
    while (d->active > 0)
        collect(d, sum);
    if (d->st != NQ_OK)
        return d->st;
    if (d->reported < d->left)
        return d->lost == d->workers && !signalled(d) ? NQ_ERR_LOST
                                                      : NQ_ERR_STOPPED;
    return NQ_OK;
}

/* Unit i of the run: the caller's list's, or else the plan's (or -1). */
static uint64_t run_unit(const dispatcher *d, uint64_t i)
{
    return d->o->ids ? d->o->ids[i] : i;
}

/* The units left (the caller's list, or the share's not in o->done),
 * each with its estimated seconds, into the schedule.  Estimating is
 * quick (64 random paths a unit) but not free at N = 28: a stop cuts it
 * short. */
static nq_status units_left(dispatcher *d)
{
    uint64_t units = nq_plan_units(d->plan);
    uint64_t from = d->o->ids ? d->o->count : units;
    uint64_t *ids = malloc((from ? from : 1) * sizeof *ids);
    double *seconds = malloc((from ? from : 1) * sizeof *seconds);
    nq_status st = ids && seconds ? NQ_OK : NQ_ERR_NOMEM;
    int stop = 0; /* nothing will be handed out: estimates are moot */
    for (uint64_t i = 0; st == NQ_OK && i < from; i++) {
        uint64_t u = run_unit(d, i);
        if (u >= units)
            st = NQ_ERR_ARG;
        else if (!d->o->ids &&
                 !nq_unit_chosen(d->o->part, d->o->parts, d->o->done, u))
            continue;
        stop |= i % 1024 == 0 && signalled(d);
        seconds[d->left] = stop ? -1 : nq_plan_unit_seconds(d->plan, u);
        ids[d->left++] = u;
    }
    if (st == NQ_OK)
        st = nq_schedule_new(ids, seconds, d->left, units, d->workers,
                             d->threads, 0, &d->sched);
    free(ids);
    free(seconds);
    return st;
}

/* Rank 0's per-rank bookkeeping, every worker RUNNING and just heard. */
static int per_rank(dispatcher *d)
{
    size_t n = (size_t)d->workers + 1;
    d->told = calloc(n, 1);
    d->state = calloc(n, 1);
    d->takes = calloc(n, sizeof *d->takes);
    d->counted = calloc(n, sizeof *d->counted);
    d->batch = calloc(n, sizeof *d->batch);
    d->ask = calloc(n, sizeof *d->ask);
    d->stop_words = calloc(2 * n, sizeof *d->stop_words);
    d->heard = malloc(n * sizeof *d->heard);
    if (!d->told || !d->state || !d->takes || !d->counted || !d->batch ||
        !d->ask ||
        !d->stop_words || !d->heard)
        return 0; /* drain() ends the workers without them */
    d->polled = nq_clock_seconds();
    for (size_t w = 0; w < n; w++)
        d->heard[w] = d->polled;
    return 1;
}

/* What the caller learns of the first failure, or else of the first rank
 * lost, whatever ended the run (finished, stopped, every worker lost):
 * with a rank lost the job cannot end with MPI_Finalize, and a program
 * told nothing of it would wait there for ever. */
static void name_failure(const dispatcher *d, nq_status st, nq_mpi_failure *f)
{
    int rank = d->failed_rank >= 0 ? d->failed_rank : d->first_lost;
    f->lost = d->lost;
    if (rank < 0)
        return;
    f->rank = rank;
    f->status = d->failed_rank >= 0 ? d->st : st == NQ_OK ? NQ_OK
                                                        : NQ_ERR_LOST;
    snprintf(f->host, sizeof f->host, "%s", host_of(d, rank));
}

/* Without memory for its bookkeeping, rank 0 still runs the protocol to
 * its end, handing out nothing, so that every worker ends (no deadline:
 * it waits for each FINAL); the failure is then rank 0's own. */
static nq_status drain(dispatcher *d)
{
    for (int running = d->workers; running > 0;) {
        MPI_Status ms;
        int count;
        wait_for(MPI_ANY_SOURCE, TAG_REPORT, &ms, 1);
        int from = ms.MPI_SOURCE;
        MPI_Recv(d->msg, REPORT_WORDS, MPI_UINT64_T, from, TAG_REPORT,
                 MPI_COMM_WORLD, &ms);
        MPI_Get_count(&ms, MPI_UINT64_T, &count);
        uint64_t flags = count >= HEAD ? d->msg[0] : FINAL;
        if (flags & PING)
            MPI_Send(NULL, 0, MPI_UINT64_T, from, TAG_ALIVE, MPI_COMM_WORLD);
        if (flags & WANT_MORE)
            MPI_Send(NULL, 0, MPI_UINT64_T, from, TAG_WORK, MPI_COMM_WORLD);
        if (flags & FINAL)
            MPI_Send(NULL, 0, MPI_UINT64_T, from, TAG_STOP, MPI_COMM_WORLD);
        running -= (flags & FINAL) != 0;
    }
    return d->st;
}

/* Rank 0 with workers. */
static nq_status coordinate(const nq_plan *plan, const nq_run_options *o,
                            const nq_mpi_options *mo, nq_journal *journal,
                            const char *hosts, const nq_jf_run *runs,
                            const int *threads, nq_tally *sum, int workers,
                            nq_mpi_failure *f)
{
    dispatcher d = {.plan = plan, .o = o, .mo = mo, .hosts = hosts,
                    .threads = threads, .journal = journal, .runs = runs,
                    .budget = o->max_units, .workers = workers,
                    .active = workers, .failed_rank = -1, .first_lost = -1};
    nq_status st = per_rank(&d) ? units_left(&d) : NQ_ERR_NOMEM;
    if (st == NQ_OK)
        st = dispatch(&d, sum);
    else
        d.st = st, d.failed_rank = 0, st = drain(&d);
    name_failure(&d, st, f);
    for (int w = 1; d.counted && d.mo->on_rank_units && w <= workers; w++)
        d.mo->on_rank_units(d.mo->ctx, w, d.counted[w]);
    nq_schedule_free(d.sched);
    /* the send buffers are left as they are: their sends were freed
     * (post), so nothing says when MPI is done with them (a worker may
     * take the last stop message, or an ask that crossed its FINAL, after
     * this returns, and a library may pack a queued send only then); a
     * few KiB a worker, once a job */
    free(d.told);
    free(d.state);
    free(d.takes);
    free(d.counted);
    free(d.heard);
    return st;
}

/* Every rank compares its plan and wire format with rank 0's (ranks
 * started with other arguments, or another build), and all learn the
 * lowest rank that differs: all return, none counts a wrong board. */
static nq_status agree(const nq_plan *plan, int rank, nq_mpi_failure *f)
{
    uint64_t mine[2] = {nq_plan_identity(plan), WIRE}, root[2] = {mine[0], WIRE};
    int differs, first;
    MPI_Bcast(root, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    differs = root[0] != mine[0] || root[1] != mine[1] ? rank : INT_MAX;
    MPI_Allreduce(&differs, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT_MAX)
        return NQ_OK;
    f->rank = first, f->status = NQ_ERR_MISMATCH;
    return NQ_ERR_MISMATCH;
}

/* Every rank's machine name, for rank 0 to name a lost one (NULL
 * elsewhere, or without memory: then rank 0 names none). */
static char *gather_hosts(int rank, int size)
{
    char mine[MPI_MAX_PROCESSOR_NAME] = "", name[HOST_MAX] = "";
    int len;
    MPI_Get_processor_name(mine, &len);
    snprintf(name, sizeof name, "%s", mine);
    char *all = rank == 0 ? calloc((size_t)size, HOST_MAX) : NULL;
    char *into = all ? all : calloc((size_t)size, HOST_MAX);
    MPI_Gather(name, HOST_MAX, MPI_CHAR, into, HOST_MAX, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    if (into != all)
        free(into);
    return all;
}

/* A run (journal.h) on the wire: id and pid, 8 bytes little-endian each,
 * then host, engine and kernel, each in its field's bytes, zero-padded:
 * the same bytes on any machine. */
#define RUN_BYTES (8 + 8 + 64 + 32 + 16)

static void run_to_wire(const nq_jf_run *r, unsigned char *b)
{
    memset(b, 0, RUN_BYTES);
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(r->id >> 8 * i);
        b[8 + i] = (unsigned char)((uint64_t)r->pid >> 8 * i);
    }
    memcpy(b + 16, r->host, strnlen(r->host, 63));
    memcpy(b + 80, r->engine, strnlen(r->engine, 31));
    memcpy(b + 112, r->kernel, strnlen(r->kernel, 15));
}

static void run_from_wire(const unsigned char *b, nq_jf_run *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 8; i++) {
        r->id |= (uint64_t)b[i] << 8 * i;
        r->pid = (long)((uint64_t)r->pid | (uint64_t)b[8 + i] << 8 * i);
    }
    r->id |= !r->id; /* 0 is "not known" */
    /* each field a word of the line rank 0 writes, whatever was sent */
    nq_jf_word(r->host, sizeof r->host, (const char *)b + 16);
    nq_jf_word(r->engine, sizeof r->engine, (const char *)b + 80);
    nq_jf_word(r->kernel, sizeof r->kernel, (const char *)b + 112);
}

/* The fast kernel this rank counts with (NULL: an engine without
 * kernels), as its run line names it. */
static const char *kernel_of(const nq_plan *plan)
{
    if (!(plan->engine->caps & NQ_CAP_KERNEL))
        return NULL;
    return plan->kernel ? plan->kernel->name : nq_kernel_current();
}

/* Every rank's run, for rank 0 to record each worker's units under its
 * own run line (doc/journal-format.md, "Run lines"): a random id, the
 * rank's host name and pid, its engine and kernel, its rank (NULL
 * elsewhere, or without memory: then rank 0 records them as its own).
 * Ids are drawn by each rank; rank 0 makes any two that meet apart. */
static nq_jf_run *gather_runs(const nq_plan *plan, int rank, int size)
{
    nq_jf_run mine;
    unsigned char wire[RUN_BYTES];
    nq_jf_run_here(&mine, plan->engine->name, kernel_of(plan));
    run_to_wire(&mine, wire);
    unsigned char *all = rank == 0 ? calloc((size_t)size, RUN_BYTES) : NULL;
    unsigned char *into = all ? all : calloc((size_t)size, RUN_BYTES);
    nq_jf_run *runs = all ? calloc((size_t)size, sizeof *runs) : NULL;
    MPI_Gather(wire, RUN_BYTES, MPI_BYTE, into, RUN_BYTES, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    if (into != all)
        free(into);
    for (int r = 0; runs && r < size; r++) {
        run_from_wire(all + (size_t)r * RUN_BYTES, &runs[r]);
        runs[r].rank = r;
        for (int k = 0; k < r; k++)
            if (runs[k].id == runs[r].id) /* 1 in 2^63: made apart */
                runs[r].id = (runs[r].id + 2) | 1, k = -1;
    }
    free(all);
    return runs;
}

/* Every rank's counting threads, for rank 0 to size their queues (NULL
 * elsewhere, or without memory: then the schedule counts one each). */
static int *gather_threads(int threads, int rank, int size)
{
    int *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    int *into = all ? all : calloc((size_t)size, sizeof *into);
    MPI_Gather(&threads, 1, MPI_INT, into, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (into != all)
        free(into);
    return all;
}

/* See mpi_runner.h.  The check of the plan, the choice of threads and the
 * names of the machines are collective, so every rank makes them before
 * going its own way.  Errors are returned, not fatal, while it runs: a
 * message to a rank that has died must not end the job. */
nq_status nq_mpi_run(const nq_plan *plan, const nq_run_options *o,
                     const nq_mpi_options *mo, nq_journal *journal,
                     nq_tally *sum, int *is_root, nq_mpi_failure *failure)
{
    nq_mpi_failure unused;
    int rank, size;
    if (!failure)
        failure = &unused;
    *failure = (nq_mpi_failure){.rank = -1, .status = NQ_OK};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *is_root = rank == 0;
    nq_status st = agree(plan, rank, failure);
    if (st != NQ_OK)
        return st;
    int threads = worker_threads(o->threads, size);
    char *hosts = gather_hosts(rank, size);
    int *all_threads = gather_threads(threads, rank, size);
    nq_jf_run *runs = gather_runs(plan, rank, size);
    MPI_Errhandler was;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &was);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank != 0) {
        if ((st = worker(plan, threads, mo->worker_timeout)) != NQ_OK)
            failure->rank = rank, failure->status = st;
    } else if (size == 1) { /* no workers: run here */
        st = nq_plan_run(plan, o, sum);
    } else {
        st = coordinate(plan, o, mo, journal, hosts, runs, all_threads, sum,
                        size - 1, failure);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, was);
    MPI_Errhandler_free(&was);
    free(hosts);
    free(all_threads);
    free(runs);
    return st;
}

nq_status nq_mpi_read_options(const nq_mpi_options *given,
                              nq_mpi_options *mo)
{
    nq_mpi_options none = NQ_MPI_OPTIONS_INIT;
    nq_status st = nq_sized_read(given ? given : &none,
                                 offsetof(nq_mpi_options, on_lost), mo,
                                 sizeof *mo);
    if (st != NQ_OK)
        return st;
    if (mo->worker_timeout == 0)
        mo->worker_timeout = NQ_MPI_TIMEOUT_DEFAULT;
    return mo->worker_timeout >= 1 && mo->worker_timeout < 1e9 ? NQ_OK
                                                               : NQ_ERR_ARG;
}

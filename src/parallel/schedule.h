/*
 * schedule.h - which units go to which worker of a cluster, and when
 * (schedule.c).  Pure bookkeeping: no MPI, no clock, no threads, so that
 * nqueens-mpi's rank 0 and the simulator of a cluster
 * (bench/sim_cluster.c) make every decision with the same code.
 *
 * Workers are numbered 1..workers (MPI ranks).  Units are ids below
 * `space` with an estimated cost in seconds on one reference core.
 */
#ifndef NQ_SCHEDULE_H
#define NQ_SCHEDULE_H

#include <stdint.h>

#include "../core/core.h"

typedef struct nq_schedule nq_schedule;

/* What a worker asking for work is answered. */
enum {
    NQ_SCHED_BATCH, /* `count` ids: its batch */
    NQ_SCHED_WAIT,  /* nothing now: hold the request (with a donor: ask it
                       for the `count` ids first, nq_schedule_given) */
    NQ_SCHED_END    /* nothing more will come: an empty batch */
};

typedef struct {
    int kind;
    uint32_t count; /* ids written */
    int donor;      /* WAIT: the worker asked to give ids back, or 0 */
} nq_sched_answer;

/* A schedule of the `count` units ids[] (each below `space`, none twice)
 * whose estimated seconds are seconds[i] (negative: unknown; such units
 * cost a hair more than the largest known, and so go first), for `workers`
 * workers of threads[w] threads (threads[0] unused; NULL: one each).
 * queue_seconds: the most estimated seconds a worker holds per thread
 * beyond one unit per thread and one spare (0: NQ_SCHED_QUEUE_SECONDS).
 * NQ_ERR_NOMEM, or NQ_ERR_ARG for ids out of range or over 2^32 - 2. */
#define NQ_SCHED_QUEUE_SECONDS 10.0
nq_status nq_schedule_new(const uint64_t *ids, const double *seconds,
                          uint64_t count, uint64_t space, int workers,
                          const int *threads, double queue_seconds,
                          nq_schedule **out);
void nq_schedule_free(nq_schedule *s);

/* Answer worker w's request for at most max ids (into ids[]).  Largest
 * estimate first; a worker is filled while it holds fewer units than its
 * threads plus one, or fewer estimated seconds than its threads times
 * the queue bound (which shrinks as the work runs out: a quarter of the
 * fair share left per thread).  A request not answered at once is held; with
 * nothing left to hand out, the worker with the longest queue behind its
 * running units is named donor, and ids are the unstarted-looking units
 * of its queue's tail that rank 0 asks it to give back. */
nq_sched_answer nq_schedule_request(nq_schedule *s, int w, uint64_t *ids,
                                    uint32_t max);

/* A held request that can be answered now (units came back, the end, a
 * stop), or 0: call nq_schedule_request for it. */
int nq_schedule_wakeable(nq_schedule *s);
/* Whether w's request is held. */
int nq_schedule_waiting(const nq_schedule *s, int w);

/* Worker w finished unit id: 0 if w did not hold it (a bug upstream). */
int nq_schedule_done(nq_schedule *s, int w, uint64_t id);

/* Donor d answered an ask (nq_schedule_request's donor): these of the
 * asked ids it had not started, now to be handed out again first; the
 * rest stay its.  Ids it does not hold are refused (0).  Returns 1, or
 * 0 for a bad id (the others are taken). */
int nq_schedule_given(nq_schedule *s, int d, const uint64_t *ids,
                      uint32_t count);

/* Worker w is lost: every unit it holds goes back among those left to
 * hand out (largest first, as they all go); returns how many. */
uint64_t nq_schedule_lose(nq_schedule *s, int w);
/* Worker w has ended (its last report): no more asks of it. */
void nq_schedule_retire(nq_schedule *s, int w);
/* No more hand-outs (a stop, a failure, the budget): every held request
 * becomes wakeable and is answered NQ_SCHED_END. */
void nq_schedule_stop(nq_schedule *s);

/* Units handed out and not done (taken back ones excepted); units not
 * handed out; take-backs asked and units given back so far. */
uint64_t nq_schedule_in_flight(const nq_schedule *s);
uint64_t nq_schedule_left(const nq_schedule *s);
uint64_t nq_schedule_asks(const nq_schedule *s);
uint64_t nq_schedule_given_back(const nq_schedule *s);
/* The cost the schedule uses for unit id (after unknowns were set). */
double nq_schedule_cost(const nq_schedule *s, uint64_t id);

#endif

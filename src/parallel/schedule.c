/*
 * schedule.c - which units go to which worker of a cluster, and when.
 *
 * Three rules keep every machine busy to the end of a count:
 *
 * - Largest first (LPT): units are handed out by estimated seconds,
 *   descending, so the run ends on small units, not on one that started
 *   late.
 * - A worker's queue is bounded by time, not by count: it is filled while
 *   it holds fewer units than threads plus one spare (so no thread waits
 *   for a round trip), or fewer estimated seconds than its threads times
 *   a bound; the bound is the smaller of queue_seconds and a quarter of
 *   the fair share of the work not yet handed out per thread of the whole
 *   cluster, so that near the end nobody hoards what another could start
 *   (nor loses much with its machine).  (By count,
 *   4T+4 units a worker, a cluster of a few hundred machines took the
 *   whole plan of N = 28 in its first seconds.)
 * - The tail is taken back: a worker that asks when nothing is left to
 *   hand out while another holds units behind its running ones names that
 *   donor (the one with most estimated seconds per thread) and the units
 *   at its queue's tail, about the share that evens the two out.  Only the
 *   donor knows which it has started, so it answers with those it gives
 *   up (nq_schedule_given); until then they stay its, so no unit is ever
 *   held by two workers or by none.
 *
 * Everything is O(1) or O(log units) per unit handed out or done (a heap
 * of units taken back, one sorted array for the rest, a doubly linked
 * list per worker of the units it holds, in the order it starts them);
 * only choosing a donor looks at every worker, once per idle request at
 * the end.  Memory: 16 bytes per id of the space, 8 per unit while
 * sorting.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

#define NONE UINT32_MAX

typedef struct {
    int threads;
    uint32_t head, tail, held; /* its units, in the order it starts them */
    double seconds;            /* their estimated seconds */
    char waiting;              /* a request held */
    char in[2];                /* in the ready ring, the starving ring */
    char gone;                 /* lost or ended */
    int asked_by;              /* an ask of this donor is out, for that
                                  worker (0: none) */
    int asking;                /* this worker awaits a donor's answer */
} worker_book;

/* A ring of workers whose held requests may be answered (each at most
 * once in it: in[which]). */
typedef struct {
    int *w;
    uint32_t head, count, cap;
    int which;
} ring;

struct nq_schedule {
    uint32_t space;
    float *cost;               /* per id */
    int32_t *owner;            /* per id: its worker, or 0 */
    uint32_t *prev, *next;     /* per id: its worker's list */
    uint32_t *order, count, at; /* not yet handed out: order[at..count) */
    uint32_t *back, nback;     /* taken back: a heap, largest first */
    double left_seconds;       /* estimated seconds not handed out */
    uint64_t in_flight, asks, given_back;
    double queue_seconds;
    long total_threads;
    int workers, stopped;
    worker_book *wb;
    ring ready;                /* rechecked requests (units done, a donor's
                                  answer, a stop) */
    ring starving;             /* requests that found nothing left */
};

static void ring_push(ring *r, worker_book *b, int w)
{
    if (b->in[r->which])
        return;
    r->w[(r->head + r->count++) % r->cap] = w;
    b->in[r->which] = 1;
}

/* First in line: the worker a donor just gave units back for, so that
 * they go to it and not back to the donor. */
static void ring_push_front(ring *r, worker_book *b, int w)
{
    if (b->in[r->which])
        return;
    r->head = (r->head + r->cap - 1) % r->cap, r->count++;
    r->w[r->head] = w;
    b->in[r->which] = 1;
}

static int ring_pop(ring *r, worker_book *wb)
{
    while (r->count) {
        int w = r->w[r->head];
        r->head = (r->head + 1) % r->cap, r->count--;
        wb[w].in[r->which] = 0;
        if (wb[w].waiting && !wb[w].gone)
            return w;
    }
    return 0;
}

/* Larger cost first, then lower id: one order on every machine. */
static int before(const nq_schedule *s, uint32_t a, uint32_t b)
{
    return s->cost[a] > s->cost[b] || (s->cost[a] == s->cost[b] && a < b);
}

static void heap_push(nq_schedule *s, uint32_t id)
{
    uint32_t i = s->nback++;
    while (i && before(s, id, s->back[(i - 1) / 2])) {
        s->back[i] = s->back[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->back[i] = id;
}

static uint32_t heap_pop(nq_schedule *s)
{
    uint32_t top = s->back[0], last = s->back[--s->nback], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= s->nback)
            break;
        if (c + 1 < s->nback && before(s, s->back[c + 1], s->back[c]))
            c++;
        if (!before(s, s->back[c], last))
            break;
        s->back[i] = s->back[c], i = c;
    }
    if (s->nback)
        s->back[i] = last;
    return top;
}

typedef struct {
    float cost;
    uint32_t id;
} keyed;

static int by_cost(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The units' costs (unknown: the largest known, or 1 s if none is) and
 * their order, largest first. */
static nq_status sort_units(nq_schedule *s, const uint64_t *ids,
                            const double *seconds)
{
    double largest = 0;
    for (uint32_t i = 0; i < s->count; i++)
        largest = seconds[i] > largest ? seconds[i] : largest;
    largest = largest > 0 ? largest : 1;
    keyed *k = malloc((s->count ? s->count : 1) * sizeof *k);
    if (!k)
        return NQ_ERR_NOMEM;
    float unknown = (float)(largest * (1 + 0x1p-20)); /* before them all */
    for (uint32_t i = 0; i < s->count; i++) {
        k[i].id = (uint32_t)ids[i];
        k[i].cost = seconds[i] < 0 ? unknown : (float)seconds[i];
        s->cost[k[i].id] = k[i].cost;
        s->left_seconds += k[i].cost;
    }
    qsort(k, s->count, sizeof *k, by_cost);
    for (uint32_t i = 0; i < s->count; i++)
        s->order[i] = k[i].id;
    free(k);
    return NQ_OK;
}

nq_status nq_schedule_new(const uint64_t *ids, const double *seconds,
                          uint64_t count, uint64_t space, int workers,
                          const int *threads, double queue_seconds,
                          nq_schedule **out)
{
    *out = NULL;
    if (space >= NONE || count > space || workers < 1)
        return NQ_ERR_ARG;
    for (uint64_t i = 0; i < count; i++)
        if (ids[i] >= space)
            return NQ_ERR_ARG;
    nq_schedule *s = calloc(1, sizeof *s);
    if (!s)
        return NQ_ERR_NOMEM;
    size_t n = space ? space : 1, c = count ? count : 1;
    s->space = (uint32_t)space, s->count = (uint32_t)count;
    s->workers = workers;
    s->queue_seconds = queue_seconds > 0 ? queue_seconds
                                         : NQ_SCHED_QUEUE_SECONDS;
    s->cost = calloc(n, sizeof *s->cost);
    s->owner = calloc(n, sizeof *s->owner);
    s->prev = malloc(n * sizeof *s->prev);
    s->next = malloc(n * sizeof *s->next);
    s->order = malloc(c * sizeof *s->order);
    s->back = malloc(c * sizeof *s->back);
    s->wb = calloc((size_t)workers + 1, sizeof *s->wb);
    s->ready.w = malloc(((size_t)workers + 1) * sizeof *s->ready.w);
    s->starving.w = malloc(((size_t)workers + 1) * sizeof *s->starving.w);
    s->ready.cap = s->starving.cap = (uint32_t)workers + 1;
    s->starving.which = 1;
    nq_status st = NQ_ERR_NOMEM;
    if (s->cost && s->owner && s->prev && s->next && s->order && s->back &&
        s->wb && s->ready.w && s->starving.w)
        st = sort_units(s, ids, seconds);
    if (st != NQ_OK) {
        nq_schedule_free(s);
        return st;
    }
    for (int w = 1; w <= workers; w++) {
        s->wb[w].threads = threads && threads[w] > 0 ? threads[w] : 1;
        s->wb[w].head = s->wb[w].tail = NONE;
        s->total_threads += s->wb[w].threads;
    }
    *out = s;
    return NQ_OK;
}

void nq_schedule_free(nq_schedule *s)
{
    if (!s)
        return;
    free(s->cost);
    free(s->owner);
    free(s->prev);
    free(s->next);
    free(s->order);
    free(s->back);
    free(s->wb);
    free(s->ready.w);
    free(s->starving.w);
    free(s);
}

static uint64_t left(const nq_schedule *s)
{
    return (uint64_t)(s->count - s->at) + s->nback;
}

/* The next unit to hand out: the larger of the heap's top (units taken
 * back) and the sorted array's next. */
static uint32_t take_next(nq_schedule *s)
{
    if (s->nback && (s->at == s->count ||
                     before(s, s->back[0], s->order[s->at])))
        return heap_pop(s);
    return s->order[s->at++];
}

static void hold(nq_schedule *s, int w, uint32_t id)
{
    worker_book *b = &s->wb[w];
    s->owner[id] = w;
    s->prev[id] = b->tail, s->next[id] = NONE;
    if (b->tail != NONE)
        s->next[b->tail] = id;
    else
        b->head = id;
    b->tail = id, b->held++, b->seconds += s->cost[id];
    s->in_flight++;
}

static void unhold(nq_schedule *s, uint32_t id)
{
    worker_book *b = &s->wb[s->owner[id]];
    if (s->prev[id] != NONE)
        s->next[s->prev[id]] = s->next[id];
    else
        b->head = s->next[id];
    if (s->next[id] != NONE)
        s->prev[s->next[id]] = s->prev[id];
    else
        b->tail = s->prev[id];
    b->held--, b->seconds -= s->cost[id];
    if (b->held == 0 || b->seconds < 0)
        b->seconds = 0; /* no rounding left over */
    s->owner[id] = 0;
    s->in_flight--;
}

/* A unit back to be handed out first (taken back or lost). */
static void give_back(nq_schedule *s, uint32_t id)
{
    unhold(s, id);
    heap_push(s, id);
    s->left_seconds += s->cost[id];
}

/* Fill w's queue up to the bound; the ids handed out. */
static uint32_t fill(nq_schedule *s, int w, uint64_t *ids, uint32_t max)
{
    worker_book *b = &s->wb[w];
    double share = s->left_seconds / (4.0 * (double)s->total_threads);
    double bound = b->threads * (share < s->queue_seconds ? share
                                                          : s->queue_seconds);
    uint32_t n = 0;
    while (n < max && left(s) &&
           (b->held < (uint32_t)b->threads + 1 || b->seconds < bound)) {
        uint32_t id = take_next(s);
        s->left_seconds -= s->cost[id];
        hold(s, w, id);
        ids[n++] = id;
    }
    if (!left(s))
        s->left_seconds = 0;
    return n;
}

/* The donor for idle worker w: most estimated seconds per thread among
 * the workers holding units behind their running ones (0: none). */
static int choose_donor(const nq_schedule *s, int w)
{
    int best = 0;
    double most = 0;
    for (int d = 1; d <= s->workers; d++) {
        const worker_book *b = &s->wb[d];
        if (d == w || b->gone || b->asked_by ||
            b->held <= (uint32_t)b->threads)
            continue;
        double per = b->seconds / b->threads;
        if (!best || per > most)
            best = d, most = per;
    }
    return best;
}

/* The ids to ask donor d for, for worker w: from its queue's tail (the
 * last it would start), never its first `threads` units (running, most
 * likely), about the share that would end both together, and no more
 * than w takes at once (a unit a thread and a spare). */
static uint32_t tail_of(const nq_schedule *s, int d, int w, uint64_t *ids,
                        uint32_t max)
{
    const worker_book *b = &s->wb[d];
    double target = b->seconds * s->wb[w].threads /
                    (b->threads + s->wb[w].threads);
    uint32_t spare = b->held - (uint32_t)b->threads, n = 0;
    uint32_t takes = (uint32_t)s->wb[w].threads + 1;
    max = max < takes ? max : takes;
    double moved = 0;
    for (uint32_t id = b->tail; id != NONE && n < spare && n < max;
         id = s->prev[id]) {
        if (n && moved + s->cost[id] > target)
            break;
        moved += s->cost[id];
        ids[n++] = id;
    }
    return n;
}

nq_sched_answer nq_schedule_request(nq_schedule *s, int w, uint64_t *ids,
                                    uint32_t max)
{
    nq_sched_answer a = {NQ_SCHED_END, 0, 0};
    worker_book *b = &s->wb[w];
    b->waiting = 0;
    if (s->stopped || b->gone)
        return a;
    if ((a.count = fill(s, w, ids, max)) > 0) {
        a.kind = NQ_SCHED_BATCH;
        return a;
    }
    if (!left(s) && !s->in_flight)
        return a;
    a.kind = NQ_SCHED_WAIT;
    b->waiting = 1;
    if (left(s))
        return a; /* full: asked again as its units are done */
    ring_push(&s->starving, b, w);
    int d = b->asking ? 0 : choose_donor(s, w);
    if (d && (a.count = tail_of(s, d, w, ids, max)) > 0) {
        a.donor = d;
        s->wb[d].asked_by = w, b->asking = d;
        s->asks++;
    }
    return a;
}

int nq_schedule_wakeable(nq_schedule *s)
{
    int w = ring_pop(&s->ready, s->wb);
    if (!w && (left(s) || s->stopped || !s->in_flight))
        w = ring_pop(&s->starving, s->wb);
    return w;
}

int nq_schedule_waiting(const nq_schedule *s, int w)
{
    return s->wb[w].waiting;
}

int nq_schedule_done(nq_schedule *s, int w, uint64_t id)
{
    if (id >= s->space || s->owner[id] != w || w <= 0)
        return 0;
    unhold(s, (uint32_t)id);
    if (s->wb[w].waiting)
        ring_push(&s->ready, &s->wb[w], w);
    return 1;
}

/* The ask of donor d is over (answered, or d gone): its asker asks
 * again, if it still waits. */
static void ask_over(nq_schedule *s, int d)
{
    int r = s->wb[d].asked_by;
    s->wb[d].asked_by = 0;
    if (!r)
        return;
    s->wb[r].asking = 0;
    if (s->wb[r].waiting && !s->wb[r].gone) {
        ring_push_front(&s->ready, &s->wb[r], r);
    }
}

int nq_schedule_given(nq_schedule *s, int d, const uint64_t *ids,
                      uint32_t count)
{
    int ok = 1;
    for (uint32_t i = 0; i < count; i++) {
        if (ids[i] >= s->space || s->owner[ids[i]] != d || d <= 0) {
            ok = 0;
            continue;
        }
        give_back(s, (uint32_t)ids[i]);
        s->given_back++;
    }
    ask_over(s, d);
    return ok;
}

uint64_t nq_schedule_lose(nq_schedule *s, int w)
{
    uint64_t back = 0;
    while (s->wb[w].head != NONE)
        give_back(s, s->wb[w].head), back++;
    nq_schedule_retire(s, w);
    return back;
}

void nq_schedule_retire(nq_schedule *s, int w)
{
    s->wb[w].gone = 1, s->wb[w].waiting = 0;
    ask_over(s, w);
}

void nq_schedule_stop(nq_schedule *s)
{
    s->stopped = 1;
    for (int w = 1; w <= s->workers; w++)
        if (s->wb[w].waiting && !s->wb[w].gone)
            ring_push(&s->ready, &s->wb[w], w);
}

uint64_t nq_schedule_in_flight(const nq_schedule *s) { return s->in_flight; }
uint64_t nq_schedule_left(const nq_schedule *s) { return left(s); }
uint64_t nq_schedule_asks(const nq_schedule *s) { return s->asks; }
uint64_t nq_schedule_given_back(const nq_schedule *s) { return s->given_back; }

double nq_schedule_cost(const nq_schedule *s, uint64_t id)
{
    return id < s->space ? s->cost[id] : -1;
}

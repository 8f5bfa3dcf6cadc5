/*
 * sim_cluster.c - nqueens-mpi's scheduling on a simulated cluster: make
 * sim-cluster.
 *
 * The plan is the real one (nq_plan_create, so pieces come in with the
 * plan), each unit's estimate is the real one (nq_plan_unit_seconds), and
 * every decision of rank 0 is made by the real scheduler
 * (src/parallel/schedule.c, the functions nqueens-mpi's rank 0 calls).
 * Only time and the workers are simulated: an event queue of thread
 * completions and messages, each message taking --latency seconds.  A
 * worker behaves as mpi_runner.c's: T threads take units from its queue
 * in the order they came, it reports each unit done, keeps one request
 * for work out, and answers an ask for units back with those of them it
 * has not started.
 *
 * A unit's real time is its estimate times a log-normal error,
 * exp(sigma z) with z a standard normal drawn from the unit's id (the
 * same every run; --sigma, 0.3 by default), so that the estimate's error
 * is part of the simulation.  Units without an estimate (fast's two
 * fixed-point units, small searches in truth) run for the mean estimate
 * of a unit.
 *
 * --old runs the rule nqueens-mpi had before the scheduler as a baseline
 * beside it (old_*, below, and nowhere else): a worker asks while fewer
 * than 4T+4 units wait in its queue, rank 0 hands out units in plan
 * order, rest / (workers * 16) + 1 at a time (at most 256), and nothing
 * is taken back.
 *
 * --split S: the plan cut into pieces of S seconds at most, as a count
 * given --max-unit-seconds S makes it (nq_request.max_unit_seconds); the
 * plan's units whole without it.
 *
 * One line per case: efficiency (busy thread-seconds over nodes x threads
 * x wall), wall, ideal (busy / threads), units, the largest unit's real
 * time, the take-backs asked and units given back, rank 0's messages per
 * simulated second (requests, batches, reports, asks, answers, and a ping
 * and its answer per worker per second) and the CPU time rank 0's
 * scheduler calls took, measured, per simulated second.  --check fails
 * (exit 1) unless every unit was handed out, started and done exactly
 * once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens.h"
#include "../src/engines/engine.h"
#include "../src/parallel/schedule.h"

#define BATCH_MAX 256 /* mpi_runner.c's */

typedef struct {
    int from, to, threads, old, check;
    double sigma, latency, split;
    int nodes[16], nnodes;
} options;

/* ---- the units ---- */

typedef struct {
    uint64_t count;
    double *est;  /* the estimates the scheduler gets */
    double *real; /* the simulated times */
} units;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A standard normal drawn from key (Box-Muller). */
static double normal(uint64_t key)
{
    double u = ((mix(key) >> 11) + 0.5) * 0x1p-53;
    double v = (mix(key ^ 0x5bd1e995) >> 11) * 0x1p-53;
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The plan of n, cut into pieces of `split` seconds at most by the plan
 * itself (nq_request.max_unit_seconds; whole units without --split), its
 * estimates, and the simulated times. */
static int make_units(int n, const options *o, units *u)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = "fast",
                      .max_unit_seconds = o->split > 0 ? o->split : -1};
    nq_plan *plan;
    if (nq_plan_create(&req, &plan) != NQ_OK)
        return 0;
    uint64_t count = nq_plan_units(plan), known = 0;
    double sum = 0;
    u->count = count;
    u->est = malloc(count * sizeof *u->est);
    u->real = malloc(count * sizeof *u->real);
    for (uint64_t i = 0; i < count; i++) {
        u->est[i] = nq_plan_unit_seconds(plan, i);
        if (u->est[i] >= 0)
            sum += u->est[i], known++;
    }
    nq_plan_free(plan);
    double mean = known ? sum / known : 1;
    for (uint64_t k = 0; k < count; k++) {
        double base = u->est[k] < 0 ? mean : u->est[k];
        u->real[k] = base * exp(o->sigma * normal((uint64_t)n << 48 ^ k));
    }
    return 1;
}

/* ---- events ---- */

enum { DONE, AT_ROOT, BATCH, TAKE, GIVEN_BACK };

typedef struct {
    double t;
    uint64_t seq;
    int kind, w;
    uint32_t unit;  /* DONE, AT_ROOT: a unit (UINT32_MAX: none) */
    int want;       /* AT_ROOT: a request for work */
    uint64_t *ids;  /* BATCH, TAKE, GIVEN_BACK: the ids (malloc'd) */
    uint32_t nids;
} event;

typedef struct {
    event *e;
    size_t n, cap;
    uint64_t seq;
} queue;

static int earlier(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void push(queue *q, event e)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 1024;
        q->e = realloc(q->e, q->cap * sizeof *q->e);
    }
    e.seq = q->seq++;
    size_t i = q->n++;
    while (i && earlier(&e, &q->e[(i - 1) / 2])) {
        q->e[i] = q->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->e[i] = e;
}

static event pop(queue *q)
{
    event top = q->e[0], last = q->e[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && earlier(&q->e[c + 1], &q->e[c]))
            c++;
        if (!earlier(&q->e[c], &last))
            break;
        q->e[i] = q->e[c], i = c;
    }
    if (q->n)
        q->e[i] = last;
    return top;
}

/* ---- the workers and the run ---- */

typedef struct {
    uint32_t *q;
    size_t head, count, cap; /* its queue: q[head .. count) */
    int idle, asked, no_more;
} worker;

typedef struct {
    const options *o;
    const units *u;
    int nodes, old;
    worker *w;
    queue ev;
    nq_schedule *s;
    double now, wall, cpu;
    uint64_t msgs, asks, given;
    unsigned char *started, *done;
    int bad;
    /* the old rule's rank 0 */
    uint64_t old_next, old_in_flight;
    char *old_waiting;
} sim;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void send(sim *m, event e)
{
    e.t = m->now + m->o->latency;
    m->msgs++;
    push(&m->ev, e);
}

static uint64_t *copy_ids(const uint64_t *ids, uint32_t n)
{
    uint64_t *c = malloc((n ? n : 1) * sizeof *c);
    memcpy(c, ids, n * sizeof *c);
    return c;
}

/* The old rule's worker asks while fewer than 4T+4 units wait; the
 * scheduler's keeps one request out. */
static void maybe_ask(sim *m, int w)
{
    worker *k = &m->w[w];
    size_t waiting = k->count - k->head;
    int low = m->old ? waiting < 4 * (size_t)m->o->threads + 4 : 1;
    if (k->asked || k->no_more || !low)
        return;
    k->asked = 1;
    send(m, (event){.kind = AT_ROOT, .w = w, .unit = UINT32_MAX, .want = 1});
}

/* Idle threads of w start the next units of its queue. */
static void start_units(sim *m, int w)
{
    worker *k = &m->w[w];
    while (k->idle && k->head < k->count) {
        uint32_t id = k->q[k->head++];
        k->idle--;
        m->started[id]++;
        push(&m->ev, (event){.t = m->now + m->u->real[id], .kind = DONE,
                             .w = w, .unit = id});
    }
}

/* ---- the old rule (the baseline only) ---- */

static void old_serve(sim *m, int w)
{
    uint64_t rest = m->u->count - m->old_next, size = 0;
    if (!rest && m->old_in_flight) {
        m->old_waiting[w] = 1;
        return;
    }
    size = rest / ((uint64_t)m->nodes * 16) + 1;
    size = size > BATCH_MAX ? BATCH_MAX : rest ? size : 0;
    uint64_t *ids = malloc((size ? size : 1) * sizeof *ids);
    for (uint64_t i = 0; i < size; i++)
        ids[i] = m->old_next++;
    m->old_in_flight += size;
    send(m, (event){.kind = BATCH, .w = w, .ids = ids, .nids = (uint32_t)size});
}

static void old_at_root(sim *m, const event *e)
{
    if (e->unit != UINT32_MAX && --m->old_in_flight == 0 &&
        m->old_next == m->u->count)
        for (int w = 1; w <= m->nodes; w++)
            if (m->old_waiting[w])
                m->old_waiting[w] = 0, old_serve(m, w);
    if (e->want)
        old_serve(m, e->w);
}

/* ---- rank 0 with the scheduler ---- */

static void serve(sim *m, int w)
{
    uint64_t ids[BATCH_MAX];
    double t0 = cpu_now();
    nq_sched_answer a = nq_schedule_request(m->s, w, ids, BATCH_MAX);
    m->cpu += cpu_now() - t0;
    if (a.kind == NQ_SCHED_WAIT && a.donor) {
        m->asks++;
        send(m, (event){.kind = TAKE, .w = a.donor,
                        .ids = copy_ids(ids, a.count), .nids = a.count});
    } else if (a.kind != NQ_SCHED_WAIT) {
        send(m, (event){.kind = BATCH, .w = w, .ids = copy_ids(ids, a.count),
                        .nids = a.count});
    }
}

static void wake(sim *m)
{
    for (;;) {
        double t0 = cpu_now();
        int w = nq_schedule_wakeable(m->s);
        m->cpu += cpu_now() - t0;
        if (!w)
            return;
        serve(m, w);
    }
}

static void at_root(sim *m, const event *e)
{
    if (e->unit != UINT32_MAX) {
        double t0 = cpu_now();
        m->bad |= !nq_schedule_done(m->s, e->w, e->unit);
        m->cpu += cpu_now() - t0;
    }
    if (e->want)
        serve(m, e->w);
    wake(m);
}

static void given_back(sim *m, const event *e)
{
    double t0 = cpu_now();
    m->bad |= !nq_schedule_given(m->s, e->w, e->ids, e->nids);
    m->cpu += cpu_now() - t0;
    m->given += e->nids;
    wake(m);
}

/* ---- the workers' side ---- */

static void batch(sim *m, const event *e)
{
    worker *k = &m->w[e->w];
    k->asked = 0;
    if (!e->nids)
        k->no_more = 1;
    if (k->count + e->nids > k->cap) {
        k->cap = 2 * (k->count + e->nids);
        k->q = realloc(k->q, k->cap * sizeof *k->q);
    }
    for (uint32_t i = 0; i < e->nids; i++)
        k->q[k->count++] = (uint32_t)e->ids[i];
    start_units(m, e->w);
    maybe_ask(m, e->w);
}

/* An ask for units back: those still waiting in the queue go back. */
static void take(sim *m, const event *e)
{
    worker *k = &m->w[e->w];
    uint64_t *given = malloc((e->nids ? e->nids : 1) * sizeof *given);
    uint32_t n = 0;
    size_t kept = k->head;
    for (size_t i = k->head; i < k->count; i++) {
        int asked = 0;
        for (uint32_t j = 0; j < e->nids && !asked; j++)
            asked = e->ids[j] == k->q[i];
        if (asked)
            given[n++] = k->q[i];
        else
            k->q[kept++] = k->q[i];
    }
    k->count = kept;
    send(m, (event){.kind = GIVEN_BACK, .w = e->w, .ids = given, .nids = n});
}

static void done(sim *m, const event *e)
{
    worker *k = &m->w[e->w];
    m->done[e->unit]++;
    m->wall = m->now;
    k->idle++;
    start_units(m, e->w);
    int want = !m->old && !k->asked && !k->no_more;
    k->asked |= want;
    send(m, (event){.kind = AT_ROOT, .w = e->w, .unit = e->unit, .want = want});
    maybe_ask(m, e->w);
}

typedef struct {
    double eff, wall, ideal, largest, msgs_per_s, cpu_per_s;
    uint64_t asks, given;
    int ok;
} outcome;

static outcome run(const options *o, const units *u, int nodes, int old)
{
    sim m = {.o = o, .u = u, .nodes = nodes, .old = old};
    outcome r = {0};
    uint64_t *ids = malloc(u->count * sizeof *ids);
    int *threads = malloc(((size_t)nodes + 1) * sizeof *threads);
    for (uint64_t i = 0; i < u->count; i++)
        ids[i] = i;
    for (int w = 0; w <= nodes; w++)
        threads[w] = o->threads;
    double t0 = cpu_now();
    if (!old && nq_schedule_new(ids, u->est, u->count, u->count, nodes,
                                threads, 0, &m.s) != NQ_OK) {
        fprintf(stderr, "nq-sim-cluster: no schedule\n");
        exit(1);
    }
    m.cpu += cpu_now() - t0;
    free(ids);
    free(threads);
    m.w = calloc((size_t)nodes + 1, sizeof *m.w);
    m.started = calloc(u->count, 1);
    m.done = calloc(u->count, 1);
    m.old_waiting = calloc((size_t)nodes + 1, 1);
    for (int w = 1; w <= nodes; w++) {
        m.w[w].idle = o->threads;
        maybe_ask(&m, w);
    }
    while (m.ev.n) {
        event e = pop(&m.ev);
        m.now = e.t;
        switch (e.kind) {
        case DONE: done(&m, &e); break;
        case AT_ROOT: old ? old_at_root(&m, &e) : at_root(&m, &e); break;
        case BATCH: batch(&m, &e); break;
        case TAKE: take(&m, &e); break;
        case GIVEN_BACK: given_back(&m, &e); break;
        }
        free(e.ids);
    }
    double busy = 0;
    r.ok = !m.bad;
    for (uint64_t i = 0; i < u->count; i++) {
        busy += u->real[i];
        r.largest = u->real[i] > r.largest ? u->real[i] : r.largest;
        r.ok &= m.started[i] == 1 && m.done[i] == 1;
    }
    if (!old)
        r.ok &= nq_schedule_in_flight(m.s) == 0 && nq_schedule_left(m.s) == 0;
    r.wall = m.wall;
    r.ideal = busy / ((double)nodes * o->threads);
    r.eff = m.wall > 0 ? r.ideal / m.wall : 1;
    r.asks = m.asks, r.given = m.given;
    r.msgs_per_s = m.wall > 0 ? m.msgs / m.wall + 2.0 * nodes : 0;
    r.cpu_per_s = m.wall > 0 ? m.cpu / m.wall : 0;
    for (int w = 0; w <= nodes; w++)
        free(m.w[w].q);
    free(m.w);
    free(m.started);
    free(m.done);
    free(m.old_waiting);
    free(m.ev.e);
    nq_schedule_free(m.s);
    return r;
}

/* Seconds in the unit that reads best. */
static const char *span(double s, char *buf)
{
    if (s >= 3600)
        sprintf(buf, "%.4gh", s / 3600);
    else if (s >= 1)
        sprintf(buf, "%.4gs", s);
    else
        sprintf(buf, "%.3gms", s * 1e3);
    return buf;
}

static int usage(void)
{
    fprintf(stderr, "usage: nq-sim-cluster [--from N] [--to N] [--nodes A,B,...] "
            "[--threads T] [--sigma S] [--latency S] [--split S] [--old] "
            "[--check]\n");
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--old") || !strcmp(a, "--check")) {
            *(a[2] == 'o' ? &o->old : &o->check) = 1;
            continue;
        }
        if (!v)
            return 0;
        i++;
        if (!strcmp(a, "--from"))
            o->from = atoi(v);
        else if (!strcmp(a, "--to"))
            o->to = atoi(v);
        else if (!strcmp(a, "--threads"))
            o->threads = atoi(v);
        else if (!strcmp(a, "--sigma"))
            o->sigma = atof(v);
        else if (!strcmp(a, "--latency"))
            o->latency = atof(v);
        else if (!strcmp(a, "--split"))
            o->split = atof(v);
        else if (!strcmp(a, "--nodes")) {
            o->nnodes = 0;
            for (char *s = (char *)v, *end; *s && o->nnodes < 16; s = end + (*end == ',')) {
                o->nodes[o->nnodes++] = (int)strtol(s, &end, 10);
                if (end == s)
                    return 0;
            }
        } else
            return 0;
    }
    return o->from >= 4 && o->to >= o->from && o->threads > 0 && o->nnodes > 0;
}

int main(int argc, char **argv)
{
    options o = {.from = 24, .to = 28, .threads = 32, .sigma = 0.3,
                 .latency = 0.001, .nodes = {10, 100, 1000, 10000},
                 .nnodes = 4};
    if (!parse(argc, argv, &o))
        return usage();
    int ok = 1;
    for (int n = o.from; n <= o.to; n++) {
        units u;
        double t0 = cpu_now();
        if (!make_units(n, &o, &u)) {
            fprintf(stderr, "nq-sim-cluster: no plan for N=%d\n", n);
            return 1;
        }
        double planned = cpu_now() - t0;
        for (int i = 0; i < o.nnodes; i++)
            for (int old = o.old; old >= 0; old--) {
                outcome r = run(&o, &u, o.nodes[i], old);
                char a[32], b[32], c[32];
                printf("N=%d nodes=%d threads=%d rule=%s efficiency=%.3f "
                       "wall=%s ideal=%s units=%llu largest=%s asks=%llu "
                       "given=%llu msgs/s=%.4g cpu/s=%.3g%s\n",
                       n, o.nodes[i], o.threads, old ? "old" : "new", r.eff,
                       span(r.wall, a), span(r.ideal, b),
                       (unsigned long long)u.count, span(r.largest, c),
                       (unsigned long long)r.asks,
                       (unsigned long long)r.given, r.msgs_per_s,
                       r.cpu_per_s, r.ok ? "" : " FAILED");
                fflush(stdout);
                ok &= r.ok;
            }
        fprintf(stderr, "N=%d: plan and estimates %.1f s\n", n, planned);
        free(u.est);
        free(u.real);
    }
    return o.check && !ok ? 1 : 0;
}

/*
 * test_schedule.c - nqueens-mpi's scheduler (src/parallel/schedule.c):
 * largest first, queues bounded by estimated seconds, unstarted units
 * taken back for an idle worker, a lost worker's units handed out again,
 * and every unit done exactly once through it all (a random cluster
 * driven to its end); and the simulator of a cluster built on it
 * (bench/sim_cluster.c) at a small size, against the rule it replaced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/parallel/schedule.h"

/* A schedule of n units of the given seconds (ids 0..n-1). */
static nq_schedule *make(const double *seconds, uint64_t n, int workers,
                         const int *threads, double queue)
{
    uint64_t ids[64];
    nq_schedule *s = NULL;
    for (uint64_t i = 0; i < n; i++)
        ids[i] = i;
    if (nq_schedule_new(ids, seconds, n, n, workers, threads, queue, &s) !=
        NQ_OK)
        t_fail(__FILE__, __LINE__, "no schedule");
    return s;
}

/* Largest estimate first, an unknown one (negative) before them all. */
static void largest_first(void *arg)
{
    (void)arg;
    double sec[6] = {1, 5, 3, -1, 4, 2};
    uint64_t ids[256], want[6] = {3, 1, 4, 2, 5, 0};
    int threads[2] = {0, 8};
    nq_schedule *s = make(sec, 6, 1, threads, 0);
    nq_sched_answer a = nq_schedule_request(s, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 6);
    for (int i = 0; i < 6; i++)
        CHECKF(ids[i] == want[i], "place %d: unit %llu", i,
               (unsigned long long)ids[i]);
    CHECK(nq_schedule_cost(s, 3) >= 5); /* the largest known, a hair more */
    nq_schedule_free(s);
}

/* A worker holds at most its threads times the queue bound in estimated
 * seconds (beyond a unit a thread and a spare), and is filled again as
 * its units are done. */
static void queue_by_time(void *arg)
{
    (void)arg;
    double sec[64];
    uint64_t ids[256];
    int threads[3] = {0, 4, 4};
    for (int i = 0; i < 64; i++)
        sec[i] = 1;
    nq_schedule *s = make(sec, 64, 2, threads, 1.5);
    nq_sched_answer a = nq_schedule_request(s, 1, ids, 256);
    CHECKF(a.kind == NQ_SCHED_BATCH && a.count == 6, "%u units, not 4 x 1.5",
           a.count);
    a = nq_schedule_request(s, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_WAIT && a.donor == 0);
    CHECK(nq_schedule_wakeable(s) == 0);
    CHECK(nq_schedule_done(s, 1, 0) == 1);
    CHECK(nq_schedule_done(s, 1, 0) == 0); /* done twice: refused */
    CHECK(nq_schedule_done(s, 2, 1) == 0); /* not its unit */
    CHECK(nq_schedule_wakeable(s) == 1);
    a = nq_schedule_request(s, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 1);
    /* near the end the bound is a quarter of the fair share of what is
     * left (8 x 100 s over 8 threads, a quarter: 25 s a thread), and a
     * worker still gets a unit a thread and a spare */
    double big[8] = {100, 100, 100, 100, 100, 100, 100, 100};
    nq_schedule *t = make(big, 8, 2, threads, 1000);
    a = nq_schedule_request(t, 1, ids, 256);
    CHECKF(a.kind == NQ_SCHED_BATCH && a.count == 5,
           "%u units: more than threads and a spare", a.count);
    nq_schedule_free(t);
    nq_schedule_free(s);
}

/* An idle worker with nothing left to hand out gets the units at the
 * tail of another's queue, once that one says it has not started them;
 * those it had started stay its. */
static void takes_back_tail(void *arg)
{
    (void)arg;
    double sec[4] = {10, 6, 3, 1};
    uint64_t ids[256], given[2];
    int threads[3] = {0, 1, 1};
    nq_schedule *s = make(sec, 4, 2, threads, 0);
    nq_sched_answer a = nq_schedule_request(s, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 2 && ids[0] == 0 &&
          ids[1] == 1);
    a = nq_schedule_request(s, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 2 && ids[0] == 2);
    CHECK(nq_schedule_done(s, 2, 2) && nq_schedule_done(s, 2, 3));
    a = nq_schedule_request(s, 2, ids, 256);
    CHECKF(a.kind == NQ_SCHED_WAIT && a.donor == 1 && a.count == 1 &&
               ids[0] == 1,
           "kind %d donor %d count %u", a.kind, a.donor, a.count);
    CHECK(nq_schedule_asks(s) == 1);
    /* worker 1 gives it up: worker 2 is woken and gets it */
    given[0] = 1;
    CHECK(nq_schedule_given(s, 1, given, 1));
    CHECK(nq_schedule_wakeable(s) == 2);
    a = nq_schedule_request(s, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 1 && ids[0] == 1);
    CHECK(nq_schedule_done(s, 1, 1) == 0); /* no longer 1's */
    CHECK(nq_schedule_given_back(s) == 1);
    /* an ask answered with nothing: the idle worker asks again, and
     * with no donor left it waits for the end */
    double two[2] = {5, 5};
    nq_schedule *t = make(two, 2, 2, threads, 0);
    a = nq_schedule_request(t, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 2);
    a = nq_schedule_request(t, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_WAIT && a.donor == 1 && ids[0] == 1);
    CHECK(nq_schedule_given(t, 1, NULL, 0));
    CHECK(nq_schedule_wakeable(t) == 2);
    a = nq_schedule_request(t, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_WAIT && a.donor == 1); /* still behind one */
    given[0] = 1;
    CHECK(nq_schedule_done(t, 1, 0) && nq_schedule_given(t, 1, NULL, 0));
    CHECK(nq_schedule_wakeable(t) == 2);
    a = nq_schedule_request(t, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_WAIT && a.donor == 0);
    CHECK(nq_schedule_done(t, 1, 1));
    CHECK(nq_schedule_wakeable(t) == 2);
    a = nq_schedule_request(t, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_END);
    nq_schedule_free(t);
    nq_schedule_free(s);
}

/* A lost worker's units go out again first, and a stop ends every held
 * request. */
static void lost_units_again(void *arg)
{
    (void)arg;
    double sec[6] = {9, 8, 7, 6, 5, 4};
    uint64_t ids[256];
    int threads[4] = {0, 1, 1, 1};
    nq_schedule *s = make(sec, 6, 3, threads, 0);
    nq_sched_answer a = nq_schedule_request(s, 1, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 2); /* 9, 8 */
    CHECK(nq_schedule_lose(s, 1) == 2);
    CHECK(nq_schedule_in_flight(s) == 0 && nq_schedule_left(s) == 6);
    a = nq_schedule_request(s, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_BATCH && a.count == 2 && ids[0] == 0 &&
          ids[1] == 1);
    CHECK(nq_schedule_request(s, 1, ids, 256).kind == NQ_SCHED_END);
    a = nq_schedule_request(s, 2, ids, 256);
    CHECK(a.kind == NQ_SCHED_WAIT);
    nq_schedule_stop(s);
    CHECK(nq_schedule_wakeable(s) == 2);
    CHECK(nq_schedule_request(s, 2, ids, 256).kind == NQ_SCHED_END);
    nq_schedule_free(s);
}

/* A random cluster run to its end: workers of 1 to 3 threads start units
 * in the order they came, finish them in random order, answer asks with
 * the units they have not started, and one is lost on the way; every
 * unit is done exactly once, by a worker the schedule said held it. */
typedef struct {
    uint64_t q[128];
    int head, count, running, asked, ended, lost;
} toy;

static void random_cluster(void *arg)
{
    (void)arg;
    enum { UNITS = 60, WORKERS = 5 };
    double sec[UNITS];
    int threads[WORKERS + 1] = {0}, done[UNITS] = {0}, pending[WORKERS + 1] = {0};
    uint64_t ids[256], ask[WORKERS + 1][256];
    uint32_t nask[WORKERS + 1] = {0};
    toy t[WORKERS + 1];
    uint64_t r = 12345;
    memset(t, 0, sizeof t);
    for (int i = 0; i < UNITS; i++)
        sec[i] = i % 7 == 0 ? -1 : 1 + (double)((i * 37) % 11);
    for (int w = 1; w <= WORKERS; w++)
        threads[w] = 1 + w % 3;
    nq_schedule *s = make(sec, UNITS, WORKERS, threads, 3);
    int steps = 0, bad = 0;
    for (; steps < 100000; steps++) {
        int live = 0;
        for (int w = 1; w <= WORKERS; w++)
            live += !t[w].ended && !t[w].lost;
        if (!live)
            break;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int w = 1 + (int)(r >> 33) % WORKERS, what = (int)(r >> 45) % 4;
        toy *k = &t[w];
        if (k->ended || k->lost)
            continue;
        if (steps == 300) { /* lose one, units in hand */
            nq_schedule_lose(s, w);
            k->lost = 1;
            continue;
        }
        if (what == 0 && !k->asked) { /* a request */
            nq_sched_answer a = nq_schedule_request(s, w, ids, 256);
            if (a.kind == NQ_SCHED_WAIT && a.donor) {
                memcpy(ask[a.donor], ids, a.count * sizeof *ids);
                nask[a.donor] = a.count, pending[a.donor] = 1;
            }
            k->asked = a.kind == NQ_SCHED_WAIT;
            k->ended = a.kind == NQ_SCHED_END;
            for (uint32_t i = 0; a.kind == NQ_SCHED_BATCH && i < a.count; i++)
                k->q[k->count++] = ids[i];
        } else if (what == 1 && k->running < k->count) { /* a start */
            k->running += k->running - k->head < threads[w];
        } else if (what == 2 && k->head < k->running) { /* a unit done */
            uint64_t u = k->q[k->head++];
            bad |= !nq_schedule_done(s, w, u);
            done[u]++;
        } else if (what == 3 && pending[w]) { /* an ask answered */
            uint64_t given[256];
            uint32_t n = 0;
            int kept = k->running;
            for (int i = k->running; i < k->count; i++) {
                int asked = 0;
                for (uint32_t j = 0; j < nask[w]; j++)
                    asked |= ask[w][j] == k->q[i];
                if (asked)
                    given[n++] = k->q[i];
                else
                    k->q[kept++] = k->q[i];
            }
            k->count = kept, pending[w] = 0;
            bad |= !nq_schedule_given(s, w, given, n);
        }
        int v;
        while ((v = nq_schedule_wakeable(s)) > 0)
            t[v].asked = 0; /* asked again on its next turn */
    }
    CHECKF(steps < 100000, "the random cluster did not end");
    CHECK(!bad);
    int once = 1;
    for (int i = 0; i < UNITS; i++)
        once &= done[i] == 1;
    CHECKF(once, "a unit not done exactly once");
    CHECKF(nq_schedule_asks(s) > 0 && nq_schedule_given_back(s) > 0,
           "no unit taken back (%llu asks)",
           (unsigned long long)nq_schedule_asks(s));
    CHECK(nq_schedule_in_flight(s) == 0 && nq_schedule_left(s) == 0);
    nq_schedule_free(s);
}

/* The simulator at N = 16..18 on 10 and 100 nodes: every unit handed
 * out, started and done once under both rules (--check), and at N = 18
 * on 10 nodes (its units in pieces of 0.5 ms) the scheduler keeps the
 * machines over 95% busy where the old rule does not. */
static void simulator(void *arg)
{
    (void)arg;
    const char *prog = t_bench_program("nq-sim-cluster");
    t_proc p;
    if (!prog)
        return;
    CHECK(t_run_signalled(&p, prog, ARGS(prog, "--from", "16", "--to", "18",
          "--nodes", "10,100", "--old", "--check", "--latency", "1e-6",
          "--split", "0.0005"), 0, 0) == 0);
    double old = -1, now = -1, e;
    char *save, *out = p.out ? strdup(p.out) : NULL;
    for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, "N=18 nodes=10 ", 14) && strstr(l, "efficiency=") &&
            sscanf(strstr(l, "efficiency="), "efficiency=%lf", &e) == 1)
            *(strstr(l, "rule=old") ? &old : &now) = e;
    free(out);
    CHECKF(p.exit_code == 0, "exit %d: %s%s", p.exit_code, p.out, p.err);
    CHECKF(now >= 0.95 && old >= 0 && old < 0.95,
           "efficiency %.3f, old rule %.3f:\n%s", now, old, p.out);
    t_proc_free(&p);
}

void tests_schedule(void)
{
    t_case(largest_first, NULL, "schedule/largest-estimate-first");
    t_case(queue_by_time, NULL, "schedule/queue-bounded-by-seconds");
    t_case(takes_back_tail, NULL, "schedule/idle-worker-takes-unstarted-tail");
    t_case(lost_units_again, NULL, "schedule/lost-worker-units-handed-first");
    t_case(random_cluster, NULL, "schedule/random-cluster-each-unit-once");
    t_case(simulator, NULL, "schedule/simulator-busier-than-old-rule");
}

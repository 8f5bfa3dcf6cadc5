/*
 * test_request.c - how a count runs is the request's data, not the
 * process's: the fast kernel and the GPUs (nq_request_ext), the engines
 * an optional back-end adds at run time (nq_engine_add), its device
 * errors, and "0 threads" decided in one place.
 *
 * A test engine, "probe", stands in for a GPU back-end: fast's plan and
 * units, registered at run time, recording for each board the kernel its
 * units' buffers were given and the GPUs its plan carries.  Each case runs
 * in its own process, so the registration does not outlive it.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "../src/core/core.h"
#include "../src/fast/fast.h"
#include "../src/fast/frontier_kernel.h"

/* What the probe's units saw, per board size: the kernels (a bit per
 * kernel of the table; bit 31: the process default) and the GPUs. */
static struct {
    pthread_mutex_t lock;
    unsigned kernels[NQ_MAX_N + 1];
    int devices[NQ_MAX_DEVICES], ndevices;
} seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

static unsigned kernel_bit(const nq_frontier_kernel *k)
{
    for (int i = 0; k && i < nq_kernel_count(); i++)
        if (!strcmp(k->name, nq_kernel_at(i)))
            return 1u << i;
    return 1u << 31;
}

static nq_status probe_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                            nq_tally *t)
{
    nq_frontier_work *w = nq_unit_frontier_work(p, env);
    if (!w)
        return NQ_ERR_NOMEM;
    pthread_mutex_lock(&seen.lock);
    seen.kernels[p->n] |= kernel_bit(w->kernel);
    seen.ndevices = p->ndevices;
    memcpy(seen.devices, p->devices, sizeof seen.devices);
    pthread_mutex_unlock(&seen.lock);
    return nq_fast_unit(p, i, env, t);
}

static void probe_free(void *scratch) { nq_frontier_work_free(scratch); }

static void probe_error(char *buf, size_t size)
{
    snprintf(buf, size, "probeErrorNoDevice: the probe has no GPU");
}

static const nq_engine probe = {
    .name = "probe",
    .summary = "fast's units, recording how they were run",
    .plan_id = NQ_FAST_PLAN_ID,
    .plan_param = NQ_FAST_PLAN_PARAMS,
    .max_n = NQ_MAX_N,
    .caps = NQ_CAP_UNITS | NQ_CAP_KERNEL | NQ_CAP_GPU,
    .plan = nq_fast_plan,
    .unit = probe_unit,
    .describe = nq_fast_describe,
    .finish = nq_fast_finish,
    .free_scratch = probe_free,
    .device_error = probe_error,
};

/* An engine added at run time is in the table like a built-in one; adding
 * it again changes nothing; another engine of a taken name is refused. */
static void engine_added_at_run_time(void *arg)
{
    (void)arg;
    int before = nq_engine_count();
    nq_engine fake_fast = probe;
    fake_fast.name = "fast";
    CHECK(nq_engine_find("probe") == NULL);
    CHECK(nq_engine_add(&probe) == NQ_OK && nq_engine_add(&probe) == NQ_OK);
    CHECK(nq_engine_count() == before + 1);
    CHECK(nq_engine_at(before) == &probe && nq_engine_find("probe") == &probe);
    CHECK(nq_engine_add(&fake_fast) == NQ_ERR_ARG);
    CHECK(nq_engine_add(NULL) == NQ_ERR_ARG);
    nq_request req = {.n = 12, .engine = "probe"};
    nq_counts c;
    CHECK(nq_count_solutions(&req, &c) == NQ_OK);
    CHECK(c.total == t_oeis_total(12) && c.unique == t_oeis_unique(12));
}

/* The words of a GPU failure are the engine's: none before an engine
 * that keeps some is added. */
static void device_error_is_the_engines(void *arg)
{
    (void)arg;
    char buf[128];
    CHECK(nq_device_error(buf, sizeof buf) == NULL);
    CHECK(nq_engine_add(&probe) == NQ_OK);
    CHECK(nq_device_error(buf, sizeof buf) == buf);
    CHECK(!strcmp(buf, "probeErrorNoDevice: the probe has no GPU"));
    CHECK(nq_device_error(buf, 0) == NULL);
}

typedef struct {
    nq_request_ext x;
    nq_counts c;
    nq_status st;
} count_job;

static void *count_thread(void *arg)
{
    count_job *j = arg;
    j->st = nq_count_solutions_ext(&j->x, &j->c);
    return NULL;
}

/* Two counts at once on two threads, each naming its kernel in its
 * request: each one's units ran with its own kernel, not the other's nor
 * the process default, which they leave as it was. */
static void two_counts_two_kernels(void *arg)
{
    (void)arg;
    const char *other = nq_kernel_best();
    CHECK(nq_engine_add(&probe) == NQ_OK);
    CHECK(nq_select_kernel(other) == NQ_OK);
    count_job jobs[2] = {
        {.x = {.base = {.n = 13, .engine = "probe", .threads = 2},
               .kernel = "scalar"}},
        {.x = {.base = {.n = 14, .engine = "probe", .threads = 2},
               .kernel = other}},
    };
    pthread_t t[2];
    int started = 0;
    for (; started < 2; started++)
        if (pthread_create(&t[started], NULL, count_thread, &jobs[started]))
            break;
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    CHECK(started == 2);
    for (int i = 0; i < 2; i++) {
        int n = jobs[i].x.base.n;
        unsigned want = 0;
        for (int k = 0; k < nq_kernel_count(); k++)
            if (!strcmp(nq_kernel_at(k), jobs[i].x.kernel))
                want = 1u << k;
        CHECKF(jobs[i].st == NQ_OK && jobs[i].c.total == t_oeis_total(n),
               "N=%d with %s", n, jobs[i].x.kernel);
        CHECKF(seen.kernels[n] == want, "N=%d asked for %s: kernels seen "
               "%#x, not %#x", n, jobs[i].x.kernel, seen.kernels[n], want);
    }
    CHECK(!strcmp(nq_kernel_current(), other));
    /* no kernel named: the process default, whatever it is */
    nq_request_ext x = {.base = {.n = 12, .engine = "probe"}};
    CHECK(nq_count_solutions_ext(&x, &jobs[0].c) == NQ_OK);
    CHECK(seen.kernels[12] == 1u << 31);
}

/* The GPUs of a request reach its plan, in their order; a list that is
 * not numbers, or names one twice, is refused, as are a kernel or GPUs
 * given to an engine that has no use for them. */
static void devices_reach_the_plan(void *arg)
{
    (void)arg;
    static const char *const bad[] = {"", ",", "0,", ",0", "0,,1", "1,1",
                                      "a", "0 1", "-1", "99999999999"};
    nq_counts c;
    CHECK(nq_engine_add(&probe) == NQ_OK);
    nq_request_ext x = {.base = {.n = 10, .engine = "probe"},
                        .devices = "2,0,13"};
    CHECK(nq_count_solutions_ext(&x, &c) == NQ_OK);
    CHECK(seen.ndevices == 3 && seen.devices[0] == 2 &&
          seen.devices[1] == 0 && seen.devices[2] == 13);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        x.devices = bad[i];
        CHECKF(nq_count_solutions_ext(&x, &c) == NQ_ERR_ARG, "devices '%s'",
               bad[i]);
    }
    x = (nq_request_ext){.base = {.n = 10, .engine = "fast"}, .devices = "0"};
    CHECK(nq_count_solutions_ext(&x, &c) == NQ_ERR_UNSUPPORTED);
    x = (nq_request_ext){.base = {.n = 10, .engine = "bitmap"},
                         .kernel = "scalar"};
    CHECK(nq_count_solutions_ext(&x, &c) == NQ_ERR_UNSUPPORTED);
    x.base.engine = "fast", x.kernel = "mmx";
    CHECK(nq_count_solutions_ext(&x, &c) == NQ_ERR_ARG);
    CHECK(nq_count_solutions_ext(NULL, &c) == NQ_ERR_ARG);
}

/* A journaled count takes the request's kernel too. */
static void resumable_takes_the_kernel(void *arg)
{
    (void)arg;
    nq_run_report r;
    nq_resume_options o = {0};
    CHECK(nq_engine_add(&probe) == NQ_OK);
    nq_request_ext x = {.base = {.n = 11, .engine = "probe"},
                        .kernel = "scalar"};
    CHECK(nq_count_resumable_ext(&x, &o, &r) == NQ_OK);
    CHECK(r.complete && r.counts.total == t_oeis_total(11));
    CHECK(seen.kernels[11] == 1u);
    x.kernel = "mmx";
    CHECK(nq_count_resumable_ext(&x, &o, &r) == NQ_ERR_ARG);
}

/* "0 threads" is this process's cores, wherever it is decided: the
 * request's threads, a long count's workers. */
static void zero_threads_is_the_affinity(void *arg)
{
    (void)arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    nq_request req = {.n = 10};
    CHECK(nq_request_threads(&req) == 1 && nq_resolve_threads(0) == 1);
    CHECK(nq_resolve_threads(3) == 3);
    nq_run_report r;
    nq_resume_options o = {0};
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_OK && r.workers == 1);
}

void tests_request(void)
{
    t_case(engine_added_at_run_time, NULL,
           "request/engine-added-at-run-time-is-in-the-table");
    t_case(device_error_is_the_engines, NULL,
           "request/device-error-words-are-the-gpu-engines");
    t_case(two_counts_two_kernels, NULL,
           "request/two-counts-at-once-each-with-its-own-kernel");
    t_case(devices_reach_the_plan, NULL,
           "request/devices-reach-the-plan-bad-lists-refused");
    t_case(resumable_takes_the_kernel, NULL,
           "request/journaled-count-takes-the-requests-kernel");
    t_case(zero_threads_is_the_affinity, NULL,
           "request/zero-threads-means-the-cores-of-the-affinity");
}

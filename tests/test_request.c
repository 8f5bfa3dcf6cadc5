/*
 * test_request.c - how a count runs is the request's data, not the
 * process's: the fast kernel and the GPUs, the engines an optional
 * back-end adds at run time (nq_engine_add), a GPU's words for its
 * failure, and "0 threads" decided in one place; and the size rule by
 * which the library reads a request, resume options and a report
 * (doc/abi.md).
 *
 * A test engine, "probe", stands in for a GPU back-end: fast's plan and
 * units, registered at run time, recording for each board the kernel its
 * units' buffers were given and the GPUs its plan carries; a plan given
 * a GPU numbered PROBE_ABSENT or more fails as a GPU would, NQ_ERR_DEVICE
 * with its runtime's words.  Each case runs in its own process, so the
 * registration does not outlive it.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/core/core.h"
#include "../src/fast/fast.h"
#include "../src/registry/registry.h"
#include "../src/search/frontier_kernel.h"

/* What the probe's units saw, per board size: the kernels (a bit per
 * kernel of the table; bit 31: the process default) and the GPUs. */
static struct {
    pthread_mutex_t lock;
    unsigned kernels[NQ_MAX_N + 1];
    int devices[NQ_MAX_DEVICES], ndevices;
} seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The probe's GPUs from this number on are absent. */
#define PROBE_ABSENT 90
#define PROBE_WORDS "probeErrorNoDevice: the probe has no GPU 99"

static unsigned kernel_bit(const nq_frontier_kernel *k)
{
    for (int i = 0; k && i < nq_kernel_count(); i++)
        if (!strcmp(k->name, nq_kernel_at(i)))
            return 1u << i;
    return 1u << 31;
}

/* A GPU engine's failure: the status, and its words into the unit's
 * buffer, as the cuda engine does. */
static nq_status probe_absent(const nq_plan *p, nq_unit_env *env)
{
    if (env->why && env->why_size)
        snprintf(env->why, env->why_size, "probeErrorNoDevice: the probe "
                 "has no GPU %d", p->devices[0]);
    return NQ_ERR_DEVICE;
}

static nq_status probe_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                            nq_tally *t)
{
    if (p->ndevices && p->devices[0] >= PROBE_ABSENT)
        return probe_absent(p, env);
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
    nq_request req = {.size = sizeof(nq_request), .n = 12, .engine = "probe"};
    nq_counts c;
    CHECK(nq_count_solutions(&req, &c) == NQ_OK);
    CHECK(c.total == t_oeis_total(12) && c.unique == t_oeis_unique(12));
}

/* A GPU's failure comes back as data of the call: its runtime's words
 * in the request's why buffer (and a long count's report), on any
 * thread; the buffer is emptied by a success, and a small one gets the
 * words cut, still a string, never a byte past its size. */
static void device_words_come_back_in_the_request(void *arg)
{
    (void)arg;
    char why[128] = "left from before", tiny[8];
    nq_counts c;
    nq_request req = {.size = sizeof req, .n = 10, .engine = "probe",
                      .threads = 2, .devices = "99", .why = why,
                      .why_size = sizeof why};
    CHECK(nq_engine_add(&probe) == NQ_OK);
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_DEVICE);
    CHECKF(!strcmp(why, PROBE_WORDS), "why: '%s'", why);
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    strcpy(why, "left from before");
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_DEVICE);
    CHECKF(!strcmp(r.why, PROBE_WORDS) && !strcmp(why, PROBE_WORDS),
           "report: '%s', request: '%s'", r.why, why);
    req.devices = "0";
    CHECK(nq_count_solutions(&req, &c) == NQ_OK && why[0] == '\0');
    memset(tiny, 'x', sizeof tiny);
    req.devices = "99", req.why = tiny, req.why_size = 5;
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_DEVICE);
    CHECKF(!memcmp(tiny, "prob\0xxx", 8), "tiny: '%.8s'", tiny);
    req.why_size = 0, tiny[0] = 'x';
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_DEVICE && tiny[0] == 'x');
}

/* Failures the status alone cannot name are said in words too: the
 * kernel, the device list, the engine. */
static void refusals_say_what_was_refused(void *arg)
{
    (void)arg;
    char why[128];
    nq_counts c;
    nq_request req = {.size = sizeof req, .n = 10, .engine = "fast",
                      .kernel = "mmx", .why = why, .why_size = sizeof why};
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ARG);
    CHECKF(strstr(why, "'mmx'"), "why: '%s'", why);
    req.kernel = NULL, req.engine = "nosuch";
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ENGINE);
    CHECKF(strstr(why, "'nosuch'"), "why: '%s'", why);
    req.engine = "bitmap", req.devices = "0";
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_UNSUPPORTED);
    CHECKF(strstr(why, "'bitmap'"), "why: '%s'", why);
}

typedef struct {
    nq_request req;
    nq_counts c;
    nq_status st;
} count_job;

static void *count_thread(void *arg)
{
    count_job *j = arg;
    j->st = nq_count_solutions(&j->req, &j->c);
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
        {.req = {.size = sizeof(nq_request), .n = 13, .engine = "probe",
                 .threads = 2, .kernel = "scalar"}},
        {.req = {.size = sizeof(nq_request), .n = 14, .engine = "probe",
                 .threads = 2, .kernel = other}},
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
        int n = jobs[i].req.n;
        unsigned want = 0;
        for (int k = 0; k < nq_kernel_count(); k++)
            if (!strcmp(nq_kernel_at(k), jobs[i].req.kernel))
                want = 1u << k;
        CHECKF(jobs[i].st == NQ_OK && jobs[i].c.total == t_oeis_total(n),
               "N=%d with %s", n, jobs[i].req.kernel);
        CHECKF(seen.kernels[n] == want, "N=%d asked for %s: kernels seen "
               "%#x, not %#x", n, jobs[i].req.kernel, seen.kernels[n], want);
    }
    CHECK(!strcmp(nq_kernel_current(), other));
    /* no kernel named: the process default, whatever it is */
    nq_request req = {.size = sizeof req, .n = 12, .engine = "probe"};
    CHECK(nq_count_solutions(&req, &jobs[0].c) == NQ_OK);
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
    nq_request req = {.size = sizeof req, .n = 10, .engine = "probe",
                      .devices = "2,0,13"};
    CHECK(nq_count_solutions(&req, &c) == NQ_OK);
    CHECK(seen.ndevices == 3 && seen.devices[0] == 2 &&
          seen.devices[1] == 0 && seen.devices[2] == 13);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        req.devices = bad[i];
        CHECKF(nq_count_solutions(&req, &c) == NQ_ERR_ARG, "devices '%s'",
               bad[i]);
    }
    req = (nq_request){.size = sizeof req, .n = 10, .engine = "fast",
                       .devices = "0"};
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_UNSUPPORTED);
    req = (nq_request){.size = sizeof req, .n = 10, .engine = "bitmap",
                       .kernel = "scalar"};
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_UNSUPPORTED);
    req.engine = "fast", req.kernel = "mmx";
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ARG);
    CHECK(nq_count_solutions(NULL, &c) == NQ_ERR_ARG);
}

/* A journaled count takes the request's kernel too. */
static void resumable_takes_the_kernel(void *arg)
{
    (void)arg;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    CHECK(nq_engine_add(&probe) == NQ_OK);
    nq_request req = {.size = sizeof req, .n = 11, .engine = "probe",
                      .kernel = "scalar"};
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_OK);
    CHECK(r.complete && r.counts.total == t_oeis_total(11));
    CHECK(seen.kernels[11] == 1u);
    req.kernel = "mmx";
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_ARG);
}

static int count_none(void *ctx, const int *cols, int n)
{
    (void)ctx, (void)cols, (void)n;
    return 0;
}

static int walk_none(void *ctx, const nq_event *e)
{
    (void)ctx, (void)e;
    return 0;
}

/* A size of 0 (forgotten) or short of the fields every request needs is
 * refused by every call that reads a request, before anything else. */
static void forgotten_size_is_refused(void *arg)
{
    (void)arg;
    nq_request req = {.size = 0, .n = 8};
    nq_counts c;
    nq_plan *p;
    int given[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    for (int k = 0; k < 2; k++) {
        req.size = k ? offsetof(nq_request, kernel) - 1 : 0;
        CHECKF(nq_count_solutions(&req, &c) == NQ_ERR_ARG, "size %zu",
               req.size);
        CHECK(nq_check_request(&req, 0) == NQ_ERR_ARG);
        CHECK(nq_enumerate_solutions(&req, count_none, NULL, &c) ==
              NQ_ERR_ARG);
        CHECK(nq_walk_search(&req, walk_none, NULL) == NQ_ERR_ARG);
        CHECK(nq_count_completions(&req, given, &c) == NQ_ERR_ARG);
        CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_ARG);
        CHECK(nq_plan_create(&req, &p) == NQ_ERR_ARG);
    }
    req.size = (size_t)1 << 40; /* garbage: nothing past it is read */
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ARG);
}

/* A request built against an older header (one that ended before kernel,
 * in memory exactly that long: ASan sees any read past it) counts, its
 * missing fields read as their defaults; one built against a newer
 * header counts if the fields this library does not know are zero, and
 * is refused if one is set. */
static void older_and_newer_requests(void *arg)
{
    (void)arg;
    size_t old = offsetof(nq_request, kernel);
    nq_request full = {.size = old, .n = 10, .engine = "probe",
                       .kernel = "mmx", .devices = "99"};
    nq_counts c;
    CHECK(nq_engine_add(&probe) == NQ_OK);
    unsigned char *older = malloc(old);
    CHECK(older);
    memcpy(older, &full, old);
    nq_status st = nq_count_solutions((const nq_request *)older, &c);
    free(older);
    CHECKF(st == NQ_OK && c.total == t_oeis_total(10), "older: %s",
           nq_strerror(st));
    CHECK(seen.kernels[10] == 1u << 31 && seen.ndevices == 0);
    unsigned char *buf = calloc(1, sizeof full + 16);
    CHECK(buf);
    full.size = sizeof full + 16, full.kernel = NULL, full.devices = NULL;
    memcpy(buf, &full, sizeof full);
    st = nq_count_solutions((const nq_request *)buf, &c);
    buf[sizeof full + 7] = 1;
    nq_status set = nq_count_solutions((const nq_request *)buf, &c);
    free(buf);
    CHECKF(st == NQ_OK && set == NQ_ERR_UNSUPPORTED, "newer: %s, set: %s",
           nq_strerror(st), nq_strerror(set));
}

/* The report is written no further than this release's struct, and
 * never past its size, which stays: a newer program's fields past it
 * keep what it put there.  Options and a report short of this release's
 * struct are refused. */
static void report_written_within_its_size(void *arg)
{
    (void)arg;
    struct {
        nq_run_report r;
        unsigned char after[16];
    } out;
    nq_request req = {.size = sizeof req, .n = 9, .threads = 1};
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    for (int newer = 0; newer < 2; newer++) {
        size_t size = sizeof out.r + (newer ? sizeof out.after : 0);
        memset(&out, 0xAA, sizeof out);
        out.r.size = size;
        CHECK(nq_count_resumable(&req, &o, &out.r) == NQ_OK);
        CHECK(out.r.size == size && out.r.complete &&
              out.r.counts.total == 352 && out.r.failed_rank == -1);
        for (size_t i = 0; i < sizeof out.after; i++)
            CHECKF(out.after[i] == 0xAA, "size %zu: byte %zu past the "
                   "report written", size, i);
    }
    out.r.size = sizeof out.r - 1;
    CHECK(nq_count_resumable(&req, &o, &out.r) == NQ_ERR_ARG);
    out.r.size = sizeof out.r, o.size = 0;
    CHECK(nq_count_resumable(&req, &o, &out.r) == NQ_ERR_ARG);
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
    nq_request req = {.size = sizeof req, .n = 10};
    CHECK(nq_request_threads(&req) == 1 && nq_resolve_threads(0) == 1);
    CHECK(nq_resolve_threads(3) == 3);
    nq_run_report r = NQ_RUN_REPORT_INIT;
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_OK && r.workers == 1);
}

/* A refused request still gets its report written, once the report's
 * size passes: a reused report pre-filled as a finished count, or a
 * fresh one whose failed_rank 0 would read "rank 0 failed", comes back
 * incomplete with no failed rank. */
static void refused_request_writes_the_report(void *arg)
{
    (void)arg;
    nq_request bad[2] = {{.size = 0, .n = 9},
                         {.size = sizeof bad[1], .n = 9, .kernel = "mmx"}};
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    for (int k = 0; k < 2; k++) {
        nq_run_report r = NQ_RUN_REPORT_INIT;
        r.complete = 1, r.failed_rank = 0, r.counts.total = 352;
        CHECK(nq_count_resumable(&bad[k], &o, &r) != NQ_OK);
        CHECKF(!r.complete && r.failed_rank == -1 && !r.counts.total,
               "request %d: complete %d, failed_rank %d", k, r.complete,
               r.failed_rank);
        CHECK(r.size == sizeof r);
    }
}

/* The words buffer is a string after every call that can see it, even
 * one refused before the request is read: a NULL out, a NULL callback,
 * a short report. */
static void why_emptied_on_every_refusal(void *arg)
{
    (void)arg;
    char why[16];
    nq_request req = {.size = sizeof req, .n = 8, .why = why,
                      .why_size = sizeof why};
    nq_run_report r = NQ_RUN_REPORT_INIT;
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_counts c;
    strcpy(why, "x");
    CHECK(nq_count_solutions(&req, NULL) == NQ_ERR_ARG);
    CHECKF(!why[0], "count, NULL out: '%s'", why);
    strcpy(why, "x");
    CHECK(nq_enumerate_solutions(&req, NULL, NULL, &c) == NQ_ERR_ARG);
    CHECKF(!why[0], "enumerate, NULL fn: '%s'", why);
    strcpy(why, "x");
    CHECK(nq_count_completions(&req, NULL, &c) == NQ_ERR_ARG);
    CHECKF(!why[0], "completions, NULL given: '%s'", why);
    strcpy(why, "x");
    r.size = sizeof r - 1;
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_ARG);
    CHECKF(!why[0], "resumable, short report: '%s'", why);
}

/* A size that ends inside a field is no release's struct (it would copy
 * half a pointer): refused; each field's end is a size some header
 * makes, and counts. */
static void size_inside_a_field_is_refused(void *arg)
{
    (void)arg;
    nq_request req = {.size = sizeof req, .n = 8, .engine = "fast",
                      .kernel = "scalar"};
    nq_counts c;
    size_t ends[] = {offsetof(nq_request, kernel),
                     offsetof(nq_request, devices),
                     offsetof(nq_request, why),
                     offsetof(nq_request, why_size),
                     offsetof(nq_request, max_unit_seconds), sizeof req};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        req.size = ends[i];
        nq_status st = nq_count_solutions(&req, &c);
        CHECKF(st == NQ_OK && c.total == 92, "size %zu: %s", req.size,
               nq_strerror(st));
    }
    req.size = offsetof(nq_request, kernel) + 4;
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ARG);
    CHECK(nq_check_request(&req, 0) == NQ_ERR_ARG);
    req.size = offsetof(nq_request, why) + 1;
    CHECK(nq_count_solutions(&req, &c) == NQ_ERR_ARG);
}

/* The public check and plan resolve the request as the count does: a
 * kernel the count refuses, they refuse; a kernel given reaches the
 * plan, which counts right. */
static void check_and_plan_take_the_kernel(void *arg)
{
    (void)arg;
    nq_request req = {.size = sizeof req, .n = 11, .engine = "fast",
                      .kernel = "nonesuch"};
    nq_plan *p = NULL;
    CHECK(nq_check_request(&req, 0) != NQ_OK);
    CHECK(nq_plan_create(&req, &p) != NQ_OK);
    req.engine = "bitmap", req.kernel = "scalar";
    CHECK(nq_check_request(&req, 0) == NQ_ERR_UNSUPPORTED);
    req.engine = "fast";
    CHECK(nq_check_request(&req, 0) == NQ_OK);
    CHECK(nq_plan_create(&req, &p) == NQ_OK);
    CHECK(p->kernel && !strcmp(p->kernel->name, "scalar"));
    nq_tally sum = {0};
    nq_counts c;
    nq_run_options o = {.threads = 2};
    CHECK(nq_plan_run(p, &o, &sum) == NQ_OK);
    CHECK(nq_plan_finish(p, &sum, &c) == NQ_OK);
    CHECKF(c.total == t_oeis_total(11), "total %llu",
           (unsigned long long)c.total);
    nq_plan_free(p);
    for (int i = 0; i < nq_kernel_count(); i++) {
        const nq_frontier_kernel *k;
        req.kernel = nq_kernel_at(i);
        if (nq_frontier_kernel_find(req.kernel, &k) != NQ_ERR_UNSUPPORTED)
            continue; /* this CPU runs it */
        CHECK(nq_check_request(&req, 0) == NQ_ERR_UNSUPPORTED);
        CHECK(nq_plan_create(&req, &p) == NQ_ERR_UNSUPPORTED);
    }
}

void tests_request(void)
{
    t_case(engine_added_at_run_time, NULL,
           "request/engine-added-at-run-time-is-in-the-table");
    t_case(device_words_come_back_in_the_request, NULL,
           "request/device-failure-words-in-the-requests-why-cut-to-fit");
    t_case(refusals_say_what_was_refused, NULL,
           "request/refusals-name-the-kernel-engine-devices-in-why");
    t_case(two_counts_two_kernels, NULL,
           "request/two-counts-at-once-each-with-its-own-kernel");
    t_case(devices_reach_the_plan, NULL,
           "request/devices-reach-the-plan-bad-lists-refused");
    t_case(resumable_takes_the_kernel, NULL,
           "request/journaled-count-takes-the-requests-kernel");
    t_case(forgotten_size_is_refused, NULL,
           "request/size-0-or-too-short-is-nq-err-arg-everywhere");
    t_case(older_and_newer_requests, NULL,
           "request/older-size-reads-defaults-newer-unknown-field-refused");
    t_case(report_written_within_its_size, NULL,
           "request/report-written-within-its-size-short-sizes-refused");
    t_case(zero_threads_is_the_affinity, NULL,
           "request/zero-threads-means-the-cores-of-the-affinity");
    t_case(refused_request_writes_the_report, NULL,
           "request/refused-request-writes-report-not-complete-no-rank");
    t_case(why_emptied_on_every_refusal, NULL,
           "request/why-emptied-on-refusals-before-the-read-null-out");
    t_case(size_inside_a_field_is_refused, NULL,
           "request/size-inside-a-field-refused-field-ends-count");
    t_case(check_and_plan_take_the_kernel, NULL,
           "request/check-and-plan-resolve-kernel-as-the-count-does");
}

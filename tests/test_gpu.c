/*
 * test_gpu.c - the GPU engine's work, checked on the CPU: the sub-unit
 * plan covers every unit's solutions exactly once, and the per-thread
 * search (dfs.h, the code a GPU thread runs) counts them right.
 */
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "../src/fast/subunits.h"

typedef struct {
    int n, depth, even; /* even: heavy sub-units cut deeper */
} cut;

static int compare_subs(const void *a, const void *b)
{
    const nq_subunit *x = a, *y = b;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    return x->path < y->path ? -1 : x->path > y->path;
}

/* Each unit's sub-units sum to the unit's own count (the vector kernel's),
 * and no two sub-units of a unit pre-place the same queens: together, each
 * solution of the unit lies in exactly one sub-unit. */
static void subunits_partition_units(void *arg)
{
    const cut *c = arg;
    nq_request req = {.size = sizeof(nq_request), .n = c->n, .engine = "fast"};
    nq_plan *plan;
    nq_batch b;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    uint64_t units = nq_plan_units(plan), *ids = malloc(units * sizeof *ids);
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    if (!ids || nq_batch_build(plan, ids, units, c->depth, &b) != NQ_OK ||
        (c->even && nq_batch_even_out(&b) != NQ_OK)) {
        free(ids);
        nq_plan_free(plan);
        CHECK(!"batch");
    }
    nq_batch_tally bt;
    int tallied = nq_batch_tally_new(&b, &bt) == NQ_OK;
    if (tallied)
        CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
    for (uint32_t j = 0; tallied && j < b.jobs && !t_failed(); j++) {
        nq_tally t;
        if (nq_plan_run_unit(plan, b.unit[j], &t) != NQ_OK ||
            t.total != bt.count[j])
            t_fail(__FILE__, __LINE__, "unit %llu: sub-units give %llu, the "
                   "unit %llu", (unsigned long long)b.unit[j],
                   (unsigned long long)bt.count[j], (unsigned long long)t.total);
    }
    qsort(b.sub, b.subs, sizeof *b.sub, compare_subs);
    for (uint64_t q = 1; q < b.subs && !t_failed(); q++)
        if (b.sub[q].job == b.sub[q - 1].job && b.sub[q].path == b.sub[q - 1].path)
            t_fail(__FILE__, __LINE__, "two sub-units of job %u pre-place the "
                   "same queens", b.sub[q].job);
    int deeper = 0;
    for (uint64_t q = 0; q < b.subs; q++)
        deeper |= (int)b.sub[q].from > c->depth;
    int cut_some = (c->depth == 0 || b.subs > b.jobs) && deeper == c->even;
    nq_batch_tally_free(&bt);
    free(ids);
    nq_batch_free(&b);
    nq_plan_free(plan);
    CHECK(tallied);
    T_BAIL();
    CHECKF(cut_some, "depth %d cut no unit, or evening out cut %s",
           c->depth, deeper ? "some deeper unasked" : "none deeper");
}

static nq_status keep_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    ((nq_tally *)ctx)[unit] = *t;
    return NQ_OK;
}

/* The plan of fast for n and every unit's tally from the vector or
 * scalar kernel, run on the thread pool (the reference). */
static nq_plan *reference(int n, nq_tally **tallies)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_plan *plan;
    if (nq_plan_create(&req, &plan) != NQ_OK)
        return NULL;
    nq_tally sum = {0};
    *tallies = calloc(nq_plan_units(plan), sizeof **tallies);
    nq_run_options o = {.on_unit = keep_unit, .ctx = *tallies};
    if (!*tallies || nq_plan_run(plan, &o, &sum) != NQ_OK) {
        free(*tallies);
        nq_plan_free(plan);
        return NULL;
    }
    return plan;
}

/* The GPU kernel's per-thread body, run on the host over every sub-unit
 * of N (blocks of NQ_GPU_BLOCK threads emulated one thread after another,
 * their stacks interleaved as in shared memory), cut at the depth the
 * GPU engine uses: each unit as the fast engine counts it, and the board
 * as OEIS has it. */
static void kernel_body_vs_oeis(void *arg)
{
    int n = (int)(intptr_t)arg;
    nq_tally *want, *got = NULL, sum = {0};
    nq_plan *plan = reference(n, &want);
    CHECK(plan);
    uint64_t units = nq_plan_units(plan), *ids = malloc(units * sizeof *ids);
    nq_unit_env env = {0};
    nq_batch b;
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    int ok = ids && (got = calloc(units, sizeof *got)) &&
             nq_batch_build(plan, ids, units, nq_batch_depth(n), &b) == NQ_OK;
    nq_batch_tally bt;
    if (ok && nq_batch_tally_new(&b, &bt) == NQ_OK) {
        CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
        ok = nq_batch_finish(plan, &b, ids, units, &bt, NQ_OK, &env,
                             got) == NQ_OK;
    } else if (ok) {
        nq_batch_free(&b), ok = 0;
    }
    uint64_t bad = units;
    for (uint64_t u = 0; ok && u < units; u++) {
        if (got[u].total != want[u].total && bad == units)
            bad = u;
        nq_tally_add(&sum, &got[u]);
    }
    nq_counts c = {0};
    ok = ok && bad == units && nq_plan_finish(plan, &sum, &c) == NQ_OK;
    free(ids), free(got), free(want);
    nq_plan_free(plan);
    CHECKF(bad == units, "N=%d unit %llu: the kernel body disagrees with "
           "fast", n, (unsigned long long)bad);
    CHECK(ok);
    CHECKF(c.total == t_oeis_total(n) && c.unique == t_oeis_unique(n),
           "N=%d: not OEIS's counts", n);
}

/* The units of a batch whose jobs start at `from` in ids, expected whole
 * after a host run stopped at job k: the jobs before it, and any later
 * job with no sub-unit (nothing of it left to search, its count 0). */
static void whole_expected(const nq_batch *b, uint32_t k, unsigned char *want)
{
    uint64_t *subs = calloc(b->jobs + 1, sizeof *subs);
    for (uint64_t q = 0; subs && q < b->subs; q++)
        subs[b->sub[q].job]++;
    for (uint32_t j = 0; subs && j < b->jobs; j++)
        want[b->unit[j]] = j < k || subs[j] == 0;
    free(subs);
}

/* A batch stopped part way, made exact: the host run is given only the
 * sub-units before the middle job's first (sub-units come in job order),
 * as if a stop had come as it took that one: the loop takes no sub-unit
 * once the flag is set (nq_subunit_worker).  nq_batch_finish then
 * says stopped, marks whole exactly the jobs whose sub-units all
 * finished, each with its unit's count as fast counts it, and no unit
 * that is not a search (those were never run). */
static void stopped_batch_keeps_whole_units(void *arg)
{
    int n = (int)(intptr_t)arg;
    nq_tally *want_t, *got = NULL;
    nq_plan *plan = reference(n, &want_t);
    CHECK(plan);
    uint64_t units = nq_plan_units(plan), *ids = malloc(units * sizeof *ids);
    unsigned char *whole = calloc(units, 1), *want = calloc(units, 1);
    nq_unit_env env = {.whole = whole};
    nq_batch b;
    nq_batch_tally bt;
    for (uint64_t i = 0; ids && i < units; i++)
        ids[i] = i;
    int ok = ids && whole && want && (got = calloc(units, sizeof *got)) &&
             nq_batch_prepare(plan, ids, units, &b) == NQ_OK;
    uint32_t k = ok ? b.jobs / 2 : 0, jobs = ok ? b.jobs : 0;
    nq_status st = NQ_OK;
    if (ok) {
        uint64_t subs = b.subs, first = 0;
        while (first < subs && b.sub[first].job < k)
            first++;
        whole_expected(&b, k, want);
        b.subs = first;
        if (nq_batch_tally_new(&b, &bt) == NQ_OK)
            CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
        else
            bt.count = NULL;
        b.subs = subs;
        ok = bt.count != NULL;
        st = nq_batch_finish(plan, &b, ids, units, &bt, NQ_ERR_STOPPED,
                             &env, got);
    }
    uint64_t bad = units, kept = 0;
    for (uint64_t u = 0; ok && u < units; u++) {
        kept += whole[u];
        if (bad == units && (whole[u] != want[u] ||
                             (whole[u] && got[u].total != want_t[u].total)))
            bad = u;
    }
    free(ids), free(whole), free(want), free(got), free(want_t);
    nq_plan_free(plan);
    CHECK(ok);
    CHECKF(st == NQ_ERR_STOPPED, "a stopped batch finished as %s",
           nq_strerror(st));
    CHECKF(bad == units, "N=%d unit %llu: kept %s", n,
           (unsigned long long)bad, "wrongly, or with a wrong count");
    CHECKF(k > 0 && k < jobs && kept >= k, "N=%d: %llu units kept of %u "
           "jobs stopped at %u", n, (unsigned long long)kept, jobs, k);
}

/* A stop that comes while a batch runs its symmetric count (on a GPU,
 * on the host after the launch), its searches all ended: the searches
 * are kept whole with their counts, only the symmetric count is lost, and
 * the batch says it was stopped.  Unit 0 (the half turn) in the middle of
 * ring units, as the runner's scrambled order puts it anywhere. */
static void stop_in_symmetric_count_keeps_searches(void *arg)
{
    (void)arg;
    static const volatile sig_atomic_t clear = 0, set = 1;
    uint64_t ids[] = {2, 3, 4, 0, 5, 6, 7};
    enum { COUNT = sizeof ids / sizeof ids[0], HALF = 3 };
    unsigned char whole[COUNT] = {0};
    nq_tally *want = NULL, got[COUNT] = {{0}};
    nq_unit_env env = {.stop = &set, .whole = whole};
    nq_plan *plan = reference(12, &want);
    nq_batch b;
    nq_batch_tally bt;
    int ok = plan && nq_batch_prepare(plan, ids, COUNT, &b) == NQ_OK;
    nq_status st = NQ_OK;
    if (ok && !(ok = nq_batch_tally_new(&b, &bt) == NQ_OK))
        nq_batch_free(&b);
    if (ok) {
        nq_batch_watch(&b, &clear); /* the searches run to their end */
        CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
        st = nq_batch_finish(plan, &b, ids, COUNT, &bt, NQ_OK, &env, got);
    }
    int kept = 1;
    for (int k = 0; ok && k < COUNT; k++)
        kept &= k == HALF ? !whole[k]
                          : whole[k] && got[k].total == want[ids[k]].total;
    free(want);
    nq_plan_free(plan);
    CHECK(ok);
    CHECKF(st == NQ_ERR_STOPPED, "the batch ended as %s", nq_strerror(st));
    CHECKF(kept, "the searches were not kept whole, or the stopped "
           "symmetric count was");
}

/* The kernels' loop with the stop flag set before it starts: it takes
 * no sub-unit, so no job has one searched, its count stays 0, and no
 * placement is made (nq_subunit_worker, run by the host as a kernel's
 * thread runs it). */
static void stopped_before_searches_nothing(void *arg)
{
    (void)arg;
    static const volatile sig_atomic_t set = 1;
    uint64_t ids[] = {2, 3, 4, 5, 6, 7};
    enum { COUNT = sizeof ids / sizeof ids[0] };
    nq_tally *want = NULL;
    nq_plan *plan = reference(12, &want);
    nq_batch b;
    nq_batch_tally bt;
    int ok = plan && nq_batch_prepare(plan, ids, COUNT, &b) == NQ_OK;
    if (ok && !(ok = nq_batch_tally_new(&b, &bt) == NQ_OK))
        nq_batch_free(&b);
    uint64_t searched = 0, counted = 0, subs = ok ? b.subs : 0;
    if (ok) {
        nq_batch_watch(&b, &set);
        CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
        for (uint32_t j = 0; j < b.jobs; j++)
            searched += bt.finished[j], counted += bt.count[j];
        searched += bt.nodes;
        nq_batch_tally_free(&bt);
        nq_batch_free(&b);
    }
    free(want);
    nq_plan_free(plan);
    CHECK(ok && subs > 0);
    CHECKF(searched == 0 && counted == 0, "a stopped loop searched: %llu "
           "finished or placements, %llu counted", (unsigned long long)searched,
           (unsigned long long)counted);
}

/* The kernels' 64-bit sums are two 32-bit words: adds that carry out of
 * the low word, in any order, leave the exact sum, and the other words
 * alone. */
static void words_add64_carries(void *arg)
{
    (void)arg;
    uint32_t w[4] = {0, 0, 0, 0};
    static const uint64_t adds[] = {0xffffffffull, 1, 0xfffffffeull,
                                    0x100000003ull, 0xffffffffffull};
    uint64_t sum = 0;
    for (size_t k = 0; k < sizeof adds / sizeof adds[0]; k++) {
        nq_words_add64(&w[1], adds[k]);
        sum += adds[k];
    }
    CHECKF((w[1] | (uint64_t)w[2] << 32) == sum, "the words hold %llx, the "
           "sum is %llx", (unsigned long long)(w[1] | (uint64_t)w[2] << 32),
           (unsigned long long)sum);
    CHECK(w[0] == 0 && w[3] == 0);
}

typedef struct {
    volatile sig_atomic_t flag;
    double after, set_at;
} stop_timer;

/* Set the flag `after` seconds from now, and say when. */
static void *stop_later(void *arg)
{
    stop_timer *s = arg;
    struct timespec ts = {(time_t)s->after,
                          (long)((s->after - (double)(time_t)s->after) * 1e9)};
    nanosleep(&ts, NULL);
    s->set_at = nq_clock_seconds();
    __atomic_store_n(&s->flag, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* The first unit of the plan that is a search, built into *b as one
 * sub-unit (cut at depth 0); 0 if none could be. */
static int first_search(const nq_plan *plan, uint64_t *id, nq_batch *b)
{
    for (*id = 0; *id < nq_plan_units(plan); ++*id) {
        if (nq_batch_build(plan, id, 1, 0, b) != NQ_OK)
            return 0;
        uint32_t jobs = b->jobs;
        if (jobs && b->subs == 1)
            return 1;
        nq_batch_free(b);
        if (jobs) /* a search, not cut as asked */
            return 0;
    }
    return 0;
}

/* A stop inside a sub-unit: N = 21's first search (fast plans make the
 * first units their largest) as one sub-unit, seconds of search on any
 * host, stopped 0.1 s in.  The search looks at the flag as it goes (dfs.h), so the run
 * ends well within a second of it (before, it ran the sub-unit to its
 * end), and the unit, cut short, is not whole. */
static void stop_inside_a_sub_unit(void *arg)
{
    (void)arg;
    nq_request req = {.size = sizeof(nq_request), .n = 21, .engine = "fast"};
    nq_plan *plan;
    nq_batch b;
    nq_batch_tally bt;
    uint64_t id = 0;
    unsigned char whole = 0;
    nq_unit_env env = {.whole = &whole};
    nq_tally out = {0};
    stop_timer s = {0, 0.1, 0};
    pthread_t timer;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    int ok = first_search(plan, &id, &b);
    if (ok && (ok = nq_batch_tally_new(&b, &bt) == NQ_OK) == 0)
        nq_batch_free(&b);
    if (ok && (ok = pthread_create(&timer, NULL, stop_later, &s) == 0) == 0)
        nq_batch_tally_free(&bt), nq_batch_free(&b);
    double ended = 0;
    nq_status st = NQ_OK;
    if (ok) {
        nq_batch_watch(&b, &s.flag);
        CHECK(nq_batch_run_host(&b, &bt) == NQ_OK);
        ended = nq_clock_seconds();
        pthread_join(timer, NULL);
        st = nq_batch_finish(plan, &b, &id, 1, &bt, NQ_ERR_STOPPED, &env,
                             &out);
    }
    nq_plan_free(plan);
    CHECK(ok);
    CHECKF(s.set_at > 0 && ended >= s.set_at, "the sub-unit ended before "
           "the stop: not seconds of search");
    CHECKF(ended - s.set_at < 1.0, "the run ended %.2f s after the stop",
           ended - s.set_at);
    CHECKF(st == NQ_ERR_STOPPED && !whole, "a unit cut short was kept");
}

/* The stacks' layout: a thread writes only its own column of the block's
 * array (words t, t + BLOCK, ...); the rest, filled with a pattern, is
 * found as it was after each of a block's threads has run. */
static void stacks_stay_in_their_column(void *arg)
{
    (void)arg;
    static uint32_t shared[NQ_MAX_N * NQ_GPU_BLOCK];
    nq_request req = {.size = sizeof(nq_request), .n = 12, .engine = "fast"};
    nq_plan *plan;
    nq_batch b;
    uint64_t ids[8] = {2, 3, 4, 5, 6, 7, 8, 9}, c, placed = 0;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    int built = nq_batch_build(plan, ids, 8, 1, &b) == NQ_OK;
    nq_plan_free(plan);
    CHECK(built);
    int rows = nq_batch_stack_rows(&b), clean = 1;
    for (uint64_t q = 0; q < b.subs && q < NQ_GPU_BLOCK && clean; q++) {
        for (size_t w = 0; w < sizeof shared / sizeof shared[0]; w++)
            shared[w] = 0xa5a5a5a5u;
        nq_subunit_thread(b.job, b.sub, q, shared + q, NQ_GPU_BLOCK, NULL,
                          &c, &placed);
        for (int w = 0; w < NQ_MAX_N * NQ_GPU_BLOCK && clean; w++)
            clean = w % NQ_GPU_BLOCK == (int)q || shared[w] == 0xa5a5a5a5u;
    }
    uint64_t subs = b.subs;
    nq_batch_free(&b);
    CHECKF(clean, "a thread wrote outside its stack column");
    CHECKF(subs > 8 && rows > 3 && placed > 0, "%llu sub-units searched",
           (unsigned long long)subs);
}

/* Exit 1, nothing on stdout, and one line on stderr starting `start` and
 * naming the CUDA error. */
static int said_cuda_error(const t_proc *p, const char *start)
{
    return p->exit_code == 1 && p->out_len == 0 &&
           !strncmp(p->err, start, strlen(start)) &&
           strstr(p->err, "(cudaError") &&
           strchr(p->err, '\n') == p->err + p->err_len - 1;
}

/* Whether this host has a GPU, asked apart from the CUDA runtime that the
 * programs under test link (the runtime may be what fails): the driver's
 * device files (/dev/nvidia0, ...), `nvidia-smi -L` listing a GPU, or
 * nqueens-cuda --version listing one.  With a GPU here, the cuda engine
 * must count and an error is a failure; with none, the error is what is
 * expected.  `why` says what answered. */
static int gpu_probe(char *why, size_t size)
{
    glob_t g;
    int files = glob("/dev/nvidia[0-9]*", 0, NULL, &g) == 0;
    if (files)
        snprintf(why, size, "%s exists", g.gl_pathv[0]);
    globfree(&g);
    if (files)
        return 1;
    t_proc p;
    if (t_run_signalled(&p, "nvidia-smi", ARGS("nvidia-smi", "-L"), 0, 0) == 0) {
        const char *gpu = !strncmp(p.out, "GPU ", 4) ? p.out
                          : strstr(p.out, "\nGPU ");
        int listed = p.exit_code == 0 && gpu;
        if (listed)
            snprintf(why, size, "nvidia-smi -L: %.*s", (int)strcspn(gpu +
                     (*gpu == '\n'), "\n"), gpu + (*gpu == '\n'));
        t_proc_free(&p);
        if (listed)
            return 1;
    }
    const char *cuda = getenv("NQ_CUDA");
    if (cuda && t_run_signalled(&p, cuda, ARGS(cuda, "--version"), 0, 0) == 0) {
        int listed = p.exit_code == 0 && strstr(p.out, "\n  GPU 0: ");
        t_proc_free(&p);
        if (listed) {
            snprintf(why, size, "nqueens-cuda --version lists GPU 0");
            return 1;
        }
    }
    snprintf(why, size, "no /dev/nvidia[0-9]*, no GPU from nvidia-smi -L "
             "or nqueens-cuda --version");
    return 0;
}

/* gpu_probe's answer, asked once per case. */
static int gpu_here(char *why, size_t size)
{
    static int known = -1;
    static char said[256];
    if (known < 0)
        known = gpu_probe(said, sizeof said);
    snprintf(why, size, "%s", said);
    return known;
}

/* The cuda engine's run p, judged by whether a GPU is here (gpu_here):
 * with one, 1 if it counted (`counted`); without, 1 if it failed as
 * expected (`said`).  Else a failure naming what was wanted and got. */
static void gpu_judged(const t_proc *p, const char *what, int counted,
                       int said)
{
    char why[256];
    int gpu = gpu_here(why, sizeof why);
    CHECKF(gpu ? counted : said, "%s: %s (%s), but exit %d: %.*s", what,
           gpu ? "a GPU is here, so OEIS's row was due"
               : "no GPU here, so the one-line CUDA error was due",
           why, p->exit_code, (int)strcspn(p->err, "\n"), p->err);
}

/* nqueens-cuda as a user meets it.  On a GPU (gpu_here): N=12 counted to
 * OEIS's row, an error failing the test.  Without one: one line on stderr
 * naming the CUDA error, exit 1, the journal left for any engine of the
 * plan to finish (fast does). */
static void cuda_binary(void *arg)
{
    (void)arg;
    const char *cuda = getenv("NQ_CUDA");
    char j[64], row[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    t_proc p;
    snprintf(j, sizeof j, "/tmp/nq-cuda-%d.journal", (int)getpid());
    snprintf(row, sizeof row, "\n12:%13s%13s", nq_format_u128(t_oeis_total(12),
             total), nq_format_u128(t_oeis_unique(12), unique));
    unlink(j);
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "cuda",
                                         "--checkpoint", j), 0, 0) == 0);
    int counted = p.exit_code == 0 && strstr(p.out, row);
    int said = said_cuda_error(&p, "nqueens: count 12: no usable GPU");
    gpu_judged(&p, "count 12 -e cuda", counted, said);
    t_proc_free(&p);
    if (t_failed()) {
        unlink(j);
        return;
    }
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "fast",
                                         "--checkpoint", j), 0, 0) == 0);
    int finished = p.exit_code == 0 && strstr(p.out, row);
    t_proc_free(&p);
    unlink(j);
    CHECKF(finished, "fast did not finish the cuda engine's journal");
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "cuda",
                                         "--devices", "0"), 0, 0) == 0);
    counted = p.exit_code == 0 && strstr(p.out, row);
    said = p.exit_code == 1 && strstr(p.err, "(cudaError");
    gpu_judged(&p, "count 12 -e cuda --devices 0", counted, said);
    t_proc_free(&p);
    T_BAIL();
    /* a GPU that is not there, in a range of boards too small for a
     * second worker to take a batch: refused before any is counted */
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "4-12", "-e", "cuda",
                                         "--devices", "0,63"), 0, 0) == 0);
    char why[256];
    said = p.exit_code == 1 && p.out_len == 0 && strstr(p.err, "count 4: ") &&
           strchr(p.err, '\n') == p.err + p.err_len - 1 &&
           (!gpu_here(why, sizeof why) || strstr(p.err, "no GPU 63: "));
    CHECKF(said, "count 4-12 -e cuda --devices 0,63: not one line before "
           "any count (exit %d): %s", p.exit_code, p.err);
    t_proc_free(&p);
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "fast",
                                         "--devices", "0"), 0, 0) == 0);
    int refused = p.exit_code == 2 && strstr(p.err, "(engines that do: cuda)");
    t_proc_free(&p);
    CHECKF(refused, "--devices with a CPU engine was not refused");
}

/* nqueens-cuda stopped mid-count on a GPU (N = 22, tens of seconds
 * there, 3 s in): the kernel's threads read the stop flag the host maps
 * for them (dfs.h, cuda.cu), so the run ends within a second of SIGINT,
 * with its line and 130, waiting for no launch to end.  Skipped where no
 * GPU is (gpu_here), where the count fails at once (cuda_binary checks
 * that); with one, a count that fails is a failure here too. */
static void cuda_binary_stops(void *arg)
{
    (void)arg;
    const char *cuda = getenv("NQ_CUDA");
    char why[256];
    t_proc p;
    if (!gpu_here(why, sizeof why)) {
        t_skip("%s", why);
        return;
    }
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "12", "-e", "cuda"),
                          0, 0) == 0);
    int counted = p.exit_code == 0;
    t_proc_free(&p);
    CHECKF(counted, "a GPU is here (%s), but count 12 -e cuda failed", why);
    double t0 = nq_clock_seconds();
    CHECK(t_run_signalled(&p, cuda, ARGS(cuda, "count", "22", "-e", "cuda",
                                         "--force", "--quiet"), 3.0,
                          SIGINT) == 0);
    double took = nq_clock_seconds() - t0 - 3.0;
    int code = p.exit_code, said = strstr(p.err, "stopped by SIGINT") != NULL;
    t_proc_free(&p);
    CHECKF(code == 130 && said, "exit %d, the stop said: %d", code, said);
    CHECKF(took < 1.0, "the stop took %.2f s", took);
}

/* examples/count_cuda.c, a C program linked with libnqueens-cuda.a: it
 * reaches engine cuda through the library's table once it has called
 * nq_cuda_register.  On a GPU (gpu_here): N=12 counted to OEIS's row, an
 * error failing the test; without one: a clean NQ_ERR_DEVICE with the
 * CUDA runtime's words, no crash.  The same with a device list in the
 * request. */
static void cuda_library(void *arg)
{
    const char *example = getenv("NQ_CUDA_EXAMPLE"), *devices = arg;
    char row[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    t_proc p;
    snprintf(row, sizeof row, "12 %s %s\n", nq_format_u128(t_oeis_total(12),
             total), nq_format_u128(t_oeis_unique(12), unique));
    CHECK(t_run_signalled(&p, example, devices ? ARGS(example, "12", devices)
                          : ARGS(example, "12"), 0, 0) == 0);
    int counted = p.exit_code == 0 && !strcmp(p.out, row);
    int said = said_cuda_error(&p, "count_cuda: no usable GPU");
    gpu_judged(&p, devices ? "count_cuda 12 with devices" : "count_cuda 12",
               counted, said);
    t_proc_free(&p);
}

/* mk/check-ptxas.sh, which `make cuda` runs on ptxas's report: passes a
 * kernel with no stack frame, fails one with a frame or spills. */
static void ptxas_check(void *arg)
{
    (void)arg;
    static const struct {
        const char *file;
        int want;
    } cases[] = {{"ptxas-sm90.txt", 0}, {"ptxas-stack-frame.txt", 1},
                 {"ptxas-spills.txt", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        char path[512];
        snprintf(path, sizeof path, "%s", t_data_path(cases[i].file));
        CHECK(t_run_signalled(&p, "sh", ARGS("sh", "mk/check-ptxas.sh", path,
                                             "count_subunits"), 0, 0) == 0);
        int ok = p.exit_code == cases[i].want &&
                 strstr(p.out, "count_subunits (sm_90): ");
        t_proc_free(&p);
        CHECKF(ok, "%s: not exit %d with the kernel's line", cases[i].file,
               cases[i].want);
    }
}

void tests_gpu(void)
{
    static const cut cuts[] = {
        {8, 0, 0}, {8, 1, 0}, {10, 2, 0}, {12, 1, 0}, {12, 3, 0}, {13, 2, 0},
        {14, 4, 0}, {12, 1, 1}, {14, 1, 1}, {15, 2, 1},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        t_case(subunits_partition_units, (void *)&cuts[i],
               "gpu/N=%d/depth-%d%s/sub-units-partition-each-unit",
               cuts[i].n, cuts[i].depth, cuts[i].even ? "-evened" : "");
    for (int n = 4; n <= 16; n++) /* N = 16's seconds: the full tier's */
        (n < 16 ? t_case : t_full_case)(kernel_body_vs_oeis,
               (void *)(intptr_t)n,
               "gpu/N=%d/kernel-body-on-the-host-vs-fast-and-oeis", n);
    for (int n = 12; n <= 16; n += 4)
        t_case(stopped_batch_keeps_whole_units, (void *)(intptr_t)n,
               "gpu/N=%d/stopped-batch-keeps-exactly-its-whole-units", n);
    t_case(stop_in_symmetric_count_keeps_searches, NULL,
           "gpu/N=12/stop-in-a-symmetric-count-keeps-the-searches");
    t_case_alone(stop_inside_a_sub_unit, NULL,
                 "gpu/N=21/host-run-stops-inside-a-sub-unit-within-a-second");
    t_case(stopped_before_searches_nothing, NULL, "gpu/N=12/flag-set-before-"
           "the-loop-searches-nothing");
    t_case(words_add64_carries, NULL, "gpu/words-add64-carries-into-the-high-word");
    t_case(stacks_stay_in_their_column, NULL,
           "gpu/stacks-interleaved-by-thread-stay-in-their-column");
    t_case(ptxas_check, NULL, "gpu/ptxas-check-refuses-a-stack-frame");
    t_skip_cases(getenv("NQ_CUDA") ? NULL : "no nvcc");
    t_case(cuda_binary, NULL, "gpu/nqueens-cuda-counts-on-a-gpu-else-names-"
           "the-cuda-error-and-fast-resumes");
    t_full_case_alone(cuda_binary_stops, NULL, "gpu/nqueens-cuda-count-22-"
                      "sigint-at-3s-within-1s-on-a-gpu");
    t_skip_cases(getenv("NQ_CUDA_EXAMPLE") ? NULL : "no nvcc");
    t_case(cuda_library, NULL, "gpu/library-program-reaches-engine-cuda-"
           "counts-on-a-gpu-else-names-the-cuda-error");
    t_case(cuda_library, "0", "gpu/library-program-with-devices-0-counts-"
           "on-a-gpu-else-names-the-cuda-error");
    t_skip_cases(NULL);
}

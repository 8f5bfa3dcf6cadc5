/*
 * test_kernels.c - the fast engine's kernels (search/kernels.c and the
 * frontier kernels): the choice at run time, and every kernel this CPU
 * runs checked against the scalar one and, through the engines that use
 * it, against OEIS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/core/bits.h"
#include "../src/core/core.h"
#include "../src/search/frontier_kernel.h"

/* Each kernel build's lane test (simd_lanes.c), by kernel name. */
void t_simd_every_mask_scalar_32(void *arg);
#if defined(__x86_64__)
void t_simd_every_mask_sse4_16(void *arg);
void t_simd_every_mask_sse4_32(void *arg);
void t_simd_every_mask_avx2_16(void *arg);
void t_simd_every_mask_avx2_32(void *arg);
void t_simd_every_mask_avx512_16(void *arg);
void t_simd_every_mask_avx512_32(void *arg);
#endif
#if defined(__aarch64__)
void t_simd_every_mask_neon_16(void *arg);
void t_simd_every_mask_neon_32(void *arg);
#endif

static int always(void) { return 1; }

/* Each build of a kernel, with what it needs beyond the kernel's own
 * instruction set. */
static const struct {
    const char *kernel, *width;
    void (*test)(void *);
    int (*needs)(void);
} lane_tests[] = {
    {"scalar", "32", t_simd_every_mask_scalar_32, always},
#if defined(__x86_64__)
    {"sse4", "16", t_simd_every_mask_sse4_16, always},
    {"sse4", "32", t_simd_every_mask_sse4_32, always},
    {"avx2", "16", t_simd_every_mask_avx2_16, always},
    {"avx2", "32", t_simd_every_mask_avx2_32, always},
    {"avx512", "16", t_simd_every_mask_avx512_16, nq_cpu_has_avx512_vbmi2},
    {"avx512", "32", t_simd_every_mask_avx512_32, always},
#endif
#if defined(__aarch64__)
    {"neon", "16", t_simd_every_mask_neon_16, always},
    {"neon", "32", t_simd_every_mask_neon_32, always},
#endif
};

/* The random jobs' generator.  Each case seeds it from its kernel and
 * job count, so a case meets the same jobs whether it runs alone (a name
 * filter) or after the others, and each kernel meets its own. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static void rng_seed(const char *kernel, int jobs)
{
    uint64_t h = nq_fnv1a(0x9e3779b97f4a7c15ull, kernel, strlen(kernel));
    h = nq_fnv1a(h, &jobs, sizeof jobs);
    rng_state = h ? h : 1; /* xorshift's one stuck state */
}

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

typedef struct {
    int left, *out;
} pick_ctx;

static int pick_solution(void *ctx, const int *cols, int n)
{
    pick_ctx *p = ctx;
    memcpy(p->out, cols, sizeof(int) * (size_t)n);
    return --p->left <= 0;
}

/* A random job: a random solution of an n-board with 3 to 10 of its rows
 * emptied, never fewer (nq_frontier_count hands a job of one or two rows
 * to the plain DFS, not the kernel): always the last, and with `wide_to`
 * also those of the queens on columns wide_from and wide_to, so that the
 * free columns span at least those; half the time two of the kept queens
 * swap columns, so that many jobs have no completion.  The queens kept
 * rule out squares of the emptied rows; the last row's columns get random
 * weights; some jobs start with stray diagonals. */
static void random_job_on(nq_frontier *j, nq_frontier_state *s, int n,
                          int wide_from, int wide_to)
{
    int cols[NQ_MAX_N], empty[NQ_MAX_N] = {0};
    int rows[NQ_MAX_N], k = 0;
    pick_ctx pick = {1 + (int)(rng() % 200), cols};
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "bitmap"};
    nq_counts c;
    nq_enumerate_solutions(&req, pick_solution, &pick, &c);
    empty[n - 1] = 1;
    for (int want = 3 + (int)(rng() % 8), got = 1; got < want && got < n;) {
        int r = (int)(rng() % (uint64_t)n);
        got += !empty[r];
        empty[r] = 1;
    }
    for (int r = 0; wide_to && r < n; r++)
        empty[r] |= cols[r] == wide_from || cols[r] == wide_to;
    int r1 = (int)(rng() % (uint64_t)n), r2 = (int)(rng() % (uint64_t)n);
    if ((rng() & 1) && !empty[r1] && !empty[r2]) {
        int t = cols[r1];
        cols[r1] = cols[r2], cols[r2] = t;
    }
    memset(j, 0, sizeof *j);
    j->full = (1u << n) - 1;
    uint32_t used = 0;
    for (int r = 0; r < n; r++) {
        if (empty[r])
            rows[k++] = r;
        else
            used |= 1u << cols[r];
    }
    j->rows = k;
    for (int i = 0; i < k; i++) {
        uint32_t open = j->full & ~used;
        for (int q = 0; q < n; q++) {
            int d = rows[i] > q ? rows[i] - q : q - rows[i];
            if (empty[q])
                continue;
            if (cols[q] + d < n)
                open &= ~(1u << (cols[q] + d));
            if (cols[q] - d >= 0)
                open &= ~(1u << (cols[q] - d));
        }
        j->open[i] = open;
        j->gap[i] = (uint8_t)(i + 1 < k ? rows[i + 1] - rows[i] : 1);
    }
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        j->weight_cols[w] = (uint32_t)rng() & j->full;
        j->weight[w] = 1u << w;
    }
    *s = (nq_frontier_state){used, 0, 0};
    /* a third of the jobs start with diagonals anywhere in the word, so
     * that the choice of a 16-bit window (frontier.c) meets bits below,
     * in and above it */
    if (rng() % 3 == 0) {
        s->left = (uint32_t)(rng() & rng() & rng());
        s->right = (uint32_t)(rng() & rng() & rng());
    }
}

/* Boards up to 18 columns: every lane width and window. */
static void random_job(nq_frontier *j, nq_frontier_state *s)
{
    random_job_on(j, s, 8 + (int)(rng() % 11), 0, 0);
}

/* Free columns spanning 17 to 21 (now and then more), on boards of 17
 * to 23: jobs a 16-bit kernel takes only as sums of narrower ones
 * (frontier.c's count_split), one to five splits deep (six for the
 * scalar kernel's 15 columns). */
static void wide_job(nq_frontier *j, nq_frontier_state *s)
{
    int n = 17 + (int)(rng() % 7);
    int span = 17 + (int)(rng() % (uint64_t)(n - 16 < 5 ? n - 16 : 5));
    int from = (int)(rng() % (uint64_t)(n - span + 1));
    random_job_on(j, s, n, from, from + span - 1);
}

/* Every row of a 13- to 16-column board to fill, some rows apart (gaps of
 * 1 or 2), half the squares of each closed at random: tall jobs (the
 * scalar kernel's states of four words, frontier_rows.c) whose trees
 * stay small. */
static void tall_job(nq_frontier *j, nq_frontier_state *s)
{
    int n = 13 + (int)(rng() % 4);
    memset(j, 0, sizeof *j);
    j->rows = n;
    j->full = (1u << n) - 1;
    for (int i = 0; i < n; i++) {
        j->open[i] = (uint32_t)rng() & j->full;
        j->gap[i] = (uint8_t)(1 + rng() % 2);
    }
    for (int w = 0; w < NQ_FRONTIER_WEIGHTS; w++) {
        j->weight_cols[w] = (uint32_t)rng() & j->full;
        j->weight[w] = 1u << w;
    }
    *s = (nq_frontier_state){0, 0, 0};
}

typedef void job_maker(nq_frontier *j, nq_frontier_state *s);

/* `jobs` random jobs of a maker, the kernel `name` against the plain DFS. */
static void kernel_agrees_on(const char *name, job_maker *make, int jobs)
{
    CHECK(nq_select_kernel(name) == NQ_OK);
    nq_frontier_work *w = nq_frontier_work_new();
    CHECK(w);
    rng_seed(name, jobs);
    for (int t = 0; t < jobs && !t_failed(); t++) {
        nq_frontier j;
        nq_frontier_state s;
        uint64_t n1 = 0, n2 = 0;
        make(&j, &s);
        /* fewer rows and nq_frontier_count hands the job to the DFS: the
         * DFS against itself */
        CHECKF(j.rows >= 3, "job %d has %d rows: not the kernel's", t, j.rows);
        uint64_t a = nq_frontier_count_dfs(&j, s, &n1);
        uint64_t b = nq_frontier_count(&j, s, w, &n2);
        if (a != b)
            t_fail(__FILE__, __LINE__, "job %d (%d rows): dfs %llu, "
                   "kernel %llu", t, j.rows, (unsigned long long)a,
                   (unsigned long long)b);
    }
    nq_frontier_work_free(w);
    nq_select_kernel(NULL);
}

/* How many random jobs a case draws: a quarter under `make check`, whose
 * quick tier still runs every kernel through every kind of job, and the
 * case's title says the number it drew. */
static int jobs(int full)
{
    return t_quick() ? full / 4 : full;
}

/* Random jobs, the kernel against the plain DFS. */
static void kernels_agree(void *arg)
{
    kernel_agrees_on(arg, random_job, jobs(2000));
}

/* Wide jobs, counted as sums of split jobs, against the plain DFS. */
static void kernels_agree_wide(void *arg)
{
    kernel_agrees_on(arg, wide_job, jobs(300));
}

/* A job of `rows` rows one apart with every square of `full` open, the
 * last row's columns `weighed` counting 1. */
static nq_frontier open_job(int rows, uint32_t full, uint32_t weighed)
{
    nq_frontier j = {.rows = rows, .full = full};
    for (int i = 0; i < rows; i++)
        j.open[i] = full, j.gap[i] = 1;
    j.weight_cols[0] = weighed, j.weight[0] = 1;
    return j;
}

/* Tall jobs against the plain DFS, and whole empty boards of 4 to 13
 * rows against OEIS. */
static void kernels_agree_tall(void *arg)
{
    kernel_agrees_on(arg, tall_job, jobs(150));
    CHECK(nq_select_kernel(arg) == NQ_OK);
    nq_frontier_work *w = nq_frontier_work_new();
    CHECK(w);
    for (int n = 4; n <= 13 && w && !t_failed(); n++) {
        nq_frontier j = open_job(n, (1u << n) - 1, (1u << n) - 1);
        uint64_t nodes = 0;
        uint64_t got = nq_frontier_count(&j, (nq_frontier_state){0, 0, 0}, w, &nodes);
        CHECKF(got == (uint64_t)t_oeis_total(n), "the whole %d-board: %llu", n,
               (unsigned long long)got);
    }
    nq_frontier_work_free(w);
    nq_select_kernel(NULL);
}

/* Each column of the last row weighed on its own, in both bytes of a
 * 16-column row: eight rows to fill on the free columns below (every
 * square of theirs open), the count of each column's weight alone equal
 * to the plain DFS's, and the counts summing to the unweighed total, so
 * that no column's weight can be lost or given to another. */
static void kernels_weigh_each_column(void *arg)
{
    const uint32_t free = 1u << 1 | 1u << 3 | 1u << 5 | 1u << 8 |
                          1u << 10 | 1u << 12 | 1u << 14 | 1u << 15;
    nq_frontier j = open_job(8, 0xffff, 0);
    nq_frontier_state s = {0xffff & ~free, 0, 0};
    uint64_t sum = 0, nodes = 0;
    CHECK(nq_select_kernel(arg) == NQ_OK);
    nq_frontier_work *w = nq_frontier_work_new();
    CHECK(w);
    for (uint32_t cols = free; cols && w && !t_failed(); cols &= cols - 1) {
        j.weight_cols[0] = nq_lowest_bit32(cols);
        uint64_t want = nq_frontier_count_dfs(&j, s, &nodes);
        uint64_t got = nq_frontier_count(&j, s, w, &nodes);
        CHECKF(got == want, "column %d: %llu, the DFS %llu",
               nq_ctz(j.weight_cols[0]), (unsigned long long)got,
               (unsigned long long)want);
        sum += got;
    }
    j.weight_cols[0] = j.full;
    CHECKF(sum > 0 && sum == nq_frontier_count_dfs(&j, s, &nodes),
           "the columns' counts sum to %llu", (unsigned long long)sum);
    nq_frontier_work_free(w);
    nq_select_kernel(NULL);
}

/* The choice: names, support, refusals. */
static void kernel_choice(void *arg)
{
    (void)arg;
    CHECK(nq_kernel_count() >= 1 && !strcmp(nq_kernel_at(0), "scalar"));
    CHECK(nq_kernel_at(nq_kernel_count()) == NULL);
    CHECK(nq_kernel_supported("scalar") && !nq_kernel_supported("mmx"));
    CHECK(nq_kernel_supported(nq_kernel_best()));
    CHECK(nq_select_kernel("mmx") == NQ_ERR_ARG);
    for (int i = 0; i < nq_kernel_count(); i++) {
        const char *k = nq_kernel_at(i);
        nq_status want = nq_kernel_supported(k) ? NQ_OK : NQ_ERR_UNSUPPORTED;
        CHECKF(nq_select_kernel(k) == want, "selecting %s", k);
        if (want == NQ_OK)
            CHECKF(!strcmp(nq_kernel_current(), k), "%s not in use", k);
    }
    CHECK(nq_select_kernel(NULL) == NQ_OK);
    CHECK(!strcmp(nq_kernel_current(), nq_kernel_best()));
}

/* fast to N = 16 and a completion count, with the kernel forced. */
static void engines_with_kernel(void *arg)
{
    CHECK(nq_select_kernel(arg) == NQ_OK);
    for (int n = 1; n <= 16 && !t_failed(); n++) {
        nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
        nq_counts c;
        CHECK(nq_count_solutions(&req, &c) == NQ_OK);
        CHECKF(c.total == t_oeis_total(n) && c.unique == t_oeis_unique(n),
               "fast N=%d with %s", n, (const char *)arg);
    }
    int none[13];
    for (int r = 0; r < 13; r++)
        none[r] = -1;
    nq_request req = {.size = sizeof(nq_request), .n = 13};
    nq_counts c;
    CHECK(nq_count_completions(&req, none, &c) == NQ_OK);
    CHECK(c.total == t_oeis_total(13));
    nq_select_kernel(NULL);
}

void tests_kernels(void)
{
    t_case(kernel_choice, NULL, "kernels/choice-and-refusals");
    for (int i = 0; i < nq_kernel_count(); i++) {
        const char *k = nq_kernel_at(i);
        const char *lacks = nq_kernel_supported(k) ? NULL : "this CPU lacks it";
        t_skip_cases(lacks);
        t_case(engines_with_kernel, (void *)k, "kernels/%s/fast-1..16-and-"
               "complete-13-vs-oeis", k);
        t_case(kernels_agree, (void *)k, "kernels/%s/%d-random-jobs-vs-"
               "dfs", k, jobs(2000));
        t_case(kernels_agree_wide, (void *)k, "kernels/%s/%d-wide-jobs-"
               "split-vs-dfs", k, jobs(300));
        t_case(kernels_agree_tall, (void *)k, "kernels/%s/%d-tall-jobs-vs-"
               "dfs-and-whole-boards-4..13-vs-oeis", k, jobs(150));
        t_case(kernels_weigh_each_column, (void *)k, "kernels/%s/each-last-"
               "row-column-weighed-alone", k);
        for (size_t t = 0; t < sizeof lane_tests / sizeof lane_tests[0]; t++) {
            if (strcmp(k, lane_tests[t].kernel))
                continue;
            /* a build this CPU cannot run (avx512's 16-bit lanes need
             * AVX512_VBMI2) */
            t_skip_cases(lacks ? lacks : lane_tests[t].needs() ? NULL
                         : "this CPU lacks what that build needs");
            t_case(lane_tests[t].test, NULL, "kernels/%s/lanes-%s-bit-masks",
                   k, lane_tests[t].width);
        }
        t_skip_cases(NULL);
    }
}

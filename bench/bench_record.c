/*
 * bench_record.c - `make bench-record`: the cost per solution at record
 * sizes, on a fixed sample.
 *
 * Records are hunted at N = 22 and beyond, where a whole count is hours
 * to months; a benchmark must still be minutes.  The sample is a few
 * parts of fast's plans for N = 21, 22 and 23 (`--part K/M`: every M-th
 * unit, so spread over the whole plan), each kept in bench/record/ as the
 * journal nqueens wrote when it counted that part (bench/record/README.md
 * says how).  For each vector kernel this CPU runs (or each kernel
 * --kernels lists: the scalar kernel's few minutes are asked for),
 * each part is counted again, its total, unique-making fixed points and
 * unit count checked against the journal's, and its cost printed as
 * cycles per solution: CPU time (all threads) times the core clock,
 * measured, over the part's solutions.
 *
 *   nq-bench-record [--threads T] [--kernels k1,k2,...] [JOURNAL...]
 *
 * Exit 0 when every count agrees with its journal, 1 when one does not
 * (or a journal cannot be read), 2 for bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "nqueens.h"

#define MAX_PARTS 16

/* One part of the sample: its journal's header and sums, and the
 * cycles per solution each kernel took (0: not run). */
typedef struct {
    const char *path;
    nq_journal_header h;
    nq_journal_state st;
    double cycles[BENCH_MAX_KERNELS];
} part;

static double hz;

/* A journal of the sample, read whole; 1 (said) if it cannot be, or if
 * it is not a part of fast's plan whose every unit is recorded: a sample
 * half counted would price a different sample. */
static int read_part(const char *path, part *p)
{
    char why[512];
    unsigned char *done = NULL;
    p->path = path;
    nq_status st = nq_journal_merge(&path, 1, NULL, &p->h, &p->st, &done,
                                    NULL, why,
                                    sizeof why);
    free(done);
    if (st != NQ_OK) {
        fprintf(stderr, "nq-bench-record: %s: %s\n", path,
                why[0] ? why : nq_strerror(st));
        return 1;
    }
    if (p->st.units_done == 0) {
        fprintf(stderr, "nq-bench-record: %s: holds no recorded part\n", path);
        return 1;
    }
    return 0;
}

/* The part's plan, made with `kernel` the process default (a plan keeps
 * the kernel of its making); NULL, said, unless it is the plan the
 * journal was written for, whose share the journal covers. */
static nq_plan *part_plan(const part *p, int threads)
{
    nq_request req = {.size = sizeof req, .n = p->h.n, .engine = p->h.engine};
    nq_plan *plan = NULL;
    nq_status st = nq_plan_create(&req, &plan);
    if (st != NQ_OK) {
        fprintf(stderr, "nq-bench-record: %s: %s\n", p->path, nq_strerror(st));
        return NULL;
    }
    nq_run_options o = {.threads = threads, .part = p->h.part,
                        .parts = p->h.parts};
    if (nq_plan_identity(plan) != p->h.identity ||
        nq_plan_selected(plan, &o) != p->st.units_done) {
        fprintf(stderr, "nq-bench-record: %s: not a whole part of this "
                "release's %s plan for N = %d\n", p->path, p->h.engine,
                p->h.n);
        nq_plan_free(plan);
        return NULL;
    }
    return plan;
}

/* Whether a recount holds what the journal recorded: every count but
 * nodes (the engine's own, which a kernel may count otherwise). */
static int agrees(const nq_tally *a, const nq_tally *b)
{
    return a->total == b->total && a->unique == b->unique &&
           a->fixed180 == b->fixed180 && a->fixed90 == b->fixed90;
}

/* Count the part with `kernel`, print its row and note its cycles per
 * solution; 1 if it fails or disagrees with the journal. */
static int run_part(part *p, const char *kernel, int k, int threads)
{
    if (nq_select_kernel(kernel) != NQ_OK) {
        fprintf(stderr, "nq-bench-record: kernel %s cannot run here\n", kernel);
        return 1;
    }
    nq_plan *plan = part_plan(p, threads);
    if (!plan)
        return 1;
    nq_run_options o = {.threads = threads, .part = p->h.part,
                        .parts = p->h.parts};
    nq_tally sum = {0};
    double cpu0 = bench_cpu_seconds(), t0 = nq_clock_seconds();
    nq_status st = nq_plan_run(plan, &o, &sum);
    double wall = nq_clock_seconds() - t0, cpu = bench_cpu_seconds() - cpu0;
    nq_plan_free(plan);
    char total[NQ_U128_DIGITS];
    double sols = (double)sum.total;
    int ok = st == NQ_OK && agrees(&sum, &p->st.sum);
    p->cycles[k] = ok && sols > 0 ? cpu * hz / sols : 0; /* 0: no figure */
    printf("%-7s %3d %5u/%-5u %6llu %16s %8.1f %8.1f %8.2f  %s\n", kernel,
           p->h.n, p->h.part, p->h.parts,
           (unsigned long long)p->st.units_done, nq_format_u128(sum.total, total),
           wall, cpu, p->cycles[k],
           st != NQ_OK ? nq_strerror(st) : ok ? "agrees" : "DISAGREES");
    fflush(stdout);
    return !ok;
}

/* Each kernel's cycles per solution by N, side by side, and how N's
 * cost compares with the smallest N's (a cost that climbs with N is what
 * the sample is there to show). */
static void print_summary(const part *parts, int np, const char *const *ks,
                          int nk)
{
    char head[16];
    printf("\n%-28s", "cycles per solution");
    for (int i = 0; i < np; i++) {
        snprintf(head, sizeof head, "N=%d", parts[i].h.n);
        printf(" %7s", head);
    }
    snprintf(head, sizeof head, "N=%d/N=%d", parts[np - 1].h.n, parts[0].h.n);
    printf(" %11s\n", head);
    for (int k = 0; k < nk; k++) {
        printf("%-28s", ks[k]);
        for (int i = 0; i < np; i++)
            printf(" %7.2f", parts[i].cycles[k]);
        double first = parts[0].cycles[k], last = parts[np - 1].cycles[k];
        printf(" %11.2f\n", first > 0 ? last / first : 0);
    }
}

/* The default sample: bench/record/'s journals, from the source tree
 * (make bench-record runs from there). */
static const char *const default_sample[] = {
    "bench/record/n21-part11-of-30.journal",
    "bench/record/n22-part11-of-300.journal",
    "bench/record/n23-part11-of-3000.journal",
};

/* A mistyped option must not start minutes of counting. */
static int usage(void)
{
    fprintf(stderr, "usage: nq-bench-record [--threads T] "
                    "[--kernels k1,k2,...] [JOURNAL...]\n");
    return 2;
}

/* The options; the journals named, or the default sample.  Returns the
 * number of journals, or -1 for bad usage. */
static int parse(int argc, char **argv, int *threads, const char **kernels,
                 const char **paths)
{
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(argv[i], "--threads") && v) {
            long t = strtol(v, &end, 10);
            if (!*v || *end || t < 0 || t > 4096)
                return -1;
            *threads = (int)t, i++;
        } else if (!strcmp(argv[i], "--kernels") && v) {
            *kernels = v, i++;
        } else if (argv[i][0] == '-' || np == MAX_PARTS) {
            return -1;
        } else {
            paths[np++] = argv[i];
        }
    }
    int nd = (int)(sizeof default_sample / sizeof default_sample[0]);
    for (int i = 0; np == 0 && i < nd; i++)
        paths[i] = default_sample[i];
    return np ? np : nd;
}

int main(int argc, char **argv)
{
    int threads = 0, fail = 0;
    const char *kernels = NULL, *paths[MAX_PARTS], *ks[BENCH_MAX_KERNELS];
    static part parts[MAX_PARTS];
    int np = parse(argc, argv, &threads, &kernels, paths);
    int nk = np < 0 ? -1 : bench_chosen_kernels(kernels, ks);
    if (!kernels && nk > 1 && !strcmp(ks[0], "scalar"))
        memmove(ks, ks + 1, --nk * sizeof ks[0]); /* minutes: asked for */
    if (nk < 0)
        return usage();
    if (nk == 0) {
        fprintf(stderr, "nq-bench-record: no kernel listed runs on this CPU\n");
        return 2;
    }
    for (int i = 0; i < np; i++)
        if (read_part(paths[i], &parts[i]))
            return 1;
    bench_print_cpu();
    hz = bench_core_hz();
    printf("core clock %.2f GHz (measured), %d threads\n\n", hz / 1e9,
           nq_request_threads(&(nq_request){.size = sizeof(nq_request), .threads = threads}));
    printf("%-7s %3s %11s %6s %16s %8s %8s %8s  %s\n", "kernel", "N", "part",
           "units", "solutions", "wall s", "cpu s", "cyc/sol", "journal");
    for (int k = 0; k < nk; k++)
        for (int i = 0; i < np; i++)
            fail |= run_part(&parts[i], ks[k], k, threads);
    print_summary(parts, np, ks, nk);
    return fail;
}

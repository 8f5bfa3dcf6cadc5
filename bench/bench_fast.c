/*
 * bench_fast.c - `make bench-fast`: the counting engines side by side.
 *
 * One run, one machine state: the fast engine with each kernel this CPU
 * runs (scalar, sse4, avx2, avx512, neon), N = 16..19, on one thread and
 * on all; or, with --engines, those engines side by side.  For each count:
 * wall seconds, solutions and nodes per second, and CPU cycles per
 * solution.  Cycles are the process's CPU time times the core
 * clock, which is measured at start by timing a chain of dependent adds
 * (one cycle each); this machine's virtualised PMU offers no perf
 * counters, and rdtsc ticks at a fixed rate unrelated to the core clock
 * (both rates are printed).
 *
 *   nq-bench-fast [--from N] [--to N] [--threads T] [--kernels k1,k2,...]
 *                 [--rounds R [--peer 'COMMAND ARGS']]
 *   nq-bench-fast --engines e1,e2,... [--from N] [--to N] [--threads T]
 *
 * With --rounds R each count runs R times, the kernels taking turns, and
 * each row gives the median, the range and the ratio to the fastest
 * kernel (rounds_print says how).  With --peer another counter takes its
 * turn too (one N: from = to), run by the shell, and each kernel's time
 * is also given against the peer's in the same round (peer_print).  The
 * kernels' times are of the library's count, the peer's of its whole
 * process (its start and exit too: a millisecond or two).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "machine.h"
#include "nqueens.h"

static double hz;

/* One count's measure: wall and CPU seconds, the answer. */
typedef struct {
    nq_status status;
    double wall, cpu;
    nq_counts counts;
    int threads; /* the threads it used */
} sample;

/* The threads a count asking for `threads` gets (0: every core). */
static int threads_of(int threads)
{
    nq_request req = {.size = sizeof req, .threads = threads};
    return nq_request_threads(&req);
}

static sample measure(const char *engine, int n, int threads)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .threads = threads};
    sample s;
    double cpu0 = bench_cpu_seconds(), t0 = nq_clock_seconds();
    s.status = nq_count_solutions(&req, &s.counts);
    s.wall = nq_clock_seconds() - t0;
    s.cpu = bench_cpu_seconds() - cpu0;
    s.threads = nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS
                    ? nq_request_threads(&req) : 1;
    return s;
}

/* ---- a peer: another counter, timed beside the kernels ---- */

/* The peer's command line (run by the shell), or NULL. */
static const char *peer;

static double timeval_seconds(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

/* CPU time of the children waited for (the peer's runs). */
static double children_cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return timeval_seconds(ru.ru_utime) + timeval_seconds(ru.ru_stime);
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* The peer's output, read as a stream (of any length): whether a whole
 * number in it is the total, and its first characters for a message.  A
 * whole number is a run of digits with no '.', ',' or '-' just before it, and
 * after it neither a digit nor a '.' or ',' that goes on with a digit: a
 * total seen inside "0.724 s" or "17240" is no answer.  (At small N the
 * total may equal some other number the peer prints; the check is meant
 * for the counts peers are timed at.) */
typedef struct {
    const char *want;  /* the total's digits */
    char run[48];      /* the digits read since the last other character */
    size_t len;        /* how many (may pass the run's size: not the total) */
    int may_start;     /* the character before the run allows a number */
    int ended_by_mark; /* the run was the total, then '.' or ',' came */
    int found;
    char head[161];    /* the first characters, blanks squeezed to one */
    size_t head_len;
} peer_scan;

static int is_mark(int c) { return c == '.' || c == ','; }

/* A character a number may not follow: a mark or a minus sign. */
static int joins_before(int c) { return is_mark(c) || c == '-'; }

/* The run of digits just ended, before c (EOF at the end). */
static void scan_run_end(peer_scan *p, int c)
{
    size_t want = strlen(p->want);
    if (p->len && p->may_start && p->len == want && !memcmp(p->run, p->want, want)) {
        if (is_mark(c))
            p->ended_by_mark = 1; /* the next character decides */
        else
            p->found = 1;
    }
    p->len = 0;
}

/* The output's start, kept for the message that says what the peer
 * printed instead: its line breaks and runs of blanks as one space. */
static void scan_head(peer_scan *p, int c)
{
    int blank = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (p->head_len + 1 >= sizeof p->head || (blank && (!p->head_len ||
                                                        p->head[p->head_len - 1] == ' ')))
        return;
    p->head[p->head_len++] = blank ? ' ' : (char)c;
    p->head[p->head_len] = '\0';
}

/* One character of the output: a digit extends the run, anything else
 * ends it (and says whether a run may start after it); a mark that
 * ended the total waits for this character to say if it was a decimal. */
static void scan_char(peer_scan *p, int c)
{
    scan_head(p, c);
    if (p->ended_by_mark)
        p->found |= !is_digit(c), p->ended_by_mark = 0;
    if (is_digit(c)) {
        if (p->len < sizeof p->run)
            p->run[p->len] = (char)c;
        p->len++;
        return;
    }
    scan_run_end(p, c);
    p->may_start = !joins_before(c);
}

/* Runs the peer, reading all it prints into *scan; its exit status, or
 * -1 if it could not be started. */
static int run_peer(peer_scan *scan)
{
    FILE *f = popen(peer, "r");
    int c;
    if (!f)
        return -1;
    while ((c = getc(f)) != EOF)
        scan_char(scan, c);
    scan_run_end(scan, EOF);
    scan->found |= scan->ended_by_mark;
    return pclose(f);
}

/* Why the peer's run failed, on stderr, from its status. */
static void say_peer_failed(int rc)
{
    if (rc < 0)
        fprintf(stderr, "nq-bench-fast: the peer '%s' could not be started\n", peer);
    else if (WIFEXITED(rc) && WEXITSTATUS(rc) == 127)
        fprintf(stderr, "nq-bench-fast: the peer '%s' exited 127: the shell found "
                        "no such command\n", peer);
    else if (WIFEXITED(rc))
        fprintf(stderr, "nq-bench-fast: the peer '%s' exited %d\n", peer,
                WEXITSTATUS(rc));
    else
        fprintf(stderr, "nq-bench-fast: the peer '%s' did not run to its end\n", peer);
}

/* One run of the peer: its wall and CPU seconds, with the counts of
 * nqueens' own run `ours` once the peer's output is seen to hold its
 * total.  A peer that fails or counts anything else is never timed:
 * status NQ_ERR_IO, having said why on stderr. */
static sample measure_peer(const sample *ours)
{
    char total[NQ_U128_DIGITS];
    peer_scan scan = {.want = nq_format_u128(ours->counts.total, total), .may_start = 1};
    sample s = *ours;
    double cpu0 = children_cpu_seconds(), t0 = nq_clock_seconds();
    int rc = run_peer(&scan);
    s.wall = nq_clock_seconds() - t0;
    s.cpu = children_cpu_seconds() - cpu0;
    s.counts.nodes = 0, s.threads = 0; /* neither is known */
    if (rc != 0) {
        say_peer_failed(rc);
        s.status = NQ_ERR_IO;
    } else if (!scan.found) {
        if (scan.head_len && scan.head[scan.head_len - 1] == ' ')
            scan.head[--scan.head_len] = '\0';
        fprintf(stderr, "nq-bench-fast: the peer's output does not hold the "
                        "total, %s, as a number: %s\n", total, scan.head);
        s.status = NQ_ERR_IO;
    }
    return s;
}

/* A row: wall seconds, solutions and nodes per second, cycles per
 * solution (CPU time of all threads times the clock); no newline. */
static void print_row(const char *engine, const char *kernel, int n,
                      const sample *s)
{
    char total[NQ_U128_DIGITS];
    double sols = (double)s->counts.total;
    char nodes[32] = "-"; /* a peer's are unknown */
    if (s->counts.nodes)
        snprintf(nodes, sizeof nodes, "%12.4g", (double)s->counts.nodes / s->wall);
    char threads[16] = "-"; /* nor its threads */
    if (s->threads)
        snprintf(threads, sizeof threads, "%d", s->threads);
    printf("%-9s %-7s %3d %7s %18s %10.3f %12.4g %12s %9.1f", engine,
           kernel, n, threads, nq_format_u128(s->counts.total, total),
           s->wall, sols / s->wall, nodes, s->cpu * hz / sols);
}

static void run(const char *engine, const char *kernel, int n, int threads)
{
    sample s = measure(engine, n, threads);
    if (s.status != NQ_OK)
        printf("%-9s %-7s %3d  %s\n", engine, kernel, n, nq_strerror(s.status));
    else
        print_row(engine, kernel, n, &s), printf("\n");
    fflush(stdout);
}

/* The CPU's name and family, as the kernel reports them: the figures
 * mean little without them (AVX-512 costs differ between Zen 4 and 5). */
#define MAX_KERNELS BENCH_MAX_KERNELS
#define MAX_ROUNDS 99

/* fast with each chosen kernel, N = from..to, on one thread and on
 * `threads`. */
static void kernels_table(const char *const *ks, int nk, int from, int to,
                          int threads)
{
    for (int i = 0; i < nk; i++) {
        nq_select_kernel(ks[i]);
        for (int n = from; n <= to; n++) {
            run("fast", ks[i], n, 1);
            if (threads_of(threads) > 1)
                run("fast", ks[i], n, threads);
        }
    }
    nq_select_kernel(NULL);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median, least and greatest of v[0..n) (sorted in place). */
static double spread(double *v, int n, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    *lo = v[0], *hi = v[n - 1];
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef sample round_samples[MAX_KERNELS + 1][MAX_ROUNDS];

/* Each kernel `rounds` times at N on `threads`, and the peer (if any) as
 * one more, taking turns (the order rotating each round) so that the
 * machine's drift, which on a shared machine moves one run by 10%, falls
 * on all of them alike.  The first kernel runs first in the first round,
 * so the peer's answer is always checked against a count.  Returns 1,
 * having said why, if a count failed or two disagreed: a wrong number is
 * never timed. */
static int rounds_measure(const char *const *ks, int nk, int n, int threads,
                          int rounds, round_samples s)
{
    int slots = nk + (peer != NULL);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < slots; j++) {
            int k = (j + r) % slots;
            if (k == nk) {
                s[k][r] = measure_peer(&s[0][0]);
                if (s[k][r].status != NQ_OK)
                    return 1;
                continue;
            }
            nq_select_kernel(ks[k]);
            s[k][r] = measure("fast", n, threads);
            if (s[k][r].status != NQ_OK) {
                printf("fast      %-7s %3d  %s\n", ks[k], n, nq_strerror(s[k][r].status));
                return 1;
            }
            if (s[k][r].counts.total != s[0][0].counts.total ||
                s[k][r].counts.unique != s[0][0].counts.unique) {
                printf("fast      %-7s %3d  counts differ from %s's\n", ks[k], n, ks[0]);
                return 1;
            }
        }
    return 0;
}

/* The median over rounds of row a's time against row b's in the same
 * round, with its range. */
static double round_ratio(round_samples s, int a, int b, int rounds,
                          double *lo, double *hi)
{
    double x[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++)
        x[r] = s[a][r].wall / s[b][r].wall;
    return spread(x, rounds, lo, hi);
}

/* Row k's median seconds, its least and its greatest. */
static double median_wall(round_samples s, int k, int rounds, double *least,
                          double *most)
{
    double wall[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++)
        wall[r] = s[k][r].wall;
    return spread(wall, rounds, least, most);
}

/* A row per kernel (and the peer): its median seconds and cycles, its
 * least and greatest seconds, and the median over rounds of its time
 * against the time of the fastest kernel (least median) in the same
 * round, with their range: the ratio two kernels are compared by. */
static void rounds_print(const char *const *ks, int nk, int n, int rounds,
                         round_samples s)
{
    double cpu[MAX_ROUNDS], lo, hi, best = 0;
    int ref = 0, slots = nk + (peer != NULL);
    for (int k = 0; k < nk; k++) {
        double med = median_wall(s, k, rounds, &lo, &hi);
        if (k == 0 || med < best)
            best = med, ref = k;
    }
    for (int k = 0; k < slots; k++) {
        sample m = s[k][0];
        for (int r = 0; r < rounds; r++)
            cpu[r] = s[k][r].cpu;
        m.cpu = spread(cpu, rounds, &lo, &hi);
        m.wall = median_wall(s, k, rounds, &lo, &hi);
        print_row(k < nk ? "fast" : "peer", k < nk ? ks[k] : "-", n, &m);
        printf(" %8.3f %8.3f", lo, hi);
        double x = round_ratio(s, k, ref, rounds, &lo, &hi);
        printf("  %.2f (%.2f-%.2f)\n", x, lo, hi);
        fflush(stdout);
    }
}

/* Each kernel against the peer: the median of the rounds' ratios (the
 * figure to quote: the machine's speed moves between rounds, and each
 * ratio is of two runs side by side), its range, and beside it the ratios
 * of the medians and of the least times. */
static void peer_print(const char *const *ks, int nk, int rounds,
                       round_samples s)
{
    double lo, hi, peer_least, peer_med = median_wall(s, nk, rounds, &peer_least, &hi);
    printf("\npeer: %s\n", peer);
    for (int k = 0; k < nk; k++) {
        double least, med = median_wall(s, k, rounds, &least, &hi);
        double x = round_ratio(s, k, nk, rounds, &lo, &hi);
        printf("%-7s against the peer: %.3f (rounds %.3f-%.3f); medians %.3f, least %.3f\n",
               ks[k], x, lo, hi, med / peer_med, least / peer_least);
    }
    fflush(stdout);
}

/* One count's rounds, measured and printed; 1 if they failed. */
static int rounds_at(const char *const *ks, int nk, int n, int threads,
                     int rounds)
{
    static round_samples s;
    if (rounds_measure(ks, nk, n, threads, rounds, s))
        return 1;
    rounds_print(ks, nk, n, rounds, s);
    if (peer)
        peer_print(ks, nk, rounds, s);
    return 0;
}

/* Rounds for N = from..to, on one thread and on `threads`, as
 * kernels_table runs them; beside a peer, whose threads are its own
 * command's, on `threads` only. */
static int kernels_rounds(const char *const *ks, int nk, int from, int to,
                          int threads, int rounds)
{
    int all = threads_of(threads), fail = 0;
    for (int n = from; n <= to && !fail; n++) {
        if (!peer || all == 1)
            fail = rounds_at(ks, nk, n, 1, rounds);
        if (!fail && all > 1)
            fail = rounds_at(ks, nk, n, threads, rounds);
    }
    nq_select_kernel(NULL);
    return fail;
}

/* A whole-number option's value in [lo, hi], else -1. */
static int number(const char *s, int lo, int hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= lo && v <= hi ? (int)v : -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: nq-bench-fast [--from N] [--to N] [--threads T] "
                    "[--kernels k1,k2,...]\n"
                    "                     [--rounds R [--peer 'COMMAND' (with --from N --to N)]]\n"
                    "       nq-bench-fast --engines e1,e2,... [--from N] [--to N] "
                    "[--threads T]\n");
    return 2;
}

/* The CPU, its clock and kernels, and the table's header. */
static void print_header(int threads, int rounds)
{
    bench_print_cpu();
    hz = bench_core_hz();
    printf("core clock %.2f GHz (measured), rdtsc %.2f GHz, %d threads\n"
           "kernels this CPU runs:", hz / 1e9, bench_tsc_hz() / 1e9,
           threads_of(threads));
    for (int i = 0; i < nq_kernel_count(); i++)
        if (nq_kernel_supported(nq_kernel_at(i)))
            printf(" %s", nq_kernel_at(i));
    printf("\n\n%-9s %-7s %3s %7s %18s %10s %12s %12s %9s", "engine",
           "kernel", "N", "threads", "total", "seconds", "solutions/s",
           "nodes/s", "cyc/sol");
    if (rounds)
        printf(" %8s %8s  %s", "min", "max", "x fastest (range)");
    printf("\n");
}

int main(int argc, char **argv)
{
    int from = 16, to = 19, threads = 0, rounds = 0;
    const char *engines = NULL, *kernels = NULL, *ks[MAX_KERNELS];
    for (int i = 1; i < argc; i += 2) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        if (!strcmp(argv[i], "--from"))
            from = number(v, 1, NQ_MAX_N);
        else if (!strcmp(argv[i], "--to"))
            to = number(v, 1, NQ_MAX_N);
        else if (!strcmp(argv[i], "--threads"))
            threads = number(v, 0, 4096);
        else if (!strcmp(argv[i], "--engines"))
            engines = v;
        else if (!strcmp(argv[i], "--kernels"))
            kernels = v;
        else if (!strcmp(argv[i], "--rounds"))
            rounds = number(v, 1, MAX_ROUNDS);
        else if (!strcmp(argv[i], "--peer") && *v)
            peer = v;
        else
            return usage();
        if (from < 0 || to < 0 || threads < 0 || rounds < 0)
            return usage();
    }
    int nk = bench_chosen_kernels(kernels, ks);
    if (nk < 0 || (engines && (kernels || rounds))) /* rounds compare kernels */
        return usage();
    if (peer && (!rounds || from != to)) /* a peer counts one N, in rounds */
        return usage();
    if (!engines && nk == 0) {
        fprintf(stderr, "nq-bench-fast: no kernel listed runs on this CPU\n");
        return 2;
    }
    print_header(threads, rounds);
    if (!engines && rounds)
        return kernels_rounds(ks, nk, from, to, threads, rounds);
    if (!engines) {
        kernels_table(ks, nk, from, to, threads);
        return 0;
    }
    char list[256];
    snprintf(list, sizeof list, "%s", engines);
    for (char *e = strtok(list, ","); e; e = strtok(NULL, ","))
        for (int n = from; n <= to; n++)
            run(e, nq_kernel_current(), n, threads);
    return 0;
}

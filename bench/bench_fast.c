/*
 * bench_fast.c - `make bench-fast`: the counting engines side by side.
 *
 * One run, one machine state: fast, carry, symmetry and mirror on the same
 * boards, then fast alone on larger ones, then fast's speed-up from 1 to 2
 * threads.  For each count: wall seconds, solutions per second, and CPU
 * cycles per solution.  Cycles are the process's CPU time times the core
 * clock, which is measured at start by timing a chain of dependent adds
 * (one cycle each); this machine's virtualised PMU offers no perf
 * counters, and rdtsc ticks at a fixed rate unrelated to the core clock
 * (both rates are printed).
 *
 *   nq-bench-fast [--from N] [--to N] [--large N,N,...] [--threads T]
 *                 [--engines e1,e2,...] [--scaling N,N,...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_RDTSC 1
#endif

#include "nqueens.h"

/* CPU time of the process (the wall clock is the library's). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Core cycles per second: 8 dependent adds per iteration, one cycle each. */
static double core_hz(void)
{
    uint64_t x = 1, iters = 200000000ull;
    double t0 = nq_clock_seconds();
    for (uint64_t i = 0; i < iters; i++) {
#ifdef HAVE_RDTSC
        __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\t"
                         "add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0"
                         : "+r"(x));
#else
        __asm__ volatile("" : "+r"(x)); /* no x86: one add a round, roughly */
        x += 8;
#endif
    }
    return 8.0 * (double)iters / (nq_clock_seconds() - t0);
}

static double tsc_hz(void)
{
#ifndef HAVE_RDTSC
    return 0;
#else
    double t0 = nq_clock_seconds();
    uint64_t c0 = __rdtsc();
    while (nq_clock_seconds() - t0 < 0.2)
        ;
    return (double)(__rdtsc() - c0) / (nq_clock_seconds() - t0);
#endif
}

static double hz;

static void run(const char *engine, int n, int threads)
{
    nq_request req = {.n = n, .engine = engine, .threads = threads};
    nq_counts c;
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    double cpu0 = cpu_seconds(), t0 = nq_clock_seconds();
    nq_status st = nq_count_solutions(&req, &c);
    double wall = nq_clock_seconds() - t0;
    double cpu = cpu_seconds() - cpu0;
    if (st != NQ_OK) {
        printf("%-9s %3d  %s\n", engine, n, nq_strerror(st));
        return;
    }
    int used = nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS
                   ? nq_request_threads(&req) : 1;
    double sols = (double)c.total;
    printf("%-9s %3d %7d %18s %16s %10.3f %14.4g %10.1f\n", engine, n, used,
           nq_format_u128(c.total, total), nq_format_u128(c.unique, unique),
           wall, sols / wall, cpu * hz / sols);
    fflush(stdout);
}

/* "a,b,c" into up to max numbers. */
static int numbers(const char *s, int *out, int max)
{
    int k = 0;
    while (*s && k < max) {
        out[k++] = atoi(s);
        s += strcspn(s, ",");
        s += *s == ',';
    }
    return k;
}

int main(int argc, char **argv)
{
    int from = 15, to = 18, threads = 0, large[8], scaling[8];
    int nlarge = numbers("19,20", large, 8), nscaling = numbers("17,18", scaling, 8);
    char engines[256] = "fast,carry,symmetry,mirror";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--from"))
            from = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--to"))
            to = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--large"))
            nlarge = numbers(argv[i + 1], large, 8);
        else if (!strcmp(argv[i], "--scaling"))
            nscaling = numbers(argv[i + 1], scaling, 8);
        else if (!strcmp(argv[i], "--engines"))
            snprintf(engines, sizeof engines, "%s", argv[i + 1]);
        else {
            fprintf(stderr, "nq-bench-fast: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    hz = core_hz();
    printf("core clock %.2f GHz (measured), rdtsc %.2f GHz, %d threads\n\n",
           hz / 1e9, tsc_hz() / 1e9, nq_request_threads(&(nq_request){.threads = threads}));
    printf("%-9s %3s %7s %18s %16s %10s %14s %10s\n", "engine", "N", "threads",
           "total", "unique", "seconds", "solutions/s", "cyc/sol");
    for (char *e = strtok(engines, ","); e; e = strtok(NULL, ","))
        for (int n = from; n <= to; n++)
            run(e, n, threads);
    for (int i = 0; i < nlarge; i++)
        run("fast", large[i], threads);
    printf("\nthread scaling of fast (1 thread, then 2):\n");
    for (int i = 0; i < nscaling; i++) {
        run("fast", scaling[i], 1);
        run("fast", scaling[i], 2);
    }
    return 0;
}

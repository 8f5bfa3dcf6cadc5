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
 *   nq-bench-fast --engines e1,e2,... [--from N] [--to N] [--threads T]
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

/* One count: wall seconds, solutions and nodes per second, cycles per
 * solution (CPU time of all threads times the clock). */
static void run(const char *engine, const char *kernel, int n, int threads)
{
    nq_request req = {.n = n, .engine = engine, .threads = threads};
    nq_counts c;
    char total[NQ_U128_DIGITS];
    double cpu0 = cpu_seconds(), t0 = nq_clock_seconds();
    nq_status st = nq_count_solutions(&req, &c);
    double wall = nq_clock_seconds() - t0;
    double cpu = cpu_seconds() - cpu0;
    if (st != NQ_OK) {
        printf("%-9s %-7s %3d  %s\n", engine, kernel, n, nq_strerror(st));
        return;
    }
    int used = nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS
                   ? nq_request_threads(&req) : 1;
    double sols = (double)c.total;
    printf("%-9s %-7s %3d %7d %18s %10.3f %12.4g %12.4g %9.1f\n", engine,
           kernel, n, used, nq_format_u128(c.total, total), wall, sols / wall,
           (double)c.nodes / wall, cpu * hz / sols);
    fflush(stdout);
}

/* The CPU's name and family, as the kernel reports them: the figures
 * mean little without them (AVX-512 costs differ between Zen 4 and 5). */
static void print_cpu(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512], name[256] = "unknown", family[64] = "?", model[64] = "?";
    while (f && fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v += 1 + (v[1] == ' ');
        v[strcspn(v, "\n")] = '\0';
        if (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5))
            snprintf(name, sizeof name, "%s", v);
        else if (!strncmp(line, "cpu family", 10) ||
                 !strncmp(line, "CPU implementer", 15))
            snprintf(family, sizeof family, "%s", v);
        else if ((!strncmp(line, "model\t", 6) || !strncmp(line, "CPU part", 8)))
            snprintf(model, sizeof model, "%s", v);
    }
    if (f)
        fclose(f);
    printf("cpu: %s (family %s, model %s)\n", name, family, model);
}

/* Whether "a,b,c" names `name`. */
static int listed(const char *list, const char *name)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *p = strtok(copy, ","); p; p = strtok(NULL, ","))
        if (!strcmp(p, name))
            return 1;
    return 0;
}

/* fast with each kernel this CPU runs (or those listed), N = from..to,
 * on one thread and on `threads`. */
static void kernels_table(int from, int to, int threads, const char *only)
{
    for (int i = 0; i < nq_kernel_count(); i++) {
        const char *k = nq_kernel_at(i);
        if (!nq_kernel_supported(k) || (only && !listed(only, k)))
            continue;
        nq_select_kernel(k);
        for (int n = from; n <= to; n++) {
            run("fast", k, n, 1);
            if (nq_request_threads(&(nq_request){.threads = threads}) > 1)
                run("fast", k, n, threads);
        }
    }
    nq_select_kernel(NULL);
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
                    "[--kernels k1,k2,...] [--engines e1,e2,...]\n");
    return 2;
}

int main(int argc, char **argv)
{
    int from = 16, to = 19, threads = 0;
    const char *engines = NULL, *kernels = NULL;
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
        else
            return usage();
        if (from < 0 || to < 0 || threads < 0)
            return usage();
    }
    print_cpu();
    hz = core_hz();
    printf("core clock %.2f GHz (measured), rdtsc %.2f GHz, %d threads\n"
           "kernels this CPU runs:", hz / 1e9, tsc_hz() / 1e9,
           nq_request_threads(&(nq_request){.threads = threads}));
    for (int i = 0; i < nq_kernel_count(); i++)
        if (nq_kernel_supported(nq_kernel_at(i)))
            printf(" %s", nq_kernel_at(i));
    printf("\n\n%-9s %-7s %3s %7s %18s %10s %12s %12s %9s\n", "engine",
           "kernel", "N", "threads", "total", "seconds", "solutions/s",
           "nodes/s", "cyc/sol");
    if (!engines) {
        kernels_table(from, to, threads, kernels);
        return 0;
    }
    char list[256];
    snprintf(list, sizeof list, "%s", engines);
    for (char *e = strtok(list, ","); e; e = strtok(NULL, ","))
        for (int n = from; n <= to; n++)
            run(e, nq_kernel_current(), n, threads);
    return 0;
}

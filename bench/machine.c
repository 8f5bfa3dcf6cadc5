/*
 * machine.c - the machine a benchmark ran on: its CPU, clock and time.
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

#include "machine.h"
#include "nqueens.h"

/* CPU time, every thread's: cycles per solution are of the work done,
 * whatever the threads' balance. */
double bench_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 8 dependent adds per iteration (x86-64, aarch64), one cycle each, for
 * 200 million iterations (about half a second): long enough for the
 * clock to settle at what a long count runs at. */
double bench_core_hz(void)
{
    uint64_t x = 1, iters = 200000000ull;
    double t0 = nq_clock_seconds();
    for (uint64_t i = 0; i < iters; i++) {
#if defined(HAVE_RDTSC)
        __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\t"
                         "add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0"
                         : "+r"(x));
#elif defined(__aarch64__)
        __asm__ volatile("add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\t"
                         "add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\t"
                         "add %0,%0,#1\n\tadd %0,%0,#1"
                         : "+r"(x));
#else
#define ONE_ADD_A_ROUND 1 /* elsewhere: one add the compiler keeps, with
                             the loop's own: a rough figure */
        __asm__ volatile("" : "+r"(x));
        x += 1;
#endif
    }
#ifdef ONE_ADD_A_ROUND
    return (double)iters / (nq_clock_seconds() - t0);
#else
    return 8.0 * (double)iters / (nq_clock_seconds() - t0);
#endif
}

/* Ticks of rdtsc in 0.2 s of the wall clock. */
double bench_tsc_hz(void)
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

/* The lines of /proc/cpuinfo that name the CPU, on x86 and on ARM. */
void bench_print_cpu(void)
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

/* A typo in a list of kernels must not leave a kernel out unseen: every
 * name listed must be one nqueens has (run here or not). */
static int all_known(const char *list)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *p = strtok(copy, ","); p; p = strtok(NULL, ",")) {
        int known = 0;
        for (int i = 0; i < nq_kernel_count(); i++)
            known |= !strcmp(p, nq_kernel_at(i));
        if (!known)
            return 0;
    }
    return 1;
}

/* In the library's order, so that every benchmark's table lists them the
 * same way. */
int bench_chosen_kernels(const char *only, const char **ks)
{
    int nk = 0;
    if (only && !all_known(only))
        return -1;
    for (int i = 0; i < nq_kernel_count() && nk < BENCH_MAX_KERNELS; i++) {
        const char *k = nq_kernel_at(i);
        if (nq_kernel_supported(k) && (!only || listed(only, k)))
            ks[nk++] = k;
    }
    return nk;
}

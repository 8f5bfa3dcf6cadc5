/*
 * machine.h - what the benchmarks say of the machine they ran on: the
 * CPU's name, family and model, its core clock measured, and CPU time, so
 * that every figure they print can be turned into cycles per solution and
 * quoted with the machine named (bench/RESULTS.md asks for both).
 */
#ifndef NQ_BENCH_MACHINE_H
#define NQ_BENCH_MACHINE_H

/* CPU seconds of this process, all its threads (the wall clock is the
 * library's nq_clock_seconds). */
double bench_cpu_seconds(void);
/* Core cycles per second, measured by timing a chain of dependent adds:
 * this machine's virtualised PMU offers no perf counters. */
double bench_core_hz(void);
/* rdtsc's rate (0 off x86): printed beside the core clock to show that
 * it is not the core clock. */
double bench_tsc_hz(void);
/* "cpu: NAME (family F, model M)" on stdout, from /proc/cpuinfo. */
void bench_print_cpu(void);

/* The kernels to run: those this CPU runs, or of them those listed in
 * "a,b,c" (only, if not NULL), at most BENCH_MAX_KERNELS, into ks.
 * Returns how many, or -1 if the list names a kernel nqueens does not
 * have. */
#define BENCH_MAX_KERNELS 16
int bench_chosen_kernels(const char *only, const char **ks);

#endif

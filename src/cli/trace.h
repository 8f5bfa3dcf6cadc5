/*
 * trace.h - what the two styles of `nqueens trace` share: the walk's
 * state, kept from one event to the next.
 */
#ifndef NQ_TRACE_H
#define NQ_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "nqueens.h"

typedef struct {
    int n, base;  /* base: 1 with --one-based */
    int seed;     /* --style seed */
    int limited;  /* --limit given */
    int json;     /* --json: a JSON line a step, its text from `out` */
    /* where a step's text goes: stdout, or with --json a buffer (`text`,
     * through open_memstream) that the step's JSON line quotes */
    FILE *out;
    char *text;
    size_t text_size;
    uint64_t limit, steps, solutions, places, rejects, removes, fails;
    /* the flags engine's arrays as of the previous step */
    char fa[NQ_MAX_N], fb[2 * NQ_MAX_N - 1], fc[2 * NQ_MAX_N - 1];
} trace;

/* One event in the notation of seed 003's Python chapter (trace_seed.c):
 * the flag tests written out with their values, the arrays in full. */
void trace_seed_step(trace *t, const nq_event *e);

/* Keep the flags engine's arrays after an event, for the next one. */
void trace_keep_flags(trace *t, const nq_event *e);

#endif

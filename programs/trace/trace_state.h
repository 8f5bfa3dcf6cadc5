/*
 * trace_state.h - the walk's state that `nqueens trace` keeps from one
 * event to the next (trace.c), which its printers read (trace_seed.c):
 * data only, so that the printers need nothing of the tracer.
 */
#ifndef NQ_TRACE_STATE_H
#define NQ_TRACE_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "nqueens.h"

typedef struct {
    int n, base;  /* base: 1 with --one-based */
    int seed;     /* --style seed */
    int limited;  /* --limit given */
    int json;     /* --json: a JSON line a step, its text from `out` */
    int page;     /* --format html */
    int live;     /* the lesson page's walk (trace_live) */
    /* trace_live: where each chunk of steps goes, every `chunk` steps */
    int (*chunk_fn)(void *ctx, const char *json, size_t len, int last);
    void *chunk_ctx;
    uint64_t chunk;
    struct trace_html *html; /* --format html: the page's walk, fed each
                                step and its text from `out` */
    /* where a step's text goes: stdout, or with --json a buffer (`text`,
     * through open_memstream) that the step's JSON line quotes */
    FILE *out;
    char *text;
    size_t text_size;
    uint64_t limit, steps, solutions, places, rejects, removes, fails;
    /* the flags engine's arrays as of the previous step */
    char fa[NQ_MAX_N], fb[2 * NQ_MAX_N - 1], fc[2 * NQ_MAX_N - 1];
} trace;

#endif

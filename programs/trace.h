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

/* One event in the notation of seed 003's Python chapter (trace_seed.c):
 * the flag tests written out with their values, the arrays in full. */
void trace_seed_step(trace *t, const nq_event *e);

/* Keep the flags engine's arrays after an event, for the next one. */
void trace_keep_flags(trace *t, const nq_event *e);

/* The queens on the board once the step is done (rows 0..k-1). */
int trace_rows_after(const trace *t, const nq_event *e);

/* --format html (trace_html.c): one walk a trace_html, fed the same
 * events and the same text as the text output, then the page with every
 * walk (the engine, and with --compare the second) written at once. */
typedef struct trace_html trace_html;
trace_html *trace_html_new(const char *engine, int n, int iterative,
                           int one_based, uint64_t limit);
/* One step: its event and its text exactly as the text output prints it. */
void trace_html_step(trace_html *h, const trace *t, const nq_event *e,
                     const char *text);
/* The walk's end: the summary line as trace prints it, whether the cap
 * stopped it; -1 if memory ran out along the way. */
int trace_html_end(trace_html *h, const char *summary, int capped);
/* The engine's own count of the board (nq_count_solutions), for a walk
 * that ran to its end: the page names it beside the solutions walked. */
void trace_html_counts(trace_html *h, nq_u128 total, nq_u128 unique);
/* The steps written since the last take, as the inside of a JavaScript
 * array, *len bytes (NULL if memory ran out); then trace_html_spent
 * before the next step, so that the walk starts a new chunk. */
const char *trace_html_take(trace_html *h, size_t *len);
void trace_html_spent(trace_html *h);
/* One walk as the page's object ({"engine", "n", ..., "steps": [...]}),
 * with the steps it holds (none after a take). */
void trace_html_write_walk(FILE *out, const trace_html *h);
/* The steps the walk holds. */
uint64_t trace_html_steps(const trace_html *h);
/* Whether the step cap stopped the walk (as trace_html_end was told). */
int trace_html_capped(const trace_html *h);
/* The page, every walk in it; -1 if it could not all be written. */
int trace_html_write(FILE *out, trace_html *const *walks, int count);
void trace_html_free(trace_html *h);

/* The lesson page's live walk (programs/web/web.c): req's walk as the
 * page's data, the steps handed to fn `chunk` at a time (the inside of a
 * JavaScript array), then the walk's object without its steps (last 1:
 * engine, N, how it ended, the engine's count of a whole walk).  At most
 * `cap` steps.  fn returns nonzero to stop the walk.  CLI_OK, or the
 * error said on stderr and its code. */
typedef int (*trace_chunk_fn)(void *ctx, const char *json, size_t len,
                              int last);
int trace_live(const nq_request *req, int one_based, uint64_t cap,
               uint64_t chunk, trace_chunk_fn fn, void *ctx);

/* The page's template (programs/trace_page.html, made a C string at build
 * time by mk/embed.sh): the walks' data goes where it says @WALKS@. */
extern const char trace_page[];

#endif

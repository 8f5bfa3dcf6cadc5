/*
 * trace_html.h - `nqueens trace --format html`'s writer (trace_html.c):
 * it is handed each step's event, board and text, and never calls the
 * tracer back.
 */
#ifndef NQ_TRACE_HTML_H
#define NQ_TRACE_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nqueens.h"

/* --format html (trace_html.c): one walk a trace_html, fed the same
 * events and the same text as the text output, then the page with every
 * walk (the engine, and with --compare the second) written at once. */
typedef struct trace_html trace_html;
trace_html *trace_html_new(const char *engine, int n, int iterative,
                           int one_based, uint64_t limit);
/* One step: its event, the rows filled once it is done (the board after
 * it), and its text exactly as the text output prints it. */
void trace_html_step(trace_html *h, int n, const nq_event *e, int rows,
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

/* The page's template (programs/trace/trace_page.html, made a C string at
 * build time by mk/embed.sh): the walks' data goes where it says @WALKS@. */
extern const char trace_page[];

#endif

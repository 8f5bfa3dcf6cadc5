/*
 * trace_seed.h - `nqueens trace --style seed`'s printer (trace_seed.c).
 */
#ifndef NQ_TRACE_SEED_H
#define NQ_TRACE_SEED_H

#include "nqueens.h"
#include "trace_state.h"

/* One event in the notation of seed 003's Python chapter: the flag tests
 * written out with their values, the arrays in full, each against the
 * arrays the tracer kept from the step before (t->fa, fb, fc). */
void trace_seed_step(const trace *t, const nq_event *e);

#endif

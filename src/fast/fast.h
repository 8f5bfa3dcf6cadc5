/*
 * fast.h - what other parts of the library (the GPU engine) need of the
 * fast engine's units.
 */
#ifndef NQ_FAST_H
#define NQ_FAST_H

#include "../engines/engine.h"
#include "../search/frontier.h"

/* The frontier job of unit i of a fast-style plan (the rows left to fill,
 * their open squares, the last row's weights) and its start.  0 for the
 * units that are not such searches (the symmetric counts, whole boards):
 * those run through the engine's unit function. */
/* Boards with fewer rows than this are one unit; from SPLIT_N on, units
 * also fix the queen of the first free row.  With the name, they are the
 * identity of the plan that fast, subunits and cuda share. */
#define NQ_FAST_RING_MIN_N 4
#define NQ_FAST_SPLIT_N 12
#define NQ_FAST_PLAN_ID "fast-ring/1"
#define NQ_FAST_PLAN_PARAMS {NQ_FAST_RING_MIN_N, NQ_FAST_SPLIT_N}

int nq_fast_job(const nq_plan *p, uint64_t i, nq_frontier *job,
                nq_frontier_state *start);

nq_status nq_fast_plan(nq_plan *p);
nq_status nq_fast_unit(const nq_plan *p, uint64_t i, nq_unit_env *env,
                       nq_tally *t);
void nq_fast_describe(const nq_plan *p, uint64_t i, char *buf, size_t size);
nq_status nq_fast_finish(const nq_plan *p, const nq_tally *sum, nq_counts *out);
int nq_fast_unit_forced(const nq_plan *p, uint64_t i);
double nq_fast_unit_estimate(const nq_plan *p, uint64_t i, uint32_t paths);
double nq_fast_unit_seconds(const nq_plan *p, uint64_t i);
double nq_fast_weigh(nq_plan *p, uint64_t i, uint64_t floor_us);
nq_status nq_fast_cut(const nq_plan *p, uint64_t i, uint64_t max_us,
                      nq_plan *into);
nq_status nq_fast_sample(const nq_plan *p, uint64_t i, double size,
                         uint64_t *rng, nq_unit_env *env, double *seconds,
                         double *chance);
const char *nq_fast_record_flaw(const nq_plan *p, uint64_t i,
                                const nq_tally *t);

/* The solutions fixed by the half turn and by the quarter turn (either
 * pointer may be NULL), giving up when *stop is set (fixed_points.c). */
nq_status nq_count_fixed_points(int n, nq_u128 *half_turn,
                                nq_u128 *quarter_turn,
                                const volatile sig_atomic_t *stop);

#endif

/*
 * engine.h - what an engine is, inside the library.
 *
 * An engine is one algorithm in one file: a name, a one-line summary, the
 * largest N its representation takes, what it can do, and a search function
 * that fills an nq_search.  src/registry/registry.c lists them all; adding
 * an engine means adding a file and one line there.  What engines and
 * the layers above call of a plan is here and in plan.c.
 */
#ifndef NQ_ENGINE_H
#define NQ_ENGINE_H

#include <signal.h>

#include "nqueens.h"

typedef struct nq_search {
    int n;
    int iterative;      /* use the explicit-stack form */
    int unique_only;    /* report only canonical solutions to fn */
    nq_solution_fn fn;  /* NULL when only counting */
    void *ctx;
    int stop;           /* set once fn asked to stop */
    nq_u128 total, unique, nodes;
    nq_event_fn event;  /* NULL unless the search is watched */
    void *event_ctx;
} nq_search;

/* Hand an event to the watcher, which may ask the walk to stop. */
static inline void nq_search_emit(nq_search *s, const nq_event *e)
{
    if (s->event(s->event_ctx, e))
        s->stop = 1;
}

/* Report an event with no engine state attached (a watched search only:
 * the test is one predictable branch). */
static inline void nq_search_event(nq_search *s, nq_event_kind kind, int row,
                                   int col, const int *cols)
{
    if (s->event) {
        nq_event e = {.kind = kind, .row = row, .col = col, .by_row = -1,
                      .cols = cols};
        nq_search_emit(s, &e);
    }
}

struct nq_frontier_kernel; /* frontier_kernel.h */

/* The most GPUs a request may list. */
#define NQ_MAX_DEVICES 64

/* A plan: the deterministic list of an engine's work units for one N,
 * and how its units run.  The kernel and the devices come from the
 * request (the run layer resolves them), so two counts in one process
 * can run differently; neither is part of the plan's identity. */
struct nq_plan {
    const nq_engine *engine;
    int n;
    uint64_t max_us;    /* units estimated over this many microseconds of
                           the reference core are cut (0: none is) */
    int cut;            /* the engine cut some: the bound names the split */
    char split[32];     /* the split's stable name (nq_plan_split) */
    uint64_t units;
    void *data;         /* the engine's unit table, `units` entries */
    size_t unit_size;   /* bytes of an entry (nq_plan_push's size) */
    uint64_t cap;       /* entries allocated */
    const volatile sig_atomic_t *stop; /* planning gives up when set */
    const struct nq_frontier_kernel *kernel; /* NULL: the process default */
    int devices[NQ_MAX_DEVICES], ndevices;   /* GPUs to use; 0: all visible */
};

/* A plan of engine e (a unit engine, already checked) for req->n. */
nq_status nq_plan_new(const nq_engine *e, const nq_request *req,
                      nq_plan **out);

/* The identity a plan of engine e's split named `split` (e's plan_id,
 * with its bound if it cut units) for n with `units` units has
 * (nq_plan_identity), known before the plan is made: a journal header
 * whose identity is not this is refused without planning. */
uint64_t nq_split_identity(const nq_engine *e, const char *split, int n,
                           uint64_t units);
/* A split's name read back: its base (an engine's plan_id, into base,
 * size bytes) and the bound its units were cut by in microseconds (0:
 * none); -1 for a name no plan of this release has ("x,max=0us",
 * leading zeros, a base too long). */
int nq_split_parse(const char *split, char *base, size_t size,
                   uint64_t *max_us);
/* 1 if engine e makes plans of the split named (its base is e's
 * plan_id). */
int nq_engine_splits(const nq_engine *e, const char *split);
/* The bound of a request in microseconds of the reference core (0:
 * units whole), or -1 for one out of range (nq_request.max_unit_seconds). */
#define NQ_MAX_US 4000000000000ull
int64_t nq_request_max_us(const nq_request *req);

/* Seconds of the reference core per node of a search as Knuth's
 * estimator counts them (nq_frontier_estimate): the rate of the
 * AVX-512 kernel on an Intel Xeon (family 6, model 167), measured at
 * 0.19 to 0.21 ns over every unit of N = 16 to 18 and a sample of N = 19
 * to 22 (bench/RESULTS.md, 2026-12-02).  A constant, not this machine's
 * rate: the pieces of a plan must be the same on every machine. */
#define NQ_REF_SECONDS_PER_NODE 2e-10
/* Random paths of the estimates a plan cuts its units by. */
#define NQ_PLAN_PROBES 64

/* The engine's forced and flaw (above) for unit i, or 0 and NULL for an
 * engine that knows nothing of its records. */
int nq_plan_unit_forced(const nq_plan *p, uint64_t i);
/* Whether unit u is in share part of parts (0 parts: every unit) and not
 * set in done (a bit per unit; may be NULL): the one rule a count's
 * runner and an estimate of it choose units by. */
static inline int nq_unit_chosen(uint32_t part, uint32_t parts,
                                 const unsigned char *done, uint64_t u)
{
    if (parts && u % parts != part - 1)
        return 0;
    return !(done && (done[u / 8] >> (u % 8) & 1));
}
const char *nq_plan_record_flaw(const nq_plan *p, uint64_t i,
                                const nq_tally *t);
/* The engine's estimate of unit i (above), looked for with `effort`
 * (fast: random paths), or -1 where it has none. */
double nq_plan_unit_estimate(const nq_plan *p, uint64_t i, uint32_t effort);
/* NQ_OK if every device the plan lists is there (or it lists none, or
 * its engine cannot tell before counting); else NQ_ERR_DEVICE, the
 * words in why (size bytes; may be NULL). */
nq_status nq_plan_devices_exist(const nq_plan *p, char *why, size_t size);

/* Append one unit of `size` bytes to the plan's table; -1 if out of
 * memory.  The table is freed with the plan. */
int nq_plan_push(nq_plan *p, const void *unit, size_t size);

/* A board too small for an engine's decomposition, counted whole (total,
 * unique, nodes) by the symmetry engine. */
void nq_count_whole_board(int n, nq_tally *t);
/* nq_plan_finish less its check of small boards by counting them (the
 * library's own sums: journals' records are checked by recounting), but
 * with the checks every count must pass, whatever the board: a sum that
 * cannot be a count is NQ_ERR_INTERNAL.  p, sum and out not NULL. */
nq_status nq_plan_finish_sum(const nq_plan *p, const nq_tally *sum,
                             nq_counts *out);

/* The plan of the completions of `given` (completion.c), or *plan NULL and
 * out->total 1 when the givens fill the board; NQ_ERR_INVALID for givens
 * that attack each other, NQ_ERR_ARG for one off the board. */
nq_status nq_completion_plan(int n, const int *given, nq_plan **plan,
                             nq_counts *out);

/* find's local search (minconflicts.c): a solution of n >= 4 queens. */
nq_status nq_min_conflicts(int n, uint64_t seed, int *cols);

/* What a unit runs with, from whoever runs it: the calling thread's own
 * scratch pointer (buffers the engine allocates on first use and releases
 * with free_scratch; NULL at first), and the run's stop flag (stop.h;
 * NULL: never stop).  A batch cut short by a stop may still hold units
 * counted to their end, hours of work on a big board: run_batch then
 * sets whole[k] for each such unit ids[k] (its out[k] complete), and the
 * runner reports those as finished; NULL where nobody takes them.  why:
 * where an engine whose failure has words (a GPU runtime's error) writes
 * them, why_size bytes, a string; NULL where nobody takes them.  Words
 * travel up with the failure as data: no engine keeps a last error. */
typedef struct {
    void *scratch;
    const volatile sig_atomic_t *stop;
    unsigned char *whole;
    char *why;
    size_t why_size;
} nq_unit_env;

/* A unit's frontier buffers (env->scratch, made on first use; NULL if out
 * of memory), set to count with the plan's kernel (plan.c). */
struct nq_frontier_work *nq_unit_frontier_work(const nq_plan *p,
                                               nq_unit_env *env);

/* Parameters of a unit split, part of the plan's identity. */
#define NQ_PLAN_PARAMS 4

struct nq_engine {
    const char *name;
    const char *summary;
    /* Unit engines: the stable name of the unit split, and its parameters.
     * Journals are keyed by them (nq_plan_identity), never by a name or a
     * description shown to people: renaming an engine orphans no run.
     * Engines that share a split (fast, subunits, cuda, opencl) share
     * it, so any of them resumes the others' journals.  Bump the /K of
     * plan_id when the split changes: tests/data/plan-digests.tsv
     * catches a change made without it. */
    const char *plan_id;
    uint32_t plan_param[NQ_PLAN_PARAMS];
    int max_n;
    unsigned caps;
    /* Engines without units search the whole board here. */
    void (*search)(nq_search *s);
    /* Engines with units (NQ_CAP_UNITS) split the board into a plan whose
     * units run independently, in any order, on any thread. */
    nq_status (*plan)(nq_plan *p);
    nq_status (*unit)(const nq_plan *p, uint64_t i, nq_unit_env *env,
                      nq_tally *t);
    void (*describe)(const nq_plan *p, uint64_t i, char *buf, size_t size);
    nq_status (*finish)(const nq_plan *p, const nq_tally *sum, nq_counts *out);
    /* What the plan alone knows of a unit's record, for journals written
     * by someone else (merge, verify).  forced: 1 if the unit can hold
     * solutions fixed by a turn, or is counted whole, so that its record
     * carries counts (fixed points, a unit's unique) that nothing but a
     * recount can check: verify recounts every such unit, whatever its
     * record claims.  flaw: NULL if the plan allows the record, else the
     * words for what cannot be (fixed points in a unit that has none, a
     * total that is no multiple of the unit's orbit sizes). */
    int (*forced)(const nq_plan *p, uint64_t i);
    const char *(*flaw)(const nq_plan *p, uint64_t i, const nq_tally *t);
    /* Optional: a unit's size as the plan alone guesses it, cheaply and
     * the same every time for the same effort (any unit of measure:
     * verify compares each record's total with it, so that a record
     * raised far above its unit's size is recounted whatever the draw;
     * an estimate of a count's time draws units by it); below 0 where
     * the engine has no guess (a forced unit).  effort: how hard to
     * look (fast: the random paths of Knuth's estimate). */
    double (*estimate)(const nq_plan *p, uint64_t i, uint32_t effort);
    void (*free_scratch)(void *scratch);
    /* Optional: the CPU seconds a piece of unit i takes, for an estimate
     * of a count before it runs (run_estimate.c): the unit itself, or,
     * where its search is estimated at over `size` (in the estimate's
     * units), a piece of it the engine cuts as it would count it, chosen
     * at random (rng) with a chance that grows with its estimated size,
     * *chance (1 for the whole unit), so that seconds / chance estimates
     * the unit's time without bias.  Without it a unit is timed whole. */
    nq_status (*sample)(const nq_plan *p, uint64_t i, double size,
                        uint64_t *rng, nq_unit_env *env, double *seconds,
                        double *chance);
    /* Optional: run `count` units at once (up to batch(p) of them, which
     * may depend on the board), filling out[k] for ids[k].  A GPU engine
     * ships a batch per call.  On NQ_ERR_STOPPED, the units marked in
     * env->whole are done all the same (nq_unit_env). */
    nq_status (*run_batch)(const nq_plan *p, const uint64_t *ids,
                           uint64_t count, nq_unit_env *env, nq_tally *out);
    unsigned (*batch)(const nq_plan *p);
    /* Optional (NQ_CAP_GPU): the devices it would use, in words (a
     * failure's words go to nq_unit_env.why). */
    void (*devices)(char *buf, size_t size);
    /* Optional (NQ_CAP_GPU): NQ_OK if every device the plan lists is
     * there, else NQ_ERR_DEVICE and the words in why (why_size bytes):
     * a list is checked before any unit runs, not when a worker first
     * takes a device that is not there. */
    nq_status (*check_devices)(const nq_plan *p, char *why, size_t why_size);
    /* Optional: unit i's estimated seconds on the reference core
     * (nq_plan_unit_seconds), below 0 where it has none.  Last, as
     * NQ_GPU_ENGINE's initialisers must follow the fields' order. */
    double (*seconds)(const nq_plan *p, uint64_t i);
    /* Optional, both or neither: cutting a plan's units into pieces
     * (plan.c).  weigh: unit i's estimate in reference seconds, made and
     * kept in the unit (planning only, one thread a unit), or 0 for a
     * unit whose search cannot reach floor_us (not estimated).  cut: unit
     * i of the whole plan p pushed into `into` (an empty plan of p's
     * engine), whole if weighed at max_us or less, else as its pieces;
     * into->cut set when it cut. */
    double (*weigh)(nq_plan *p, uint64_t i, uint64_t floor_us);
    nq_status (*cut)(const nq_plan *p, uint64_t i, uint64_t max_us,
                     nq_plan *into);
};

/* Record a solution found by an engine that meets every solution of the
 * board (no symmetry reduction): it counts once in the total, once in the
 * unique count if it is the smallest of its class, and goes to the caller's
 * callback. */
static inline void nq_search_solution(nq_search *s, const int *cols)
{
    int canonical = nq_canonical_weight(cols, s->n) != 0;
    nq_search_event(s, NQ_EVENT_SOLUTION, s->n - 1, cols[s->n - 1], cols);
    s->total++;
    s->unique += canonical;
    if (s->fn && (canonical || !s->unique_only) && s->fn(s->ctx, cols, s->n))
        s->stop = 1;
}

#endif

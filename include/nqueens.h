/*
 * nqueens.h - the public interface of libnqueens.
 *
 * The library counts and enumerates the solutions of the N-Queens problem
 * with a choice of engines, from brute force to symmetry-reduced bitboards.
 * It never prints and never exits: every call returns an nq_status and
 * nq_strerror() turns it into words.  This is the only header the CLI uses.
 *
 * A placement is an array cols[0..n-1]: cols[r] is the column (0-based) of
 * the queen in row r.  "Lexicographic order" always means the order of these
 * arrays, row 0 first.
 */
#ifndef NQUEENS_H
#define NQUEENS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stable API: kept source and binary compatible for as long as the
 * soname (libnqueens.so.NQ_ABI_VERSION) stays; doc/abi.md says what that
 * promises.  The advanced API, for nqueens' own programs, is at the end. */

/* The version, set here and nowhere else (the build, the man page and the
 * pkg-config files read these three lines): MINOR may add to the stable
 * API (and change the advanced one), PATCH fixes.  A program built
 * against this header and run with another library can compare
 * NQ_VERSION_NUMBER with nq_get_version_number(). */
#define NQ_VERSION_MAJOR 0
#define NQ_VERSION_MINOR 4
#define NQ_VERSION_PATCH 0
/* The shared library's soname is libnqueens.so.NQ_ABI_VERSION: the number
 * counts the releases that broke the stable ABI (1: 0.4.0), whatever the
 * version says; the build reads it here. */
#define NQ_ABI_VERSION 1
#define NQ_VERSION_NUMBER \
    (NQ_VERSION_MAJOR * 10000 + NQ_VERSION_MINOR * 100 + NQ_VERSION_PATCH)
#define NQ_VERSION_TEXT_(x) #x
#define NQ_VERSION_TEXT(x) NQ_VERSION_TEXT_(x)
#define NQ_VERSION_STRING NQ_VERSION_TEXT(NQ_VERSION_MAJOR) "." \
    NQ_VERSION_TEXT(NQ_VERSION_MINOR) "." NQ_VERSION_TEXT(NQ_VERSION_PATCH)

/* The largest board any engine accepts: columns are bits of a 32-bit word. */
#define NQ_MAX_N 32

/* Counts are 128-bit: totals pass 2^64 from N = 29 on. */
__extension__ typedef unsigned __int128 nq_u128;

typedef enum {
    NQ_OK = 0,
    NQ_ERR_ARG,         /* a NULL pointer or a nonsensical argument */
    NQ_ERR_RANGE,       /* N outside what the chosen engine accepts */
    NQ_ERR_ENGINE,      /* no engine of that name */
    NQ_ERR_UNSUPPORTED, /* the engine cannot do what was asked */
    NQ_ERR_NOMEM,       /* an allocation failed */
    NQ_ERR_OVERFLOW,    /* a count would not fit its integer */
    NQ_ERR_INVALID,     /* a placement that is not a solution */
    NQ_ERR_THREAD,      /* a thread could not be started */
    NQ_ERR_INTERNAL,    /* an internal consistency check failed */
    NQ_ERR_STOPPED,     /* stopped before every unit was done */
    NQ_ERR_IO,          /* a file could not be read or written */
    NQ_ERR_CORRUPT,     /* a journal is damaged */
    NQ_ERR_MISMATCH,    /* a journal belongs to another count */
    NQ_ERR_DEVICE,      /* no usable GPU, or the GPU failed */
    NQ_ERR_NOSOLUTION,  /* the board has no solution (N = 2, 3) */
    NQ_ERR_VERSION,     /* a journal of a format this release does not read */
    NQ_ERR_LOST,        /* MPI: a rank went silent past its deadline */
    NQ_STATUS_COUNT
} nq_status;

/* The answer for a whole board: total solutions, unique solutions (classes
 * under the 8 rotations and reflections of the board) and search nodes
 * visited (the empty board and every placement the engine made, solutions
 * included).  Compare nq_tally, what one work unit found: units are summed
 * as tallies and turned into counts once, by nq_plan_finish.
 * The unit engines (fast, carry) count only the placements of their inner
 * searches, not the queens their units pre-place: on boards so small that
 * the pre-placed queens fill them (fast at N = 4, 5) that is 0. */
typedef struct {
    nq_u128 total;
    nq_u128 unique;
    nq_u128 nodes;
} nq_counts;

/* Engine capabilities. */
#define NQ_CAP_ENUMERATE 1u /* can list every solution, lexicographically */
#define NQ_CAP_UNITS 2u     /* splits the board into independent work units,
                               run on any number of threads */
#define NQ_CAP_EVENTS 4u    /* reports each step of its search (nq_walk_search) */
#define NQ_CAP_GPU 16u      /* counts on GPUs (all visible ones, or those
                               nq_request.devices lists) */
#define NQ_CAP_FLAG_ARRAYS 8u /* ...with its placement-flag arrays
                                 (nq_event's col_flags, sum_flags, dif_flags) */
#define NQ_CAP_KERNEL 32u   /* counts with the fast kernels
                               (nq_request.kernel) */

typedef struct nq_engine nq_engine; /* opaque; see nq_engine_*() */

/* Progress of a count: called from the calling thread a few times a
 * second while units run, and once more at the end.  The units are those
 * of the whole run (a share, with --part): units_before of them were done
 * by earlier runs (a resumed journal), and seconds is this run's time, so
 * the rate so far is (units_done - units_before) / seconds.  Units are
 * run in an order that makes their fraction a fair measure of the work. */
typedef struct {
    uint64_t units_done, units_total;
    double seconds;
    uint64_t units_before;
} nq_progress;
typedef void (*nq_progress_fn)(void *ctx, const nq_progress *p);

/* Called for each solution found by nq_enumerate_solutions(); a non-zero
 * return stops the enumeration (the counts then cover what was seen). */
typedef int (*nq_solution_fn)(void *ctx, const int *cols, int n);

/* One request to the library: what to count or list, and how.
 *
 * size is what the caller's struct holds: sizeof(nq_request) of the
 * header it was built with.  Start from NQ_REQUEST_INIT (or, in C, set
 * .size = sizeof(nq_request) in a designated initialiser) and fill what
 * you need; engine NULL picks the default engine of the operation.  The
 * library reads only the first `size` bytes: fields a later release
 * appends read as zero (their defaults) for a program built before them,
 * and a size of 0 (a forgotten size), one that ends before `kernel`, or
 * one under this header's sizeof that is not the end of a field (kernel,
 * devices, why, why_size) is NQ_ERR_ARG.  A size past this header's
 * struct (a program built against a newer header) is NQ_ERR_UNSUPPORTED
 * if it sets a field this library does not know (doc/abi.md). */
typedef struct {
    size_t size;
    int n;
    const char *engine; /* engine name, or NULL for the default */
    int iterative;      /* 1: explicit-stack form instead of recursion */
    int unique_only;    /* enumerate: only the smallest member of each class */
    int threads;        /* unit engines: threads, 0 for one per online core
                           (below 0: NQ_ERR_ARG) */
    nq_progress_fn progress; /* optional, unit engines only */
    void *progress_ctx;
    volatile sig_atomic_t *stop; /* optional, unit engines: set (by a
                                    signal handler) to give up; the call
                                    then returns NQ_ERR_STOPPED */
    /* Optional: a request may end before any of these (then NULL, 0). */
    const char *kernel;  /* the fast kernel of this count, for engines with
                            NQ_CAP_KERNEL: "scalar"; "sse4", "avx2",
                            "avx512" on x86-64, "neon" on aarch64; NULL:
                            the process default (the widest this CPU runs,
                            unless the advanced nq_select_kernel chose
                            another).  NQ_ERR_ARG for an unknown name,
                            NQ_ERR_UNSUPPORTED for one this CPU cannot run
                            or an engine that runs none */
    const char *devices; /* GPUs for an NQ_CAP_GPU engine, by the GPU
                            runtime's numbers (cuda: CUDA's; opencl: the
                            order nq_engine_devices lists), a comma
                            between two ("0,2"); its workers are dealt to
                            them in turn; NULL: every visible GPU (opencl:
                            else every OpenCL device).  NQ_ERR_ARG for a list that
                            is not numbers or names one twice,
                            NQ_ERR_UNSUPPORTED for an engine with no GPU */
    char *why;           /* optional: why_size bytes where a failure is put
                            in words the status cannot hold (after
                            NQ_ERR_DEVICE, the GPU runtime's name and text:
                            "cudaErrorNoDevice: no CUDA-capable device is
                            detected"); every call given the request makes
                            it a string, empty on success, cut to fit,
                            even one refused for another argument; but a
                            request whose size does not reach why_size,
                            or is garbage (over 64 KiB), is left
                            untouched.  The library writes through it
                            although the request is const: two calls at
                            once need a buffer each */
    size_t why_size;
    /* Unit engines whose plan cuts units (fast and the engines sharing its
     * plan): the most a piece of the count may be estimated to take, in
     * seconds of the plan's reference core (the same on every machine,
     * so that every machine cuts the same pieces; bench/RESULTS.md says
     * what it is).  A unit estimated over it is cut into pieces, each
     * recorded in a journal as it finishes.  0: the default,
     * NQ_MAX_UNIT_SECONDS_DEFAULT; below 0: units are never cut (the
     * plans of releases before 0.4).  A journal resumes with the pieces
     * it was written with: 0 takes them from the journal, another bound
     * must give the same plan.  Not a number, or over 4e6: NQ_ERR_ARG. */
    double max_unit_seconds;
} nq_request;
#define NQ_MAX_UNIT_SECONDS_DEFAULT 3600.0

/* An empty request of this header's size, valid C and C++ (every field
 * listed, so that no compiler warns of one left out):
 *     nq_request req = NQ_REQUEST_INIT;  req.n = 12; */
#define NQ_REQUEST_INIT { sizeof(nq_request), 0, 0, 0, 0, 0, 0, 0, 0, \
                          0, 0, 0, 0, 0 }

const char *nq_get_version(void);
/* The library's NQ_VERSION_NUMBER (MAJOR * 10000 + MINOR * 100 + PATCH). */
unsigned nq_get_version_number(void);
const char *nq_strerror(nq_status status);
/* Seconds on a monotonic clock (for timing: only differences mean
 * anything). */
double nq_clock_seconds(void);

/* The engine table. */
int nq_engine_count(void);
const nq_engine *nq_engine_at(int index);
const nq_engine *nq_engine_find(const char *name);
const char *nq_engine_name(const nq_engine *engine);
const char *nq_engine_summary(const nq_engine *engine);
int nq_engine_max_n(const nq_engine *engine);
/* A GPU engine's devices in words, one line each ("GPU 0: NVIDIA H100
 * 80GB HBM3, sm_90, 132 SMs, 79 GiB; driver 13.0"), or why there are none;
 * NULL for an engine that uses none. */
const char *nq_engine_devices(const nq_engine *engine, char *buf, size_t size);
unsigned nq_engine_caps(const nq_engine *engine);
/* The engines used when a request names none. */
const char *nq_default_count_engine(void);
const char *nq_default_enumerate_engine(void);
/* NQ_OK if the named engine takes size n, else why not. */
nq_status nq_check_request(const nq_request *req, int enumerate);

/* Count every solution of req->n, with the request's engine, threads,
 * kernel and GPUs. */
nq_status nq_count_solutions(const nq_request *req, nq_counts *out);

/* Enumerate solutions in lexicographic order, calling fn for each one (for
 * req->unique_only, only the lexicographically smallest of each class). */
nq_status nq_enumerate_solutions(const nq_request *req, nq_solution_fn fn,
                                 void *ctx, nq_counts *out);

/* Solutions left unchanged by the half turn of the board (OEIS A032522)
 * and by the quarter turn (OEIS A033148); either pointer may be NULL.  With
 * the total T they give the unique count (T + P + 2R) / 8 for n > 1. */
nq_status nq_count_symmetric_solutions(int n, nq_u128 *half_turn,
                                       nq_u128 *quarter_turn);

/* Threads a request gets: its own number, or the online cores for 0 (and
 * for a request the size rule refuses). */
int nq_request_threads(const nq_request *req);

/* A long count: each unit recorded in a journal as it finishes, so that a
 * crash, a kill or a stop loses none of the work done; the same call again
 * resumes it.  One share of a split run (part K of M) runs alone and is
 * combined with the others' journals by nq_journal_merge.  The request's
 * stop flag stops it at any point (planning, reading the journal, inside
 * units): units cut short are redone on resume.  The options' size is
 * sizeof(nq_resume_options) of the program's header, read by
 * nq_request's size rule (no field of it is optional yet: a size short of
 * this release's struct is NQ_ERR_ARG). */
typedef struct {
    size_t size;
    const char *journal;        /* the journal; NULL: none (then neither
                                   parts nor max_units) */
    uint32_t part, parts;       /* this run's share; 0/0: the whole count */
    uint64_t max_units;         /* stop after this many more units (0: none) */
} nq_resume_options;
#define NQ_RESUME_OPTIONS_INIT { sizeof(nq_resume_options), 0, 0, 0, 0 }

/* What a long count did.  counts is the board's answer once `complete` and
 * the run is not one part of several.  The library writes the report: the
 * program sets size (NQ_RUN_REPORT_INIT), sizeof(nq_run_report) of its
 * header, and the library writes that many bytes at most, leaving fields
 * it does not know (a program built against a newer header) as they
 * were; a size short of this release's struct is NQ_ERR_ARG. */
typedef struct {
    size_t size;
    nq_counts counts;
    int complete;               /* every unit of the share has a record */
    uint64_t units;             /* units of the plan */
    uint64_t share;             /* units of this run's share */
    uint64_t recorded;          /* units of the share recorded, all runs */
    uint64_t ran;               /* units this call counted */
    int dropped_tail;           /* the journal ended in a half-written line
                                   (a crash), as bits: 1 a record's (its
                                   unit is counted again), 2 a run
                                   line's (that session's time is lost) */
    int workers;                /* threads (or MPI ranks) that counted */
    double seconds;             /* this call's time */
    int failed_rank;            /* MPI: the rank that failed, else -1 */
    char why[1024];             /* a failure in words, naming the file;
                                   after NQ_ERR_DEVICE, the GPU runtime's */
    double seconds_all;         /* the count's time: every run the journal
                                   records (its run lines), this call's
                                   included, summed; without a journal,
                                   this call's.  What nqueens prints */
    int lost;                   /* MPI: worker ranks lost on the way,
                                   whatever the status (a count finished,
                                   stopped or failed): the job cannot
                                   then end with MPI_Finalize
                                   (nqueens_mpi.h) */
} nq_run_report;
#define NQ_RUN_REPORT_INIT { sizeof(nq_run_report), {0, 0, 0}, 0, 0, 0, 0, \
                             0, 0, 0, 0, 0, {0}, 0, 0 }

/* Count req->n with a unit engine under the options.  NQ_ERR_STOPPED: the
 * stop flag or max_units ended the run early (what was done is recorded);
 * a journal of another count is NQ_ERR_MISMATCH, a damaged one
 * NQ_ERR_CORRUPT, one of an unknown format version NQ_ERR_VERSION (the
 * file untouched in each case); report->why says more, and so does the
 * request's why where it has one. */
nq_status nq_count_resumable(const nq_request *req, const nq_resume_options *o,
                             nq_run_report *report);

/* Watching a search: the events of an engine's walk, for drawing its tree
 * or tracing it step by step (nq_walk_search). */
typedef enum {
    NQ_EVENT_PLACE,     /* a queen placed at (row, col): a node of the tree */
    NQ_EVENT_REJECT,    /* square (row, col) tried and refused: see reason */
    NQ_EVENT_REMOVE,    /* the queen at (row, col) taken back (backtracking) */
    NQ_EVENT_SOLUTION,  /* cols[0..n-1] is a solution */
    NQ_EVENT_FAIL       /* a complete placement tested and refused (brute) */
} nq_event_kind;

/* Why a square was refused: what already attacks it. */
#define NQ_BY_COLUMN 1u /* a queen in its column */
#define NQ_BY_SUM 2u    /* a queen on its diagonal r + c (rising to the right) */
#define NQ_BY_DIF 4u    /* a queen on its diagonal r - c (falling to the right) */
#define NQ_BY_ROW 8u    /* a queen in its row */

/* The lines the queens at (r1, c1) and (r2, c2) share (NQ_BY_* bits); 0
 * if they do not attack each other. */
unsigned nq_attack_lines(int r1, int c1, int r2, int c2);

typedef struct {
    nq_event_kind kind;
    int row, col;
    unsigned reason;        /* REJECT: NQ_BY_* bits */
    int by_row;             /* REJECT by backtrack: the first attacking row */
    const int *cols;        /* the placement: cols[0..row] */
    /* flags engine: its arrays after the event (n, 2n-1, 2n-1 entries) */
    const char *col_flags, *sum_flags, *dif_flags;
    /* bitmap engines (has_masks): the row's attacked columns before the
     * placement, bit c for column c */
    int has_masks;
    uint32_t down, left, right;
    /* bitmap engines (has_masks), PLACE and REMOVE: the row's squares the
     * node still has to try, bit c for column c.  PLACE: before the square
     * is taken, so col is its lowest bit; REMOVE: after col is given up
     * (what the node tries next; 0 when the walk goes up a row).  Mirror's
     * and symmetry's own first rows report their own loop's columns. */
    uint32_t untried;
    /* bitmap engines: the row's squares the engine rules out by its own
     * rule (mirror's halving, symmetry's conditions), its forbid mask; for
     * an engine's own first rows, the columns its loop never visits; 0 for
     * bitmap.  (Both appended last: the library hands an nq_event to the
     * callback and never writes one the program allocated, so a program
     * built before them reads the fields it knows, where they were.) */
    uint32_t ruled;
} nq_event;

/* Return nonzero to stop the walk (nq_walk_search then says NQ_ERR_STOPPED). */
typedef int (*nq_event_fn)(void *ctx, const nq_event *e);

/* Run the engine's search, recursive or iterative, reporting each event.
 * Engines that report events: brute, backtrack, flags, bitmap, mirror,
 * symmetry (NQ_CAP_EVENTS). */
nq_status nq_walk_search(const nq_request *req, nq_event_fn fn, void *ctx);

/* NQ_OK if cols[0..n-1] is a placement of n non-attacking queens; any n
 * up to NQ_FIND_MAX_N (past NQ_MAX_N in O(n) time, with O(n) memory). */
nq_status nq_check_placement(const int *cols, int n);

/* The completion problem: the solutions that extend queens given in
 * advance.  given[r] is the column of the queen given in row r, or -1 for
 * a row to fill (n entries, 1 <= n <= NQ_MAX_N).  Given queens that attack
 * each other: NQ_ERR_INVALID; a column off the board: NQ_ERR_ARG. */

/* Count the completions on req->threads threads (req->n, threads and
 * progress are used; engine is not): out->total and out->nodes (unique is
 * not defined for a partial board and is 0). */
nq_status nq_count_completions(const nq_request *req, const int *given,
                               nq_counts *out);
/* The nodes of the search for the completions, estimated in a moment from
 * `probes` random paths down the tree (Knuth's estimator, 1975: unbiased,
 * low more often than high; a fixed seed, so always the same answer): a
 * caller can tell whether counting them would take seconds or centuries.
 * probes 1 to NQ_MAX_PROBES (a second or so at most: the call has no stop
 * flag), else NQ_ERR_ARG. */
#define NQ_MAX_PROBES (1u << 20)
nq_status nq_estimate_completion_nodes(int n, const int *given,
                                       uint32_t probes, double *nodes);
/* List the completions in lexicographic order of the array; fn may stop
 * the listing by returning nonzero.  *count: how many were listed.  fn
 * NULL is NQ_ERR_ARG (nq_count_completions counts them). */
nq_status nq_enumerate_completions(int n, const int *given, nq_solution_fn fn,
                                   void *ctx, nq_u128 *count);

/* One solution, for boards far beyond counting. */
#define NQ_FIND_MAX_N 100000000
typedef enum {
    NQ_FIND_FORMULA, /* the explicit construction by n mod 6: O(n), fixed */
    NQ_FIND_SEARCH   /* min-conflicts local search: a random solution */
} nq_find_method;

/* Write a solution of the n x n board into cols[0..n-1] (1 <= n <=
 * NQ_FIND_MAX_N).  seed picks the search's solution (same seed, same
 * solution); the formula ignores it.  NQ_ERR_NOSOLUTION for n = 2, 3. */
nq_status nq_find_solution(int n, nq_find_method method, uint64_t seed,
                           int *cols);

/* The 8 symmetries of the square, numbered 0..7: 0 the identity, 1 the
 * quarter turn clockwise, 2 the half turn, 3 the three-quarter turn, 4
 * the mirror left-right, 5 the mirror top-bottom, 6 the transpose, 7 the
 * anti-transpose.  Every part of nqueens uses this numbering. */
#define NQ_SYMMETRIES 8
/* Square (*row, *col) of the n x n board moved by the symmetry. */
void nq_transform_square(int n, int symmetry, int *row, int *col);
void nq_transform_placement(const int *cols, int n, int symmetry, int *out);

/* How many distinct images the solution has (1, 2, 4 or 8) if it is the
 * lexicographically smallest member of its class, else 0. */
int nq_canonical_weight(const int *cols, int n);

/* Decimal text of v into buf (at least NQ_U128_DIGITS bytes); returns buf. */
#define NQ_U128_DIGITS 40
char *nq_format_u128(nq_u128 v, char *buf);
/* Parse a decimal; NQ_ERR_OVERFLOW past 2^128-1, NQ_ERR_ARG if not digits. */
nq_status nq_parse_u128(const char *text, nq_u128 *out);
/* *acc += v, or NQ_ERR_OVERFLOW (acc unchanged) when the sum would wrap. */
nq_status nq_add_u128(nq_u128 *acc, nq_u128 v);


/* ==================================================================== *
 * The advanced API: plans and their units, tallies, running chosen
 * units, journal headers, merging and verifying journals, the fast
 * engine's kernels.  What nqueens' own programs and a distributed
 * runner need.  It may change in any minor release (doc/abi.md): define
 * NQ_ADVANCED_API before including this header to see it.  Its structs
 * have no size field: a program using it is built for one minor release.
 * The shared library exports its functions under a symbol version named
 * for that release (NQUEENS_ADVANCED_0.4), so that such a program fails to
 * load against another minor release instead of running with a wrong
 * layout; the static library has no such check.
 * ==================================================================== */
#ifdef NQ_ADVANCED_API

typedef struct nq_plan nq_plan; /* an engine's work units for one N */

/* The kernels of the fast engine's inner count (also behind complete and
 * subunits' batches): "scalar" everywhere; "sse4", "avx2" and "avx512" in
 * x86-64 builds, "neon" in aarch64 builds (nq_kernel_at lists them).
 * The first count picks the widest this CPU (and its operating system)
 * runs, the process default; a request may name another
 * (nq_request.kernel); every kernel gives the same counts. */
int nq_kernel_count(void);                  /* kernels built in */
const char *nq_kernel_at(int index);        /* their names, or NULL */
int nq_kernel_supported(const char *name);  /* 1 if this CPU runs it */
const char *nq_kernel_best(void);           /* the automatic choice */
const char *nq_kernel_current(void);        /* the process default */
/* Set the process default kernel, the one a count uses when its request
 * names none (NULL: the automatic choice): NQ_ERR_ARG for an unknown
 * name, NQ_ERR_UNSUPPORTED if this CPU cannot run it.  A count's own
 * choice belongs in its request (nq_request.kernel). */
nq_status nq_select_kernel(const char *name);

/* The work units of a unit engine (NQ_CAP_UNITS) for req->n: a fixed,
 * deterministic list, the same on every machine and in every run. */
nq_status nq_plan_create(const nq_request *req, nq_plan **out);
uint64_t nq_plan_units(const nq_plan *p);
/* One unit in words: its pre-placed queens ("row:col" pairs) and weight. */
void nq_plan_describe(const nq_plan *p, uint64_t unit, char *buf, size_t size);
void nq_plan_free(nq_plan *p);

/* What one work unit found, or the sum of several (nq_tally_add); not yet
 * an answer (see nq_counts).  Every engine fills total (the solutions of
 * the whole board that the unit stands for, its symmetric images
 * included) and nodes; carry fills unique per unit; fast fills the
 * solutions fixed by the half and quarter turns, from which
 * nq_plan_finish derives unique by Burnside's lemma.  Journals record
 * tallies. */
typedef struct {
    nq_u128 total, unique, fixed180, fixed90, nodes;
} nq_tally;

/* Run one unit on the calling thread. */
nq_status nq_plan_run_unit(const nq_plan *p, uint64_t unit, nq_tally *out);
/* *a += *b, or NQ_ERR_OVERFLOW (a unchanged). */
nq_status nq_tally_add(nq_tally *a, const nq_tally *b);
/* The board's counts from the sum of all its units' tallies.  A sum that
 * cannot be a count of the board is NQ_ERR_INTERNAL: one that breaks what
 * every count obeys (from N = 4 a total that is even and not 0, unique
 * from a total/8 to a half of it, fixed points in Burnside's classes of
 * 8, 4 and 2, none fixed by a quarter turn at N = 2 or 3 mod 4), and on
 * boards up to N = 12, counted in a moment, any sum but the count. */
nq_status nq_plan_finish(const nq_plan *p, const nq_tally *sum, nq_counts *out);

/* The plan's identity, what journals are keyed by: a hash of N, the unit
 * split's stable name and parameters, and the unit count (the bytes are in
 * doc/journal-format.md).  Engines that share a split share it. */
uint64_t nq_plan_identity(const nq_plan *p);
/* The stable name of the plan's unit split ("fast-ring/1"), with the
 * bound its units were cut by when it cut any ("fast-ring/1,max=3600000000us":
 * doc/journal-format.md). */
const char *nq_plan_split(const nq_plan *p);
/* The nq_request.max_unit_seconds that makes the plan of a split named
 * so (a journal header's plan=) again: its bound, or -1 (units whole)
 * for a name without one. */
double nq_split_max_unit_seconds(const char *split);
/* The seconds unit i is estimated to take on the plan's reference core
 * (what the bound of nq_request.max_unit_seconds is weighed against), or
 * below 0 where the engine has no estimate (fast's two symmetric counts,
 * a whole small board). */
double nq_plan_unit_seconds(const nq_plan *p, uint64_t unit);

/* Running some of a plan's units. */
typedef struct {
    int threads;                  /* 0: one per online core (below 0:
                                     NQ_ERR_ARG) */
    const uint64_t *ids;          /* run these units, each once (one
                                     listed twice, or off the plan:
                                     NQ_ERR_ARG); NULL: all, less... */
    uint64_t count;               /* ...(number of ids) */
    uint32_t part, parts;         /* ...those outside share part of parts
                                     (unit % parts == part - 1; 0/0: all;
                                     another part: NQ_ERR_ARG) */
    const unsigned char *done;    /* ...and those whose bit is set here */
    uint64_t max_units;           /* stop after this many (0: no limit) */
    volatile sig_atomic_t *stop;  /* set (by a signal handler) to stop */
    /* Called as each unit finishes, one call at a time; a status other
     * than NQ_OK stops the run with that status. */
    nq_status (*on_unit)(void *ctx, uint64_t unit, const nq_tally *t);
    void *ctx;
    nq_progress_fn progress;
    void *progress_ctx;
    /* Optional: where a failure's words go (a GPU's error, from the unit
     * that failed first), why_size bytes, made a string on any failure
     * that has words; left alone otherwise. */
    char *why;
    size_t why_size;
} nq_run_options;

/* Run the selected units, adding their tallies into *sum (which the caller
 * initialises).  A run cut short by stop or max_units returns NQ_ERR_STOPPED
 * after every unit it started has finished and been reported. */
nq_status nq_plan_run(const nq_plan *p, const nq_run_options *o, nq_tally *sum);
/* Units selected by the options' share and done set (ids not used). */
uint64_t nq_plan_selected(const nq_plan *p, const nq_run_options *o);

/* How long a count would take on this machine, before it runs, measured
 * on the count's own plan and threads: units drawn at random, each with
 * a chance in proportion to the plan's estimate of its size, are counted
 * (a long unit by a piece the engine cuts as its kernel counts it), all
 * threads at once, and their CPU times over their chances estimate the
 * count's CPU time; sampling goes on until that is steady or the budget
 * is spent (the stop flag ends it: NQ_ERR_STOPPED).  For engines with
 * units that count on the CPU (NQ_ERR_UNSUPPORTED for others: a GPU's
 * time is not this CPU's). */
typedef struct {
    uint32_t part, parts;        /* the share to estimate (0/0: all) */
    const unsigned char *done;   /* units counted already (a bit each, as
                                    nq_run_options.done): left out */
    double seconds;              /* the most the sampling takes (0: 10;
                                    infinite: NQ_ERR_ARG) */
    double precision;            /* it ends sooner once the estimate's
                                    relative standard error is below
                                    this (0: 0.02) */
    double over;                 /* ...or once its 80% interval lies
                                    wholly above this many seconds of
                                    wall time (0: never): a count that
                                    will be refused needs no more */
    uint64_t seed;               /* the draw's seed; 0: one of its own */
} nq_estimate_options;
typedef struct {
    double core_seconds;         /* the count's CPU time, every thread's */
    double low, high;            /* an 80% interval of it (from a few
                                    samples a wide one: their spread is
                                    pooled with a prior one, Student's
                                    t; bench/RESULTS.md measures it) */
    double seconds;              /* its wall time: core_seconds over the
                                    threads that run at once (the
                                    request's, at most the cores) */
    double seconds_low, seconds_high;
    int threads;                 /* the request's: what it was timed on */
    uint64_t units;              /* the units estimated: the share's, less
                                    those done */
    uint64_t unsized;            /* of which left out: units the plan
                                    has no estimate of the size for when
                                    others have one (fast's two counts
                                    of fixed points, under 0.1% of the
                                    work from N = 16) */
    uint64_t samples;            /* units or pieces timed */
    double sampled;              /* their CPU seconds, all threads' */
    double elapsed;              /* the estimate's own wall time */
    /* The plan's estimates (nq_plan_unit_seconds) of the share's units,
     * on the reference core: summed, and the largest unit's (a piece's,
     * where the plan cut units); and the largest in this machine's
     * seconds on one thread (scaled by the samples' rate; 0 unsampled). */
    double reference_seconds, largest_reference, largest_seconds;
    /* The share of its wall time the sampling's threads ran on a CPU (1
     * on cores of their own; 0 when nothing was sampled).  The wall time
     * above assumes cores of the count's own: on a machine busy with
     * other programs (a share well under 1) the count takes longer, by
     * as much as the load then (bench/RESULTS.md: 2.6 to 9 times). */
    double cpu_share;
} nq_estimate;
nq_status nq_estimate_count(const nq_request *req,
                            const nq_estimate_options *o, nq_estimate *out);

/* Journals (checkpoints): an append-only file of finished units, written
 * by nq_count_resumable; the format is doc/journal-format.md. */
typedef struct {
    int version;                /* the journal's format version */
    int n;
    char plan[32];              /* the unit split's stable name */
    char engine[32];            /* the engine that started the journal */
    uint64_t units, identity;   /* the plan's units and nq_plan_identity */
    uint32_t part, parts;       /* 1/1 for a whole count */
    uint64_t key[2];            /* the key of the records' tags */
} nq_journal_header;
typedef struct {
    uint64_t units_done;        /* distinct units with a record */
    int dropped_tail;           /* a half-written last line was dropped
                                   (a crash): bits, 1 a record's (its
                                   unit is counted again), 2 a run
                                   line's (that run's time is lost) */
    nq_tally sum;               /* their tallies, each unit once */
    double seconds;             /* the runs' time, summed over sessions */
    int threads;                /* the most threads (or ranks) one used */
} nq_journal_state;

/* Read journals of one count (parts of a split run, or copies; header->
 * engine is then an engine of this release that counts their plan,
 * whatever engine wrote them): the union of their records, each unit
 * once; a unit recorded with different counts is NQ_ERR_CORRUPT,
 * journals of different counts NQ_ERR_MISMATCH.  *done (a bit per unit,
 * to free) says which units are covered.  The runs' time is summed once
 * per journal key: a file named twice, or a copy, counts once.
 *
 * stop (may be NULL): gives up (NQ_ERR_STOPPED) when *stop is set, while
 * reading or while making the plan (minutes at N = 22 with carry).
 * counts (may be NULL): when every unit is covered, the board's counts.
 * With every unit covered the plan's final check must pass, counts or
 * not (NQ_ERR_INTERNAL: a record is wrong; nq_journal_verify refuses it
 * too, in the same words).  Every record is also checked against what
 * the plan knows of its unit (a symmetric count holds only its own fixed
 * points; a unit's total is a multiple of its orbit sizes):
 * NQ_ERR_CORRUPT, naming the line, when it cannot be right.  A NULL
 * list, path, header, state or done is NQ_ERR_ARG. */
nq_status nq_journal_merge(const char *const *paths, int count,
                           volatile sig_atomic_t *stop,
                           nq_journal_header *header, nq_journal_state *state,
                           unsigned char **done, nq_counts *counts, char *why,
                           size_t why_size);
/* nq_journal_merge, and the union of the journals written to `output`
 * as one journal (merge -o; doc/journal-format.md, "Combined journals"):
 * this release's format, part 1/1, a new key, each unit's record once,
 * and a run line carrying the journals' time (each key's once, as
 * merging counts it) and most threads, so that merging it reports what
 * merging its journals reports; every unit need not be covered (a
 * staged merge).  It is written under a temporary name in output's
 * folder, flushed to disk and renamed to output only when whole: output
 * holds what it held before, or the whole journal.  An output that is
 * one of the journals (the same file by any name) is NQ_ERR_ARG, before
 * any is read; one that cannot be written NQ_ERR_IO.  output NULL:
 * nq_journal_merge. */
nq_status nq_journal_merge_into(const char *const *paths, int count,
                                const char *output,
                                volatile sig_atomic_t *stop,
                                nq_journal_header *header,
                                nq_journal_state *state, unsigned char **done,
                                nq_counts *counts, char *why,
                                size_t why_size);
/* Checking journals someone else wrote, by recounting some of their
 * units (a tag proves nothing against a forger: the key is in the file). */
struct nq_verify_run; /* below: a run that wrote records */
typedef struct {
    double percent;             /* recount this share of the recorded
                                   units, chosen at random (100: all;
                                   not from 0 to 100: NQ_ERR_ARG) */
    uint64_t at_least;          /* ...but at least this many (all, if
                                   fewer are recorded).  Options that
                                   choose nothing (0%, at_least,
                                   largest and fixed_points 0) are
                                   NQ_ERR_ARG: a check of no unit */
    int fixed_points;           /* also every unit the plan says can
                                   hold solutions fixed by a turn,
                                   whatever its record claims (they
                                   carry the unique count) */
    uint64_t largest;           /* also the units of the `largest`
                                   greatest recorded totals, and of the
                                   `largest` greatest for the plan's
                                   estimate of their size, whatever the
                                   draw (0: none; past the records: all
                                   of them), so that no record raised
                                   past them can hide from it */
    uint64_t seed;              /* the sample's seed; 0: a random one
                                   (a seed known in advance tells a
                                   forger which records to leave be) */
    const char *engine;         /* the engine that recounts, one that
                                   counts the journals' plan; NULL: the
                                   first of this release that counts it
                                   on the CPU (fast for fast-ring/1),
                                   whatever engine the header names */
    int threads;                /* 0: one per online core (below 0:
                                   NQ_ERR_ARG) */
    volatile sig_atomic_t *stop;
    nq_progress_fn progress;
    void *progress_ctx;
    /* Each unit whose recount disagrees with its record (total, unique or
     * fixed points; nodes are the engine's own), one call at a time. */
    void (*on_disagree)(void *ctx, uint64_t unit, const nq_tally *recorded,
                        const nq_tally *counted);
    /* A GPU engine that failed (engine, in the device's words, why):
     * the units it left are recounted on the CPU engine `cpu` instead,
     * and this is called once, before they are. */
    void (*on_fallback)(void *ctx, const char *engine, const char *cpu,
                        const char *why);
    void *ctx;
    /* Verifying in parts (a record's check on many machines): the
     * units are chosen as above, then dealt to `parts` parts, largest
     * estimate first, each to the part with the least estimated work so
     * far (ties: the lower unit, the lower part), and only those of part
     * `part` (1 to parts) are recounted.  0/0: all.  Every part must
     * choose the same units: parts needs a seed (else NQ_ERR_ARG). */
    uint32_t part, parts;
    int estimate_only;          /* choose and cost the units, recount
                                   none (report: chosen_seconds...) */
    const char *verdict;        /* where not NULL: the part's verdict
                                   written there after the recount
                                   (doc/journal-format.md, "Verdicts") */
    /* Each chosen unit, in unit order, before any recount: its part
     * (1 to parts; 1 for 0/0) and the plan's estimate of its seconds on
     * the reference core (below 0: none). */
    void (*on_chosen)(void *ctx, uint64_t unit, uint32_t part,
                      double seconds);
    /* Appended for issue 57.  Runs (journal format 4: each record
     * follows the opening line of the run that wrote it).  Every run
     * gets a few of its records recounted whatever the draw; run:
     * every record of the run with this id is recounted too (0: none).  on_run: each run
     * with a record, after the recount (host, engine, kernel: words of
     * its line), whether or not its records agree; a run with a record
     * that disagrees has every record it wrote refused. */
    uint64_t run;
    void (*on_run)(void *ctx, const struct nq_verify_run *run);
    /* Also drawn at random, weighted (0: none): about `weighted` records
     * in proportion to their recorded total, and about as many in
     * proportion to the plan's estimate of their unit's work, each
     * record on its own (Poisson sampling; the chances in the report).
     * A set of wrong records whose totals are raised by D in all then
     * escapes with chance at most exp(-D / claim_step), and one that
     * holds a share g of the estimated work, wrong in any way (lowered,
     * skipped), at most exp(-g / work_share) (plans with estimates:
     * fast's; carry's have none, and no work draw). */
    uint64_t weighted;
} nq_verify_options;
/* A run that wrote records, as verify saw it. */
typedef struct nq_verify_run {
    uint64_t id;                /* its id (0: records of no known run,
                                   a version 3 journal's) */
    const char *host, *engine, *kernel;
    long pid;
    uint64_t records;           /* distinct units it recorded */
    uint64_t checked, disagree; /* of which recounted, and wrong */
    int rank;                   /* the MPI worker rank that counted them
                                   (nqueens-mpi: its line's rank=), 0:
                                   none (a process's own run) */
} nq_verify_run;
typedef struct {
    uint64_t units;             /* units of the plan */
    uint64_t recorded;          /* distinct units with a record */
    uint64_t sampled;           /* chosen at random */
    uint64_t by_size;           /* added for their size, not drawn */
    uint64_t fixed_points;      /* added for their fixed points, not
                                   drawn or added for their size */
    uint64_t checked;           /* recounted: the three above */
    uint64_t disagree;          /* of which disagree with their record */
    uint64_t seed;              /* the sample's seed (to repeat it) */
    nq_u128 size_bound;         /* every record whose total is above this
                                   was recounted (0: every one that can
                                   hold a total) */
    char engine[32];            /* the engine that recounted (the CPU
                                   engine, after a fallback) */
    int fell_back;              /* a GPU engine failed: see on_fallback */
    double seconds;
    /* With parts: the whole choice, and the share of this part. */
    uint32_t part, parts;       /* as asked (1/1 for 0/0) */
    uint64_t chosen;            /* units chosen, every part's */
    uint64_t share, share_sampled, share_by_size, share_fixed_points;
    uint64_t chosen_digest;     /* FNV-1a of the chosen ids, in order */
    uint64_t records_digest;    /* of every record read (its unit and
                                   counts), whatever file or order */
    double chosen_seconds;      /* the plan's estimate of the chosen
                                   units on its reference core, and of */
    double share_seconds;       /* ...the part's share */
    uint64_t unestimated;       /* chosen units without an estimate,
                                   left out of chosen_seconds, and */
    uint64_t share_unestimated; /* ...of the share */
    /* Appended for issue 57 (fields go at the end only).  Records lowered:
     * also recounted, the `largest` least for their unit's estimate,
     * by (total + 1) / estimate; every record left out of them holds at
     * least low_ratio times its unit's estimate (0: none weighed). */
    double low_ratio;
    /* The journal as a whole: its records sorted by their unit's
     * estimate into `strata` strata (0: too few records, or a plan
     * without estimates), each stratum's total over its estimate
     * against the rest's; strata_off of them stray past their bound (a
     * refusal, whatever the recount says).  The stratum furthest past
     * its bound, or nearest it: its number (1: smallest estimates), its
     * records, their estimates, how far it strays (-0.3: 30% below the
     * rest) and its bound. */
    uint32_t strata, strata_off, stratum;
    uint64_t stratum_units;
    double stratum_least, stratum_most, stratum_off, stratum_bound;
    /* Runs: how many wrote records, units added for their run's sample
     * (not chosen otherwise), runs with a record that disagrees, and
     * the records those runs wrote (all refused). */
    uint64_t runs, by_run, runs_disagree, run_records;
    /* The weighted draws: units they added (not chosen otherwise: not
     * in sampled), of which in the part's share; claim_step, the raise
     * that escapes with chance at most 1/e (a record is drawn with chance
     * min(1, total / claim_step): raises of D in all escape with chance
     * at most exp(-D / claim_step)); work_share, the share of the
     * records' estimated work that escapes, wrong, with chance at most
     * 1/e (a record: min(1, its share / work_share)).  0: no such draw
     * (none asked, no records with solutions, or a plan without
     * estimates: carry's). */
    uint64_t by_weight, share_by_weight;
    double claim_step, work_share;
} nq_verify_report;

/* Read journals of one count (as nq_journal_merge, refusing what it
 * refuses, o->stop its stop flag) and recount the units the options
 * choose with the plan's engine.  NQ_OK when every chosen unit was
 * recounted, whether or not they agree (report->disagree says);
 * NQ_ERR_STOPPED on a stop.  state, done and counts (each may be NULL):
 * what nq_journal_merge says of the one reading verify made, so that
 * what merge --verify adds up is what was recounted.  The units to
 * recount are collected by reading the journals again, and a journal
 * that changed in between (a record that is not the first reading's,
 * one gone or added) is NQ_ERR_IO, said, before anything is
 * recounted. */
nq_status nq_journal_verify(const char *const *paths, int count,
                            const nq_verify_options *o,
                            nq_journal_header *header, nq_verify_report *r,
                            nq_journal_state *state, unsigned char **done,
                            nq_counts *counts, char *why, size_t why_size);
/* The verdicts of the parts of one check put together with the journals
 * they checked (as nq_journal_verify reads them, o->stop its stop flag;
 * o->seed, part, parts and the rest come from the verdicts): NQ_OK only
 * if every part 1..M is there once, all drew with one seed from these
 * journals' records, together they recounted every chosen unit exactly
 * once (each part its own share), every recount agreed, and the
 * journals' strata, weighed again as the choice is made again, stray
 * within their bounds (report->strata_off 0).  Otherwise
 * NQ_ERR_CORRUPT (a damaged verdict), NQ_ERR_MISMATCH (what is missing
 * or wrong, or the stratum that strays furthest), each said in one
 * line.  report: the choice, its strata, checked and disagree summed
 * over the parts. */
nq_status nq_journal_verify_combine(const char *const *journals, int count,
                                    const char *const *verdicts,
                                    int nverdicts,
                                    const nq_verify_options *o,
                                    nq_journal_header *header,
                                    nq_verify_report *r,
                                    nq_journal_state *state,
                                    unsigned char **done, nq_counts *counts,
                                    char *why, size_t why_size);
#endif /* NQ_ADVANCED_API */

#ifdef __cplusplus
}
#endif
#endif

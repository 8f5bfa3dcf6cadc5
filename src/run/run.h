/*
 * run.h - what the run layer's files share: the one path of a long count,
 * run by threads in one process or by the ranks of an MPI job.
 */
#ifndef NQ_RUN_H
#define NQ_RUN_H

#include "nqueens.h"
#include "../engines/engine.h"
#include "../journal/journal_format.h"

/* A request checked once, at its entry point, with what the layers below
 * take as data: its engine, and the kernel and GPUs its plan carries. */
typedef struct {
    const nq_request *req;
    const nq_engine *engine;
    const struct nq_frontier_kernel *kernel;  /* NULL: the process default */
    int devices[NQ_MAX_DEVICES], ndevices;
} nq_checked;

/* Check req, the library's full copy of a request (nq_request_read):
 * engine, size, kernel, device list, into *c, which points into req.
 * NQ_ERR_ARG for an unknown kernel or a bad device list,
 * NQ_ERR_UNSUPPORTED for a kernel this CPU lacks, or a kernel or devices
 * given to an engine that uses none; each said in req's words buffer. */
nq_status nq_request_resolve(const nq_request *req, int enumerate,
                             nq_checked *c);
/* The plan of a checked request, carrying its kernel and GPUs. */
nq_status nq_checked_plan(const nq_checked *c, nq_plan **out);
/* Whether share part/parts of the plan holds no unit (part K of more
 * parts than units): 1, with why it is refused in words (count and
 * estimate say the same), else 0 (0/0, the whole plan, always holds). */
int nq_share_empty(const nq_plan *plan, uint32_t part, uint32_t parts,
                   char *why, size_t size);

struct nq_journal; /* journal.h */

/* Who runs the units.  One process: root, no agree, run on threads.  An
 * MPI job: every rank calls, only rank 0 (root) keeps the journal and
 * reports; agree(ok) gives every rank the lowest rank that passed 0 (its
 * plan, rank 0's journal), or -1 when all passed 1. */
typedef struct {
    int root;
    int (*agree)(void *ctx, int ok);
    /* j: rank 0's journal of a count (NULL: none, another rank, or a
     * recount), where a runner that knows which of its processes counted
     * each unit (MPI) records it under that process's run itself;
     * o->on_unit records it under this process's. */
    nq_status (*run)(void *ctx, const nq_plan *p, const nq_run_options *o,
                     struct nq_journal *j, nq_tally *sum,
                     nq_run_report *report);
    int workers;
    void *ctx;
    /* Every rank gets root's *v (NULL: one process, nothing to share):
     * the bound a resumed journal was cut by, which rank 0 alone reads. */
    void (*share)(void *ctx, double *v);
} nq_runner;

/* The long count of a program's request, options and report: each read
 * or written by the size rule (sized.c), the report's words copied to
 * the request's buffer on a failure. */
nq_status nq_count_with(const nq_request *req, const nq_resume_options *o,
                        const nq_runner *runner, nq_run_report *report);

/* Read one journal file through rd (merging, verifying): a file that
 * cannot be opened is NQ_ERR_IO, one without a header NQ_ERR_CORRUPT. */
nq_status nq_run_read_journal(const char *path, const nq_jf_reader *rd,
                              nq_jf_result *res, char *why, size_t wsize);

/* What the plan says of a record (nq_plan_record_flaw), in the words
 * merge, verify and resuming give a record it rules out: NQ_OK, or
 * NQ_ERR_CORRUPT naming the path, the line and the unit.  ctx: the plan
 * (an nq_jf_check's record, journal.h). */
nq_status nq_run_record_check(void *plan, const char *path, long line,
                              uint64_t unit, const nq_tally *t, char *why,
                              size_t wsize);

/* What reading journals into one count gives: header and state (as
 * nq_journal_merge's), the units covered (a bit each; to free), and,
 * where not NULL: the board's counts once every unit is covered
 * (counts), the plan every record was checked against (plan; to free),
 * and the records' set with a keyed digest of each unit's counts (set;
 * to free with nq_record_set_free), against which a second reading is
 * checked (verify: what it recounts is what it read). */
typedef struct {
    nq_journal_header *header;
    nq_journal_state *state;
    unsigned char **done;
    nq_counts *counts;
    nq_plan **plan;
    struct nq_record_set *set;
    const char *output;         /* merge -o: the combined journal's path
                                   (NULL: none written) */
} nq_merged;

/* nq_journal_merge's reading, giving up when *stop is set (reading,
 * planning), its outputs in *m.  Every unit covered, the plan's final
 * check must pass (a record is wrong otherwise): NQ_ERR_INTERNAL, in
 * the words merge and verify both say. */
nq_status nq_run_merge(const char *const *paths, int count,
                       const volatile sig_atomic_t *stop, const nq_merged *m,
                       char *why, size_t wsize);

/* ---- verifying in parts (run_verify.c, run_verdict.c) ---- */

/* The most parts a check is dealt to. */
#define NQ_VERIFY_MAX_PARTS 100000u
/* A chosen unit's recount, per entry of a choice (0: not recounted). */
enum { VERDICT_AGREE = 1, VERDICT_DISAGREE = 2 };

/* What one part of a check found: the journals' header, the report, and
 * the whole choice (ids sorted, each with its part from 0 and its
 * recount's outcome). */
typedef struct {
    const nq_journal_header *h;
    const nq_verify_report *r;
    const uint64_t *ids;
    const unsigned char *compared;
    const uint32_t *part_of;
    uint64_t count;
} nq_verdict;

/* The part's verdict into path (doc/journal-format.md, "Verdicts"),
 * written to a temporary file and renamed: NQ_ERR_IO, said, if not. */
nq_status nq_verdict_write(const char *path, const nq_verdict *v,
                           const nq_verify_options *o, char *why,
                           size_t wsize);

/* One part's verdict as read (cursor: the combine's, free ids and bad). */
typedef struct {
    const char *path;
    int n, fixed;
    char plan[32], engine[32];
    uint64_t units, identity, seed, at_least, largest, chosen, digest,
        records, weighted;
    double percent;
    uint32_t part, parts;
    uint64_t *ids, count, disagree, cursor;
    unsigned char *bad;         /* per id: it disagreed */
} nq_part_verdict;

/* Where nq_journal_verify's findings go (each but header and r may be
 * NULL, as there). */
typedef struct {
    nq_journal_header *header;
    nq_verify_report *r;
    nq_journal_state *state;
    unsigned char **done;
    nq_counts *counts;
} nq_verified;

/* nq_journal_verify with the recount run by rn (NULL: this process's
 * threads): on an MPI job, rank 0 reads and chooses, and rn's run
 * spreads the chosen units over the ranks.  rn->run may be called twice
 * (a GPU engine that failed, then the CPU engine). */
nq_status nq_verify_with(const char *const *paths, int count,
                         const nq_verify_options *o, const nq_runner *rn,
                         const nq_verified *v, char *why, size_t wsize);

/* ---- the journal as a whole (run_strata.c) ---- */

/* A stratum's total over its estimate may stray from the rest's by
 * SLACK + NOISE / sqrt(its records): the drift of solutions per node
 * with a unit's size, and the estimator's error summed over the
 * stratum (bench/RESULTS.md, "Verify's strata", measures both). */
#define NQ_STRATUM_SLACK 0.2
#define NQ_STRATUM_NOISE 5.0

/* A record weighed against its unit's estimate (nodes). */
typedef struct {
    uint64_t unit;
    double estimate, total;
} nq_weighed;

/* The bound a stratum of `units` records is held to. */
double nq_stratum_bound(uint64_t units);
/* The m records w (sorted here by estimate) cut into strata, each
 * weighed against the rest: r's strata fields. */
void nq_strata_weigh(nq_weighed *w, uint64_t m, nq_verify_report *r);

/* ---- the runs that wrote the records (run_runs.c) ---- */

/* Records recounted from every run whatever the draw. */
#define NQ_RUN_SAMPLE 3

typedef struct {
    nq_jf_run run;
    uint64_t records, checked, disagree;
    uint64_t sample[NQ_RUN_SAMPLE], key[NQ_RUN_SAMPLE];
    nq_tally tally[NQ_RUN_SAMPLE];
} nq_run_seen;

typedef struct {
    nq_run_seen *at;
    uint32_t count, cap;
    uint32_t current;           /* the run of the records being read,
                                   index + 1 (0: none known) */
    uint32_t *of;               /* per unit: its run, index + 1 */
    uint64_t seed;              /* of the runs' samples */
} nq_runs;

nq_status nq_runs_init(nq_runs *rs, uint64_t units, uint64_t seed);
void nq_runs_free(nq_runs *rs);
/* An opening run line read: the records after it are its. */
void nq_runs_enter(nq_runs *rs, const nq_jf_run *run);
/* A journal's header read: its records are of no run until a line says
 * which (version 3: none says). */
void nq_runs_leave(nq_runs *rs);
/* A record read the first time: noted for its run, perhaps sampled. */
void nq_runs_record(nq_runs *rs, uint64_t unit, const nq_tally *t);
/* Each run told (o->on_run) and counted into r. */
void nq_runs_told(const nq_runs *rs, const nq_verify_options *o,
                  nq_verify_report *r);

/* The verdict at p->path read, its CRC and lines checked: NQ_ERR_IO
 * (unreadable), NQ_ERR_CORRUPT (damaged or no verdict), said. */
nq_status nq_verdict_read(nq_part_verdict *p, char *why, size_t wsize);

#endif

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

/* Who runs the units.  One process: root, no agree, run on threads.  An
 * MPI job: every rank calls, only rank 0 (root) keeps the journal and
 * reports; agree(ok) gives every rank the lowest rank that passed 0 (its
 * plan, rank 0's journal), or -1 when all passed 1. */
typedef struct {
    int root;
    int (*agree)(void *ctx, int ok);
    nq_status (*run)(void *ctx, const nq_plan *p, const nq_run_options *o,
                     nq_tally *sum, nq_run_report *report);
    int workers;
    void *ctx;
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

/* nq_journal_merge, giving up when *stop is set (reading, planning), and
 * keeping in *plan (when not NULL; to free) the plan that every record was
 * checked against. */
nq_status nq_run_merge(const char *const *paths, int count,
                       const volatile sig_atomic_t *stop,
                       nq_journal_header *header, nq_journal_state *state,
                       unsigned char **done, nq_plan **plan, char *why,
                       size_t wsize);

#endif

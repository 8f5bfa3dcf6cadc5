/*
 * run.h - what the run layer's files share: the one path of a long count,
 * run by threads in one process or by the ranks of an MPI job.
 */
#ifndef NQ_RUN_H
#define NQ_RUN_H

#include "nqueens.h"
#include "../journal/journal_format.h"

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

nq_status nq_count_with(const nq_request *req, const nq_resume_options *o,
                        const nq_runner *runner, nq_run_report *report);

/* Read one journal file through rd (merging, verifying): a file that
 * cannot be opened is NQ_ERR_IO, one without a header NQ_ERR_CORRUPT. */
nq_status nq_run_read_journal(const char *path, const nq_jf_reader *rd,
                              nq_jf_result *res, char *why, size_t wsize);

#endif

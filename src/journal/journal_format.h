/*
 * journal_format.h - the lines of a journal file: writing them, reading
 * and checking them (doc/journal-format.md is the specification).
 *
 * Only the format lives here: which file, locking, the writer thread and
 * resuming are journal.c's; combining journals is the API's (run_merge.c).
 */
#ifndef NQ_JOURNAL_FORMAT_H
#define NQ_JOURNAL_FORMAT_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "nqueens.h"

#define NQ_JOURNAL_VERSION 4 /* the version this release writes */
#define NQ_JOURNAL_OLDEST 2  /* the oldest it reads */
#define NQ_JOURNAL_LINE_MAX 512
/* The most a run line's session may have taken: 1e9 s, 31 years.  No
 * session runs longer, and merge sums the lines in whole microseconds in
 * 64 bits, which 18,000 lines of this length still fit. */
#define NQ_JOURNAL_MAX_RUN_SECONDS 1e9

/* The header line of h (in its format version), newline included; its
 * length. */
int nq_jf_header_line(char *buf, size_t size, const nq_journal_header *h);
/* The record line of a unit, tagged with the header's key. */
int nq_jf_record_line(char *buf, size_t size, const nq_journal_header *h,
                      uint64_t unit, const nq_tally *t);

/* The run line of a session: its seconds and threads, and the units it
 * recorded, tagged like a record. */
int nq_jf_run_line(char *buf, size_t size, const nq_journal_header *h,
                   double seconds, int threads, uint64_t units);

/* Which run wrote the records that follow (version 4): an opening run
 * line, written before a session's first record, and again before a
 * record of it that follows another run's (nqueens-mpi's rank 0 writes
 * the records of every worker rank, each under the rank's own run).
 * id 0: a run not known (records a merge copied from a journal of
 * version 3).  rank: the MPI worker rank that counted the run's records
 * (1 and up: its line says rank=), 0 for none (a process's own run,
 * whose line says no rank). */
typedef struct {
    uint64_t id;
    char host[64], engine[32], kernel[16];
    long pid;
    int rank;
} nq_jf_run;
/* The opening run line of run, tagged like a record. */
int nq_jf_open_line(char *buf, size_t size, const nq_journal_header *h,
                    const nq_jf_run *run);

/* Parse and check a header line (no newline): 1 if it is one of this
 * version. */
int nq_jf_parse_header(char *line, nq_journal_header *h);

/* 1 if two headers are of the same count: N, plan and identity (the
 * share aside). */
int nq_jf_same_count(const nq_journal_header *a, const nq_journal_header *b);

/* 1 if unit is in the header's share (unit % parts == part - 1): the only
 * units its journal may record. */
int nq_jf_in_share(const nq_journal_header *h, uint64_t unit);

/* What the reader does with what it reads: header() once the header is
 * checked (a journal of another count is refused before its records are
 * looked at), record() for each record that checks out.  Either may
 * refuse with a status, saying why. */
typedef struct {
    nq_status (*header)(void *ctx, const char *path,
                        const nq_journal_header *h, char *why, size_t wsize);
    nq_status (*record)(void *ctx, const char *path, long line,
                        uint64_t unit, const nq_tally *t, char *why,
                        size_t wsize);
    void *ctx;
    const volatile sig_atomic_t *stop; /* reading gives up when set */
    /* Optional: each opening run line that checks out (version 4), before
     * the records it owns. */
    nq_status (*run)(void *ctx, const char *path, long line,
                     const nq_jf_run *run, char *why, size_t wsize);
} nq_jf_reader;

/* What a half-written last line (a crash's) was, as bits: what was
 * lost differs (nq_journal_state.dropped_tail). */
#define NQ_JF_TAIL_RECORD 1 /* a record, a header or bytes of none yet:
                               its unit is counted again */
#define NQ_JF_TAIL_RUN 2    /* a run line: that session's time is lost */

typedef struct {
    nq_journal_header header;
    int have_header;
    off_t good;   /* bytes up to the end of the last line that checked out */
    int tail;     /* a half-written last line (a crash) was left out:
                     NQ_JF_TAIL_RECORD or NQ_JF_TAIL_RUN */
    double seconds; /* the run lines: time summed, the most threads */
    int threads;
} nq_jf_result;

/* Read and check a whole journal.  A file that is empty, or holds only a
 * header cut short by a crash (while the journal was created), is NQ_OK
 * with have_header 0 (and tail set for the second): resuming starts it
 * afresh, another reader refuses it with nq_jf_no_header.  A first line
 * that is a damaged header or no header at all is NQ_ERR_CORRUPT, in the
 * same words for every reader.  A half-written last line (the remains
 * of a crash) is left out and noted; anything else that does not check
 * out (a record of a unit outside the header's share included) is
 * NQ_ERR_CORRUPT, another format version NQ_ERR_VERSION, with why
 * naming the file and line; a stop request NQ_ERR_STOPPED. */
nq_status nq_jf_read(FILE *f, const char *path, const nq_jf_reader *rd,
                     nq_jf_result *res, char *why, size_t wsize);

/* A file that nq_jf_read found without a header and without fault (empty,
 * or a crash's half-written header): NQ_ERR_CORRUPT, why saying which,
 * in the words the reader uses for its other headerless files. */
nq_status nq_jf_no_header(const char *path, const nq_jf_result *res,
                          char *why, size_t wsize);

/* snprintf into why (when given): the library's words for a failure. */
void nq_jf_why(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

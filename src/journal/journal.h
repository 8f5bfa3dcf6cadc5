/*
 * journal.h - a journal being written: the file of a running count, its
 * units recorded as they finish (journal.c), and the set of records read
 * from journals, each unit once (shared with merging).
 */
#ifndef NQ_JOURNAL_H
#define NQ_JOURNAL_H

#include "journal_format.h"

/* Units seen, each counted once: a repeat must carry the same counts. */
typedef struct nq_record_set {
    unsigned char *done;        /* bit per unit */
    uint64_t *digest;           /* per unit, its counts' digest (NULL: no
                                   repeats to compare) */
    uint64_t key[2];            /* the digests' random key */
    uint64_t units;
    nq_journal_state state;
} nq_record_set;

nq_status nq_record_set_init(nq_record_set *rs, uint64_t units);
void nq_record_set_free(nq_record_set *rs);
/* Add a unit's record; a unit seen before with other counts is
 * NQ_ERR_CORRUPT (why names path, line and unit). */
nq_status nq_record_set_add(nq_record_set *rs, const char *path, long line,
                            uint64_t unit, const nq_tally *t, char *why,
                            size_t wsize);
/* 1 if unit was added with these counts (its digest is theirs). */
int nq_record_set_holds(const nq_record_set *rs, uint64_t unit,
                        const nq_tally *t);

/* Open a regular file (a FIFO, a terminal or a device is refused: opening
 * or reading one could block forever); -1 with why set on failure. */
int nq_open_regular(const char *path, int flags, char *why, size_t wsize);

/* The header of the journal at path, if it has one that checks out: 1,
 * else 0 (no file, empty, damaged: opening it says which).  What a count
 * resuming it needs before it plans (the pieces it was cut into). */
int nq_journal_peek(const char *path, nq_journal_header *h);

typedef struct nq_journal nq_journal;

/* A random key for a new journal's header. */
void nq_journal_new_key(uint64_t key[2]);

/* What the opener knows of a record that the format cannot: a plan's
 * checks (a record the plan rules out, run_merge.c), so that resuming
 * refuses what merge and verify refuse, in their words.  record() as a
 * reader's (journal_format.h); NULL: no such check. */
typedef struct {
    nq_status (*record)(void *ctx, const char *path, long line,
                        uint64_t unit, const nq_tally *t, char *why,
                        size_t wsize);
    void *ctx;
} nq_jf_check;

/* Open the journal `path` of a plan's share (the header says which) to
 * resume and append, creating it if absent; want->key is kept for a new
 * file, replaced by the file's own for an existing one.  The file is
 * locked: two runs appending would interleave lines.  A half-written last
 * line (a crash) is cut off and its unit will be done again.  A journal of
 * another count is NQ_ERR_MISMATCH, damage NQ_ERR_CORRUPT (a record
 * `check` refuses too), another format NQ_ERR_VERSION: the file is then
 * left as it was.  A journal that cannot
 * be written (a read-only file system) is still opened for reading:
 * nq_journal_writable() says so, and the caller decides whether that is
 * enough (it is when every unit is recorded).  Reading a long journal
 * gives up (NQ_ERR_STOPPED) when *stop is set. */
nq_status nq_journal_open(const char *path, const nq_journal_header *want,
                          const volatile sig_atomic_t *stop,
                          const nq_jf_check *check, nq_journal **out,
                          char *why, size_t wsize);
int nq_journal_writable(const nq_journal *j);
/* What the journal holds.  Its units are all of the header's share: the
 * reader refuses a record outside it and nq_journal_record takes none, so
 * units_done is the share's units recorded, and a share is done only when
 * it equals the share's size. */
const nq_journal_state *nq_journal_state_get(const nq_journal *j);
/* A bit per unit, set for those with a record (nq_run_options.done). */
const unsigned char *nq_journal_done(const nq_journal *j);
/* A word of a run line into dst (size bytes): what s says, at most
 * size - 1 of its bytes (none past a NUL), those outside [A-Za-z0-9._-]
 * as '_', "-" for nothing (a host name is the machine's to choose, an
 * MPI rank's fields its own). */
void nq_jf_word(char *dst, size_t size, const char *s);
/* This process's run: a random id, the host name and pid, engine and
 * kernel (NULL: "-"), each as a word of the line; rank 0 (none). */
void nq_jf_run_here(nq_jf_run *run, const char *engine, const char *kernel);
/* Name this session's run (doc/journal-format.md, "Run lines"): its
 * opening line goes before its first record, in a journal of version 4
 * (one of version 3 resumed gets none). */
void nq_journal_set_run(nq_journal *j, const char *engine,
                        const char *kernel);
/* Queue a finished unit's record; a writer thread appends and fsyncs it.
 * A unit recorded before is not recorded (or counted) again; a unit
 * outside the header's share (or the plan) is NQ_ERR_ARG. */
nq_status nq_journal_record(nq_journal *j, uint64_t unit, const nq_tally *t);
/* nq_journal_record of a unit another run counted (an MPI worker rank's,
 * whose records rank 0 writes; NULL: this session's own run): the record
 * goes under that run's opening line, queued before it unless the last
 * opening line queued was that run's (its id says which).  A journal of
 * version 3 gets no such line, as it gets none of its own. */
nq_status nq_journal_record_as(nq_journal *j, const nq_jf_run *run,
                               uint64_t unit, const nq_tally *t);
/* Queue the run line of this session (its seconds, threads, and the units
 * it recorded), so a merge can report the whole run's time. */
nq_status nq_journal_note_run(nq_journal *j, double seconds, int threads,
                              uint64_t units);
/* Write what is queued, fsync, close, free; the first write failure, if
 * any, with why saying what happened to the file. */
nq_status nq_journal_close(nq_journal *j, char *why, size_t wsize);

/* A journal written whole (journal_whole.c): the union of several, by
 * merge.  Its lines go to a temporary file beside path, which commit
 * flushes to disk (fsync) and renames to path, so that path holds either
 * what it held before or the whole journal, whatever fails or crashes
 * in between.  create writes h's header line (h as the caller made it:
 * key, part and all); a write that fails is said by commit.  abandon
 * removes the temporary file (any failure of the caller's); commit
 * and abandon free w. */
typedef struct nq_whole_journal nq_whole_journal;
nq_status nq_whole_journal_create(const char *path,
                                  const nq_journal_header *h,
                                  nq_whole_journal **w, char *why,
                                  size_t wsize);
void nq_whole_journal_record(nq_whole_journal *w, uint64_t unit,
                             const nq_tally *t);
/* An input's opening run line, under w's key, before the records of
 * that run that follow (provenance survives a merge). */
void nq_whole_journal_open_run(nq_whole_journal *w, const nq_jf_run *run);
void nq_whole_journal_note_run(nq_whole_journal *w, double seconds,
                               int threads, uint64_t units);
nq_status nq_whole_journal_commit(nq_whole_journal *w, char *why,
                                  size_t wsize);
void nq_whole_journal_abandon(nq_whole_journal *w);

#endif

/*
 * run_merge.c - one count from several journals: the parts of a split run,
 * copies, or the journal of a run that never finished.
 *
 * The first journal's header says which count it is; this release must be
 * able to make that plan, with the same identity, before its unit count is
 * trusted with memory.  Every other journal must be of the same count (any
 * part), and a unit recorded twice must carry the same counts.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/core.h"
#include "../engines/engine.h"
#include "../journal/journal.h"
#include "run.h"

/* The time one journal's runs took: journals with the same key are
 * copies of one file (or the same file named twice), whose run lines are
 * the same runs, so the copy with the most time stands for all. */
typedef struct {
    uint64_t key[2];
    double seconds;
    int used;
} run_time;

/* The run times by key, in a table open-addressed by a keyed hash of
 * the key, so that a journal costs the same however many were read
 * before it (a list searched one by one made merging M journals M^2 / 2
 * comparisons: 68% of a merge of 56,498 parts).  The hash has a random
 * key of its own: a journal's key is whoever wrote it's choice, and must
 * not be able to pile journals up in one chain. */
typedef struct {
    run_time *slot;
    size_t size, used;          /* size: 0 or a power of 2 */
    uint64_t hash_key[2];
} run_table;

typedef struct {
    nq_journal_header *first;   /* the count, from the first journal */
    const char *first_path;
    nq_record_set set;
    int have_set;
    nq_plan *plan;              /* the count's plan, checked against it */
    const volatile sig_atomic_t *stop;
    run_table runs;
    const char *output;         /* merge -o: the combined journal, ... */
    nq_whole_journal *out;      /* ... being written */
    nq_jf_run run;              /* the run of the records being read (id
                                   0: not known, a version 3 journal's) */
    uint64_t run_written;       /* the run of the last record written */
    int wrote_any;
} merger;

/* The engine to make the journal's plan with: the one that wrote it, or
 * any that shares its unit split. */
static const nq_engine *plan_engine(const nq_journal_header *h)
{
    const nq_engine *e = nq_engine_find(h->engine);
    if (e && nq_engine_splits(e, h->plan))
        return e;
    for (int i = 0; i < nq_engine_count(); i++) {
        e = nq_engine_at(i);
        if (nq_engine_splits(e, h->plan))
            return e;
    }
    return NULL;
}

/* The cheap checks first: a header whose identity is not the hash of its
 * own N, split and unit count was edited (or forged carelessly), and
 * saying so costs nothing, where making the plan can cost minutes and
 * gigabytes (carry at N = 22). */
static nq_status header_consistent(const nq_engine *e,
                                   const nq_journal_header *h,
                                   const char *path, char *why, size_t wsize)
{
    if (!e || h->n < 1 || h->n > e->max_n) {
        nq_jf_why(why, wsize, "%s is for plan '%s' N=%d, which this nqueens "
                  "cannot count", path, h->plan, h->n);
        return NQ_ERR_MISMATCH;
    }
    if (nq_split_identity(e, h->plan, h->n, h->units) == h->identity)
        return NQ_OK;
    nq_jf_why(why, wsize, "%s: its header's id=%016llx is not the identity "
              "of plan %s N=%d with %llu units (the header was edited)",
              path, (unsigned long long)h->identity, h->plan, h->n,
              (unsigned long long)h->units);
    return NQ_ERR_CORRUPT;
}

/* The journal's count is one this release can plan, identically: the
 * plan is made (giving up when *stop is set) and kept, so that every
 * record can be checked against what the plan knows. */
static nq_status plan_matches(merger *m, const nq_journal_header *h,
                              const char *path, char *why, size_t wsize)
{
    const nq_engine *e = plan_engine(h);
    nq_request req = {.size = sizeof req, .n = h->n,
                      .stop = (volatile sig_atomic_t *)m->stop,
                      .max_unit_seconds = nq_split_max_unit_seconds(h->plan)};
    nq_status st = header_consistent(e, h, path, why, wsize);
    if (st == NQ_OK && (st = nq_plan_new(e, &req, &m->plan)) != NQ_OK) {
        if (st == NQ_ERR_STOPPED)
            nq_jf_why(why, wsize, "stopped while making the plan of N=%d "
                      "(plan %s) to check %s against", h->n, h->plan, path);
        else
            nq_jf_why(why, wsize, "%s: the plan of N=%d (plan %s) could "
                      "not be made: %s", path, h->n, h->plan,
                      nq_strerror(st));
        return st;
    }
    if (st != NQ_OK || nq_plan_units(m->plan) == h->units)
        return st;
    nq_jf_why(why, wsize, "%s was written with another unit plan for N=%d "
              "plan %s (another version of nqueens?)", path, h->n, h->plan);
    return NQ_ERR_MISMATCH;
}

/* merge -o: the combined journal's header, of the count the first
 * journal's says, in this release's format, with a key of its own and
 * part 1/1 whatever its inputs' shares (doc/journal-format.md,
 * "Combined journals"). */
static nq_status start_output(merger *m, char *why, size_t wsize)
{
    nq_journal_header h = *m->first;
    h.version = NQ_JOURNAL_VERSION;
    h.part = h.parts = 1;
    nq_journal_new_key(h.key);
    return nq_whole_journal_create(m->output, &h, &m->out, why, wsize);
}

static nq_status take_header(void *ctx, const char *path,
                             const nq_journal_header *h, char *why,
                             size_t wsize)
{
    merger *m = ctx;
    nq_journal_header *w = m->first;
    if (!m->have_set) {
        nq_status st = plan_matches(m, h, path, why, wsize);
        if (st == NQ_OK && (st = nq_record_set_init(&m->set, h->units)) == NQ_OK) {
            *w = *h, m->have_set = 1;
            /* the engine of this release that counts the plan: the one
             * named may be renamed, or not built here (cuda) */
            snprintf(w->engine, sizeof w->engine, "%s",
                     plan_engine(h)->name);
            if (m->output)
                st = start_output(m, why, wsize);
        }
        return st;
    }
    if (nq_jf_same_count(h, w))
        return NQ_OK;
    nq_jf_why(why, wsize, "%s is for N=%d plan %s, %s for N=%d plan %s", path,
              h->n, h->plan, m->first_path, w->n, w->plan);
    return NQ_ERR_MISMATCH;
}

nq_status nq_run_record_check(void *plan, const char *path, long line,
                              uint64_t unit, const nq_tally *t, char *why,
                              size_t wsize)
{
    const char *flaw = nq_plan_record_flaw(plan, unit, t);
    if (!flaw)
        return NQ_OK;
    nq_jf_why(why, wsize, "%s line %ld: unit %llu cannot be right (its tag "
              "checks out, so whoever wrote it had the key): %s", path, line,
              (unsigned long long)unit, flaw);
    return NQ_ERR_CORRUPT;
}

static nq_status take_record(void *ctx, const char *path, long line,
                             uint64_t unit, const nq_tally *t, char *why,
                             size_t wsize)
{
    merger *m = ctx;
    uint64_t before = m->set.state.units_done;
    nq_status st = nq_run_record_check(m->plan, path, line, unit, t, why,
                                       wsize);
    if (st == NQ_OK)
        st = nq_record_set_add(&m->set, path, line, unit, t, why, wsize);
    if (st == NQ_OK && m->out && m->set.state.units_done > before) {
        if (!m->wrote_any || m->run_written != m->run.id) /* another run's */
            nq_whole_journal_open_run(m->out, &m->run);
        m->wrote_any = 1, m->run_written = m->run.id;
        nq_whole_journal_record(m->out, unit, t); /* its first record */
    }
    return st;
}

/* An opening run line: the records after it are that run's. */
static nq_status take_run(void *ctx, const char *path, long line,
                          const nq_jf_run *run, char *why, size_t wsize)
{
    merger *m = ctx;
    (void)path, (void)line, (void)why, (void)wsize;
    m->run = *run;
    return NQ_OK;
}

nq_status nq_run_read_journal(const char *path, const nq_jf_reader *rd,
                              nq_jf_result *res, char *why, size_t wsize)
{
    int fd = nq_open_regular(path, O_RDONLY, why, wsize);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        memset(res, 0, sizeof *res);
        return NQ_ERR_IO;
    }
    nq_status st = nq_jf_read(f, path, rd, res, why, wsize);
    fclose(f);
    /* empty, or a crash's half-written header: what resuming restarts is
     * no journal to read, said in the reader's words for such a file */
    if (st == NQ_OK && !res->have_header)
        st = nq_jf_no_header(path, res, why, wsize);
    return st;
}

static uint64_t runs_hash(const run_table *r, const uint64_t key[2])
{
    return nq_siphash(r->hash_key[0], r->hash_key[1], key, 2 * sizeof key[0]);
}

/* The slot of key: its own, or the empty one where it goes. */
static run_time *runs_slot(const run_table *r, const uint64_t key[2])
{
    size_t i = (size_t)runs_hash(r, key) & (r->size - 1);
    while (r->slot[i].used && memcmp(r->slot[i].key, key, 2 * sizeof key[0]))
        i = (i + 1) & (r->size - 1);
    return &r->slot[i];
}

/* Twice the room (at most half the slots used keeps the chains short). */
static nq_status runs_grow(run_table *r)
{
    run_table bigger = *r;
    bigger.size = r->size ? 2 * r->size : 64;
    bigger.slot = calloc(bigger.size, sizeof *bigger.slot);
    if (!bigger.slot)
        return NQ_ERR_NOMEM;
    if (!r->size)
        nq_journal_new_key(bigger.hash_key);
    for (size_t i = 0; i < r->size; i++)
        if (r->slot[i].used)
            *runs_slot(&bigger, r->slot[i].key) = r->slot[i];
    free(r->slot);
    *r = bigger;
    return NQ_OK;
}

/* A journal's run time, kept per key: the most any copy records. */
static nq_status note_runs(merger *m, const nq_jf_result *res)
{
    run_table *r = &m->runs;
    if (2 * (r->used + 1) > r->size && runs_grow(r) != NQ_OK)
        return NQ_ERR_NOMEM;
    run_time *t = runs_slot(r, res->header.key);
    if (!t->used) {
        memcpy(t->key, res->header.key, sizeof t->key);
        t->used = 1, t->seconds = res->seconds, r->used++;
    } else if (res->seconds > t->seconds) {
        t->seconds = res->seconds;
    }
    return NQ_OK;
}

/* The runs' time in whole microseconds, the run lines' resolution: a
 * sum of integers, the same in whatever order and grouping the journals
 * come (merge -o's run line carries it on, so a staged merge reports
 * the time a merge of every journal at once does). */
static uint64_t runs_micros(const run_table *r)
{
    uint64_t micros = 0;
    for (size_t i = 0; i < r->size; i++)
        if (r->slot[i].used)
            micros += (uint64_t)(r->slot[i].seconds * 1e6 + 0.5);
    return micros;
}

/* One journal into the merger. */
static nq_status merge_one(merger *m, const char *path, int *tail, char *why,
                           size_t wsize)
{
    nq_jf_reader rd = {take_header, take_record, m, m->stop, take_run};
    m->run = (nq_jf_run){0, "-", "-", "-", 0, 0}; /* none known yet */
    nq_jf_result res;
    nq_status st = nq_run_read_journal(path, &rd, &res, why, wsize);
    *tail |= res.tail;
    if (res.threads > m->set.state.threads)
        m->set.state.threads = res.threads;
    return st == NQ_OK && res.have_header ? note_runs(m, &res) : st;
}

/* Every unit covered: the board's counts, which the plan's final check
 * must pass (Burnside's division without a remainder), else a record is
 * wrong, said alike by merge and verify. */
static nq_status finish(const merger *m, nq_counts *counts, char *why,
                        size_t wsize)
{
    nq_counts c;
    if (m->set.state.units_done < m->first->units)
        return NQ_OK;
    nq_status st = nq_plan_finish_sum(m->plan, &m->set.state.sum, &c);
    if (st != NQ_OK)
        nq_jf_why(why, wsize, "the journals' units add up to no count of "
                  "N=%d: %s (a record is wrong)", m->first->n,
                  nq_strerror(st));
    else if (counts)
        *counts = c;
    return st;
}

/* The reading's outputs into *out (on success); the set keeps a bit
 * set of its own. */
static nq_status hand_over(merger *m, int tail, const nq_merged *out)
{
    size_t bytes = m->set.units / 8 + 1;
    unsigned char *done = out->set ? malloc(bytes) : m->set.done;
    if (!done)
        return NQ_ERR_NOMEM;
    if (out->set)
        memcpy(done, m->set.done, bytes);
    else
        m->set.done = NULL;
    *out->state = m->set.state;
    out->state->dropped_tail = tail;
    out->state->seconds = (double)runs_micros(&m->runs) / 1e6;
    *out->done = done;
    if (out->plan)
        *out->plan = m->plan, m->plan = NULL;
    if (out->set) {
        *out->set = m->set;
        memset(&m->set, 0, sizeof m->set);
    }
    return NQ_OK;
}

/* merge -o: an output that is one of the inputs (the same file, by
 * any name) would be replaced by what it is merged into: refused before
 * anything is read.  An output that does not exist yet is none. */
static nq_status output_apart(const char *const *paths, int count,
                              const char *output, char *why, size_t wsize)
{
    struct stat o, in;
    if (!output || stat(output, &o) != 0)
        return NQ_OK;
    for (int i = 0; i < count; i++)
        if (stat(paths[i], &in) == 0 && in.st_dev == o.st_dev &&
            in.st_ino == o.st_ino) {
            nq_jf_why(why, wsize, "%s is one of the journals merged (%s): "
                      "the combined journal must not replace it", output,
                      paths[i]);
            return NQ_ERR_ARG;
        }
    return NQ_OK;
}

/* merge -o: the combined journal finished (a run line carrying the
 * runs' time, if any run recorded one) and renamed into place. */
static nq_status finish_output(merger *m, char *why, size_t wsize)
{
    nq_whole_journal *w = m->out;
    m->out = NULL;
    if (m->set.state.threads > 0)
        nq_whole_journal_note_run(w, (double)runs_micros(&m->runs) / 1e6,
                                  m->set.state.threads,
                                  m->set.state.units_done);
    return nq_whole_journal_commit(w, why, wsize);
}

/* Each path given, none NULL. */
static nq_status paths_given(const char *const *paths, int count, char *why,
                             size_t wsize)
{
    nq_status st = count > 0 && paths ? NQ_OK : NQ_ERR_ARG;
    for (int i = 0; i < count && st == NQ_OK; i++)
        st = paths[i] ? NQ_OK : NQ_ERR_ARG;
    if (st == NQ_ERR_ARG)
        nq_jf_why(why, wsize, "no journal given (a NULL list or path)");
    return st;
}

nq_status nq_run_merge(const char *const *paths, int count,
                       const volatile sig_atomic_t *stop, const nq_merged *out,
                       char *why, size_t wsize)
{
    merger m = {.first = out->header, .stop = stop, .output = out->output};
    int tail = 0;
    memset(out->state, 0, sizeof *out->state);
    *out->done = NULL;
    nq_status st = paths_given(paths, count, why, wsize);
    if (st == NQ_OK)
        st = output_apart(paths, count, out->output, why, wsize);
    m.first_path = st == NQ_OK ? paths[0] : NULL;
    for (int i = 0; i < count && st == NQ_OK; i++)
        st = merge_one(&m, paths[i], &tail, why, wsize);
    if (st == NQ_OK)
        st = finish(&m, out->counts, why, wsize);
    if (st == NQ_OK && m.out)
        st = finish_output(&m, why, wsize);
    if (st == NQ_OK)
        st = hand_over(&m, tail, out);
    nq_whole_journal_abandon(m.out);
    nq_plan_free(m.plan);
    free(m.runs.slot);
    nq_record_set_free(&m.set);
    return st;
}

/* The public calls' checks of what they are handed. */
static nq_status merge_args(const nq_journal_header *header,
                            const nq_journal_state *state,
                            unsigned char **done, char *why, size_t wsize)
{
    if (header && state && done)
        return NQ_OK;
    nq_jf_why(why, wsize, "nowhere to put the merge (a NULL header, state "
              "or done)");
    return NQ_ERR_ARG;
}

nq_status nq_journal_merge(const char *const *paths, int count,
                           volatile sig_atomic_t *stop,
                           nq_journal_header *header, nq_journal_state *state,
                           unsigned char **done, nq_counts *counts, char *why,
                           size_t wsize)
{
    return nq_journal_merge_into(paths, count, NULL, stop, header, state,
                                 done, counts, why, wsize);
}

nq_status nq_journal_merge_into(const char *const *paths, int count,
                                const char *output,
                                volatile sig_atomic_t *stop,
                                nq_journal_header *header,
                                nq_journal_state *state, unsigned char **done,
                                nq_counts *counts, char *why, size_t wsize)
{
    nq_status st = merge_args(header, state, done, why, wsize);
    nq_merged m = {header, state, done, counts, NULL, NULL, output};
    return st == NQ_OK ? nq_run_merge(paths, count, stop, &m, why, wsize)
                       : st;
}

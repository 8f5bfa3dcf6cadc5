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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engines/engine.h"
#include "../journal/journal.h"
#include "run.h"

/* The time one journal's runs took: journals with the same key are
 * copies of one file (or the same file named twice), whose run lines are
 * the same runs, so the copy with the most time stands for all. */
typedef struct {
    uint64_t key[2];
    double seconds;
} run_time;

typedef struct {
    nq_journal_header *first;   /* the count, from the first journal */
    const char *first_path;
    nq_record_set set;
    int have_set;
    nq_plan *plan;              /* the count's plan, checked against it */
    const volatile sig_atomic_t *stop;
    run_time *runs;             /* one per distinct key */
    int nruns;
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
    nq_status st = nq_run_record_check(m->plan, path, line, unit, t, why,
                                       wsize);
    return st == NQ_OK ? nq_record_set_add(&m->set, path, line, unit, t, why,
                                           wsize) : st;
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

/* A journal's run time, kept per key: the most any copy records. */
static nq_status note_runs(merger *m, const nq_jf_result *res)
{
    for (int i = 0; i < m->nruns; i++)
        if (!memcmp(m->runs[i].key, res->header.key, sizeof res->header.key)) {
            if (res->seconds > m->runs[i].seconds)
                m->runs[i].seconds = res->seconds;
            return NQ_OK;
        }
    run_time *grown = realloc(m->runs, (size_t)(m->nruns + 1) * sizeof *grown);
    if (!grown)
        return NQ_ERR_NOMEM;
    m->runs = grown;
    memcpy(grown[m->nruns].key, res->header.key, sizeof res->header.key);
    grown[m->nruns++].seconds = res->seconds;
    return NQ_OK;
}

/* One journal into the merger. */
static nq_status merge_one(merger *m, const char *path, int *tail, char *why,
                           size_t wsize)
{
    nq_jf_reader rd = {take_header, take_record, m, m->stop};
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
    nq_status st = nq_plan_finish(m->plan, &m->set.state.sum, &c);
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
    for (int i = 0; i < m->nruns; i++)
        out->state->seconds += m->runs[i].seconds;
    *out->done = done;
    if (out->plan)
        *out->plan = m->plan, m->plan = NULL;
    if (out->set) {
        *out->set = m->set;
        memset(&m->set, 0, sizeof m->set);
    }
    return NQ_OK;
}

nq_status nq_run_merge(const char *const *paths, int count,
                       const volatile sig_atomic_t *stop, const nq_merged *out,
                       char *why, size_t wsize)
{
    merger m = {.first = out->header, .stop = stop};
    nq_status st = count > 0 && paths ? NQ_OK : NQ_ERR_ARG;
    int tail = 0;
    memset(out->state, 0, sizeof *out->state);
    *out->done = NULL;
    for (int i = 0; i < count && st == NQ_OK; i++)
        st = paths[i] ? NQ_OK : NQ_ERR_ARG;
    if (st == NQ_ERR_ARG)
        nq_jf_why(why, wsize, "no journal given (a NULL list or path)");
    m.first_path = st == NQ_OK ? paths[0] : NULL;
    for (int i = 0; i < count && st == NQ_OK; i++)
        st = merge_one(&m, paths[i], &tail, why, wsize);
    if (st == NQ_OK)
        st = finish(&m, out->counts, why, wsize);
    if (st == NQ_OK)
        st = hand_over(&m, tail, out);
    nq_plan_free(m.plan);
    free(m.runs);
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
    nq_status st = merge_args(header, state, done, why, wsize);
    nq_merged m = {header, state, done, counts, NULL, NULL};
    return st == NQ_OK ? nq_run_merge(paths, count, stop, &m, why, wsize)
                       : st;
}

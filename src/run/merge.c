/*
 * merge.c - one count from several journals: the parts of a split run,
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

typedef struct {
    nq_journal_header *first;   /* the count, from the first journal */
    const char *first_path;
    nq_record_set set;
    int have_set;
} merger;

/* The engine to make the journal's plan with: the one that wrote it, or
 * any that shares its unit split. */
static const nq_engine *plan_engine(const nq_journal_header *h)
{
    const nq_engine *e = nq_engine_find(h->engine);
    if (e && e->plan_id && !strcmp(e->plan_id, h->plan))
        return e;
    for (int i = 0; i < nq_engine_count(); i++) {
        e = nq_engine_at(i);
        if (e->plan_id && !strcmp(e->plan_id, h->plan))
            return e;
    }
    return NULL;
}

/* The journal's count is one this release can plan, identically. */
static nq_status plan_matches(const nq_journal_header *h, const char *path,
                              char *why, size_t wsize)
{
    const nq_engine *e = plan_engine(h);
    nq_request req = {.n = h->n};
    nq_plan *p;
    if (!e || h->n < 1 || h->n > e->max_n ||
        nq_plan_new(e, &req, &p) != NQ_OK) {
        nq_jf_why(why, wsize, "%s is for plan '%s' N=%d, which this nqueens "
                  "cannot count", path, h->plan, h->n);
        return NQ_ERR_MISMATCH;
    }
    int same = nq_plan_units(p) == h->units &&
               nq_plan_identity(p) == h->identity;
    nq_plan_free(p);
    if (!same)
        nq_jf_why(why, wsize, "%s was written with another unit plan for N=%d "
                  "plan %s (another version of nqueens?)", path, h->n,
                  h->plan);
    return same ? NQ_OK : NQ_ERR_MISMATCH;
}

static nq_status take_header(void *ctx, const char *path,
                             const nq_journal_header *h, char *why,
                             size_t wsize)
{
    merger *m = ctx;
    nq_journal_header *w = m->first;
    if (!m->have_set) {
        nq_status st = plan_matches(h, path, why, wsize);
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

static nq_status take_record(void *ctx, const char *path, long line,
                             uint64_t unit, const nq_tally *t, char *why,
                             size_t wsize)
{
    merger *m = ctx;
    return nq_record_set_add(&m->set, path, line, unit, t, why, wsize);
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

/* One journal into the merger. */
static nq_status merge_one(merger *m, const char *path, int *tail, char *why,
                           size_t wsize)
{
    nq_jf_reader rd = {take_header, take_record, m, NULL, NULL};
    nq_jf_result res;
    nq_status st = nq_run_read_journal(path, &rd, &res, why, wsize);
    *tail |= res.tail;
    m->set.state.seconds += res.seconds;
    if (res.threads > m->set.state.threads)
        m->set.state.threads = res.threads;
    return st;
}

nq_status nq_journal_merge(const char *const *paths, int count,
                           nq_journal_header *header, nq_journal_state *state,
                           unsigned char **done, char *why, size_t wsize)
{
    merger m = {.first = header, .first_path = count > 0 ? paths[0] : NULL};
    nq_status st = count > 0 && paths ? NQ_OK : NQ_ERR_ARG;
    int tail = 0;
    memset(state, 0, sizeof *state);
    *done = NULL;
    for (int i = 0; i < count && st == NQ_OK; i++)
        st = merge_one(&m, paths[i], &tail, why, wsize);
    if (st == NQ_OK) {
        *state = m.set.state;
        state->dropped_tail = tail;
        *done = m.set.done, m.set.done = NULL;
    }
    nq_record_set_free(&m.set);
    return st;
}

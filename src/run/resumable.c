/*
 * resumable.c - a long count: plan, journal, run, report.  The one path
 * behind `nqueens count --checkpoint` and `nqueens-mpi`: only who runs the
 * units differs (nq_runner).
 *
 * What the journal records is the truth of the run: the report's counts
 * come from its records (this run's and every earlier one's), and a count
 * whose consistency check fails (Burnside's division with a remainder) is
 * a failure, never a printed number.
 */
#include <string.h>

#include "../core/core.h"
#include "../engines/engine.h"
#include "../search/stop.h"
#include "../journal/journal.h"
#include "../registry/registry.h"
#include "run.h"

static nq_status record_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    return nq_journal_record(ctx, unit, t);
}

/* The kernel a count runs on, for its run line: the request's, else the
 * process default, for engines of the fast kernels; none for others. */
static const char *run_kernel(const nq_request *req, const nq_plan *plan)
{
    if (!(plan->engine->caps & NQ_CAP_KERNEL))
        return NULL;
    return req->kernel ? req->kernel : nq_kernel_current();
}

/* The header a new journal of this count and share gets. */
static void journal_header(const nq_plan *plan, const nq_resume_options *o,
                           nq_journal_header *h)
{
    memset(h, 0, sizeof *h);
    h->version = NQ_JOURNAL_VERSION;
    h->n = plan->n;
    snprintf(h->plan, sizeof h->plan, "%s", nq_plan_split(plan));
    snprintf(h->engine, sizeof h->engine, "%s", plan->engine->name);
    h->units = plan->units;
    h->identity = nq_plan_identity(plan);
    h->part = o->parts ? o->part : 1;
    h->parts = o->parts ? o->parts : 1;
    nq_journal_new_key(h->key);
}

/* Root opens the journal; every process learns whether it could. */
/* A journal that cannot be written is enough only if nothing is left. */
static nq_status check_writable(const nq_journal *j, const char *path,
                                nq_run_report *r)
{
    if (!j || nq_journal_writable(j) || r->recorded >= r->share)
        return NQ_OK;
    snprintf(r->why, sizeof r->why, "cannot write the journal %s (read-only "
             "file system or no permission), and %llu of its %llu units are "
             "left to count", path,
             (unsigned long long)(r->share - r->recorded),
             (unsigned long long)r->share);
    return NQ_ERR_IO;
}

/* Run what is left of the share, recording each unit as it finishes. */
static nq_status run_share(const nq_plan *plan, const nq_request *req,
                           const nq_resume_options *o, const nq_runner *rn,
                           nq_journal *j, nq_tally *fresh, nq_run_report *r)
{
    nq_run_options ro = {
        .threads = req->threads, .part = o->part, .parts = o->parts,
        .done = j ? nq_journal_done(j) : NULL, .max_units = o->max_units,
        .stop = req->stop, .on_unit = j ? record_unit : NULL, .ctx = j,
        .progress = req->progress, .progress_ctx = req->progress_ctx,
        .why = r->why, .why_size = sizeof r->why,
    };
    if (r->recorded >= r->share && rn->root && !rn->agree)
        return NQ_OK; /* finished before: nothing to start */
    return rn->run(rn->ctx, plan, &ro, j, fresh, r);
}

/* The end: close the journal, then say how the run ended, the board's
 * counts when it is whole. */
static nq_status conclude(const nq_plan *plan, const nq_resume_options *o,
                          nq_journal *j, nq_status run, nq_tally *sum,
                          nq_run_report *r)
{
    char why[sizeof r->why] = "";
    if (j) { /* r->recorded is still what the journal held before the run */
        const nq_journal_state *js = nq_journal_state_get(j);
        if (js->units_done > r->recorded)
            nq_journal_note_run(j, r->seconds, r->workers,
                                js->units_done - r->recorded);
        *sum = js->sum, r->recorded = js->units_done;
        r->seconds_all = js->seconds; /* this run's line included */
    }
    nq_status closed = nq_journal_close(j, why, sizeof why);
    if (closed != NQ_OK) {
        snprintf(r->why, sizeof r->why, "%s", why);
        return closed;
    }
    if (run != NQ_OK)
        return run;
    /* the journal holds units of this share only (journal.h), so as many
     * recorded as the share has is every unit of it */
    r->complete = r->recorded >= r->share || !o->journal;
    if (!r->complete)
        return NQ_ERR_STOPPED;
    if (o->parts > 1)
        return NQ_OK;
    nq_status st = nq_plan_finish_sum(plan, sum, &r->counts);
    if (st != NQ_OK)
        snprintf(r->why, sizeof r->why, "the count of N=%d failed its final "
                 "check (%s): the journal %s holds a wrong record", plan->n,
                 nq_strerror(st), o->journal ? o->journal : "(none)");
    return st;
}

static void report_start(const nq_plan *plan, const nq_resume_options *o,
                         const nq_journal *j, nq_run_report *r)
{
    nq_run_options share = {.part = o->part, .parts = o->parts};
    r->units = nq_plan_units(plan);
    r->share = nq_plan_selected(plan, &share);
    if (j) {
        r->recorded = nq_journal_state_get(j)->units_done;
        r->dropped_tail = nq_journal_state_get(j)->dropped_tail;
    }
}

/* Root opens the journal and checks it can go on with it; then every
 * process learns whether it could, before any waits for the others. */
static nq_status open_journal(const nq_plan *plan, const nq_request *req,
                              const nq_resume_options *o, const nq_runner *rn,
                              nq_journal **j, nq_run_report *r)
{
    nq_status st = NQ_OK;
    nq_journal_header want;
    *j = NULL;
    /* the plan's checks of each record, as merge and verify make them */
    nq_jf_check check = {nq_run_record_check, (void *)plan};
    if (rn->root && o->journal) {
        journal_header(plan, o, &want);
        st = nq_journal_open(o->journal, &want, req->stop, &check, j, r->why,
                             sizeof r->why);
    }
    if (st == NQ_OK && *j)
        nq_journal_set_run(*j, plan->engine->name, run_kernel(req, plan));
    report_start(plan, o, *j, r);
    if (st == NQ_OK)
        st = check_writable(*j, o->journal, r);
    if (rn->agree && rn->agree(rn->ctx, st == NQ_OK) >= 0 && st == NQ_OK)
        st = NQ_ERR_IO; /* a worker: rank 0 says why */
    return st;
}

/* The bound of the count's pieces: the request's, or, where it asks for
 * the default, the one an existing journal of its engine's split was cut
 * by (none for a journal of whole units), so that a journal resumes with
 * the pieces it was written with whatever the default is now.  Rank 0
 * reads the journal; every rank plans with what it found. */
static double piece_bound(const nq_request *req, const nq_resume_options *o,
                          const nq_runner *rn)
{
    double v = req->max_unit_seconds;
    nq_journal_header h;
    const nq_engine *e;
    if (v == 0 && rn->root && o->journal && nq_journal_peek(o->journal, &h) &&
        nq_request_engine(req, 0, &e) == NQ_OK && nq_engine_splits(e, h.plan))
        v = nq_split_max_unit_seconds(h.plan);
    if (rn->share)
        rn->share(rn->ctx, &v);
    return v;
}

/* The request checked (the one check on the way down) and its plan; a
 * refusal's words, said in the request's buffer, are the report's too. */
static nq_status make_plan(const nq_request *req, const nq_resume_options *o,
                           const nq_runner *rn, nq_plan **plan,
                           nq_run_report *r)
{
    nq_checked c;
    nq_request said = *req;
    said.why = r->why, said.why_size = sizeof r->why;
    said.max_unit_seconds = piece_bound(req, o, rn);
    nq_status st = nq_request_resolve(&said, 0, &c);
    return st == NQ_OK ? nq_checked_plan(&c, plan) : st;
}

/* Options that ask for nothing a count can do: a share part K of M
 * with K not in 1..M (part 0/2 and 3/2 counted nothing, said NQ_OK and
 * left a journal no reader takes), a part without parts, parts or a
 * budget without a journal to keep them. */
static nq_status options_sane(const nq_resume_options *o, nq_run_report *r)
{
    if (o->parts ? o->part >= 1 && o->part <= o->parts : o->part == 0) {
        if (o->journal || (!o->parts && !o->max_units))
            return NQ_OK;
        snprintf(r->why, sizeof r->why, "a share or a budget of units "
                 "needs a journal to record what was done");
        return NQ_ERR_ARG;
    }
    snprintf(r->why, sizeof r->why, "part %u/%u: a share is part K of M "
             "parts, K from 1 to M", o->part, o->parts);
    return NQ_ERR_ARG;
}

/* A share must hold a unit: part K of more parts than the plan has
 * units would count none, and its journal would say nothing. */
int nq_share_empty(const nq_plan *plan, uint32_t part, uint32_t parts,
                   char *why, size_t size)
{
    nq_run_options share = {.part = part, .parts = parts};
    if (!parts || nq_plan_selected(plan, &share))
        return 0;
    snprintf(why, size, "part %u/%u of N=%d holds no unit: its plan has "
             "%llu, and a split has at most that many parts", part, parts,
             plan->n, (unsigned long long)plan->units);
    return 1;
}

static nq_status share_sane(const nq_plan *plan, const nq_resume_options *o,
                            nq_run_report *r)
{
    return nq_share_empty(plan, o->part, o->parts, r->why, sizeof r->why)
               ? NQ_ERR_ARG : NQ_OK;
}

/* The long count on full copies of the program's request, options and
 * report (nq_count_with reads and writes them). */
static nq_status count_full(const nq_request *req, const nq_resume_options *o,
                            const nq_runner *rn, nq_run_report *r)
{
    nq_plan *plan;
    nq_journal *j = NULL;
    nq_tally fresh = {0};
    nq_status st = options_sane(o, r);
    if (st != NQ_OK)
        return st;
    st = make_plan(req, o, rn, &plan, r);
    if (st == NQ_OK && (st = share_sane(plan, o, r)) != NQ_OK) {
        nq_plan_free(plan);
        plan = NULL;
    }
    if (st == NQ_OK && nq_stop_requested(req->stop)) {
        nq_plan_free(plan);
        st = NQ_ERR_STOPPED;
    }
    if (st == NQ_ERR_STOPPED)
        snprintf(r->why, sizeof r->why, "interrupted while making the plan "
                 "of N=%d", req->n);
    int failed = rn->agree ? rn->agree(rn->ctx, st == NQ_OK) : -1;
    if (failed >= 0 && st == NQ_OK) { /* another rank could not plan */
        nq_plan_free(plan);
        st = NQ_ERR_NOMEM;
        r->failed_rank = failed;
        snprintf(r->why, sizeof r->why, "could not make the plan of N=%d "
                 "(out of memory?)", req->n);
    }
    if (st != NQ_OK)
        return st;
    r->workers = rn->workers;
    if ((st = open_journal(plan, req, o, rn, &j, r)) != NQ_OK) {
        nq_journal_close(j, NULL, 0);
        nq_plan_free(plan);
        return st;
    }
    uint64_t before = r->recorded;
    double t0 = nq_clock_seconds();
    st = run_share(plan, req, o, rn, j, &fresh, r);
    r->seconds = r->seconds_all = nq_clock_seconds() - t0;
    if (rn->root) {
        st = conclude(plan, o, j, st, &fresh, r);
        r->ran = r->recorded - before;
    }
    nq_plan_free(plan);
    return st;
}

/* Read the program's request and options, count, write its report (each
 * by the size rule), and give the report's words to the request's
 * buffer as well.  Once the report may be written it always is, refusals
 * too: a report left as it was would say a stale count, or "rank 0
 * failed" from NQ_RUN_REPORT_INIT's zero. */
nq_status nq_count_with(const nq_request *given, const nq_resume_options *go,
                        const nq_runner *rn, nq_run_report *report)
{
    nq_request req;
    nq_resume_options o;
    nq_run_report r = {.size = sizeof r, .failed_rank = -1};
    nq_status st = nq_sized_check(report, NQ_REPORT_LEAST);
    if (st != NQ_OK) {
        nq_request_clear_why(given);
        return st;
    }
    nq_status read = nq_request_read(given, &req);
    st = read;
    if (st == NQ_OK &&
        (st = nq_sized_read(go, NQ_RESUME_LEAST, &o, sizeof o)) == NQ_OK)
        st = count_full(&req, &o, rn, &r);
    nq_sized_write(report, &r, sizeof r);
    if (st != NQ_OK && read == NQ_OK && r.why[0])
        nq_request_say(&req, "%s", r.why);
    return st;
}

/* ---- on this process's threads ---- */

static nq_status run_threads(void *ctx, const nq_plan *p,
                             const nq_run_options *o, nq_journal *j,
                             nq_tally *sum, nq_run_report *r)
{
    (void)ctx, (void)j, (void)r; /* o->on_unit records into j */
    return nq_plan_run(p, o, sum);
}

nq_status nq_count_resumable(const nq_request *req, const nq_resume_options *o,
                             nq_run_report *report)
{
    nq_runner rn = {.root = 1, .run = run_threads,
                    .workers = nq_request_threads(req)};
    return nq_count_with(req, o, &rn, report);
}

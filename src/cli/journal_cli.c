/*
 * journal_cli.c - counts that survive crashes: `count --checkpoint`, split
 * runs (`--part K/M`) and `nqueens merge`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    __atomic_store_n(&stop_requested, 1, __ATOMIC_RELAXED);
}

/* SIGINT and SIGTERM ask the run to stop at the next unit boundary; a
 * second one (the handler resets itself) ends the process at once, which
 * the journal survives as it survives a crash. */
static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_parse_part(const char *text, uint32_t *part, uint32_t *parts)
{
    uint64_t k, m;
    const char *slash = text ? strchr(text, '/') : NULL;
    char first[32];
    if (!slash || (size_t)(slash - text) >= sizeof first)
        return cli_error(CLI_USAGE, "--part takes K/M with 1 <= K <= M, not "
                         "'%s'", text ? text : "");
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    if (cli_parse_uint(first, 1, 1000000, &k) || cli_parse_uint(slash + 1, 1,
        1000000, &m) || k > m)
        return cli_error(CLI_USAGE, "--part takes K/M with 1 <= K <= M "
                         "<= 1000000, not '%s'", text);
    *part = (uint32_t)k, *parts = (uint32_t)m;
    return CLI_OK;
}

static nq_status record_unit(void *ctx, uint64_t unit, const nq_tally *t)
{
    return nq_journal_record(ctx, unit, t);
}

/* The row of a finished count, or the line saying a part is done. */
static void report_done(const cli_checkpoint *c, const nq_plan *plan,
                        const nq_journal_state *js, double seconds, int threads)
{
    nq_counts counts;
    nq_status st;
    if (c->parts > 1 && c->json) {
        printf("{\"n\":%d,\"engine\":\"%s\",\"part\":\"%u/%u\",\"units\":"
               "%llu,\"journal\":\"%s\",\"seconds\":%.6f}\n", c->n, c->engine,
               c->part, c->parts, (unsigned long long)js->units_done, c->path,
               seconds);
        return;
    }
    if (c->parts > 1) {
        printf("part %u/%u of N=%d (engine %s) done: %llu of its units "
               "recorded in %s; combine the parts with 'nqueens merge'\n",
               c->part, c->parts, c->n, c->engine,
               (unsigned long long)js->units_done, c->path);
        return;
    }
    if ((st = nq_plan_finish(plan, &js->sum, &counts)) != NQ_OK) {
        cli_error(CLI_FAIL, "count %d: %s", c->n, nq_strerror(st));
        return;
    }
    cli_print_counts(c->n, &counts, c->engine, threads, seconds, c->json, 1);
}

int cli_count_checkpointed(const cli_checkpoint *c)
{
    nq_request req = {.n = c->n, .engine = c->engine, .threads = c->threads};
    nq_plan *plan;
    nq_journal *j;
    char why[4096] = "";
    nq_status st = nq_plan_create(&req, &plan);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "count %d: %s", c->n, nq_strerror(st));
    if ((st = nq_journal_open(c->path, plan, c->part, c->parts, &j, why,
                              sizeof why)) != NQ_OK) {
        nq_plan_free(plan);
        return cli_error(CLI_FAIL, "%s", why[0] ? why : nq_strerror(st));
    }
    if (nq_journal_state_get(j)->dropped_tail)
        fprintf(stderr, "nqueens: warning: %s: dropped a half-written last "
                "line (a crash); its unit will be counted again\n", c->path);
    nq_run_options o = {
        .threads = c->threads, .part = c->part, .parts = c->parts,
        .done = nq_journal_done(j), .max_units = c->max_units,
        .stop = &stop_requested, .on_unit = record_unit, .ctx = j,
        .progress = c->progress, .progress_ctx = c->progress_ctx,
    };
    nq_run_options share = {.part = c->part, .parts = c->parts};
    uint64_t units = nq_plan_selected(plan, &share);
    nq_tally fresh = {0};
    catch_stop_signals();
    double t0 = nq_clock_seconds();
    nq_status run = nq_plan_run(plan, &o, &fresh);
    nq_journal_state js = *nq_journal_state_get(j);
    nq_status closed = nq_journal_close(j);
    double seconds = nq_clock_seconds() - t0;
    int rc = CLI_OK;
    if (closed != NQ_OK)
        rc = cli_error(CLI_FAIL, "cannot write the journal %s: %s", c->path,
                       nq_strerror(closed));
    else if (run == NQ_ERR_STOPPED)
        rc = cli_error(CLI_FAIL, "stopped with %llu of %llu units of N=%d "
                       "recorded in %s; run the same command again to resume",
                       (unsigned long long)js.units_done,
                       (unsigned long long)units, c->n, c->path);
    else if (run != NQ_OK)
        rc = cli_error(CLI_FAIL, "count %d: %s", c->n, nq_strerror(run));
    else
        report_done(c, plan, &js, seconds, nq_request_threads(&req));
    nq_plan_free(plan);
    return rc;
}

/*
 * report.c - what the programs print of a count: the seed series' table
 * row or a JSON line, and the outcome of a long (journaled) count, the
 * same for `nqueens count --checkpoint` and `nqueens-mpi`.
 */
#include <signal.h>
#include <stdio.h>

#include "../cli.h"
#include "table.h"

/* The columns are chosen once, from the largest N the table will hold,
 * before its header: every row of a range then lines up under it. */
cli_count_table cli_count_table_for(int max_n, int json)
{
    return (cli_count_table){.json = json, .width = cli_table_width(max_n)};
}

/* Only the engines with NQ_CAP_KERNEL run a fast kernel: naming the
 * process default for any other would report a kernel that never ran. */
const char *cli_kernel_ran(const char *engine, const char *kernel)
{
    if (!(nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_KERNEL))
        return NULL;
    return kernel ? kernel : nq_kernel_current();
}

/* The JSON line: strings through the one escaping writer; a kernel only
 * where one ran, and threads null where no run recorded them, so that no
 * member claims what did not happen. */
static void print_json_counts(int n, const nq_counts *c, const char *engine,
                              const char *kernel, int threads, double seconds)
{
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS], nodes[NQ_U128_DIGITS];
    printf("{\"n\":%d,\"total\":%s,\"unique\":%s,\"nodes\":%s,\"engine\":",
           n, nq_format_u128(c->total, total),
           nq_format_u128(c->unique, unique), nq_format_u128(c->nodes, nodes));
    cli_json_string(stdout, engine);
    if (kernel) {
        fputs(",\"kernel\":", stdout);
        cli_json_string(stdout, kernel);
    }
    if (threads > 0)
        printf(",\"threads\":%d", threads);
    else
        fputs(",\"threads\":null", stdout);
    printf(",\"seconds\":%.6f}\n", seconds);
}

int cli_print_counts(cli_count_table *t, int n, const nq_counts *c,
                     const char *engine, const char *kernel, int threads,
                     double seconds)
{
    char line[CLI_TABLE_LINE];
    if (t->json) {
        print_json_counts(n, c, engine, kernel, threads, seconds);
    } else {
        if (t->rows == 0) {
            cli_table_header(line, sizeof line, t->width);
            fputs(line, stdout);
        }
        cli_table_row(line, sizeof line, t->width, n, c->total, c->unique,
                      seconds);
        fputs(line, stdout);
    }
    t->rows++;
    return fflush(stdout) != 0 || ferror(stdout) ? -1 : 0;
}

/* A journal that ended mid-line lost that line at least, and perhaps far
 * more (a program that cut the file leaves no trace of what it cut): say
 * what was kept, not that nothing was lost. */
static void warn_dropped_tail(const cli_long_count *c, const nq_run_report *r)
{
    if (r->dropped_tail & 1)
        fprintf(stderr, _("%s: warning: %s ended in a half-written line (a "
                "crash, or the file was cut): kept the %llu units recorded "
                "before it; every unit without a record is counted again "
                "(%llu this run)\n"), cli_program, c->opt.journal,
                (unsigned long long)(r->recorded - r->ran),
                (unsigned long long)r->ran);
    else if (r->dropped_tail) /* a run line: no unit lost, a time */
        fprintf(stderr, _("%s: warning: %s ended in a half-written run line "
                "(a crash as a run ended): every unit recorded before it is "
                "kept; that run's time is not in the time column\n"),
                cli_program, c->opt.journal);
}

/* A part of a split run is done: say where its records are.  The path
 * is the user's and may hold any character: it is escaped. */
static int report_part(const cli_long_count *c, const nq_run_report *r)
{
    if (c->json) {
        printf("{\"n\":%d,\"engine\":", c->req.n);
        cli_json_string(stdout, c->req.engine);
        printf(",\"part\":\"%u/%u\",\"units\":%llu,\"journal\":",
               c->opt.part, c->opt.parts, (unsigned long long)r->recorded);
        cli_json_string(stdout, c->opt.journal);
        printf(",\"seconds\":%.6f}\n", r->seconds);
    } else
        printf(_("part %u/%u of N=%d (engine %s) done: %llu of its units "
                 "recorded in %s; combine the parts with 'nqueens merge'\n"),
               c->opt.part, c->opt.parts, c->req.n, c->req.engine,
               (unsigned long long)r->recorded, c->opt.journal);
    return CLI_OK;
}

/* A stop: by a signal, the shell's status for it (130 for SIGINT, 143 for
 * SIGTERM), as if the signal had ended the program; by the unit budget, 1. */
static int report_stop(const cli_long_count *c, const nq_run_report *r)
{
    int sig = cli_stopped_by(), code = sig ? 128 + sig : CLI_FAIL;
    const char *by = sig == SIGINT ? _(" by SIGINT") : sig == SIGTERM
                     ? _(" by SIGTERM") : "";
    if (r->why[0]) /* before any unit ran: planning, reading the journal */
        return cli_error(code, "%s%s", r->why, by);
    /* TRANSLATORS: the first %s is " by SIGINT", " by SIGTERM" or "" */
    return cli_error(code, "stopped%s with %llu of %llu units of N=%d "
                     "recorded in %s; run the same command again to resume",
                     by, (unsigned long long)r->recorded,
                     (unsigned long long)r->share, c->req.n,
                     c->opt.journal ? c->opt.journal : _("no journal"));
}

static int report_failure(const cli_long_count *c, nq_status st,
                          const nq_run_report *r)
{
    if (st == NQ_ERR_STOPPED)
        return report_stop(c, r);
    if (r->failed_rank >= 0)
        return cli_error(CLI_FAIL, "rank %d failed: %s", r->failed_rank,
                         r->why[0] ? r->why : nq_strerror(st));
    char why[CLI_ERROR_TEXT];
    /* why: the GPU's words; a plan refused (its devices are not there)
     * has no journal yet, no units to speak of */
    if (st == NQ_ERR_DEVICE && c->opt.journal && r->units)
        return cli_error(CLI_FAIL, "count %d: %s; %llu of %llu units are "
                         "recorded in %s: run again to resume, on a GPU or "
                         "with --engine fast", c->req.n,
                         cli_strerror(st, r->why, why, sizeof why),
                         (unsigned long long)r->recorded,
                         (unsigned long long)r->share, c->opt.journal);
    if (r->why[0] && st != NQ_ERR_DEVICE)
        return cli_error(st == NQ_ERR_VERSION ? CLI_USAGE : CLI_FAIL, "%s",
                         r->why);
    return cli_error(CLI_FAIL, "count %d: %s", c->req.n,
                     cli_strerror(st, r->why, why, sizeof why));
}

int cli_report_long_count(const cli_long_count *c, nq_status st,
                          const nq_run_report *r)
{
    warn_dropped_tail(c, r);
    if (st != NQ_OK)
        return report_failure(c, st, r);
    if (c->opt.parts > 1)
        return report_part(c, r);
    cli_count_table t = cli_count_table_for(c->req.n, c->json);
    cli_print_counts(&t, c->req.n, &r->counts, c->req.engine,
                     cli_kernel_ran(c->req.engine, c->req.kernel), r->workers,
                     r->seconds_all);
    return CLI_OK;
}

/*
 * compare.c - `nqueens compare`: every engine on one board, side by side.
 *
 * The seed series' lesson is that each idea makes the search faster, and
 * by how much; this command measures it.  Brute force at N=16 would take
 * years, so an engine is never simply started at N: it is run at growing
 * sizes, and its time at N is extrapolated from the growth between the
 * last two sizes.  It is run at N only if that estimate fits the budget;
 * otherwise the table shows the estimate, marked as such.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../cli.h"

static const char compare_help[] = N_(
    "usage: nqueens compare N [options]\n"
    "\n"
    "Run every engine on the N x N board and compare: search nodes, seconds,\n"
    "nodes per second, and speed-up over brute force.  Each engine is first\n"
    "run at smaller sizes; one whose time at N, extrapolated from those,\n"
    "would pass the budget is not run at N, and its row shows the estimate\n"
    "(marked ~).  The engines that ran must agree on the counts.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens compare 10\n"
    "  nqueens compare 12 --budget 5\n"
    "  nqueens compare 11 --json\n");

typedef struct {
    const char *engine;
    int ran;             /* measured at N; else estimated */
    int n_last;          /* the largest size measured */
    double seconds, nodes;
    nq_counts counts;    /* at N, when ran */
} compare_row;

typedef struct {
    int n, threads, json;
    double budget;
} compare_job;

/* Count once, or for a short count the best of five: one short run is
 * mostly noise. */
static nq_status measure(const compare_job *job, const char *engine, int n,
                         nq_counts *c, double *seconds)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .threads = job->threads};
    *seconds = 0;
    for (int i = 0; i < 5 && (i == 0 || *seconds < 0.05); i++) {
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, c);
        double t = nq_clock_seconds() - t0;
        if (st != NQ_OK)
            return st;
        *seconds = i == 0 || t < *seconds ? t : *seconds;
    }
    return NQ_OK;
}

/* Run one engine at growing sizes up to N, each only if the growth so far
 * says it fits the budget; estimate N from the last size if it stops short. */
static nq_status compare_engine(const compare_job *job, compare_row *row)
{
    cli_growth gr = {{0, 0}, 0, 1};
    double t = 0;
    for (int n = job->n < 4 ? job->n : 4; n <= job->n; n++) {
        if (gr.g > 0 && cli_grown(&gr, t, 1) > job->budget)
            break;
        nq_status st = measure(job, row->engine, n, &row->counts, &t);
        if (st != NQ_OK)
            return st;
        cli_growth_add(&gr, (double)row->counts.nodes);
        row->n_last = n;
    }
    row->ran = row->n_last == job->n;
    row->seconds = cli_grown(&gr, t, job->n - row->n_last);
    row->nodes = cli_grown(&gr, gr.nodes[1], job->n - row->n_last);
    return NQ_OK;
}

/* Engines that ran must agree (each is also tested against OEIS). */
static int check_agreement(const compare_row *rows, int count, int n,
                           int json)
{
    const compare_row *ref = NULL;
    char a[NQ_U128_DIGITS], b[NQ_U128_DIGITS];
    for (int i = 0; i < count; i++) {
        if (!rows[i].ran)
            continue;
        if (!ref) {
            ref = &rows[i];
            continue;
        }
        if (rows[i].counts.total != ref->counts.total ||
            rows[i].counts.unique != ref->counts.unique)
            return cli_error(CLI_FAIL, "compare %d: engines disagree: %s "
                             "counts %s, %s counts %s", n, ref->engine,
                             nq_format_u128(ref->counts.total, a),
                             rows[i].engine,
                             nq_format_u128(rows[i].counts.total, b));
    }
    if (ref && !json)
        printf(_("every engine that ran agrees: %s solutions, %s unique\n"),
               nq_format_u128(ref->counts.total, a),
               nq_format_u128(ref->counts.unique, b));
    return CLI_OK;
}

/* A number for the table: "~" before an estimate. */
static const char *num(char *buf, size_t size, double v, int estimated)
{
    snprintf(buf, size, "%s%.4g", estimated ? "~" : "", v);
    return buf;
}

static void print_row(const compare_row *r, const compare_row *brute)
{
    char nodes[NQ_U128_DIGITS + 2], secs[32], rate[32], speed[32] = "-";
    if (r->ran)
        nq_format_u128(r->counts.nodes, nodes);
    else
        num(nodes, sizeof nodes, r->nodes, 1);
    if (brute && r->seconds > 0)
        num(speed, sizeof speed, brute->seconds / r->seconds,
            !(brute->ran && r->ran));
    printf("%-10s %16s %12s %12s %12s", r->engine, nodes,
           num(secs, sizeof secs, r->seconds, !r->ran),
           num(rate, sizeof rate, r->seconds > 0 ? r->nodes / r->seconds : 0,
               !r->ran), speed);
    if (!r->ran)
        printf(_("   estimated from N=%d, not run"), r->n_last);
    putchar('\n');
}

/* One engine's row as a JSON object on its line. */
static void print_json_row(int n, const compare_row *r,
                           const compare_row *brute)
{
    char num[NQ_U128_DIGITS];
    printf("{\"n\":%d,\"engine\":", n);
    cli_json_string(stdout, r->engine);
    printf(",\"ran\":%s,\"estimated_from_n\":", r->ran ? "true" : "false");
    if (r->ran)
        printf("null,\"nodes\":%s", nq_format_u128(r->counts.nodes, num));
    else
        printf("%d,\"nodes\":", r->n_last), cli_json_number(stdout, r->nodes);
    fputs(",\"seconds\":", stdout);
    cli_json_number(stdout, r->seconds);
    fputs(",\"nodes_per_second\":", stdout);
    cli_json_number(stdout, r->seconds > 0 ? r->nodes / r->seconds : NAN);
    fputs(",\"vs_brute\":", stdout);
    cli_json_number(stdout, brute && r->seconds > 0
                                ? brute->seconds / r->seconds : NAN);
    if (r->ran)
        printf(",\"total\":%s", nq_format_u128(r->counts.total, num)),
        printf(",\"unique\":%s}\n", nq_format_u128(r->counts.unique, num));
    else
        fputs(",\"total\":null,\"unique\":null}\n", stdout);
}

static void print_table(const compare_job *job, const compare_row *rows,
                        int count, const compare_row *brute)
{
    if (job->json) {
        for (int i = 0; i < count; i++)
            print_json_row(job->n, &rows[i], brute);
        return;
    }
    printf(ngettext("N=%d, budget %g s per engine, %d thread (~: estimated)\n",
                    "N=%d, budget %g s per engine, %d threads (~: "
                    "estimated)\n", (unsigned long)job->threads),
           job->n, job->budget, job->threads);
    /* TRANSLATORS: compare's headings, 10 columns for the first (left),
     * 16 for the second and 12 for each other (right-aligned) */
    const char *head[] = {_("engine"), _("nodes"), _("seconds"),
                          _("nodes/s"), _("vs brute")};
    printf("%-*s %*s %*s %*s %*s\n", cli_field(head[0], 10), head[0],
           cli_field(head[1], 16), head[1], cli_field(head[2], 12), head[2],
           cli_field(head[3], 12), head[3], cli_field(head[4], 12), head[4]);
    for (int i = 0; i < count; i++)
        print_row(&rows[i], brute);
}

static int run_compare(const compare_job *job)
{
    compare_row rows[32];
    int count = 0;
    for (int i = 0; i < nq_engine_count() && count < 32; i++) {
        const nq_engine *e = nq_engine_at(i);
        if (job->n > nq_engine_max_n(e))
            continue;
        rows[count] = (compare_row){.engine = nq_engine_name(e)};
        nq_status st = compare_engine(job, &rows[count]);
        if (st == NQ_ERR_DEVICE)
            continue; /* an engine for hardware this machine lacks */
        if (st != NQ_OK)
            return cli_error(CLI_FAIL, "compare %d: engine %s: %s", job->n,
                             rows[count].engine, nq_strerror(st));
        count++;
    }
    const compare_row *brute = NULL;
    for (int i = 0; i < count; i++)
        if (strcmp(rows[i].engine, "brute") == 0)
            brute = &rows[i];
    print_table(job, rows, count, brute);
    return check_agreement(rows, count, job->n, job->json);
}

/* A stop ends compare at once, with its line and status (signals.c):
 * it keeps nothing a stop flag could save, and most engines it times
 * never look at one.  Returns job. */
static const compare_job *watch_stop(const compare_job *job)
{
    char what[32];
    snprintf(what, sizeof what, "compare %d", job->n);
    cli_catch_stop_signals(what);
    return job;
}

int cmd_compare(int argc, char **argv)
{
    const char *budget = NULL, *threads = NULL;
    int n, hi, rc, json = 0;
    uint64_t b = 10;
    int th = 1; /* one thread unless asked: the engines compared alike */
    const cli_spec specs[] = {
        {.name = "--budget", .value = &budget, .arg = "S",
         .help = N_("seconds an engine may take at N (default 10)")},
        {.name = "--threads", .value = &threads, .arg = "T",
         .help = N_("threads for the engines that split the board into units "
                    "(default 1, so that the engines compare as algorithms)")},
        {.name = "--json", .flag = &json,
         .help = N_("one JSON object per engine: n, engine, ran (false: "
                    "estimated from estimated_from_n), nodes, seconds, "
                    "nodes_per_second, vs_brute, and total and unique (null "
                    "when not run)")},
        {0},
    };
    rc = cli_parse_board("compare", compare_help, specs, argc, argv, 0, &n,
                         &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if (budget && cli_parse_uint(budget, 1, 1000000, &b) != 0)
        return cli_error(CLI_USAGE, "--budget takes whole seconds from 1 to "
                         "1000000, not '%s'", budget);
    if (threads && cli_parse_threads(threads, &th) != CLI_OK)
        return CLI_USAGE;
    compare_job job = {n, th, json, (double)b};
    rc = run_compare(watch_stop(&job));
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "compare: cannot write the output");
    return rc;
}

/*
 * complete.c - `nqueens complete`: the N-Queens completion problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../output/duration.h"
#include "../output/format.h"

static const char complete_help[] = N_(
    "usage: nqueens complete N --given R:C,R:C,... [options]\n"
    "\n"
    "The completion problem: the solutions of the N x N board that keep the\n"
    "given queens (row R, column C, both from 0).  By default, count them\n"
    "(with the fast engine's frontier search, on all cores).\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens complete 8 --given 0:0\n"
    "  nqueens complete 10 --given 0:1,1:3 --all\n");

/* One "R:C" of the list; the text after it in *end. */
static int parse_pair(const char *s, int n, int *r, int *c, const char **end)
{
    char *e;
    long rv, cv;
    if (*s < '0' || *s > '9')
        return -1;
    rv = strtol(s, &e, 10);
    if (*e != ':' || e[1] < '0' || e[1] > '9')
        return -1;
    cv = strtol(e + 1, &e, 10);
    if (*e != ',' && *e != '\0')
        return -1;
    *end = e;
    if (rv >= n || cv >= n)
        return cli_error(CLI_USAGE, "complete: the queen %ld:%ld is off the "
                         "%d x %d board (rows and columns count from 0)",
                         rv, cv, n, n);
    *r = (int)rv, *c = (int)cv;
    return 0;
}

/* Which line two given queens share, or NULL if they do not attack. */
static const char *shared_line(int r1, int c1, int r2, int c2)
{
    unsigned how = nq_attack_lines(r1, c1, r2, c2);
    /* TRANSLATORS: the line two given queens share, in "(same %s)". */
    return how & NQ_BY_COLUMN ? _("column") : how ? _("diagonal") : NULL;
}

static int add_given(int *given, int n, int r, int c)
{
    if (given[r] >= 0)
        return cli_error(CLI_USAGE, "complete: two queens given in row %d "
                         "(%d:%d and %d:%d)", r, r, given[r], r, c);
    for (int q = 0; q < n; q++) {
        const char *line = given[q] >= 0 ? shared_line(q, given[q], r, c)
                                         : NULL;
        if (line)
            return cli_error(CLI_USAGE, "complete: the given queens %d:%d "
                             "and %d:%d attack each other (same %s)", q,
                             given[q], r, c, line);
    }
    given[r] = c;
    return CLI_OK;
}

/* "R:C,R:C,..." into given[] (-1 for free rows); errors exit 2. */
static int parse_given(const char *text, int n, int *given)
{
    for (int r = 0; r < n; r++)
        given[r] = -1;
    const char *s = text;
    while (s && *s) {
        int r = 0, c = 0, rc = parse_pair(s, n, &r, &c, &s);
        if (rc < 0)
            return cli_error(CLI_USAGE, "complete: --given takes R:C pairs "
                             "separated by commas, like 0:1,3:5, not '%s'",
                             text);
        if (rc != 0 || (rc = add_given(given, n, r, c)) != CLI_OK)
            return rc;
        s += *s == ',';
        if (*s == '\0' && s[-1] == ',')
            return cli_error(CLI_USAGE, "complete: --given ends with a comma: "
                             "'%s'", text);
    }
    return CLI_OK;
}

/* The library's callback: each completion to the listing as it is found. */
static int print_completion(void *ctx, const int *cols, int n)
{
    (void)n;
    return cli_listing_add(ctx, cols);
}

/* The summary's "given": the column given in each row, -1 where free, as
 * the count's object has it. */
static void given_member(char *buf, size_t size, int n, const int *given)
{
    size_t len = (size_t)snprintf(buf, size, "\"given\":[");
    for (int r = 0; r < n && len < size; r++)
        len += (size_t)snprintf(buf + len, size - len, r ? ",%d" : "%d",
                                given[r]);
    if (len < size)
        snprintf(buf + len, size - len, "]");
}

/* --first and --all: the completions through the listing; --first finding
 * none is a failure (exit 1), said on stderr and in the summary. */
static int list_completions(int n, const int *given, const cli_format *f,
                            unsigned long long limit)
{
    cli_listing l;
    cli_listing_start(&l, f, "complete", n, limit);
    given_member(l.members, sizeof l.members, n, given);
    nq_status st = nq_enumerate_completions(n, given, print_completion, &l,
                                            NULL);
    if (st != NQ_OK)
        return cli_listing_fail(&l, CLI_FAIL, "complete %d: %s", n,
                               nq_strerror(st));
    if (limit == 1 && l.printed == 0)
        return cli_listing_fail(&l, CLI_FAIL, "complete %d: the given queens "
                               "have no completion", n);
    return cli_listing_end(&l);
}

static int count_completions(int n, const int *given, int threads, int json)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .threads = threads};
    nq_counts c;
    char total[NQ_U128_DIGITS], nodes[NQ_U128_DIGITS];
    double t0 = nq_clock_seconds();
    nq_status st = nq_count_completions(&req, given, &c);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "complete %d: %s", n, nq_strerror(st));
    double seconds = nq_clock_seconds() - t0;
    nq_format_u128(c.total, total), nq_format_u128(c.nodes, nodes);
    if (!json) {
        printf("%s completion%s (%s nodes, %.3f s)\n", total,
               c.total == 1 ? "" : "s", nodes, seconds);
        return CLI_OK;
    }
    printf("{\"n\":%d,\"given\":[", n);
    for (int r = 0; r < n; r++)
        printf(r ? ",%d" : "%d", given[r]);
    printf("],\"total\":%s,\"nodes\":%s,\"threads\":%d,\"seconds\":%.6f}\n",
           total, nodes, nq_request_threads(&req), seconds);
    return CLI_OK;
}

/* A count or listing that could not end within a week is refused before
 * it starts, with the estimate (Knuth's, from random paths down this very
 * search), unless --force. */
static int check_feasible(int n, const int *given, int threads)
{
    char took[64];
    double est = cli_estimate_completion_seconds(n, given, threads);
    if (est <= CLI_FEASIBLE_SECONDS)
        return CLI_OK;
    cli_format_duration(est, took, sizeof took);
    return cli_error(CLI_USAGE, "complete %d would take about %s at this "
                     "machine's rate; give more queens, count the whole "
                     "board with 'nqueens count', or --force", n, took);
}

int cmd_complete(int argc, char **argv)
{
    const char *given_text = "", *format = NULL, *limit = NULL,
               *threads = NULL;
    int first = 0, all = 0, json = 0, force = 0, n, hi, rc, given[NQ_MAX_N];
    uint64_t k = 0;
    int th = 0;
    const cli_spec specs[] = {
        {.name = "--given", .value = &given_text, .arg = "LIST",
         .help = N_("the queens given, as R:C pairs separated by commas (none: "
                    "every solution is a completion)")},
        {.name = "--first", .flag = &first,
         .help = N_("print the first completion (lexicographic order), or say "
                    "there is none (exit 1)")},
        {.name = "--all", .flag = &all, .help = N_("list every completion")},
        {.name = "--limit", .value = &limit, .arg = "K",
         .help = N_("with --all, stop after K")},
        {.name = "--format", .value = &format, .arg = "F",
         .help = N_("how --first and --all print boards (see 'nqueens solve "
                    "--help'; default array)")},
        {.name = "--threads", .value = &threads, .arg = "T",
         .help = N_("threads for counting (default: all online cores)")},
        {.name = "--json", .flag = &json,
         .help = N_("the count as one JSON object (n, given, total, nodes, "
                    "threads, seconds); the listings as --format json: JSON "
                    "Lines, "
                    "{\"type\":\"solution\",\"n\",\"number\",\"queens\"} per "
                    "completion, then "
                    "{\"type\":\"summary\",\"command\":\"complete\",\"n\","
                    "\"solutions\",\"all\",\"given\"} "
                    "(\"error\" too when --first finds none)")},
        {.name = "--force", .flag = &force,
         .help = N_("count (or list) even what this machine could not finish "
                    "in a week: without it such a request is refused up front, "
                    "with the estimate")},
        {0},
    };
    rc = cli_parse_board("complete", complete_help, specs, argc, argv, 0, &n,
                         &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = parse_given(given_text, n, given)) != CLI_OK)
        return rc;
    /* the listings' JSON; the count's below */
    if ((rc = cli_json_format("complete", json, &format, "array")) != CLI_OK)
        return rc;
    const cli_format *f = cli_format_find(format);
    if (!f)
        return cli_error(CLI_USAGE, "unknown format '%s' (formats: %s)",
                         format, cli_format_names());
    if (first && all)
        return cli_error(CLI_USAGE, "complete: --first and --all exclude "
                         "each other");
    if (limit && (!all || cli_parse_uint(limit, 1, UINT64_MAX, &k) != 0))
        return cli_error(CLI_USAGE, "--limit takes a whole number from 1, "
                         "with --all, not '%s'", limit);
    if (cli_parse_threads(threads, &th) != CLI_OK)
        return CLI_USAGE;
    /* a stop ends it at once (its estimate, count or listing), with its
     * line: it keeps nothing a stop flag could save */
    char what[32];
    snprintf(what, sizeof what, "complete %d", n);
    cli_catch_stop_signals(what);
    /* --first and --all --limit K stop early: only a whole count or a
     * whole listing is estimated */
    if (!first && !k && !force &&
        (rc = check_feasible(n, given, th)) != CLI_OK)
        return rc;
    rc = first || all ? list_completions(n, given, f, first ? 1 : k)
                      : count_completions(n, given, th, json);
    if (rc == CLI_OK && fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "complete: cannot write the output");
    return rc;
}

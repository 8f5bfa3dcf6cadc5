/*
 * find.c - `nqueens find`: one solution, for boards far past counting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../output/format.h"

static const char find_help[] = N_(
    "usage: nqueens find N [options]\n"
    "\n"
    "Print one solution of the N x N board, N from 1 to 100000000 (N = 2\n"
    "and 3 have none).  The answer is one line of columns, row 0 first,\n"
    "counting from 0.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens find 1000000 --method formula --verify\n"
    "  nqueens find 200 --method search --seed 7\n");

typedef struct {
    int n, verify;
    nq_find_method method;
    uint64_t seed;
    const cli_format *format;
} find_job;

/* The one board through the listing every command shares: in json its
 * line, then the summary, which says how it was found; N = 2 or 3 (no
 * board) or a failed check still ends in the summary, with the error. */
static int run_find(const find_job *job)
{
    cli_listing l;
    char method[32];
    cli_listing_start(&l, job->format, "find", job->n, 1);
    snprintf(l.members, sizeof l.members, "\"method\":%s,\"seed\":%llu,"
             "\"verified\":%s", cli_json_text(method, sizeof method,
             job->method == NQ_FIND_SEARCH ? "search" : "formula"),
             (unsigned long long)job->seed, job->verify ? "true" : "false");
    int *cols = malloc(sizeof *cols * (size_t)job->n);
    nq_status st = cols ? nq_find_solution(job->n, job->method, job->seed,
                                           cols) : NQ_ERR_NOMEM;
    if (st == NQ_OK && job->verify)
        st = nq_check_placement(cols, job->n);
    if (st == NQ_OK)
        cli_listing_add(&l, cols);
    free(cols);
    int rc = st == NQ_OK ? cli_listing_end(&l)
                         : cli_listing_fail(&l, CLI_FAIL, "find %d: %s",
                                           job->n, nq_strerror(st));
    if (rc == CLI_OK && fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "find: cannot write the output");
    if (rc == CLI_OK && job->verify)
        fprintf(stderr, "nqueens: verified: %d queens, no two on one row, "
                "column or diagonal\n", job->n);
    return rc;
}

static int parse_find(int argc, char **argv, find_job *job)
{
    const char *method = "formula", *seed = NULL, *format = NULL, *pos[1];
    int npos, json = 0;
    uint64_t v;
    const cli_spec specs[] = {
        {.name = "--method", .value = &method, .arg = "M",
         .help = N_("formula (default): the explicit construction by N mod 6, "
                    "O(N) and always the same answer; search: min-conflicts "
                    "local search, a random solution")},
        {.name = "--seed", .value = &seed, .arg = "S",
         .help = N_("the search's random seed (default 1): the same seed gives "
                    "the same solution")},
        {.name = "--format", .value = &format, .arg = "F",
         .help = N_("array (default), json, or for N <= 100 any solve format: "
                    "grid, dots, unicode, svg")},
        {.name = "--verify", .flag = &job->verify,
         .help = N_("check the answer again (O(N)) before printing it and say "
                    "so on stderr")},
        {.name = "--json", .flag = &json,
         .help = N_("the same as --format json: JSON Lines, the board's "
                    "{\"type\":\"solution\",\"n\",\"number\",\"queens\"}, then "
                    "{\"type\":\"summary\",\"command\":\"find\",\"n\","
                    "\"solutions\":1,\"all\":false,\"method\",\"seed\","
                    "\"verified\"}")},
        {0},
    };
    int rc = cli_parse("find", find_help, specs, argc, argv, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_json_format("find", json, &format, "array")) != CLI_OK)
        return rc;
    if (npos == 0)
        return cli_error(CLI_USAGE, "find: missing N (see 'nqueens find "
                         "--help')");
    if (cli_parse_uint(pos[0], 1, NQ_FIND_MAX_N, &v) != 0)
        return cli_error(CLI_USAGE, "N must be a whole number from 1 to %d, "
                         "not '%s'", NQ_FIND_MAX_N, pos[0]);
    job->n = (int)v;
    if (strcmp(method, "formula") && strcmp(method, "search"))
        return cli_error(CLI_USAGE, "find: unknown method '%s' (methods: "
                         "formula, search)", method);
    job->method = strcmp(method, "search") ? NQ_FIND_FORMULA : NQ_FIND_SEARCH;
    if (seed && cli_parse_uint(seed, 0, UINT64_MAX, &job->seed) != 0)
        return cli_error(CLI_USAGE, "--seed takes a whole number, not '%s'",
                         seed);
    if (!(job->format = cli_format_find(format)))
        return cli_error(CLI_USAGE, "unknown format '%s' (formats: %s)",
                         format, cli_format_names());
    if (job->n > 100 && strcmp(format, "array") && strcmp(format, "json"))
        return cli_error(CLI_USAGE, "find: format '%s' is for N up to 100; "
                         "use array or json for %d", format, job->n);
    return CLI_OK;
}

int cmd_find(int argc, char **argv)
{
    find_job job = {.seed = 1};
    int rc = parse_find(argc, argv, &job);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    return run_find(&job);
}

/*
 * solve.c - `nqueens solve`: list the solutions of one board.
 */
#include <stdio.h>
#include <string.h>

#include "../cli.h"
#include "../output/format.h"

static const char solve_help[] = N_(
    "usage: nqueens solve N [options]\n"
    "\n"
    "List the solutions of the N x N board in lexicographic order of the\n"
    "array (the queen's column in row 0, row 1, ...).\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens solve 6\n"
    "  nqueens solve 8 --unique --format unicode\n"
    "  nqueens solve 5 -f seed --one-based -l 1\n");

/* The library's callback: each solution to the listing as it is found. */
static int print_solution(void *ctx, const int *cols, int n)
{
    (void)n;
    return cli_listing_add(ctx, cols);
}

/* List the solutions: the summary's members say which engine listed them
 * and whether only one per symmetry class. */
static int run_solve(const nq_request *req, const cli_format *f,
                     unsigned long long limit)
{
    cli_listing l;
    nq_counts c;
    char engine[128];
    cli_listing_start(&l, f, "solve", req->n, limit);
    snprintf(l.members, sizeof l.members, "\"engine\":%s,\"unique\":%s",
             cli_json_text(engine, sizeof engine, req->engine),
             req->unique_only ? "true" : "false");
    nq_status st = nq_enumerate_solutions(req, print_solution, &l, &c);
    if (st != NQ_OK)
        return cli_listing_fail(&l, CLI_FAIL, "solve %d: %s", req->n,
                               nq_strerror(st));
    if (c.total == 0) /* N = 2, 3: nothing to print, and why, not silence */
        fprintf(stderr, _("nqueens solve: note: N=%d has no solution\n"),
                req->n);
    int rc = cli_listing_end(&l);
    if (rc == CLI_OK && fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "solve: cannot write the output");
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    const char *engine = nq_default_enumerate_engine(), *format = NULL;
    const char *limit = NULL;
    int unique = 0, iterative = 0, one_based = 0, json = 0, n, hi, rc;
    uint64_t k = 0;
    const cli_spec specs[] = {
        {.name = "--format", .value = &format, .arg = "F",
         .help = N_("grid (the seed's Python board), dots (the seed's C "
                    "board), seed (the seed chapters' diagram, column 0 on the "
                    "right), array (default: one line of columns each), "
                    "unicode (a shaded board), svg (a picture of up to 1000 "
                    "boards; pick them with --limit), json (JSON Lines: "
                    "{\"type\":\"solution\",\"n\",\"number\",\"queens\"} per "
                    "solution as it is found, columns from 0, then "
                    "{\"type\":\"summary\",\"command\",\"n\",\"solutions\","
                    "\"all\",\"engine\",\"unique\"} "
                    "and \"error\" if it failed)")},
        {.name = "--json", .flag = &json,
         .help = N_("the same as --format json")},
        {.name = "--one-based", .flag = &one_based,
         .help = N_("number rows and columns from 1 (array, unicode, seed), as "
                    "the seeds' C notebook and the literature do")},
        {.name = "--limit", .value = &limit, .arg = "K",
         .help = N_("stop after K solutions")},
        {.name = "--unique", .flag = &unique,
         .help = N_("only the smallest member of each symmetry class")},
        {.name = "--engine", .value = &engine, .arg = "NAME",
         .help = N_("an engine that can list solutions (default: the fastest "
                    "of them): {list}")},
        {.name = "--iterative", .flag = &iterative,
         .help = N_("use the engine's explicit-stack form")},
        {0},
    };
    rc = cli_parse_board("solve", solve_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    cli_format_base = one_based;
    if ((rc = cli_json_format("solve", json, &format, "array")) != CLI_OK)
        return rc;
    const cli_format *f = cli_format_find(format);
    if (!f)
        return cli_error(CLI_USAGE, "unknown format '%s' (formats: %s)",
                         format, cli_format_names());
    if (limit && cli_parse_uint(limit, 1, UINT64_MAX, &k) != 0)
        return cli_error(CLI_USAGE, "--limit takes a whole number from 1, "
                         "not '%s'", limit);
    if ((rc = cli_check_engine(engine, n, n, NQ_CAP_ENUMERATE)) != CLI_OK)
        return rc;
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative,
                      .unique_only = unique};
    return run_solve(&req, f, k);
}

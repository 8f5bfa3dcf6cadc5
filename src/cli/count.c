/*
 * count.c - `nqueens count`: the seed series' table, or JSON lines.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char count_help[] =
    "usage: nqueens count N|A-B [options]\n"
    "\n"
    "Count the solutions (total, and unique up to rotation and reflection)\n"
    "for each board size from A to B, one row per size, printed as soon as\n"
    "it is done.\n"
    "\n"
    "options:\n"
    "  --engine NAME   the algorithm (default: the fastest; see 'nqueens engines')\n"
    "  --iterative     use the engine's explicit-stack form, not recursion\n"
    "  --threads T     threads for engines that split the board into units\n"
    "                  (see 'nqueens engines'; default: all online cores)\n"
    "  -q, --quiet     no progress bar (it is shown on stderr only when\n"
    "                  stderr is a terminal and a count takes over a second)\n"
    "  --progress      a plain progress line on stderr every 5 seconds, for\n"
    "                  logs (stderr not a terminal)\n"
    "  --json          one JSON object per line: n, total, unique, nodes,\n"
    "                  engine, kernel, threads, seconds\n"
    "  --kernel K      the fast engine's inner kernel: scalar, avx2 or avx512\n"
    "                  (default: the widest this CPU runs; also NQ_KERNEL=K;\n"
    "                  'nqueens --version' lists them)\n"
    "\n"
    "long runs (engines that split the board into units, one N):\n"
    "  --checkpoint FILE  record each finished unit in FILE (created if\n"
    "                  absent); run the same command again to resume after a\n"
    "                  crash, a kill or Ctrl-C (which stops at the next unit)\n"
    "  --part K/M      run only the K-th of M disjoint shares of the units;\n"
    "                  combine the parts' journals with 'nqueens merge'\n"
    "  --max-units K   stop after K more units (resume later)\n"
    "\n"
    "examples:\n"
    "  nqueens count 4-16\n"
    "  nqueens count 18 -t 2 --json\n"
    "  nqueens count 20 --checkpoint n20.journal\n";

/* The checkpoint options need one N and an engine with units. */
static int check_checkpoint(const cli_long_count *c, int lo, int hi,
                            const char *part)
{
    char units[256];
    if (!c->opt.journal)
        return part ? cli_error(CLI_USAGE, "--part needs --checkpoint FILE "
                                "(each part keeps its own journal)") : CLI_OK;
    if (lo != hi)
        return cli_error(CLI_USAGE, "--checkpoint takes one N, not a range");
    if (!(nq_engine_caps(nq_engine_find(c->req.engine)) & NQ_CAP_UNITS))
        return cli_error(CLI_USAGE, "engine '%s' cannot checkpoint: it does "
                         "not split the board into units (engines that do: "
                         "%s)", c->req.engine,
                         cli_engines_with(NQ_CAP_UNITS, units, sizeof units));
    if (!c->opt.journal[0])
        return cli_error(CLI_USAGE, "--checkpoint needs a file name");
    return CLI_OK;
}

/* count --checkpoint: the signal handlers first, so that a Ctrl-C while
 * a big plan is made or a journal read is not lost. */
static int count_long(cli_long_count *c)
{
    nq_run_report r;
    c->req.stop = cli_catch_stop_signals();
    nq_status st = nq_count_resumable(&c->req, &c->opt, &r);
    return cli_report_long_count(c, st, &r);
}

int cmd_count(int argc, char **argv)
{
    const char *engine = nq_default_count_engine(), *threads = NULL;
    const char *checkpoint = NULL, *part = NULL, *max_units = NULL;
    const char *kernel = NULL;
    int json = 0, iterative = 0, quiet = 0, plain_progress = 0, lo, hi, rc;
    uint64_t nthreads = 0, max = 0;
    const cli_spec specs[] = {
        {"--engine", &engine, NULL},
        {"--threads", &threads, NULL},
        {"--quiet", NULL, &quiet},
        {"--json", NULL, &json},
        {"--iterative", NULL, &iterative},
        {"--checkpoint", &checkpoint, NULL},
        {"--part", &part, NULL},
        {"--max-units", &max_units, NULL},
        {"--kernel", &kernel, NULL},
        {"--progress", NULL, &plain_progress},
        {NULL, NULL, NULL},
    };
    rc = cli_parse_board("count", count_help, specs, argc, argv, 1, &lo, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = cli_check_engine(engine, lo, hi, 0)) != CLI_OK ||
        (kernel && (rc = cli_select_kernel(kernel, "--kernel")) != CLI_OK))
        return rc;
    if (iterative && (nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS))
        return cli_error(CLI_USAGE, "--iterative: engine '%s' has one form "
                         "(the classic engines have a recursive and an "
                         "iterative one)", engine);
    if (threads && cli_parse_uint(threads, 1, CLI_MAX_THREADS, &nthreads) != 0)
        return cli_error(CLI_USAGE, "--threads takes a whole number from 1 "
                         "to %d, not '%s'", CLI_MAX_THREADS, threads);
    if (max_units && cli_parse_uint(max_units, 1, UINT64_MAX, &max) != 0)
        return cli_error(CLI_USAGE, "--max-units takes a whole number from 1, "
                         "not '%s'", max_units);
    cli_progress bar = {.n = lo};
    cli_long_count cp = {
        .req = {.n = lo, .engine = engine, .threads = (int)nthreads},
        .opt = {.journal = checkpoint, .max_units = max}, .json = json};
    if ((rc = check_checkpoint(&cp, lo, hi, part)) != CLI_OK ||
        (part && (rc = cli_parse_part(part, &cp.opt.part, &cp.opt.parts)) !=
                     CLI_OK))
        return rc;
    if (max_units && !checkpoint)
        return cli_error(CLI_USAGE, "--max-units needs --checkpoint FILE "
                         "(the units done must be recorded to go on later)");
    bar.plain = plain_progress;
    if ((!quiet && isatty(2)) || plain_progress)
        cp.req.progress = cli_draw_progress, cp.req.progress_ctx = &bar;
    if (checkpoint)
        return count_long(&cp);
    int units = nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS;
    for (int n = lo; n <= hi; n++) {
        nq_request req = cp.req;
        req.n = n, req.iterative = iterative;
        bar.n = n;
        nq_counts c;
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, &c);
        double seconds = nq_clock_seconds() - t0;
        if (st != NQ_OK)
            return cli_error(CLI_FAIL, "count %d: %s", n, nq_strerror(st));
        if (cli_print_counts(n, &c, engine, units ? nq_request_threads(&req)
                             : 1, seconds, json, !json && n == lo) != 0)
            return CLI_OK; /* the caller reports the failed write */
    }
    return CLI_OK;
}

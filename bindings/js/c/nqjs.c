/*
 * nqjs.c - what the npm package's worker calls besides the command line's
 * main (bindings/js/worker.mjs; built into the package's modules by
 * mk/npm.mk, never into the lesson page, whose bytes stay as they are).
 *
 * The package lists solutions, traces and engines by running the command
 * line itself (`solve --json`, `trace --json`, `engines --json`), so that
 * what it hands over is what the command line prints.  A count is the one
 * job done here: the command line refuses only what would take a week,
 * and a library call that blocks a program for days is no answer, so a
 * count is checked first against a bound the caller chooses, estimated as
 * the lesson page estimates (programs/web/web.c, count_feasible), and its
 * totals are handed over as decimal text, exact past 2^53.
 */
#include <stdio.h>
#include <string.h>

#include <emscripten.h>

#include "../../../programs/cli.h"
#include "../../../programs/output/duration.h"

/* CLI_OK if the count would take at most `bound` seconds; else the
 * estimate as a JSON line on stdout ({"estimate": seconds, "low",
 * "high", "took": the command line's words}), for the package's error to
 * carry, the refusal on stderr, and CLI_USAGE. */
static int feasible(const char *engine, int n, double bound)
{
    char took[96], quoted[128];
    double low, high, est = cli_estimate_one_thread(engine, n, bound, &low,
                                                 &high);
    if (est <= bound)
        return CLI_OK;
    cli_format_estimate(est, low, high, took, sizeof took);
    printf("{\"estimate\":%.6g,\"low\":%.6g,\"high\":%.6g,\"took\":%s}\n",
           est, low, high, cli_json_text(quoted, sizeof quoted, took));
    fflush(stdout);
    return cli_error(CLI_USAGE, "count %d with engine %s would take %s%s on "
                     "1 thread here; a smaller N, a faster engine, a larger "
                     "maxSeconds, or force: true", n, engine,
                     low >= 0 ? "about " : "over ", took);
}

/* Count N (its text, read by the command line's own parser, so that a
 * bad one is refused in its words) with engine (NULL: the default) on
 * one thread, unless `force` only if estimated at most max_seconds: one
 * JSON line on stdout {"total","unique" (decimal text),"seconds",
 * "engine"}.  The command line's exit code, its error on stderr. */
EMSCRIPTEN_KEEPALIVE
int nqjs_count(const char *n_text, const char *engine, int force,
               double max_seconds)
{
    int n, hi;
    if (!engine)
        engine = nq_default_count_engine();
    int rc = cli_parse_sizes(n_text, &n, &hi);
    if (rc == CLI_OK && n != hi)
        rc = cli_error(CLI_USAGE, "count takes one N, not '%s'", n_text);
    if (rc == CLI_OK)
        rc = cli_check_engine(engine, n, n, 0);
    if (rc == CLI_OK && !force)
        rc = feasible(engine, n, max_seconds);
    if (rc != CLI_OK)
        return rc;
    char words[CLI_ERROR_TEXT], why[CLI_ERROR_TEXT];
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS], name[96];
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .threads = 1, .why = words, .why_size = sizeof words};
    nq_counts c;
    double t0 = nq_clock_seconds();
    nq_status st = nq_count_solutions(&req, &c);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "count %d: %s", n,
                         cli_strerror(st, words, why, sizeof why));
    printf("{\"total\":\"%s\",\"unique\":\"%s\",\"seconds\":%.6f,"
           "\"engine\":%s}\n", nq_format_u128(c.total, total),
           nq_format_u128(c.unique, unique), nq_clock_seconds() - t0,
           cli_json_text(name, sizeof name, engine));
    return fflush(stdout) ? CLI_FAIL : CLI_OK;
}

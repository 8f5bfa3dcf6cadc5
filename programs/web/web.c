/*
 * web.c - what the lesson page's script calls (make wasm: the library and
 * the command line compiled to WebAssembly, build/nqueens.html).
 *
 * The page runs each job in a Web Worker, so that it never freezes and a
 * job is stopped by ending its worker.  A job is one of these calls; what
 * it has to say goes to the script as it goes (nqw_emit: a walk's steps a
 * chunk at a time, a count's progress) or as lines on stdout and stderr,
 * which the script reads as the command line's output.  Everything shown
 * is the library's and the command line's own work: the walk's steps
 * come from the engine's event callback through trace's printer (the
 * same data `nqueens trace --format html` puts in its page), the table
 * from count's printer, the symmetries from the library's.
 */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../output/duration.h"
#include "../trace/trace.h"

/* To the page's script: kind ("steps", "walk", "progress", ...) and its
 * text; nonzero if the script asks the job to stop. */
EM_JS(int, nqw_emit, (const char *kind, const char *text, size_t len), {
    return Module.nqEmit(UTF8ToString(kind), UTF8ToString(text, len)) ? 1 : 0;
});

static int emit_walk(void *ctx, const char *json, size_t len, int last)
{
    (void)ctx;
    return nqw_emit(last ? "walk" : "steps", json, len);
}

/* The walk of engine on the n x n board, as trace --format html would
 * hold it: "steps" chunks of `chunk` steps, then the "walk" object; at
 * most `cap` steps (a double: JavaScript has no 64-bit integers to pass).
 * The command line's exit code (its error on stderr). */
EMSCRIPTEN_KEEPALIVE
int nqw_walk(const char *engine, int n, int iterative, int one_based,
             double cap, int chunk)
{
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative};
    if (n < 1 || n > NQ_MAX_N)
        return cli_error(CLI_USAGE, "N must be from 1 to %d, not %d",
                         NQ_MAX_N, n);
    return trace_live(&req, one_based, cap >= 1 ? (uint64_t)cap : 1,
                      chunk > 0 ? (uint64_t)chunk : 1, emit_walk, NULL);
}

/* "engines": the library's engines as the page lists them, each
 * {"name","summary","maxN","caps" (NQ_CAP_* bits)}, and "kernel": the
 * fast kernel this module runs by default; so that the page's menus are
 * the registry's, as the command line's help is. */
EMSCRIPTEN_KEEPALIVE
int nqw_engines(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return CLI_FAIL;
    fputc('[', out);
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        cli_json_string(out, nq_engine_name(e));
        fputs(",\"summary\":", out);
        cli_json_string(out, nq_engine_summary(e));
        fprintf(out, ",\"maxN\":%d,\"caps\":%u}", nq_engine_max_n(e),
                nq_engine_caps(e));
    }
    fputc(']', out);
    int rc = fclose(out) != 0 || !text;
    if (!rc) {
        nqw_emit("engines", text, len);
        const char *k = nq_kernel_current();
        nqw_emit("kernel", k ? k : "", k ? strlen(k) : 0);
    }
    free(text);
    return rc ? CLI_FAIL : CLI_OK;
}

/* "progress": N, units done, units in all, seconds. */
static void emit_progress(void *ctx, const nq_progress *p)
{
    char text[128];
    int len = snprintf(text, sizeof text, "[%d,%llu,%llu,%.3f]", *(int *)ctx,
                       (unsigned long long)p->units_done,
                       (unsigned long long)p->units_total, p->seconds);
    nqw_emit("progress", text, (size_t)len);
}

/* The longest count the page starts without being asked twice: a
 * learner who would wait longer is better told first (the command line
 * refuses only what would take a week). */
#define NQW_COUNT_SECONDS 300.0

/* CLI_OK if counting hi with engine here would take at most
 * NQW_COUNT_SECONDS by the command line's own estimate, made as the
 * command line makes it for that engine: an engine that samples its plan
 * (fast) from N = CLI_ESTIMATE_FROM by sampling it, on one thread (what
 * `nqueens estimate N --threads 1` says, on this page's WebAssembly
 * rather than the native program); the others by their growth, timed on
 * smaller boards (a bound below which the count surely ends, or a low
 * extrapolation: "over").  Else said: as "estimate" {n, seconds, low,
 * high (-1 where there is no interval), threads, took (the command
 * line's words for it: "20 years (17-22)")} for the page, which
 * says it in its language, and on stderr; and CLI_USAGE. */
static int count_feasible(const char *engine, int hi)
{
    char took[96], quoted[128], text[320];
    double low, high, est = cli_estimate_one_thread(engine, hi,
                                                    NQW_COUNT_SECONDS, &low,
                                                    &high);
    if (est <= NQW_COUNT_SECONDS)
        return CLI_OK;
    cli_format_estimate(est, low, high, took, sizeof took);
    snprintf(text, sizeof text, "{\"n\":%d,\"seconds\":%.6g,\"low\":%.6g,"
             "\"high\":%.6g,\"threads\":1,\"took\":%s}", hi, est, low,
             high, cli_json_text(quoted, sizeof quoted, took));
    nqw_emit("estimate", text, strlen(text));
    return cli_error(CLI_USAGE, "count %d with engine %s would take %s%s "
                     "on 1 thread here; a smaller N, a faster engine, or "
                     "count anyway", hi, engine, low >= 0 ? "about " : "over ",
                     took);
}

/* Count lo..hi with engine, a row at a time on stdout as `nqueens count
 * lo-hi` prints them (its own printer), progress as the units go; unless
 * `force`, not a count that would take more than a few minutes. */
EMSCRIPTEN_KEEPALIVE
int nqw_count(const char *engine, int lo, int hi, int force)
{
    int rc = cli_check_engine(engine, lo, hi, 0);
    if (rc == CLI_OK && !force)
        rc = count_feasible(engine, hi);
    cli_count_table table = cli_count_table_for(hi, 0);
    for (int n = lo; rc == CLI_OK && n <= hi; n++) {
        char words[CLI_ERROR_TEXT], why[CLI_ERROR_TEXT];
        nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                          .threads = 1, .progress = emit_progress,
                          .progress_ctx = &n, .why = words,
                          .why_size = sizeof words};
        nq_counts c;
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, &c);
        if (st != NQ_OK)
            return cli_error(CLI_FAIL, "count %d: %s", n,
                             cli_strerror(st, words, why, sizeof why));
        if (cli_print_counts(&table, n, &c, engine, NULL, 1,
                             nq_clock_seconds() - t0) != 0)
            rc = CLI_FAIL;
    }
    return rc;
}

/* A board the learner made, checked as a solution: NQ_OK, else why not
 * (NQ_ERR_INVALID: two queens attack each other, NQ_ERR_ARG: a row
 * empty or a column off the board). */
static nq_status check_board(const int *cols, int n)
{
    if (n < 1 || n > NQ_MAX_N)
        return NQ_ERR_ARG;
    for (int r = 0; r < n; r++)
        if (cols[r] < 0 || cols[r] >= n)
            return NQ_ERR_ARG;
    return nq_check_placement(cols, n);
}

/* The solutions listed in board order up to the class's smallest board:
 * how many smallest boards of a class came first. */
struct class_walk {
    const int *smallest;
    int place, found;
};

static int count_smaller(void *ctx, const int *cols, int n)
{
    struct class_walk *w = ctx;
    if (!nq_canonical_weight(cols, n))
        return 0;
    w->place++;
    if (memcmp(cols, w->smallest, (size_t)n * sizeof *cols) == 0) {
        w->found = 1;
        return 1;
    }
    return 0;
}

/* The classes are listed (every solution, in board order) up to this N:
 * 365,596 solutions at N = 14, a fraction of a second. */
#define NQW_LIST_MAX 14

/* Which class a solution is in: out[0] its place among the classes in
 * the order of their smallest boards (1 = the class whose smallest board
 * comes first; 0 where N is too big to list them all here), out[1] the
 * classes in all (the unique count), out[2] its distinct images (8, 4 or
 * 2), out[3..3+n) its class's smallest board.  The status of the check
 * that it is a solution. */
EMSCRIPTEN_KEEPALIVE
int nqw_class(const int *cols, int n, int *out)
{
    int img[NQ_MAX_N], *best = out + 3;
    nq_status st = check_board(cols, n);
    if (st != NQ_OK)
        return st;
    memcpy(best, cols, (size_t)n * sizeof *cols);
    for (int t = 1; t < NQ_SYMMETRIES; t++) {
        nq_transform_placement(cols, n, t, img);
        if (memcmp(img, best, (size_t)n * sizeof *img) < 0)
            memcpy(best, img, (size_t)n * sizeof *img);
    }
    out[2] = nq_canonical_weight(best, n);
    nq_request req = {.size = sizeof req, .n = n, .threads = 1};
    nq_counts c;
    if ((st = nq_count_solutions(&req, &c)) != NQ_OK)
        return st;
    out[1] = (int)c.unique;
    out[0] = 0;
    if (n <= NQW_LIST_MAX) {
        int empty[NQ_MAX_N];
        struct class_walk w = {.smallest = best};
        for (int r = 0; r < n; r++)
            empty[r] = -1;
        st = nq_enumerate_completions(n, empty, count_smaller, &w, NULL);
        if (st != NQ_OK && st != NQ_ERR_STOPPED)
            return st;
        out[0] = w.found ? w.place : 0;
    }
    return NQ_OK;
}

/* The 8 images of a placement (nq_transform_placement, the symmetries
 * numbered as the library numbers them) into out[8 * n]. */
EMSCRIPTEN_KEEPALIVE
int nqw_images(const int *cols, int n, int *out)
{
    if (n < 1 || n > NQ_MAX_N)
        return NQ_ERR_ARG;
    for (int t = 0; t < NQ_SYMMETRIES; t++)
        nq_transform_placement(cols, n, t, out + t * n);
    return NQ_OK;
}

/* The first completion found, for the page to show. */
static int keep_first(void *ctx, const int *cols, int n)
{
    memcpy(ctx, cols, (size_t)n * sizeof *cols);
    return 1;
}

/* "Let the engine finish from here": the solutions that extend the
 * queens given (given[r] a column, or -1 for a row to fill), counted by
 * the library's completion search; their number as decimal text into
 * total (NQ_U128_DIGITS bytes), the first of them in board order into
 * first[0..n) (first[0] = -1 if there is none).  The status. */
EMSCRIPTEN_KEEPALIVE
int nqw_complete(const int *given, int n, int *first, char *total)
{
    nq_request req = {.size = sizeof req, .n = n, .threads = 1};
    nq_counts c;
    nq_status st = nq_count_completions(&req, given, &c);
    if (st != NQ_OK)
        return st;
    nq_format_u128(c.total, total);
    first[0] = -1;
    st = nq_enumerate_completions(n, given, keep_first, first, NULL);
    return st == NQ_ERR_STOPPED ? NQ_OK : st;
}

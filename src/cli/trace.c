/*
 * trace.c - `nqueens trace`: the search step by step.
 *
 * Seed 003 teaches backtracking by walking the 4-queens search one square
 * at a time: the row and column tried, whether the flag arrays FA (columns),
 * FB (diagonals row-col+N-1) and FC (diagonals row+col) let the queen stand,
 * the flags set and cleared, the return to the row above.  This command
 * prints that walk for any engine that reports its steps, from the engine's
 * own events: what each engine consults is what is shown (the earlier
 * queens for backtrack, the three arrays for flags, the three bit masks for
 * the bitmap engines, which never try an attacked square at all).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "trace.h"

static const char trace_help[] =
    "usage: nqueens trace N [options]\n"
    "\n"
    "Print an engine's search of the N x N board step by step: each square\n"
    "tried (place), refused (reject, with what attacks it), each queen taken\n"
    "back (remove), each solution.  backtrack names the attacking queen;\n"
    "flags shows its arrays FA (columns), FB (row-col+N-1) and FC (row+col)\n"
    "before and after, as seed 003 does; bitmap shows the masks of attacked\n"
    "columns (down, left and right diagonals; column 0 first) and the free\n"
    "squares they leave, which are all it ever tries.\n"
    "\n"
    "options:\n"
    "  --engine NAME   backtrack (default), or one of:\n"
    "                  {events}\n"
    "  -l, --limit K   stop after K steps (default 1000000)\n"
    "  --iterative     trace the engine's explicit-stack form\n"
    "  --style S       steps (default): one line a step; seed: the flags\n"
    "                  engine (the default with it) as seed 003 walks its\n"
    "                  Python program: row=R,i=C, each test written out\n"
    "                  (FB[row-i+(size-1)]->FB[1-2+(4-1)]->FB[2]==0), the\n"
    "                  arrays FA, FB and FC in full after each change\n"
    "  --one-based     rows and columns counted from 1 (steps); with seed,\n"
    "                  the square from 1 beside the program's variables\n"
    "\n"
    "examples:\n"
    "  nqueens trace 4\n"
    "  nqueens trace 5 --engine flags -l 40\n"
    "  nqueens trace 4 --style seed -l 12\n";

static void print_flags(const char *name, const char *before,
                        const char *after, int len)
{
    printf("  %s ", name);
    for (int i = 0; i < len; i++)
        putchar('0' + before[i]);
    fputs(" -> ", stdout);
    for (int i = 0; i < len; i++)
        putchar('0' + after[i]);
}

void trace_keep_flags(trace *t, const nq_event *e)
{
    int n = t->n;
    memcpy(t->fa, e->col_flags, (size_t)n);
    memcpy(t->fb, e->dif_flags, (size_t)(2 * n - 1));
    memcpy(t->fc, e->sum_flags, (size_t)(2 * n - 1));
}

/* The flags engine's arrays, before and after a placement or removal. */
static void flags_change(trace *t, const nq_event *e)
{
    int n = t->n;
    print_flags("FA", t->fa, e->col_flags, n);
    print_flags("FB", t->fb, e->dif_flags, 2 * n - 1);
    print_flags("FC", t->fc, e->sum_flags, 2 * n - 1);
    trace_keep_flags(t, e);
}

static void print_mask(const char *name, uint32_t mask, int n)
{
    printf("  %s ", name);
    for (int c = 0; c < n; c++)
        putchar(mask >> c & 1 ? '1' : '0');
}

/* The bitmap engines' masks of the row, and the free squares they leave. */
static void masks(const trace *t, const nq_event *e)
{
    uint32_t taken = e->down | e->left | e->right;
    print_mask("down", e->down, t->n);
    print_mask("left", e->left, t->n);
    print_mask("right", e->right, t->n);
    print_mask("free", ~taken, t->n);
}

static void print_queens(const trace *t, const nq_event *e, int k)
{
    fputs("  queens", stdout);
    for (int i = 0; i < k; i++)
        printf(" %d", e->cols[i] + t->base);
}

/* Why a square was refused: the attacking queen, or the flags set. */
static void why_rejected(const trace *t, const nq_event *e)
{
    int r = e->row, c = e->col, n = t->n;
    if (e->by_row >= 0) {
        printf("  attacked by the queen at row %d col %d (%s)",
               e->by_row + t->base, e->cols[e->by_row] + t->base,
               e->reason & NQ_BY_COLUMN ? "same column" : "same diagonal");
        return;
    }
    if (e->reason & NQ_BY_COLUMN)
        printf("  FA[%d]=1 (column taken)", c);
    if (e->reason & NQ_BY_DIF)
        printf("  FB[%d]=1 (diagonal row-col taken)", r - c + n - 1);
    if (e->reason & NQ_BY_SUM)
        printf("  FC[%d]=1 (diagonal row+col taken)", r + c);
}

static void print_step(trace *t, const nq_event *e)
{
    static const char *names[] = {"place", "reject", "remove", "solution",
                                  "fail"};
    printf("%6llu  %-8s", (unsigned long long)t->steps, names[e->kind]);
    if (e->kind == NQ_EVENT_SOLUTION || e->kind == NQ_EVENT_FAIL) {
        printf("  #%llu:", (unsigned long long)(e->kind == NQ_EVENT_SOLUTION
                                                ? t->solutions : t->fails));
        for (int i = 0; i < t->n; i++)
            printf(" %d", e->cols[i] + t->base);
        fputs(e->kind == NQ_EVENT_FAIL ? "  (queens attack each other)\n"
                                       : "\n", stdout);
        return;
    }
    printf("  row %d col %d", e->row + t->base, e->col + t->base);
    if (e->kind == NQ_EVENT_REJECT)
        why_rejected(t, e);
    else if (e->col_flags)
        flags_change(t, e);
    else if (e->has_masks && e->kind == NQ_EVENT_PLACE)
        masks(t, e);
    else if (e->kind == NQ_EVENT_PLACE)
        print_queens(t, e, e->row + 1);
    putchar('\n');
}

static int on_trace_event(void *ctx, const nq_event *e)
{
    trace *t = ctx;
    if (t->limit && t->steps == t->limit)
        return 1;
    t->steps++;
    t->places += e->kind == NQ_EVENT_PLACE;
    t->rejects += e->kind == NQ_EVENT_REJECT;
    t->removes += e->kind == NQ_EVENT_REMOVE;
    t->solutions += e->kind == NQ_EVENT_SOLUTION;
    t->fails += e->kind == NQ_EVENT_FAIL;
    if (t->seed)
        trace_seed_step(t, e);
    else
        print_step(t, e);
    return 0;
}

/* Steps traced when --limit is not given. */
#define TRACE_DEFAULT_LIMIT 1000000

/* The first engine of the table with every capability in caps. */
static const char *engine_with(unsigned caps)
{
    for (int i = 0; i < nq_engine_count(); i++)
        if ((nq_engine_caps(nq_engine_at(i)) & caps) == caps)
            return nq_engine_name(nq_engine_at(i));
    return "flags";
}

/* The options past N: the engine (by default backtrack, or for the seed
 * style the engine with flag arrays), the style, the step cap. */
static int trace_options(const char *engine, const char *style,
                         const char *limit, int n, trace *t, const char **use)
{
    uint64_t k = 0;
    unsigned caps = NQ_CAP_EVENTS;
    if (limit && cli_parse_uint(limit, 1, UINT64_MAX, &k) != 0)
        return cli_error(CLI_USAGE, "--limit takes a whole number from 1, "
                         "not '%s'", limit);
    if (strcmp(style, "steps") && strcmp(style, "seed"))
        return cli_error(CLI_USAGE, "trace: unknown style '%s' (styles: "
                         "steps, seed)", style);
    t->seed = strcmp(style, "seed") == 0;
    if (t->seed)
        caps |= NQ_CAP_FLAG_ARRAYS;
    *use = engine ? engine : t->seed ? engine_with(caps) : "backtrack";
    t->n = n;
    /* without --limit, a cap: brute force at N = 14 would print for days
     * and fill the disk */
    t->limit = k ? k : TRACE_DEFAULT_LIMIT;
    t->limited = k != 0;
    return cli_check_engine(*use, n, n, caps);
}

static void trace_summary(const trace *t, nq_status st)
{
    printf("%s%llu steps: %llu placements, %llu rejections, %llu removals, "
           "%llu solutions%s\n", t->seed ? "\n" : "",
           (unsigned long long)t->steps, (unsigned long long)t->places,
           (unsigned long long)t->rejects, (unsigned long long)t->removes,
           (unsigned long long)t->solutions, st != NQ_ERR_STOPPED ? ""
           : t->limited ? " (stopped by --limit)"
           : " (stopped at the default limit)");
    if (st == NQ_ERR_STOPPED && !t->limited)
        fprintf(stderr, "nqueens trace: note: stopped after %llu steps; "
                "--limit K traces more\n", (unsigned long long)t->steps);
}

int cmd_trace(int argc, char **argv)
{
    const char *engine = NULL, *limit = NULL, *style = "steps";
    int iterative = 0, one_based = 0, n, hi, rc;
    const cli_spec specs[] = {
        {"--engine", &engine, NULL},      {"--limit", &limit, NULL},
        {"--iterative", NULL, &iterative}, {"--style", &style, NULL},
        {"--one-based", NULL, &one_based}, {NULL, NULL, NULL},
    };
    rc = cli_parse_board("trace", trace_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    trace t = {.base = one_based};
    if ((rc = trace_options(engine, style, limit, n, &t, &engine)) != CLI_OK)
        return rc;
    if (t.seed)
        printf("%s search of N=%d as seed 003 walks it: size=%d, FA[i] the "
               "columns, FB[row-i+(size-1)] and FC[row+i] the diagonals\n",
               engine, n, n);
    else
        printf("%s search of N=%d, step by step%s\n", engine, n,
               one_based ? " (rows and columns counted from 1)" : "");
    nq_request req = {.n = n, .engine = engine, .iterative = iterative};
    nq_status st = nq_walk_search(&req, on_trace_event, &t);
    if (st != NQ_OK && st != NQ_ERR_STOPPED)
        return cli_error(CLI_FAIL, "trace %d: %s", n, nq_strerror(st));
    trace_summary(&t, st);
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "trace: cannot write the output");
    return CLI_OK;
}

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
    "\n"
    "examples:\n"
    "  nqueens trace 4\n"
    "  nqueens trace 5 --engine flags -l 40\n";

typedef struct {
    int n;
    uint64_t limit, steps, solutions, places, rejects, removes, fails;
    /* the flags engine's arrays as of the previous step */
    char fa[NQ_MAX_N], fb[2 * NQ_MAX_N - 1], fc[2 * NQ_MAX_N - 1];
} trace;

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

/* The flags engine's arrays, before and after a placement or removal. */
static void flags_change(trace *t, const nq_event *e)
{
    int n = t->n;
    print_flags("FA", t->fa, e->col_flags, n);
    print_flags("FB", t->fb, e->dif_flags, 2 * n - 1);
    print_flags("FC", t->fc, e->sum_flags, 2 * n - 1);
    memcpy(t->fa, e->col_flags, (size_t)n);
    memcpy(t->fb, e->dif_flags, (size_t)(2 * n - 1));
    memcpy(t->fc, e->sum_flags, (size_t)(2 * n - 1));
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

static void print_queens(const nq_event *e, int k)
{
    fputs("  queens", stdout);
    for (int i = 0; i < k; i++)
        printf(" %d", e->cols[i]);
}

/* Why a square was refused: the attacking queen, or the flags set. */
static void why_rejected(const trace *t, const nq_event *e)
{
    int r = e->row, c = e->col, n = t->n;
    if (e->by_row >= 0) {
        printf("  attacked by the queen at row %d col %d (%s)", e->by_row,
               e->cols[e->by_row], e->reason & NQ_BY_COLUMN ? "same column"
               : "same diagonal");
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
            printf(" %d", e->cols[i]);
        fputs(e->kind == NQ_EVENT_FAIL ? "  (queens attack each other)\n"
                                       : "\n", stdout);
        return;
    }
    printf("  row %d col %d", e->row, e->col);
    if (e->kind == NQ_EVENT_REJECT)
        why_rejected(t, e);
    else if (e->col_flags)
        flags_change(t, e);
    else if (e->has_masks && e->kind == NQ_EVENT_PLACE)
        masks(t, e);
    else if (e->kind == NQ_EVENT_PLACE)
        print_queens(e, e->row + 1);
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
    print_step(t, e);
    return 0;
}

/* Steps traced when --limit is not given. */
#define TRACE_DEFAULT_LIMIT 1000000

int cmd_trace(int argc, char **argv)
{
    const char *engine = "backtrack", *limit = NULL;
    int iterative = 0, n, hi, rc;
    uint64_t k = 0;
    const cli_spec specs[] = {
        {"--engine", &engine, NULL},
        {"--limit", &limit, NULL},
        {"--iterative", NULL, &iterative},
        {NULL, NULL, NULL},
    };
    rc = cli_parse_board("trace", trace_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if (limit && cli_parse_uint(limit, 1, UINT64_MAX, &k) != 0)
        return cli_error(CLI_USAGE, "--limit takes a whole number from 1, "
                         "not '%s'", limit);
    if ((rc = cli_check_engine(engine, n, n, NQ_CAP_EVENTS)) != CLI_OK)
        return rc;
    /* without --limit, a cap: brute force at N = 14 would print for
     * days and fill the disk */
    trace t = {.n = n, .limit = k ? k : TRACE_DEFAULT_LIMIT};
    printf("%s search of N=%d, step by step\n", engine, n);
    nq_request req = {.n = n, .engine = engine, .iterative = iterative};
    nq_status st = nq_walk_search(&req, on_trace_event, &t);
    if (st != NQ_OK && st != NQ_ERR_STOPPED)
        return cli_error(CLI_FAIL, "trace %d: %s", n, nq_strerror(st));
    printf("%llu steps: %llu placements, %llu rejections, %llu removals, "
           "%llu solutions%s\n", (unsigned long long)t.steps,
           (unsigned long long)t.places, (unsigned long long)t.rejects,
           (unsigned long long)t.removes, (unsigned long long)t.solutions,
           st != NQ_ERR_STOPPED ? "" : k ? " (stopped by --limit)"
           : " (stopped at the default limit)");
    if (st == NQ_ERR_STOPPED && !k)
        fprintf(stderr, "nqueens trace: note: stopped after %llu steps; "
                "--limit K traces more\n", (unsigned long long)t.steps);
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "trace: cannot write the output");
    return CLI_OK;
}

/*
 * trace_seed.c - `nqueens trace --style seed`: the flags engine's walk as
 * seed 003 explains its Python program, line for line.
 *
 * The seed follows nqueen(row, size) through the 4-queens board: for each
 * row=R,i=C it writes the three tests out, the array index formula with
 * the numbers put in and the flag found (FB[row-i+(size-1)]->FB[1-2+(4-1)]
 * ->FB[2]==0), stops at the first flag that is set (Python's `and` does),
 * and after each placement prints FA, FB and FC in full, one entry a line;
 * a removal marks the entries it clears (FA[2]=1-->FA[2]=0).  Variables
 * and array indices are the program's, counted from 0; --one-based adds
 * the square's row and column counted from 1.  Everything goes to t->out:
 * stdout, or with --json the step's text for its JSON line.
 */
#include <stdio.h>
#include <string.h>

#include "trace_seed.h"

/* "row=1,i=2", and the square from 1 with --one-based. */
static void print_square(const trace *t, int row, int col, const char *end)
{
    fprintf(t->out, "row=%d,i=%d", row, col);
    if (t->base)
        fprintf(t->out, " (row %d, column %d, counted from 1)", row + 1,
                col + 1);
    fputs(end, t->out);
}

/* The three tests of `if FA[i]==0 and FB[...]==0 and FC[...]==0`, each
 * with its value, up to the first that fails; returns the failing array's
 * name, or NULL when the queen may stand. */
static const char *print_tests(const trace *t, int row, int col)
{
    int n = t->n, b = row - col + n - 1, c = row + col;
    fprintf(t->out, "FA[i]->FA[%d]==%d\n", col, t->fa[col]);
    if (t->fa[col])
        return "FA";
    fprintf(t->out, "FB[row-i+(size-1)]->FB[%d-%d+(%d-1)]->FB[%d]==%d\n",
            row, col, n, b, t->fb[b]);
    if (t->fb[b])
        return "FB";
    fprintf(t->out, "FC[row+i]->FC[%d+%d]->FC[%d]==%d\n", row, col, c,
            t->fc[c]);
    return t->fc[c] ? "FC" : NULL;
}

/* An array in full, one entry a line; an entry that changed from `was`
 * is shown as the seed shows a cleared flag, "FA[2]=1-->FA[2]=0". */
static void print_array(const trace *t, const char *name, const char *now,
                        const char *was, int len)
{
    fprintf(t->out, "%s\n", name);
    for (int i = 0; i < len; i++) {
        if (was && was[i] != now[i])
            fprintf(t->out, "%s[%d]=%d-->", name, i, was[i]);
        fprintf(t->out, "%s[%d]=%d\n", name, i, now[i]);
    }
}

/* FA, FB and FC in full; marked: the entries this step changed shown. */
static void print_arrays(const trace *t, const nq_event *e, int marked)
{
    int n = t->n;
    print_array(t, "FA", e->col_flags, marked ? t->fa : NULL, n);
    print_array(t, "FB", e->dif_flags, marked ? t->fb : NULL, 2 * n - 1);
    print_array(t, "FC", e->sum_flags, marked ? t->fc : NULL, 2 * n - 1);
}

static void seed_place(const trace *t, const nq_event *e)
{
    print_square(t, e->row, e->col, "\n");
    print_tests(t, e->row, e->col);
    fprintf(t->out, "all three are 0: ABOARD[%d]=%d, and the flags are set\n",
            e->row, e->col);
    print_arrays(t, e, 0);
}

static void seed_reject(const trace *t, const nq_event *e)
{
    print_square(t, e->row, e->col, "\n");
    const char *by = print_tests(t, e->row, e->col);
    fprintf(t->out, "caught by the %s flag: next i\n", by ? by : "(no)");
}

static void seed_remove(const trace *t, const nq_event *e)
{
    print_square(t, e->row, e->col, "");
    fprintf(t->out, ": back from row=%d, the flags are cleared\n", e->row + 1);
    print_arrays(t, e, 1);
}

static void seed_solution(const trace *t, const nq_event *e)
{
    fprintf(t->out, "row=%d==size: TOTAL=%llu, ABOARD =", t->n,
            (unsigned long long)t->solutions);
    for (int i = 0; i < t->n; i++)
        fprintf(t->out, " %d", e->cols[i]);
    if (t->base) {
        fputs(" (columns from 1:", t->out);
        for (int i = 0; i < t->n; i++)
            fprintf(t->out, " %d", e->cols[i] + 1);
        fputc(')', t->out);
    }
    fputc('\n', t->out);
}

void trace_seed_step(const trace *t, const nq_event *e)
{
    if (t->steps > 1)
        fputc('\n', t->out);
    switch (e->kind) {
    case NQ_EVENT_PLACE:
        seed_place(t, e);
        break;
    case NQ_EVENT_REJECT:
        seed_reject(t, e);
        break;
    case NQ_EVENT_REMOVE:
        seed_remove(t, e);
        break;
    default:
        seed_solution(t, e);
        break;
    }
}

/*
 * explore_util.c - helpers shared by the tests of the exploring commands
 * (tree, formats, find, complete): the tests' own placement check, reading
 * boards back from what the CLI printed, and the SVG board check; and the
 * commands nqueens --help lists, for the CLI and completion tests.
 *
 * They live here once, not copied into each test file, so every test
 * checks answers the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The test's own check of a placement, independent of the library's:
 * rows, columns and both diagonals each used at most once, in O(n). */
int t_own_valid(const int *cols, int n)
{
    unsigned char *seen = calloc(5, (size_t)n);
    int ok = seen != NULL;
    for (int r = 0; r < n && ok; r++) {
        int c = cols[r];
        if (c < 0 || c >= n) {
            ok = 0;
            break;
        }
        unsigned char *col = &seen[c], *sum = &seen[n + r + c],
                      *dif = &seen[3 * n + r - c + n - 1];
        ok = !*col && !*sum && !*dif;
        *col = *sum = *dif = 1;
    }
    free(seen);
    return ok;
}

/* Most CLI runs must succeed quietly; saying so once keeps the tests to
 * what they check. */
void t_run_ok(t_proc *p, const char *const *args)
{
    CHECKF(t_run_cli(p, args) == 0, "could not run %s", getenv("NQ_CLI"));
    CHECKF(p->exit_code == 0, "exit %d, stderr: %s", p->exit_code, p->err);
    CHECKF(p->err_len == 0, "unexpected stderr: %s", p->err);
}

/* Read "a b c ..." (n numbers) at s, so printed boards can be checked by
 * the tests' own code; 0 on success. */
int t_read_cols(const char *s, int *cols, int n, char sep)
{
    for (int i = 0; i < n; i++) {
        char *e;
        long v = strtol(s, &e, 10);
        if (e == s || (i + 1 < n && *e != sep))
            return -1;
        cols[i] = (int)v;
        s = e + (i + 1 < n);
    }
    return 0;
}

/* Count one board read back; invalid or out-of-order boards (a listing
 * repeating or skipping back) count as bad. */
void t_reader_add(t_board_reader *r, const int *cols)
{
    int greater = r->count == 0;
    for (int i = 0; i < r->n && !greater; i++)
        if (cols[i] != r->prev[i]) {
            greater = cols[i] > r->prev[i];
            break;
        }
    if (!t_own_valid(cols, r->n) || !greater)
        r->bad++;
    memcpy(r->prev, cols, sizeof *cols * (size_t)r->n);
    r->count++;
}

/* The n queens drawn after the board title at q that do not stand where
 * cols says (x = margin + column * square, y = margin + row * square), so
 * a picture that disagrees with its own caption is caught. */
static int misplaced_queens(const char *q, const int *cols, int n)
{
    int misplaced = 0;
    for (int row = 0; row < n; row++) {
        int x, y, sq;
        q = strstr(q + 1, "<use xlink:href=\"#queen\"");
        if (!q || sscanf(q, "<use xlink:href=\"#queen\" x=\"%d\" y=\"%d\" "
                         "width=\"%d\"", &x, &y, &sq) != 3 ||
            x - cols[row] * sq != y - row * sq)
            misplaced++;
    }
    return misplaced;
}

/* An SVG of boards (solve and find draw them): well-formed; each board's
 * title gives its array, and its queens stand where the array says. */
void t_check_svg_boards(const char *svg, int n, int expect)
{
    char why[128];
    CHECKF(t_xml_check(svg, why, sizeof why) == 0, "not well-formed: %s", why);
    t_board_reader r = {.n = n};
    int cols[NQ_MAX_N], misplaced = 0;
    for (const char *s = strstr(svg, "<title>#"); s;
         s = strstr(s + 1, "<title>#")) {
        const char *colon = strchr(s, ':');
        if (!colon || t_read_cols(colon + 2, cols, n, ' ') != 0) {
            r.bad++;
            continue;
        }
        t_reader_add(&r, cols);
        misplaced += misplaced_queens(s, cols, n);
    }
    CHECKF(r.count == expect && r.bad == 0 && misplaced == 0,
           "%d boards, %d bad, %d queens misplaced", r.count, r.bad, misplaced);
}

int t_listed_commands(const char *page, char names[][32], int most)
{
    const char *at = strstr(page, "\ncommands:\n");
    int k = 0;
    for (at = at ? at + 11 : ""; k < most && !strncmp(at, "  ", 2);) {
        size_t len = strcspn(at + 2, " \n");
        snprintf(names[k++], 32, "%.*s", (int)(len < 31 ? len : 31), at + 2);
        at = strchr(at, '\n') ? strchr(at, '\n') + 1 : "";
    }
    return k;
}

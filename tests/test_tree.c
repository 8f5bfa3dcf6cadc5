/*
 * test_tree.c - seeing the search: the library's event walk (events/),
 * and the tree and trace commands built on it (tree/, trace/).
 *
 * Every answer is checked by code written here, not by the library's own
 * checks: event streams against each other and the engines' node counts,
 * trees against OEIS A319235, the flags trace against seed 003's hand
 * walk, SVG by an XML check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---- event streams ---- */

typedef struct {
    int kind, row, col, reason, by_row;
    unsigned down, left, right, untried, ruled; /* bitmap engines */
} rec_event;

typedef struct {
    rec_event *ev;
    size_t count, cap;
    unsigned long long places, solutions;
} event_log;

/* Record every event the walk reports (nq_walk_search callback), so two
 * walks can be compared step by step; 1 stops the walk if memory runs out. */
static int log_event(void *ctx, const nq_event *e)
{
    event_log *l = ctx;
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        rec_event *ne = realloc(l->ev, sizeof *ne * cap);
        if (!ne)
            return 1;
        l->ev = ne, l->cap = cap;
    }
    l->ev[l->count++] = (rec_event){(int)e->kind, e->row, e->col,
                                    (int)e->reason, e->by_row, e->down,
                                    e->left, e->right, e->untried, e->ruled};
    l->places += e->kind == NQ_EVENT_PLACE;
    l->solutions += e->kind == NQ_EVENT_SOLUTION;
    return 0;
}

typedef struct {
    const char *engine;
    int max_n;
    int every_solution; /* reports each solution of the board */
} event_engine;

/* Recursive and iterative forms report the same events in the same
 * order; the placements are the engine's node count (less the root); the
 * solutions, for engines that meet every one, are the OEIS total. */
static void events_agree(void *arg)
{
    const event_engine *ee = arg;
    for (int n = 1; n <= ee->max_n; n++) {
        event_log a = {0}, b = {0};
        nq_request req = {.size = sizeof req, .n = n, .engine = ee->engine};
        nq_counts c;
        nq_status s1 = nq_walk_search(&req, log_event, &a);
        req.iterative = 1;
        nq_status s2 = nq_walk_search(&req, log_event, &b);
        nq_status s3 = nq_count_solutions(&req, &c);
        int same = a.count == b.count &&
                   memcmp(a.ev, b.ev, sizeof *a.ev * a.count) == 0;
        unsigned long long places = a.places, sols = a.solutions;
        free(a.ev);
        free(b.ev);
        CHECKF(s1 == NQ_OK && s2 == NQ_OK && s3 == NQ_OK, "N=%d: walk failed",
               n);
        CHECKF(same, "N=%d: recursive and iterative events differ", n);
        CHECKF((nq_u128)places + 1 == c.nodes, "N=%d: %llu placements for "
               "%llu nodes", n, places, (unsigned long long)c.nodes);
        CHECKF(!ee->every_solution || (nq_u128)sols == t_oeis_total(n),
               "N=%d: %llu solutions reported", n, sols);
    }
}

/* ---- the bitmap engines' own state in each event ---- */

/* The columns attacked in `row` by the queens of rows 0..row-1, worked
 * out here from the placement: the same column (down), and the diagonals
 * that reach it from the left, column + distance (left), and from the
 * right, column - distance (right). */
static void attacked(const int *cols, int row, int n, unsigned *down,
                     unsigned *left, unsigned *right)
{
    *down = *left = *right = 0;
    for (int i = 0; i < row; i++) {
        int l = cols[i] + (row - i), r = cols[i] - (row - i);
        *down |= 1u << cols[i];
        *left |= l < n ? 1u << l : 0;
        *right |= r >= 0 ? 1u << r : 0;
    }
}

/* Columns lo..hi (empty if hi < lo). */
static unsigned span(int lo, int hi)
{
    unsigned m = 0;
    for (int c = lo; c <= hi; c++)
        m |= 1u << c;
    return m;
}

/* What the engine rules out of `row` by its own rule, from the rules as
 * its header comment states them (mirror.c, symmetry.c), not from its
 * code: mirror's row 0 takes the left half and the middle, and under the
 * middle queen row 1 takes the left half; symmetry's row 0 takes columns
 * 0..(n-1)/2, under the corner row 1 takes 2..n-1 and column 1 is out of
 * rows 2..c1-1, and with the row-0 queen in column m >= 1 the side
 * columns are out of rows under m or past n-1-m, and the last row keeps
 * columns m..n-1-m. */
static unsigned ruled_by_rule(const char *engine, int n, int row,
                              const int *cols)
{
    unsigned full = span(0, n - 1);
    if (strcmp(engine, "mirror") == 0) {
        if (row == 0)
            return full & ~span(0, n / 2 - 1 + n % 2);
        return row == 1 && n % 2 && cols[0] == n / 2 ? full & ~span(0, n / 2 - 1)
                                                     : 0;
    }
    if (strcmp(engine, "symmetry") != 0)
        return 0;
    if (row == 0)
        return full & ~span(0, (n - 1) / 2);
    int m = cols[0];
    if (m == 0)
        return row == 1 ? full & 3u : row < cols[1] ? 2u : 0;
    unsigned r = row < m || row > n - 1 - m ? 1u | 1u << (n - 1) : 0;
    if (row == n - 1)
        r |= full & ~span(m, n - 1 - m);
    return r;
}

/* One event against the contract of nq_event's masks; the node's
 * previous event at this row in *last (0 before its first placement).
 * Returns a description of what is wrong, or NULL. */
static const char *mask_fault(const char *engine, int n, const nq_event *e,
                              unsigned *last)
{
    unsigned full = span(0, n - 1), down, left, right;
    if (e->kind != NQ_EVENT_PLACE && e->kind != NQ_EVENT_REMOVE)
        return NULL;
    if (!e->has_masks)
        return "no masks";
    attacked(e->cols, e->row, n, &down, &left, &right);
    if (e->down != down || e->left != left || e->right != right)
        return "down, left or right is not what the queens attack";
    if (e->ruled != ruled_by_rule(engine, n, e->row, e->cols))
        return "ruled is not what the engine's rule rules out";
    if ((e->untried | e->ruled) & ~full)
        return "a mask off the board";
    unsigned below = span(0, e->col);
    if (e->kind == NQ_EVENT_REMOVE) {
        if (e->untried & below)
            return "remove: untried holds col or a column left of it";
        if (e->untried & ~(last[e->row] & ~(1u << e->col)))
            return "remove: untried is not within the placement's, less col";
        last[e->row] = e->untried;
        return NULL;
    }
    if (!e->untried || e->untried & (below >> 1) ||
        !(e->untried & 1u << e->col))
        return "place: col is not the lowest untried square";
    if (e->untried & (e->down | e->left | e->right | e->ruled))
        return "place: untried holds an attacked or ruled-out square";
    if (!last[e->row] && e->untried != (full & ~(down | left | right | e->ruled)))
        return "place: a node's first untried is not its free squares";
    if (last[e->row] && e->untried != last[e->row])
        return "place: untried is not what the removal before said";
    last[e->row] = e->untried;
    for (int r = e->row + 1; r < n; r++)
        last[r] = 0; /* the rows below start new nodes */
    return NULL;
}

typedef struct {
    const char *engine;
    int n;
    unsigned last[NQ_MAX_N];
    unsigned long long events;
    char fault[160];
} mask_check;

/* nq_walk_search callback: each event checked; the first fault stops
 * the walk. */
static int check_masks(void *ctx, const nq_event *e)
{
    mask_check *m = ctx;
    const char *why = mask_fault(m->engine, m->n, e, m->last);
    m->events++;
    if (why)
        snprintf(m->fault, sizeof m->fault, "event %llu (%s row %d col %d): "
                 "%s", m->events, e->kind == NQ_EVENT_PLACE ? "place"
                 : "remove", e->row, e->col, why);
    return why != NULL;
}

/* bitmap, mirror and symmetry at N = 1..8, both forms: every placement's
 * and removal's masks as nq_event promises them (col the lowest square
 * still to try; a removal names what the node tries next, and the next
 * placement of the node is that; the squares ruled out are the engine's
 * own rule). */
static void event_masks(void *arg)
{
    const char *engine = arg;
    for (int iterative = 0; iterative <= 1; iterative++)
        for (int n = 1; n <= 8; n++) {
            mask_check m = {.engine = engine, .n = n};
            nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                              .iterative = iterative};
            nq_status st = nq_walk_search(&req, check_masks, &m);
            CHECKF(!m.fault[0], "%s N=%d%s: %s", engine, n,
                   iterative ? " iterative" : "", m.fault);
            CHECKF(st == NQ_OK && m.events > 0, "%s N=%d: walk failed",
                   engine, n);
        }
}

/* The text trace's "to try" and "ruled out" are the events' untried and
 * ruled, step by step: each place and remove line of the bitmap engines
 * against the event of the same number. */
static void trace_to_try(void *arg)
{
    const char *engine = arg;
    event_log l = {0};
    nq_request req = {.size = sizeof(nq_request), .n = 6, .engine = engine};
    CHECK(nq_walk_search(&req, log_event, &l) == NQ_OK);
    t_proc p;
    t_run_ok(&p, ARGS("trace", "6", "--engine", engine));
    if (t_failed()) {
        free(l.ev);
        return;
    }
    size_t lines = 0, bad = 0;
    for (char *s = strchr(p.out, '\n'); s && s[1] && !bad; s = strchr(s, '\n')) {
        char *line = ++s, kind[16];
        unsigned long long step;
        if (sscanf(line, "%llu %15s", &step, kind) != 2 || step == 0 ||
            step > l.count)
            continue;
        const rec_event *e = &l.ev[step - 1];
        const char *try = strstr(line, "  to try "), *ruled = strstr(line,
                                                                "  ruled out ");
        const char *nl = strchr(line, '\n');
        if (strcmp(kind, "place") && strcmp(kind, "remove"))
            continue;
        unsigned want_try = 0, want_ruled = 0;
        for (int c = 0; try && c < 6; c++)
            want_try |= (unsigned)(try[9 + c] == '1') << c;
        for (int c = 0; ruled && ruled < nl && c < 6; c++)
            want_ruled |= (unsigned)(ruled[12 + c] == '1') << c;
        lines++;
        if (!try || try > nl || try + 9 + 6 != nl || want_try != e->untried ||
            (strcmp(kind, "place") == 0 && want_ruled != e->ruled) ||
            (strcmp(kind, "remove") == 0 && ruled && ruled < nl) ||
            (!e->ruled && ruled && ruled < nl))
            bad = step;
    }
    size_t events = l.count;
    free(l.ev);
    t_proc_free(&p);
    CHECKF(!bad, "%s: step %zu's to try or ruled out is not its event's",
           engine, bad);
    CHECKF(lines > 20 && lines < events, "%s: %zu place and remove lines of "
           "%zu events", engine, lines, events);
}

/* The masks of a placement at (row, col) under the queens cols[0..row):
 * in `want`, "down", "down-right" and "down-left" as 0s and 1s, column 0
 * first, the squares of the row each queen attacks straight down, down to
 * the right (higher columns) and down to the left. */
static void board_masks(const int *cols, int row, int n, char want[3][64])
{
    for (int c = 0; c < n; c++) {
        int down = 0, right = 0, left = 0;
        for (int r = 0; r < row; r++) {
            down |= cols[r] == c;
            right |= c - cols[r] == row - r;
            left |= cols[r] - c == row - r;
        }
        want[0][c] = (char)('0' + down);
        want[1][c] = (char)('0' + right);
        want[2][c] = (char)('0' + left);
    }
    for (int i = 0; i < 3; i++)
        want[i][n] = '\0';
}

/* The text trace names the diagonal masks by the way they run on the
 * board as printed, column 0 first: each place line's "down-right" holds
 * the squares a queen above attacks down and to the right, "down-left"
 * those down and to the left (the engines' left and right, named after
 * their shift, run the other way on such a board). */
static void trace_masks_follow_board(void *arg)
{
    const char *engine = arg;
    static const char *const names[3] = {"  down ", "  down-right ",
                                         "  down-left "};
    t_proc p;
    t_run_ok(&p, ARGS("trace", "7", "--engine", engine));
    T_BAIL();
    int cols[32], n = 7;
    size_t lines = 0, bad = 0;
    for (char *s = strchr(p.out, '\n'); s && s[1] && !bad; s = strchr(s, '\n')) {
        char *line = ++s, kind[16];
        unsigned long long step;
        int row, col;
        if (sscanf(line, "%llu %15s row %d col %d", &step, kind, &row,
                   &col) != 4 || strcmp(kind, "place") || row >= n)
            continue;
        cols[row] = col;
        char want[3][64];
        board_masks(cols, row, n, want);
        const char *nl = strchr(line, '\n');
        for (int i = 0; i < 3 && !bad; i++) {
            const char *at = strstr(line, names[i]);
            if (!at || at > nl || strncmp(at + strlen(names[i]), want[i],
                                          (size_t)n) != 0)
                bad = step;
        }
        lines++;
    }
    t_proc_free(&p);
    CHECKF(!bad && lines > 20, "%s N=7: step %zu's masks are not the "
           "squares attacked down, down to the right and down to the left "
           "(%zu place lines)", engine, bad, lines);
}

/* OEIS A319235: the plain backtracking tree, root included, for N = 4
 * to *arg (12 is the full tier's case: ten times 11's time). */
static void backtrack_tree_size(void *arg)
{
    int last = *(const int *)arg;
    for (int n = last == 12 ? 12 : 4; n <= last; n++) {
        event_log l = {0};
        nq_request req = {.size = sizeof req, .n = n, .engine = "backtrack"};
        CHECK(nq_walk_search(&req, log_event, &l) == NQ_OK);
        free(l.ev);
        CHECKF((nq_u128)l.places + 1 == t_tree_nodes(n), "N=%d: %llu nodes",
               n, l.places + 1);
    }
}

/* Seed 003 walks the flags search of N=4 by hand, up to the first
 * solution: each square tried, the flag that refuses it (FA column, FB
 * row-col, FC row+col, checked in that order; 0 where the text does not
 * say), each queen placed and taken back.  The engine's events must follow
 * the same path. */
enum { P = NQ_EVENT_PLACE, J = NQ_EVENT_REJECT, X = NQ_EVENT_REMOVE,
       S = NQ_EVENT_SOLUTION, FA = 1, FB = 2, FC = 3 };

static const int textbook[][4] = {
    {P, 0, 0, 0},  {J, 1, 0, FA}, {J, 1, 1, FB}, {P, 1, 2, 0},
    {J, 2, 0, FA}, {J, 2, 1, FC}, {J, 2, 2, FA}, {J, 2, 3, FB},
    {X, 1, 2, 0},  {P, 1, 3, 0},  {J, 2, 0, FA}, {P, 2, 1, 0},
    {J, 3, 0, FA}, {J, 3, 1, FA}, {J, 3, 2, FB}, {J, 3, 3, FA},
    {X, 2, 1, 0},  {J, 2, 2, 0},  {J, 2, 3, 0},  {X, 1, 3, 0},
    {X, 0, 0, 0},  {P, 0, 1, 0},  {J, 1, 0, 0},  {J, 1, 1, 0},
    {J, 1, 2, 0},  {P, 1, 3, 0},  {P, 2, 0, 0},  {J, 3, 0, 0},
    {J, 3, 1, 0},  {P, 3, 2, 0},  {S, 3, 2, 0},
};

/* The flag seed 003 names for a refused square: the first of FA, FB, FC
 * (in the order the text checks them) among the reasons given. */
static int first_flag(int reason)
{
    return reason & NQ_BY_COLUMN ? FA : reason & NQ_BY_DIF ? FB
         : reason & NQ_BY_SUM ? FC : 0;
}

/* The flags walk of N=4, step by step against the hand walk above. */
static void trace_matches_textbook(void *arg)
{
    (void)arg;
    event_log l = {0};
    nq_request req = {.size = sizeof(nq_request), .n = 4, .engine = "flags"};
    CHECK(nq_walk_search(&req, log_event, &l) == NQ_OK);
    size_t steps = sizeof textbook / sizeof textbook[0], bad = steps;
    for (size_t i = 0; i < steps && i < l.count && bad == steps; i++) {
        const rec_event *e = &l.ev[i];
        if (e->kind != textbook[i][0] || e->row != textbook[i][1] ||
            e->col != textbook[i][2] ||
            (textbook[i][3] && first_flag(e->reason) != textbook[i][3]))
            bad = i;
    }
    size_t have = l.count;
    free(l.ev);
    CHECKF(have >= steps, "only %zu events", have);
    CHECKF(bad == steps, "step %zu differs from seed 003", bad + 1);
}

/* ---- tree and trace on the command line ---- */

/* How often s occurs in text: lines, marks and edges of the drawings are
 * counted this way. */
static unsigned long long count_lines_with(const char *text, const char *s)
{
    unsigned long long k = 0;
    for (const char *p = text; (p = strstr(p, s)); p += strlen(s))
        k++;
    return k;
}

/* The text tree: one line per node of the known tree size, every
 * solution marked, and a summary with both totals. */
static void tree_text(void *arg)
{
    (void)arg;
    for (int n = 4; n <= 8; n++) {
        char ns[16], want[128], total[NQ_U128_DIGITS], nodes[NQ_U128_DIGITS];
        t_proc p;
        snprintf(ns, sizeof ns, "%d", n);
        t_run_ok(&p, ARGS("tree", ns));
        T_BAIL();
        snprintf(want, sizeof want, "%s nodes, %s solution",
                 nq_format_u128(t_tree_nodes(n), nodes),
                 nq_format_u128(t_oeis_total(n), total));
        int summary = strstr(p.out, want) != NULL;
        unsigned long long lines = count_lines_with(p.out, "\n"),
                           marked = count_lines_with(p.out, "\u2713 solution");
        t_proc_free(&p);
        CHECKF(summary, "N=%d: no '%s'", n, want);
        /* a title, one line per node, the summary */
        CHECKF((nq_u128)lines == t_tree_nodes(n) + 2, "N=%d: %llu lines", n,
               lines);
        CHECKF((nq_u128)marked == t_oeis_total(n), "N=%d: %llu marked", n,
               marked);
    }
}

/* The recursive and iterative searches draw the very same tree. */
static void tree_forms_agree(void *arg)
{
    const char *engine = arg;
    t_proc a, b;
    t_run_ok(&a, ARGS("tree", "6", "--engine", engine));
    T_BAIL();
    t_run_ok(&b, ARGS("tree", "6", "--engine", engine, "--iterative"));
    int same = !t_failed() && a.out_len == b.out_len &&
               memcmp(a.out, b.out, a.out_len) == 0;
    t_proc_free(&a);
    if (!t_failed())
        t_proc_free(&b);
    T_BAIL();
    CHECK(same);
}

/* --depth folds: the drawn nodes shrink, the totals do not. */
static void tree_depth(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("tree", "10", "--depth", "2"));
    T_BAIL();
    int summary = strstr(p.out, "35539 nodes, 724 solutions") != NULL &&
                  strstr(p.out, "drawn, levels 0..2") != NULL;
    unsigned long long folded = count_lines_with(p.out, " below, ");
    t_proc_free(&p);
    CHECK(summary);
    CHECKF(folded > 10, "%llu folded nodes", folded);
}

/* DOT: one node statement per node, one edge per node but the root. */
static void tree_dot(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("tree", "5", "--format", "dot"));
    T_BAIL();
    int head = strncmp(p.out, "digraph ", 8) == 0;
    unsigned long long edges = count_lines_with(p.out, " -> "),
                       nodes = count_lines_with(p.out, " [fillcolor=");
    t_proc_free(&p);
    CHECK(head);
    CHECKF(nodes == 54 && edges == 53, "%llu nodes, %llu edges", nodes, edges);
}

/* --format svg needs Graphviz: without it on PATH, a clear error. */
static void tree_svg_without_graphviz(void *arg)
{
    (void)arg;
    t_proc p;
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent", 1);
    int ran = t_run_cli(&p, ARGS("tree", "4", "--format", "svg")) == 0;
    if (path)
        setenv("PATH", path, 1);
    free(path);
    CHECK(ran);
    int said = p.exit_code == 1 && strstr(p.err, "Graphviz") && p.out_len == 0;
    t_proc_free(&p);
    CHECK(said);
}

/* With Graphviz (CI installs it): well-formed SVG; without, a skip. */
static void tree_svg(void *arg)
{
    (void)arg;
    t_proc p;
    if (system("command -v dot >/dev/null 2>&1") != 0) {
        t_skip("no Graphviz 'dot' on PATH");
        return;
    }
    char why[128];
    t_run_ok(&p, ARGS("tree", "4", "--format", "svg"));
    T_BAIL();
    int ok = t_xml_check(p.out, why, sizeof why) == 0 && strstr(p.out, "<svg");
    t_proc_free(&p);
    CHECKF(ok, "not well-formed SVG: %s", why);
}

/* The trace of N=4 ends in a summary of its steps by kind, the kinds
 * adding up to the steps, and prints one line per step (plus title and
 * summary). */
static void trace_summary(void *arg)
{
    (void)arg;
    static const struct {
        const char *engine, *want;
    } cases[] = {
        {"flags", "78 steps: 16 placements, 44 rejections, 16 removals, "
                  "2 solutions\n"},
        {"backtrack", "78 steps: 16 placements, 44 rejections, 16 removals, "
                      "2 solutions\n"},
        {"bitmap", "34 steps: 16 placements, 0 rejections, 16 removals, "
                   "2 solutions\n"},
        /* every step counted: the 4^4 complete placements brute force
         * tests are its 2 solutions and 254 failures */
        {"brute", "936 steps: 340 placements, 0 rejections, 340 removals, "
                  "2 solutions, 254 failures\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        t_run_ok(&p, ARGS("trace", "4", "--engine", cases[i].engine));
        T_BAIL();
        int ok = p.out_len > strlen(cases[i].want) &&
                 strcmp(p.out + p.out_len - strlen(cases[i].want),
                        cases[i].want) == 0;
        unsigned long long lines = count_lines_with(p.out, "\n");
        t_proc_free(&p);
        CHECKF(ok, "%s: wrong summary", cases[i].engine);
        CHECKF(lines == (unsigned long long)atoi(cases[i].want) + 2,
               "%s: %llu lines", cases[i].engine, lines);
    }
}

/* The flags trace shows the arrays of seed 003 and names the flag. */
static void trace_flags_lines(void *arg)
{
    (void)arg;
    static const char *const want[] = {
        "     1  place     row 0 col 0  FA 0000 -> 1000  FB 0000000 -> "
        "0001000  FC 0000000 -> 1000000\n",
        "     3  reject    row 1 col 1  FB[3]=1 (diagonal row-col taken)\n",
        "    31  solution  #1: 1 3 0 2\n",
    };
    t_proc p;
    t_run_ok(&p, ARGS("trace", "4", "--engine", "flags", "--limit", "40"));
    T_BAIL();
    int missing = -1;
    for (int i = 0; i < 3 && missing < 0; i++)
        if (!strstr(p.out, want[i]))
            missing = i;
    int stopped = strstr(p.out, "40 steps") && strstr(p.out, "--limit");
    t_proc_free(&p);
    CHECKF(missing < 0, "no line: %s", want[missing]);
    CHECK(stopped);
}

/* The event walk, then the tree and trace commands drawn from it. */
/* Slow engines on big boards: trace stops at its default cap with a note
 * (brute force at N = 14 would print for days), tree names its walking
 * limit rather than blaming the engine. */
static void big_boards_capped(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("trace", "14", "--engine", "brute")) == 0);
    int capped = p.exit_code == 0 && p.out_len < 200u * 1000000 &&
                 strstr(p.out, "1000000 steps") &&
                 strstr(p.err, "--limit K traces more");
    t_proc_free(&p);
    CHECK(capped);
    CHECK(t_run_cli(&p, ARGS("tree", "12", "--engine", "brute", "--depth",
                             "3")) == 0);
    int named = p.exit_code == 1 && strstr(p.err, "too many to walk") &&
                !strstr(p.err, "row by row");
    t_proc_free(&p);
    CHECK(named);
}

void tests_tree(void)
{
    t_full_case(big_boards_capped, NULL, "trace/capped-and-tree-names-its-limit");
    static const event_engine events[] = {
        {"brute", 6, 1},   {"backtrack", 8, 1}, {"flags", 8, 1},
        {"bitmap", 9, 1},  {"mirror", 9, 0},    {"symmetry", 9, 0},
    };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        t_case(events_agree, (void *)&events[i], "events/%s",
               events[i].engine);
    static const char *const masked[] = {"bitmap", "mirror", "symmetry"};
    for (int i = 0; i < 3; i++) {
        t_case(event_masks, (void *)masked[i], "events/masks/%s", masked[i]);
        t_case(trace_masks_follow_board, (void *)masked[i],
               "trace/masks-follow-the-board/%s", masked[i]);
        t_case(trace_to_try, (void *)masked[i], "trace/to-try/%s",
               masked[i]);
    }
    static const int to11 = 11, at12 = 12;
    t_case(backtrack_tree_size, (void *)&to11,
           "events/backtrack-tree-vs-A319235/4..11");
    t_full_case(backtrack_tree_size, (void *)&at12,
                "events/backtrack-tree-vs-A319235/12");
    t_case(trace_matches_textbook, NULL, "trace/4-as-seed-003");
    t_case(tree_text, NULL, "tree/text-4..8");
    t_case(tree_forms_agree, "backtrack", "tree/iterative/backtrack");
    t_case(tree_forms_agree, "symmetry", "tree/iterative/symmetry");
    t_case(tree_forms_agree, "brute", "tree/iterative/brute");
    t_case(tree_depth, NULL, "tree/depth");
    t_case(tree_dot, NULL, "tree/dot");
    t_case(tree_svg_without_graphviz, NULL, "tree/svg-without-graphviz-said");
    t_case(tree_svg, NULL, "tree/svg");
    t_case(trace_summary, NULL, "trace/summary");
    t_case(trace_flags_lines, NULL, "trace/flags-lines");
}

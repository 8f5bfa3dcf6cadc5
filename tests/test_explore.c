/*
 * test_explore.c - seeing the search and answering what counting cannot:
 * event streams, tree, trace, compare, pictures, find and complete.
 *
 * Every answer is checked by code written here, not by the library's own
 * checks: placements by marking lines, completion counts by filtering the
 * full list of solutions, trees against OEIS A319235, SVG by an XML check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The test's own check of a placement: rows, columns and both diagonals
 * each used at most once, in O(n). */
static int own_valid(const int *cols, int n)
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

static void run_ok(t_proc *p, const char *const *args)
{
    CHECKF(t_run_cli(p, args) == 0, "could not run %s", getenv("NQ_CLI"));
    CHECKF(p->exit_code == 0, "exit %d, stderr: %s", p->exit_code, p->err);
    CHECKF(p->err_len == 0, "unexpected stderr: %s", p->err);
}

/* ---- event streams ---- */

typedef struct {
    int kind, row, col, reason, by_row;
} rec_event;

typedef struct {
    rec_event *ev;
    size_t count, cap;
    unsigned long long places, solutions;
} event_log;

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
                                    (int)e->reason, e->by_row};
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
        nq_request req = {.n = n, .engine = ee->engine};
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

/* OEIS A319235: the plain backtracking tree, root included. */
static void backtrack_tree_size(void *arg)
{
    (void)arg;
    for (int n = 4; n <= 12; n++) {
        event_log l = {0};
        nq_request req = {.n = n, .engine = "backtrack"};
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

static int first_flag(int reason)
{
    return reason & NQ_BY_COLUMN ? FA : reason & NQ_BY_DIF ? FB
         : reason & NQ_BY_SUM ? FC : 0;
}

static void trace_matches_textbook(void *arg)
{
    (void)arg;
    event_log l = {0};
    nq_request req = {.n = 4, .engine = "flags"};
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

static unsigned long long count_lines_with(const char *text, const char *s)
{
    unsigned long long k = 0;
    for (const char *p = text; (p = strstr(p, s)); p += strlen(s))
        k++;
    return k;
}

static void tree_text(void *arg)
{
    (void)arg;
    for (int n = 4; n <= 8; n++) {
        char ns[16], want[128], total[NQ_U128_DIGITS], nodes[NQ_U128_DIGITS];
        t_proc p;
        snprintf(ns, sizeof ns, "%d", n);
        run_ok(&p, ARGS("tree", ns));
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

static void tree_forms_agree(void *arg)
{
    const char *engine = arg;
    t_proc a, b;
    run_ok(&a, ARGS("tree", "6", "--engine", engine));
    T_BAIL();
    run_ok(&b, ARGS("tree", "6", "--engine", engine, "--iterative"));
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
    run_ok(&p, ARGS("tree", "10", "--depth", "2"));
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
    run_ok(&p, ARGS("tree", "5", "--format", "dot"));
    T_BAIL();
    int head = strncmp(p.out, "digraph ", 8) == 0;
    unsigned long long edges = count_lines_with(p.out, " -> "),
                       nodes = count_lines_with(p.out, " [fillcolor=");
    t_proc_free(&p);
    CHECK(head);
    CHECKF(nodes == 54 && edges == 53, "%llu nodes, %llu edges", nodes, edges);
}

/* --format svg needs Graphviz: without it on PATH, a clear error; with it,
 * well-formed SVG. */
static void tree_svg(void *arg)
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
    if (system("command -v dot >/dev/null 2>&1") != 0)
        return; /* no Graphviz here: the error path is what can be tested */
    char why[128];
    run_ok(&p, ARGS("tree", "4", "--format", "svg"));
    T_BAIL();
    int ok = t_xml_check(p.out, why, sizeof why) == 0 && strstr(p.out, "<svg");
    t_proc_free(&p);
    CHECKF(ok, "not well-formed SVG: %s", why);
}

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
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        run_ok(&p, ARGS("trace", "4", "--engine", cases[i].engine));
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
    run_ok(&p, ARGS("trace", "4", "--engine", "flags", "--limit", "40"));
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

/* compare: a row per engine, the counts agreed and right. */
static void compare_table(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("compare", "8", "--budget", "1"));
    T_BAIL();
    int agreed = strstr(p.out, "agrees: 92 solutions, 12 unique") != NULL;
    int missing = -1;
    for (int i = 0; i < nq_engine_count() && missing < 0; i++) {
        char row[32];
        const char *name = nq_engine_name(nq_engine_at(i));
        snprintf(row, sizeof row, "\n%-10s ", name);
        if (strcmp(name, "cuda") != 0 && !strstr(p.out, row))
            missing = i;
    }
    t_proc_free(&p);
    CHECK(agreed);
    CHECKF(missing < 0, "no row for %s", nq_engine_name(nq_engine_at(missing)));
}

/* ---- pictures and JSON ---- */

/* Read "a b c ..." (n numbers) at s; 0 on success. */
static int read_cols(const char *s, int *cols, int n, char sep)
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

/* Boards read back from a listing: valid, distinct (strictly increasing,
 * as solve lists them), as many as expected. */
typedef struct {
    int n, count, prev[NQ_MAX_N], bad;
} board_reader;

static void reader_add(board_reader *r, const int *cols)
{
    int greater = r->count == 0;
    for (int i = 0; i < r->n && !greater; i++)
        if (cols[i] != r->prev[i]) {
            greater = cols[i] > r->prev[i];
            break;
        }
    if (!own_valid(cols, r->n) || !greater)
        r->bad++;
    memcpy(r->prev, cols, sizeof *cols * (size_t)r->n);
    r->count++;
}

static void solve_json(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("solve", "8", "--format", "json"));
    T_BAIL();
    board_reader r = {.n = 8};
    int cols[8], framed = strncmp(p.out, "{\"n\":8,\"solutions\":[", 20) == 0 &&
                          strstr(p.out, "],\"count\":92}\n") != NULL;
    for (const char *s = strstr(p.out, "\n["); s; s = strstr(s + 1, "\n["))
        if (read_cols(s + 2, cols, 8, ',') == 0)
            reader_add(&r, cols);
        else
            r.bad++;
    t_proc_free(&p);
    CHECK(framed);
    CHECKF(r.count == 92 && r.bad == 0, "%d boards, %d bad", r.count, r.bad);
}

/* An SVG of boards: well-formed; each board's title gives its array, and
 * its queens stand where the array says (x = margin + column * square). */
static void check_svg_boards(const char *svg, int n, int expect)
{
    char why[128];
    CHECKF(t_xml_check(svg, why, sizeof why) == 0, "not well-formed: %s", why);
    board_reader r = {.n = n};
    int cols[NQ_MAX_N], misplaced = 0;
    for (const char *s = strstr(svg, "<title>#"); s;
         s = strstr(s + 1, "<title>#")) {
        const char *colon = strchr(s, ':');
        if (!colon || read_cols(colon + 2, cols, n, ' ') != 0) {
            r.bad++;
            continue;
        }
        reader_add(&r, cols);
        const char *q = s;
        for (int row = 0; row < n; row++) {
            int x, y, sq;
            q = strstr(q + 1, "<use xlink:href=\"#queen\"");
            if (!q || sscanf(q, "<use xlink:href=\"#queen\" x=\"%d\" y=\"%d\" "
                             "width=\"%d\"", &x, &y, &sq) != 3 ||
                x - cols[row] * sq != y - row * sq)
                misplaced++;
        }
    }
    CHECKF(r.count == expect && r.bad == 0 && misplaced == 0,
           "%d boards, %d bad, %d queens misplaced", r.count, r.bad, misplaced);
}

static void solve_svg(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("solve", "6", "--format", "svg"));
    T_BAIL();
    check_svg_boards(p.out, 6, 4);
    t_proc_free(&p);
    T_BAIL();
    run_ok(&p, ARGS("solve", "10", "--format", "svg", "--limit", "30"));
    T_BAIL();
    check_svg_boards(p.out, 10, 30);
    t_proc_free(&p);
    T_BAIL();
    run_ok(&p, ARGS("solve", "3", "--format", "svg"));
    T_BAIL();
    check_svg_boards(p.out, 3, 0);
    t_proc_free(&p);
}

/* Over 1000 boards is refused before anything is written. */
static void solve_svg_too_many(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("solve", "12", "--format", "svg")) == 0);
    int ok = p.exit_code == 2 && p.out_len == 0 && strstr(p.err, "--limit");
    t_proc_free(&p);
    CHECK(ok);
}

/* The XML checker itself refuses what it should. */
static void xml_checker(void *arg)
{
    (void)arg;
    static const char *const good[] = {
        "<a/>", "<?xml version=\"1.0\"?>\n<a x='1' y=\"&amp;\">t&lt;</a>\n",
        "<!DOCTYPE a [<!ENTITY x \"y\">]><a><!-- c --><b/><![CDATA[<]]></a>",
    };
    static const char *const bad[] = {
        "", "<a>", "<a></b>", "<a/><b/>", "<a x=1/>", "<a x='1' x='2'/>",
        "<a>&nope;</a>", "<a><</a>", "text<a/>", "<a x='<'/>", "<a><!-- x</a>",
        "<a><b></a></b>",
    };
    char why[128];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECKF(t_xml_check(good[i], why, sizeof why) == 0, "refused %s: %s",
               good[i], why);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(t_xml_check(bad[i], why, sizeof why) != 0, "accepted '%s'",
               bad[i]);
}

/* ---- find ---- */

typedef struct {
    int lo, hi, step;
    nq_find_method method;
    int seeds;
} find_case;

static void find_range(void *arg)
{
    const find_case *fc = arg;
    int *cols = malloc(sizeof *cols * (size_t)fc->hi);
    CHECK(cols);
    int failed = 0;
    for (int n = fc->lo; n <= fc->hi && !failed; n += fc->step)
        for (int s = 0; s < fc->seeds && !failed; s++) {
            nq_status st = nq_find_solution(n, fc->method, (uint64_t)s, cols);
            if (n == 2 || n == 3)
                failed = st != NQ_ERR_NOSOLUTION ? n : 0;
            else
                failed = st != NQ_OK || !own_valid(cols, n) ? n : 0;
        }
    free(cols);
    CHECKF(!failed, "N=%d: no valid solution", failed);
}

/* Different seeds, different solutions; the same seed, the same one. */
static void find_seeds(void *arg)
{
    (void)arg;
    int a[64], b[64], c[64];
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 1, a) == NQ_OK);
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 1, b) == NQ_OK);
    CHECK(nq_find_solution(64, NQ_FIND_SEARCH, 2, c) == NQ_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
}

/* The library's own O(n) check refuses broken large placements. */
static void large_check_refuses(void *arg)
{
    (void)arg;
    enum { N = 1000 };
    int cols[N];
    CHECK(nq_find_solution(N, NQ_FIND_FORMULA, 0, cols) == NQ_OK);
    CHECK(nq_check_placement(cols, N) == NQ_OK);
    int t = cols[10];
    cols[10] = cols[500]; /* two in one column */
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
    cols[10] = t, cols[11] = cols[10] + 1; /* a diagonal (maybe a column) */
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
    cols[11] = N;
    CHECK(nq_check_placement(cols, N) == NQ_ERR_INVALID);
}

/* find on the command line: the array read back and checked here. */
static void find_cli(void *arg)
{
    const char *method = arg;
    t_proc p;
    run_ok(&p, ARGS("find", "100000", "--method", method));
    T_BAIL();
    int *cols = malloc(sizeof *cols * 100000);
    int ok = cols && read_cols(p.out, cols, 100000, ' ') == 0 &&
             own_valid(cols, 100000);
    free(cols);
    t_proc_free(&p);
    CHECK(ok);
}

static void find_cli_verify_and_none(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("find", "1000", "--verify")) == 0);
    int ok = p.exit_code == 0 && strstr(p.err, "verified: 1000 queens");
    t_proc_free(&p);
    CHECK(ok);
    CHECK(t_run_cli(&p, ARGS("find", "3")) == 0);
    ok = p.exit_code == 1 && p.out_len == 0 &&
         strstr(p.err, "no solution exists");
    t_proc_free(&p);
    CHECK(ok);
    run_ok(&p, ARGS("find", "12", "--format", "svg", "--method", "search"));
    T_BAIL();
    check_svg_boards(p.out, 12, 1);
    t_proc_free(&p);
}

/* ---- complete ---- */

typedef struct {
    const int *given;
    unsigned long long match;
} filter;

static int keep_matching(void *ctx, const int *cols, int n)
{
    filter *f = ctx;
    int ok = 1;
    for (int r = 0; r < n && ok; r++)
        ok = f->given[r] < 0 || f->given[r] == cols[r];
    f->match += (unsigned long long)ok;
    return 0;
}

/* Listed completions: valid, keeping the givens, in increasing order. */
typedef struct {
    const int *given;
    board_reader r;
    int lost_given;
} completion_check;

static int check_completion(void *ctx, const int *cols, int n)
{
    completion_check *cc = ctx;
    for (int r = 0; r < n; r++)
        cc->lost_given += cc->given[r] >= 0 && cc->given[r] != cols[r];
    reader_add(&cc->r, cols);
    return 0;
}

/* Random partial placements on N = 8..12 (attacking ones drawn again):
 * the count, on 1 and 3 threads, and the listing agree with the solutions
 * of the whole board filtered by the givens. */
static void completion_counts(void *arg)
{
    (void)arg;
    unsigned seed = 12345;
    for (int trial = 0; trial < 60; trial++) {
        int n = 8 + trial % 5, given[NQ_MAX_N];
        for (int r = 0; r < n; r++)
            given[r] = -1;
        for (int k = trial % 4; k > 0; k--) {
            seed = seed * 1103515245u + 12345u;
            int r = (int)(seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            given[r] = (int)(seed >> 8) % n;
        }
        filter f = {given, 0};
        nq_request all = {.n = n, .engine = "bitmap"};
        nq_counts full, c1, c3;
        CHECK(nq_enumerate_solutions(&all, keep_matching, &f, &full) == NQ_OK);
        nq_request one = {.n = n, .threads = 1}, three = {.n = n, .threads = 3};
        nq_status st = nq_count_completions(&one, given, &c1);
        if (st == NQ_ERR_INVALID) {
            CHECKF(f.match == 0, "trial %d: valid givens refused", trial);
            continue;
        }
        CHECK(st == NQ_OK);
        CHECK(nq_count_completions(&three, given, &c3) == NQ_OK);
        completion_check cc = {given, {.n = n}, 0};
        nq_u128 listed;
        CHECK(nq_enumerate_completions(n, given, check_completion, &cc,
                                       &listed) == NQ_OK);
        CHECKF(c1.total == f.match && c3.total == f.match &&
               listed == f.match && (nq_u128)cc.r.count == f.match,
               "trial %d (N=%d): %llu counted, %llu listed, %llu filtered",
               trial, n, (unsigned long long)c1.total,
               (unsigned long long)listed, f.match);
        CHECKF(cc.r.bad == 0 && cc.lost_given == 0, "trial %d: bad listing",
               trial);
    }
}

/* No givens: every solution is a completion (OEIS). */
static void completion_of_nothing(void *arg)
{
    (void)arg;
    for (int n = 1; n <= 14; n++) {
        int given[NQ_MAX_N];
        for (int r = 0; r < n; r++)
            given[r] = -1;
        nq_request req = {.n = n, .threads = 2};
        nq_counts c;
        CHECK(nq_count_completions(&req, given, &c) == NQ_OK);
        CHECKF(c.total == t_oeis_total(n), "N=%d", n);
    }
}

static void completion_refusals(void *arg)
{
    (void)arg;
    int attack[8] = {0, -1, 2, -1, -1, -1, -1, -1};
    int off[8] = {8, -1, -1, -1, -1, -1, -1, -1};
    nq_request req = {.n = 8};
    nq_counts c;
    CHECK(nq_count_completions(&req, attack, &c) == NQ_ERR_INVALID);
    CHECK(nq_enumerate_completions(8, attack, NULL, NULL, NULL) ==
          NQ_ERR_INVALID);
    CHECK(nq_count_completions(&req, off, &c) == NQ_ERR_ARG);
}

static void complete_cli(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("complete", "8", "--given", "0:0"));
    T_BAIL();
    int four = strncmp(p.out, "4 completions", 13) == 0;
    t_proc_free(&p);
    CHECK(four);
    run_ok(&p, ARGS("complete", "10", "--given", "0:1,4:0", "--all"));
    T_BAIL();
    int given[10] = {1, -1, -1, -1, 0, -1, -1, -1, -1, -1};
    completion_check cc = {given, {.n = 10}, 0};
    int cols[10];
    for (const char *s = p.out; *s; s = strchr(s, '\n') + 1)
        if (read_cols(s, cols, 10, ' ') == 0)
            check_completion(&cc, cols, 10);
        else
            cc.r.bad++;
    t_proc_free(&p);
    nq_u128 want;
    CHECK(nq_enumerate_completions(10, given, NULL, NULL, &want) == NQ_OK);
    CHECKF((nq_u128)cc.r.count == want && cc.r.bad == 0 && !cc.lost_given,
           "%d listed, %d bad", cc.r.count, cc.r.bad);
    CHECK(t_run_cli(&p, ARGS("complete", "8", "--given", "0:0,1:2",
                             "--first")) == 0);
    int none = p.exit_code == 1 && strstr(p.err, "no completion");
    t_proc_free(&p);
    CHECK(none);
}

void tests_explore(void)
{
    static const event_engine events[] = {
        {"brute", 6, 1},   {"backtrack", 8, 1}, {"flags", 8, 1},
        {"bitmap", 9, 1},  {"mirror", 9, 0},    {"symmetry", 9, 0},
    };
    static const find_case finds[] = {
        {1, 200, 1, NQ_FIND_FORMULA, 1},
        {1, 200, 1, NQ_FIND_SEARCH, 3},
        {1000000, 1000000, 1, NQ_FIND_FORMULA, 1},
        {10000000, 10000000, 1, NQ_FIND_FORMULA, 1},
        {9999999, 9999999, 1, NQ_FIND_FORMULA, 1},
        {100000, 100000, 1, NQ_FIND_SEARCH, 2},
        {1000000, 1000000, 1, NQ_FIND_SEARCH, 1},
    };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        t_case(events_agree, (void *)&events[i], "explore/events/%s",
               events[i].engine);
    t_case(backtrack_tree_size, NULL, "explore/backtrack-tree-vs-A319235");
    t_case(trace_matches_textbook, NULL, "explore/trace-4-as-seed-003");
    t_case(tree_text, NULL, "explore/tree-text-4..8");
    t_case(tree_forms_agree, "backtrack", "explore/tree-iterative/backtrack");
    t_case(tree_forms_agree, "symmetry", "explore/tree-iterative/symmetry");
    t_case(tree_forms_agree, "brute", "explore/tree-iterative/brute");
    t_case(tree_depth, NULL, "explore/tree-depth");
    t_case(tree_dot, NULL, "explore/tree-dot");
    t_case(tree_svg, NULL, "explore/tree-svg");
    t_case(trace_summary, NULL, "explore/trace-summary");
    t_case(trace_flags_lines, NULL, "explore/trace-flags-lines");
    t_case(compare_table, NULL, "explore/compare");
    t_case(xml_checker, NULL, "explore/xml-checker");
    t_case(solve_json, NULL, "explore/solve-json");
    t_case(solve_svg, NULL, "explore/solve-svg");
    t_case(solve_svg_too_many, NULL, "explore/solve-svg-too-many");
    for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++)
        t_case(find_range, (void *)&finds[i], "explore/find/%s/%d..%d",
               finds[i].method == NQ_FIND_SEARCH ? "search" : "formula",
               finds[i].lo, finds[i].hi);
    t_case(find_seeds, NULL, "explore/find-seeds");
    t_case(large_check_refuses, NULL, "explore/large-check-refuses");
    t_case(find_cli, "formula", "explore/find-cli/formula");
    t_case(find_cli, "search", "explore/find-cli/search");
    t_case(find_cli_verify_and_none, NULL, "explore/find-cli-verify-none-svg");
    t_case(completion_counts, NULL, "explore/complete-vs-filtered");
    t_case(completion_of_nothing, NULL, "explore/complete-nothing-given");
    t_case(completion_refusals, NULL, "explore/complete-refusals");
    t_case(complete_cli, NULL, "explore/complete-cli");
}

/*
 * test_trace_html.c - `nqueens trace --format html`, the page to step
 * through (trace_html/).
 *
 * The page is checked against the text output, not against itself: every
 * step's line as `trace` prints it must be in the page's data, in order,
 * one record a step; the page must need no network; the bad requests are
 * usage errors.  Then a real browser (tests/browser/walk.mjs, headless
 * Chromium driven by node over the DevTools pipe) opens the pages and
 * compares the board shown with the board the text trace leaves at each
 * step it tries, for every teaching engine at N = 4..6 and a --compare
 * page; without node or Chromium that case is skipped, never passed.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The engines that report their steps, the teaching series. */
static const char *const teaching[] = {"brute", "backtrack", "flags",
                                       "bitmap", "mirror", "symmetry"};
#define TEACHING (int)(sizeof teaching / sizeof teaching[0])

/* The page's own records of steps: lines that start "[" and a digit.
 * (A plain walk: strstr over a page of megabytes, once a step, is slow
 * under AddressSanitizer, which measures the whole haystack each call.) */
static size_t step_records(const char *page)
{
    size_t k = 0;
    for (const char *s = page; *s; s++)
        k += s[0] == '\n' && s[1] == '[' && s[2] >= '0' && s[2] <= '9';
    return k;
}

/* line as the page quotes it: a JavaScript string, with '"', '\' and '<'
 * escaped (the page writes '<' as \u003c). */
static void quoted(const char *line, size_t len, char *out, size_t size)
{
    size_t k = 0;
    out[k++] = '"';
    for (size_t i = 0; i < len && k + 8 < size; i++) {
        if (line[i] == '"' || line[i] == '\\')
            out[k++] = '\\', out[k++] = line[i];
        else if (line[i] == '<')
            k += (size_t)snprintf(out + k, size - k, "\\u003c");
        else
            out[k++] = line[i];
    }
    out[k++] = '"';
    out[k] = '\0';
}

/* want in the next `window` bytes at from (before end); NULL if not. */
static const char *found_soon(const char *from, const char *end,
                              const char *want, size_t window)
{
    size_t left = (size_t)(end - from);
    return memmem(from, left < window ? left : window, want, strlen(want));
}

/* Each step line of a text trace ("  12  place ...") found in the page
 * in order from *from, which is moved past the last, each within a few
 * kilobytes of the one before (a record a step, nothing between); how
 * many, or -1 at the first one missing. */
static long lines_in_order(const char *text, const char **from)
{
    const char *end = *from + strlen(*from);
    long count = 0;
    char want[1024];
    for (const char *s = strchr(text, '\n'); s && s[1]; s = strchr(s, '\n')) {
        const char *line = ++s;
        size_t len = strcspn(line, "\n");
        size_t lead = strspn(line, " ");
        if (line[lead] < '0' || line[lead] > '9' || line[0] != ' ')
            continue; /* the title and the summary */
        quoted(line, len, want, sizeof want);
        const char *at = found_soon(*from, end, want,
                                    count ? 4096 : (size_t)(end - *from));
        if (!at)
            return -1;
        *from = at + strlen(want);
        count++;
    }
    return count;
}

/* The page of engine's walk at N (more args after), run and captured;
 * a failure unless it exits 0. */
static void page_of(t_proc *p, const char *const *args)
{
    CHECKF(t_run_cli(p, args) == 0, "could not run %s", getenv("NQ_CLI"));
    CHECKF(p->exit_code == 0, "exit %d, stderr: %s", p->exit_code, p->err);
}

/* Needs nothing from outside: no address with a scheme, no src=, no
 * stylesheet or script to fetch; one document, the data put in. */
static void self_contained(void *arg)
{
    (void)arg;
    for (int i = 0; i < TEACHING; i++) {
        t_proc p;
        page_of(&p, ARGS("trace", "5", "--engine", teaching[i], "--format",
                         "html"));
        T_BAIL();
        int ok = strncmp(p.out, "<!DOCTYPE html>", 15) == 0 &&
                 strstr(p.out, "</html>\n") &&
                 !strstr(p.out, "http://") && !strstr(p.out, "https://") &&
                 !strstr(p.out, "src=") && !strstr(p.out, "@import") &&
                 !strstr(p.out, "url(") && !strstr(p.out, "@WALKS@") &&
                 strstr(p.out, "let WALKS = [{\"engine\":");
        t_proc_free(&p);
        CHECKF(ok, "%s: the page is not one self-contained document",
               teaching[i]);
    }
}

/* Every step's line, exactly as the text trace prints it, in order, a
 * record a step, and the summary line; for each teaching engine at N =
 * 4..6 (brute's to the page's cap), and the iterative forms. */
static void lines_match_text(void *arg)
{
    const char *iterative = arg;
    for (int i = 0; i < TEACHING; i++)
        for (int n = 4; n <= 6; n++) {
            char ns[12];
            snprintf(ns, sizeof ns, "%d", n);
            t_proc text, page;
            t_run_ok(&text, ARGS("trace", ns, "--engine", teaching[i],
                                 "--limit", "50000", iterative));
            T_BAIL();
            page_of(&page, ARGS("trace", ns, "--engine", teaching[i],
                                "--format", "html", iterative));
            if (t_failed()) {
                t_proc_free(&text);
                return;
            }
            const char *from = page.out;
            long found = lines_in_order(text.out, &from);
            size_t records = step_records(page.out);
            const char *summary = strrchr(text.out, '\n');
            while (summary > text.out && summary[-1] != '\n')
                summary--;
            /* the same counts; why it stopped is said apiece (by
             * --limit here, at the page's own cap there) */
            const char *why = strstr(summary, " (stopped");
            char want[256];
            quoted(summary, why ? (size_t)(why - summary)
                                : strcspn(summary, "\n"), want, sizeof want);
            want[strlen(want) - (why != NULL)] = '\0';
            int has_summary = strstr(page.out, want) != NULL;
            t_proc_free(&text);
            t_proc_free(&page);
            CHECKF(found > 0 && (size_t)found == records, "%s N=%d: %ld of "
                   "%zu step lines found in order", teaching[i], n, found,
                   records);
            CHECKF(has_summary, "%s N=%d: no summary line", teaching[i], n);
        }
}

/* --compare: both walks, the first's lines then the second's, each
 * exactly as its own text trace prints them. */
static void compare_both(void *arg)
{
    (void)arg;
    t_proc a, b, page;
    t_run_ok(&a, ARGS("trace", "6", "--engine", "flags"));
    T_BAIL();
    t_run_ok(&b, ARGS("trace", "6", "--engine", "symmetry"));
    T_BAIL();
    page_of(&page, ARGS("trace", "6", "--engine", "flags", "--compare",
                        "symmetry", "--format", "html"));
    T_BAIL();
    const char *from = page.out;
    long first = lines_in_order(a.out, &from);
    long second = first > 0 ? lines_in_order(b.out, &from) : -1;
    size_t records = step_records(page.out);
    t_proc_free(&a);
    t_proc_free(&b);
    t_proc_free(&page);
    CHECKF(first == 1050 && second == 93 && records == 1050 + 93,
           "flags then symmetry: %ld and %ld lines, %zu records", first,
           second, records);
}

/* The cap: 50,000 steps unless --limit says, said on stderr and in the
 * page's data. */
static void capped(void *arg)
{
    (void)arg;
    t_proc p;
    page_of(&p, ARGS("trace", "8", "--engine", "brute", "--format", "html"));
    T_BAIL();
    int ok = step_records(p.out) == 50000 && strstr(p.out, "\"capped\":1") &&
             strstr(p.err, "first 50000 steps") && strstr(p.err, "--limit");
    t_proc_free(&p);
    CHECKF(ok, "the default cap is not 50000 steps, said");
    page_of(&p, ARGS("trace", "6", "--format", "html", "--limit", "30"));
    T_BAIL();
    ok = step_records(p.out) == 30 && strstr(p.out, "\"capped\":1") &&
         strstr(p.err, "first 30 steps");
    t_proc_free(&p);
    CHECKF(ok, "--limit 30 does not cap the page at 30 steps, said");
    page_of(&p, ARGS("trace", "4", "--format", "html"));
    T_BAIL();
    char said[128];
    snprintf(said, sizeof said, "nqueens trace: wrote a page of 78 steps "
             "(%zu bytes)\n", p.out_len);
    ok = strstr(p.out, "\"capped\":0") && strcmp(p.err, said) == 0;
    t_proc_free(&p);
    CHECKF(ok, "a whole walk is said to be capped, or not said as written");
}

/* Usage errors: one line on stderr, nothing on stdout, exit 2. */
static void usage_errors(void *arg)
{
    (void)arg;
    static const char *const bad[][8] = {
        {"trace", "4", "--compare", "bitmap", NULL},
        {"trace", "4", "--format", "html", "--compare", "nosuch", NULL},
        {"trace", "4", "--format", "html", "--compare", "fast", NULL},
        {"trace", "0", "--format", "html", NULL},
        {"trace", "33", "--format", "html", NULL},
        {"trace", "4", "--format", "pdf", NULL},
        {"trace", "4", "--format", "html", "--json", NULL},
        {"trace", "4", "--format", "json", "--compare", "flags", NULL},
        {"trace", "4", "--force", NULL},
        {"trace", "4", "--json", "--force", NULL},
        {"trace", "4", "--format", "text", "--force", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, bad[i]) == 0);
        const char *nl = strchr(p.err, '\n');
        int ok = p.exit_code == 2 && p.out_len == 0 &&
                 strncmp(p.err, "nqueens: ", 9) == 0 && nl && !nl[1];
        t_proc_free(&p);
        CHECKF(ok, "case %zu (%s %s %s %s): not one usage error", i,
               bad[i][2], bad[i][3], bad[i][4] ? bad[i][4] : "",
               bad[i][5] ? bad[i][5] : "");
    }
}

/* ---- the engines' own state in the page's data ---- */

/* One step record of the page as read back: its event, and the numbers
 * of its state (5 for the masks, 1 for a solution's weight, 0 for none,
 * -1 for the flags engine's string). */
typedef struct {
    int kind, row, col, nstate;
    unsigned long state[5];
} page_step;

/* Past the JavaScript string at s (its escapes skipped); NULL if s is
 * not one. */
static const char *past_string(const char *s)
{
    if (*s++ != '"')
        return NULL;
    for (; *s && *s != '"'; s++)
        if (*s == '\\' && s[1])
            s++;
    return *s ? s + 1 : NULL;
}

/* The state after the record's text: [a,b,...], a number, a string or
 * nothing, up to the record's closing bracket; 0 if it is read. */
static int read_state(const char *s, page_step *st)
{
    char *end;
    st->nstate = 0;
    if (*s == ']')
        return 0;
    if (*s++ != ',')
        return -1;
    if (*s == '"') {
        st->nstate = -1;
        s = past_string(s);
        return s && *s == ']' ? 0 : -1;
    }
    int list = *s == '[';
    s += list;
    do {
        if (st->nstate == 5 || *s < '0' || *s > '9')
            return -1;
        st->state[st->nstate++] = strtoul(s, &end, 10);
        s = end;
    } while (list && *s == ',' && s++);
    return (!list || *s++ == ']') && *s == ']' ? 0 : -1;
}

/* The record at s ("[kind,row,col,byRow,reason,"queens","text",state]")
 * into *st; 0 if it is one. */
static int read_record(const char *s, page_step *st)
{
    int by, used = 0;
    unsigned reason;
    if (sscanf(s, "[%d,%d,%d,%d,%u,%n", &st->kind, &st->row, &st->col, &by,
               &reason, &used) != 5 || !used)
        return -1;
    s = past_string(s + used);
    if (!s || *s++ != ',' || !(s = past_string(s)))
        return -1;
    return read_state(s, st);
}

/* Every step record of a page, in order, into a new array (*count of
 * them); NULL if one cannot be read. */
static page_step *page_steps(const char *page, size_t *count)
{
    size_t k = step_records(page), i = 0;
    page_step *steps = calloc(k ? k : 1, sizeof *steps);
    for (const char *s = page; steps && *s; s++)
        if (s[0] == '\n' && s[1] == '[' && s[2] >= '0' && s[2] <= '9' &&
            (i == k || read_record(s + 1, &steps[i++]) != 0)) {
            free(steps);
            return NULL;
        }
    *count = i;
    return steps;
}

/* The events of a walk, as the library reports them. */
typedef struct {
    page_step *ev;
    size_t count, cap;
} walk_log;

/* nq_walk_search callback: each event kept with its masks, as the page
 * should hold them. */
static int keep_event(void *ctx, const nq_event *e)
{
    walk_log *l = ctx;
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        page_step *ne = realloc(l->ev, cap * sizeof *ne);
        if (!ne)
            return 1;
        l->ev = ne, l->cap = cap;
    }
    l->ev[l->count++] = (page_step){(int)e->kind, e->row, e->col, 5,
                                    {e->down, e->left, e->right, e->untried,
                                     e->ruled}};
    return 0;
}

/* A page's steps against the library's own walk of the same engine:
 * the same events, each placement and removal with [down, left, right,
 * untried, ruled], each solution with its weight, the weights adding up
 * to the board's total over as many classes as OEIS has. */
static void page_against_walk(const char *engine, int n, int iterative,
                              const char *page)
{
    walk_log l = {0};
    size_t count = 0, bad = 0;
    unsigned long long weights = 0, classes = 0;
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative};
    nq_status st = nq_walk_search(&req, keep_event, &l);
    page_step *steps = page_steps(page, &count);
    for (size_t i = 0; steps && st == NQ_OK && i < count && !bad; i++) {
        const page_step *p = &steps[i], *e = i < l.count ? &l.ev[i] : NULL;
        int masked = p->kind == NQ_EVENT_PLACE || p->kind == NQ_EVENT_REMOVE;
        if (!e || p->kind != e->kind || p->row != e->row || p->col != e->col ||
            (masked && (p->nstate != 5 ||
                        memcmp(p->state, e->state, sizeof p->state))) ||
            (p->kind == NQ_EVENT_SOLUTION && p->nstate != 1))
            bad = i + 1;
        else if (p->kind == NQ_EVENT_SOLUTION)
            weights += p->state[0], classes += p->state[0] != 0;
    }
    size_t events = l.count;
    free(l.ev);
    free(steps);
    CHECKF(st == NQ_OK && steps, "%s N=%d: walk failed or page unread",
           engine, n);
    CHECKF(!bad && count == events, "%s N=%d%s: step %zu of %zu (%zu "
           "events) is not its event", engine, n, iterative ? " iterative" : "",
           bad, count, events);
    CHECKF((nq_u128)weights == t_oeis_total(n) &&
           (nq_u128)classes == t_oeis_unique(n), "%s N=%d: solutions weigh "
           "%llu in %llu classes", engine, n, weights, classes);
}

/* bitmap, mirror and symmetry at N = 4..8, both forms: the page's data
 * holds each step's masks, what is still to try and what the engine
 * rules out, exactly as the library reported them. */
static void page_masks(void *arg)
{
    const char *engine = arg;
    for (int iterative = 0; iterative <= 1; iterative++)
        for (int n = 4; n <= 8; n++) {
            char ns[12];
            t_proc p;
            snprintf(ns, sizeof ns, "%d", n);
            page_of(&p, ARGS("trace", ns, "--engine", engine, "--format",
                             "html", iterative ? "--iterative" : NULL));
            T_BAIL();
            page_against_walk(engine, n, iterative, p.out);
            t_proc_free(&p);
            T_BAIL();
        }
}

/* A solution step's state is its weight for every engine, the flags
 * engine too (whose other steps carry its arrays). */
static void solution_weights(void *arg)
{
    (void)arg;
    t_proc p;
    page_of(&p, ARGS("trace", "6", "--engine", "flags", "--format", "html"));
    T_BAIL();
    size_t count = 0, solutions = 0, arrays = 0;
    unsigned long weights = 0;
    page_step *steps = page_steps(p.out, &count);
    for (size_t i = 0; steps && i < count; i++) {
        solutions += steps[i].kind == NQ_EVENT_SOLUTION &&
                     steps[i].nstate == 1;
        weights += steps[i].kind == NQ_EVENT_SOLUTION ? steps[i].state[0] : 0;
        arrays += steps[i].kind == NQ_EVENT_PLACE && steps[i].nstate == -1;
    }
    free(steps);
    t_proc_free(&p);
    CHECKF(solutions == 4 && weights == 4 && arrays > 0, "flags N=6: %zu "
           "solutions weighing %lu, %zu placements with arrays", solutions,
           weights, arrays);
}

/* The walk object's "total" and "unique": the engine's own count, as
 * OEIS has it, for a whole walk; absent from a capped one. */
static void page_counts(void *arg)
{
    (void)arg;
    static const char *const engines[] = {"mirror", "symmetry", "bitmap",
                                          "backtrack"};
    for (int i = 0; i < 4; i++)
        for (int n = 6; n <= 8; n += 2) {
            char ns[12], want[128], total[NQ_U128_DIGITS],
                unique[NQ_U128_DIGITS];
            t_proc p;
            snprintf(ns, sizeof ns, "%d", n);
            page_of(&p, ARGS("trace", ns, "--engine", engines[i], "--format",
                             "html"));
            T_BAIL();
            snprintf(want, sizeof want, "\"capped\":0,\"limit\":50000,"
                     "\"total\":\"%s\",\"unique\":\"%s\",",
                     nq_format_u128(t_oeis_total(n), total),
                     nq_format_u128(t_oeis_unique(n), unique));
            int ok = strstr(p.out, want) != NULL;
            t_proc_free(&p);
            CHECKF(ok, "%s N=%d: no %s", engines[i], n, want);
        }
    t_proc p;
    page_of(&p, ARGS("trace", "8", "--engine", "mirror", "--format", "html",
                     "--limit", "30"));
    T_BAIL();
    /* the keys, with their colons: the page's script says "unique" too */
    int absent = strstr(p.out, "\"capped\":1") &&
                 !strstr(p.out, "\"total\":") && !strstr(p.out, "\"unique\":");
    t_proc_free(&p);
    CHECKF(absent, "a capped walk has a total or unique");
}

/* A page over 20 MiB is refused whole without --force (exit 2, nothing
 * on stdout, one line naming its size, --limit and --force), and written
 * with it, said on stderr with its steps and bytes. */
static void size_guard(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("trace", "8", "--engine", "brute", "--limit",
                             "400000", "--format", "html")) == 0);
    const char *nl = strchr(p.err, '\n');
    int refused = p.exit_code == 2 && p.out_len == 0 && nl && !nl[1] &&
                  strncmp(p.err, "nqueens: trace: the page would be ", 34) == 0 &&
                  strstr(p.err, " MiB (400000 steps), over the 20 MiB limit") &&
                  strstr(p.err, "--limit K") && strstr(p.err, "--force");
    if (!refused)
        t_fail(__FILE__, __LINE__, "not refused: exit %d, %zu bytes out, "
               "stderr: %s", p.exit_code, p.out_len, p.err);
    t_proc_free(&p);
    T_BAIL();
    page_of(&p, ARGS("trace", "8", "--engine", "brute", "--limit", "400000",
                     "--format", "html", "--force"));
    T_BAIL();
    char said[128];
    snprintf(said, sizeof said, "\nnqueens trace: wrote a page of 400000 "
             "steps (%zu bytes)\n", p.out_len);
    int written = p.out_len > (size_t)20 << 20 &&
                  step_records(p.out) == 400000 &&
                  strcmp(p.out + p.out_len - 8, "</html>\n") == 0 &&
                  p.err_len > strlen(said) &&
                  strcmp(p.err + p.err_len - strlen(said), said) == 0;
    t_proc_free(&p);
    CHECKF(written, "--force does not write the whole page, said");
}

/* With --compare the line says both walks' steps. */
static void compare_said(void *arg)
{
    (void)arg;
    t_proc p;
    page_of(&p, ARGS("trace", "6", "--engine", "flags", "--compare",
                     "symmetry", "--format", "html"));
    T_BAIL();
    char said[128];
    snprintf(said, sizeof said, "nqueens trace: wrote a page of 1050 + 93 "
             "steps (%zu bytes)\n", p.out_len);
    int ok = strcmp(p.err, said) == 0;
    t_proc_free(&p);
    CHECKF(ok, "not said as written with both walks' steps");
}

/* ---- in a real browser (tests/browser_util.c) ---- */

/* One engine's pages at N = 4..6 in headless Chromium: the board shown
 * after #step=K and after K presses of the step key matches the board
 * the text trace leaves; no console errors; a screenshot each. */
static void in_browser(void *arg)
{
    const char *engine = arg;
    char chromium[4096], node[4096], dir[4096];
    if (t_browser_tools(node, chromium, sizeof node) != 0)
        return;
    t_proc p;
    CHECK(t_run_signalled(&p, "node", ARGS("node", "tests/browser/walk.mjs",
                          "--cli", getenv("NQ_CLI"), "--chromium", chromium,
                          "--engine", engine, "--out",
                          t_browser_dir(dir, sizeof dir)), 0, 0) == 0);
    t_browser_script(&p, "ok ");
}

/* A part of the teaching checks (tests/browser/teach.mjs): its groups,
 * and the engine whose pages it keeps (NULL: all). */
typedef struct {
    const char *groups, *engine, *name;
} teach_part;

/* Issue 37's teaching checks and the page's defects' (tests/browser/
 * teach.mjs), in parts that each fit the runner's 120 s per program: for
 * a teaching engine, its pages at many steps and its --compare pages
 * ("--case steps,compare --engine E"); the layouts, playing, controls,
 * tree, screenshots and the counts explained; the pairing by moment and
 * the lesson page's walks handed over in chunks; the numbering from 0 or
 * 1, Space, the phone and the glossed words. */
static void teaches_in_browser(void *arg)
{
    const teach_part *part = arg;
    char chromium[4096], node[4096], dir[4096];
    if (t_browser_tools(node, chromium, sizeof node) != 0)
        return;
    t_browser_dir(dir, sizeof dir);
    t_proc p;
    CHECK(t_run_signalled(&p, "node", ARGS("node", "tests/browser/teach.mjs",
                          "--cli", getenv("NQ_CLI"), "--chromium", chromium,
                          "--out", dir, "--case", part->groups,
                          part->engine ? "--engine" : NULL, part->engine),
                          0, 0) == 0);
    t_browser_script(&p, "ok teach.mjs");
}

void tests_trace_html(void)
{
    t_case(self_contained, NULL, "trace_html/self-contained");
    t_case(lines_match_text, NULL, "trace_html/lines-as-trace-prints-them");
    t_case(lines_match_text, "--iterative",
           "trace_html/lines-as-trace-prints-them/iterative");
    t_case(compare_both, NULL, "trace_html/compare");
    t_case(capped, NULL, "trace_html/capped");
    t_case(usage_errors, NULL, "trace_html/usage-errors");
    static const char *const masked[] = {"bitmap", "mirror", "symmetry"};
    for (int i = 0; i < 3; i++)
        t_case(page_masks, (void *)masked[i], "trace_html/masks/%s",
               masked[i]);
    t_case(solution_weights, NULL, "trace_html/solution-weights");
    t_case(page_counts, NULL, "trace_html/total-unique");
    t_full_case(size_guard, NULL, "trace_html/size-guard");
    t_case(compare_said, NULL, "trace_html/compare-said");
    for (int i = 0; i < TEACHING; i++)
        t_full_case_alone(in_browser, (void *)teaching[i],
                          "trace_html/browser/%s", teaching[i]);
    static teach_part engines[TEACHING];
    for (int i = 0; i < TEACHING; i++) {
        engines[i] = (teach_part){"steps,compare", teaching[i], teaching[i]};
        t_full_case_alone(teaches_in_browser, &engines[i],
                          "trace_html/browser/teach/%s", engines[i].name);
    }
    static const teach_part parts[] = {
        {"layout,play,controls,tree,shots,explain", NULL,
         "layout-play-controls-tree-shots-explain"},
        {"pairing,live", NULL, "pairing-live"},
        {"numbering,keys,phone,words", NULL, "numbering-keys-phone-words"},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        t_full_case_alone(teaches_in_browser, (void *)&parts[i],
                          "trace_html/browser/teach/%s", parts[i].name);
}

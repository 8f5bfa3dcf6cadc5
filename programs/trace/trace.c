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
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "trace.h"
#include "trace_html.h"
#include "trace_seed.h"
#include "trace_state.h"

static const char trace_help[] = N_(
    "usage: nqueens trace N [options]\n"
    "\n"
    "Print an engine's search of the N x N board step by step: each square\n"
    "tried (place), refused (reject, with what attacks it), each queen taken\n"
    "back (remove), each solution.  backtrack names the attacking queen;\n"
    "flags shows its arrays FA (columns), FB (row-col+N-1) and FC (row+col)\n"
    "before and after, as seed 003 does; bitmap shows the masks of the\n"
    "squares the queens above attack (down: their columns; down-right and\n"
    "down-left: their diagonals, named by the way they run on the board,\n"
    "column 0 first and on the left), the free squares they leave, which\n"
    "are all it ever tries, and the squares the node has still to try (\"to\n"
    "try\", the placed one first; on a removal, what comes next); mirror and\n"
    "symmetry also the squares their own rule rules out (\"ruled out\":\n"
    "mirror's halving, symmetry's conditions).\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens trace 4\n"
    "  nqueens trace 4 --style seed -l 12\n"
    "  nqueens trace 6 --format html --compare bitmap > walk.html\n");

/* Whether the step texts are for people (the text output), so in the
 * user's language; the JSON lines and the page quote them, and stay
 * English whatever the locale (cli_words). */
static int words(const trace *t)
{
    return !t->json && !t->page;
}

/* "  FA 0000 -> 1000": an array before and after the step. */
static void print_flags(FILE *out, const char *name, const char *before,
                        const char *after, int len)
{
    fprintf(out, "  %s ", name);
    for (int i = 0; i < len; i++)
        fputc('0' + before[i], out);
    fputs(" -> ", out);
    for (int i = 0; i < len; i++)
        fputc('0' + after[i], out);
}

/* Keep the flags engine's arrays after an event, for the next one. */
static void keep_flags(trace *t, const nq_event *e)
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
    print_flags(t->out, "FA", t->fa, e->col_flags, n);
    print_flags(t->out, "FB", t->fb, e->dif_flags, 2 * n - 1);
    print_flags(t->out, "FC", t->fc, e->sum_flags, 2 * n - 1);
    keep_flags(t, e);
}

/* A mask as 0s and 1s, column 0 first, as the board is read. */
static void print_mask(FILE *out, const char *name, uint32_t mask, int n)
{
    fprintf(out, "  %s ", name); /* the name as cli_words gives it */
    for (int c = 0; c < n; c++)
        fputc(mask >> c & 1 ? '1' : '0', out);
}

/* The bitmap engines' masks of the row, the free squares they leave, the
 * squares the engine's own rule rules out (mirror, symmetry: said only
 * where there are some) and those the node has still to try, the placed
 * one first: what the engine holds when it takes the square.  The
 * diagonal masks are named by the way they run on the board as printed,
 * column 0 first: the engines' `left` moves a bit to the next higher
 * column each row (<< 1), which is down and to the right. */
static void masks(const trace *t, const nq_event *e)
{
    uint32_t taken = e->down | e->left | e->right;
    /* TRANSLATORS: trace's names of the bitmap engines' masks: the
     * columns, the two diagonals (by the way they run on the board), the
     * squares left free, those the engine's own rule rules out, those
     * still to try */
    print_mask(t->out, cli_words(words(t), "down"), e->down, t->n);
    print_mask(t->out, cli_words(words(t), "down-right"), e->left, t->n);
    print_mask(t->out, cli_words(words(t), "down-left"), e->right, t->n);
    print_mask(t->out, cli_words(words(t), "free"), ~taken, t->n);
    if (e->ruled)
        print_mask(t->out, cli_words(words(t), "ruled out"), e->ruled, t->n);
    print_mask(t->out, cli_words(words(t), "to try"), e->untried, t->n);
}

/* The engines with no arrays or masks to show: the queens so far. */
static void print_queens(const trace *t, const nq_event *e, int k)
{
    fputs(cli_words(words(t), "  queens"), t->out);
    for (int i = 0; i < k; i++)
        fprintf(t->out, " %d", e->cols[i] + t->base);
}

/* Why a square was refused: the attacking queen, or the flags set. */
static void why_rejected(const trace *t, const nq_event *e)
{
    int r = e->row, c = e->col, n = t->n;
    if (e->by_row >= 0) {
        fprintf(t->out, cli_words(words(t), "  attacked by the queen at row "
                                  "%d col %d (%s)"),
                e->by_row + t->base, e->cols[e->by_row] + t->base,
                e->reason & NQ_BY_COLUMN
                    ? cli_words(words(t), "same column")
                    : cli_words(words(t), "same diagonal"));
        return;
    }
    if (e->reason & NQ_BY_COLUMN)
        fprintf(t->out, cli_words(words(t), "  FA[%d]=1 (column taken)"), c);
    if (e->reason & NQ_BY_DIF)
        fprintf(t->out, cli_words(words(t), "  FB[%d]=1 (diagonal row-col "
                                  "taken)"), r - c + n - 1);
    if (e->reason & NQ_BY_SUM)
        fprintf(t->out, cli_words(words(t), "  FC[%d]=1 (diagonal row+col "
                                  "taken)"), r + c);
}

/* The events' names, in the text and in the JSON alike. */
static const char *const event_names[] = {"place", "reject", "remove",
                                          "solution", "fail"};

/* An event's name in the text: the user's language's, padded to 8
 * columns (the JSON's "event" is always event_names'). */
static const char *event_word(const trace *t, int kind)
{
    /* TRANSLATORS: trace's step kinds, in an 8-column field: a queen
     * placed, a square refused, a queen taken back, a solution, a full
     * placement that fails (brute force) */
    static const char *const shown[] = {N_("place"), N_("reject"),
                                        N_("remove"), N_("solution"),
                                        N_("fail")};
    return cli_words(words(t), shown[kind]);
}

/* One line a step: its number, its kind, the square, and what the
 * engine consulted to decide (or the whole board, for a solution). */
static void print_step(trace *t, const nq_event *e)
{
    const char *kind = event_word(t, e->kind);
    fprintf(t->out, "%6llu  %-*s", (unsigned long long)t->steps,
            cli_field(kind, -8), kind);
    if (e->kind == NQ_EVENT_SOLUTION || e->kind == NQ_EVENT_FAIL) {
        fprintf(t->out, "  #%llu:", (unsigned long long)
                (e->kind == NQ_EVENT_SOLUTION ? t->solutions : t->fails));
        for (int i = 0; i < t->n; i++)
            fprintf(t->out, " %d", e->cols[i] + t->base);
        fputs(e->kind == NQ_EVENT_FAIL
                  ? cli_words(words(t), "  (queens attack each other)\n")
                  : "\n", t->out);
        return;
    }
    fprintf(t->out, cli_words(words(t), "  row %d col %d"), e->row + t->base,
            e->col + t->base);
    if (e->kind == NQ_EVENT_REJECT)
        why_rejected(t, e);
    else if (e->col_flags)
        flags_change(t, e);
    else if (e->has_masks && e->kind == NQ_EVENT_PLACE)
        masks(t, e);
    else if (e->has_masks) /* a removal: where the node goes next */
        print_mask(t->out, cli_words(words(t), "to try"), e->untried, t->n);
    else if (e->kind == NQ_EVENT_PLACE)
        print_queens(t, e, e->row + 1);
    fputc('\n', t->out);
}

/* The text written to the buffer since the last rewind, without the
 * blank line the seed style puts between steps or the final newline:
 * what the step's (or the summary's) JSON line quotes.  The buffer is
 * then rewound for the next step, so a walk of a million steps needs no
 * more memory than its longest step. */
static const char *take_text(trace *t)
{
    fputc('\0', t->out);
    fflush(t->out);
    rewind(t->out);
    char *s = t->text;
    size_t len = strlen(s);
    while (*s == '\n')
        s++, len--;
    while (len > 0 && s[len - 1] == '\n')
        s[--len] = '\0';
    return s;
}

/* The queens on the board once the step is done: a placement adds its
 * row, a rejection or removal leaves the rows above it, a solution or a
 * failed test (brute force) has every row filled. */
static int rows_after(const trace *t, const nq_event *e)
{
    switch (e->kind) {
    case NQ_EVENT_PLACE:
        return e->row + 1;
    case NQ_EVENT_REJECT:
    case NQ_EVENT_REMOVE:
        return e->row;
    default:
        return t->n;
    }
}

/* One step as a JSON line, for a program that replays the search: what
 * happened where, the board after it (columns from 0, row 0 first), and
 * the step's text exactly as the text output prints it. */
static void json_step(trace *t, const nq_event *e)
{
    const char *text = take_text(t);
    printf("{\"type\":\"step\",\"step\":%llu,\"event\":",
           (unsigned long long)t->steps);
    cli_json_string(stdout, event_names[e->kind]);
    printf(",\"row\":%d,\"col\":%d,\"queens\":[", e->row, e->col);
    for (int i = 0, k = rows_after(t, e); i < k; i++)
        printf(i ? ",%d" : "%d", e->cols[i]);
    fputs("],\"text\":", stdout);
    cli_json_string(stdout, text);
    fputs("}\n", stdout);
    cli_stream_line();
}

/* trace_live: the steps since the last chunk to the page (last 0), or
 * the walk's object (last 1); nonzero if memory ran out or fn said stop. */
static int hand_over(trace *t, int last)
{
    size_t len = 0;
    char *obj = NULL;
    const char *json = last ? NULL : trace_html_take(t->html, &len);
    if (last) {
        FILE *mem = open_memstream(&obj, &len);
        if (mem) {
            trace_html_write_walk(mem, t->html);
            if (fclose(mem) != 0)
                len = 0;
        }
        json = obj && len ? obj : NULL;
    }
    int rc = !json || t->chunk_fn(t->chunk_ctx, json, len, last);
    if (!last)
        trace_html_spent(t->html);
    free(obj);
    return rc;
}

/* Each event is written once, by the style's printer, to t->out; the JSON
 * line quotes that text, so the two outputs cannot tell different
 * stories. */
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
    if (t->seed) {
        trace_seed_step(t, e);
        if (e->col_flags)
            keep_flags(t, e);
    } else {
        print_step(t, e);
    }
    if (t->json)
        json_step(t, e);
    else if (t->html)
        trace_html_step(t->html, t->n, e, rows_after(t, e), take_text(t));
    if (t->chunk_fn && t->steps % t->chunk == 0)
        return hand_over(t, 0);
    return 0;
}

/* Steps traced when --limit is not given: as text, and in a page (which
 * a browser must load at once). */
#define TRACE_DEFAULT_LIMIT 1000000
#define TRACE_PAGE_LIMIT 50000

/* The first engine of the table with every capability in caps. */
static const char *engine_with(unsigned caps)
{
    for (int i = 0; i < nq_engine_count(); i++)
        if ((nq_engine_caps(nq_engine_at(i)) & caps) == caps)
            return nq_engine_name(nq_engine_at(i));
    return "flags";
}

/* The options past N: the engine (by default backtrack, or for the seed
 * style the engine with flag arrays), the style, the step cap, and the
 * engine compared with it on the page. */
static int trace_options(const char *engine, const char *style,
                         const char *limit, const char *compare, int n,
                         trace *t, const char **use)
{
    int rc;
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
    t->limit = k ? k : t->page ? TRACE_PAGE_LIMIT : TRACE_DEFAULT_LIMIT;
    t->limited = k != 0;
    if ((rc = cli_check_engine(*use, n, n, caps)) != CLI_OK || !compare)
        return rc;
    return cli_check_engine(compare, n, n, caps);
}

/* --format: text (the default), json (as --json), or html, the page. */
static int trace_format(const char *format)
{
    if (strcmp(format, "text") && strcmp(format, "json") &&
        strcmp(format, "html"))
        return cli_error(CLI_USAGE, "trace: unknown format '%s' (formats: "
                         "text, json, html)", format);
    return CLI_OK;
}

/* "1 step", "78 steps": the summary's counts (fmt: "%llu step" or
 * "%llu steps", as k asks), after sep. */
static void count_of(const trace *t, const char *sep, uint64_t k,
                     const char *fmt)
{
    fputs(sep, t->out);
    fprintf(t->out, fmt, (unsigned long long)k);
}

/* Every step counted under its kind, so that the kinds add up to the
 * steps: brute force's complete placements tested and refused ("fail"
 * steps) too, named whenever there were some. */
static void summary_line(const trace *t, nq_status st)
{
    /* TRANSLATORS: the separators of trace's summary: after the steps,
     * between the kinds */
    int w = words(t);
    const char *colon = cli_words(w, ": "), *sep = cli_words(w, ", ");
    count_of(t, "", t->steps,
             cli_nwords(w, "%llu step", "%llu steps", t->steps));
    count_of(t, colon, t->places,
             cli_nwords(w, "%llu placement", "%llu placements", t->places));
    count_of(t, sep, t->rejects,
             cli_nwords(w, "%llu rejection", "%llu rejections", t->rejects));
    count_of(t, sep, t->removes,
             cli_nwords(w, "%llu removal", "%llu removals", t->removes));
    count_of(t, sep, t->solutions,
             cli_nwords(w, "%llu solution", "%llu solutions", t->solutions));
    if (t->fails)
        count_of(t, sep, t->fails,
                 cli_nwords(w, "%llu failure", "%llu failures", t->fails));
    fprintf(t->out, "%s\n", st != NQ_ERR_STOPPED ? ""
            : t->live ? cli_words(words(t), " (stopped at the page's limit)")
            : t->limited ? cli_words(words(t), " (stopped by --limit)")
            : cli_words(words(t), " (stopped at the default limit)"));
}

/* The last JSON line: the counts as numbers, why the walk stopped (null:
 * it ran to the end), the summary's text, and the error if it failed. */
static void json_summary(trace *t, const char *engine, nq_status st,
                         const char *error)
{
    summary_line(t, st);
    const char *text = take_text(t);
    printf("{\"type\":\"summary\",\"command\":\"trace\",\"n\":%d,"
           "\"engine\":", t->n);
    cli_json_string(stdout, engine);
    fputs(",\"style\":", stdout);
    cli_json_string(stdout, t->seed ? "seed" : "steps");
    printf(",\"steps\":%llu,"
           "\"placements\":%llu,\"rejections\":%llu,\"removals\":%llu,"
           "\"solutions\":%llu,\"failures\":%llu,\"stopped\":%s",
           (unsigned long long)t->steps,
           (unsigned long long)t->places, (unsigned long long)t->rejects,
           (unsigned long long)t->removes, (unsigned long long)t->solutions,
           (unsigned long long)t->fails, st != NQ_ERR_STOPPED ? "null"
           : t->limited ? "\"limit\"" : "\"default limit\"");
    if (error) {
        fputs(",\"error\":", stdout);
        cli_json_string(stdout, error);
    }
    fputs(",\"text\":", stdout);
    cli_json_string(stdout, text);
    fputs("}\n", stdout);
}

/* The title line of the text output (the JSON has the summary instead). */
static void print_title(const trace *t, const char *engine)
{
    if (t->seed)
        printf(_("%s search of N=%d as seed 003 walks it: size=%d, FA[i] the "
                 "columns, FB[row-i+(size-1)] and FC[row+i] the "
                 "diagonals\n"), engine, t->n, t->n);
    else if (t->base)
        printf(_("%s search of N=%d, step by step (rows and columns counted "
                 "from 1)\n"), engine, t->n);
    else
        printf(_("%s search of N=%d, step by step\n"), engine, t->n);
}

/* Walk the search, then the summary: a line of text, or with --json the
 * summary object, which a failed walk's error is carried in too. */
static int run_trace(trace *t, const nq_request *req)
{
    char why[CLI_ERROR_TEXT];
    nq_status st = nq_walk_search(req, on_trace_event, t);
    int failed = st != NQ_OK && st != NQ_ERR_STOPPED;
    if (failed)
        snprintf(why, sizeof why, "trace %d: %s", t->n, nq_strerror(st));
    if (t->json)
        json_summary(t, req->engine, st, failed ? why : NULL);
    if (failed)
        return cli_error(CLI_FAIL, "%s", why);
    if (!t->json) {
        if (t->seed)
            putchar('\n');
        summary_line(t, st);
    }
    if (st == NQ_ERR_STOPPED && !t->limited)
        fprintf(stderr, _("nqueens trace: note: stopped after %llu steps; "
                          "--limit K traces more\n"),
                (unsigned long long)t->steps);
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "trace: cannot write the output");
    return CLI_OK;
}

/* A walk that ran to its end: the engine's own count of the board (the
 * same engine and form, through the counting API), for the page to set
 * beside the solutions it walked. */
static int whole_count(trace *t, const nq_request *req)
{
    nq_counts c;
    nq_status st = nq_count_solutions(req, &c);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "trace %d: %s", t->n, nq_strerror(st));
    trace_html_counts(t->html, c.total, c.unique);
    return CLI_OK;
}

/* One walk into the page: each step's text through the buffer, then the
 * summary line the text output ends with, and the count of a whole walk;
 * a walk the cap stopped is said once the page is out. */
static int walk_into_page(trace *t, const nq_request *req)
{
    nq_status st = nq_walk_search(req, on_trace_event, t);
    if (st != NQ_OK && st != NQ_ERR_STOPPED)
        return cli_error(CLI_FAIL, "trace %d: %s", t->n, nq_strerror(st));
    summary_line(t, st);
    int capped = st == NQ_ERR_STOPPED;
    if (trace_html_end(t->html, take_text(t), capped) != 0)
        return cli_error(CLI_FAIL, "trace %d: %s", t->n,
                         nq_strerror(NQ_ERR_NOMEM));
    return capped ? CLI_OK : whole_count(t, req);
}

/* The walk of req's engine for the page, with the options of `like`
 * (board, style, counting from 1, cap); *walk is set, even on failure,
 * for the caller to free. */
static int page_walk(const trace *like, const nq_request *req,
                     trace_html **walk)
{
    int rc;
    trace t = {.n = like->n, .base = like->base, .seed = like->seed,
               .limit = like->limit, .limited = like->limited, .page = 1};
    t.html = *walk = trace_html_new(req->engine, t.n, req->iterative, t.base,
                                    t.limit);
    t.out = open_memstream(&t.text, &t.text_size);
    if (!t.html || !t.out)
        rc = cli_error(CLI_FAIL, "trace %d: %s", t.n,
                       nq_strerror(NQ_ERR_NOMEM));
    else
        rc = walk_into_page(&t, req);
    if (t.out)
        fclose(t.out);
    free(t.text);
    return rc;
}

int trace_live(const nq_request *req, int one_based, uint64_t cap,
               uint64_t chunk, trace_chunk_fn fn, void *ctx)
{
    trace t = {.n = req->n, .base = one_based, .limit = cap, .limited = 1,
               .page = 1, .live = 1, .chunk_fn = fn, .chunk_ctx = ctx,
               .chunk = chunk ? chunk : 1};
    int rc = cli_check_engine(req->engine, req->n, req->n, NQ_CAP_EVENTS);
    if (rc != CLI_OK)
        return rc;
    t.html = trace_html_new(req->engine, t.n, req->iterative, t.base, cap);
    t.out = open_memstream(&t.text, &t.text_size);
    if (!t.html || !t.out)
        rc = cli_error(CLI_FAIL, "trace %d: %s", t.n,
                       nq_strerror(NQ_ERR_NOMEM));
    else if ((rc = walk_into_page(&t, req)) == CLI_OK &&
             (hand_over(&t, 0) || hand_over(&t, 1)))
        rc = cli_error(CLI_FAIL, "trace %d: the walk was stopped", t.n);
    if (t.out)
        fclose(t.out);
    free(t.text);
    trace_html_free(t.html);
    return rc;
}

/* The most a page may weigh without --force (20 MiB): a browser takes
 * long to open one past it, or gives up. */
#define TRACE_PAGE_MAX ((size_t)20 << 20)

/* A page's walks, for what is said of it on stderr. */
typedef struct {
    trace_html *walk[2];
    const char *engine[2];
    int count;
} page_walks;

/* "400000 steps", or with --compare "1050 + 93 steps". */
static void steps_of(char *buf, size_t size, const page_walks *w)
{
    unsigned long long a = trace_html_steps(w->walk[0]);
    if (w->count == 1)
        snprintf(buf, size, "%llu steps", a);
    else
        snprintf(buf, size, "%llu + %llu steps", a,
                 (unsigned long long)trace_html_steps(w->walk[1]));
}

/* A page over the limit without --force: refused whole, nothing written,
 * with its size and the two ways on. */
static int page_too_big(const page_walks *w, size_t size)
{
    char steps[64];
    steps_of(steps, sizeof steps, w);
    return cli_error(CLI_USAGE, "trace: the page would be %.1f MiB (%s), over "
                     "the %zu MiB limit; --limit K holds fewer steps, "
                     "--force writes it anyway", (double)size / (1 << 20),
                     steps, TRACE_PAGE_MAX >> 20);
}

/* After the page is out: a note for each walk the cap stopped (as the
 * text output gives), then what was written. */
static void page_written(const trace *t, const page_walks *w, size_t size)
{
    char steps[64];
    for (int i = 0; i < w->count; i++)
        if (trace_html_capped(w->walk[i]))
            fprintf(stderr, t->limited
                    ? _("nqueens trace: note: the page holds the first %llu "
                        "steps of the %s search\n")
                    : _("nqueens trace: note: the page holds the first %llu "
                        "steps of the %s search; --limit K holds more\n"),
                    (unsigned long long)trace_html_steps(w->walk[i]),
                    w->engine[i]);
    steps_of(steps, sizeof steps, w);
    fprintf(stderr, _("nqueens trace: wrote a page of %s (%zu bytes)\n"),
            steps, size);
}

/* The page is built in memory first, so that one over the limit is
 * refused whole (nothing on stdout) rather than cut off; then written. */
static int write_page(const trace *t, const page_walks *w, int force)
{
    char *page = NULL;
    size_t size = 0;
    int rc = CLI_OK;
    FILE *mem = open_memstream(&page, &size);
    int built = mem && trace_html_write(mem, w->walk, w->count) == 0;
    if (mem && fclose(mem) != 0)
        built = 0;
    if (!built)
        rc = cli_error(CLI_FAIL, "trace %d: cannot build the page: %s", t->n,
                       nq_strerror(NQ_ERR_NOMEM));
    else if (size > TRACE_PAGE_MAX && !force)
        rc = page_too_big(w, size);
    else if (fwrite(page, 1, size, stdout) != size || fflush(stdout) != 0)
        rc = cli_error(CLI_FAIL, "trace: cannot write the page");
    else
        page_written(t, w, size);
    free(page);
    return rc;
}

/* --format html: the page of the engine's walk, and with --compare the
 * second engine's beside it. */
static int trace_to_page(const trace *t, nq_request req, const char *compare,
                         int force)
{
    page_walks w = {.engine = {req.engine, compare}, .count = compare ? 2 : 1};
    int rc = page_walk(t, &req, &w.walk[0]);
    if (rc == CLI_OK && compare) {
        req.engine = compare;
        rc = page_walk(t, &req, &w.walk[1]);
    }
    if (rc == CLI_OK)
        rc = write_page(t, &w, force);
    trace_html_free(w.walk[0]);
    trace_html_free(w.walk[1]);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    const char *engine = NULL, *limit = NULL, *style = "steps";
    const char *format = NULL, *compare = NULL;
    int iterative = 0, one_based = 0, json = 0, force = 0, n, hi, rc;
    const cli_spec specs[] = {
        {.name = "--engine", .value = &engine, .arg = "NAME",
         .help = N_("the engine whose steps to print (default: backtrack), "
                    "one of:\n{events}")},
        {.name = "--limit", .value = &limit, .arg = "K",
         .help = N_("stop after K steps (default 1000000; 50000 for a page)")},
        {.name = "--iterative", .flag = &iterative,
         .help = N_("trace the engine's explicit-stack form")},
        {.name = "--style", .value = &style, .arg = "S",
         .help = N_("steps (default): one line a step; seed: the flags engine "
                    "(the default with it) as seed 003 walks its Python "
                    "program: row=R,i=C, each test written out "
                    "(FB[row-i+(size-1)]->FB[1-2+(4-1)]->FB[2]==0), the arrays "
                    "FA, FB and FC in full after each change")},
        {.name = "--one-based", .flag = &one_based,
         .help = N_("rows and columns counted from 1 (steps); with seed, the "
                    "square from 1 beside the program's variables")},
        {.name = "--json", .flag = &json,
         .help = N_("JSON Lines, for a program replaying the search: per step "
                    "{\"type\":\"step\",\"step\",\"event\" (place, reject, "
                    "remove, solution, fail),\"row\",\"col\",\"queens\" (the "
                    "board after it: the column of each filled row, from "
                    "0),\"text\" (the step as the style prints it)}, then "
                    "{\"type\":\"summary\",\"command\",\"n\",\"engine\","
                    "\"style\","
                    "\"steps\",\"placements\",\"rejections\",\"removals\","
                    "\"solutions\",\"failures\",\"stopped\" "
                    "(null, \"limit\", \"default limit\"),\"text\"}")},
        {.name = "--format", .value = &format, .arg = "F",
         .help = N_("text (default), json (as --json), or html: one page to "
                    "step through in a browser (no network needed): the board, "
                    "every attacker of a refused square, the engine's arrays "
                    "or masks and its code, the tree growing and each step's "
                    "line as above; play, pause, step with the arrow keys; "
                    "#step=K opens at step K")},
        {.name = "--compare", .value = &compare, .arg = "E2",
         .help = N_("with --format html: engine E2's search beside the first, "
                    "paired by moment: E2 at the same point of the search (the "
                    "same board, and the same move: placing, refusing or "
                    "taking back a square, or a solution), or where it never "
                    "comes there, at its last step before that point")},
        {.name = "--force", .flag = &force,
         .help = N_("with --format html: write a page over 20 MiB, which is "
                    "refused without it (a browser may not open it)")},
        {0},
    };
    rc = cli_parse_board("trace", trace_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = cli_json_format("trace", json, &format, "text")) != CLI_OK ||
        (rc = trace_format(format)) != CLI_OK)
        return rc;
    json = strcmp(format, "json") == 0;
    trace t = {.base = one_based, .json = json, .out = stdout,
               .page = strcmp(format, "html") == 0};
    rc = trace_options(engine, style, limit, compare, n, &t, &engine);
    if (rc != CLI_OK)
        return rc;
    /* --compare only with the page, the one output with room for two */
    if (compare && !t.page)
        return cli_error(CLI_USAGE, "trace: --compare needs --format html "
                         "(the page shows the two searches side by side)");
    /* --force lets a big page through; text and JSON have no limit */
    if (force && !t.page)
        return cli_error(CLI_USAGE, "trace: --force needs --format html (it "
                         "writes a page over the %zu MiB limit)",
                         TRACE_PAGE_MAX >> 20);
    if (t.page)
        return trace_to_page(&t, (nq_request){.size = sizeof(nq_request),
                             .n = n, .engine = engine,
                             .iterative = iterative}, compare, force);
    if (json && !(t.out = open_memstream(&t.text, &t.text_size)))
        return cli_error(CLI_FAIL, "trace %d: %s", n,
                         nq_strerror(NQ_ERR_NOMEM));
    if (!json)
        print_title(&t, engine);
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative};
    rc = run_trace(&t, &req);
    if (json) {
        fclose(t.out);
        free(t.text);
    }
    return rc;
}

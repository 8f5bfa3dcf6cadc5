/*
 * trace_html.c - `nqueens trace --format html`: the walk as a page to
 * step through in a browser.
 *
 * The page is one file with its CSS and JavaScript inline (the template,
 * programs/trace/trace_page.html, is built into the program), so it opens
 * from file:// with no network.  Its data is the trace itself: each step's
 * event (kind, square, why refused, the board after it, the flag arrays
 * or bit masks the engine consulted) and the step's text exactly as the
 * text output prints it, written by the same printer from the same event.
 * So the page and `trace` cannot tell different stories.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "trace_html.h"

struct trace_html {
    char *engine, *summary;
    int n, iterative, one_based, capped, broken;
    int counted;              /* total and unique known (a whole walk) */
    nq_u128 total, unique;
    uint64_t limit, steps;
    uint64_t chunk_steps; /* the steps in buf since the last take */
    FILE *data; /* the steps as JavaScript arrays, into buf */
    char *buf;
    size_t size;
};

/* Where the template wants the walks. */
static const char walks_mark[] = "@WALKS@";

/* A walk ready to take steps; NULL if memory ran out. */
trace_html *trace_html_new(const char *engine, int n, int iterative,
                           int one_based, uint64_t limit)
{
    trace_html *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    *h = (trace_html){.engine = strdup(engine), .n = n,
                      .iterative = iterative, .one_based = one_based,
                      .limit = limit};
    h->data = open_memstream(&h->buf, &h->size);
    if (!h->engine || !h->data) {
        trace_html_free(h);
        return NULL;
    }
    return h;
}

/* s as a JavaScript string: JSON's escapes, and '<' as \u003c so that no
 * text can close the page's script element. */
static void js_string(FILE *out, const char *s)
{
    cli_json_quoted(out, s, "<");
}

/* A column as one character, 0-9 then a-v (NQ_MAX_N is 32): the board
 * after each step costs a character a queen. */
static char col_char(int c)
{
    return (char)(c < 10 ? '0' + c : 'a' + c - 10);
}

/* The engine's own state after the event: for a solution, what it is
 * worth to a symmetry count (nq_canonical_weight: 8, 4 or 2 images if it
 * is the smallest of its class, else 0), so the page can say which
 * solutions stand for a class; the flags engine's three arrays as 0s and
 * 1s ("FA|FB|FC"); the bitmap engines' masks as numbers, [down, left,
 * right, untried, ruled], on a placement and a removal alike; or
 * nothing. */
static void engine_state(FILE *out, int n, const nq_event *e)
{
    if (e->kind == NQ_EVENT_SOLUTION) {
        fprintf(out, ",%d", nq_canonical_weight(e->cols, n));
    } else if (e->col_flags) {
        fputs(",\"", out);
        for (int i = 0; i < n; i++)
            fputc('0' + e->col_flags[i], out);
        fputc('|', out);
        for (int i = 0; i < 2 * n - 1; i++)
            fputc('0' + e->dif_flags[i], out);
        fputc('|', out);
        for (int i = 0; i < 2 * n - 1; i++)
            fputc('0' + e->sum_flags[i], out);
        fputc('"', out);
    } else if (e->has_masks) {
        fprintf(out, ",[%lu,%lu,%lu,%lu,%lu]", (unsigned long)e->down,
                (unsigned long)e->left, (unsigned long)e->right,
                (unsigned long)e->untried, (unsigned long)e->ruled);
    }
}

/* One step as [kind, row, col, attacking row, NQ_BY_* bits, "board
 * after", "text", state]: the page replays the walk from these alone. */
void trace_html_step(trace_html *h, int n, const nq_event *e, int rows,
                     const char *text)
{
    FILE *out = h->data;
    char queens[NQ_MAX_N + 1];
    for (int i = 0; i < rows; i++)
        queens[i] = col_char(e->cols[i]);
    queens[rows] = '\0';
    fprintf(out, "%s[%d,%d,%d,%d,%u,", h->chunk_steps ? ",\n" : "", (int)e->kind,
            e->row, e->col, e->by_row, e->reason);
    js_string(out, queens);
    fputc(',', out);
    js_string(out, text);
    engine_state(out, n, e);
    fputc(']', out);
    h->steps++;
    h->chunk_steps++;
}

/* The steps written since the last take, as the inside of a JavaScript
 * array (NULL if memory ran out); the buffer then starts again, so that a
 * walk handed over a chunk at a time never holds more than one chunk. */
const char *trace_html_take(trace_html *h, size_t *len)
{
    if (fflush(h->data) != 0 || ferror(h->data)) {
        h->broken = 1;
        return NULL;
    }
    /* no step since the last rewind: musl's stream keeps the old size */
    *len = h->chunk_steps ? h->size : 0;
    h->chunk_steps = 0;
    return h->buf ? h->buf : "";
}

/* Start the next chunk: what trace_html_take gave is spent. */
void trace_html_spent(trace_html *h)
{
    rewind(h->data);
    fflush(h->data);
}

/* The walk's end, kept for the page's footnote; a write that failed into
 * the memory stream (memory ran out) is found here, once, not a step at a
 * time. */
int trace_html_end(trace_html *h, const char *summary, int capped)
{
    h->capped = capped;
    h->summary = strdup(summary);
    if (fflush(h->data) != 0 || ferror(h->data) || !h->summary)
        h->broken = 1;
    return h->broken ? -1 : 0;
}

void trace_html_counts(trace_html *h, nq_u128 total, nq_u128 unique)
{
    h->counted = 1;
    h->total = total, h->unique = unique;
}

uint64_t trace_html_steps(const trace_html *h)
{
    return h->steps;
}

int trace_html_capped(const trace_html *h)
{
    return h->capped;
}

/* One walk as the page's object: what it is, how it ended, the engine's
 * own count when the walk was whole (decimal strings: a count may pass
 * 2^53, where JavaScript's numbers stop being exact), its steps. */
void trace_html_write_walk(FILE *out, const trace_html *h)
{
    char total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    fputs("{\"engine\":", out);
    js_string(out, h->engine);
    fprintf(out, ",\"n\":%d,\"iterative\":%d,\"oneBased\":%d,"
            "\"capped\":%d,\"limit\":%llu,", h->n, h->iterative,
            h->one_based, h->capped, (unsigned long long)h->limit);
    if (h->counted) {
        fputs("\"total\":", out);
        js_string(out, nq_format_u128(h->total, total));
        fputs(",\"unique\":", out);
        js_string(out, nq_format_u128(h->unique, unique));
        fputc(',', out);
    }
    fputs("\"summary\":", out);
    js_string(out, h->summary ? h->summary : "");
    fputs(",\"steps\":[\n", out);
    if (h->chunk_steps) /* none since a take (the size may be stale) */
        fwrite(h->buf, 1, h->size, out);
    fputs("]}", out);
}

/* The template up to its mark, the walks as one JavaScript array, the
 * rest: the data sits where the page's script reads it, and nothing else
 * of the template is touched. */
int trace_html_write(FILE *out, trace_html *const *walks, int count)
{
    const char *mark = strstr(trace_page, walks_mark);
    if (!mark)
        return -1;
    fwrite(trace_page, 1, (size_t)(mark - trace_page), out);
    fputc('[', out);
    for (int i = 0; i < count; i++) {
        if (i)
            fputs(",\n", out);
        trace_html_write_walk(out, walks[i]);
    }
    fputc(']', out);
    fputs(mark + strlen(walks_mark), out);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* A walk and its buffers, whatever state it was left in (NULL too). */
void trace_html_free(trace_html *h)
{
    if (!h)
        return;
    if (h->data)
        fclose(h->data);
    free(h->buf);
    free(h->engine);
    free(h->summary);
    free(h);
}

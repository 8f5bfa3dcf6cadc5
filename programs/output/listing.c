/*
 * listing.c - the boards that solve, find and complete list, in any
 * format, and the JSON Lines they share: an object per board as it is
 * found, then one summary object, even when nothing was found or the
 * command failed part way (the summary then says why).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../cli.h"
#include "format.h"

/* A reader of JSON Lines at the other end of a pipe should see a line
 * when it is found, yet a flush per line would cost a system call for
 * each of millions of boards: the first line goes at once, then stdout is
 * flushed at most ten times a second (and at the end). */
void cli_stream_line(void)
{
    static double last = -1;
    double now = nq_clock_seconds();
    if (last < 0 || now - last >= 0.1) {
        fflush(stdout);
        last = now;
    }
}

/* The limit a format imposes (an SVG holds 1000 boards) is checked by
 * listing one board more than it holds, so "more" can be said. */
void cli_listing_start(cli_listing *l, const cli_format *f, const char *command,
                      int n, unsigned long long limit)
{
    *l = (cli_listing){.format = f, .command = command, .n = n,
                      .json = strcmp(f->name, "json") == 0, .asked = limit,
                      .limit = limit};
    if (f->max_boards && (!limit || limit > f->max_boards))
        l->limit = f->max_boards + 1;
    if (f->begin)
        f->begin(stdout, n);
}

/* One board, and whether the search should stop here. */
int cli_listing_add(cli_listing *l, const int *cols)
{
    l->format->solution(stdout, cols, l->n, l->printed++);
    if (l->json)
        cli_stream_line();
    return l->limit && l->printed >= l->limit;
}

/* The last line of every JSON listing: how many boards came before it,
 * whether they are all there are, the command's own members, and the
 * error when it failed. */
static void write_summary(const cli_listing *l, int all, const char *error)
{
    fputs("{\"type\":\"summary\",\"command\":", stdout);
    cli_json_string(stdout, l->command);
    printf(",\"n\":%d,\"solutions\":%llu,\"all\":%s", l->n, l->printed,
           all ? "true" : "false");
    if (l->members[0])
        printf(",%s", l->members);
    if (error) {
        fputs(",\"error\":", stdout);
        cli_json_string(stdout, error);
    }
    fputs("}\n", stdout);
}

/* "all" is true only when no limit (--limit, --first, find's one board)
 * cut the search short: reaching the limit exactly leaves it unknown
 * whether there were more. */
int cli_listing_end(cli_listing *l)
{
    const cli_format *f = l->format;
    if (f->max_boards && l->printed > f->max_boards)
        return cli_error(CLI_USAGE, "%s %d: more than %llu boards for one "
                         "%s; choose some with --limit K", l->command, l->n,
                         f->max_boards, f->name);
    if (l->json)
        write_summary(l, !(l->asked && l->printed >= l->asked), NULL);
    else if (f->end && f->end(stdout, l->n, l->printed) != 0)
        return cli_error(CLI_FAIL, "%s %d: %s", l->command, l->n,
                         nq_strerror(NQ_ERR_NOMEM));
    return CLI_OK;
}

/* The message goes to stderr as every error does, and into the summary,
 * so that a program reading the lines learns of it without stderr. */
int cli_listing_fail(cli_listing *l, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (l->json)
        write_summary(l, 0, msg);
    return cli_error(code, "%s", msg);
}

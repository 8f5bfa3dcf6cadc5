/*
 * format.h - how `solve`, `find` and `complete` write boards: the formats,
 * and the listing that writes them and ends them (with --json, the
 * summary line).
 */
#ifndef NQ_FORMAT_H
#define NQ_FORMAT_H

#include <stdio.h>

typedef struct {
    const char *name;
    const char *summary;
    /* The most boards one output may hold (0: no limit). */
    unsigned long long max_boards;
    /* Before the first solution (may be NULL). */
    void (*begin)(FILE *out, int n);
    /* Write solution number `index` (0-based, in enumeration order). */
    void (*solution)(FILE *out, const int *cols, int n, unsigned long long index);
    /* After the last of `count` solutions (may be NULL); nonzero if the
     * output could not be made (out of memory). */
    int (*end)(FILE *out, int n, unsigned long long count);
} cli_format;

/* The SVG picture (svg.c): boards are kept until the end. */
#define NQ_SVG_MAX_BOARDS 1000
void cli_svg_begin(FILE *out, int n);
void cli_svg_board(FILE *out, const int *cols, int n, unsigned long long index);
int cli_svg_end(FILE *out, int n, unsigned long long count);

/* 1 with --one-based: rows and columns numbered from 1 in array, unicode
 * and seed (grid and dots stay byte for byte the seed programs'). */
extern int cli_format_base;

/* cols[0..n-1] plus base, split by sep, with no newline. */
void cli_write_cols(FILE *out, const int *cols, int n, char sep, int base);

const cli_format *cli_format_find(const char *name);
/* "grid, dots, ..." for messages. */
const char *cli_format_names(void);

/* A listing of boards on stdout in one format.  In json it is JSON Lines:
 * an object per board as it is found, then always one summary object,
 *   {"type":"summary","command":"solve","n":8,"solutions":92,"all":true,
 *    ...the command's members..., "error":"..." only if it failed}
 * so that a listing that ends early, finds nothing or fails still ends in
 * a line that parses. */
typedef struct {
    const cli_format *format;
    const char *command;
    int n, json;
    /* boards written; the most to write (0: all), as asked and as the
     * format allows (one more than it holds, to see there are more) */
    unsigned long long printed, asked, limit;
    /* the summary's members for this command ("\"engine\":\"bitmap\""),
     * or empty */
    char members[512];
} cli_listing;

void cli_listing_start(cli_listing *l, const cli_format *f, const char *command,
                      int n, unsigned long long limit);
/* Write one board; 1 when the listing is full (stop the search). */
int cli_listing_add(cli_listing *l, const int *cols);
/* After the search: the format's end, or the summary line.  CLI_OK, or
 * the error code after saying it. */
int cli_listing_end(cli_listing *l);
/* A failure once the listing has begun: the "nqueens: ..." line on
 * stderr and, in json, the summary carrying it; returns code. */
int cli_listing_fail(cli_listing *l, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

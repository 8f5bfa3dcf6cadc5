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
} nq_format;

/* The SVG picture (svg.c): boards are kept until the end. */
#define NQ_SVG_MAX_BOARDS 1000
void nq_svg_begin(FILE *out, int n);
void nq_svg_board(FILE *out, const int *cols, int n, unsigned long long index);
int nq_svg_end(FILE *out, int n, unsigned long long count);

/* 1 with --one-based: rows and columns numbered from 1 in array, unicode
 * and seed (grid and dots stay byte for byte the seed programs'). */
extern int nq_format_base;

/* cols[0..n-1] plus base, split by sep, with no newline. */
void nq_write_cols(FILE *out, const int *cols, int n, char sep, int base);

const nq_format *nq_format_find(const char *name);
/* "grid, dots, ..." for messages. */
const char *nq_format_names(void);

/* A listing of boards on stdout in one format.  In json it is JSON Lines:
 * an object per board as it is found, then always one summary object,
 *   {"type":"summary","command":"solve","n":8,"solutions":92,"all":true,
 *    ...the command's members..., "error":"..." only if it failed}
 * so that a listing that ends early, finds nothing or fails still ends in
 * a line that parses. */
typedef struct {
    const nq_format *format;
    const char *command;
    int n, json;
    /* boards written; the most to write (0: all), as asked and as the
     * format allows (one more than it holds, to see there are more) */
    unsigned long long printed, asked, limit;
    /* the summary's members for this command ("\"engine\":\"bitmap\""),
     * or empty */
    char members[512];
} nq_listing;

void nq_listing_start(nq_listing *l, const nq_format *f, const char *command,
                      int n, unsigned long long limit);
/* Write one board; 1 when the listing is full (stop the search). */
int nq_listing_add(nq_listing *l, const int *cols);
/* After the search: the format's end, or the summary line.  CLI_OK, or
 * the error code after saying it. */
int nq_listing_end(nq_listing *l);
/* A failure once the listing has begun: the "nqueens: ..." line on
 * stderr and, in json, the summary carrying it; returns code. */
int nq_listing_fail(nq_listing *l, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

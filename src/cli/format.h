/*
 * format.h - how `solve` writes boards.
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

const nq_format *nq_format_find(const char *name);
/* "grid, dots, ..." for messages. */
const char *nq_format_names(void);

#endif

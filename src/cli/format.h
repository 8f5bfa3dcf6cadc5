/*
 * format.h - how `solve` writes boards.
 */
#ifndef NQ_FORMAT_H
#define NQ_FORMAT_H

#include <stdio.h>

typedef struct {
    const char *name;
    const char *summary;
    /* Write solution number `index` (0-based, in enumeration order). */
    void (*solution)(FILE *out, const int *cols, int n, unsigned long long index);
} nq_format;

const nq_format *nq_format_find(const char *name);
/* "grid, dots, ..." for messages. */
const char *nq_format_names(void);

#endif

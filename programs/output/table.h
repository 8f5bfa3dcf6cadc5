/*
 * table.h - the seed series' table of counts, as text: its header and
 * rows, formatted into buffers so that the tests can read them without
 * running a count (a row for N = 27 takes a cluster to count).
 */
#ifndef NQ_TABLE_H
#define NQ_TABLE_H

#include <stddef.h>

#include "nqueens.h"

/* Room for any header or row (with its newline): two 39-digit counts
 * and a time of any length fit. */
#define CLI_TABLE_LINE 160

/* The width of the Total and Unique columns of a table whose largest N
 * is max_n: the seed's 13 up to N = 22, wider beyond, by the counts'
 * growth. */
int cli_table_width(int max_n);

/* " N:        Total       Unique        hh:mm:ss.ms\n" for width 13. */
void cli_table_header(char *buf, size_t size, int width);

/* One row, "%2d:%13s%13s%19s\n" for width 13: right-aligned, each column
 * after the first at least one blank from the one before it whatever its
 * width (a count wider than its column breaks the alignment, never the
 * separation). */
void cli_table_row(char *buf, size_t size, int width, int n, nq_u128 total,
                   nq_u128 unique, double seconds);

#endif

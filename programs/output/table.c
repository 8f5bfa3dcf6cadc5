/*
 * table.c - the seed series' table of counts: "N: total unique time",
 * right-aligned in columns.  The seed's columns are 13 characters wide,
 * which holds every count up to N = 22; larger boards get wider columns,
 * so that a record run's row stays readable and its numbers apart.
 */
#include <stdio.h>
#include <string.h>

#include "../i18n.h"
#include "table.h"

/* The seed's width of the count columns, and of the time column. */
#define SEED_WIDTH 13
#define TIME_WIDTH 19

/* Q(n), the total, has about 1.1 decimal digits more for each N past the
 * seed's range (the growth ratio Q(n+1)/Q(n) is near 10 and rising):
 * floor(1.1 n) - 11 is exactly the digits of every known total from
 * N = 22 (13) to 27 (18), and at least the estimated ones up to NQ_MAX_N
 * (Q(32), about 23 digits, gets 24).  The width follows the table's
 * largest N, so every row of one table shares it; the seed's 13 stays
 * the least, so small tables look as the seed's do. */
int cli_table_width(int max_n)
{
    int digits = 11 * max_n / 10 - 11;
    return digits > SEED_WIDTH ? digits : SEED_WIDTH;
}

/* The field width that right-aligns text in a column of `width` with at
 * least `gap` blanks before it: a wider text pushes the rest of the row
 * right rather than touching its neighbour.  Counted in terminal columns
 * (a translated heading's characters may be two wide, and several bytes),
 * turned into printf's bytes. */
static int field(const char *text, int width, int gap)
{
    int least = cli_text_width(text, (size_t)-1) + gap;
    return cli_field(text, least > width ? least : width);
}

/* The headings are the user's language's (gettext; English in C); the
 * rows are numbers, the same in every language. */
void cli_table_header(char *buf, size_t size, int width)
{
    /* TRANSLATORS: count's table headings: all solutions, those unique up
     * to rotation and reflection, the time taken (hours:minutes:seconds
     * and milliseconds); the columns are 13 and 19 wide, right-aligned */
    const char *total = _("Total"), *unique = _("Unique"),
               *time = _("hh:mm:ss.ms");
    snprintf(buf, size, " N:%*s%*s%*s\n", field(total, width, 0), total,
             field(unique, width, 1), unique, field(time, TIME_WIDTH, 1),
             time);
}

/* hh:mm:ss.ms, the hours growing past two digits if they must. */
static void format_elapsed(double seconds, char *buf, size_t size)
{
    unsigned long long ms = (unsigned long long)(seconds * 1000.0 + 0.5);
    snprintf(buf, size, "%02llu:%02llu:%02llu.%03llu", ms / 3600000,
             ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

/* The total follows "N:" without a blank, as in the seed's rows; the
 * unique count and the time always have one before them. */
void cli_table_row(char *buf, size_t size, int width, int n, nq_u128 total,
                   nq_u128 unique, double seconds)
{
    char t[NQ_U128_DIGITS], u[NQ_U128_DIGITS], elapsed[32];
    nq_format_u128(total, t);
    nq_format_u128(unique, u);
    format_elapsed(seconds, elapsed, sizeof elapsed);
    snprintf(buf, size, "%2d:%*s%*s%*s\n", n, field(t, width, 0), t,
             field(u, width, 1), u, field(elapsed, TIME_WIDTH, 1), elapsed);
}

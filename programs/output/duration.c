/*
 * duration.c - a time in words, for people planning a run: "2.2
 * minutes", "1 year", "4 months (3.1-4.8)", "1.2 x 10^4 years".  Needs
 * only the C library, so that the tests can check the words without a
 * count (a plural once read "over 1 years").
 */
#include <stdio.h>
#include <string.h>

#include "duration.h"
#include "../i18n.h"

typedef struct {
    double seconds;
    const char *one, *many;
} time_unit;

/* The names are translated where printed (the user's language; English
 * in the tests, which set no catalogue); singular only for exactly "1",
 * as English counts (ngettext would take the rounded number's plural). */
static const time_unit time_units[] = {
    {1, N_("second"), N_("seconds")},      {60, N_("minute"), N_("minutes")},
    {3600, N_("hour"), N_("hours")},       {86400, N_("day"), N_("days")},
    {30.436875 * 86400, N_("month"), N_("months")},
    {365.2425 * 86400, N_("year"), N_("years")},
};
#define TIME_UNITS (sizeof time_units / sizeof time_units[0])

/* The unit a duration reads in: the largest of which it holds two (100
 * seconds, 2.2 minutes, 36 hours, 4 months). */
static const time_unit *unit_for(double seconds)
{
    size_t i = TIME_UNITS - 1;
    while (i > 0 && seconds < 2 * time_units[i].seconds)
        i--;
    return &time_units[i];
}

/* v to `digits` significant digits, whole numbers past them written out
 * ("4", "4.5", "0.049", "596"). */
static void number(double v, int digits, char *buf, size_t size)
{
    double whole = 1;
    for (int i = 0; i < digits; i++)
        whole *= 10;
    if (v < whole - 0.5)
        snprintf(buf, size, "%.*g", digits, v);
    else
        snprintf(buf, size, "%.0f", v);
}

/* Years past a thousand as "m x 10^e": the mantissa of v for exponent e. */
static int exponent(double years)
{
    int e = 0;
    for (; years >= 10 && e < 999; years /= 10)
        e++;
    return e;
}

void cli_format_duration(double seconds, char *buf, size_t size)
{
    cli_format_estimate(seconds, -1, -1, buf, size);
}

/* The estimate and its interval, in digits enough (two, up to four)
 * that the interval's ends differ from it: "16 hours (16-16)" says less
 * than "15.8 hours (15.5-16.1)". */
static void numbers(double v, double low, double high, int ranged,
                    char out[3][32])
{
    for (int digits = 2; digits <= 4; digits++) {
        number(v, digits, out[0], sizeof out[0]);
        if (!ranged)
            return;
        number(low, digits, out[1], sizeof out[1]);
        number(high, digits, out[2], sizeof out[2]);
        if (strcmp(out[0], out[1]) && strcmp(out[0], out[2]))
            return;
    }
}

void cli_format_estimate(double seconds, double low, double high, char *buf,
                         size_t size)
{
    const time_unit *u = unit_for(seconds);
    char n[3][32], range[80] = "";
    double scale = u->seconds;
    double years = seconds / time_units[TIME_UNITS - 1].seconds;
    int e = years >= 1000 ? exponent(years) : 0, ranged = low >= 0 && high >= 0;
    for (int i = 0; i < e; i++)
        scale *= 10;
    numbers(seconds / scale, low / scale, high / scale, ranged, n);
    const char *v = n[0];
    if (ranged)
        snprintf(range, sizeof range, e ? _(" (%s-%s x 10^%d)") : _(" (%s-%s)"),
                 n[1], n[2], e);
    if (e)
        snprintf(buf, size, _("%s x 10^%d years%s"), v, e, range);
    else
        snprintf(buf, size, _("%s %s%s"), v,
                 _(strcmp(v, "1") ? u->many : u->one), range);
}

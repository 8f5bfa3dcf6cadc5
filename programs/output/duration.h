/*
 * duration.h - a time in words (duration.c), for the estimates and the
 * refusals they back.
 */
#ifndef NQ_DURATION_H
#define NQ_DURATION_H

#include <stddef.h>

/* "3 days", "1 hour", "2.2 minutes", "1.2 x 10^4 years": two significant
 * digits, in the largest unit the duration holds twice, singular only
 * for exactly 1. */
void cli_format_duration(double seconds, char *buf, size_t size);
/* The same with an interval in the same unit, when low and high are not
 * negative: "4 months (3.1-4.8)". */
void cli_format_estimate(double seconds, double low, double high, char *buf,
                         size_t size);

#endif

/*
 * u128.c - decimal text and checked sums for 128-bit counts, and for the
 * tallies of units made of them.
 *
 * printf has no conversion for unsigned __int128, and totals pass 2^64 at
 * N = 29, so counts are printed and parsed here, and merged with a check
 * that refuses to wrap rather than silently lose the high bits.
 */
#include "nqueens.h"

char *nq_format_u128(nq_u128 v, char *buf)
{
    char tmp[NQ_U128_DIGITS];
    int len = 0;
    if (!buf)
        return NULL;
    do {
        tmp[len++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}

nq_status nq_parse_u128(const char *text, nq_u128 *out)
{
    const nq_u128 max = ~(nq_u128)0;
    nq_u128 v = 0;
    if (!text || !*text || !out)
        return NQ_ERR_ARG;
    for (const char *s = text; *s; s++) {
        if (*s < '0' || *s > '9')
            return NQ_ERR_ARG;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return NQ_ERR_OVERFLOW;
        v = v * 10 + d;
    }
    *out = v;
    return NQ_OK;
}

nq_status nq_add_u128(nq_u128 *acc, nq_u128 v)
{
    if (!acc)
        return NQ_ERR_ARG;
    if (*acc + v < *acc)
        return NQ_ERR_OVERFLOW;
    *acc += v;
    return NQ_OK;
}

/* All five counts or none: a tally is never left half added. */
nq_status nq_tally_add(nq_tally *a, const nq_tally *b)
{
    if (!a || !b)
        return NQ_ERR_ARG;
    nq_tally r = *a;
    if (nq_add_u128(&r.total, b->total) || nq_add_u128(&r.unique, b->unique) ||
        nq_add_u128(&r.fixed180, b->fixed180) ||
        nq_add_u128(&r.fixed90, b->fixed90) || nq_add_u128(&r.nodes, b->nodes))
        return NQ_ERR_OVERFLOW;
    *a = r;
    return NQ_OK;
}

/*
 * forge_util.c - a forger of journals for the tests: it reads
 * doc/journal-format.md and retags what it edits with the key the header
 * holds, derived as the document says (not by the library's code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../src/core/core.h"
#include "../src/journal/journal_format.h"

/* The record key of a version 3 or 4 header line, as doc/journal-format.md
 * derives it from what the line says: SipHash-2-4 under the stored key
 * (k0, k1) of "nqueens-record-key", a zero byte, the version and N (4
 * bytes each), the plan name and a zero byte, the unit count and the
 * identity (8 bytes each), the part and the parts (4 bytes each), then
 * the byte 0 for r0 and 1 for r1 (all little-endian).  0 if the line is
 * no such header (version 3 or later). */
static int documented_key(const char *header, uint64_t r[2])
{
    char plan[32];
    unsigned long long units, id, k0, k1;
    unsigned version, n, part, parts;
    unsigned char buf[128], *b = buf;
    if (sscanf(header, "nqueens-journal %u n=%u plan=%31s units=%llu "
               "id=%16llx part=%u/%u key=%16llx%16llx", &version, &n, plan,
               &units, &id, &part, &parts, &k0, &k1) != 9 || version < 3)
        return 0;
    memcpy(b, "nqueens-record-key", 19), b += 19;
    uint64_t fields[6][2] = {{version, 4}, {n, 4}, {units, 8}, {id, 8},
                             {part, 4}, {parts, 4}};
    for (int f = 0; f < 6; f++) {
        for (uint64_t i = 0; i < fields[f][1]; i++)
            *b++ = (unsigned char)(fields[f][0] >> (8 * i));
        if (f == 1) { /* the plan's name and its zero byte, after N */
            memcpy(b, plan, strlen(plan) + 1);
            b += strlen(plan) + 1;
        }
    }
    for (int w = 0; w < 2; w++) {
        *b = (unsigned char)w;
        r[w] = nq_siphash(k0, k1, buf, (size_t)(b + 1 - buf));
    }
    return 1;
}

/* A record line as the document writes it: "unit", the id, the five
 * counts in decimal, and the tag of those bytes under the record key. */
static void record_line(FILE *out, const uint64_t key[2], uint64_t unit,
                        const nq_tally *t)
{
    char v[5][NQ_U128_DIGITS], body[NQ_JOURNAL_LINE_MAX];
    int len = snprintf(body, sizeof body, "unit %llu %s %s %s %s %s",
                       (unsigned long long)unit, nq_format_u128(t->total, v[0]),
                       nq_format_u128(t->unique, v[1]),
                       nq_format_u128(t->fixed180, v[2]),
                       nq_format_u128(t->fixed90, v[3]),
                       nq_format_u128(t->nodes, v[4]));
    fprintf(out, "%s tag=%016llx\n", body, (unsigned long long)
            nq_siphash(key[0], key[1], body, (size_t)len));
}

int t_forge(const char *path, record_edit edit, void *ctx)
{
    uint64_t key[2];
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    FILE *out = text && documented_key(text, key) ? fopen(path, "wb") : NULL;
    int forged = 0;
    for (char *l = out ? strtok_r(text, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        unsigned long long v[6];
        nq_tally t;
        if (sscanf(l, "unit %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5]) != 6 ||
            (t = (nq_tally){v[1], v[2], v[3], v[4], v[5]},
             !edit(v[0], &t, ctx))) {
            fprintf(out, "%s\n", l);
            continue;
        }
        record_line(out, key, v[0], &t);
        forged++;
    }
    if (out)
        fclose(out);
    free(text);
    return forged;
}

int t_tagged_line(const char *path, const char *body, char *out,
                  size_t size)
{
    uint64_t key[2];
    char *text = t_read_file(path, NULL);
    int ok = text && documented_key(text, key);
    free(text);
    if (ok)
        snprintf(out, size, "%s tag=%016llx", body, (unsigned long long)
                 nq_siphash(key[0], key[1], body, strlen(body)));
    return ok;
}

/* The forgery of the issue: the symmetric counts of a fast plan (units 0
 * and 1) zeroed, which keeps (T + P + 2R) / 8 whole where P + 2R is a
 * multiple of 8, as at N = 12 and 16. */
int t_zero_fixed_points(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit > 1 || !(t->fixed180 || t->fixed90))
        return 0;
    t->fixed180 = t->fixed90 = 0;
    return 1;
}

/*
 * run_verdict.c - a check verified in parts: each part's verdict in a
 * small file, and the verdicts put together with the journals.
 *
 * A record's check recounts tens of thousands of core-hours, more than
 * one machine gives; so the parts of one choice run on many, each writes
 * what it recounted and found, and the verdicts are put together where
 * the journals are.  Putting them together trusts no part's word on
 * what the choice was: the choice is made again from the journals and
 * the seed, and every part must have recounted exactly its share of it.
 * The file is doc/journal-format.md's "Verdicts"; its CRC catches
 * damage in transit, not a forger (who could recount nothing and write
 * "agree"): the parts are run by whoever checks the record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "run.h"

#define VERDICT_MAGIC "nqueens-verdict 1 "

/* ---- writing ---- */

static void write_header(FILE *f, const nq_verdict *v,
                         const nq_verify_options *o)
{
    const nq_journal_header *h = v->h;
    const nq_verify_report *r = v->r;
    fprintf(f, VERDICT_MAGIC "n=%d plan=%s units=%" PRIu64 " id=%016" PRIx64
            " seed=%" PRIu64 " sample=%.17g least=%" PRIu64 " largest=%"
            PRIu64 " fixed=%d weighted=%" PRIu64 " part=%" PRIu32 "/%" PRIu32
            " chosen=%" PRIu64 " digest=%016" PRIx64 " records=%016" PRIx64
            " engine=%s\n", h->n, h->plan, h->units, h->identity, r->seed,
            o->percent, o->at_least, o->largest, o->fixed_points ? 1 : 0,
            o->weighted, r->part, r->parts, r->chosen, r->chosen_digest,
            r->records_digest, r->engine[0] ? r->engine : "-");
}

/* The verdict's text, in memory: a line per unit of the part's share,
 * and the closing line, CRC-32 over every byte before its " crc=". */
static char *verdict_text(const nq_verdict *v, const nq_verify_options *o,
                          size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    write_header(f, v, o);
    for (uint64_t i = 0; i < v->count; i++)
        if (v->part_of[i] == v->r->part - 1)
            fprintf(f, "unit %" PRIu64 " %s\n", v->ids[i],
                    v->compared[i] == VERDICT_AGREE ? "agree" : "disagree");
    fprintf(f, "end recounted=%" PRIu64 " disagree=%" PRIu64, v->r->checked,
            v->r->disagree);
    fflush(f);
    uint32_t crc = nq_crc32(0, text, *len);
    fprintf(f, " crc=%08" PRIx32 "\n", crc);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

nq_status nq_verdict_write(const char *path, const nq_verdict *v,
                           const nq_verify_options *o, char *why,
                           size_t wsize)
{
    size_t len = 0;
    char *text = verdict_text(v, o, &len), tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = text ? fopen(tmp, "wb") : NULL;
    int ok = f && fwrite(text, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok && rename(tmp, path) == 0;
    int err = errno;
    free(text);
    if (ok)
        return NQ_OK;
    if (f)
        remove(tmp);
    nq_jf_why(why, wsize, "cannot write the verdict %s: %s", path,
              strerror(err));
    return NQ_ERR_IO;
}

/* ---- reading ---- */

static nq_status damaged(const nq_part_verdict *p, const char *what, char *why,
                         size_t wsize)
{
    nq_jf_why(why, wsize, "%s is no verdict of 'verify --part' or is "
              "damaged: %s", p->path, what);
    return NQ_ERR_CORRUPT;
}

/* The header's fields up to fixed=, and where the rest begins. */
static int parse_choice(nq_part_verdict *p, const char *line, int *used)
{
    return sscanf(line, VERDICT_MAGIC "n=%d plan=%31s units=%" SCNu64
                  " id=%16" SCNx64 " seed=%" SCNu64 " sample=%lf least=%"
                  SCNu64 " largest=%" SCNu64 " fixed=%d%n", &p->n, p->plan,
                  &p->units, &p->identity, &p->seed, &p->percent,
                  &p->at_least, &p->largest, &p->fixed, used) == 9;
}

/* The header: weighted= may be missing (a verdict of a release before
 * the weighted draws, which drew none: 0). */
static int parse_header(nq_part_verdict *p, const char *line)
{
    int at = 0, used = 0, more = 0;
    if (!parse_choice(p, line, &at))
        return 0;
    p->weighted = 0;
    if (sscanf(line + at, " weighted=%" SCNu64 "%n", &p->weighted, &more) ==
        1)
        at += more;
    if (sscanf(line + at, " part=%" SCNu32 "/%" SCNu32 " chosen=%" SCNu64
               " digest=%16" SCNx64 " records=%16" SCNx64 " engine=%31s%n",
               &p->part, &p->parts, &p->chosen, &p->digest, &p->records,
               p->engine, &used) != 6 || line[at + used] != '\n')
        return 0;
    return p->parts >= 1 && p->parts <= NQ_VERIFY_MAX_PARTS &&
           p->part >= 1 && p->part <= p->parts && p->seed;
}

/* A unit line, its unit above the last one's: 1, or 0. */
static int parse_unit(nq_part_verdict *p, const char *line, uint64_t cap)
{
    uint64_t u;
    char word[16];
    int used = 0;
    if (p->count == cap ||
        sscanf(line, "unit %" SCNu64 " %15s%n", &u, word, &used) != 2 ||
        line[used] != '\n' || (p->count && u <= p->ids[p->count - 1]) ||
        (strcmp(word, "agree") && strcmp(word, "disagree")))
        return 0;
    p->bad[p->count] = word[0] == 'd';
    p->disagree += p->bad[p->count];
    p->ids[p->count++] = u;
    return 1;
}

/* The lines between the header and the closing line, and the closing
 * line's counts against them. */
static nq_status parse_body(nq_part_verdict *p, char *text, const char *end,
                            char *why, size_t wsize)
{
    uint64_t lines = 0, recounted, disagree;
    for (const char *l = text; l < end; l = strchr(l, '\n') + 1)
        lines++;
    if (!(p->ids = malloc((lines + 1) * sizeof *p->ids)) ||
        !(p->bad = malloc(lines + 1)))
        return NQ_ERR_NOMEM;
    char *l = strchr(text, '\n') + 1;
    for (; l < end; l = strchr(l, '\n') + 1)
        if (!parse_unit(p, l, lines))
            return damaged(p, "a line that is no unit's verdict, or units "
                           "out of order", why, wsize);
    if (sscanf(end, "end recounted=%" SCNu64 " disagree=%" SCNu64,
               &recounted, &disagree) != 2 || recounted != p->count ||
        disagree != p->disagree)
        return damaged(p, "its closing line does not count its units",
                       why, wsize);
    return NQ_OK;
}

/* The file whole, its closing line's CRC checked, then its lines. */
nq_status nq_verdict_read(nq_part_verdict *p, char *why, size_t wsize)
{
    FILE *f = fopen(p->path, "rb");
    if (!f) {
        nq_jf_why(why, wsize, "cannot read the verdict %s: %s", p->path,
                  strerror(errno));
        return NQ_ERR_IO;
    }
    char *text = NULL, buf[65536];
    size_t len = 0, got;
    FILE *m = open_memstream(&text, &len);
    while (m && (got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, m);
    fclose(f);
    if (!m || fclose(m) != 0)
        return NQ_ERR_NOMEM;
    if (memchr(text, 0, len)) /* the lines are read as strings */
        len = 0;
    nq_status st = NQ_OK;
    char *end = len && text[len - 1] == '\n' ? text + len - 1 : NULL;
    while (end && end > text && end[-1] != '\n')
        end--;
    char *crc = end ? strstr(end, " crc=") : NULL;
    unsigned long want = crc ? strtoul(crc + 5, NULL, 16) : 0;
    if (!crc || strncmp(end, "end ", 4) || crc[13] != '\n')
        st = damaged(p, "no closing line with a CRC (cut short?)", why, wsize);
    else if (nq_crc32(0, text, (size_t)(crc - text)) != want)
        st = damaged(p, "its CRC does not match its bytes", why, wsize);
    else if (!parse_header(p, text))
        st = damaged(p, "its first line is no verdict's header", why, wsize);
    else
        st = parse_body(p, text, end, why, wsize);
    free(text);
    return st;
}


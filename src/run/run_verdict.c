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
            PRIu64 " fixed=%d part=%" PRIu32 "/%" PRIu32 " chosen=%" PRIu64
            " digest=%016" PRIx64 " records=%016" PRIx64 " engine=%s\n",
            h->n, h->plan, h->units, h->identity, r->seed, o->percent,
            o->at_least, o->largest, o->fixed_points ? 1 : 0, r->part,
            r->parts, r->chosen, r->chosen_digest, r->records_digest,
            r->engine[0] ? r->engine : "-");
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

/* One part's verdict as read. */
typedef struct {
    const char *path;
    int n, fixed;
    char plan[32], engine[32];
    uint64_t units, identity, seed, at_least, largest, chosen, digest,
        records;
    double percent;
    uint32_t part, parts;
    uint64_t *ids, count, disagree, cursor;
    unsigned char *bad;         /* per id: it disagreed */
} part_verdict;

static nq_status damaged(const part_verdict *p, const char *what, char *why,
                         size_t wsize)
{
    nq_jf_why(why, wsize, "%s is no verdict of 'verify --part' or is "
              "damaged: %s", p->path, what);
    return NQ_ERR_CORRUPT;
}

static int parse_header(part_verdict *p, const char *line)
{
    int used = 0;
    if (sscanf(line, VERDICT_MAGIC "n=%d plan=%31s units=%" SCNu64 " id=%16"
               SCNx64 " seed=%" SCNu64 " sample=%lf least=%" SCNu64
               " largest=%" SCNu64 " fixed=%d part=%" SCNu32 "/%" SCNu32
               " chosen=%" SCNu64 " digest=%16" SCNx64 " records=%16" SCNx64
               " engine=%31s%n", &p->n, p->plan, &p->units, &p->identity,
               &p->seed, &p->percent, &p->at_least, &p->largest, &p->fixed,
               &p->part, &p->parts, &p->chosen, &p->digest, &p->records,
               p->engine, &used) != 15 || line[used] != '\n')
        return 0;
    return p->parts >= 1 && p->parts <= NQ_VERIFY_MAX_PARTS &&
           p->part >= 1 && p->part <= p->parts && p->seed;
}

/* A unit line, its unit above the last one's: 1, or 0. */
static int parse_unit(part_verdict *p, const char *line, uint64_t cap)
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
static nq_status parse_body(part_verdict *p, char *text, const char *end,
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
static nq_status read_verdict(part_verdict *p, char *why, size_t wsize)
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

/* ---- putting the parts together ---- */

/* The verdicts agree on what was checked, and one of each part is
 * there: by_part[k] is part k+1's verdict. */
static nq_status same_check(const part_verdict *v, int nv, int *by_part,
                            char *why, size_t wsize)
{
    const part_verdict *a = &v[0];
    for (int i = 1; i < nv; i++) {
        const part_verdict *b = &v[i];
        const char *what = b->seed != a->seed ? "seed"
            : b->parts != a->parts ? "number of parts"
            : b->identity != a->identity || b->n != a->n ||
              strcmp(b->plan, a->plan) ? "count"
            : b->records != a->records ? "journals (their records' digest)"
            : b->percent != a->percent || b->at_least != a->at_least ||
              b->largest != a->largest || b->fixed != a->fixed ? "sample"
            : b->digest != a->digest || b->chosen != a->chosen
            ? "chosen units" : NULL;
        if (what) {
            nq_jf_why(why, wsize, "%s and %s are not parts of one check: "
                      "another %s", a->path, b->path, what);
            return NQ_ERR_MISMATCH;
        }
    }
    for (uint32_t k = 0; k < a->parts; k++)
        by_part[k] = -1;
    for (int i = 0; i < nv; i++) {
        int *at = &by_part[v[i].part - 1];
        if (*at >= 0) {
            nq_jf_why(why, wsize, "%s and %s are both part %u/%u",
                      v[*at].path, v[i].path, v[i].part, v[i].parts);
            return NQ_ERR_MISMATCH;
        }
        *at = i;
    }
    return NQ_OK;
}

/* Each part missing, named (a few, then how many). */
static nq_status parts_present(const part_verdict *v, const int *by_part,
                               char *why, size_t wsize)
{
    uint32_t missing = 0, first = 0;
    for (uint32_t k = 0; k < v->parts; k++)
        if (by_part[k] < 0 && !missing++)
            first = k + 1;
    if (!missing)
        return NQ_OK;
    nq_jf_why(why, wsize, "the check is incomplete: no verdict given of %u "
              "of its %u parts (the first: part %u/%u)", missing, v->parts,
              first, v->parts);
    return NQ_ERR_MISMATCH;
}

/* Walking the choice made again against the parts' lists. */
typedef struct {
    part_verdict *v;
    const int *by_part;
    char *why;
    size_t wsize;
    nq_status st;
} coverage;

static void covered(void *ctx, uint64_t unit, uint32_t part, double seconds)
{
    coverage *c = ctx;
    part_verdict *p = &c->v[c->by_part[part - 1]];
    (void)seconds;
    if (c->st != NQ_OK)
        return;
    if (p->cursor < p->count && p->ids[p->cursor] == unit) {
        p->cursor++;
        return;
    }
    c->st = NQ_ERR_MISMATCH;
    if (p->cursor < p->count && p->ids[p->cursor] < unit)
        nq_jf_why(c->why, c->wsize, "%s (part %u/%u) recounted unit %" PRIu64
                  ", which is not in its share", p->path, p->part, p->parts,
                  p->ids[p->cursor]);
    else
        nq_jf_why(c->why, c->wsize, "%s (part %u/%u) did not recount unit %"
                  PRIu64 " of its share", p->path, p->part, p->parts, unit);
}

/* What the choice made again says of the verdicts: the same journals,
 * the same choice, every unit of it recounted once by its part. */
static nq_status check_cover(coverage *c, int nv, const nq_verify_report *r,
                             const nq_journal_header *h)
{
    const part_verdict *a = c->v;
    if (h->identity != a->identity || h->n != a->n) {
        nq_jf_why(c->why, c->wsize, "%s checked N=%d plan %s, the journals "
                  "are of N=%d plan %s", a->path, a->n, a->plan, h->n,
                  h->plan);
        return NQ_ERR_MISMATCH;
    }
    if (r->records_digest != a->records || r->chosen_digest != a->digest) {
        nq_jf_why(c->why, c->wsize, "%s checked other journals: the %s "
                  "digest %016" PRIx64 " is not these journals' %016" PRIx64,
                  a->path, r->records_digest != a->records ? "records'" :
                  "chosen units'", r->records_digest != a->records ?
                  a->records : a->digest, r->records_digest != a->records ?
                  r->records_digest : r->chosen_digest);
        return NQ_ERR_MISMATCH;
    }
    for (int i = 0; i < nv && c->st == NQ_OK; i++)
        if (c->v[i].cursor < c->v[i].count)
            covered(c, UINT64_MAX, c->v[i].part, 0);
    return c->st;
}

/* Every recount agreed, or the units that did not, named. */
static nq_status all_agree(const part_verdict *v, int nv, char *why,
                           size_t wsize)
{
    uint64_t bad = 0;
    size_t at = 0;
    char list[512] = "";
    for (int i = 0; i < nv; i++)
        for (uint64_t k = 0; k < v[i].count; k++)
            if (v[i].bad[k] && bad++ < 8 && at < sizeof list)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%"
                                       PRIu64 " (part %u/%u)", bad > 1 ? ", "
                                       : "", v[i].ids[k], v[i].part,
                                       v[i].parts);
    if (!bad)
        return NQ_OK;
    nq_jf_why(why, wsize, "the check is complete and %" PRIu64 " recounted "
              "units disagree with their records: %s%s", bad, list,
              bad > 8 ? ", ..." : "");
    return NQ_ERR_MISMATCH;
}

/* The options the verdicts were drawn with, to draw again. */
static nq_verify_options redraw(const nq_verify_options *o,
                                const part_verdict *a, coverage *c)
{
    nq_verify_options w = {.percent = a->percent, .at_least = a->at_least,
                           .largest = a->largest, .fixed_points = a->fixed,
                           .seed = a->seed, .part = 1, .parts = a->parts,
                           .estimate_only = 1, .on_chosen = covered,
                           .ctx = c, .stop = o->stop,
                           .progress = o->progress,
                           .progress_ctx = o->progress_ctx};
    return w;
}

static nq_status combine(const char *const *journals, int count,
                         part_verdict *v, int nv, const nq_verify_options *o,
                         nq_merged *m, nq_verify_report *r, char *why,
                         size_t wsize)
{
    nq_status st = NQ_OK;
    for (int i = 0; i < nv && st == NQ_OK; i++)
        st = read_verdict(&v[i], why, wsize);
    int *by_part = st == NQ_OK ? malloc(v[0].parts * sizeof *by_part) : NULL;
    if (st == NQ_OK && !by_part)
        st = NQ_ERR_NOMEM;
    if (st == NQ_OK && (st = same_check(v, nv, by_part, why, wsize)) == NQ_OK)
        st = parts_present(v, by_part, why, wsize);
    coverage c = {v, by_part, why, wsize, NQ_OK};
    nq_verify_options w = redraw(o, &v[0], &c);
    if (st == NQ_OK)
        st = nq_journal_verify(journals, count, &w, m->header, r, m->state,
                               m->done, m->counts, why, wsize);
    if (st == NQ_OK)
        st = check_cover(&c, nv, r, m->header);
    for (int i = 0; i < nv && st == NQ_OK; i++)
        r->checked += v[i].count, r->disagree += v[i].disagree;
    if (st == NQ_OK)
        st = all_agree(v, nv, why, wsize);
    free(by_part);
    return st;
}

nq_status nq_journal_verify_combine(const char *const *journals, int count,
                                    const char *const *verdicts,
                                    int nverdicts,
                                    const nq_verify_options *o,
                                    nq_journal_header *header,
                                    nq_verify_report *r,
                                    nq_journal_state *state,
                                    unsigned char **done, nq_counts *counts,
                                    char *why, size_t wsize)
{
    if (!verdicts || nverdicts < 1 || !o || !header || !r) {
        nq_jf_why(why, wsize, "no verdicts, options, header or report");
        return NQ_ERR_ARG;
    }
    part_verdict *v = calloc((size_t)nverdicts, sizeof *v);
    if (!v)
        return NQ_ERR_NOMEM;
    for (int i = 0; i < nverdicts; i++)
        v[i].path = verdicts[i];
    nq_merged m = {header, state, done, counts, NULL, NULL};
    nq_status st = combine(journals, count, v, nverdicts, o, &m, r, why,
                           wsize);
    for (int i = 0; i < nverdicts; i++)
        free(v[i].ids), free(v[i].bad);
    free(v);
    return st;
}

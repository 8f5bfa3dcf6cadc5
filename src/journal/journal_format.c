/*
 * journal_format.c - the lines of a journal: a header, then one record per
 * finished unit, in text (doc/journal-format.md).
 *
 *   nqueens-journal 2 n=18 plan=fast-ring/1 units=6813 id=9f3c...e1 part=1/1 key=<32 hex> engine=fast crc=1a2b3c4d
 *   unit 17 81245 0 0 0 1204973 tag=0c7e2f1011223344
 *
 * Text, so that a person can read a week-long run's state with less, and
 * 128-bit counts print whole.  The header carries the CRC-32 of its text;
 * each record a SipHash-2-4 tag of its text keyed by the header's random
 * key mixed with the plan's identity, so a flipped bit, a record from
 * another journal, or an edit that did not redo the tag is refused with
 * its line and unit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "journal_format.h"

void nq_jf_why(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    if (!why || !size)
        return;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* ---- writing ---- */

int nq_jf_header_line(char *buf, size_t size, const nq_journal_header *h)
{
    int len = snprintf(buf, size, "nqueens-journal %d n=%d plan=%s units=%llu "
                       "id=%016llx part=%u/%u key=%016llx%016llx engine=%s",
                       h->version, h->n, h->plan,
                       (unsigned long long)h->units,
                       (unsigned long long)h->identity, h->part, h->parts,
                       (unsigned long long)h->key[0],
                       (unsigned long long)h->key[1], h->engine);
    return len + snprintf(buf + len, size - (size_t)len, " crc=%08x\n",
                          nq_crc32(0, buf, (size_t)len));
}

/* Little-endian bytes of x (n of them) at b; the end. */
static unsigned char *put_le(unsigned char *b, uint64_t x, int n)
{
    for (int i = 0; i < n; i++)
        *b++ = (unsigned char)(x >> 8 * i);
    return b;
}

/* Version 3's record key: SipHash, keyed by the stored key, of what the
 * header says the journal is (doc/journal-format.md lists the bytes).
 * Moving a record to another journal, or changing what a header says,
 * then needs every tag recomputed: no edit of the stored key alone can
 * make one journal's key serve another's records, as the XOR of
 * version 2 could. */
static void record_key(const nq_journal_header *h, uint64_t k[2])
{
    static const char domain[] = "nqueens-record-key";
    unsigned char buf[sizeof domain + 4 + 4 + sizeof h->plan + 8 + 8 + 4 + 4 + 1];
    unsigned char *b = buf + sizeof domain;
    size_t plan = strnlen(h->plan, sizeof h->plan - 1);
    memcpy(buf, domain, sizeof domain); /* its zero byte included */
    b = put_le(b, (uint64_t)h->version, 4);
    b = put_le(b, (uint64_t)h->n, 4);
    memcpy(b, h->plan, plan);
    b[plan] = 0, b += plan + 1;
    b = put_le(b, h->units, 8);
    b = put_le(b, h->identity, 8);
    b = put_le(b, h->part, 4);
    b = put_le(b, h->parts, 4);
    for (int w = 0; w < 2; w++) {
        *b = (unsigned char)w;
        k[w] = nq_siphash(h->key[0], h->key[1], buf, (size_t)(b + 1 - buf));
    }
}

/* The record's tag: keyed by the journal's key and what its header says,
 * so a record copied from another journal does not check out either. */
static uint64_t record_tag(const nq_journal_header *h, const char *body,
                           size_t len)
{
    uint64_t k[2];
    if (h->version < 3) /* version 2: the plan identity XORed in */
        return nq_siphash(h->key[0] ^ h->identity, h->key[1], body, len);
    record_key(h, k);
    return nq_siphash(k[0], k[1], body, len);
}

int nq_jf_record_line(char *buf, size_t size, const nq_journal_header *h,
                      uint64_t unit, const nq_tally *t)
{
    char v[5][NQ_U128_DIGITS];
    int len = snprintf(buf, size, "unit %llu %s %s %s %s %s",
                       (unsigned long long)unit, nq_format_u128(t->total, v[0]),
                       nq_format_u128(t->unique, v[1]),
                       nq_format_u128(t->fixed180, v[2]),
                       nq_format_u128(t->fixed90, v[3]),
                       nq_format_u128(t->nodes, v[4]));
    return len + snprintf(buf + len, size - (size_t)len, " tag=%016llx\n",
                          (unsigned long long)record_tag(h, buf, (size_t)len));
}

int nq_jf_run_line(char *buf, size_t size, const nq_journal_header *h,
                   double seconds, int threads, uint64_t units)
{
    int len = snprintf(buf, size, "run seconds=%.6f threads=%d units=%llu",
                       seconds, threads, (unsigned long long)units);
    return len + snprintf(buf + len, size - (size_t)len, " tag=%016llx\n",
                          (unsigned long long)record_tag(h, buf, (size_t)len));
}

int nq_jf_open_line(char *buf, size_t size, const nq_journal_header *h,
                    const nq_jf_run *run)
{
    int len = snprintf(buf, size, "run id=%016llx host=%s pid=%ld engine=%s "
                       "kernel=%s", (unsigned long long)run->id, run->host,
                       run->pid, run->engine, run->kernel);
    if (run->rank > 0) /* an MPI worker rank's run: only then, so that a
                          process's own line is as it always was */
        len += snprintf(buf + len, size - (size_t)len, " rank=%d", run->rank);
    return len + snprintf(buf + len, size - (size_t)len, " tag=%016llx\n",
                          (unsigned long long)record_tag(h, buf, (size_t)len));
}

/* ---- parsing ---- */

/* Split off the trailing " NAME=<digits hex digits>" and return its value;
 * the body is left NUL-ended.  0 if the line does not end so. */
static int split_check(char *line, const char *name, int digits,
                       uint64_t *value)
{
    size_t tail = strlen(name) + 2 + (size_t)digits, len = strlen(line);
    char *end;
    if (len < tail || line[len - tail] != ' ' ||
        strncmp(line + len - tail + 1, name, strlen(name)) ||
        line[len - (size_t)digits - 1] != '=')
        return 0;
    for (size_t i = len - (size_t)digits; i < len; i++)
        if (!strchr("0123456789abcdef", line[i]))
            return 0;
    *value = strtoull(line + len - digits, &end, 16);
    line[len - tail] = '\0';
    return 1;
}

/* The version a header line claims, or -1 if it is no journal header. */
static int header_version(const char *line)
{
    int version, used = 0;
    if (sscanf(line, "nqueens-journal %d%n", &version, &used) != 1 ||
        (line[used] != ' ' && line[used] != '\0'))
        return -1;
    return version;
}

int nq_jf_parse_header(char *line, nq_journal_header *h)
{
    unsigned long long units, id, k0, k1;
    uint64_t crc;
    int used = 0;
    char key[33];
    memset(h, 0, sizeof *h);
    if (!split_check(line, "crc", 8, &crc) ||
        crc != nq_crc32(0, line, strlen(line)))
        return 0;
    if (sscanf(line, "nqueens-journal %d n=%d plan=%31s units=%llu id=%llx "
               "part=%u/%u key=%32[0-9a-f] engine=%31s%n", &h->version, &h->n,
               h->plan, &units, &id, &h->part, &h->parts, key, h->engine,
               &used) != 9 || line[used] || strlen(key) != 32 ||
        sscanf(key, "%16llx%16llx", &k0, &k1) != 2)
        return 0;
    h->units = units, h->identity = id, h->key[0] = k0, h->key[1] = k1;
    return h->n >= 1 && h->n <= NQ_MAX_N && h->parts >= 1 &&
           h->part >= 1 && h->part <= h->parts;
}

static int parse_record(char *line, const nq_journal_header *h,
                        uint64_t *unit, nq_tally *t)
{
    char f[6][64];
    int used = 0;
    uint64_t tag;
    nq_u128 v, *dst[5] = {&t->total, &t->unique, &t->fixed180, &t->fixed90,
                          &t->nodes};
    if (!split_check(line, "tag", 16, &tag) ||
        tag != record_tag(h, line, strlen(line)))
        return 0;
    if (sscanf(line, "unit %63s %63s %63s %63s %63s %63s%n", f[0], f[1], f[2],
               f[3], f[4], f[5], &used) != 6 || line[used])
        return 0;
    if (nq_parse_u128(f[0], &v) != NQ_OK || v >= h->units)
        return 0;
    for (int i = 0; i < 5; i++)
        if (nq_parse_u128(f[i + 1], dst[i]) != NQ_OK)
            return 0;
    *unit = (uint64_t)v;
    return 1;
}

int nq_jf_same_count(const nq_journal_header *a, const nq_journal_header *b)
{
    return a->n == b->n && !strcmp(a->plan, b->plan) &&
           a->units == b->units && a->identity == b->identity;
}

int nq_jf_in_share(const nq_journal_header *h, uint64_t unit)
{
    return h->parts && unit % h->parts == h->part - 1;
}

/* ---- reading ---- */

/* What a file is when no header of it checks out. */
typedef enum {
    HL_EMPTY,          /* no bytes at all */
    HL_HALF_HEADER,    /* a header cut short: a crash while creating it */
    HL_DAMAGED_HEADER, /* a header that does not check out */
    HL_NOT_A_JOURNAL,  /* a first line that is no header at all */
} headless_kind;

/* The words for each kind, here alone: count --checkpoint, merge and
 * verify meet these files through the one reader, and each says of a file
 * what the others say.  A file that is not a journal is refused before
 * anything is written to it; an empty one or a half-written header holds
 * no record, so resuming starts it afresh and only the others refuse it. */
static nq_status headless(headless_kind kind, const char *path, char *why,
                          size_t wsize)
{
    static const char *const words[] = {
        [HL_EMPTY] = "an empty file, no journal yet (no unit was ever "
                     "recorded in it; count --checkpoint starts one there)",
        [HL_HALF_HEADER] = "a half-written journal header and nothing more "
                           "(a crash while the journal was being created, "
                           "before any unit was recorded); count "
                           "--checkpoint restarts it",
        [HL_DAMAGED_HEADER] = "the journal's header (line 1) is damaged: it "
                              "does not check out",
        [HL_NOT_A_JOURNAL] = "not an nqueens journal (its first line is no "
                             "journal header)",
    };
    nq_jf_why(why, wsize, "%s: %s", path, words[kind]);
    return NQ_ERR_CORRUPT;
}

/* Does the first line s (len bytes) begin as a header does?  A whole line
 * must hold the magic words; one cut short as much of them as it has.
 * If so it is a journal's header, damaged; if not, no journal's. */
static headless_kind first_line_kind(const char *s, size_t len, int whole)
{
    static const char magic[] = "nqueens-journal ";
    size_t m = sizeof magic - 1;
    int header = len >= m ? !memcmp(s, magic, m)
                          : !whole && len && !memcmp(s, magic, len);
    return header ? HL_DAMAGED_HEADER : HL_NOT_A_JOURNAL;
}

/* Could s (len bytes, no newline, the file's only line) be a header cut
 * short by a crash while the journal was created?  Zeros (what some file
 * systems leave after a power loss), or the magic words (as much of them
 * as there are) and printable text.  Any header will do, not only the
 * one this run would write: such a file holds no record, so restarting it
 * loses nothing, and every reader, knowing no run's header, names it
 * alike. */
static int half_header(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == '\0')
        i++;
    if (i == len)
        return 1;
    if (len > NQ_JOURNAL_LINE_MAX ||
        first_line_kind(s, len, 0) != HL_DAMAGED_HEADER)
        return 0;
    for (i = 0; i < len; i++)
        if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] > '~')
            return 0;
    return 1;
}

nq_status nq_jf_no_header(const char *path, const nq_jf_result *res,
                          char *why, size_t wsize)
{
    return headless(res->tail ? HL_HALF_HEADER : HL_EMPTY, path, why, wsize);
}

/* The start of a run line: its fixed words, digits, dots, spaces, and
 * hex digits of the tag. */
static int run_leftover(const char *s, size_t len)
{
    static const char head[] = "run ";
    for (size_t i = 0; i < len; i++)
        if (i < 4 ? s[i] != head[i]
                  : !s[i] || !(isalnum((unsigned char)s[i]) ||
                               strchr("=. _-", s[i])))
            return 0;
    return 1;
}

/* Could `s` (len bytes, no newline) be the start of a line a journal
 * holds?  Only then is it the remains of a write cut short by a crash:
 * zeros (what some file systems leave after a power loss), a header cut
 * short, a run line's start, or "unit " and numbers, perhaps up to
 * " tag=" and some hex digits.  Anything else is damage, and is refused.
 * Returns what it was (NQ_JF_TAIL_RUN for a run line's start, else
 * NQ_JF_TAIL_RECORD), or 0 for damage. */
static int crash_leftover(const char *s, size_t len, int have_header)
{
    size_t i = 0;
    if (!have_header)
        return half_header(s, len) ? NQ_JF_TAIL_RECORD : 0;
    while (i < len && s[i] == '\0')
        i++;
    if (i == len)
        return NQ_JF_TAIL_RECORD;
    static const char unit[] = "unit ", tag[] = "tag=";
    if (len >= 1 && s[0] == 'r') /* a run line: "run " and its fields */
        return run_leftover(s, len) ? NQ_JF_TAIL_RUN : 0;
    for (i = 0; i < len && i < 5; i++)
        if (s[i] != unit[i])
            return 0;
    while (i < len && (s[i] == ' ' || (s[i] >= '0' && s[i] <= '9')))
        i++;
    if (i == len)
        return NQ_JF_TAIL_RECORD;
    if (s[i - 1] != ' ') /* " tag=" follows the numbers */
        return 0;
    for (size_t k = 0; i < len && k < 4; i++, k++)
        if (s[i] != tag[k])
            return 0;
    for (size_t hex = 0; i < len; i++, hex++)
        if (hex == 16 || !s[i] || !strchr("0123456789abcdef", s[i]))
            return 0;
    return NQ_JF_TAIL_RECORD;
}

static nq_status check_header(char *line, const char *path,
                              const nq_jf_reader *rd, nq_jf_result *res,
                              char *why, size_t wsize)
{
    int version = header_version(line);
    if (version >= 0 && (version < NQ_JOURNAL_OLDEST ||
                         version > NQ_JOURNAL_VERSION)) {
        nq_jf_why(why, wsize, "%s: journal format version %d is not "
                  "supported (this release reads %d..%d)", path, version,
                  NQ_JOURNAL_OLDEST, NQ_JOURNAL_VERSION);
        return NQ_ERR_VERSION;
    }
    headless_kind kind = first_line_kind(line, strlen(line), 1);
    if (!nq_jf_parse_header(line, &res->header))
        return headless(kind, path, why, wsize);
    nq_status st = rd->header(rd->ctx, path, &res->header, why, wsize);
    res->have_header = st == NQ_OK;
    return st;
}

/* The optional last field of an opening run line, " rank=K" (an MPI
 * worker rank's run: K from 1 to 999999999, no sign, no leading zero),
 * and nothing after it: 1 with *rank set, else 0. */
static int rank_field(const char *s, int *rank)
{
    static const char word[] = " rank=";
    size_t digits = 0;
    long k = 0;
    if (strncmp(s, word, sizeof word - 1))
        return 0;
    s += sizeof word - 1;
    for (; s[digits] >= '0' && s[digits] <= '9' && digits < 10; digits++)
        k = 10 * k + (s[digits] - '0');
    if (!digits || digits > 9 || s[digits] || s[0] == '0')
        return 0;
    *rank = (int)k;
    return 1;
}

/* An opening run line (version 4): which run wrote the records after
 * it, handed to the reader's run(). */
static nq_status check_open(char *line, const char *path, long no,
                            const nq_jf_reader *rd, nq_jf_result *res,
                            char *why, size_t wsize)
{
    uint64_t tag;
    unsigned long long id;
    nq_jf_run run = {0};
    int used = 0;
    if (res->header.version < 4 || !split_check(line, "tag", 16, &tag) ||
        tag != record_tag(&res->header, line, strlen(line)) ||
        sscanf(line, "run id=%16llx host=%63s pid=%ld engine=%31s "
               "kernel=%15s%n", &id, run.host, &run.pid, run.engine,
               run.kernel, &used) != 5 ||
        (line[used] && !rank_field(line + used, &run.rank))) {
        nq_jf_why(why, wsize, "%s line %ld: a run line that does not check "
                  "out (damaged or edited)", path, no);
        return NQ_ERR_CORRUPT;
    }
    run.id = id;
    return rd->run ? rd->run(rd->ctx, path, no, &run, why, wsize) : NQ_OK;
}

/* A run line: one session's time and threads, summed into the result. */
static nq_status check_run(char *line, const char *path, long no,
                           nq_jf_result *res, char *why, size_t wsize)
{
    uint64_t tag;
    double seconds;
    int threads, used = 0;
    unsigned long long units;
    if (!split_check(line, "tag", 16, &tag) ||
        tag != record_tag(&res->header, line, strlen(line)) ||
        sscanf(line, "run seconds=%lf threads=%d units=%llu%n", &seconds,
               &threads, &units, &used) != 3 || line[used] || threads < 1) {
        nq_jf_why(why, wsize, "%s line %ld: a run line that does not check "
                  "out (damaged or edited)", path, no);
        return NQ_ERR_CORRUPT;
    }
    /* A tag proves nothing (the key is in the file): a time of inf or nan
     * would print as no JSON and no duration, a negative one take time
     * from the others. */
    if (!(seconds >= 0 && seconds <= NQ_JOURNAL_MAX_RUN_SECONDS)) {
        nq_jf_why(why, wsize, "%s line %ld: a run line whose time is not "
                  "from 0 to %.0f seconds (damaged or edited)", path, no,
                  NQ_JOURNAL_MAX_RUN_SECONDS);
        return NQ_ERR_CORRUPT;
    }
    res->seconds += seconds;
    res->threads = threads > res->threads ? threads : res->threads;
    return NQ_OK;
}

/* A record that checks out but whose unit is outside the header's share.
 * No nqueens writes one (a share runs only its own units), so the header
 * or the record was edited: version 2's tags do not cover part=, and a
 * writer with the key can tag anything.  Refused by every reader, not only
 * by resuming, which would otherwise count it towards the share and call
 * the share done with units of it never counted: one verdict for one
 * file, and merge needs no such record (the other share's journal holds
 * it). */
static nq_status outside_share(const char *path, long no, uint64_t unit,
                               const nq_journal_header *h, char *why,
                               size_t wsize)
{
    nq_jf_why(why, wsize, "%s line %ld: unit %llu is outside the journal's "
              "share, part %u/%u (damaged or edited)", path, no,
              (unsigned long long)unit, h->part, h->parts);
    return NQ_ERR_CORRUPT;
}

static nq_status check_line(char *line, size_t len, const char *path, long no,
                            const nq_jf_reader *rd, nq_jf_result *res,
                            char *why, size_t wsize)
{
    uint64_t unit;
    nq_tally t = {0};
    if (len > NQ_JOURNAL_LINE_MAX || memchr(line, '\0', len)) {
        if (!res->have_header)
            return headless(first_line_kind(line, len, 1), path, why, wsize);
        nq_jf_why(why, wsize, "%s line %ld: damaged record", path, no);
        return NQ_ERR_CORRUPT;
    }
    line[len] = '\0';
    if (!res->have_header)
        return check_header(line, path, rd, res, why, wsize);
    if (!strncmp(line, "run id=", 7))
        return check_open(line, path, no, rd, res, why, wsize);
    if (!strncmp(line, "run ", 4))
        return check_run(line, path, no, res, why, wsize);
    if (!parse_record(line, &res->header, &unit, &t)) {
        unsigned long long u;
        if (sscanf(line, "unit %llu ", &u) == 1)
            nq_jf_why(why, wsize, "%s line %ld: the record of unit %llu does "
                      "not check out (damaged or edited)", path, no, u);
        else
            nq_jf_why(why, wsize, "%s line %ld: damaged record", path, no);
        return NQ_ERR_CORRUPT;
    }
    if (!nq_jf_in_share(&res->header, unit))
        return outside_share(path, no, unit, &res->header, why, wsize);
    return rd->record(rd->ctx, path, no, unit, &t, why, wsize);
}

nq_status nq_jf_read(FILE *f, const char *path, const nq_jf_reader *rd,
                     nq_jf_result *res, char *why, size_t wsize)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    nq_status st = NQ_OK;
    memset(res, 0, sizeof *res);
    while (st == NQ_OK && (len = getline(&line, &cap, f)) >= 0) {
        if (++no % 4096 == 0 && rd->stop &&
            __atomic_load_n(rd->stop, __ATOMIC_RELAXED)) {
            nq_jf_why(why, wsize, "interrupted while reading the journal %s",
                      path);
            st = NQ_ERR_STOPPED;
            break;
        }
        if (len == 0 || line[len - 1] != '\n') { /* the end, cut short */
            res->tail = crash_leftover(line, (size_t)len, res->have_header);
            if (res->tail) {
                /* left out: the next run writes it again */
            } else if (!res->have_header) {
                st = headless(first_line_kind(line, (size_t)len, 0), path,
                              why, wsize);
            } else {
                nq_jf_why(why, wsize, "%s line %ld: the last line is cut "
                          "short and no part of a journal", path, no);
                st = NQ_ERR_CORRUPT;
            }
            break;
        }
        st = check_line(line, (size_t)len - 1, path, no, rd, res, why, wsize);
        if (st == NQ_OK)
            res->good += (off_t)len;
    }
    if (st == NQ_OK && ferror(f)) {
        nq_jf_why(why, wsize, "%s: %s", path, strerror(errno));
        st = NQ_ERR_IO;
    }
    free(line);
    return st;
}

/*
 * journal.c - checkpoints: an append-only record of finished units.
 *
 * A journal is a text file.  Its first line says what it is for:
 *
 *   nqueens-journal 1 n=18 engine=fast units=6813 plan=9f3c...e1 part=1/1 crc=1a2b3c4d
 *
 * and each further line is one finished unit:
 *
 *   unit 17 81245 0 0 0 1204973 crc=0c7e2f10
 *
 * (id, then the unit's total, unique, half-turn and quarter-turn counts and
 * nodes, in decimal: 128-bit counts print whole).  Every line carries the
 * CRC-32 of its text, records mixed with the plan's hash, so a flipped bit,
 * a line from another journal or a hand edit is caught.  Lines are only
 * ever appended, by one writer thread that writes what has queued up and
 * fsyncs it, then goes back for more, at most every 20 ms so that short
 * units do not turn the run into a stream of fsyncs; every record is
 * fsynced, a crash loses at most the units of the last 20 ms.  A crash can leave only the last line half written: opening
 * the journal drops it (and the unit is done again).  Anything else that
 * does not check out is an error and the file is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/core.h"
#include "../engines/engine.h"

#define JOURNAL_VERSION 1
#define LINE_MAX_LEN 512

struct nq_journal {
    int fd;
    uint64_t plan_hash, units;
    unsigned char *done;          /* bit per unit with a record */
    nq_journal_state state;
    /* the writer thread and its queue */
    pthread_t writer;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    char *queue;
    size_t queued, cap;
    int closing;
    int idle;                     /* the writer waits for records */
    nq_status error;              /* first write failure */
    off_t synced;                 /* the file ends here after each write */
};

static void why_set(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void why_set(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    if (!why || !size)
        return;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* ---- lines ---- */

static uint32_t line_crc(const char *text, size_t len, uint64_t plan_hash,
                         int record)
{
    uint32_t crc = nq_crc32(0, text, len);
    unsigned char h[8];
    if (!record)
        return crc;
    for (int i = 0; i < 8; i++)
        h[i] = (unsigned char)(plan_hash >> (8 * i));
    return nq_crc32(crc, h, sizeof h);
}

static int header_line(char *buf, size_t size, const nq_journal_header *h)
{
    int len = snprintf(buf, size, "nqueens-journal %d n=%d engine=%s "
                       "units=%llu plan=%016llx part=%u/%u", JOURNAL_VERSION,
                       h->n, h->engine, (unsigned long long)h->units,
                       (unsigned long long)h->plan_hash, h->part, h->parts);
    return len + snprintf(buf + len, size - (size_t)len, " crc=%08x\n",
                          line_crc(buf, (size_t)len, 0, 0));
}

static int record_line(char *buf, size_t size, uint64_t plan_hash,
                       uint64_t unit, const nq_tally *t)
{
    char v[5][NQ_U128_DIGITS];
    int len = snprintf(buf, size, "unit %llu %s %s %s %s %s",
                       (unsigned long long)unit, nq_format_u128(t->total, v[0]),
                       nq_format_u128(t->unique, v[1]),
                       nq_format_u128(t->fixed180, v[2]),
                       nq_format_u128(t->fixed90, v[3]),
                       nq_format_u128(t->nodes, v[4]));
    return len + snprintf(buf + len, size - (size_t)len, " crc=%08x\n",
                          line_crc(buf, (size_t)len, plan_hash, 1));
}

/* Split off " crc=XXXXXXXX" and check it; the body is left NUL-ended. */
static int checked_body(char *line, uint64_t plan_hash, int record)
{
    char *tag = strstr(line, " crc=");
    unsigned long crc;
    char *end;
    if (!tag || strlen(tag) != 13)
        return 0;
    crc = strtoul(tag + 5, &end, 16);
    if (*end)
        return 0;
    *tag = '\0';
    return crc == line_crc(line, (size_t)(tag - line), plan_hash, record);
}

static int parse_header(char *line, nq_journal_header *h)
{
    int version, used = 0;
    unsigned long long units, hash;
    if (!checked_body(line, 0, 0))
        return 0;
    if (sscanf(line, "nqueens-journal %d n=%d engine=%31s units=%llu plan=%llx "
               "part=%u/%u%n", &version, &h->n, h->engine, &units, &hash,
               &h->part, &h->parts, &used) != 7 || line[used] ||
        version != JOURNAL_VERSION || h->n < 1 || h->n > NQ_MAX_N ||
        h->part > h->parts || (h->part == 0) != (h->parts == 0))
        return 0;
    h->units = units, h->plan_hash = hash;
    return 1;
}

static int parse_record(char *line, uint64_t plan_hash, uint64_t units,
                        uint64_t *unit, nq_tally *t)
{
    char f[6][64];
    unsigned long long id;
    int used = 0;
    nq_u128 *dst[5] = {&t->total, &t->unique, &t->fixed180, &t->fixed90,
                       &t->nodes};
    if (!checked_body(line, plan_hash, 1))
        return 0;
    if (sscanf(line, "unit %63s %63s %63s %63s %63s %63s%n", f[0], f[1], f[2],
               f[3], f[4], f[5], &used) != 6 || line[used])
        return 0;
    nq_u128 v;
    if (nq_parse_u128(f[0], &v) != NQ_OK || v >= units)
        return 0;
    id = (unsigned long long)v;
    for (int i = 0; i < 5; i++)
        if (nq_parse_u128(f[i + 1], dst[i]) != NQ_OK)
            return 0;
    *unit = id;
    return 1;
}

/* ---- reading a journal ---- */

/* Could `s` (len bytes, no newline) be the start of a line a journal
 * holds?  Only then is it the remains of a write cut short by a crash:
 * zeros (what some file systems leave after a power loss), a prefix of the
 * expected header, or "unit " and numbers, perhaps up to " crc=" and some
 * hex digits.  Anything else is damage, and is refused. */
static int crash_leftover(const char *s, size_t len, int have_header,
                          const char *expected_header)
{
    size_t i = 0;
    while (i < len && s[i] == '\0')
        i++;
    if (i == len)
        return 1;
    if (!have_header)
        return expected_header && len <= strlen(expected_header) &&
               memcmp(s, expected_header, len) == 0;
    static const char unit[] = "unit ", crc[] = "crc=";
    for (i = 0; i < len && i < 5; i++)
        if (s[i] != unit[i])
            return 0;
    while (i < len && (s[i] == ' ' || (s[i] >= '0' && s[i] <= '9')))
        i++;
    if (i == len)
        return 1;
    if (s[i - 1] != ' ') /* " crc=" follows the numbers */
        return 0;
    for (size_t k = 0; i < len && k < 4; i++, k++)
        if (s[i] != crc[k])
            return 0;
    for (size_t hex = 0; i < len; i++, hex++)
        if (hex == 8 || !((s[i] >= '0' && s[i] <= '9') ||
                          (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

/* Read and check every line.  Each record's tally is passed to keep(); the
 * length of the checked part (up to the last newline) is returned in
 * *good, and whether bytes after it (a half-written line) were seen. */
typedef nq_status (*record_fn)(void *ctx, uint64_t unit, const nq_tally *t,
                               long line_no);
/* Called once the header is read, before any record: a journal of another
 * count is refused before its records are looked at. */
typedef nq_status (*header_fn)(void *ctx, const char *path,
                               const nq_journal_header *h, char *why,
                               size_t wsize);

static nq_status check_line(char *line, size_t len, const char *path, long no,
                            nq_journal_header *h, int *have_header,
                            header_fn check, record_fn keep, void *ctx,
                            char *why, size_t wsize)
{
    if (len > LINE_MAX_LEN || memchr(line, '\0', len)) {
        why_set(why, wsize, *have_header ? "%s line %ld: damaged record (bad "
                "checksum or format)" : "%s: not an nqueens journal (line %ld "
                "does not check out)", path, no);
        return NQ_ERR_CORRUPT;
    }
    line[len] = '\0';
    if (!*have_header) {
        if (!parse_header(line, h)) {
            why_set(why, wsize, "%s: not an nqueens journal (line 1 does not "
                    "check out)", path);
            return NQ_ERR_CORRUPT;
        }
        nq_status st = check(ctx, path, h, why, wsize);
        *have_header = st == NQ_OK;
        return st;
    }
    uint64_t unit;
    nq_tally t = {0};
    if (!parse_record(line, h->plan_hash, h->units, &unit, &t)) {
        why_set(why, wsize, "%s line %ld: damaged record (bad checksum or "
                "format)", path, no);
        return NQ_ERR_CORRUPT;
    }
    nq_status st = keep(ctx, unit, &t, no);
    if (st != NQ_OK)
        why_set(why, wsize, "%s line %ld: unit %llu recorded twice with "
                "different counts", path, no, (unsigned long long)unit);
    return st;
}

static nq_status read_journal(FILE *f, const char *path,
                              const char *expected_header, nq_journal_header *h,
                              int *have_header, header_fn check, record_fn keep,
                              void *ctx, off_t *good, int *tail, char *why,
                              size_t wsize)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    nq_status st = NQ_OK;
    *have_header = 0, *good = 0, *tail = 0;
    while (st == NQ_OK && (len = getline(&line, &cap, f)) >= 0) {
        no++;
        if (len == 0 || line[len - 1] != '\n') { /* the end, cut short */
            if (crash_leftover(line, (size_t)len, *have_header,
                               expected_header)) {
                *tail = 1;
            } else {
                why_set(why, wsize, "%s line %ld: the last line is cut short "
                        "and no part of a journal", path, no);
                st = NQ_ERR_CORRUPT;
            }
            break;
        }
        st = check_line(line, (size_t)len - 1, path, no, h, have_header, check,
                        keep, ctx, why, wsize);
        if (st == NQ_OK)
            *good += (off_t)len;
    }
    if (st == NQ_OK && ferror(f)) {
        why_set(why, wsize, "%s: %s", path, strerror(errno));
        st = NQ_ERR_IO;
    }
    free(line);
    return st;
}

/* Units seen, each counted once: a repeat must carry the same counts. */
typedef struct {
    unsigned char *done;
    uint64_t *digest;   /* per unit, to compare repeats */
    nq_journal_state *state;
    const nq_journal_header *want;  /* the count the records must be of */
    int check_part;                 /* resuming: the part must match too */
    const char *first;              /* merging: the journal that set want */
} record_set;

static int same_count(const nq_journal_header *a, const nq_journal_header *b,
                      int check_part)
{
    return a->n == b->n && !strcmp(a->engine, b->engine) &&
           a->units == b->units && a->plan_hash == b->plan_hash &&
           (!check_part || (a->part == b->part && a->parts == b->parts));
}

static int other_plan(const nq_journal_header *a, const nq_journal_header *b)
{
    return a->n == b->n && !strcmp(a->engine, b->engine) &&
           (a->plan_hash != b->plan_hash || a->units != b->units);
}

static nq_status check_header(void *ctx, const char *path,
                              const nq_journal_header *h, char *why,
                              size_t wsize)
{
    const record_set *rs = ctx;
    const nq_journal_header *w = rs->want;
    if (same_count(h, w, rs->check_part))
        return NQ_OK;
    if (rs->first)
        why_set(why, wsize, "%s is for N=%d engine %s, %s for N=%d engine %s%s",
                path, h->n, h->engine, rs->first, w->n, w->engine,
                other_plan(h, w) ? " (another unit plan)" : "");
    else
        why_set(why, wsize, "%s is the journal of N=%d engine %s part %u/%u%s, "
                "not of this count (N=%d engine %s part %u/%u)", path, h->n,
                h->engine, h->part, h->parts,
                other_plan(h, w) ? " with another unit plan" : "", w->n,
                w->engine, w->part, w->parts);
    return NQ_ERR_MISMATCH;
}

static uint64_t tally_digest(const nq_tally *t)
{
    return nq_fnv1a(NQ_FNV_OFFSET, t, sizeof *t);
}

static nq_status keep_record(void *ctx, uint64_t unit, const nq_tally *t,
                             long line_no)
{
    record_set *rs = ctx;
    uint64_t d = tally_digest(t);
    (void)line_no;
    if (rs->done[unit / 8] >> (unit % 8) & 1)
        return rs->digest[unit] == d ? NQ_OK : NQ_ERR_CORRUPT;
    rs->done[unit / 8] |= (unsigned char)(1u << (unit % 8));
    rs->digest[unit] = d;
    rs->state->units_done++;
    return nq_tally_add(&rs->state->sum, t);
}


/* ---- the writer thread ---- */

static nq_status write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t k = write(fd, buf, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return NQ_ERR_IO;
        buf += k, len -= (size_t)k;
    }
    return fsync(fd) == 0 ? NQ_OK : NQ_ERR_IO;
}

/* Append whole lines; if that fails (a full disk), cut the file back to
 * its last whole line, so that it stays a journal a later run can resume. */
static nq_status append(nq_journal *j, const char *buf, size_t len)
{
    nq_status st = write_all(j->fd, buf, len);
    if (st == NQ_OK) {
        j->synced += (off_t)len;
    } else if (ftruncate(j->fd, j->synced) == 0) {
        lseek(j->fd, j->synced, SEEK_SET);
        fsync(j->fd);
    }
    return st;
}

/* Pause between syncs: units finishing meanwhile share the next write
 * and fsync.  A crash loses at most this much finished work. */
#define SYNC_GAP_NS 20000000L

static void wait_gap(nq_journal *j, const struct timespec *last)
{
    struct timespec until = *last;
    until.tv_nsec += SYNC_GAP_NS;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    while (!j->closing &&
           pthread_cond_timedwait(&j->wake, &j->lock, &until) == 0)
        ;
}

/* Take the whole queue, write and fsync it while new records queue up in
 * the other buffer, and go back for more. */
static void *writer(void *arg)
{
    nq_journal *j = arg;
    char *spare = NULL;
    size_t spare_cap = 0;
    struct timespec last;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        j->idle = 1;
        while (!j->queued && !j->closing)
            pthread_cond_wait(&j->wake, &j->lock);
        j->idle = 0;
        if (!j->queued)
            break;
        char *buf = j->queue;
        size_t len = j->queued, cap = j->cap;
        j->queue = spare, j->cap = spare_cap, j->queued = 0;
        int failed = j->error != NQ_OK;
        pthread_mutex_unlock(&j->lock);
        clock_gettime(CLOCK_REALTIME, &last);
        /* after a failed write nothing more is written: the records queued
         * since are lost, and the units redone by the next run */
        nq_status st = failed ? NQ_OK : append(j, buf, len);
        pthread_mutex_lock(&j->lock);
        if (st != NQ_OK && j->error == NQ_OK)
            j->error = st;
        spare = buf, spare_cap = cap;
        wait_gap(j, &last);
    }
    pthread_mutex_unlock(&j->lock);
    free(spare);
    return NULL;
}

/* ---- public ---- */

static void journal_free(nq_journal *j)
{
    if (!j)
        return;
    if (j->fd >= 0)
        close(j->fd);
    free(j->done);
    free(j->queue);
    free(j);
}

static void plan_header(const nq_plan *plan, uint32_t part, uint32_t parts,
                        nq_journal_header *h)
{
    memset(h, 0, sizeof *h);
    h->n = plan->n;
    snprintf(h->engine, sizeof h->engine, "%s", plan->engine->name);
    h->units = plan->units;
    h->plan_hash = nq_plan_hash(plan);
    h->part = parts ? part : 1;
    h->parts = parts ? parts : 1;
}

/* Check an existing journal against the plan; on success *good is where
 * new records go (a half-written last line cut off). */
static nq_status load_existing(nq_journal *j, FILE *f, const char *path,
                               const nq_journal_header *want, off_t *good,
                               int *have_header, char *why, size_t wsize)
{
    nq_journal_header h;
    char expected[LINE_MAX_LEN];
    uint64_t *digest = calloc(want->units ? want->units : 1, sizeof *digest);
    record_set rs = {j->done, digest, &j->state, want, 1, NULL};
    int tail;
    nq_status st;
    if (!digest)
        return NQ_ERR_NOMEM;
    header_line(expected, sizeof expected, want);
    st = read_journal(f, path, expected, &h, have_header, check_header,
                      keep_record, &rs, good, &tail, why, wsize);
    free(digest);
    j->state.dropped_tail = tail;
    return st;
}

/* Open a journal that must be a regular file: a FIFO or a terminal would
 * block the open or the first read forever, a device is no place for a
 * record.  O_NONBLOCK only for the open (a FIFO's open waits for a
 * writer); -1 with why set on failure. */
static int open_regular(const char *path, int flags, const char *verb,
                        char *why, size_t wsize)
{
    struct stat st;
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        why_set(why, wsize, "cannot %s %s: %s", verb, path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        why_set(why, wsize, "%s is not a regular file", path);
        close(fd);
        return -1;
    }
    return fd;
}

/* The same, as a stdio stream for reading. */
static FILE *open_regular_read(const char *path, char *why, size_t wsize)
{
    int fd = open_regular(path, O_RDONLY, "read", why, wsize);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (fd >= 0 && !f) {
        why_set(why, wsize, "cannot read %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* Open (creating if need be) and lock the file: two runs appending to one
 * journal would interleave their lines. */
static nq_status lock_file(const char *path, int *fd, char *why, size_t wsize)
{
    *fd = open_regular(path, O_RDWR | O_CREAT, "write", why, wsize);
    if (*fd < 0)
        return NQ_ERR_IO;
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        why_set(why, wsize, errno == EWOULDBLOCK ? "%s is in use by another "
                "nqueens run" : "cannot lock %s", path);
        return NQ_ERR_IO;
    }
    return NQ_OK;
}

/* Check what the file holds (a new file holds nothing), cut off a crash's
 * half line, and start it with a header if it has none. */
static nq_status prepare(nq_journal *j, const char *path,
                         const nq_journal_header *want, char *why, size_t wsize)
{
    off_t good = 0;
    int have_header = 0, fd2 = dup(j->fd);
    FILE *f = fd2 >= 0 ? fdopen(fd2, "r") : NULL;
    nq_status st;
    if (!f) {
        if (fd2 >= 0)
            close(fd2);
        why_set(why, wsize, "cannot read %s: %s", path, strerror(errno));
        return NQ_ERR_IO;
    }
    st = load_existing(j, f, path, want, &good, &have_header, why, wsize);
    fclose(f);
    if (st != NQ_OK)
        return st;
    if (ftruncate(j->fd, good) != 0 || lseek(j->fd, good, SEEK_SET) != good) {
        why_set(why, wsize, "cannot write %s: %s", path, strerror(errno));
        return NQ_ERR_IO;
    }
    j->synced = good;
    if (!have_header) {
        char line[LINE_MAX_LEN];
        int len = header_line(line, sizeof line, want);
        if ((st = append(j, line, (size_t)len)) != NQ_OK)
            why_set(why, wsize, "cannot write %s: %s", path, strerror(errno));
    }
    return st;
}

nq_status nq_journal_open(const char *path, const nq_plan *plan, uint32_t part,
                          uint32_t parts, nq_journal **out, char *why,
                          size_t wsize)
{
    nq_journal *j = calloc(1, sizeof *j);
    nq_journal_header want;
    nq_status st;
    if (!j || !(j->done = calloc(plan->units / 8 + 1, 1))) {
        free(j);
        return NQ_ERR_NOMEM;
    }
    plan_header(plan, part, parts, &want);
    j->plan_hash = want.plan_hash, j->units = plan->units;
    if ((st = lock_file(path, &j->fd, why, wsize)) == NQ_OK)
        st = prepare(j, path, &want, why, wsize);
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->wake, NULL);
    if (st == NQ_OK && pthread_create(&j->writer, NULL, writer, j) != 0)
        st = NQ_ERR_THREAD;
    if (st != NQ_OK) {
        pthread_cond_destroy(&j->wake);
        pthread_mutex_destroy(&j->lock);
        journal_free(j);
        return st;
    }
    *out = j;
    return NQ_OK;
}

const nq_journal_state *nq_journal_state_get(const nq_journal *j)
{
    return &j->state;
}

const unsigned char *nq_journal_done(const nq_journal *j) { return j->done; }

/* A unit already recorded is not recorded again (nor added twice). */
nq_status nq_journal_record(nq_journal *j, uint64_t unit, const nq_tally *t)
{
    char line[LINE_MAX_LEN];
    nq_status st = NQ_OK;
    if (unit >= j->units)
        return NQ_ERR_ARG;
    int len = record_line(line, sizeof line, j->plan_hash, unit, t);
    pthread_mutex_lock(&j->lock);
    if (j->error != NQ_OK) {
        st = j->error;
    } else if (!(j->done[unit / 8] >> (unit % 8) & 1)) {
        nq_tally sum = j->state.sum;
        if (j->queued + (size_t)len > j->cap) {
            size_t cap = 2 * (j->queued + (size_t)len) + 4096;
            char *q = realloc(j->queue, cap);
            if (!q)
                st = NQ_ERR_NOMEM;
            else
                j->queue = q, j->cap = cap;
        }
        if (st == NQ_OK)
            st = nq_tally_add(&sum, t);
        if (st == NQ_OK) {
            memcpy(j->queue + j->queued, line, (size_t)len);
            j->queued += (size_t)len;
            j->done[unit / 8] |= (unsigned char)(1u << (unit % 8));
            j->state.units_done++;
            j->state.sum = sum;
            if (j->idle) /* else it is writing or pausing, and will look */
                pthread_cond_signal(&j->wake);
        }
    }
    pthread_mutex_unlock(&j->lock);
    return st;
}

nq_status nq_journal_close(nq_journal *j)
{
    nq_status st;
    if (!j)
        return NQ_OK;
    pthread_mutex_lock(&j->lock);
    j->closing = 1;
    pthread_cond_signal(&j->wake);
    pthread_mutex_unlock(&j->lock);
    pthread_join(j->writer, NULL);
    st = j->error;
    if (close(j->fd) != 0 && st == NQ_OK)
        st = NQ_ERR_IO;
    j->fd = -1;
    pthread_cond_destroy(&j->wake);
    pthread_mutex_destroy(&j->lock);
    journal_free(j);
    return st;
}

/* ---- merging ---- */

/* The journal's count is one this nqueens can plan, with the same units. */
static nq_status plan_matches(const nq_journal_header *h, const char *path,
                              char *why, size_t wsize)
{
    nq_request req = {.n = h->n, .engine = h->engine};
    nq_plan *p;
    if (nq_plan_create(&req, &p) != NQ_OK) {
        why_set(why, wsize, "%s is for engine '%s' N=%d, which this nqueens "
                "cannot count", path, h->engine, h->n);
        return NQ_ERR_MISMATCH;
    }
    int same = nq_plan_units(p) == h->units && nq_plan_hash(p) == h->plan_hash;
    nq_plan_free(p);
    if (!same)
        why_set(why, wsize, "%s was written with another unit plan for N=%d "
                "engine %s (another version of nqueens?)", path, h->n,
                h->engine);
    return same ? NQ_OK : NQ_ERR_MISMATCH;
}

nq_status nq_journal_merge(const char *const *paths, int count,
                           nq_journal_header *header, nq_journal_state *state,
                           unsigned char **done, char *why, size_t wsize)
{
    uint64_t *digest = NULL;
    record_set rs = {NULL, NULL, state, header, 0, paths[0]};
    nq_status st = NQ_OK;
    char line[LINE_MAX_LEN + 2];
    memset(state, 0, sizeof *state);
    *done = NULL;
    /* the first journal's header fixes the count */
    FILE *f = count > 0 ? open_regular_read(paths[0], why, wsize) : NULL;
    if (!f)
        return NQ_ERR_IO;
    if (!fgets(line, sizeof line, f) || !strchr(line, '\n') ||
        (line[strlen(line) - 1] = '\0', !parse_header(line, header))) {
        why_set(why, wsize, "%s: not an nqueens journal (line 1 does not "
                "check out)", paths[0]);
        st = NQ_ERR_CORRUPT;
    }
    fclose(f);
    if (st == NQ_OK) /* before trusting its unit count with memory */
        st = plan_matches(header, paths[0], why, wsize);
    if (st == NQ_OK) {
        *done = calloc(header->units / 8 + 1, 1);
        digest = calloc(header->units ? header->units : 1, sizeof *digest);
        if (!*done || !digest)
            st = NQ_ERR_NOMEM;
        rs.done = *done, rs.digest = digest;
    }
    for (int i = 0; i < count && st == NQ_OK; i++) {
        nq_journal_header h;
        int have_header, tail;
        off_t good;
        if (!(f = open_regular_read(paths[i], why, wsize))) {
            st = NQ_ERR_IO;
            break;
        }
        st = read_journal(f, paths[i], NULL, &h, &have_header, check_header,
                          keep_record, &rs, &good, &tail, why, wsize);
        fclose(f);
        if (st == NQ_OK && !have_header) {
            why_set(why, wsize, "%s: not an nqueens journal (no header)",
                    paths[i]);
            st = NQ_ERR_CORRUPT;
        }
        state->dropped_tail |= tail;
    }
    free(digest);
    if (st != NQ_OK) {
        free(*done);
        *done = NULL;
    }
    return st;
}

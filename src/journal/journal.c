/*
 * journal.c - the journal of a running count: opened (and resumed), locked,
 * appended to by a writer thread, watched.
 *
 * Lines are only ever appended, by one writer thread that writes what has
 * queued up and fsyncs it, then goes back for more, at most every 20 ms so
 * that short units do not turn the run into a stream of fsyncs; a crash
 * loses at most the units of the last 20 ms, and can leave only the last
 * line half written, which the next open cuts off.
 *
 * A week-long run must not lose its record silently.  Before each write
 * the writer checks that the path still names the file it writes and that
 * the file still ends where its last write did: a journal removed,
 * replaced or truncated by someone else stops the run with that said.  A
 * full disk keeps every record that fits, line by line, and says why.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/core.h"
#include "journal.h"

#define WHY_MAX 512

struct nq_journal {
    int fd, writable;
    char *path;
    dev_t dev;
    ino_t ino;
    nq_journal_header header;
    nq_record_set set;
    const nq_jf_check *check;     /* while it is read (opening) */
    /* the writer thread and its queue */
    pthread_t writer;
    int writer_started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    char *queue;
    size_t queued, cap;
    int closing;
    int idle;                     /* the writer waits for records */
    nq_status error;              /* first write failure, and why */
    char why[WHY_MAX];
    off_t synced;                 /* the file ends here after each write */
    nq_jf_run run;                /* this session's run (version 4) */
    int run_known;                /* set (and the journal of version 4) */
    int line_queued;              /* an opening line was queued... */
    uint64_t line_id;             /* ...the last, this run's */
};

/* ---- the set of records ---- */

nq_status nq_record_set_init(nq_record_set *rs, uint64_t units)
{
    memset(rs, 0, sizeof *rs);
    rs->units = units;
    rs->done = calloc(units / 8 + 1, 1);
    rs->digest = calloc(units ? units : 1, sizeof *rs->digest);
    nq_journal_new_key(rs->key);
    if (rs->done && rs->digest)
        return NQ_OK;
    nq_record_set_free(rs);
    return NQ_ERR_NOMEM;
}

void nq_record_set_free(nq_record_set *rs)
{
    free(rs->done);
    free(rs->digest);
    rs->done = NULL, rs->digest = NULL;
}

/* The counts only: nodes say how an engine searched, and engines that
 * share a plan search differently.  Keyed with this set's random key, so
 * that two records with different counts and the same digest cannot be
 * made in advance. */
static uint64_t counts_digest(const nq_record_set *rs, const nq_tally *t)
{
    nq_u128 c[4] = {t->total, t->unique, t->fixed180, t->fixed90};
    return nq_siphash(rs->key[0], rs->key[1], c, sizeof c);
}

int nq_record_set_holds(const nq_record_set *rs, uint64_t unit,
                        const nq_tally *t)
{
    return unit < rs->units && (rs->done[unit / 8] >> (unit % 8) & 1) &&
           rs->digest && rs->digest[unit] == counts_digest(rs, t);
}

nq_status nq_record_set_add(nq_record_set *rs, const char *path, long line,
                            uint64_t unit, const nq_tally *t, char *why,
                            size_t wsize)
{
    uint64_t d = rs->digest ? counts_digest(rs, t) : 0;
    if (rs->done[unit / 8] >> (unit % 8) & 1) {
        if (!rs->digest || rs->digest[unit] == d)
            return NQ_OK;
        nq_jf_why(why, wsize, "%s line %ld: unit %llu recorded twice with "
                  "different counts", path, line, (unsigned long long)unit);
        return NQ_ERR_CORRUPT;
    }
    nq_status st = nq_tally_add(&rs->state.sum, t);
    if (st != NQ_OK)
        return st;
    rs->done[unit / 8] |= (unsigned char)(1u << (unit % 8));
    if (rs->digest)
        rs->digest[unit] = d;
    rs->state.units_done++;
    return NQ_OK;
}

/* ---- files ---- */

/* A new journal's key: random, so that tags cannot be precomputed for
 * every journal at once.  The time and pid stand in only where the
 * system has no random source at all. */
void nq_journal_new_key(uint64_t key[2])
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, key, 2 * sizeof key[0]) : -1;
    if (fd >= 0)
        close(fd);
    if (got != (ssize_t)(2 * sizeof key[0])) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        key[0] = (uint64_t)ts.tv_nsec << 32 ^ (uint64_t)ts.tv_sec;
        key[1] = nq_fnv1a(NQ_FNV_OFFSET, &ts, sizeof ts) ^ (uint64_t)getpid();
    }
}

int nq_open_regular(const char *path, int flags, char *why, size_t wsize)
{
    struct stat st;
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        nq_jf_why(why, wsize, "cannot %s %s: %s", (flags & O_ACCMODE) ==
                  O_RDONLY ? "read" : "write", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        nq_jf_why(why, wsize, "%s is not a regular file", path);
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int nq_journal_peek(const char *path, nq_journal_header *h)
{
    char line[NQ_JOURNAL_LINE_MAX + 1];
    int fd = nq_open_regular(path, O_RDONLY, NULL, 0);
    if (fd < 0)
        return 0;
    ssize_t got = read(fd, line, NQ_JOURNAL_LINE_MAX);
    close(fd);
    char *end = got > 0 ? memchr(line, '\n', (size_t)got) : NULL;
    if (!end)
        return 0;
    *end = '\0';
    return nq_jf_parse_header(line, h);
}

/* Open for appending, or, where the file system allows no writing, for
 * reading only (a finished journal can still be read and reported); then
 * lock it against a second run. */
static nq_status open_locked(nq_journal *j, char *why, size_t wsize)
{
    j->writable = 1;
    j->fd = nq_open_regular(j->path, O_RDWR | O_CREAT, why, wsize);
    if (j->fd < 0 && (errno == EROFS || errno == EACCES)) {
        int saved = errno;
        j->fd = nq_open_regular(j->path, O_RDONLY, NULL, 0);
        j->writable = 0;
        errno = saved;
    }
    if (j->fd < 0)
        return NQ_ERR_IO;
    if (flock(j->fd, (j->writable ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
        nq_jf_why(why, wsize, errno == EWOULDBLOCK ? "%s is in use by another "
                  "nqueens run" : "cannot lock %s", j->path);
        return NQ_ERR_IO;
    }
    struct stat st;
    fstat(j->fd, &st);
    j->dev = st.st_dev, j->ino = st.st_ino;
    return NQ_OK;
}

/* Two split names of one plan cut by other bounds ("fast-ring/1" and
 * "fast-ring/1,max=100us"). */
static int same_base(const char *a, const char *b)
{
    size_t la = strcspn(a, ","), lb = strcspn(b, ",");
    return la == lb && !strncmp(a, b, la);
}

/* The resumed journal must be of this count: same plan, same share. */
static nq_status header_matches(void *ctx, const char *path,
                                const nq_journal_header *h, char *why,
                                size_t wsize)
{
    const nq_journal_header *w = &((nq_journal *)ctx)->header;
    if (nq_jf_same_count(h, w) && h->part == w->part && h->parts == w->parts)
        return NQ_OK;
    nq_jf_why(why, wsize, "%s is the journal of N=%d plan %s part %u/%u%s, not "
              "of this count (N=%d plan %s part %u/%u)%s", path, h->n, h->plan,
              h->part, h->parts, h->n == w->n && !strcmp(h->plan, w->plan) &&
              h->identity != w->identity ? " with another unit plan" : "",
              w->n, w->plan, w->part, w->parts,
              h->n == w->n && strcmp(h->plan, w->plan) &&
              same_base(h->plan, w->plan) ? "; left to the default, "
              "--max-unit-seconds resumes a journal with the pieces it was "
              "written with" : "");
    return NQ_ERR_MISMATCH;
}

static nq_status keep_record(void *ctx, const char *path, long line,
                             uint64_t unit, const nq_tally *t, char *why,
                             size_t wsize)
{
    nq_journal *j = ctx;
    const nq_jf_check *c = j->check;
    nq_status st = c && c->record ? c->record(c->ctx, path, line, unit, t,
                                              why, wsize) : NQ_OK;
    return st == NQ_OK ? nq_record_set_add(&j->set, path, line, unit, t, why,
                                           wsize) : st;
}

static nq_status write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t k = write(fd, buf, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = ENOSPC;
            return NQ_ERR_IO;
        }
        buf += k, len -= (size_t)k;
    }
    return NQ_OK;
}

/* Cut the file back to its last whole line, so that it stays a journal a
 * later run can resume; errno is kept for the message. */
static void cut_back(nq_journal *j)
{
    int saved = errno;
    if (ftruncate(j->fd, j->synced) == 0)
        lseek(j->fd, j->synced, SEEK_SET);
    errno = saved;
}

/* Append whole lines and fsync.  A write that fails (a full disk) is
 * retried line by line, so every record that fits is kept. */
static nq_status append(nq_journal *j, const char *buf, size_t len)
{
    if (write_all(j->fd, buf, len) == NQ_OK && fsync(j->fd) == 0) {
        j->synced += (off_t)len;
        return NQ_OK;
    }
    cut_back(j);
    for (const char *p = buf, *end = buf + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = (size_t)(nl - p) + 1;
        if (write_all(j->fd, p, k) != NQ_OK || fsync(j->fd) != 0) {
            cut_back(j);
            fsync(j->fd);
            return NQ_ERR_IO;
        }
        j->synced += (off_t)k, p += k;
    }
    return NQ_OK;
}

/* Read what the file holds (a new file holds nothing), cut off a crash's
 * half line, and start it with a header if it has none. */
static nq_status prepare(nq_journal *j, const volatile sig_atomic_t *stop,
                         char *why, size_t wsize)
{
    char header[NQ_JOURNAL_LINE_MAX];
    nq_jf_reader rd = {header_matches, keep_record, j, stop, NULL};
    nq_jf_result res;
    int fd2 = dup(j->fd);
    FILE *f = fd2 >= 0 ? fdopen(fd2, "r") : NULL;
    if (!f) {
        if (fd2 >= 0)
            close(fd2);
        nq_jf_why(why, wsize, "cannot read %s: %s", j->path, strerror(errno));
        return NQ_ERR_IO;
    }
    nq_status st = nq_jf_read(f, j->path, &rd, &res, why, wsize);
    fclose(f);
    if (st != NQ_OK)
        return st;
    j->set.state.dropped_tail = res.tail;
    j->set.state.seconds = res.seconds, j->set.state.threads = res.threads;
    free(j->set.digest); /* repeats are compared while reading; a running */
    j->set.digest = NULL; /* journal records each unit once (8 B a unit) */
    if (res.have_header)
        j->header = res.header; /* its key signs the records to come */
    if (!j->writable)
        return res.have_header ? NQ_OK : NQ_ERR_IO;
    if (ftruncate(j->fd, res.good) != 0 ||
        lseek(j->fd, res.good, SEEK_SET) != res.good) {
        nq_jf_why(why, wsize, "cannot write %s: %s", j->path, strerror(errno));
        return NQ_ERR_IO;
    }
    j->synced = res.good;
    if (res.have_header)
        return NQ_OK;
    int len = nq_jf_header_line(header, sizeof header, &j->header);
    if ((st = append(j, header, (size_t)len)) != NQ_OK)
        nq_jf_why(why, wsize, "cannot write %s: %s", j->path, strerror(errno));
    return st;
}

/* ---- the writer thread ---- */

/* Is the file still ours and as we left it?  Someone may have removed,
 * replaced or truncated it; writing on would lose every record. */
static nq_status still_ours(nq_journal *j)
{
    struct stat at_path, open_file;
    if (stat(j->path, &at_path) != 0 || at_path.st_dev != j->dev ||
        at_path.st_ino != j->ino) {
        snprintf(j->why, sizeof j->why, "journal %s was removed or replaced "
                 "while running", j->path);
        return NQ_ERR_IO;
    }
    if (fstat(j->fd, &open_file) != 0 || open_file.st_size != j->synced) {
        snprintf(j->why, sizeof j->why, "journal %s was truncated or written "
                 "by another program while running", j->path);
        return NQ_ERR_IO;
    }
    return NQ_OK;
}

static nq_status flush(nq_journal *j, const char *buf, size_t len)
{
    nq_status st = still_ours(j);
    if (st == NQ_OK && (st = append(j, buf, len)) != NQ_OK)
        snprintf(j->why, sizeof j->why, "cannot write the journal %s: %s",
                 j->path, strerror(errno));
    return st;
}

/* Pause between syncs: units finishing meanwhile share the next write
 * and fsync.  A crash loses at most this much finished work. */
#define SYNC_GAP_NS 20000000L

static void wait_gap(nq_journal *j, const struct timespec *last)
{
    struct timespec until = *last; /* on CLOCK_MONOTONIC (the condvar's) */
    until.tv_nsec += SYNC_GAP_NS;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    while (!j->closing &&
           pthread_cond_timedwait(&j->wake, &j->lock, &until) == 0)
        ;
}

/* Take the whole queue, write and fsync it while new records queue up in
 * the other buffer, and go back for more.  After a failure nothing more
 * is written: the records queued since are the next run's to redo. */
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
        clock_gettime(CLOCK_MONOTONIC, &last);
        nq_status st = failed ? NQ_OK : flush(j, buf, len);
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

/* ---- the journal ---- */

static void journal_free(nq_journal *j)
{
    if (j->writer_started) {
        pthread_cond_destroy(&j->wake);
        pthread_mutex_destroy(&j->lock);
    }
    if (j->fd >= 0)
        close(j->fd);
    nq_record_set_free(&j->set);
    free(j->queue);
    free(j->path);
    free(j);
}

nq_status nq_journal_open(const char *path, const nq_journal_header *want,
                          const volatile sig_atomic_t *stop,
                          const nq_jf_check *check, nq_journal **out,
                          char *why, size_t wsize)
{
    nq_journal *j = calloc(1, sizeof *j);
    nq_status st = NQ_ERR_NOMEM;
    if (!j)
        return st;
    j->fd = -1, j->header = *want, j->check = check;
    if ((j->path = strdup(path)) &&
        (st = nq_record_set_init(&j->set, want->units)) == NQ_OK &&
        (st = open_locked(j, why, wsize)) == NQ_OK)
        st = prepare(j, stop, why, wsize);
    if (st == NQ_OK && j->writable) {
        pthread_condattr_t ca; /* a wall clock set back must not stall it */
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_mutex_init(&j->lock, NULL);
        pthread_cond_init(&j->wake, &ca);
        pthread_condattr_destroy(&ca);
        j->writer_started = pthread_create(&j->writer, NULL, writer, j) == 0;
        st = j->writer_started ? NQ_OK : NQ_ERR_THREAD;
    }
    j->check = NULL;
    if (st != NQ_OK) {
        journal_free(j);
        return st;
    }
    *out = j;
    return NQ_OK;
}

int nq_journal_writable(const nq_journal *j) { return j->writable; }

const nq_journal_state *nq_journal_state_get(const nq_journal *j)
{
    return &j->set.state;
}

const unsigned char *nq_journal_done(const nq_journal *j)
{
    return j->set.done;
}

/* Room for len more bytes in the queue. */
static nq_status queue_reserve(nq_journal *j, size_t len)
{
    if (j->queued + len <= j->cap)
        return NQ_OK;
    size_t cap = 2 * (j->queued + len) + 4096;
    char *q = realloc(j->queue, cap);
    if (!q)
        return NQ_ERR_NOMEM;
    j->queue = q, j->cap = cap;
    return NQ_OK;
}

void nq_jf_word(char *dst, size_t size, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < size; i++)
        dst[i] = isalnum((unsigned char)s[i]) || strchr("._-", s[i])
                     ? s[i] : '_';
    dst[i] = '\0';
    if (!i && size > 1)
        dst[0] = '-', dst[1] = '\0';
}

void nq_jf_run_here(nq_jf_run *run, const char *engine, const char *kernel)
{
    char host[256] = "";
    uint64_t key[2];
    nq_journal_new_key(key);
    run->id = key[0] | 1; /* 0 is "not known" */
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    nq_jf_word(run->host, sizeof run->host, host);
    nq_jf_word(run->engine, sizeof run->engine, engine);
    nq_jf_word(run->kernel, sizeof run->kernel, kernel);
    run->pid = (long)getpid();
    run->rank = 0; /* a process's own: an MPI runner sets a worker's */
}

void nq_journal_set_run(nq_journal *j, const char *engine,
                        const char *kernel)
{
    nq_jf_run_here(&j->run, engine, kernel);
    j->run_known = j->header.version >= 4; /* version 3 has no such line */
}

/* The opening run line of the run that counted a record (the session's
 * own, or an MPI worker rank's), queued before the record unless the last
 * one queued was that run's: every record follows the line of its run,
 * which a reader finds as the last opening line before it (its id names
 * the run; a run's line repeated is that run again). */
static nq_status open_run(nq_journal *j, const nq_jf_run *run)
{
    char line[NQ_JOURNAL_LINE_MAX];
    if (!j->run_known || (j->line_queued && j->line_id == run->id))
        return NQ_OK;
    int len = nq_jf_open_line(line, sizeof line, &j->header, run);
    nq_status st = queue_reserve(j, (size_t)len);
    if (st == NQ_OK) {
        memcpy(j->queue + j->queued, line, (size_t)len);
        j->queued += (size_t)len;
        j->line_queued = 1, j->line_id = run->id;
    }
    return st;
}

nq_status nq_journal_record(nq_journal *j, uint64_t unit, const nq_tally *t)
{
    return nq_journal_record_as(j, NULL, unit, t);
}

nq_status nq_journal_record_as(nq_journal *j, const nq_jf_run *run,
                               uint64_t unit, const nq_tally *t)
{
    char line[NQ_JOURNAL_LINE_MAX];
    nq_status st = NQ_OK;
    if (unit >= j->set.units || !nq_jf_in_share(&j->header, unit) ||
        !j->writable)
        return NQ_ERR_ARG;
    int len = nq_jf_record_line(line, sizeof line, &j->header, unit, t);
    pthread_mutex_lock(&j->lock);
    if (j->error != NQ_OK) {
        st = j->error;
    } else if (!(j->set.done[unit / 8] >> (unit % 8) & 1) &&
               (st = open_run(j, run ? run : &j->run)) == NQ_OK &&
               (st = queue_reserve(j, (size_t)len)) == NQ_OK &&
               (st = nq_record_set_add(&j->set, j->path, 0, unit, t, NULL,
                                       0)) == NQ_OK) {
        memcpy(j->queue + j->queued, line, (size_t)len);
        j->queued += (size_t)len;
        if (j->idle) /* else it is writing or pausing, and will look */
            pthread_cond_signal(&j->wake);
    }
    pthread_mutex_unlock(&j->lock);
    return st;
}

nq_status nq_journal_note_run(nq_journal *j, double seconds, int threads,
                              uint64_t units)
{
    char line[NQ_JOURNAL_LINE_MAX];
    nq_status st;
    if (!j->writable)
        return NQ_OK;
    int len = nq_jf_run_line(line, sizeof line, &j->header, seconds, threads,
                             units);
    pthread_mutex_lock(&j->lock);
    st = j->error != NQ_OK ? j->error : queue_reserve(j, (size_t)len);
    if (st == NQ_OK) {
        memcpy(j->queue + j->queued, line, (size_t)len);
        j->queued += (size_t)len;
        j->set.state.seconds += seconds;
        if (threads > j->set.state.threads)
            j->set.state.threads = threads;
        if (j->idle)
            pthread_cond_signal(&j->wake);
    }
    pthread_mutex_unlock(&j->lock);
    return st;
}

nq_status nq_journal_close(nq_journal *j, char *why, size_t wsize)
{
    nq_status st = NQ_OK;
    if (!j)
        return NQ_OK;
    if (j->writer_started) {
        pthread_mutex_lock(&j->lock);
        j->closing = 1;
        pthread_cond_signal(&j->wake);
        pthread_mutex_unlock(&j->lock);
        pthread_join(j->writer, NULL);
        st = j->error;
        if (st == NQ_OK) /* removed or cut after the last write? */
            st = still_ours(j);
    }
    if (st != NQ_OK)
        nq_jf_why(why, wsize, "%s", j->why);
    if (close(j->fd) != 0 && st == NQ_OK) {
        nq_jf_why(why, wsize, "cannot write the journal %s: %s", j->path,
                  strerror(errno));
        st = NQ_ERR_IO;
    }
    j->fd = -1;
    journal_free(j);
    return st;
}

/*
 * journal_whole.c - a journal written whole, start to end, by one call
 * after another (merge -o: the union of several journals), where
 * journal.c appends to a running count's.
 *
 * It is written under a temporary name in its own folder and renamed to
 * its name only once every line is on disk: a crash, a full disk or a
 * refused input leaves whatever stood under the name before, never half
 * a journal that a later merge would take for a whole one.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"

struct nq_whole_journal {
    FILE *f;
    char *path, *temp;
    nq_journal_header header;
    int error;                  /* errno of the first failed write */
};

/* The temporary name: the final one and a random suffix, created here
 * (O_EXCL) with the mode journals are created with. */
static int create_temp(nq_whole_journal *w)
{
    size_t len = strlen(w->path) + 32;
    if (!(w->temp = malloc(len)))
        return -1;
    for (int tries = 0; tries < 16; tries++) {
        uint64_t r[2];
        nq_journal_new_key(r);
        snprintf(w->temp, len, "%s.partial-%08llx", w->path,
                 (unsigned long long)(r[0] & 0xffffffffu));
        int fd = open(w->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static void whole_free(nq_whole_journal *w)
{
    free(w->path);
    free(w->temp);
    free(w);
}

void nq_whole_journal_abandon(nq_whole_journal *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    unlink(w->temp);
    whole_free(w);
}

nq_status nq_whole_journal_create(const char *path,
                                  const nq_journal_header *h,
                                  nq_whole_journal **out, char *why,
                                  size_t wsize)
{
    char line[NQ_JOURNAL_LINE_MAX];
    nq_whole_journal *w = calloc(1, sizeof *w);
    int fd = -1;
    if (!w || !(w->path = strdup(path))) {
        free(w);
        return NQ_ERR_NOMEM;
    }
    w->header = *h;
    if ((fd = create_temp(w)) < 0 || !(w->f = fdopen(fd, "w"))) {
        nq_jf_why(why, wsize, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(w->temp);
        }
        whole_free(w);
        return NQ_ERR_IO;
    }
    int len = nq_jf_header_line(line, sizeof line, &w->header);
    if (fwrite(line, 1, (size_t)len, w->f) != (size_t)len)
        w->error = errno;
    *out = w;
    return NQ_OK;
}

/* A line written; a failure is kept for commit to say. */
static void put(nq_whole_journal *w, const char *line, int len)
{
    if (!w->error && fwrite(line, 1, (size_t)len, w->f) != (size_t)len)
        w->error = errno ? errno : EIO;
}

void nq_whole_journal_record(nq_whole_journal *w, uint64_t unit,
                             const nq_tally *t)
{
    char line[NQ_JOURNAL_LINE_MAX];
    put(w, line, nq_jf_record_line(line, sizeof line, &w->header, unit, t));
}

void nq_whole_journal_open_run(nq_whole_journal *w, const nq_jf_run *run)
{
    char line[NQ_JOURNAL_LINE_MAX];
    put(w, line, nq_jf_open_line(line, sizeof line, &w->header, run));
}

void nq_whole_journal_note_run(nq_whole_journal *w, double seconds,
                               int threads, uint64_t units)
{
    char line[NQ_JOURNAL_LINE_MAX];
    put(w, line, nq_jf_run_line(line, sizeof line, &w->header, seconds,
                                threads, units));
}

/* The folder's own entry for the new name, on disk (a rename is made
 * durable by syncing the folder that holds it). */
static int sync_folder(const char *path)
{
    char *copy = strdup(path);
    int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                  : -1;
    int rc = fd >= 0 ? fsync(fd) : -1;
    if (fd >= 0)
        close(fd);
    free(copy);
    return rc;
}

nq_status nq_whole_journal_commit(nq_whole_journal *w, char *why,
                                  size_t wsize)
{
    int err = w->error;
    if (!err && (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0))
        err = errno;
    if (fclose(w->f) != 0 && !err)
        err = errno;
    w->f = NULL;
    if (!err && rename(w->temp, w->path) != 0)
        err = errno;
    if (err) {
        nq_jf_why(why, wsize, "cannot write %s: %s", w->path, strerror(err));
        nq_whole_journal_abandon(w);
        return NQ_ERR_IO;
    }
    sync_folder(w->path); /* the file is whole under its name already */
    whole_free(w);
    return NQ_OK;
}

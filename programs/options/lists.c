/*
 * lists.c - journals named in a file (merge and verify --list FILE), one
 * path a line: a record run's tens of thousands of parts are more than a
 * command line holds ("Argument list too long" at 56,498 paths).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

/* No path is longer (Linux's PATH_MAX, its NUL included). */
#define LIST_LINE_MAX 4095

/* The lines read so far, each ended by a NUL, one after another. */
typedef struct {
    char *text;
    size_t used, cap;
    int count;
} list_text;

/* A line that names no file: empty, or spaces and tabs only. */
static int blank(const char *s, size_t len)
{
    return strspn(s, " \t") == len;
}

static int keep_line(list_text *t, const char *s, size_t len)
{
    if (t->used + len + 1 > t->cap) {
        size_t cap = 2 * (t->used + len + 1) + 4096;
        char *grown = realloc(t->text, cap);
        if (!grown)
            return cli_error(CLI_FAIL, "out of memory");
        t->text = grown, t->cap = cap;
    }
    memcpy(t->text + t->used, s, len);
    t->text[t->used + len] = '\0';
    t->used += len + 1, t->count++;
    return CLI_OK;
}

/* Every path of the list into t; the list named in what is said
 * ("standard input" for "-"). */
static int read_list(FILE *f, const char *name, list_text *t)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    int rc = CLI_OK;
    while (rc == CLI_OK && (len = getline(&line, &cap, f)) >= 0) {
        no++;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (len > LIST_LINE_MAX)
            rc = cli_error(CLI_FAIL, "%s line %ld: over %d bytes, longer "
                           "than any path", name, no, LIST_LINE_MAX);
        else if (memchr(line, '\0', (size_t)len))
            rc = cli_error(CLI_FAIL, "%s line %ld holds a NUL byte: not a "
                           "path", name, no);
        else if (!blank(line, (size_t)len))
            rc = keep_line(t, line, (size_t)len);
    }
    if (rc == CLI_OK && ferror(f))
        rc = cli_error(CLI_FAIL, "cannot read the list %s: %s", name,
                       strerror(errno));
    free(line);
    return rc;
}

/* *paths (count of them) and the list's after them, in one block (the
 * pointers, then the text they point into): one free, as before. */
static int join(const char ***paths, int *count, const list_text *t)
{
    size_t n = (size_t)*count + (size_t)t->count;
    const char **all = malloc((n + 1) * sizeof *all + t->used);
    if (!all)
        return cli_error(CLI_FAIL, "out of memory");
    char *text = (char *)(all + n + 1);
    memcpy(all, *paths, (size_t)*count * sizeof *all);
    if (t->used)
        memcpy(text, t->text, t->used);
    for (size_t i = (size_t)*count; i < n; i++) {
        all[i] = text;
        text += strlen(text) + 1;
    }
    all[n] = NULL;
    free(*paths);
    *paths = all, *count = (int)n;
    return CLI_OK;
}

int cli_add_listed(const char *list, const char ***paths, int *count)
{
    int stdin_list = !strcmp(list, "-");
    const char *name = stdin_list ? "standard input" : list;
    FILE *f = stdin_list ? stdin : fopen(list, "r");
    list_text t = {NULL, 0, 0, 0};
    if (!f)
        return cli_error(CLI_FAIL, "cannot read the list %s: %s", list,
                         strerror(errno));
    int rc = read_list(f, name, &t);
    if (!stdin_list)
        fclose(f);
    if (rc == CLI_OK && (size_t)*count + (size_t)t.count > (size_t)INT32_MAX)
        rc = cli_error(CLI_FAIL, "%s: more journals than one merge takes "
                       "(%d)", name, INT32_MAX);
    if (rc == CLI_OK)
        rc = join(paths, count, &t);
    free(t.text);
    return rc;
}

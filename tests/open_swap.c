/*
 * open_swap.c - a shim the tests preload into nqueens (LD_PRELOAD) to
 * replace a file at a chosen moment: before the NQ_SWAP_AT-th open of
 * the path NQ_SWAP_PATH, the file NQ_SWAP_FROM is renamed over it.  So a
 * test can change a journal between two readings of one run, which no
 * outside process can time (they are microseconds apart); the program
 * itself is the same binary as ever.  Built as build/nq-open-swap.so
 * (not part of nq-tests).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int open_fn(const char *, int, ...);

static int opened;

/* Before the chosen open of the watched path, the swap, once. */
static void maybe_swap(const char *path)
{
    const char *watched = getenv("NQ_SWAP_PATH"), *from = getenv("NQ_SWAP_FROM");
    const char *at = getenv("NQ_SWAP_AT");
    if (!watched || !from || !at || strcmp(path, watched))
        return;
    if (++opened == atoi(at) && rename(from, watched) != 0)
        perror("open_swap: rename");
}

/* open and open64 with the mode a creating open passes. */
static int forward(const char *name, const char *path, int flags, va_list ap)
{
    open_fn *real = (open_fn *)dlsym(RTLD_NEXT, name);
    int mode = flags & O_CREAT ? va_arg(ap, int) : 0;
    maybe_swap(path);
    return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = forward("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = forward("open64", path, flags, ap);
    va_end(ap);
    return fd;
}

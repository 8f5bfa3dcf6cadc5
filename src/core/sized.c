/*
 * sized.c - the structs a program hands the library with their size in
 * their first field (nq_request, nq_resume_options, nq_run_report), read
 * and written by one rule (doc/abi.md), so that a release may append
 * fields to them without breaking a program built before.
 *
 * The library never touches such a struct but through these functions:
 * a read copies what the program's struct holds into a zeroed struct of
 * this release (fields it lacks read as zero, their defaults), a write
 * copies back no more than the program's struct holds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

/* A size past this is no struct of any release, but a forgotten or
 * garbage size field: refused before anything past the struct is read. */
#define SIZED_MAX 65536

/* The size the program gave, checked: at least `least` (what every
 * caller must hold) and no larger than any struct could be. */
static nq_status given_size(const void *given, size_t least, size_t *size)
{
    if (!given)
        return NQ_ERR_ARG;
    memcpy(size, given, sizeof *size);
    return *size < least || *size > SIZED_MAX ? NQ_ERR_ARG : NQ_OK;
}

/* Copy the program's struct into *full (full_size bytes, this release's
 * struct): min(size, full_size) bytes, the rest zero.  Bytes past this
 * release's struct are fields of a newer header: if any is set, the
 * program asked for something this library cannot do. */
nq_status nq_sized_read(const void *given, size_t least, void *full,
                        size_t full_size)
{
    size_t size;
    nq_status st = given_size(given, least, &size);
    if (st != NQ_OK)
        return st;
    memset(full, 0, full_size);
    memcpy(full, given, size < full_size ? size : full_size);
    for (size_t i = full_size; i < size; i++)
        if (((const unsigned char *)given)[i])
            return NQ_ERR_UNSUPPORTED;
    return NQ_OK;
}

/* Whether the library may write the program's struct: its size holds at
 * least this release's fields that every caller gets. */
nq_status nq_sized_check(const void *given, size_t least)
{
    size_t size;
    return given_size(given, least, &size);
}

/* Copy this release's *full back into the program's struct, no further
 * than its size, which stays what the program set. */
void nq_sized_write(void *given, const void *full, size_t full_size)
{
    size_t size;
    memcpy(&size, given, sizeof size);
    if (size > full_size)
        size = full_size;
    memcpy((char *)given + sizeof size, (const char *)full + sizeof size,
           size - sizeof size);
}

/* Whether size ends a request of some release at a field's end: a
 * size inside a field (half a pointer) is no struct a header made. */
static int request_size_known(size_t size)
{
    static const size_t ends[] = {
        offsetof(nq_request, kernel), offsetof(nq_request, devices),
        offsetof(nq_request, why), offsetof(nq_request, why_size),
        offsetof(nq_request, max_unit_seconds),
    };
    if (size >= sizeof(nq_request))
        return 1;
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        if (size == ends[i])
            return 1;
    return 0;
}

/* Empty the request's words buffer whenever its size (sane, not
 * garbage) reaches why_size, whatever else is wrong with the call: the
 * promise that every call given a request leaves a string there holds
 * on every refusal that can see the buffer. */
void nq_request_clear_why(const nq_request *given)
{
    size_t size;
    char *why;
    size_t why_size;
    if (!given)
        return;
    memcpy(&size, given, sizeof size);
    if (size < offsetof(nq_request, why_size) + sizeof(size_t) ||
        size > SIZED_MAX)
        return;
    memcpy(&why, (const char *)given + offsetof(nq_request, why), sizeof why);
    memcpy(&why_size, (const char *)given + offsetof(nq_request, why_size),
           sizeof why_size);
    if (why && why_size)
        why[0] = '\0';
}

/* The request read into *full (the size rule, sizes at a field's end
 * only), its words buffer, if it has one, emptied first: every call
 * given a request leaves a string there. */
nq_status nq_request_read(const nq_request *given, nq_request *full)
{
    size_t size;
    nq_request_clear_why(given);
    nq_status st = given_size(given, NQ_REQUEST_LEAST, &size);
    if (st == NQ_OK && !request_size_known(size))
        st = NQ_ERR_ARG;
    if (st == NQ_OK)
        st = nq_sized_read(given, NQ_REQUEST_LEAST, full, sizeof *full);
    if (st == NQ_OK && full->threads < 0) { /* 0 is every core; below, no
                                               number of threads */
        nq_request_say(full, "threads %d: a number of threads, or 0 for "
                       "every core", full->threads);
        st = NQ_ERR_ARG;
    }
    return st;
}

/* Words for a failure into the request's buffer, if it has one, cut to
 * fit (snprintf always ends it). */
void nq_request_say(const nq_request *req, const char *fmt, ...)
{
    va_list ap;
    if (!req->why || !req->why_size)
        return;
    va_start(ap, fmt);
    vsnprintf(req->why, req->why_size, fmt, ap);
    va_end(ap);
}

/*
 * status.c - words for status codes, and the version.
 */
#include "core.h"
#include "nqueens.h"

static const char *const messages[NQ_STATUS_COUNT] = {
    [NQ_OK] = "ok",
    [NQ_ERR_ARG] = "invalid argument",
    [NQ_ERR_RANGE] = "board size out of range for this engine",
    [NQ_ERR_ENGINE] = "unknown engine",
    [NQ_ERR_UNSUPPORTED] = "the engine cannot do this",
    [NQ_ERR_NOMEM] = "out of memory",
    [NQ_ERR_OVERFLOW] = "count overflow",
    [NQ_ERR_INVALID] = "not a valid placement of non-attacking queens",
    [NQ_ERR_THREAD] = "cannot start a thread",
    [NQ_ERR_INTERNAL] = "internal consistency check failed",
    [NQ_ERR_STOPPED] = "stopped before every unit was done",
    [NQ_ERR_IO] = "cannot read or write the file",
    [NQ_ERR_CORRUPT] = "the journal is damaged",
    [NQ_ERR_MISMATCH] = "the journal belongs to another count",
    [NQ_ERR_DEVICE] = "no usable GPU, or the GPU failed",
    [NQ_ERR_NOSOLUTION] = "no solution exists for this board",
    [NQ_ERR_VERSION] = "journal format version not supported",
    [NQ_ERR_LOST] = "a rank of the job stopped answering",
};

const char *nq_strerror(nq_status status)
{
    if ((unsigned)status >= NQ_STATUS_COUNT)
        return "unknown status";
    return messages[status];
}

const char *nq_get_version(void)
{
    return NQ_VERSION_STRING;
}

/* The number of the library that runs, which may not be the header's
 * that a program was built with. */
unsigned nq_get_version_number(void)
{
    return NQ_VERSION_NUMBER;
}

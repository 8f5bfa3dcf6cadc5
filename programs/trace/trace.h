/*
 * trace.h - `nqueens trace` for the lesson page (programs/web/web.c): a
 * walk handed over a chunk at a time.  (The command itself is cmd_trace,
 * cli.h.)
 */
#ifndef NQ_TRACE_H
#define NQ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "nqueens.h"

/* The lesson page's live walk (programs/web/web.c): req's walk as the
 * page's data, the steps handed to fn `chunk` at a time (the inside of a
 * JavaScript array), then the walk's object without its steps (last 1:
 * engine, N, how it ended, the engine's count of a whole walk).  At most
 * `cap` steps.  fn returns nonzero to stop the walk.  CLI_OK, or the
 * error said on stderr and its code. */
typedef int (*trace_chunk_fn)(void *ctx, const char *json, size_t len,
                              int last);
int trace_live(const nq_request *req, int one_based, uint64_t cap,
               uint64_t chunk, trace_chunk_fn fn, void *ctx);

#endif

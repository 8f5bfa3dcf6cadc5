/*
 * registry.h - the engines' table (registry.c): what the layers above the
 * engines (run, the GPU back-ends) ask of it besides the public API's
 * nq_engine_find and the rest.  No engine includes this: the table
 * names every engine, so it stands above them all.
 */
#ifndef NQ_REGISTRY_H
#define NQ_REGISTRY_H

#include "../engines/engine.h"

/* The request's engine in *e, once the request is checked (engine,
 * capability, size): the engine's part of the check that the run layer's
 * entry points (nq_check_request among them) make before the kernel and
 * the devices are resolved.  req is the library's own full copy
 * (nq_request_read), never the program's. */
nq_status nq_request_engine(const nq_request *req, int enumerate,
                            const nq_engine **e);

/* Add an engine to the table, after the built-in ones: an optional
 * back-end (libnqueens-cuda) registers its engine at run time, so the
 * table never names code above it.  Adding it again is a no-op; another
 * engine of a taken name is NQ_ERR_ARG, a full table NQ_ERR_NOMEM. */
nq_status nq_engine_add(const nq_engine *e);

#endif

/*
 * _nqueens.c - the C half of the Python module nqueens: libnqueens' calls
 * run on a thread of their own while the caller's thread, without the
 * GIL, waits in slices of 50 ms and lets Python look for signals between
 * them.  A Ctrl-C sets the request's stop flag (the library's own way to
 * stop a count, watched by the unit engines, the long count and the
 * estimate), so KeyboardInterrupt comes within a second and the count
 * ends cleanly.  The teaching engines' counts never look at the flag: their
 * thread is left to finish alone and its result thrown away.
 *
 * Why the CPython C API and not cffi: Debian's python3 has no cffi (and
 * the build may have no network to fetch it); releasing the GIL, polling
 * signals and handing boards from the library's callbacks to a lazy
 * iterator need a thread and a condition variable, which are plainer in C
 * than through cffi's callbacks, which would take the GIL per solution.
 *
 * Lazy iterators (solutions, trace): the library enumerates with a
 * callback and has no resumable form, so the walk runs on a producer
 * thread that copies each board or event into a ring of ITEMS slots and
 * waits while it is full; the iterator takes them out.  Dropping the
 * iterator cancels the walk (the callback returns nonzero) and joins it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens.h"

/* How long the waiting thread sleeps between two looks for a signal. */
#define SLICE_NS 50000000L
/* Boards or events a walk may run ahead of its iterator. */
#define ITEMS 1024

/* ---- numbers and errors ---- */

/* Exact Python int of a 128-bit count (past 2^64 from N = 29). */
static PyObject *from_u128(nq_u128 v)
{
    char buf[NQ_U128_DIGITS];
    return PyLong_FromString(nq_format_u128(v, buf), NULL, 10);
}

/* The exception a status stands for: the caller's mistake is a
 * ValueError, a file's an OSError, the rest a RuntimeError. */
static PyObject *status_exception(nq_status st)
{
    switch (st) {
    case NQ_ERR_NOMEM:
        return PyExc_MemoryError;
    case NQ_ERR_IO:
        return PyExc_OSError;
    case NQ_ERR_ARG: case NQ_ERR_RANGE: case NQ_ERR_ENGINE:
    case NQ_ERR_UNSUPPORTED: case NQ_ERR_INVALID: case NQ_ERR_NOSOLUTION:
    case NQ_ERR_CORRUPT: case NQ_ERR_MISMATCH: case NQ_ERR_VERSION:
    case NQ_ERR_OVERFLOW:
        return PyExc_ValueError;
    default:
        return PyExc_RuntimeError;
    }
}

/* Raise st with "what: the library's words (why)". */
static PyObject *raise_status(const char *what, nq_status st, const char *why)
{
    if (why && *why)
        PyErr_Format(status_exception(st), "%s: %s (%s)", what,
                     nq_strerror(st), why);
    else
        PyErr_Format(status_exception(st), "%s: %s", what, nq_strerror(st));
    return NULL;
}

/* Wait on cv until `*flag` or SLICE_NS pass; mu held. */
static void wait_slice(pthread_cond_t *cv, pthread_mutex_t *mu)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += SLICE_NS;
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(cv, mu, &ts);
}

/* ---- a call on a thread of its own ---- */

typedef struct job job;
struct job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done, abandoned;
    nq_status (*fn)(job *);
    nq_status st;
    volatile sig_atomic_t stop;
    /* the call's arguments, owned by the job: an abandoned job outlives
     * the Python objects they came from */
    nq_request req;
    char engine[64], kernel[32], why[1024], *journal;
    nq_resume_options ro;
    nq_estimate_options eo;
    /* what it found */
    nq_counts counts;
    nq_run_report rep;
    nq_estimate est;
    double seconds;
};

static job *job_new(int n, const char *engine, int threads, const char *kernel)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return (job *)PyErr_NoMemory();
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    nq_request init = NQ_REQUEST_INIT;
    j->req = init;
    j->req.n = n;
    snprintf(j->engine, sizeof j->engine, "%s", engine);
    j->req.engine = j->engine;
    j->req.threads = threads;
    if (kernel) {
        snprintf(j->kernel, sizeof j->kernel, "%s", kernel);
        j->req.kernel = j->kernel;
    }
    j->req.stop = &j->stop;
    j->req.why = j->why, j->req.why_size = sizeof j->why;
    return j;
}

static void job_free(job *j)
{
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j->journal);
    free(j);
}

static void *job_main(void *arg)
{
    job *j = arg;
    nq_status st = j->fn(j);
    pthread_mutex_lock(&j->mu);
    j->st = st, j->done = 1;
    int orphan = j->abandoned;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (orphan) /* its caller was interrupted and went on without it */
        job_free(j);
    return NULL;
}

/* Whether the job is done, after waiting a slice at most. */
static int job_wait(job *j)
{
    pthread_mutex_lock(&j->mu);
    if (!j->done)
        wait_slice(&j->cv, &j->mu);
    int done = j->done;
    pthread_mutex_unlock(&j->mu);
    return done;
}

/* A signal arrived (its exception set): stop the job and wait for it, or
 * for a call that never looks at the stop flag, leave it behind.
 * Returns 1 if the job was left (no longer the caller's to free). */
static int job_interrupt(job *j, pthread_t th, int stoppable)
{
    if (!stoppable) {
        pthread_mutex_lock(&j->mu);
        int left = !j->done;
        j->abandoned = left;
        pthread_mutex_unlock(&j->mu);
        if (left) {
            pthread_detach(th);
            return 1;
        }
    }
    j->stop = 1;
    Py_BEGIN_ALLOW_THREADS
    pthread_join(th, NULL);
    Py_END_ALLOW_THREADS
    return 0;
}

/* Run j->fn on a new thread, the GIL released, looking for signals every
 * slice.  0: done (j->st says how); -1: an exception is set, and the job
 * freed unless it was left running. */
static int job_run(job *j, int stoppable)
{
    pthread_t th;
    if (pthread_create(&th, NULL, job_main, j) != 0) {
        job_free(j);
        PyErr_SetString(PyExc_RuntimeError, "a thread could not be started");
        return -1;
    }
    for (;;) {
        int done;
        Py_BEGIN_ALLOW_THREADS
        done = job_wait(j);
        Py_END_ALLOW_THREADS
        if (done)
            break;
        if (PyErr_CheckSignals() < 0) {
            if (!job_interrupt(j, th, stoppable))
                job_free(j);
            return -1;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    pthread_join(th, NULL);
    Py_END_ALLOW_THREADS
    return 0;
}

/* Whether the engine watches the stop flag while it counts. */
static int engine_stops(const char *engine)
{
    return (nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS) != 0;
}

/* ---- engines() ---- */

static PyObject *py_engines(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        PyObject *t = Py_BuildValue("(ssiI)", nq_engine_name(e),
                                    nq_engine_summary(e), nq_engine_max_n(e),
                                    nq_engine_caps(e));
        if (!t || PyList_Append(list, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(t);
    }
    return list;
}

/* ---- count(n, engine, threads, kernel) ---- */

static nq_status do_count(job *j)
{
    double t0 = nq_clock_seconds();
    nq_status st = nq_count_solutions(&j->req, &j->counts);
    j->seconds = nq_clock_seconds() - t0;
    return st;
}

/* "count 12" for errors. */
static void name_of(const char *verb, int n, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", verb, n);
}

static PyObject *py_count(PyObject *self, PyObject *args)
{
    int n, threads;
    const char *engine, *kernel;
    char what[64];
    (void)self;
    if (!PyArg_ParseTuple(args, "isiz", &n, &engine, &threads, &kernel))
        return NULL;
    job *j = job_new(n, engine, threads, kernel);
    if (!j)
        return NULL;
    j->fn = do_count;
    if (job_run(j, engine_stops(engine)) < 0)
        return NULL;
    name_of("count", n, what, sizeof what);
    PyObject *r = j->st != NQ_OK ? raise_status(what, j->st, j->why)
        : Py_BuildValue("(NNNdi)", from_u128(j->counts.total),
                        from_u128(j->counts.unique),
                        from_u128(j->counts.nodes), j->seconds,
                        nq_request_threads(&j->req));
    job_free(j);
    return r;
}

/* ---- count_resumable(n, engine, threads, kernel, journal, part, parts,
 *      max_units) ---- */

static nq_status do_resumable(job *j)
{
    nq_run_report init = NQ_RUN_REPORT_INIT;
    j->rep = init;
    return nq_count_resumable(&j->req, &j->ro, &j->rep);
}

static PyObject *report_dict(const nq_run_report *r)
{
    return Py_BuildValue(
        "{s:N,s:N,s:N,s:O,s:K,s:K,s:K,s:K,s:i,s:d,s:d}",
        "total", from_u128(r->counts.total),
        "unique", from_u128(r->counts.unique),
        "nodes", from_u128(r->counts.nodes),
        "complete", r->complete ? Py_True : Py_False,
        "units", (unsigned long long)r->units,
        "share", (unsigned long long)r->share,
        "recorded", (unsigned long long)r->recorded,
        "ran", (unsigned long long)r->ran, "threads", r->workers,
        "seconds", r->seconds, "seconds_all", r->seconds_all);
}

static PyObject *py_count_resumable(PyObject *self, PyObject *args)
{
    int n, threads;
    unsigned part, parts;
    unsigned long long max_units;
    const char *engine, *kernel, *journal;
    char what[64];
    (void)self;
    if (!PyArg_ParseTuple(args, "isizsIIK", &n, &engine, &threads, &kernel,
                          &journal, &part, &parts, &max_units))
        return NULL;
    job *j = job_new(n, engine, threads, kernel);
    if (!j)
        return NULL;
    nq_resume_options init = NQ_RESUME_OPTIONS_INIT;
    j->ro = init;
    if (!(j->journal = strdup(journal))) {
        job_free(j);
        return PyErr_NoMemory();
    }
    j->ro.journal = j->journal;
    j->ro.part = part, j->ro.parts = parts, j->ro.max_units = max_units;
    j->fn = do_resumable;
    if (job_run(j, 1) < 0)
        return NULL;
    name_of("count", n, what, sizeof what);
    PyObject *r = j->st != NQ_OK && j->st != NQ_ERR_STOPPED
        ? raise_status(what, j->st, j->rep.why) : report_dict(&j->rep);
    job_free(j);
    return r;
}

/* ---- estimate(n, engine, threads, kernel, part, parts, seconds, over) */

static nq_status do_estimate(job *j)
{
    return nq_estimate_count(&j->req, &j->eo, &j->est);
}

static PyObject *estimate_dict(const nq_estimate *e)
{
    return Py_BuildValue(
        "{s:d,s:d,s:d,s:d,s:d,s:d,s:i,s:K,s:K,s:d}",
        "core_seconds", e->core_seconds, "low", e->low, "high", e->high,
        "seconds", e->seconds, "seconds_low", e->seconds_low,
        "seconds_high", e->seconds_high, "threads", e->threads,
        "units", (unsigned long long)e->units,
        "samples", (unsigned long long)e->samples, "elapsed", e->elapsed);
}

static PyObject *py_estimate(PyObject *self, PyObject *args)
{
    int n, threads;
    unsigned part, parts;
    double seconds, over;
    const char *engine, *kernel;
    char what[64];
    (void)self;
    if (!PyArg_ParseTuple(args, "isizIIdd", &n, &engine, &threads, &kernel,
                          &part, &parts, &seconds, &over))
        return NULL;
    job *j = job_new(n, engine, threads, kernel);
    if (!j)
        return NULL;
    j->eo.part = part, j->eo.parts = parts;
    j->eo.seconds = seconds, j->eo.over = over;
    /* a whole count's time is its units' whether cut or not, and whole
     * units are planned in a moment at any N (as nqueens estimate does) */
    if (!parts)
        j->req.max_unit_seconds = -1;
    j->fn = do_estimate;
    if (job_run(j, 1) < 0)
        return NULL;
    name_of("estimate", n, what, sizeof what);
    PyObject *r = j->st != NQ_OK ? raise_status(what, j->st, j->why)
                                 : estimate_dict(&j->est);
    job_free(j);
    return r;
}

/* ---- walks: solutions and events, handed over lazily ---- */

/* One step of a walk as the iterator hands it over (nq_event's fields,
 * its pointers' arrays copied). */
typedef struct {
    int kind, row, col, by_row, has_flags, has_masks;
    unsigned reason;
    int cols[NQ_MAX_N];
    char fa[NQ_MAX_N], fb[2 * NQ_MAX_N - 1], fc[2 * NQ_MAX_N - 1];
    uint32_t down, left, right, untried, ruled;
} step_item;

typedef struct {
    PyObject_HEAD
    pthread_mutex_t mu;
    pthread_cond_t put, took;   /* an item put in; an item taken out */
    int events;                 /* 1: steps of a walk; 0: solutions */
    int base;                   /* added to rows and columns handed out */
    size_t item_size;
    char *ring;
    int head, count;
    int started, done, cancel;
    nq_status st;
    pthread_t thread;
    nq_request req;
    char engine[64], why[512];
} stream;

static int stream_push(stream *s, const void *item)
{
    pthread_mutex_lock(&s->mu);
    while (s->count == ITEMS && !s->cancel)
        pthread_cond_wait(&s->took, &s->mu);
    int cancel = s->cancel;
    if (!cancel) {
        int slot = (s->head + s->count) % ITEMS;
        memcpy(s->ring + (size_t)slot * s->item_size, item, s->item_size);
        if (s->count++ == 0)
            pthread_cond_signal(&s->put);
    }
    pthread_mutex_unlock(&s->mu);
    return cancel;
}

static int on_solution(void *ctx, const int *cols, int n)
{
    (void)n;
    return stream_push(ctx, cols);
}

/* The queens on the board at the event, as nqueens trace shows them: a
 * placement's rows, the rows above a refusal or removal, the whole
 * board for a solution or a failed test; the refusing row in any case. */
static int rows_known(const nq_event *e, int n)
{
    switch (e->kind) {
    case NQ_EVENT_PLACE:
    case NQ_EVENT_REMOVE:
        return e->row + 1;
    case NQ_EVENT_REJECT:
        return e->row;
    default:
        return n;
    }
}

static int on_event(void *ctx, const nq_event *e)
{
    stream *s = ctx;
    int n = s->req.n;
    step_item it;
    memset(&it, 0, sizeof it);
    it.kind = e->kind, it.row = e->row, it.col = e->col;
    it.reason = e->reason, it.by_row = e->by_row;
    memcpy(it.cols, e->cols, sizeof(int) * (size_t)rows_known(e, n));
    if ((it.has_flags = e->col_flags != NULL)) {
        memcpy(it.fa, e->col_flags, (size_t)n);
        memcpy(it.fb, e->dif_flags, (size_t)(2 * n - 1));
        memcpy(it.fc, e->sum_flags, (size_t)(2 * n - 1));
    }
    it.has_masks = e->has_masks;
    it.down = e->down, it.left = e->left, it.right = e->right;
    it.untried = e->untried, it.ruled = e->ruled;
    return stream_push(s, &it);
}

static void *stream_main(void *arg)
{
    stream *s = arg;
    nq_counts c;
    nq_status st = s->events ? nq_walk_search(&s->req, on_event, s)
                             : nq_enumerate_solutions(&s->req, on_solution,
                                                      s, &c);
    pthread_mutex_lock(&s->mu);
    s->st = st, s->done = 1;
    pthread_cond_signal(&s->put);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static PyTypeObject stream_type;

/* walk(n, engine, events, unique_only, base): the iterator. */
static PyObject *py_walk(PyObject *self, PyObject *args)
{
    int n, events, unique_only, base;
    const char *engine;
    (void)self;
    if (!PyArg_ParseTuple(args, "isppi", &n, &engine, &events, &unique_only,
                          &base))
        return NULL;
    if (n < 1 || n > NQ_MAX_N)
        return PyErr_Format(PyExc_ValueError, "N must be a whole number "
                            "from 1 to %d, not %d", NQ_MAX_N, n);
    stream *s = PyObject_New(stream, &stream_type);
    if (!s)
        return NULL;
    s->item_size = events ? sizeof(step_item) : sizeof(int) * (size_t)n;
    s->ring = malloc(s->item_size * ITEMS);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->put, NULL);
    pthread_cond_init(&s->took, NULL);
    s->events = events, s->base = base;
    s->head = s->count = s->started = s->done = s->cancel = 0;
    s->st = NQ_OK;
    nq_request init = NQ_REQUEST_INIT;
    s->req = init;
    s->req.n = n, s->req.unique_only = unique_only;
    snprintf(s->engine, sizeof s->engine, "%s", engine);
    s->req.engine = s->engine;
    s->req.why = s->why, s->req.why_size = sizeof s->why;
    if (!s->ring) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    return (PyObject *)s;
}

static void stream_dealloc(PyObject *self)
{
    stream *s = (stream *)self;
    if (s->started) {
        pthread_mutex_lock(&s->mu);
        s->cancel = 1;
        pthread_cond_broadcast(&s->took);
        pthread_mutex_unlock(&s->mu);
        Py_BEGIN_ALLOW_THREADS
        pthread_join(s->thread, NULL);
        Py_END_ALLOW_THREADS
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->put);
    pthread_cond_destroy(&s->took);
    free(s->ring);
    PyObject_Free(self);
}

/* A tuple of n ints from cols, each plus base. */
static PyObject *int_tuple(const int *cols, int n, int base)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *v = PyLong_FromLong(cols[i] + base);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* "0100": an array of 0s and 1s as text. */
static PyObject *flag_text(const char *a, int len)
{
    char buf[2 * NQ_MAX_N];
    for (int i = 0; i < len; i++)
        buf[i] = (char)('0' + (a[i] != 0));
    return PyUnicode_FromStringAndSize(buf, len);
}

/* A step as (kind, row, col, reason, by_row, cols, flags, masks). */
static PyObject *step_tuple(const stream *s, const step_item *it)
{
    int n = s->req.n, k = it->kind == NQ_EVENT_PLACE ? it->row + 1
                        : it->kind == NQ_EVENT_REJECT ||
                          it->kind == NQ_EVENT_REMOVE ? it->row : n;
    PyObject *flags = Py_None, *masks = Py_None;
    if (it->has_flags)
        flags = Py_BuildValue("(NNN)", flag_text(it->fa, n),
                              flag_text(it->fb, 2 * n - 1),
                              flag_text(it->fc, 2 * n - 1));
    else
        Py_INCREF(flags);
    if (it->has_masks)
        masks = Py_BuildValue("(kkkkk)", (unsigned long)it->down,
                              (unsigned long)it->left,
                              (unsigned long)it->right,
                              (unsigned long)it->untried,
                              (unsigned long)it->ruled);
    else
        Py_INCREF(masks);
    /* the attacking queen's column, which a refusal's rows may not hold */
    int by_col = it->by_row >= 0 ? it->cols[it->by_row] : -1;
    if (!flags || !masks) {
        Py_XDECREF(flags);
        Py_XDECREF(masks);
        return NULL;
    }
    return Py_BuildValue("(iiiIiiNNN)", it->kind, it->row, it->col,
                         it->reason, it->by_row, by_col,
                         int_tuple(it->cols, k, 0), flags, masks);
}

static PyObject *item_object(const stream *s, const void *item)
{
    return s->events ? step_tuple(s, item)
                     : int_tuple(item, s->req.n, s->base);
}

/* Take the next item out into buf: 1 taken, 0 the walk is over, -1 not
 * yet.  mu held. */
static int stream_take(stream *s, void *buf)
{
    if (s->count == 0)
        return s->done ? 0 : -1;
    memcpy(buf, s->ring + (size_t)s->head * s->item_size, s->item_size);
    s->head = (s->head + 1) % ITEMS;
    if (s->count-- == ITEMS)
        pthread_cond_signal(&s->took);
    return 1;
}

static PyObject *stream_next(PyObject *self)
{
    stream *s = (stream *)self;
    step_item buf; /* room for either kind of item */
    if (!s->started) {
        if (pthread_create(&s->thread, NULL, stream_main, s) != 0)
            return PyErr_Format(PyExc_RuntimeError,
                                "a thread could not be started");
        s->started = 1;
    }
    for (;;) {
        int got;
        pthread_mutex_lock(&s->mu); /* never held long: no GIL dance */
        got = stream_take(s, &buf);
        pthread_mutex_unlock(&s->mu);
        if (got > 0)
            return item_object(s, &buf);
        if (got == 0)
            break;
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&s->mu);
        if (s->count == 0 && !s->done)
            wait_slice(&s->put, &s->mu);
        pthread_mutex_unlock(&s->mu);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0)
            return NULL;
    }
    if (s->st != NQ_OK && s->st != NQ_ERR_STOPPED) {
        char what[64];
        name_of(s->events ? "trace" : "solutions", s->req.n, what,
                sizeof what);
        return raise_status(what, s->st, s->why);
    }
    return NULL; /* StopIteration */
}

static PyTypeObject stream_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nqueens._nqueens.Walk",
    .tp_basicsize = sizeof(stream),
    .tp_dealloc = stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A walk of the library (solutions or steps), handed over "
              "lazily from its own thread.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = stream_next,
};

/* ---- small calls ---- */

static PyObject *py_check(PyObject *self, PyObject *args)
{
    int n, enumerate;
    const char *engine;
    (void)self;
    if (!PyArg_ParseTuple(args, "isp", &n, &engine, &enumerate))
        return NULL;
    nq_request req = NQ_REQUEST_INIT;
    req.n = n, req.engine = engine;
    return PyLong_FromLong(nq_check_request(&req, enumerate));
}

static PyObject *py_strerror(PyObject *self, PyObject *args)
{
    int st;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &st))
        return NULL;
    return PyUnicode_FromString(nq_strerror((nq_status)st));
}

static PyObject *py_threads(PyObject *self, PyObject *args)
{
    int threads;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &threads))
        return NULL;
    nq_request req = NQ_REQUEST_INIT;
    req.n = 8, req.threads = threads;
    return PyLong_FromLong(nq_request_threads(&req));
}

static PyObject *py_kernels(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < nq_kernel_count(); i++) {
        const char *k = nq_kernel_at(i);
        PyObject *t = Py_BuildValue("(sO)", k, nq_kernel_supported(k)
                                    ? Py_True : Py_False);
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"engines", py_engines, METH_NOARGS,
     "engines() -> [(name, summary, max_n, caps)]"},
    {"count", py_count, METH_VARARGS,
     "count(n, engine, threads, kernel) -> (total, unique, nodes, seconds, "
     "threads)"},
    {"count_resumable", py_count_resumable, METH_VARARGS,
     "count_resumable(n, engine, threads, kernel, journal, part, parts, "
     "max_units) -> dict"},
    {"estimate", py_estimate, METH_VARARGS,
     "estimate(n, engine, threads, kernel, part, parts, seconds, over) -> "
     "dict"},
    {"walk", py_walk, METH_VARARGS,
     "walk(n, engine, events, unique_only, base) -> iterator"},
    {"check", py_check, METH_VARARGS,
     "check(n, engine, enumerate) -> status"},
    {"strerror", py_strerror, METH_VARARGS, "strerror(status) -> str"},
    {"threads", py_threads, METH_VARARGS, "threads(k) -> threads used"},
    {"kernels", py_kernels, METH_NOARGS, "kernels() -> [(name, runs)]"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_nqueens",
    "The C half of nqueens: see the package nqueens.", -1, methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__nqueens(void)
{
    if (PyType_Ready(&stream_type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "version", nq_get_version()) < 0 ||
        PyModule_AddIntConstant(m, "MAX_N", NQ_MAX_N) < 0 ||
        PyModule_AddStringConstant(m, "default_count",
                                   nq_default_count_engine()) < 0 ||
        PyModule_AddStringConstant(m, "default_enumerate",
                                   nq_default_enumerate_engine()) < 0 ||
        PyModule_AddIntConstant(m, "CAP_ENUMERATE", NQ_CAP_ENUMERATE) < 0 ||
        PyModule_AddIntConstant(m, "CAP_UNITS", NQ_CAP_UNITS) < 0 ||
        PyModule_AddIntConstant(m, "CAP_EVENTS", NQ_CAP_EVENTS) < 0 ||
        PyModule_AddIntConstant(m, "CAP_GPU", NQ_CAP_GPU) < 0 ||
        PyModule_AddIntConstant(m, "CAP_KERNEL", NQ_CAP_KERNEL) < 0 ||
        PyModule_AddIntConstant(m, "CAP_FLAG_ARRAYS",
                                NQ_CAP_FLAG_ARRAYS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

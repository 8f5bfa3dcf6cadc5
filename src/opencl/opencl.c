/*
 * opencl.c - engine `opencl`: fast's units counted on any OpenCL 1.2
 * device (AMD, Intel and NVIDIA GPUs; CPUs through PoCL), built by
 * `make opencl` into libnqueens-opencl.a and build/nqueens-opencl where
 * the OpenCL headers and the ICD loader are found; the plain build never
 * needs them.  The engine joins the library's table at run time
 * (nq_opencl_register, nqueens_opencl.h): nothing below names it.
 *
 * The plan is cuda.cu's: the host cuts each batch of units into
 * sub-units (subunits.c) and ships them in one launch, its work-items
 * taking sub-units until none is left (nq_subunit_worker, subunits.h) and
 * counting each with dfs.h's search, the body nvcc compiles for
 * cuda and the CPU tests run, here compiled by the device's OpenCL
 * compiler from the program built into the library (opencl_kernel.cl
 * after the body's headers, built once per device for the process).
 * Every runner worker holds its own queue and buffers on one device (the
 * workers dealt to the devices in turn), so batches overlap with the
 * host's building and journalling as cuda's streams do.  The units that
 * are not searches run on the host; plan, journals, parts and the unique
 * count are fast's.
 *
 * No vendor extension is used: 64-bit sums are two 32-bit atomics
 * (opencl_kernel.cl), and the stop flag is a buffer of the host's memory
 * (CL_MEM_USE_HOST_PTR) that the kernel polls: where the device reads
 * the host's memory as it runs (PoCL, integrated GPUs) a stop ends the
 * launch within NQ_DFS_POLL placements; elsewhere OpenCL 1.2 promises
 * nothing, and the launch in flight runs to its end before the stop.
 */
#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens_opencl.h"
#include "../core/core.h"
#include "../engines/engine.h"
#include "../registry/registry.h"
#include "../search/stop.h"
#include "../fast/fast.h"
#include "../fast/subunits.h"

/* The program built in: the body's headers and opencl_kernel.cl, one
 * text (made by the Makefile, build/gen/opencl_program.c). */
extern const char nq_opencl_program[];

/* The most platforms looked at. */
#define MOST_PLATFORMS 16

/* ---- settings (nqueens_opencl.h), read when a worker starts ---- */

static char *source_set;        /* NULL: nq_opencl_program */
static uint64_t memory_limit;   /* 0: the device's own */

/* The source set's generation: the programs built from another are
 * rebuilt when next used.  Both under built_lock, which the builds read
 * them under. */
static unsigned source_generation;
static pthread_mutex_t built_lock = PTHREAD_MUTEX_INITIALIZER;

nq_status nq_opencl_set_source(const char *text)
{
    char *copy = NULL;
    if (text && !(copy = malloc(strlen(text) + 1)))
        return NQ_ERR_NOMEM;
    if (copy)
        strcpy(copy, text);
    pthread_mutex_lock(&built_lock);
    free(source_set);
    source_set = copy;
    source_generation++;
    pthread_mutex_unlock(&built_lock);
    return NQ_OK;
}

void nq_opencl_set_memory_limit(uint64_t bytes)
{
    memory_limit = bytes;
}

/* ---- errors: OpenCL's codes in words, into the unit's buffer ---- */

/* The name of an OpenCL error code: the ones a count can meet. */
static const char *cl_error_name(cl_int e)
{
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
        {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
        {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
        {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
        {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
        {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
        {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
        {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
        {CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM"},
        {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
        {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
        {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
        {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
        {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
        {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
        {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
        {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
        {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
        {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
         "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
        {-1001, "CL_PLATFORM_NOT_FOUND_KHR"}, /* the ICD loader's */
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == e)
            return names[i].name;
    return "an OpenCL error";
}

/* The words of a failure into the unit's buffer (engine.h): they go up
 * with NQ_ERR_DEVICE as data of this worker's call, so two workers or two
 * counts failing at once each keep their own. */
static nq_status device_failed(nq_unit_env *env, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static nq_status device_failed(nq_unit_env *env, const char *fmt, ...)
{
    va_list ap;
    if (env->why && env->why_size) {
        va_start(ap, fmt);
        vsnprintf(env->why, env->why_size, fmt, ap);
        va_end(ap);
    }
    return NQ_ERR_DEVICE;
}

/* A call of OpenCL that failed: its code's name and number, and what the
 * engine was doing. */
static nq_status call_failed(nq_unit_env *env, cl_int e, const char *doing)
{
    return device_failed(env, "%s (%d) %s", cl_error_name(e), (int)e, doing);
}

/* ---- devices: every device of every platform, numbered in turn ---- */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
} cl_place;

/* The devices of every platform the ICD loader finds, in its order: the
 * numbers --devices and --version use.  *n of them, at most `most`;
 * CL_SUCCESS, or the failing call's code (CL_PLATFORM_NOT_FOUND_KHR where
 * no platform is installed). */
static cl_int list_devices_now(cl_place *out, int most, int *n)
{
    cl_platform_id platforms[MOST_PLATFORMS];
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(MOST_PLATFORMS, platforms, &np);
    *n = 0;
    if (e != CL_SUCCESS)
        return e;
    for (cl_uint p = 0; p < np && p < MOST_PLATFORMS && *n < most; p++) {
        cl_device_id ids[NQ_MAX_DEVICES];
        cl_uint nd = 0;
        e = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, NQ_MAX_DEVICES,
                           ids, &nd);
        /* a platform that cannot list its devices (a broken driver) is
         * passed over: the others' devices are still there to use */
        if (e != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < NQ_MAX_DEVICES && *n < most; d++)
            out[(*n)++] = (cl_place){platforms[p], ids[d]};
    }
    return CL_SUCCESS;
}

/* The list, made once for the process, under a lock: the ICD loader's
 * and PoCL's first clGetPlatformIDs are not safe to run from several
 * threads at once (with workers each listing on its first batch,
 * `count 13 --threads 4` on PoCL failed 19 runs of 20 with "the
 * platforms list none" or a device that then made no buffer), and
 * every later call would only list the same devices again. */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_place listed[NQ_MAX_DEVICES];
static int nlisted, listed_once;
static cl_int listed_error;

static cl_int list_devices(cl_place *out, int most, int *n)
{
    pthread_mutex_lock(&list_lock);
    if (!listed_once) {
        listed_error = list_devices_now(listed, NQ_MAX_DEVICES, &nlisted);
        listed_once = 1;
    }
    *n = nlisted < most ? nlisted : most;
    memcpy(out, listed, (size_t)*n * sizeof *out);
    cl_int e = listed_error;
    pthread_mutex_unlock(&list_lock);
    return e;
}

/* Whether a device is a GPU or an accelerator, which a count uses by
 * default: a CPU's OpenCL device (PoCL's) would compete with the host's
 * own threads where a GPU is at hand. */
static int is_gpu(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return (t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
}

/* The device of the k-th worker: the k-th of the plan's list in turn,
 * else of the GPUs and accelerators, else of every device. */
static int device_for(const nq_plan *p, unsigned k, const cl_place *all,
                      int n)
{
    int gpus[NQ_MAX_DEVICES], ngpus = 0;
    if (p->ndevices)
        return p->devices[k % (unsigned)p->ndevices];
    for (int i = 0; i < n; i++)
        if (is_gpu(all[i].device))
            gpus[ngpus++] = i;
    return ngpus ? gpus[k % (unsigned)ngpus] : (int)(k % (unsigned)n);
}

/* ---- each device's program, built once for the process ---- */

/* A device's context and program, built the first time a count uses the
 * device and kept, shared by every worker and every count after: a build
 * takes a tenth of a second to seconds (PoCL's first, with its cache
 * cold), and counts come in series (a range; the estimate before a
 * count, programs/commands/estimate.c, times counts of growing sizes,
 * where a build each would pass for search time).  A program is rebuilt only
 * after nq_opencl_set_source; a build that failed is not kept. */
typedef struct {
    cl_device_id device;
    cl_context context;
    cl_program program;
    unsigned source;            /* source_generation it was built from */
} cl_built;

static cl_built built[NQ_MAX_DEVICES];

/* The first lines of the build log (two that are not blank: the first
 * error and what follows), joined by " | " into buf: what a one-line
 * error can carry of it. */
static void build_log_head(cl_program program, cl_device_id device,
                           char *buf, size_t size)
{
    size_t len = 0;
    char *log;
    buf[0] = '\0';
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &len) != CL_SUCCESS || !len ||
        !(log = malloc(len + 1)))
        return;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log,
                              NULL) == CL_SUCCESS) {
        log[len] = '\0';
        int lines = 0;
        for (char *save, *l = strtok_r(log, "\r\n", &save); l && lines < 2;
             l = strtok_r(NULL, "\r\n", &save)) {
            if (!l[strspn(l, " \t")])
                continue;
            size_t at = strlen(buf);
            snprintf(buf + at, size - at, "%s%s", lines++ ? " | " : "", l);
        }
    }
    free(log);
}

/* The program (the one built in, or the one set) built for device
 * `index`, with the sizes the body takes from the host's build; a
 * failure says so with the build log's first lines.  Under built_lock. */
static nq_status build_program(cl_built *b, int index, nq_unit_env *env)
{
    const char *text = source_set ? source_set : nq_opencl_program;
    char options[128], log[512];
    cl_int e;
    b->program = clCreateProgramWithSource(b->context, 1, &text, NULL, &e);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "making the OpenCL program");
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DNQ_MAX_N=%d "
             "-DNQ_HOST_POINTER_BYTES=%d", NQ_MAX_N, (int)sizeof(void *));
    e = clBuildProgram(b->program, 1, &b->device, options, NULL, NULL);
    if (e == CL_SUCCESS)
        return NQ_OK;
    build_log_head(b->program, b->device, log, sizeof log);
    return device_failed(env, "the OpenCL program failed to build for "
                         "device %d (%s)%s%s", index, cl_error_name(e),
                         log[0] ? ": " : "", log);
}

/* Run the program's nq_layout kernel and compare what it says of the
 * structs the host fills with the host's own layout: a count on a device
 * that reads them otherwise would be wrong without a sign. */
static nq_status check_layout(const cl_built *b, int index, nq_unit_env *env)
{
    const cl_uint want[4] = {sizeof(nq_frontier),
                             offsetof(nq_frontier, weight),
                             offsetof(nq_frontier, stop), sizeof(nq_subunit)};
    cl_uint got[4] = {0};
    size_t one = 1;
    cl_int e;
    cl_command_queue q = clCreateCommandQueue(b->context, b->device, 0, &e);
    cl_kernel k = e == CL_SUCCESS ? clCreateKernel(b->program, "nq_layout", &e)
                                  : NULL;
    cl_mem out = e == CL_SUCCESS
                     ? clCreateBuffer(b->context, CL_MEM_WRITE_ONLY,
                                      sizeof got, NULL, &e)
                     : NULL;
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, 0, sizeof out, &out);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL,
                                NULL);
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    if (q)
        clReleaseCommandQueue(q);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "running the layout check");
    if (memcmp(got, want, sizeof got))
        return device_failed(env, "device %d lays out the jobs otherwise than "
                             "the host (job %u bytes, its weights at %u, its "
                             "stop at %u, sub-unit %u bytes; the host's: %u, "
                             "%u, %u, %u)", index, got[0], got[1], got[2],
                             got[3], want[0], want[1], want[2], want[3]);
    return NQ_OK;
}

/* Give up the cache's references to a device's context and program
 * (workers that hold their own keep the objects alive). */
static void built_release(cl_built *b)
{
    if (b->program)
        clReleaseProgram(b->program);
    if (b->context)
        clReleaseContext(b->context);
    memset(b, 0, sizeof *b);
}

/* A new context and program for the device, built and checked, or
 * nothing kept.  Under built_lock. */
static nq_status build_for(const cl_place *at, int index, cl_built *b,
                           nq_unit_env *env)
{
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)at->platform, 0};
    cl_int e;
    nq_status st;
    memset(b, 0, sizeof *b);
    b->device = at->device;
    b->context = clCreateContext(props, 1, &b->device, NULL, NULL, &e);
    if (e != CL_SUCCESS)
        st = call_failed(env, e, "making a context");
    else if ((st = build_program(b, index, env)) == NQ_OK)
        st = check_layout(b, index, env);
    if (st != NQ_OK)
        built_release(b);
    b->source = source_generation;
    return st;
}

/* The device's context and program for a worker (each retained: the
 * worker releases them), built if no count has built them yet from the
 * source set now. */
static nq_status program_for(const cl_place *at, int index,
                             cl_context *context, cl_program *program,
                             nq_unit_env *env)
{
    nq_status st = NQ_OK;
    pthread_mutex_lock(&built_lock);
    cl_built *b = &built[index];
    if (!b->program || b->device != at->device ||
        b->source != source_generation) {
        cl_built fresh;
        if ((st = build_for(at, index, &fresh, env)) == NQ_OK) {
            built_release(b); /* the workers hold their own references */
            *b = fresh;
        }
    }
    if (st == NQ_OK) {
        clRetainContext(*context = b->context);
        clRetainProgram(*program = b->program);
    }
    pthread_mutex_unlock(&built_lock);
    return st;
}

/* ---- a worker: its queue, kernel and buffers on one device ---- */

typedef struct {
    int index;                  /* the device's number */
    cl_device_id device;
    cl_context context;         /* the device's, shared (program_for) */
    cl_program program;
    cl_command_queue queue;
    cl_kernel kernel;
    cl_mem jobs, subs, counts, stop;
    size_t jobs_cap, subs_cap, counts_cap;  /* bytes */
    cl_uint *host_counts;
    size_t host_counts_cap;     /* words */
    cl_int *stop_host;          /* the stop buffer's memory */
    int stop_host_handed;       /* freed by the buffer's destructor */
    cl_ulong memory, max_alloc; /* bytes the engine may hold, and in one */
    cl_ulong local_memory;      /* bytes of local memory a group may use */
    size_t group_most;          /* work-items a group may have */
    cl_uint units;              /* the device's compute units */
} cl_worker;

/* Workers are dealt to the devices in turn. */
static unsigned workers_started;

/* The worker's device buffers given back (a batch that grows past
 * them makes new ones, reserve). */
static void release_buffers(cl_worker *g)
{
    cl_mem *all[] = {&g->jobs, &g->subs, &g->counts, &g->stop};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (*all[i])
            clReleaseMemObject(*all[i]), *all[i] = NULL;
    g->jobs_cap = g->subs_cap = g->counts_cap = 0;
}

/* The worker's end (the engine's free_scratch): its queue drained, its
 * objects and its references to the device's program released. */
static void release(void *scratch)
{
    cl_worker *g = scratch;
    if (!g)
        return;
    if (g->queue)
        clFinish(g->queue);
    release_buffers(g);
    if (g->kernel)
        clReleaseKernel(g->kernel);
    if (g->queue)
        clReleaseCommandQueue(g->queue);
    if (g->program)
        clReleaseProgram(g->program);
    if (g->context)
        clReleaseContext(g->context);
    free(g->host_counts);
    if (!g->stop_host_handed)
        free(g->stop_host);
    free(g);
}

/* What the engine may use of the device: memory (the device's, below any
 * limit set), one buffer's most, local memory and work-group size (the
 * kernel's own), and the byte order, which must be the host's. */
static nq_status read_limits(cl_worker *g, nq_unit_env *env)
{
    cl_ulong global = 0, local = 0, kernel_local = 0;
    cl_bool little = CL_TRUE;
    size_t group = 0;
    cl_int e = clGetDeviceInfo(g->device, CL_DEVICE_GLOBAL_MEM_SIZE,
                               sizeof global, &global, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceInfo(g->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                            sizeof g->max_alloc, &g->max_alloc, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local,
                            &local, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceInfo(g->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little,
                            &little, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceInfo(g->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                            sizeof g->units, &g->units, NULL);
    if (e == CL_SUCCESS)
        e = clGetKernelWorkGroupInfo(g->kernel, g->device,
                                     CL_KERNEL_WORK_GROUP_SIZE, sizeof group,
                                     &group, NULL);
    if (e == CL_SUCCESS)
        e = clGetKernelWorkGroupInfo(g->kernel, g->device,
                                     CL_KERNEL_LOCAL_MEM_SIZE,
                                     sizeof kernel_local, &kernel_local, NULL);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "reading the device's limits");
    const uint32_t one = 1;
    if (!little != !*(const unsigned char *)&one)
        return device_failed(env, "device %d's byte order is not the host's",
                             g->index);
    g->memory = memory_limit && memory_limit < global ? memory_limit : global;
    g->local_memory = local > kernel_local ? local - kernel_local : 0;
    g->group_most = group;
    /* a group is also held to the device's first dimension (3 at least,
     * more on some devices: a list too long for this one is no limit) */
    size_t dims[16];
    if (clGetDeviceInfo(g->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims,
                        dims, NULL) == CL_SUCCESS && dims[0] < g->group_most)
        g->group_most = dims[0];
    return NQ_OK;
}

/* The stop flag's buffer, in host memory the kernel reads (see the top):
 * a page of its own, since a runtime may use the host's memory in place
 * only where it is aligned (Intel's, for its GPUs: to a page, in whole
 * cache lines) and copy it otherwise, when the kernel would never see the
 * flag change. */
#define STOP_PAGE 4096
#define STOP_BYTES 64
/* A buffer made on the host's memory may be used until the runtime
 * destroys it, which may be after its last release (a kernel still
 * holding it): the page is freed then, by the runtime's call. */
static void CL_CALLBACK free_page(cl_mem buffer, void *page)
{
    (void)buffer;
    free(page);
}

static nq_status make_stop_buffer(cl_worker *g, nq_unit_env *env)
{
    cl_int e;
    void *page = NULL;
    if (posix_memalign(&page, STOP_PAGE, STOP_PAGE))
        return NQ_ERR_NOMEM;
    memset(page, 0, STOP_PAGE);
    g->stop_host = page;
    g->stop = clCreateBuffer(g->context,
                             CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                             STOP_BYTES, g->stop_host, &e);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "making the stop flag");
    g->stop_host_handed = clSetMemObjectDestructorCallback(
                              g->stop, free_page, page) == CL_SUCCESS;
    return NQ_OK;
}

/* The worker's device opened: the device's program (built by the first
 * worker to need it), the worker's own queue, the counting kernel and
 * its limits, and the stop flag. */
static nq_status open_device(cl_worker *g, const cl_place *at,
                             nq_unit_env *env)
{
    cl_int e;
    nq_status st;
    g->device = at->device;
    if ((st = program_for(at, g->index, &g->context, &g->program, env)))
        return st;
    g->queue = clCreateCommandQueue(g->context, g->device, 0, &e);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "making a command queue");
    g->kernel = clCreateKernel(g->program, "nq_count_subunits", &e);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "making the counting kernel");
    if ((st = read_limits(g, env)) != NQ_OK)
        return st;
    return make_stop_buffer(g, env);
}

/* This worker's device (the next of the plan's list, or of the default
 * ones, in turn), opened on its first batch; a worker that failed to
 * open one is released, so nothing half made is kept. */
static nq_status device_ready(const nq_plan *p, nq_unit_env *env)
{
    cl_place all[NQ_MAX_DEVICES];
    int n = 0;
    if (env->scratch)
        return NQ_OK;
    cl_int e = list_devices(all, NQ_MAX_DEVICES, &n);
    if (e == -1001)
        return device_failed(env, "CL_PLATFORM_NOT_FOUND_KHR: no OpenCL "
                             "platform is installed");
    if (e != CL_SUCCESS)
        return call_failed(env, e, "listing the OpenCL devices");
    if (n == 0)
        return device_failed(env, "no OpenCL device: the platforms list "
                             "none");
    int index = device_for(p, __atomic_fetch_add(&workers_started, 1,
                                                 __ATOMIC_RELAXED), all, n);
    if (index >= n)
        return device_failed(env, "no OpenCL device %d: %d found, numbered "
                             "from 0", index, n);
    cl_worker *g = calloc(1, sizeof *g);
    if (!g)
        return NQ_ERR_NOMEM;
    g->index = index;
    nq_status st = open_device(g, &all[index], env);
    if (st != NQ_OK) {
        release(g);
        return st;
    }
    env->scratch = g;
    return NQ_OK;
}

/* ---- a launch ---- */

/* Make the device buffer *mem hold at least `need` bytes (half as much
 * again, so that growing batches do not remake it each time). */
static cl_int reserve(cl_worker *g, cl_mem *mem, size_t *cap, size_t need,
                      cl_mem_flags flags)
{
    cl_int e = CL_SUCCESS;
    if (need <= *cap)
        return CL_SUCCESS;
    if (*mem)
        clReleaseMemObject(*mem);
    *cap = 0;
    size_t want = need + need / 2 + 64;
    *mem = clCreateBuffer(g->context, flags, want, NULL, &e);
    if (e == CL_SUCCESS)
        *cap = want;
    else
        *mem = NULL;
    return e;
}

/* The bytes a batch's buffers take once grown for it. */
static uint64_t grown(size_t cap, size_t need)
{
    return need <= cap ? cap : need + need / 2 + 64;
}

/* Whether batch buffers of these sizes fit what the engine may use of
 * the device (in all, and in one buffer); if not, the failure said as
 * the runtime's own would be. */
static nq_status fits(const cl_worker *g, uint64_t need, uint64_t largest,
                      nq_unit_env *env)
{
    if (need > g->memory)
        return device_failed(env, "device %d out of memory "
                             "(CL_MEM_OBJECT_ALLOCATION_FAILURE): a batch "
                             "needs %llu bytes, the engine may hold %llu%s",
                             g->index, (unsigned long long)need,
                             (unsigned long long)g->memory,
                             memory_limit == g->memory ? " (the limit set)"
                                                       : "");
    if (largest > g->max_alloc)
        return device_failed(env, "device %d out of memory "
                             "(CL_MEM_OBJECT_ALLOCATION_FAILURE): a batch "
                             "needs a buffer of %llu bytes, the device "
                             "allocates %llu at most", g->index,
                             (unsigned long long)largest,
                             (unsigned long long)g->max_alloc);
    return NQ_OK;
}

/* The device buffers (and the host's copy of the counts) for batch b,
 * within what the engine may use of the device: beyond it the batch
 * fails as a device out of memory, before the device is asked. */
static nq_status reserve_all(cl_worker *g, const nq_batch *b,
                             nq_unit_env *env)
{
    size_t jobs = (b->jobs ? b->jobs : 1) * sizeof(nq_frontier);
    size_t subs = (b->subs ? b->subs : 1) * sizeof(nq_subunit);
    size_t words = NQ_WORDS(b->jobs), counts = words * sizeof(cl_uint);
    uint64_t gj = grown(g->jobs_cap, jobs), gs = grown(g->subs_cap, subs);
    nq_status st = fits(g, gj + gs + grown(g->counts_cap, counts) + STOP_BYTES,
                        gj > gs ? gj : gs, env);
    if (st != NQ_OK)
        return st;
    cl_int e = reserve(g, &g->jobs, &g->jobs_cap, jobs, CL_MEM_READ_ONLY);
    if (e == CL_SUCCESS)
        e = reserve(g, &g->subs, &g->subs_cap, subs, CL_MEM_READ_ONLY);
    if (e == CL_SUCCESS)
        e = reserve(g, &g->counts, &g->counts_cap, counts, CL_MEM_READ_WRITE);
    if (e != CL_SUCCESS)
        return call_failed(env, e, "making the batch's buffers");
    if (words > g->host_counts_cap) {
        free(g->host_counts);
        g->host_counts_cap = 0;
        if (!(g->host_counts = malloc(words * sizeof *g->host_counts)))
            return NQ_ERR_NOMEM;
        g->host_counts_cap = words;
    }
    return NQ_OK;
}

/* Work-items a group for stacks of `rows` words each: NQ_GPU_BLOCK, or
 * fewer where the kernel or the device's local memory allows fewer; 0
 * if not even one stack fits. */
static size_t group_size(const cl_worker *g, int rows)
{
    size_t group = NQ_GPU_BLOCK;
    cl_ulong stack = (cl_ulong)rows * sizeof(cl_uint);
    while (group > 1 && (group > g->group_most ||
                         group * stack > g->local_memory))
        group /= 2;
    return group * stack <= g->local_memory ? group : 0;
}

/* Work-groups a launch runs per compute unit: enough to keep a GPU's
 * unit busy while some of its groups wait on memory (a CUDA SM takes 16
 * of cuda's blocks); a launch's work-items persist, taking sub-units
 * until none is left (subunits.h), so more would only wait. */
#define GROUPS_PER_UNIT 16

/* The counting kernel's arguments and launch: as many work-items as the
 * device holds at once (or the sub-units, if fewer), in groups sharing a
 * local array of stacks. */
static cl_int enqueue_count(cl_worker *g, const nq_batch *b, size_t group)
{
    cl_uint n = (cl_uint)b->subs;
    cl_uint njobs = b->jobs;
    size_t groups = (b->subs + group - 1) / group;
    size_t most = (size_t)(g->units ? g->units : 1) * GROUPS_PER_UNIT;
    size_t global = (groups < most ? groups : most) * group;
    size_t stacks = group * (size_t)nq_batch_stack_rows(b) * sizeof(cl_uint);
    cl_int e = clSetKernelArg(g->kernel, 0, sizeof g->jobs, &g->jobs);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 1, sizeof g->subs, &g->subs);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 2, sizeof n, &n);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 3, sizeof njobs, &njobs);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 4, sizeof g->counts, &g->counts);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 5, sizeof g->stop, &g->stop);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(g->kernel, 6, stacks, NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(g->queue, g->kernel, 1, NULL, &global,
                                   &group, 0, NULL, NULL);
    return e;
}

/* Copy in, clear the counts and the stop flag, count, copy out: all
 * queued on the worker's queue, the last with an event to wait for. */
static cl_int enqueue_batch(cl_worker *g, const nq_batch *b, size_t group,
                            cl_event *done)
{
    static const cl_int zero = 0;
    size_t words = NQ_WORDS(b->jobs);
    cl_int e = clEnqueueWriteBuffer(g->queue, g->stop, CL_FALSE, 0,
                                    sizeof zero, &zero, 0, NULL, NULL);
    if (e == CL_SUCCESS && b->jobs)
        e = clEnqueueWriteBuffer(g->queue, g->jobs, CL_FALSE, 0,
                                 b->jobs * sizeof *b->job, b->job, 0, NULL,
                                 NULL);
    if (e == CL_SUCCESS && b->subs)
        e = clEnqueueWriteBuffer(g->queue, g->subs, CL_FALSE, 0,
                                 b->subs * sizeof *b->sub, b->sub, 0, NULL,
                                 NULL);
    if (e == CL_SUCCESS)
        e = clEnqueueFillBuffer(g->queue, g->counts, &zero, sizeof zero, 0,
                                words * sizeof(cl_uint), 0, NULL, NULL);
    if (e == CL_SUCCESS && b->subs)
        e = enqueue_count(g, b, group);
    if (e == CL_SUCCESS)
        e = clEnqueueReadBuffer(g->queue, g->counts, CL_FALSE, 0,
                                words * sizeof(cl_uint), g->host_counts, 0,
                                NULL, done);
    if (e == CL_SUCCESS)
        e = clFlush(g->queue);
    return e;
}

/* Wait for the event, passing a stop on to the kernel through the flag's
 * memory; polled every millisecond, which spares the core a blocking
 * wait may spin on.  The event's final status: CL_COMPLETE, or the
 * error that ended its commands. */
static cl_int wait_watching(cl_worker *g, cl_event done,
                            const volatile sig_atomic_t *stop)
{
    struct timespec ms = {0, 1000000};
    cl_int status = CL_QUEUED;
    for (;;) {
        cl_int e = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL);
        if (e != CL_SUCCESS)
            return e;
        if (status <= CL_COMPLETE)
            return status;
        if (nq_stop_requested(stop))
            __atomic_store_n(g->stop_host, 1, __ATOMIC_RELAXED);
        nanosleep(&ms, NULL);
    }
}

/* One batch on the device of env's worker (device_ready), waited for
 * while watching env's stop flag.  On any failure the queue is drained
 * first: its commands read the batch, which is freed after. */
static nq_status launch(const nq_plan *p, nq_batch *b, nq_batch_tally *t,
                        nq_unit_env *env)
{
    cl_worker *g = env->scratch;
    cl_event done = NULL;
    (void)p;
    nq_status st = reserve_all(g, b, env);
    if (st != NQ_OK)
        return st;
    size_t group = group_size(g, nq_batch_stack_rows(b));
    if (!group)
        return device_failed(env, "device %d has %llu bytes of local memory "
                             "a work-group may use, under one stack of %d "
                             "rows", g->index,
                             (unsigned long long)g->local_memory,
                             nq_batch_stack_rows(b));
    cl_int e = enqueue_batch(g, b, group, &done);
    if (e == CL_SUCCESS)
        e = wait_watching(g, done, env->stop);
    if (done)
        clReleaseEvent(done);
    cl_int drained = clFinish(g->queue);
    if (e == CL_SUCCESS)
        e = drained;
    if (e != CL_SUCCESS)
        return call_failed(env, e, "counting a batch");
    nq_batch_unpack(b, g->host_counts, t);
    return NQ_OK;
}

/* The batch's common path (subunits.c): the device first, then the
 * launch; batches of NQ_GPU_BATCH units, as cuda's. */
static nq_status opencl_batch(const nq_plan *p, const uint64_t *ids,
                              uint64_t count, nq_unit_env *env, nq_tally *out)
{
    return nq_batch_run_with(p, ids, count, env, out, device_ready, launch);
}

/* ---- what nqueens-opencl --version shows ---- */

/* One device's line: its number, platform, name, kind, OpenCL C
 * version, compute units, memory and driver. */
static int describe_one(char *buf, size_t size, int i, const cl_place *at)
{
    char platform[128] = "", name[128] = "", version[64] = "", driver[64] = "";
    cl_uint units = 0;
    cl_ulong memory = 0;
    clGetPlatformInfo(at->platform, CL_PLATFORM_NAME, sizeof platform,
                      platform, NULL);
    clGetDeviceInfo(at->device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(at->device, CL_DEVICE_OPENCL_C_VERSION, sizeof version,
                    version, NULL);
    clGetDeviceInfo(at->device, CL_DRIVER_VERSION, sizeof driver, driver,
                    NULL);
    clGetDeviceInfo(at->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                    &units, NULL);
    clGetDeviceInfo(at->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory,
                    &memory, NULL);
    return snprintf(buf, size, "device %d: %s, %s (%s, %s, %u compute units, "
                    "%llu MiB; driver %s)", i, platform, name,
                    is_gpu(at->device) ? "GPU" : "CPU or other", version,
                    units, (unsigned long long)(memory >> 20), driver);
}

/* Every device the plan lists is one list_devices numbers (the engine's
 * check_devices, before any unit runs): a worker would otherwise find
 * out only when it first takes its device, which a count of a few units
 * never does. */
static nq_status check_devices(const nq_plan *p, char *why, size_t size)
{
    cl_place all[NQ_MAX_DEVICES];
    int n = 0;
    nq_unit_env env = {.why = why, .why_size = size};
    cl_int e = list_devices(all, NQ_MAX_DEVICES, &n);
    if (e == -1001)
        return device_failed(&env, "CL_PLATFORM_NOT_FOUND_KHR: no OpenCL "
                             "platform is installed");
    if (e != CL_SUCCESS)
        return call_failed(&env, e, "listing the OpenCL devices");
    for (int i = 0; i < p->ndevices; i++)
        if (p->devices[i] >= n)
            return device_failed(&env, "no OpenCL device %d: %d found, "
                                 "numbered from 0", p->devices[i], n);
    return NQ_OK;
}

/* Every device's line, or why there is none (the engine's devices). */
static void describe_devices(char *buf, size_t size)
{
    cl_place all[NQ_MAX_DEVICES];
    int n = 0;
    size_t len = 0;
    cl_int e = list_devices(all, NQ_MAX_DEVICES, &n);
    buf[0] = '\0';
    if (e != CL_SUCCESS || n == 0) {
        snprintf(buf, size, "no OpenCL device (%s)",
                 e == -1001 ? "CL_PLATFORM_NOT_FOUND_KHR: no OpenCL platform "
                              "is installed"
                 : e != CL_SUCCESS ? cl_error_name(e)
                                   : "the platforms list none");
        return;
    }
    for (int i = 0; i < n && len + 1 < size; i++) {
        if (len)
            buf[len++] = '\n';
        int k = describe_one(buf + len, size - len, i, &all[i]);
        len += k > 0 ? (size_t)k : 0;
    }
}

const nq_engine nq_engine_opencl =
    NQ_GPU_ENGINE("opencl", "fast's units cut into sub-units, taken by "
                  "OpenCL work-items", opencl_batch, release,
                  describe_devices, check_devices);

nq_status nq_opencl_register(void)
{
    return nq_engine_add(&nq_engine_opencl);
}

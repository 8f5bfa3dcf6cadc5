/*
 * test_layers.c - the dependency rule, checked on the built objects and
 * on the sources, so that it keeps holding.
 *
 * Each folder is a room, and the table `rooms` below gives each its
 * layer; a folder under src/ or programs/ that the table does not list
 * fails the test (in the sources, and in the objects where its sources
 * are), as does a file in src/ outside any room, so that nothing escapes
 * the rule by living somewhere new.
 *
 * The library's rooms, each a layer of its own, bottom to top: core;
 * search (src/search: the completion counters, their kernels and the
 * kernel table, the DFS a GPU thread runs); engines (src/engines: the
 * teaching engines, carry, completion, and the plan calls every engine
 * makes); fast (src/fast: the fast engine, the GPU's sub-units and the
 * fixed points, built on the engines' frames and whole-board count);
 * registry (src/registry: the engines' table, which names every engine,
 * so it stands above every engine's room); then parallel and the journal
 * side by side; run.  Each may use only the rooms below it, so the
 * may-use relation is a strict order (checked: no layer may use itself
 * through it, and what a layer may use, so may every layer that may use
 * it); the journal uses core alone, and the side rooms do not use each
 * other (nothing but the run layer keeps a journal).
 *
 * Above the library: the programs (programs/, the command line: its main,
 * dispatcher and process-wide pieces, and its rooms programs/options,
 * programs/output, programs/trace and programs/commands, one layer), which
 * may use the library but only through what include/ declares: they
 * include only the public headers and their own, and every library
 * symbol their objects need must be declared in include/.  Beside it, the
 * back-ends, each whole in its room: src/mpi may use run, parallel, the
 * journal and everything below; src/cuda and src/opencl the registry and
 * below (each adds its engine to the engines' table, which never names
 * it).  Their programs' mains live among the programs, each in a room of
 * its own (programs/mpi, programs/cuda, programs/opencl), which may use
 * the programs, its own back-end and the library, and includes as the
 * programs do: nothing in src/ includes from programs/.  The programs and
 * the library use no back-end, and the back-ends not each other.  The lesson
 * page's C (programs/web, built only by make wasm) stands above the
 * programs, whose trace and count printers it calls, and includes as
 * they do.
 *
 * No object may need a symbol that only layers it may not use define
 * (read with nm), in any build: plain (the OpenCL back-end's objects
 * among its own, obj/src/opencl, as the C compiler builds them), MPI
 * (obj/mpi) and CUDA (obj/cuda);
 * and no source may include a header from such a layer.  Object folders
 * whose source folder is gone (a build tree older than a move) are
 * stale, and skipped, as are objects whose source is gone (their
 * dependency file's first prerequisite: an object left behind by a file
 * moved to another room).
 *
 * Nor may files go round in a circle: file A uses file B when A's object
 * needs a symbol B's defines, and no chain of such uses may lead from a
 * file back to itself, among all the objects of the library, the
 * programs and the back-ends (a circle inside one room breaks no layer,
 * but its files can be neither understood nor tested one at a time).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

enum { CORE, SEARCH, ENGINES, FAST, REGISTRY, PARALLEL, JOURNAL, RUN,
       PROGRAMS, MPI, MPI_MAIN, CUDA, CUDA_MAIN, OPENCL, OPENCL_MAIN, WEB,
       BINDING, LAYERS };
static const char *const layers[LAYERS] = {
    "core", "search", "engines", "fast", "registry", "parallel", "journal",
    "run", "programs", "mpi", "mpi's main", "cuda", "cuda's main", "opencl",
    "opencl's main", "the lesson page", "a binding"};

/* What each layer may use besides itself, a bit per layer. */
#define L(l) (1u << (l))
/* The engines' table and every room below it: what the GPU back-ends
 * and the runner stand on. */
#define BELOW_PARALLEL (L(CORE) | L(SEARCH) | L(ENGINES) | L(FAST) | \
                        L(REGISTRY))
#define LIBRARY (BELOW_PARALLEL | L(PARALLEL) | L(JOURNAL) | L(RUN))
static const unsigned may_use[LAYERS] = {
    [CORE] = 0,
    [SEARCH] = L(CORE),
    [ENGINES] = L(CORE) | L(SEARCH),
    [FAST] = L(CORE) | L(SEARCH) | L(ENGINES),
    [REGISTRY] = L(CORE) | L(SEARCH) | L(ENGINES) | L(FAST),
    [PARALLEL] = BELOW_PARALLEL,
    [JOURNAL] = L(CORE),
    [RUN] = BELOW_PARALLEL | L(PARALLEL) | L(JOURNAL),
    [PROGRAMS] = LIBRARY,
    [MPI] = LIBRARY,
    [MPI_MAIN] = LIBRARY | L(PROGRAMS) | L(MPI),
    [CUDA] = BELOW_PARALLEL,
    [CUDA_MAIN] = LIBRARY | L(PROGRAMS) | L(CUDA),
    [OPENCL] = BELOW_PARALLEL,
    [OPENCL_MAIN] = LIBRARY | L(PROGRAMS) | L(OPENCL),
    [WEB] = LIBRARY | L(PROGRAMS),
    [BINDING] = LIBRARY,
};
/* The layers that see the library only through include/. */
#define PUBLIC_ONLY (L(PROGRAMS) | L(MPI_MAIN) | L(CUDA_MAIN) | L(OPENCL_MAIN) | \
                     L(WEB) | L(BINDING))

/* Every room: a folder and its layer. */
static const struct {
    const char *dir;
    int layer;
} rooms[] = {
    {"src/core", CORE},         {"src/search", SEARCH},
    {"src/engines", ENGINES},   {"src/fast", FAST},
    {"src/registry", REGISTRY}, {"src/parallel", PARALLEL},
    {"src/journal", JOURNAL},   {"src/run", RUN},
    {"src/mpi", MPI},           {"src/cuda", CUDA},
    {"src/opencl", OPENCL},     {"programs", PROGRAMS},
    {"programs/options", PROGRAMS}, {"programs/output", PROGRAMS},
    {"programs/trace", PROGRAMS},   {"programs/commands", PROGRAMS},
    {"programs/web", WEB},      {"programs/mpi", MPI_MAIN},
    {"programs/cuda", CUDA_MAIN}, {"programs/opencl", OPENCL_MAIN},
};
#define ROOMS (int)(sizeof rooms / sizeof rooms[0])
/* The trees the rooms are in. */
static const char *const trees[] = {"src", "programs"};

/* The room of a folder (relative to the repository), or -1. */
static int room_of(const char *dir)
{
    for (int r = 0; r < ROOMS; r++)
        if (!strcmp(rooms[r].dir, dir))
            return r;
    return -1;
}

/* Whether layer `from` may use layer `to` (LAYERS: elsewhere). */
static int allowed(int from, int to)
{
    return to == from || (to < LAYERS && (may_use[from] & L(to)));
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef struct {
    char name[200];
    int layer;
    int file;                   /* its object: an index into files */
} symbol;

typedef struct {
    symbol *defined, *used;     /* used: with the object's own layer */
    size_t ndef, nused, capdef, capused;
    const char *declared;       /* the public headers' text */
    char first[400];            /* the first violation, in words */
    char (*files)[160];         /* the objects read, by index */
    int nfiles, capfiles;
} symbol_table;

/* The index of object `path` in the table's files, added if new (-1 if
 * out of memory). */
static int file_index(symbol_table *t, const char *path)
{
    for (int f = t->nfiles - 1; f >= 0; f--)
        if (!strcmp(t->files[f], path))
            return f;
    if (t->nfiles == t->capfiles) {
        int c = t->capfiles ? 2 * t->capfiles : 64;
        char (*nf)[160] = realloc(t->files, (size_t)c * sizeof *nf);
        if (!nf)
            return -1;
        t->files = nf, t->capfiles = c;
    }
    snprintf(t->files[t->nfiles], sizeof t->files[0], "%s", path);
    return t->nfiles++;
}

/* Whether the object at path (its dependency file beside it, as the
 * Makefile's -MMD writes it) was built from a source that is gone: its
 * room's file moved elsewhere, the object left behind in an older build
 * tree.  No dependency file: not known to be stale. */
static int stale_object(const char *path)
{
    char dep[600], line[700], source[600];
    size_t len = strlen(path);
    snprintf(dep, sizeof dep, "%.*s.d", (int)(len - 2), path);
    FILE *f = fopen(dep, "r");
    int stale = 0;
    if (f && fgets(line, sizeof line, f)) {
        char *colon = strstr(line, ": ");
        stale = colon && sscanf(colon + 2, "%599s", source) == 1 &&
                strcmp(source, "\\") && access(source, F_OK) != 0;
    }
    if (f)
        fclose(f);
    return stale;
}

static int add_symbol(symbol **v, size_t *n, size_t *cap, const char *name,
                      int layer)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        symbol *nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv, *cap = c;
    }
    snprintf((*v)[*n].name, sizeof (*v)[*n].name, "%s", name);
    (*v)[*n].file = -1;
    (*v)[(*n)++].layer = layer;
    return 0;
}

/* A symbol of object `file` (an index into t->files). */
static int add_file_symbol(symbol_table *t, int used, const char *name,
                           int layer, int file)
{
    int st = used ? add_symbol(&t->used, &t->nused, &t->capused, name, layer)
                  : add_symbol(&t->defined, &t->ndef, &t->capdef, name,
                               layer);
    if (st == 0 && used)
        t->used[t->nused - 1].file = file;
    else if (st == 0)
        t->defined[t->ndef - 1].file = file;
    return st;
}

/* The symbols the objects of one folder (room r) define and need, from
 * one run of nm over them all: "OBJECT:... TYPE NAME" lines. */
static int read_folder(symbol_table *t, const char *dir, int r)
{
    char cmd[1400], line[1024], object[256], name[200], path[900], type;
    char last[256] = "";
    int file = -1, stale = 0;
    snprintf(cmd, sizeof cmd, "cd '%s' && nm -g -A ./*.o 2>/dev/null", dir);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    while (fgets(line, sizeof line, p)) {
        char *tail = strrchr(line, ' '), *colon = strstr(line, ".o:");
        if (!tail || !colon || tail < colon ||
            sscanf(tail - 1, "%c %199s", &type, name) != 2)
            continue;
        snprintf(object, sizeof object, "%.*s", (int)(colon + 2 - line),
                 line);
        const char *base = strrchr(object, '/');
        base = base ? base + 1 : object;
        if (strcmp(object, last)) { /* nm lists an object's symbols together */
            snprintf(last, sizeof last, "%s", object);
            snprintf(path, sizeof path, "%s/%s", dir, base);
            stale = stale_object(path);
            file = stale ? -1 : file_index(t, path);
        }
        int layer = rooms[r].layer;
        if (!stale && (type == 'U' || strchr("TDBRCVW", type)))
            add_file_symbol(t, type == 'U', name, layer, file);
    }
    return pclose(p) == 0 ? 0 : -1;
}

/* What a walk of the objects found. */
typedef struct {
    int objects, cuda;     /* objects read; of them, under obj/cuda */
    int opencl;            /* of them, of src/opencl */
    char bad[400];         /* the first folder outside the table */
} object_walk;

/* The objects under obj/<prefix><rel> and its folders, each as of its
 * room's layer; `rel` is the sources' folder they were built from, which
 * must be a room where it exists (-1 on a failure to read). */
static int read_objects(symbol_table *t, const char *obj, const char *prefix,
                        const char *rel, object_walk *w)
{
    char dir[600], path[1200];
    int r = room_of(rel);
    if (r < 0 && strcmp(rel, "src")) {
        if (!is_dir(rel))
            return 0; /* stale: its sources moved or are gone */
        if (!w->bad[0])
            snprintf(w->bad, sizeof w->bad, "%s", rel);
    }
    snprintf(dir, sizeof dir, "%s/%s%s", obj, prefix, rel);
    DIR *d = opendir(dir);
    struct dirent *e;
    int ok = 0, objects = 0;
    while (d && ok == 0 && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (is_dir(path)) {
            char sub[600];
            snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
            ok = read_objects(t, obj, prefix, sub, w);
            continue;
        }
        if (len < 3 || strcmp(e->d_name + len - 2, ".o"))
            continue;
        if (r < 0) { /* an object of src/ itself, outside any room */
            if (!w->bad[0])
                snprintf(w->bad, sizeof w->bad, "%.300s", path);
            continue;
        }
        objects++;
    }
    if (d)
        closedir(d);
    if (ok == 0 && objects > 0)
        ok = read_folder(t, dir, r);
    w->objects += objects;
    w->cuda += strcmp(prefix, "cuda/") ? 0 : objects;
    w->opencl += r >= 0 && (rooms[r].layer == OPENCL ||
                            rooms[r].layer == OPENCL_MAIN) ? objects : 0;
    return ok;
}

/* Every object of every room under obj (the build's object tree), the
 * MPI back-end's, built by mpicc under obj/mpi where make mpi ran, and
 * the CUDA back-end's (nvcc) and nqueens-cuda's main under obj/cuda where
 * make cuda ran. */
static int read_layers(symbol_table *t, const char *obj, object_walk *w)
{
    static const char *const prefixes[] = {"", "mpi/", "cuda/"};
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 2; k++)
            if (read_objects(t, obj, prefixes[p], trees[k], w) != 0)
                return -1;
    return 0;
}

/* Whether the public headers' text declares function `name`. */
static int declared(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *s = text; s && (s = strstr(s, name)); s += len) {
        const char *after = s + len;
        char before = s == text ? ' ' : s[-1];
        if (before == '_' || (before >= 'a' && before <= 'z') ||
            (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9'))
            continue;
        while (*after == ' ')
            after++;
        if (*after == '(')
            return 1;
    }
    return 0;
}

/* Violations: a symbol used in a layer and defined only in layers it may
 * not use, or, in a layer that sees the library only through include/,
 * defined by the library or a back-end's library part and not declared
 * in include/. */
static int forbidden_references(symbol_table *t)
{
    int bad = 0;
    for (size_t u = 0; u < t->nused; u++) {
        int from = t->used[u].layer, lowest = LAYERS, ok = 0, library = 0;
        const char *name = t->used[u].name;
        for (size_t d = 0; d < t->ndef; d++)
            if (!strcmp(t->defined[d].name, name)) {
                int to = t->defined[d].layer;
                ok |= allowed(from, to);
                library |= !(PUBLIC_ONLY & L(to));
                if (to < lowest)
                    lowest = to;
            }
        if (lowest < LAYERS && !ok && !bad++)
            snprintf(t->first, sizeof t->first, "%s uses %s, defined in %s",
                     layers[from], name, layers[lowest]);
        else if (ok && library && (PUBLIC_ONLY & L(from)) &&
                 !declared(t->declared, name) && !bad++)
            snprintf(t->first, sizeof t->first, "%s uses %s, defined in %s "
                     "and not declared in include/", layers[from], name,
                     layers[lowest]);
    }
    return bad;
}

static void table_free(symbol_table *t)
{
    free(t->defined);
    free(t->used);
    free(t->files);
}

/* Circles between files: file a uses file b when a needs a symbol b
 * defines (every file defining it, where several do).  Tarjan's strongly
 * connected components; the first component of two files or more is a
 * circle, named in t->first.  Returns the number of circles. */
typedef struct {
    const symbol_table *t;
    int *index, *low, *stack, *on, depth, next, circles;
    char *first;
    size_t first_size;
} tarjan;

static void strong_connect(tarjan *s, int v)
{
    const symbol_table *t = s->t;
    s->index[v] = s->low[v] = s->next++;
    s->stack[s->depth++] = v;
    s->on[v] = 1;
    for (size_t u = 0; u < t->nused; u++) {
        if (t->used[u].file != v)
            continue;
        for (size_t d = 0; d < t->ndef; d++) {
            int w = t->defined[d].file;
            if (w < 0 || w == v || strcmp(t->defined[d].name, t->used[u].name))
                continue;
            if (s->index[w] < 0) {
                strong_connect(s, w);
                if (s->low[w] < s->low[v])
                    s->low[v] = s->low[w];
            } else if (s->on[w] && s->index[w] < s->low[v])
                s->low[v] = s->index[w];
        }
    }
    if (s->low[v] != s->index[v])
        return;
    int size = 0, at = s->depth;
    do {
        s->on[s->stack[--at]] = 0;
        size++;
    } while (s->stack[at] != v);
    if (size > 1 && !s->circles++) {
        size_t len = 0;
        s->first[0] = '\0';
        for (int k = at; k < s->depth && len + 1 < s->first_size; k++) {
            snprintf(s->first + len, s->first_size - len, "%s%s",
                     k > at ? " " : "", t->files[s->stack[k]]);
            len = strlen(s->first);
        }
    }
    s->depth = at;
}

static int circles(symbol_table *t)
{
    int n = t->nfiles, found = -1;
    tarjan s = {.t = t, .first = t->first, .first_size = sizeof t->first};
    s.index = malloc(sizeof(int) * (size_t)(n + 1));
    s.low = malloc(sizeof(int) * (size_t)(n + 1));
    s.stack = malloc(sizeof(int) * (size_t)(n + 1));
    s.on = calloc((size_t)(n + 1), sizeof(int));
    if (s.index && s.low && s.stack && s.on) {
        for (int v = 0; v < n; v++)
            s.index[v] = -1;
        for (int v = 0; v < n; v++)
            if (s.index[v] < 0)
                strong_connect(&s, v);
        found = s.circles;
    }
    free(s.index);
    free(s.low);
    free(s.stack);
    free(s.on);
    return found;
}

/* The public headers' text, one string (NULL where unreadable). */
static char *public_headers(const char *base)
{
    static const char *const headers[] = {"nqueens.h", "nqueens_mpi.h",
                                          "nqueens_cuda.h",
                                          "nqueens_opencl.h"};
    char *all = calloc(1, 1), path[600];
    size_t size = 0;
    for (size_t h = 0; h < sizeof headers / sizeof headers[0] && all; h++) {
        size_t len;
        snprintf(path, sizeof path, "%s/include/%s", base, headers[h]);
        char *text = t_read_file(path, &len);
        char *grown = text ? realloc(all, size + len + 1) : NULL;
        if (!grown) {
            free(text);
            free(all);
            return NULL;
        }
        all = grown;
        memcpy(all + size, text, len + 1);
        size += len;
        free(text);
    }
    return all;
}

/* What a judge (forbidden_references, circles) says of every object of
 * the build under obj: its verdict (-1 where the objects could not be
 * read), the walk, the objects read and its first finding. */
typedef struct {
    int read, verdict, files;
    object_walk w;
    char first[400];
} build_verdict;

static build_verdict judge_build(const char *obj, const char *declared,
                                 int (*judge)(symbol_table *))
{
    build_verdict v = {0};
    symbol_table t = {.declared = declared};
    v.read = read_layers(&t, obj, &v.w);
    v.verdict = v.read == 0 && v.w.objects > 0 ? judge(&t) : -1;
    v.files = t.nfiles;
    snprintf(v.first, sizeof v.first, "%s", t.first);
    table_free(&t);
    return v;
}

static void objects_use_only_lower_layers(void *arg)
{
    (void)arg;
    const char *obj = getenv("NQ_OBJ");
    CHECKF(obj, "NQ_OBJ (the build's object directory) is not set");
    char *headers = public_headers(".");
    CHECKF(headers, "cannot read include/ (run from the project root)");
    build_verdict v = judge_build(obj, headers, forbidden_references);
    free(headers);
    CHECKF(v.read == 0 && v.w.objects >= 20, "read %d objects under %s (is "
           "nm installed?)", v.w.objects, obj);
    CHECKF(!v.w.bad[0], "objects of %s, a folder the layers table does not "
           "list", v.w.bad);
    CHECKF(v.verdict == 0, "%d forbidden references; first: %s", v.verdict,
           v.first);
    /* make test builds the CUDA back-end wherever nvcc is (NQ_CUDA) */
    CHECKF(!getenv("NQ_CUDA") || v.w.cuda >= 2, "read %d CUDA objects under "
           "%s/cuda/src (want the back-end and nqueens-cuda's main)",
           v.w.cuda, obj);
    /* and the OpenCL one where its headers and loader are (NQ_OPENCL) */
    CHECKF(!getenv("NQ_OPENCL") || v.w.opencl >= 3, "read %d OpenCL objects "
           "under %s/src/opencl (want the back-end, its program and "
           "nqueens-opencl's main)", v.w.opencl, obj);
}

/* No circle between files, among every object the build has: the
 * library's, the programs' and the back-ends'. */
static void objects_make_no_circles(void *arg)
{
    (void)arg;
    const char *obj = getenv("NQ_OBJ");
    CHECKF(obj, "NQ_OBJ (the build's object directory) is not set");
    build_verdict v = judge_build(obj, "", circles);
    CHECKF(v.read == 0 && v.files >= 20, "read %d objects under %s (is nm "
           "installed?)", v.files, obj);
    CHECKF(v.verdict == 0, "%d circles between files; first: %s", v.verdict,
           v.first);
}

/* The may-use relation is a strict order: no layer uses itself through
 * it, and a layer that may use another may use all that one may; the
 * library's rooms stand in the order the header names. */
static void layers_are_a_strict_order(void *arg)
{
    (void)arg;
    static const int chain[] = {CORE, SEARCH, ENGINES, FAST, REGISTRY,
                                PARALLEL, RUN, PROGRAMS};
    for (int a = 0; a < LAYERS; a++) {
        CHECKF(!(may_use[a] & L(a)), "%s may use itself", layers[a]);
        for (int b = 0; b < LAYERS; b++)
            CHECKF(!(may_use[a] & L(b)) || !(may_use[b] & ~may_use[a]),
                   "%s may use %s but not all that %s may", layers[a],
                   layers[b], layers[b]);
    }
    for (size_t k = 1; k < sizeof chain / sizeof chain[0]; k++)
        CHECKF(may_use[chain[k]] & L(chain[k - 1]), "%s may not use %s",
               layers[chain[k]], layers[chain[k - 1]]);
    CHECK(may_use[JOURNAL] == L(CORE) && !(may_use[PARALLEL] & L(JOURNAL)));
}

/* The checker itself: an engine that called the runner must be caught. */
static void checker_catches_a_back_edge(void *arg)
{
    (void)arg;
    symbol_table t = {0};
    add_symbol(&t.defined, &t.ndef, &t.capdef, "nq_plan_run", PARALLEL);
    add_symbol(&t.defined, &t.ndef, &t.capdef, "nq_popcount_table", CORE);
    add_symbol(&t.used, &t.nused, &t.capused, "nq_popcount_table", ENGINES);
    int clean = forbidden_references(&t);
    add_symbol(&t.used, &t.nused, &t.capused, "nq_plan_run", ENGINES);
    int caught = forbidden_references(&t);
    int named = strstr(t.first, "engines uses nq_plan_run") != NULL;
    table_free(&t);
    CHECK(clean == 0 && caught == 1 && named);
}

/* The circle finder itself: the search's files as they were before the
 * search had its room (frontier.o calling the kernel table, the table
 * calling the kernels, a kernel calling back into frontier.o) must be
 * caught and named; the same files without the call back pass. */
static void checker_catches_a_circle(void *arg)
{
    (void)arg;
    static const struct {
        const char *file, *name;
        int used;
    } table[] = {
        {"search/frontier.o", "nq_frontier_count", 0},
        {"search/frontier.o", "nq_frontier_kernel_current", 1},
        {"search/kernels.o", "nq_frontier_kernel_current", 0},
        {"search/kernels.o", "nq_frontier_count_avx2_16", 1},
        {"search/frontier_avx2_16.o", "nq_frontier_count_avx2_16", 0},
        {"engines/carry.o", "nq_frontier_count", 1},
        {"engines/carry.o", "nq_engine_carry", 0},
        {"registry/registry.o", "nq_engine_carry", 1},
    };
    symbol_table t = {0};
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        add_file_symbol(&t, table[k].used, table[k].name, CORE,
                        file_index(&t, table[k].file));
    int clean = circles(&t);
    /* the kernel calls back: the three files are one circle */
    add_file_symbol(&t, 1, "nq_frontier_count", CORE,
                    file_index(&t, "search/frontier_avx2_16.o"));
    int caught = circles(&t);
    int named = strstr(t.first, "search/frontier.o") &&
                strstr(t.first, "search/kernels.o") &&
                strstr(t.first, "search/frontier_avx2_16.o") &&
                !strstr(t.first, "carry");
    /* and a second, of two files: carry calling the registry */
    add_file_symbol(&t, 1, "nq_engine_count", CORE,
                    file_index(&t, "engines/carry.o"));
    add_file_symbol(&t, 0, "nq_engine_count", CORE,
                    file_index(&t, "registry/registry.o"));
    int two = circles(&t);
    table_free(&t);
    CHECKF(clean == 0, "%d circles in a table without one", clean);
    CHECKF(caught == 1 && named, "the kernels' circle: %d found, \"%s\"",
           caught, t.first);
    CHECKF(two == 2, "%d circles, want 2", two);
}

/* Whether one more use, of `name` from layer `from`, is the table's one
 * violation, named as such; the use is taken back after. */
static int caught_alone(symbol_table *t, const char *name, int from)
{
    char words[256];
    add_symbol(&t->used, &t->nused, &t->capused, name, from);
    int bad = forbidden_references(t);
    snprintf(words, sizeof words, "%s uses %s", layers[from], name);
    t->nused--;
    return bad == 1 && strstr(t->first, words) != NULL;
}

/* A symbol of a made-up table; a NULL name ends a list. */
typedef struct {
    const char *name;
    int layer;
} made_up;

/* Definitions and uses the checker must pass, and uses it must catch,
 * each alone on top of them; `declared`: the public headers' text. */
static int checker_judges(const made_up *defined, const made_up *used,
                          const made_up *forbidden, const char *declared)
{
    symbol_table t = {.declared = declared};
    for (; defined->name; defined++)
        add_symbol(&t.defined, &t.ndef, &t.capdef, defined->name,
                   defined->layer);
    for (; used->name; used++)
        add_symbol(&t.used, &t.nused, &t.capused, used->name, used->layer);
    int ok = forbidden_references(&t) == 0;
    for (; forbidden->name; forbidden++)
        ok &= caught_alone(&t, forbidden->name, forbidden->layer);
    table_free(&t);
    return ok;
}

/* Every room of the library is a layer: the search may not call an engine
 * or the plan calls, an engine may not call fast, nor fast or any engine
 * the engines' table; the table may name every engine, and the rooms
 * above it use it. */
static void checker_keeps_rooms_in_order(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_frontier_count", SEARCH},
        {"nq_plan_push", ENGINES}, {"nq_frame_key", ENGINES},
        {"nq_engine_fast", FAST}, {"nq_batch_run_with", FAST},
        {"nq_engine_count", REGISTRY}, {"nq_crc32", CORE}, {NULL, 0}};
    static const made_up used[] = {{"nq_crc32", SEARCH},
        {"nq_frontier_count", ENGINES}, {"nq_frontier_count", FAST},
        {"nq_plan_push", FAST}, {"nq_frame_key", FAST},
        {"nq_engine_fast", REGISTRY}, {"nq_engine_count", PARALLEL},
        {"nq_engine_count", RUN}, {"nq_batch_run_with", CUDA},
        {"nq_engine_count", OPENCL}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_plan_push", SEARCH},
        {"nq_frame_key", SEARCH}, {"nq_engine_fast", ENGINES},
        {"nq_batch_run_with", ENGINES}, {"nq_engine_count", FAST},
        {"nq_engine_count", ENGINES}, {"nq_engine_count", SEARCH},
        {"nq_frontier_count", CORE}, {"nq_engine_count", JOURNAL},
        {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden, ""));
}

/* The engines' table may not name the CUDA back-end (the old CUDA build's
 * registry did: nq_engine_cuda), nor may the runner, nor the programs
 * (nqueens has no CUDA) or the MPI back-end's main; the back-end may add
 * itself to the table and its main may call it. */
static void checker_keeps_engines_below_cuda(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_engine_add", REGISTRY},
        {"nq_cuda_register", CUDA}, {"nq_engine_cuda", CUDA},
        {"cli_main", PROGRAMS}, {NULL, 0}};
    static const made_up used[] = {{"nq_engine_add", CUDA},
        {"nq_cuda_register", CUDA_MAIN}, {"cli_main", CUDA_MAIN}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_engine_cuda", REGISTRY},
        {"nq_engine_cuda", ENGINES}, {"nq_cuda_register", PARALLEL}, {"nq_cuda_register", PROGRAMS},
        {"nq_cuda_register", MPI_MAIN}, {"cli_main", CUDA}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden,
                         "nq_status nq_cuda_register(void);"));
}

/* The OpenCL back-end stands where the CUDA one does: it adds itself to
 * the engines' table and counts with the engines' batches, its main calls
 * it and the programs; the engines, the runner, the programs and the
 * other back-ends may not call it, nor it the runner or the programs. */
static void checker_keeps_engines_below_opencl(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_engine_add", REGISTRY},
        {"nq_batch_run_with", FAST}, {"nq_opencl_register", OPENCL},
        {"nq_engine_opencl", OPENCL}, {"cli_main", PROGRAMS},
        {"nq_plan_run", PARALLEL}, {NULL, 0}};
    static const made_up used[] = {{"nq_engine_add", OPENCL},
        {"nq_batch_run_with", OPENCL}, {"nq_opencl_register", OPENCL_MAIN},
        {"cli_main", OPENCL_MAIN}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_engine_opencl", REGISTRY},
        {"nq_engine_opencl", FAST}, {"nq_opencl_register", RUN}, {"nq_opencl_register", PROGRAMS},
        {"nq_opencl_register", CUDA_MAIN}, {"nq_plan_run", OPENCL},
        {"cli_main", OPENCL}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden,
                         "nq_status nq_opencl_register(void);"));
}

/* The journal is a side room: the run layer may use it, the runner may
 * not, and it may not use an engine though engines sit below it; the
 * MPI back-end may use it, the CUDA one not. */
static void checker_keeps_the_journal_aside(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_journal_record", JOURNAL},
        {"nq_plan_units", ENGINES}, {"nq_crc32", CORE}, {NULL, 0}};
    static const made_up used[] = {{"nq_journal_record", RUN},
        {"nq_journal_record", MPI}, {"nq_crc32", JOURNAL}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_journal_record", PARALLEL},
        {"nq_plan_units", JOURNAL}, {"nq_journal_record", CUDA}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden, ""));
}

/* The programs use the library through include/ alone: a public function
 * passes, an internal one (of any layer they may otherwise use) is
 * caught, and so is a back-end's internal function in its main. */
static void checker_keeps_programs_public(void *arg)
{
    (void)arg;
    static const char declared[] =
        "nq_status nq_count_solutions(const nq_request *req, nq_result *r);\n"
        "nq_status nq_mpi_count (const nq_request *req);\n"
        "/* unlike nq_plan_new, which is internal */\n";
    static const made_up defined[] = {{"nq_count_solutions", RUN},
        {"nq_plan_new", ENGINES}, {"nq_mpi_count", MPI},
        {"nq_mpi_run", MPI}, {"cli_error", PROGRAMS}, {NULL, 0}};
    static const made_up used[] = {{"nq_count_solutions", PROGRAMS},
        {"nq_mpi_count", MPI_MAIN}, {"cli_error", MPI_MAIN},
        {"nq_plan_new", RUN}, {"nq_mpi_run", MPI}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_plan_new", PROGRAMS},
        {"nq_mpi_run", MPI_MAIN}, {"nq_plan_new", CUDA_MAIN}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden, declared));
}

/* `path` with its "." and ".." parts resolved, in place. */
static void normalize(char *path)
{
    char *part[64], *save = NULL, copy[600];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", path);
    for (char *p = strtok_r(copy, "/", &save); p && n < 64;
         p = strtok_r(NULL, "/", &save))
        if (!strcmp(p, ".."))
            n -= n > 0;
        else if (strcmp(p, "."))
            part[n++] = p;
    path[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(path + strlen(path), 600 - strlen(path), "%s%s",
                 i ? "/" : "", part[i]);
}

/* Where a quoted include of a file in folder `dir` leads: the room's
 * layer, LAYERS for include/ (public), -1 where it leads nowhere known
 * (outside the rooms, or not found). */
static int include_target(const char *base, const char *dir,
                          const char *name)
{
    char rel[600], path[1300];
    snprintf(rel, sizeof rel, "%s/%s", dir, name);
    normalize(rel);
    snprintf(path, sizeof path, "%s/%s", base, rel);
    if (access(path, F_OK) != 0) { /* -Iinclude */
        snprintf(path, sizeof path, "%s/include/%s", base, name);
        return access(path, F_OK) == 0 ? LAYERS : -1;
    }
    if (!strncmp(rel, "include/", 8))
        return LAYERS;
    char *slash = strrchr(rel, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    int r = room_of(rel);
    return r < 0 ? -1 : rooms[r].layer;
}

/* A source's includes reach no layer it may not use; in the programs and
 * the back-ends' mains, only include/ and the programs' own headers. */
static int includes_ok(const char *base, const char *dir, const char *file,
                       int layer, char *why, size_t size)
{
    char path[1300];
    snprintf(path, sizeof path, "%s/%s/%s", base, dir, file);
    char *text = t_read_file(path, NULL), *save = NULL;
    int ok = text != NULL;
    for (char *line = ok ? strtok_r(text, "\n", &save) : NULL; line && ok;
         line = strtok_r(NULL, "\n", &save)) {
        char name[300];
        if (sscanf(line, "#include \"%299[^\"]\"", name) != 1)
            continue;
        int to = include_target(base, dir, name);
        int fine = to == LAYERS || (to >= 0 && allowed(layer, to) &&
                                    (!(PUBLIC_ONLY & L(layer)) ||
                                     to == PROGRAMS));
        if (!fine) {
            snprintf(why, size, "%.120s/%.80s: %.150s", dir, file, line);
            ok = 0;
        }
    }
    free(text);
    return ok;
}

/* Every file and folder under base/rel: each folder a room, each file's
 * includes allowed; the first violation in *why, the files read added to
 * *files.  0 when all is well. */
static int walk_sources(const char *base, const char *rel, int *files,
                        char *why, size_t size)
{
    char dir[700], path[1400];
    int r = room_of(rel), bad = 0;
    snprintf(dir, sizeof dir, "%s/%s", base, rel);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && !bad && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (is_dir(path)) {
            char sub[700];
            snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
            if (room_of(sub) < 0) {
                snprintf(why, size, "%.300s is a folder the layers table "
                         "does not list", sub);
                bad = 1;
            } else
                bad = walk_sources(base, sub, files, why, size);
        } else if (r < 0) {
            snprintf(why, size, "%s/%s is in no room", rel, e->d_name);
            bad = 1;
        } else {
            bad = !includes_ok(base, rel, e->d_name,
                               rooms[r].layer, why, size);
            ++*files;
        }
    }
    if (d)
        closedir(d);
    return bad;
}

/* Both trees of the sources under base; 0 when all is well. */
static int sources_ok(const char *base, int *files, char *why, size_t size)
{
    int bad = 0;
    *files = 0;
    for (int k = 0; k < 2 && !bad; k++) {
        /* programs/ is a room itself, src/ the tree of the others */
        if (room_of(trees[k]) >= 0) {
            char top[700];
            snprintf(top, sizeof top, "%s/%s", base, trees[k]);
            if (!is_dir(top))
                continue;
        }
        bad = walk_sources(base, trees[k], files, why, size);
    }
    return bad;
}

/* The bindings (bindings/NAME, each whole in its room, with folders of
 * its own for scripts and tests): the C of each, at any depth, includes
 * as its layer may.  The Python module's extension sees the library only
 * through include/; the npm package's C stands where the lesson page's
 * does, above the programs whose printers it calls.  A binding the table
 * does not know fails, as a folder of src/ would. */
static const struct {
    const char *dir;
    int layer;
} bindings[] = {{"bindings/python", BINDING}, {"bindings/js", WEB}};

static int binding_sources_ok(const char *dir, int layer, int *files,
                              char *why, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int bad = 0;
    while (d && !bad && (e = readdir(d))) {
        char path[700];
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (is_dir(path))
            bad = binding_sources_ok(path, layer, files, why, size);
        else if (len > 2 && (!strcmp(e->d_name + len - 2, ".c") ||
                             !strcmp(e->d_name + len - 2, ".h"))) {
            bad = !includes_ok(".", dir, e->d_name, layer, why, size);
            ++*files;
        }
    }
    if (d)
        closedir(d);
    return bad;
}

static void bindings_include_as_their_layer(void *arg)
{
    (void)arg;
    char why[400] = "";
    int files = 0, known = 0, bad = 0;
    DIR *d = opendir("bindings");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            int b = -1;
            for (size_t i = 0; i < sizeof bindings / sizeof *bindings; i++)
                if (!strcmp(bindings[i].dir + 9, e->d_name))
                    b = (int)i;
            CHECKF(b >= 0, "bindings/%s is a binding the layers table does "
                   "not list", e->d_name);
            known++;
            bad = bad || binding_sources_ok(bindings[b].dir, bindings[b].layer,
                                            &files, why, sizeof why);
        }
    if (d)
        closedir(d);
    CHECKF(!bad, "an include its layer may not use: %s", why);
    CHECKF(known >= 2 && files >= 2, "%d bindings, %d C files read", known,
           files);
}

static void sources_include_only_lower_layers(void *arg)
{
    (void)arg;
    char why[400] = "";
    int files;
    int bad = sources_ok(".", &files, why, sizeof why);
    CHECKF(!bad, "%s", why);
    CHECKF(files >= 60, "found %d sources (run from the project root)",
           files);
}

/* A made-up tree, its files as "path:content" lines; the checker's
 * verdict on it (0: clean) and its first violation in why. */
static int judge_tree(const char *const *files, char *why, size_t size)
{
    char base[] = "/tmp/nq-layers-XXXXXX", path[600], cmd[700];
    int n, bad = -1;
    if (!mkdtemp(base))
        return -1;
    for (; *files; files++) {
        const char *colon = strchr(*files, ':');
        snprintf(path, sizeof path, "%s/%.*s", base, (int)(colon - *files),
                 *files);
        for (char *slash = strchr(path + strlen(base) + 1, '/'); slash;
             slash = strchr(slash + 1, '/')) {
            *slash = '\0';
            mkdir(path, 0700); /* EEXIST: already made */
            *slash = '/';
        }
        FILE *f = fopen(path, "w");
        if (!f)
            goto out;
        fputs(colon + 1, f);
        fclose(f);
    }
    bad = sources_ok(base, &n, why, size);
out:
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        bad = -1;
    return bad;
}

/* The source walk itself: a clean tree passes; a new folder, a file
 * outside the rooms, a program reaching into the library's headers, a
 * runner including the journal are each caught. */
static void checker_sees_every_folder(void *arg)
{
    (void)arg;
    char why[400];
    static const char *const clean[] = {
        "include/nqueens.h:\n", "src/core/core.h:\n",
        "src/engines/engine.h:#include \"../core/core.h\"\n",
        "src/search/frontier.h:#include \"../core/core.h\"\n",
        "src/fast/fast.c:#include \"../engines/engine.h\"\n",
        "src/engines/carry.c:#include \"../search/frontier.h\"\n",
        "src/fast/fast.h:#include \"../search/frontier.h\"\n",
        "src/registry/registry.h:#include \"../engines/engine.h\"\n",
        "src/registry/registry.c:#include \"../fast/fast.h\"\n",
        "programs/cli.h:#include \"nqueens.h\"\n",
        "programs/output/json.c:#include \"../cli.h\"\n",
        "programs/mpi/mpi_main.c:#include \"../cli.h\"\n", NULL};
    CHECKF(judge_tree(clean, why, sizeof why) == 0, "clean tree refused: %s",
           why);
    static const struct {
        const char *file, *words;
    } bad[] = {
        {"src/util/util.c:\n", "src/util is a folder"},
        {"src/fast/x/y.c:\n", "src/fast/x is a folder"},
        {"src/stray.c:\n", "src/stray.c is in no room"},
        {"programs/extra/p.c:\n", "programs/extra is a folder"},
        {"programs/p.c:#include \"../src/core/core.h\"\n", "programs/p.c"},
        {"programs/output/p.c:#include \"../../src/core/core.h\"\n",
         "programs/output/p.c"},
        {"programs/mpi/mpi_main.c:#include \"../../src/engines/engine.h\"\n",
         "programs/mpi/mpi_main.c"},
        {"src/mpi/m.c:#include \"../../programs/cli.h\"\n", "src/mpi/m.c"},
        {"src/parallel/r.c:#include \"../journal/j.h\"\n", "src/parallel/r.c"},
        {"src/core/c.c:#include \"../nowhere/n.h\"\n", "src/core/c.c"},
        /* each room of the library above the one below, never under */
        {"src/search/s.c:#include \"../engines/engine.h\"\n",
         "src/search/s.c"},
        {"src/engines/e.c:#include \"../fast/fast.h\"\n", "src/engines/e.c"},
        {"src/fast/f.c:#include \"../registry/registry.h\"\n",
         "src/fast/f.c"},
        {"src/engines/r.c:#include \"../registry/registry.h\"\n",
         "src/engines/r.c"},
        {"src/registry/p.c:#include \"../parallel/p.h\"\n",
         "src/registry/p.c"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *files[sizeof clean / sizeof clean[0] + 3];
        size_t n = 0;
        for (; clean[n]; n++)
            files[n] = clean[n];
        files[n++] = bad[i].file;
        files[n++] = "src/journal/j.h:\n";
        files[n++] = "src/parallel/p.h:\n";
        files[n] = NULL;
        why[0] = '\0';
        int verdict = judge_tree(files, why, sizeof why);
        CHECKF(verdict == 1 && strstr(why, bad[i].words),
               "%s: verdict %d, \"%s\"", bad[i].file, verdict, why);
    }
}

/* src/cuda holds CUDA sources (.cu, .cuh) only: the plain build never
 * needs nvcc, and nothing else hides there unbuilt (the Makefile builds
 * its .cu files with nvcc; nqueens-cuda's main is programs/cuda's). */
static void cuda_holds_cuda_and_its_main(void *arg)
{
    (void)arg;
    DIR *d = opendir("src/cuda");
    struct dirent *e;
    int cuda = 0;
    char other[256] = "";
    while (d && (e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.')
            continue;
        if (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh")))
            cuda++;
        else
            snprintf(other, sizeof other, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    CHECKF(!other[0], "src/cuda/%s is not a CUDA source", other);
    CHECK(cuda >= 1);
}

void tests_layers(void)
{
    t_case(objects_use_only_lower_layers, NULL,
           "layers/objects-use-only-lower-layers");
    t_case(objects_make_no_circles, NULL, "layers/objects-make-no-circles");
    t_case(layers_are_a_strict_order, NULL, "layers/layers-are-a-strict-order");
    t_case(checker_catches_a_circle, NULL, "layers/checker-catches-a-circle");
    t_case(checker_keeps_rooms_in_order, NULL,
           "layers/checker-keeps-the-rooms-in-order");
    t_case(checker_catches_a_back_edge, NULL, "layers/checker-catches-a-back-edge");
    t_case(checker_keeps_the_journal_aside, NULL,
           "layers/checker-keeps-the-journal-aside");
    t_case(checker_keeps_engines_below_cuda, NULL,
           "layers/checker-keeps-engines-below-the-cuda-back-end");
    t_case(checker_keeps_engines_below_opencl, NULL,
           "layers/checker-keeps-engines-below-the-opencl-back-end");
    t_case(checker_keeps_programs_public, NULL,
           "layers/checker-keeps-the-programs-to-the-public-api");
    t_case(sources_include_only_lower_layers, NULL,
           "layers/sources-include-only-lower-layers");
    t_case(checker_sees_every_folder, NULL,
           "layers/checker-sees-every-folder");
    t_case(bindings_include_as_their_layer, NULL,
           "layers/bindings-include-as-their-layer-may");
    t_case(cuda_holds_cuda_and_its_main, NULL,
           "layers/cuda-holds-cuda-sources-and-its-main");
}

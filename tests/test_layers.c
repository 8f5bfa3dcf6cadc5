/*
 * test_layers.c - the dependency rule, checked on the built objects and
 * on the sources, so that it keeps holding.
 *
 * Layers, bottom to top: core, engines, then parallel, journal and gpu
 * side by side, run, cli.  A layer may use only those below it; the
 * journal uses core alone, and the side rooms do not use each other
 * (nothing but the run layer keeps a journal; the gpu back-end adds its
 * engine to the engines' table, which never names it).  No object may
 * need a symbol that only layers it may not use define (read with nm), in
 * any build: plain, MPI (obj/mpi) and CUDA (obj/cuda); and no source may
 * include a header from such a layer.  The CLI includes only the public
 * headers and its own.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { CORE, ENGINES, PARALLEL, JOURNAL, GPU, RUN, CLI, LAYERS };
static const char *const layers[LAYERS] = {"core", "engines", "parallel",
                                           "journal", "gpu", "run", "cli"};

/* What each layer may use besides itself, a bit per layer. */
#define L(l) (1u << (l))
static const unsigned may_use[LAYERS] = {
    [CORE] = 0,
    [ENGINES] = L(CORE),
    [PARALLEL] = L(CORE) | L(ENGINES),
    [JOURNAL] = L(CORE),
    [GPU] = L(CORE) | L(ENGINES),
    [RUN] = L(CORE) | L(ENGINES) | L(PARALLEL) | L(JOURNAL) | L(GPU),
    [CLI] = L(CORE) | L(ENGINES) | L(PARALLEL) | L(JOURNAL) | L(GPU) | L(RUN),
};

/* Whether layer `from` may use layer `to` (LAYERS: elsewhere). */
static int allowed(int from, int to)
{
    return to == from || (to < LAYERS && (may_use[from] & L(to)));
}

typedef struct {
    char name[200];
    int layer;
} symbol;

typedef struct {
    symbol *defined, *used;     /* used: with the object's own layer */
    size_t ndef, nused, capdef, capused;
    char first[256];            /* the first violation, in words */
} symbol_table;

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
    (*v)[(*n)++].layer = layer;
    return 0;
}

/* The symbols one object defines and needs, from nm's "TYPE NAME" lines. */
static int read_object(symbol_table *t, const char *path, int layer)
{
    char cmd[700], line[256], name[200], type;
    snprintf(cmd, sizeof cmd, "nm -g '%s' 2>/dev/null", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    while (fgets(line, sizeof line, p)) {
        char *tail = strrchr(line, ' ');
        if (!tail || sscanf(tail - 1, "%c %199s", &type, name) != 2)
            continue;
        if (type == 'U')
            add_symbol(&t->used, &t->nused, &t->capused, name, layer);
        else if (strchr("TDBRCVW", type))
            add_symbol(&t->defined, &t->ndef, &t->capdef, name, layer);
    }
    return pclose(p) == 0 ? 0 : -1;
}

/* The objects in one directory, as of layer l; how many, or -1. */
static int read_dir(symbol_table *t, const char *dir, int l)
{
    char path[600];
    int objects = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".o"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (read_object(t, path, l) != 0) {
            closedir(d);
            return -1;
        }
        objects++;
    }
    if (d)
        closedir(d);
    return objects;
}

/* Every object of every layer under obj (the build's object tree), the
 * MPI back-end's, built by mpicc under obj/mpi where make mpi ran, and
 * the CUDA back-end's (nvcc) and nqueens-cuda's main under obj/cuda where
 * make cuda ran.  *cuda: the CUDA objects read. */
static int read_layers(symbol_table *t, const char *obj, int *cuda)
{
    static const char *const roots[] = {"src", "mpi/src", "cuda/src"};
    int objects = 0;
    *cuda = 0;
    for (int r = 0; r < 3; r++)
        for (int l = 0; l < LAYERS; l++) {
            char dir[300];
            snprintf(dir, sizeof dir, "%s/%s/%s", obj, roots[r], layers[l]);
            int k = read_dir(t, dir, l);
            if (k < 0)
                return -1;
            objects += k;
            *cuda += r == 2 ? k : 0;
        }
    return objects;
}

/* Violations: a symbol used in a layer and defined only in layers it may
 * not use. */
static int forbidden_references(symbol_table *t)
{
    int bad = 0;
    for (size_t u = 0; u < t->nused; u++) {
        int from = t->used[u].layer, lowest = LAYERS, ok = 0;
        for (size_t d = 0; d < t->ndef; d++)
            if (!strcmp(t->defined[d].name, t->used[u].name)) {
                int to = t->defined[d].layer;
                ok |= allowed(from, to);
                if (to < lowest)
                    lowest = to;
            }
        if (lowest < LAYERS && !ok && !bad++)
            snprintf(t->first, sizeof t->first, "%s uses %s, defined in %s",
                     layers[from], t->used[u].name, layers[lowest]);
    }
    return bad;
}

static void table_free(symbol_table *t)
{
    free(t->defined);
    free(t->used);
}

static void objects_use_only_lower_layers(void *arg)
{
    (void)arg;
    const char *obj = getenv("NQ_OBJ");
    symbol_table t = {0};
    int cuda;
    CHECKF(obj, "NQ_OBJ (the build's object directory) is not set");
    int objects = read_layers(&t, obj, &cuda);
    int bad = objects > 0 ? forbidden_references(&t) : -1;
    char first[256];
    snprintf(first, sizeof first, "%s", t.first);
    table_free(&t);
    CHECKF(objects >= 20, "read %d objects under %s (is nm installed?)",
           objects, obj);
    CHECKF(bad == 0, "%d forbidden references; first: %s", bad, first);
    /* make test builds the CUDA back-end wherever nvcc is (NQ_CUDA) */
    CHECKF(!getenv("NQ_CUDA") || cuda >= 2, "read %d CUDA objects under "
           "%s/cuda/src (want the back-end and nqueens-cuda's main)", cuda,
           obj);
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
 * each alone on top of them. */
static int checker_judges(const made_up *defined, const made_up *used,
                          const made_up *forbidden)
{
    symbol_table t = {0};
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

/* The engines' table may not name the GPU back-end (the old CUDA build's
 * registry did: nq_engine_cuda), nor may the runner, a side room beside
 * it; the back-end may add itself to the table and a program may call
 * the back-end. */
static void checker_keeps_engines_below_gpu(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_engine_add", ENGINES},
        {"nq_cuda_register", GPU}, {"nq_engine_cuda", GPU}, {NULL, 0}};
    static const made_up used[] = {{"nq_engine_add", GPU},
        {"nq_cuda_register", CLI}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_engine_cuda", ENGINES},
        {"nq_cuda_register", PARALLEL}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden));
}

/* The journal is a side room: the run layer may use it, the runner may
 * not, and it may not use an engine though engines sit below it. */
static void checker_keeps_the_journal_aside(void *arg)
{
    (void)arg;
    static const made_up defined[] = {{"nq_journal_record", JOURNAL},
        {"nq_plan_units", ENGINES}, {"nq_crc32", CORE}, {NULL, 0}};
    static const made_up used[] = {{"nq_journal_record", RUN},
        {"nq_crc32", JOURNAL}, {NULL, 0}};
    static const made_up forbidden[] = {{"nq_journal_record", PARALLEL},
        {"nq_plan_units", JOURNAL}, {NULL, 0}};
    CHECK(checker_judges(defined, used, forbidden));
}

/* The layer a quoted include reaches, from a file in layer `from`: -1 for
 * its own layer or the public header, else the index. */
static int include_layer(const char *line)
{
    for (int l = 0; l < LAYERS; l++) {
        char up[64];
        snprintf(up, sizeof up, "\"../%s/", layers[l]);
        if (strstr(line, up))
            return l;
    }
    return strstr(line, "\"../") ? LAYERS : -1; /* elsewhere */
}

/* A source's includes reach no higher layer (and, in the CLI, no other
 * layer at all). */
static int includes_ok(const char *path, int layer, char *why, size_t size)
{
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    int ok = text != NULL;
    for (char *line = ok ? strtok_r(text, "\n", &save) : NULL; line && ok;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "#include \"", 10))
            continue;
        int to = include_layer(line);
        if ((to >= 0 && !allowed(layer, to)) || (layer == CLI && to >= 0)) {
            snprintf(why, size, "%.200s: %.150s", path, line);
            ok = 0;
        }
    }
    free(text);
    return ok;
}

static void sources_include_only_lower_layers(void *arg)
{
    (void)arg;
    char why[400] = "", path[400];
    int files = 0, ok = 1;
    for (int l = 0; l < LAYERS && ok; l++) {
        char dir[64];
        snprintf(dir, sizeof dir, "src/%s", layers[l]);
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && ok && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            ok = includes_ok(path, l, why, sizeof why);
            files++;
        }
        if (d)
            closedir(d);
    }
    CHECKF(files >= 40, "found %d sources (run from the project root)", files);
    CHECKF(ok, "include from a layer it may not use: %s", why);
}

/* src/gpu holds CUDA sources only (.cu, .cuh): the plain build never
 * needs nvcc, and nothing else hides there. */
static void gpu_holds_cuda_only(void *arg)
{
    (void)arg;
    DIR *d = opendir("src/gpu");
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
    CHECKF(!other[0], "src/gpu/%s is not a CUDA source", other);
    CHECK(cuda >= 1);
}

void tests_layers(void)
{
    t_case(objects_use_only_lower_layers, NULL,
           "layers/objects-use-only-lower-layers");
    t_case(checker_catches_a_back_edge, NULL, "layers/checker-catches-a-back-edge");
    t_case(checker_keeps_the_journal_aside, NULL,
           "layers/checker-keeps-the-journal-aside");
    t_case(checker_keeps_engines_below_gpu, NULL,
           "layers/checker-keeps-engines-below-the-gpu-back-end");
    t_case(sources_include_only_lower_layers, NULL,
           "layers/sources-include-only-lower-layers");
    t_case(gpu_holds_cuda_only, NULL, "layers/gpu-holds-cuda-only");
}

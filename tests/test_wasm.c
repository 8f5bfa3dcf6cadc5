/*
 * test_wasm.c - make wasm's two modules (mk/wasm.mk), the library and the
 * command line compiled by emscripten, run as the command line under
 * node: NQ_WASM_SCALAR (plain WebAssembly) and NQ_WASM_SIMD (built with
 * -msimd128), set by make test where emcc is on PATH.
 *
 * Each module must list its kernels (scalar; scalar and simd128, the
 * simd128 one its choice) and count N = 1..16 to OEIS's totals and unique
 * counts with each.  Boards of up to 16 columns meet only the 16-bit
 * lanes and rows under 16 apart, so completions of a 24-board check the
 * rest against this build's own count (NQ_CLI): rows 16 and more apart,
 * where WebAssembly's shifts, which take their count modulo the lane
 * width, must still move a diagonal out of the lanes; and free columns
 * spanning the whole board, which only 32-bit lanes take.  Without node
 * or the modules every case is skipped, never passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* A module's kernel and how far the quick tier counts with it (to
 * N = 16 in the full tier: the scalar kernel takes a second there). */
typedef struct {
    const char *module, *kernel;
    int quick_to;
} module_kernel;

static const module_kernel kernels[] = {
    {"scalar", "scalar", 14},
    {"simd", "scalar", 14},
    {"simd", "simd128", 16},
};

/* The module built as `name` (scalar, simd). */
static const char *module_path(const char *name)
{
    return getenv(strcmp(name, "simd") ? "NQ_WASM_SCALAR" : "NQ_WASM_SIMD");
}

/* Whether node is on PATH; the cases are skipped without it. */
static int node_on_path(void)
{
    const char *dirs = getenv("PATH");
    char path[4096];
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len > 0 && (size_t)snprintf(path, sizeof path, "%.*s/node",
                                        (int)len, dirs) < sizeof path &&
            access(path, X_OK) == 0)
            return 1;
        dirs += len + (dirs[len] == ':');
    }
    return 0;
}

/* Runs the module under node with args (after the module's path); a
 * failure unless it exits 0. */
static void run_module(t_proc *p, const char *module, const char *const *args)
{
    const char *argv[24] = {"node", module_path(module)};
    int n = 2;
    while (*args && n < 23)
        argv[n++] = *args++;
    argv[n] = NULL;
    CHECKF(t_run_signalled(p, "node", argv, 0, 0) == 0, "node did not run");
    CHECKF(p->exit_code == 0, "node %s %s... exited %d: %.300s", argv[1],
           argv[2], p->exit_code, p->err);
}

/* Each module's --version lists its kernels and its choice. */
static void lists_kernels(void *arg)
{
    const char *module = arg;
    const char *want = strcmp(module, "simd")
                           ? "\nkernels: scalar (this CPU: scalar)\n"
                           : "\nkernels: scalar, simd128 (this CPU: simd128)\n";
    t_proc p;
    run_module(&p, module, ARGS("--version"));
    T_BAIL();
    int listed = strstr(p.out, want) != NULL;
    CHECKF(listed, "not %s: %.200s", want + 1, p.out);
    t_proc_free(&p);
}

/* fast with the case's kernel at N = from..to, in one run (count's JSON
 * lines), against OEIS's totals and unique counts. */
static void counts_oeis(const module_kernel *k, int from, int to)
{
    char range[16];
    t_proc p;
    snprintf(range, sizeof range, "%d-%d", from, to);
    run_module(&p, k->module, ARGS("count", range, "--engine", "fast",
                                   "--kernel", k->kernel, "--json"));
    T_BAIL();
    const char *line = p.out;
    int n = from;
    for (; n <= to && line; n++, line = strchr(line + 1, '\n')) {
        int got_n = 0;
        unsigned long long total = 0, unique = 0;
        char kernel[16] = "";
        line += *line == '\n';
        int fields = sscanf(line, "{\"n\":%d,\"total\":%llu,\"unique\":%llu,"
                            "\"nodes\":%*[0-9],\"engine\":\"fast\",\"kernel\":"
                            "\"%15[a-z0-9]\"", &got_n, &total, &unique, kernel);
        if (fields != 4 || got_n != n || total != t_oeis_total(n) ||
            unique != t_oeis_unique(n) || strcmp(kernel, k->kernel)) {
            t_fail(__FILE__, __LINE__, "N=%d: %.160s", n, line);
            break;
        }
    }
    if (!t_failed() && n <= to)
        t_fail(__FILE__, __LINE__, "no line for N=%d: %.300s", n, p.out);
    t_proc_free(&p);
}

static void counts_quick(void *arg)
{
    const module_kernel *k = arg;
    counts_oeis(k, 1, k->quick_to);
}

static void counts_rest(void *arg)
{
    const module_kernel *k = arg;
    counts_oeis(k, k->quick_to + 1, 16);
}

/* ---- completions against this build's ---- */

enum { BOARD = 24, FIRST_GIVEN = 8, GIVEN_ROWS = 8, GIVEN_COLS = 8 };

/* Queens on rows FIRST_GIVEN.. (one a row), none attacking another, on
 * the columns cols[], tried from the rot-th on: the first such placement
 * in that order, depth first, into given[] (columns by row); 0 if none. */
static int place_given(const int *cols, int rot, int row, int *given)
{
    if (row == FIRST_GIVEN + GIVEN_ROWS)
        return 1;
    for (int k = 0; k < GIVEN_COLS; k++) {
        int c = cols[(rot + k) % GIVEN_COLS], free = 1;
        for (int q = FIRST_GIVEN; q < row && free; q++)
            free = given[q] != c && abs(given[q] - c) != row - q;
        if (!free)
            continue;
        given[row] = c;
        if (place_given(cols, rot, row + 1, given))
            return 1;
    }
    given[row] = -1;
    return 0;
}

/* The total of `complete 24 --given G` by the module (NULL: this build,
 * NQ_CLI); 0 after a failure. */
static unsigned long long completions(const char *module, const char *given)
{
    t_proc p;
    unsigned long long total = 0;
    const char *const *args = ARGS("complete", "24", "--given", given, "--json");
    if (module)
        run_module(&p, module, args);
    else if (t_run_cli(&p, args) != 0 || p.exit_code != 0)
        t_fail(__FILE__, __LINE__, "nqueens complete failed: %.200s", p.err);
    if (t_failed())
        return 0;
    const char *at = strstr(p.out, "\"total\":");
    if (!at || sscanf(at, "\"total\":%llu", &total) != 1)
        t_fail(__FILE__, __LINE__, "no total: %.200s", p.out);
    t_proc_free(&p);
    return total;
}

/* A module and the columns of the given queens. */
typedef struct {
    const char *module;
    const int *cols;
} given_case;

/* The given queens on the outer columns leave 16 free columns, in 16-bit
 * lanes, and free rows 0-7 and 16-23: a job's rows reach 19 apart.  On
 * the inner ones they leave free columns 0-3, 8-15 and 20-23, a span of
 * 24 that only 32-bit lanes take. */
static const int outer[GIVEN_COLS] = {0, 1, 2, 3, 20, 21, 22, 23};
static const int inner[GIVEN_COLS] = {4, 5, 6, 7, 16, 17, 18, 19};

/* Four placements of the given queens on the case's columns, each
 * board's completions counted by the module and by this build, which
 * must agree and be some. */
static void completions_agree(void *arg)
{
    const given_case *c = arg;
    for (int rot = 0; rot < 4 && !t_failed(); rot++) {
        int given[BOARD];
        char list[128] = "";
        size_t len = 0;
        for (int r = 0; r < BOARD; r++)
            given[r] = -1;
        CHECKF(place_given(c->cols, rot, FIRST_GIVEN, given), "no placement");
        for (int r = FIRST_GIVEN; r < FIRST_GIVEN + GIVEN_ROWS; r++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d:%d",
                                    len ? "," : "", r, given[r]);
        unsigned long long want = completions(NULL, list);
        unsigned long long got = completions(c->module, list);
        T_BAIL();
        CHECKF(want > 0, "%s: no completion to compare", list);
        CHECKF(got == want, "%s: %llu completions, this build's %llu", list,
               got, want);
    }
}

/* ---- bench-wasm ---- */

/* bench/wasm.sh at N = 8..9 and one teaching engine, one round, with
 * fake (not NULL) as both modules (cases run in processes of their own:
 * the environment is this case's). */
static int bench_wasm(t_proc *p, const char *fake)
{
    if (setenv("ROUNDS", "1", 1) || setenv("ENGINES", "bitmap:9", 1) ||
        (fake && (setenv("NQ_WASM_SIMD", fake, 1) ||
                  setenv("NQ_WASM_SCALAR", fake, 1))))
        return -1;
    return t_run_signalled(p, "sh", ARGS("sh", "bench/wasm.sh", "8", "9"), 0, 0);
}

/* Its tables: a row with OEIS's total for each N and engine, a ratio
 * for each of the modules' kernels. */
static void bench_table(void *arg)
{
    (void)arg;
    t_proc p;
    char row[64];
    CHECK(bench_wasm(&p, NULL) == 0);
    int ok = p.exit_code == 0 &&
             strstr(p.out, " wasm-simd simd128 (s) |") &&
             strstr(p.out, " wasm scalar / native scalar |") &&
             strstr(p.out, "\n| bitmap | 9 | 352 | ");
    for (int n = 8; n <= 9 && ok; n++) {
        snprintf(row, sizeof row, "\n| %d | %llu | ", n,
                 (unsigned long long)t_oeis_total(n));
        ok = strstr(p.out, row) != NULL;
    }
    CHECKF(ok, "exit %d: %.600s%.200s", p.exit_code, p.out, p.err);
    t_proc_free(&p);
}

/* Modules that count wrong (a script standing in for both): bench-wasm
 * says which N and exits 1. */
static void bench_wrong_count(void *arg)
{
    (void)arg;
    char fake[64];
    snprintf(fake, sizeof fake, "/tmp/nq-wasm-%d-fake.js", (int)getpid());
    FILE *f = fopen(fake, "w");
    CHECK(f);
    fputs("const a = process.argv.slice(2);\n"
          "if (a[0] === '--version')\n"
          "    console.log('nqueens 0\\nkernels: scalar (this CPU: scalar)');\n"
          "else\n"
          "    console.log('{\"n\":' + a[1] + ',\"total\":7,\"unique\":1,"
          "\"seconds\":0.5}');\n", f);
    fclose(f);
    t_proc p;
    int ran = bench_wasm(&p, fake) == 0;
    unlink(fake);
    CHECK(ran);
    int said = p.exit_code == 1 &&
               strstr(p.err, "bench-wasm: N=8: fast (scalar-scalar) counted 7 "
                      "total, 1 unique\n");
    CHECKF(said, "exit %d: %.300s", p.exit_code, p.err);
    t_proc_free(&p);
}

void tests_wasm(void)
{
    static const given_case outer_simd = {"simd", outer},
                            inner_simd = {"simd", inner},
                            outer_scalar = {"scalar", outer},
                            inner_scalar = {"scalar", inner};
    const char *why = NULL;
    if (!getenv("NQ_WASM_SCALAR") || !getenv("NQ_WASM_SIMD"))
        why = "no WebAssembly modules (make test builds them where emcc is "
              "on PATH)";
    else if (!node_on_path())
        why = "node is not installed";
    t_skip_cases(why);
    t_case(lists_kernels, "scalar", "wasm/scalar/version-lists-kernel-scalar");
    t_case(lists_kernels, "simd", "wasm/simd/version-lists-scalar-simd128-"
           "chooses-simd128");
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const module_kernel *k = &kernels[i];
        t_case(counts_quick, (void *)k, "wasm/%s/%s/fast-N=1..%d-vs-oeis",
               k->module, k->kernel, k->quick_to);
        if (k->quick_to < 16)
            t_full_case(counts_rest, (void *)k, "wasm/%s/%s/fast-N=%d..16-vs-"
                        "oeis", k->module, k->kernel, k->quick_to + 1);
    }
    t_case(completions_agree, (void *)&outer_simd, "wasm/simd/simd128/complete-24-"
           "rows-19-apart-16-bit-lanes-vs-native");
    t_case(completions_agree, (void *)&inner_simd, "wasm/simd/simd128/complete-24-"
           "columns-spanning-24-32-bit-lanes-vs-native");
    t_full_case(completions_agree, (void *)&outer_scalar, "wasm/scalar/"
                "scalar/complete-24-rows-19-apart-vs-native");
    t_full_case(completions_agree, (void *)&inner_scalar, "wasm/scalar/"
                "scalar/complete-24-columns-spanning-24-vs-native");
    t_full_case(bench_table, NULL, "wasm/bench-wasm-rows-with-oeis-totals");
    t_case(bench_wrong_count, NULL, "wasm/bench-wasm-wrong-total-exits-1");
    t_skip_cases(NULL);
}

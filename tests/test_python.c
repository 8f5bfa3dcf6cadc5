/*
 * test_python.c - the Python module (bindings/python, make python) and
 * its notebooks, through the one runner: pytest on
 * bindings/python/tests, and each tutorial notebook executed whole by
 * Jupyter's nbconvert, both with the interpreter make built the module
 * for (NQ_PYTHON) and the module on PYTHONPATH (NQ_PYTHONPATH).  make
 * test and make check set both where Python's headers are (python3-dev);
 * without them, or without pytest or Jupyter for that interpreter, the
 * cases are skipped with the reason.  A failure shows the tool's last
 * lines.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The notebooks, run whole by nbconvert. */
static const char *const notebooks[] = {"tutorial.en", "tutorial.ja"};
#define NOTEBOOK_DIR "bindings/python/notebooks"

/* The interpreter, or NULL after skipping with why: no module built, or
 * `module` (pytest, nbconvert) missing for it. */
static const char *python_with(const char *module, const char *debian)
{
    char cmd[1024];
    const char *py = getenv("NQ_PYTHON"), *path = getenv("NQ_PYTHONPATH");
    if (!py || !*py || !path || !*path) {
        t_skip("no Python module: make python needs Python's headers "
               "(Debian: python3-dev)");
        return NULL;
    }
    snprintf(cmd, sizeof cmd, "'%s' -c 'import %s' >/dev/null 2>&1", py,
             module);
    if (system(cmd) != 0) {
        t_skip("%s has no %s (Debian: %s)", py, module, debian);
        return NULL;
    }
    return py;
}

/* Run cmd (a shell line) with the module on PYTHONPATH and the runner's
 * nqueens as NQ_CLI, its output into the case's folder; a failure shows
 * the output's tail. */
static void run_logged(const char *what, const char *cmd)
{
    char line[3 * PATH_MAX + 4096], module[PATH_MAX], cli[PATH_MAX];
    const char *log = t_file("log.txt");
    /* absolute: a notebook's kernel runs in the notebook's folder */
    if (!realpath(getenv("NQ_PYTHONPATH"), module) ||
        !realpath(getenv("NQ_CLI") ? getenv("NQ_CLI") : "build/nqueens",
                  cli)) {
        t_fail(__FILE__, __LINE__, "no module or nqueens program to run");
        return;
    }
    int cut = snprintf(line, sizeof line, "PYTHONPATH='%s' NQ_CLI='%s' %s > "
                       "'%s' 2>&1", module, cli, cmd, log) >= (int)sizeof line;
    int rc = cut ? -1 : system(line);
    if (rc != 0) {
        size_t len = 0;
        char *out = t_read_file(log, &len);
        t_fail(__FILE__, __LINE__, "%s failed (%d): ...%s", what, rc,
               out ? out + (len > 1200 ? len - 1200 : 0) : "(no output)");
        free(out);
    }
}

/* pytest on the module's tests: every function, bad input, Ctrl-C (timed,
 * hence alone), counts against OEIS, trace against nqueens trace. */
static void pytest_passes(void *arg)
{
    char cmd[1024];
    (void)arg;
    const char *py = python_with("pytest", "python3-pytest");
    if (!py)
        return;
    snprintf(cmd, sizeof cmd, "'%s' -m pytest -q -p no:cacheprovider "
             "bindings/python/tests", py);
    run_logged("pytest", cmd);
}

/* A notebook executed whole, cell by cell, into the case's folder: any
 * cell that raises fails it. */
static void notebook_runs(void *arg)
{
    char cmd[1024];
    const char *name = arg;
    const char *py = python_with("nbconvert", "jupyter-nbconvert "
                                 "python3-ipykernel");
    if (!py)
        return;
    snprintf(cmd, sizeof cmd, "'%s' -m nbconvert --to notebook --execute "
             "--ExecutePreprocessor.timeout=120 --output-dir '%s' "
             NOTEBOOK_DIR "/%s.ipynb", py, t_case_dir(), name);
    run_logged(name, cmd);
}

void tests_python(void)
{
    t_case_alone(pytest_passes, NULL, "python/pytest");
    for (size_t i = 0; i < sizeof notebooks / sizeof *notebooks; i++)
        t_case(notebook_runs, (void *)notebooks[i], "python/notebook/%s",
               notebooks[i]);
}

/*
 * test_npm.c - the npm package (bindings/js, make npm) as a user gets it:
 * its tarball (NQ_NPM_TARBALL, set by make test where emcc is on PATH)
 * installed by `npm install --offline` into an empty temporary folder,
 * then node's test runner on one of the package's test files
 * (bindings/js/test/run.sh): counts against OEIS, solutions checked and
 * counted, trace's steps against this build's (NQ_CLI), engines against
 * `nqueens engines --json`, bad input refused in the command line's
 * words; and README's page example in headless Chromium.  Without the tarball, node or npm every case is skipped, never
 * passed.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* Whether program `name` is on PATH. */
static int on_path(const char *name)
{
    const char *dirs = getenv("PATH");
    char path[4096];
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len > 0 && (size_t)snprintf(path, sizeof path, "%.*s/%s",
                                        (int)len, dirs, name) < sizeof path &&
            access(path, X_OK) == 0)
            return 1;
        dirs += len + (dirs[len] == ':');
    }
    return 0;
}

/* node --test's first failure in its TAP output: from the "not ok" line
 * on, or else the end of what it said. */
static const char *first_failure(const t_proc *p)
{
    const char *at = strstr(p->out, "not ok ");
    if (at)
        return at;
    return p->err_len > 600 ? p->err + p->err_len - 600 : p->err;
}

/* One test file of bindings/js/test, on the package installed from its
 * tarball; a failure unless node --test passes it. */
static void node_tests(void *arg)
{
    const char *file = arg;
    t_proc p;
    CHECK(t_run_signalled(&p, "sh", ARGS("sh", "bindings/js/test/run.sh",
                                         getenv("NQ_NPM_TARBALL"), file),
                          0, 0) == 0);
    CHECKF(p.exit_code == 0, "%s: exit %d: %.700s", file, p.exit_code,
           first_failure(&p));
    /* none skipped: a test the runner skipped would pass unseen */
    int ran = !strstr(p.out, "\n# pass 0\n") && strstr(p.out, "\n# fail 0\n") &&
              strstr(p.out, "\n# skipped 0\n");
    CHECKF(ran, "%s: a test skipped, or none ran: %.400s", file,
           strstr(p.out, "\n# tests") ? strstr(p.out, "\n# tests") : p.out);
    t_proc_free(&p);
}

/* The page test, with Chromium and the DevTools driver (NQ_CHROMIUM,
 * NQ_CDP: cases run in processes of their own, the environment is this
 * case's); skipped without them. */
static void page_test(void *arg)
{
    char node[4096], chromium[4096], cdp[4096];
    if (t_browser_tools(node, chromium, sizeof node) != 0)
        return;
    CHECK(realpath("tests/browser/cdp.mjs", cdp) != NULL);
    CHECK(setenv("NQ_CHROMIUM", chromium, 1) == 0 &&
          setenv("NQ_CDP", cdp, 1) == 0);
    node_tests(arg);
}

void tests_npm(void)
{
    static const struct {
        const char *file, *name;
    } files[] = {
        {"counts.test.mjs", "npm/count-N=1..14-vs-oeis-bigint-refusal-force"},
        {"solutions.test.mjs", "npm/solutions-valid-as-many-as-count-one-based-"
                               "unique-limit"},
        {"trace.test.mjs", "npm/trace-6-teaching-engines-steps-equal-cli-json"},
        {"engines.test.mjs", "npm/engines-equal-cli-json-version"},
        {"errors.test.mjs", "npm/bad-input-type-range-errors-in-cli-words"},
    };
    const char *why = NULL;
    if (!getenv("NQ_NPM_TARBALL"))
        why = "no npm package (make test builds it where emcc is on PATH)";
    else if (!on_path("node"))
        why = "node is not installed";
    else if (!on_path("npm"))
        why = "npm is not installed";
    t_skip_cases(why);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        t_full_case(node_tests, (void *)files[i].file, "%s", files[i].name);
    t_full_case(page_test, "page.test.mjs", "npm/page-in-chromium-readme-example");
    t_skip_cases(NULL);
}

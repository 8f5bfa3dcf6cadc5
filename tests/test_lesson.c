/*
 * test_lesson.c - the lesson page (make wasm: build/nqueens.html, the
 * library and the command line compiled to WebAssembly in one file) in
 * headless Chromium, opened from file:// as a learner opens it
 * (tests/browser/lesson.mjs).  Every expected value comes from the
 * command line built here (its trace, solve and complete) or from OEIS
 * (tests/data/oeis.tsv), never from the page.  Where emcc did not build
 * the page (NQ_LESSON unset), or node or Chromium is missing, the cases
 * are skipped, never passed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

/* One group of lesson.mjs's checks, run to its end. */
static void lesson_group(void *arg)
{
    const char *group = arg, *page = getenv("NQ_LESSON");
    char chromium[4096], node[4096], dir[4096];
    if (!page || !*page) {
        t_skip("no lesson page: make wasm needs emcc (Debian: emscripten)");
        return;
    }
    if (t_browser_tools(node, chromium, sizeof node) != 0)
        return;
    t_proc p;
    CHECK(t_run_signalled(&p, "node", ARGS("node", "tests/browser/lesson.mjs",
                          "--page", page, "--cli", getenv("NQ_CLI"),
                          "--oeis", t_data_path("oeis.tsv"), "--chromium",
                          chromium, "--out", t_browser_dir(dir, sizeof dir),
                          "--group", group), 0, 0) == 0);
    t_browser_script(&p, "ok lesson.mjs");
}

/* web/lesson.html, the page kept in the repository for a teacher
 * without emscripten (mk/wasm.mk), is the page the sources build today,
 * byte for byte. */
static void kept_page(void *arg)
{
    (void)arg;
    const char *page = getenv("NQ_LESSON");
    if (!page || !*page) {
        t_skip("no lesson page: make wasm needs emcc (Debian: emscripten)");
        return;
    }
    FILE *a = fopen(page, "rb"), *b = fopen("web/lesson.html", "rb");
    CHECK(a != NULL);
    CHECK(b != NULL);
    if (!a || !b) {
        if (a)
            fclose(a);
        if (b)
            fclose(b);
        return;
    }
    long at = 0;
    int ca, cb;
    do {
        ca = getc(a), cb = getc(b);
        at++;
    } while (ca == cb && ca != EOF);
    fclose(a);
    fclose(b);
    if (ca != cb)
        t_fail(__FILE__, __LINE__, "web/lesson.html differs from %s at byte "
               "%ld: the sources build another page today; make lesson-page",
               page, at);
}

void tests_lesson(void)
{
    t_case(kept_page, NULL, "lesson/kept-page");
    static const char *const groups[] = {
        "counts-1280", "counts-360", "events", "play", "layout", "latency",
        "scalar", "lang", "keys", "kit", "estimate",
    };
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
        t_full_case_alone(lesson_group, (void *)groups[i], "lesson/%s",
                          groups[i]);
}

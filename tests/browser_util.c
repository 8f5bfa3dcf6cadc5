/*
 * browser_util.c - what the tests that run a page in a real browser
 * share (test_trace_html.c's trace pages, test_lesson.c's lesson page):
 * finding node and Chromium, where their pages and screenshots go, and
 * reading a browser script's verdict.  Without node or Chromium a case is
 * skipped, never passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* prog on PATH, into path; 0 if found. */
static int on_path(const char *prog, char *path, size_t size)
{
    const char *dirs = getenv("PATH");
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len > 0 && (size_t)snprintf(path, size, "%.*s/%s", (int)len, dirs,
                                        prog) < size &&
            access(path, X_OK) == 0)
            return 0;
        dirs += len + (dirs[len] == ':');
    }
    return -1;
}

const char *t_browser_dir(char *dir, size_t size)
{
    const char *obj = getenv("NQ_OBJ");
    snprintf(dir, size, "%s", obj ? obj : "build/obj");
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, size, ".");
    strncat(dir, "/browser", size - strlen(dir) - 1);
    return dir;
}

int t_browser_tools(char *node, char *chromium, size_t size)
{
    if (on_path("node", node, size) != 0) {
        t_skip("node is not installed");
        return -1;
    }
    if (on_path("chromium", chromium, size) != 0 &&
        on_path("chromium-browser", chromium, size) != 0) {
        t_skip("chromium is not installed (tests/browser-setup.sh)");
        return -1;
    }
    return 0;
}

void t_browser_script(t_proc *p, const char *ok_mark)
{
    const char *fail = strstr(p->out, "FAIL");
    int ok = p->exit_code == 0 && !fail && strstr(p->out, ok_mark);
    if (!ok)
        t_fail(__FILE__, __LINE__, "exit %d: %.600s%.300s", p->exit_code,
               fail ? fail : p->out, p->err);
    t_proc_free(p);
}

/*
 * test_progress.c - the progress bar as a person sees it: in a real
 * terminal (tmux, when installed: CI installs it) at 40, 80 and 200
 * columns, a count of several seconds shows exactly one line, never wider
 * than the terminal, and nothing of it is left when the count ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The count watched: several seconds of subunits on one thread (N = 16
 * under the sanitizers, which run it several times slower). */
#ifdef __SANITIZE_ADDRESS__
#define BOARD "16"
#else
#define BOARD "17"
#endif

/* The screen of the session, one string (NULL if tmux cannot say). */
static char *screen(const char *session)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux capture-pane -p -t %s 2>/dev/null",
             session);
    FILE *p = popen(cmd, "r");
    char *text = calloc(1, 65536);
    size_t len = p && text ? fread(text, 1, 65535, p) : 0;
    if (p)
        pclose(p);
    if (text)
        text[len] = '\0';
    return text;
}

/* Non-empty lines, and the widest, of a screen. */
static void measure(const char *text, int *lines, int *widest)
{
    *lines = *widest = 0;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        int len = nl ? (int)(nl - s) : (int)strlen(s);
        while (len > 0 && s[len - 1] == ' ')
            len--;
        *lines += len > 0;
        *widest = len > *widest ? len : *widest;
        s += nl ? (size_t)(nl - s) + 1 : strlen(s);
    }
}

static void start(const char *session, int width)
{
    char cmd[1024], cwd[512];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    snprintf(cmd, sizeof cmd, "tmux new-session -d -s %s -x %d -y 12 -c '%s' "
             "\"%s count " BOARD " --engine subunits -t 1; sleep 60\"", session,
             width, cwd, getenv("NQ_CLI"));
    if (system(cmd) != 0)
        t_fail(__FILE__, __LINE__, "tmux did not start");
}

static void bar_fits(void *arg)
{
    int width = *(const int *)arg, bars = 0, bad = 0, lines, widest = 0;
    char session[64];
    snprintf(session, sizeof session, "nq-progress-%d-%d", (int)getpid(),
             width);
    start(session, width);
    T_BAIL();
    char *text = NULL;
    for (int tick = 0; tick < 600; tick++) { /* 120 s at most */
        free(text);
        text = screen(session);
        if (!text || strstr(text, BOARD ":"))
            break;
        measure(text, &lines, &widest);
        bars += strstr(text, "N=" BOARD) != NULL;
        bad += lines > 1 || widest > width;
        usleep(200000);
    }
    int ended = text && strstr(text, BOARD ":") && !strstr(text, "N=" BOARD);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "tmux kill-session -t %s 2>/dev/null", session);
    if (system(cmd) != 0) { /* gone already: nothing to do */
    }
    free(text);
    CHECKF(bars >= 3, "the bar was seen %d times", bars);
    CHECKF(!bad, "%d screens with more than one line or wider than %d", bad,
           width);
    CHECKF(ended, "the count did not end cleanly, or its bar was left");
}

void tests_progress(void)
{
    static const int widths[] = {40, 80, 200};
    if (system("command -v tmux >/dev/null 2>&1") != 0 || !getenv("NQ_CLI")) {
        t_skip_group("progress/", 1, "no tmux");
        return;
    }
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
        t_case(bar_fits, (void *)&widths[i], "progress/tmux-%d-columns-one-"
               "line-then-gone", widths[i]);
}

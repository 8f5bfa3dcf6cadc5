/*
 * test_progress.c - the progress bar as a person sees it: in a real
 * terminal (tmux, when installed: CI installs it) at 40, 80 and 200
 * columns, a long count shows exactly one line, never wider than the
 * terminal, and nothing of it is left when Ctrl-C stops the count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The count watched: far longer than the test (N = 19 on one thread is
 * ten seconds or more on any machine of today), stopped by Ctrl-C once
 * the bar has been seen three times; so the test takes the same few
 * seconds on a fast machine and a slow one. */
#define BOARD "19"

/* The screen of the session, one string (NULL if tmux cannot say). */
static char *screen(const char *session)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux -L %s capture-pane -p -t %s 2>/dev/null",
             session, session);
    FILE *p = popen(cmd, "r");
    char *text = calloc(1, 65536);
    size_t len = p && text ? fread(text, 1, 65535, p) : 0;
    if (p)
        pclose(p);
    if (text)
        text[len] = '\0';
    return text;
}

/* Whether the count's result line ("19:" at the start of a line) is on
 * the screen: the bar's elapsed time and ETA can hold "19:" too, and
 * taking that for the result cut the watch short now and then. */
static int result_shown(const char *text)
{
    return !strncmp(text, BOARD ":", strlen(BOARD ":")) ||
           strstr(text, "\n" BOARD ":") != NULL;
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
    snprintf(cmd, sizeof cmd, "tmux -L %s new-session -d -s %s -x %d -y 12 "
             "-c '%s' "
             "\"%s count " BOARD " -t 1; sleep 60\"", session, session,
             width, cwd, getenv("NQ_CLI"));
    if (system(cmd) != 0)
        t_fail(__FILE__, __LINE__, "tmux did not start");
}

/* "tmux VERB -t SESSION KEYS", on the session's own server (-L): cases
 * run side by side, and two starting the one default server at once
 * failed ("tmux did not start", seen under qemu). */
static void tmux(const char *session, const char *verb, const char *keys)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux -L %s %s -t %s %s 2>/dev/null", session,
             verb, session, keys);
    if (system(cmd) != 0) { /* the session gone already: nothing to do */
    }
}

/* The bar in a real terminal of `width` columns: one line, never wider,
 * redrawn as the count goes; Ctrl-C erases it and leaves the stop's one
 * line. */
static void bar_fits(void *arg)
{
    int width = *(const int *)arg, bars = 0, bad = 0, lines, widest = 0;
    char session[64];
    snprintf(session, sizeof session, "nq-progress-%d-%d", (int)getpid(),
             width);
    start(session, width);
    T_BAIL();
    char *text = NULL;
    int tick = 0, stopped = 0;
    for (; tick < 600 && bars < 3; tick++) { /* 120 s at most */
        free(text);
        text = screen(session);
        if (!text || result_shown(text))
            break;
        measure(text, &lines, &widest);
        bars += strstr(text, "N=" BOARD) != NULL;
        bad += lines > 1 || widest > width;
        usleep(200000);
    }
    tmux(session, "send-keys", "C-c");
    for (; tick < 650 && !stopped; tick++) { /* the stop, 10 s at most */
        free(text);
        usleep(200000);
        text = screen(session);
        stopped = text && strstr(text, "stopped by SIGINT");
    }
    int cleared = stopped && !strstr(text, "N=" BOARD);
    tmux(session, "kill-session", "");
    free(text);
    CHECKF(bars >= 3, "the bar was seen %d times", bars);
    CHECKF(!bad, "%d screens with more than one line or wider than %d", bad,
           width);
    CHECKF(stopped, "Ctrl-C did not stop the count with its line");
    CHECKF(cleared, "the bar was left on the screen after the stop");
}

void tests_progress(void)
{
    static const int widths[] = {40, 80, 200};
    t_skip_cases(!getenv("NQ_CLI") ? "no NQ_CLI"
                 : system("command -v tmux >/dev/null 2>&1") != 0 ? "no tmux"
                 : NULL);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
        t_full_case(bar_fits, (void *)&widths[i], "progress/tmux-%d-columns-one-"
               "line-then-gone", widths[i]);
    t_skip_cases(NULL);
}

/*
 * progress.c - the progress of a long count, on stderr.
 *
 * On a terminal: one line, redrawn in place a few times a second, made to
 * fit the terminal's current width (a line that wraps would leave a copy
 * of itself on every redraw), and erased before anything else is printed
 * (cli_error and the end of the count clear it).  For a log: --progress
 * prints a plain line every few seconds instead.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../cli.h"

int cli_progress_shown;

void cli_clear_progress(void)
{
    if (cli_progress_shown)
        fputs("\r\033[K", stderr);
    cli_progress_shown = 0;
}

/* Columns of the terminal on stderr, asked at each redraw so that a
 * resized window is followed at once; 80 if it cannot say. */
static int columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

static void hms(double seconds, char *buf, size_t size)
{
    unsigned long long s = (unsigned long long)(seconds + 0.5);
    snprintf(buf, size, "%02llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
}

/* The numbers, and the estimate of what is left at this run's rate (a
 * resumed run counts the units done before, but not their time); in short,
 * what matters most for a narrow terminal. */
static void describe(const cli_progress *bar, const nq_progress *p,
                     int brief, char *buf, size_t size)
{
    char elapsed[32], eta[32] = "--:--:--";
    uint64_t now = p->units_done - p->units_before;
    hms(p->seconds, elapsed, sizeof elapsed);
    if (now)
        hms(p->seconds * (double)(p->units_total - p->units_done) /
            (double)now, eta, sizeof eta);
    if (brief)
        snprintf(buf, size, _("N=%d %llu/%llu ETA %s"), bar->n,
                 (unsigned long long)p->units_done,
                 (unsigned long long)p->units_total, eta);
    else
        snprintf(buf, size, _("N=%d %llu/%llu units  %s elapsed  ETA %s"),
                 bar->n, (unsigned long long)p->units_done,
                 (unsigned long long)p->units_total, elapsed, eta);
}

/* Columns the line leaves free at its end: a character in the last
 * column makes some terminals wrap, and Ctrl-C makes the terminal echo
 * "^C" after the line; were that to wrap, the stop's "\r\033[K" would
 * clear the wrapped part and leave the bar on the screen. */
#define SPARE 3

/* "N=18 [####......] 12/6813 units ...", the bar taking what the numbers
 * leave of the width, and the whole cut to width - SPARE. */
static void fit(const char *numbers, const nq_progress *p, int width,
                char *line, size_t size)
{
    const char *space = strchr(numbers, ' ');
    int head = space ? (int)(space - numbers) : 0;
    int room = width - SPARE - cli_text_width(numbers, (size_t)-1) - 3, fill;
    if (room > 40)
        room = 40;
    if (room < 5 || !space) {
        snprintf(line, size, "%.*s", width > SPARE ? width - SPARE : 0,
                 numbers);
        return;
    }
    fill = p->units_total ? (int)((double)room * (double)p->units_done /
                                  (double)p->units_total) : 0;
    int k = snprintf(line, size, "%.*s [", head, numbers);
    for (int i = 0; i < room && k + 2 < (int)size; i++)
        line[k++] = i < fill ? '#' : '.';
    snprintf(line + k, size - (size_t)k, "]%s", space);
}

void cli_draw_progress(void *ctx, const nq_progress *p)
{
    cli_progress *bar = ctx;
    char numbers[160], line[512];
    if (p->units_done >= p->units_total || p->seconds < 1.0) {
        cli_clear_progress();
        return;
    }
    describe(bar, p, 0, numbers, sizeof numbers);
    if (bar->plain) {
        if (p->seconds - bar->last_plain < 5.0)
            return;
        bar->last_plain = p->seconds;
        fprintf(stderr, "%s: %s\n", cli_program, numbers);
        return;
    }
    int width = columns();
    /* no room for a bar: the gist (columns, not bytes: Japanese words) */
    if (cli_text_width(numbers, (size_t)-1) + 9 > width)
        describe(bar, p, 1, numbers, sizeof numbers);
    fit(numbers, p, width, line, sizeof line);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    cli_progress_shown = 1;
}

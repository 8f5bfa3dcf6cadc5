/*
 * help.c - what the programs say of themselves: help pages laid out to
 * 80 columns with the engine table's names put in, and --version.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Help pages fit 80 columns; option texts start at column 18. */
enum { HELP_WIDTH = 80, HELP_INDENT = 18 };

/* The names of "a, b, c" written from column *col on: a name that would
 * pass the page's width starts a new line at the option texts' column, so
 * that a longer engine table cannot widen a help page. */
static void put_names(const char *names, int *col)
{
    for (int first = 1; *names; first = 0) {
        size_t len = strcspn(names, ",");
        int comma = names[len] == ',';
        int width = (int)len + comma, gap = !first;
        if (*col + gap + width > HELP_WIDTH) {
            printf("\n%*s", HELP_INDENT, "");
            *col = HELP_INDENT, gap = 0;
        }
        printf("%s%.*s", gap ? " " : "", width, names);
        *col += gap + width;
        names += len + comma;
        names += *names == ' ';
    }
}

/* Help text with the engine table's names put in: "{list}", "{events}"
 * and "{units}" become the engines that can list solutions, report
 * events, or split the board into units, so a new engine shows up in
 * every help page by itself. */
void cli_print_help(const char *help)
{
    static const struct {
        const char *token;
        unsigned caps;
    } lists[] = {{"{list}", NQ_CAP_ENUMERATE}, {"{events}", NQ_CAP_EVENTS},
                 {"{units}", NQ_CAP_UNITS}};
    char names[512];
    int col = 0;
    while (*help) {
        size_t k = 0, len = 0;
        for (; k < 3 && !len; k++)
            if (!strncmp(help, lists[k].token, strlen(lists[k].token)))
                len = strlen(lists[k].token);
        if (len) {
            put_names(cli_engines_with(lists[k - 1].caps, names, sizeof names),
                      &col);
            help += len;
        } else {
            col = *help == '\n' ? 0 : col + 1;
            putchar(*help++);
        }
    }
}

void cli_print_version(const char *program)
{
    char names[128];
    char gpus[1024];
    printf("%s %s\nkernels: %s (this CPU: %s)\n", program, nq_get_version(),
           cli_kernel_names(names, sizeof names, 0), nq_kernel_best());
    for (int i = 0; i < nq_engine_count(); i++)
        if (nq_engine_devices(nq_engine_at(i), gpus, sizeof gpus)) {
            printf("engine %s:\n", nq_engine_name(nq_engine_at(i)));
            for (char *line = strtok(gpus, "\n"); line;
                 line = strtok(NULL, "\n"))
                printf("  %s\n", line);
        }
}

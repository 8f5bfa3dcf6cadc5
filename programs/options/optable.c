/*
 * optable.c - what the option tables share with the pages that describe
 * them: each option's short form, and the engine lists an option's text
 * names.  The parser (options.c) and the help and man generators (help.c,
 * manpage.c) read them here, so that the generators never call back into
 * the parser.
 */
#include <stdio.h>
#include <string.h>

#include "../cli.h"

/* The short forms, the same letter for the same option in every
 * command that has it (as coreutils and ripgrep do). */
static const struct {
    const char *name;
    char letter;
} short_forms[] = {
    {"--engine", 'e'}, {"--threads", 't'}, {"--quiet", 'q'},
    {"--limit", 'l'},  {"--format", 'f'},  {"--json", 'j'},
    {"--output", 'o'},
};

/* Looked up by name, so that no command's table can give an option a
 * letter of its own. */
char cli_short_form(const char *name)
{
    for (size_t i = 0; i < sizeof short_forms / sizeof short_forms[0]; i++)
        if (!strcmp(short_forms[i].name, name))
            return short_forms[i].letter;
    return 0;
}

/* The engine lists a help text or an option's text may name. */
static const struct {
    const char *token;
    unsigned caps;
} lists[] = {{"{list}", NQ_CAP_ENUMERATE}, {"{events}", NQ_CAP_EVENTS},
             {"{units}", NQ_CAP_UNITS}};
#define LISTS (sizeof lists / sizeof lists[0])

size_t cli_engine_list_at(const char *text, unsigned *caps)
{
    for (size_t k = 0; k < LISTS; k++)
        if (!strncmp(text, lists[k].token, strlen(lists[k].token)))
            return *caps = lists[k].caps, strlen(lists[k].token);
    return 0;
}

/* The names come from the engine table, so that a new engine shows up in
 * every help page and in the man page by itself. */
const char *cli_expand_engines(const char *text, char *buf, size_t size)
{
    size_t used = 0, len;
    unsigned caps;
    char names[512];
    buf[0] = '\0';
    for (; *text && used + 1 < size; text += len ? len : 1) {
        len = cli_engine_list_at(text, &caps);
        const char *piece = len ? cli_engines_with(caps, names, sizeof names)
                                : text;
        size_t n = len ? strlen(piece) : 1;
        if (used + n >= size)
            break;
        memcpy(buf + used, piece, n);
        buf[used += n] = '\0';
    }
    return buf;
}

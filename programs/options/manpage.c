/*
 * manpage.c - the man page's generated parts, in roff, for `nqueens
 * --manpage` (dispatch.c), which mk/manpage.sh splices into the written
 * prose of doc/nqueens.1.in: each command's synopsis, its section (the
 * prose of its help page and every option of its table, with the option's
 * own text), the engine table and the kernels.  The help pages and the
 * man page are so printed from one source, and neither can leave out an
 * option the parser takes.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../cli.h"

/* len characters of text as roff input: a backslash as \e, every hyphen
 * as \- (the man page's minus, which copies as an ASCII hyphen), and a
 * line that would start with a control character ('.', '\'') guarded
 * by \&.  A word of JSON ({"type":"step",...}) is not hyphenated (\%)
 * but may break after a comma (\:), as the help page breaks it.
 * at_start: text begins an input line. */
static void put_roff(const char *text, size_t len, int at_start)
{
    int json = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (at_start && (c == '.' || c == '\''))
            fputs("\\&", stdout);
        if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n') {
            size_t word = strcspn(text + i, " \n");
            json = memchr(text + i, '"', word < len - i ? word : len - i) != 0;
            if (json)
                fputs("\\%", stdout);
        }
        if (c == '\\')
            fputs("\\e", stdout);
        else if (c == '-')
            fputs("\\-", stdout);
        else
            putchar(c);
        if (c == ',' && i + 1 < len && !strchr(" \n", text[i + 1]))
            fputs(json ? "\\:\\%" : "\\:", stdout);
        at_start = c == '\n';
    }
}

/* Whether a usage line's run at s is typed as shown: a lower-case word
 * or an option (count, nqueens-mpi, -np, --json). */
static int typed(const char *s)
{
    if (s[0] == '-')
        s += s[1] == '-' ? 2 : 1;
    return islower((unsigned char)s[0]);
}

/* A run of a usage line in the font it stands for: an upper-case word
 * (N, FILE, JOURNAL) is a placeholder, in italics, as is "options"; a
 * typed word is in bold (in a heading, which is bold, as it is);
 * anything else is punctuation.  Returns the run's length. */
static size_t put_usage_run(const char *s, int heading)
{
    size_t len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    const char *font = "\\fI";
    if (!len && typed(s)) {
        len = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (len != 7 || strncmp(s, "options", 7))
            font = "\\fB";
    }
    if (!len) {
        put_roff(s, 1, 0);
        return 1;
    }
    int plain = heading && font[2] == 'B';
    fputs(plain ? "" : font, stdout);
    put_roff(s, len, 0);
    fputs(plain ? "" : "\\fP", stdout); /* the font before: bold in a heading */
    return len;
}

/* A usage line ("nqueens count N|A-B [options]"), up to len characters,
 * in roff's fonts (for a heading if heading); blanks are kept. */
static void put_usage(const char *usage, size_t len, int heading)
{
    const char *end = usage + len;
    while (usage < end) {
        size_t run = put_usage_run(usage, heading);
        usage += run <= (size_t)(end - usage) ? run : (size_t)(end - usage);
    }
}

/* An option's tag and text: .TP, "-e, --engine NAME" in the fonts of a
 * man page, then its one line; a "\n" in it (a line break of the help
 * page) is a blank here.  The group's heading first, as a paragraph. */
static void put_option(const cli_spec *s)
{
    char text[4096], letter = cli_short_form(s->name);
    if (s->group) {
        printf(".PP\n%c", toupper((unsigned char)s->group[0]));
        put_roff(s->group + 1, strlen(s->group + 1), 0);
        putchar('\n');
    }
    fputs(".TP\n", stdout);
    if (letter)
        printf("\\fB\\-%c\\fR, ", letter);
    fputs("\\fB", stdout);
    put_roff(s->name, strlen(s->name), 0);
    fputs("\\fR", stdout);
    if (s->arg) {
        fputs(" \\fI", stdout);
        put_roff(s->arg, strlen(s->arg), 0);
        fputs("\\fR", stdout);
    }
    putchar('\n');
    cli_expand_engines(s->help ? s->help : "", text, sizeof text);
    for (char *nl = strchr(text, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = ' ';
    put_roff(text, strlen(text), 1);
    putchar('\n');
}

/* A paragraph of a help page's prose, len characters from text, each of
 * its lines one input line (engine lists put in, leading blanks
 * dropped). */
static void put_prose(const char *text, size_t len)
{
    char line[1024], expanded[2048];
    while (len > 0) {
        size_t n = strcspn(text, "\n");
        n = n < len ? n : len;
        size_t skip = strspn(text, " ");
        skip = skip < n ? skip : n;
        snprintf(line, sizeof line, "%.*s", (int)(n - skip), text + skip);
        cli_expand_engines(line, expanded, sizeof expanded);
        put_roff(expanded, strlen(expanded), 1);
        putchar('\n');
        text += n + (n < len), len -= n + (n < len);
    }
}

/* One paragraph of a help page after its usage line: its prose; its
 * "options:" heading and "{options}", the table's options; its
 * "examples:", left to the man page's EXAMPLES. */
static void put_block(const char *block, size_t len, const cli_spec *specs,
                      int first)
{
    if (!strncmp(block, "options:\n", 9)) {
        for (; specs && specs->name; specs++)
            put_option(specs);
    } else if (strncmp(block, "examples:\n", 10)) {
        if (!first)
            fputs(".PP\n", stdout);
        put_prose(block, len);
    }
}

/* The command's section: .SS and its usage up to the first optional
 * part ("count N|A-B"), then each paragraph of its help page; or, for
 * the synopsis, its whole usage line. */
void cli_man_command(const char *help, const cli_spec *specs)
{
    const char *usage = help + (strncmp(help, "usage: ", 7) ? 0 : 7);
    size_t len = strcspn(usage, "\n");
    if (cli_describing == CLI_DESCRIBE_SYNOPSIS) {
        put_usage(usage, len, 0);
        fputs("\n.br\n", stdout);
        return;
    }
    const char *name = usage + (strncmp(usage, "nqueens ", 8) ? 0 : 8);
    const char *optional = strstr(name, " [");
    if (!optional || optional > usage + len)
        optional = usage + len;
    fputs(".SS \"", stdout);
    put_usage(name, (size_t)(optional - name), 1);
    fputs("\"\n", stdout);
    const char *s = usage + len;
    for (int first = 1; *s; first = 0) {
        s += strspn(s, "\n");
        const char *end = strstr(s, "\n\n");
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n)
            put_block(s, n, specs, first);
        s += n;
    }
}

/* "(N up to 26; the default count engine)": what an engine's line in the
 * man page adds to its summary, from the library; empty if nothing. */
static void engine_notes(const nq_engine *e, char *buf, size_t size)
{
    const char *name = nq_engine_name(e);
    int max = nq_engine_max_n(e);
    int k = 0;
    buf[0] = '\0';
    if (max < NQ_MAX_N)
        k = snprintf(buf, size, " (N up to %d", max);
    if (!strcmp(name, nq_default_count_engine()))
        k += snprintf(buf + k, size - (size_t)k, "%sthe default count engine",
                      k ? "; " : " (");
    if (!strcmp(name, nq_default_enumerate_engine()))
        snprintf(buf + k, size - (size_t)k, "%sthe default listing engine",
                 k ? "; " : " (");
    if (buf[0])
        strcat(buf, ")");
}

/* The engines as the library's table has them, so that a new engine is
 * in the manual by itself: each one's name and summary. */
void cli_man_engines(void)
{
    char notes[128];
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        const char *name = nq_engine_name(e), *summary = nq_engine_summary(e);
        engine_notes(e, notes, sizeof notes);
        fputs(i ? ".TP\n.B " : ".TP 11\n.B ", stdout);
        put_roff(name, strlen(name), 0);
        putchar('\n');
        put_roff(summary, strlen(summary), 1);
        put_roff(notes, strlen(notes), 0);
        putchar('\n');
    }
}

/* The kernels this build holds (the written prose names every kernel of
 * every build, and what each needs). */
void cli_man_kernels(void)
{
    int count = nq_kernel_count();
    fputs("This build holds the kernels", stdout);
    for (int i = 0; i < count; i++) {
        const char *name = nq_kernel_at(i);
        fputs(i == 0 ? " \\fB" : i + 1 < count ? ", \\fB" : " and \\fB",
              stdout);
        put_roff(name, strlen(name), 0);
        fputs("\\fR", stdout);
    }
    fputs(".\n", stdout);
}

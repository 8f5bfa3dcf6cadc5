/*
 * help.c - what the programs say of themselves: help pages laid out to
 * 80 columns with the engine table's names and the command's option table
 * put in, and --version.
 */
#include <stdio.h>
#include <string.h>

#include "../cli.h"

/* Help pages fit 80 columns.  Option texts start two blanks after the
 * page's widest option head, at column 18 at least and 26 at most (a head
 * wider than that has its text on the next line): one column for the
 * page, so that its texts line up.  help_indent is the page's. */
enum { HELP_WIDTH = 80, HELP_INDENT = 18, HELP_MAX_INDENT = 26 };
static int help_indent = HELP_INDENT;

/* One word of len characters at column *col, after a blank if gap: on a
 * new line at the option texts' column if it would pass the page's
 * width; a word wider than a whole line (a JSON object written without
 * blanks) is cut after a comma where one fits. */
static void put_word(const char *word, size_t len, int gap, int *col)
{
    int width;
    while (*col + gap + (width = cli_text_width(word, len)) > HELP_WIDTH) {
        size_t cut = 0;
        for (size_t i = 0; width > HELP_WIDTH - help_indent && i < len; i++)
            if (word[i] == ',' && *col + gap + (int)i + 1 <= HELP_WIDTH)
                cut = i + 1;
        if (cut) {
            printf("%s%.*s", gap ? " " : "", (int)cut, word);
            word += cut, len -= cut;
        } else if (*col <= help_indent) {
            break; /* nowhere better: the word as it is */
        }
        printf("\n%*s", help_indent, "");
        *col = help_indent, gap = 0;
    }
    printf("%s%.*s", gap ? " " : "", (int)len, word);
    *col += gap + cli_text_width(word, len);
}

/* A word in pieces where a line may break inside it (Japanese has no
 * blanks: cli_break_at), the pieces joined without one. */
static void put_pieces(const char *word, size_t len, int gap, int *col)
{
    while (len) {
        size_t k = cli_break_at(word, len);
        put_word(word, k, gap, col);
        word += k, len -= k, gap = 0;
    }
}

/* Text written word by word from column *col on (where a blank, if one
 * is due, has been written), wrapped at the page's width with the next
 * lines at the option texts' column; a "\n" in it starts such a line. */
static void put_words(const char *text, int *col)
{
    int gap = 0;
    while (*text) {
        if (*text == '\n') {
            printf("\n%*s", help_indent, "");
            *col = help_indent, gap = 0;
        }
        text += strspn(text, " \n");
        size_t len = strcspn(text, " \n");
        if (len)
            put_pieces(text, len, gap, col), gap = 1;
        text += len;
    }
}

/* "  -e, --engine NAME": an option's head into head; its length. */
static int option_head(const cli_spec *s, char *head, size_t size)
{
    char letter = cli_short_form(s->name);
    const char *arg = s->arg ? s->arg : "";
    int len = letter ? snprintf(head, size, "  -%c, %s%s%s", letter, s->name,
                                *arg ? " " : "", arg)
                     : snprintf(head, size, "  %s%s%s", s->name,
                                *arg ? " " : "", arg);
    return len < (int)size ? len : (int)size - 1;
}

/* The column of a page's option texts (see HELP_INDENT). */
static int options_column(const cli_spec *specs)
{
    char head[64];
    int col = HELP_INDENT;
    for (; specs && specs->name; specs++) {
        int want = option_head(specs, head, sizeof head) + 2;
        if (want > col && want <= HELP_MAX_INDENT)
            col = want;
    }
    return col;
}

/* An option's head and its text from the page's column (on the next line
 * after a head too wide for it); the group's heading first, after a
 * blank line. */
static void put_option(const cli_spec *s)
{
    char head[64], text[4096];
    int len = option_head(s, head, sizeof head), col = help_indent;
    if (s->group)
        printf("\n%s\n", _(s->group));
    if (len + 2 > col)
        printf("%s\n%*s", head, col, "");
    else
        printf("%s%*s", head, col - len, "");
    put_words(cli_expand_engines(s->help ? _(s->help) : "", text,
                                 sizeof text), &col);
    putchar('\n');
}

/* The columns the character whose byte is at s adds: its first byte
 * counts it (two for a wide one), its other bytes nothing. */
static int columns_of(const char *s)
{
    unsigned char b = (unsigned char)*s;
    size_t k = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return (b & 0xc0) == 0x80 ? 0 : cli_text_width(s, strnlen(s, k));
}

/* Help text with "{list}", "{events}" and "{units}" put in as engine
 * names, wrapped from where they stand, and "{options}" as the options'
 * entries: a help page can neither lag behind the engine table nor
 * forget an option its parser takes. */
void cli_print_help(const char *help, const cli_spec *specs)
{
    char names[512];
    int col = 0;
    size_t len;
    unsigned caps;
    help = _(help); /* the page and the options' texts in the user's
                       language; the man page takes them as written */
    while (*help) {
        if (!strncmp(help, "{options}", 9)) {
            help_indent = options_column(specs);
            for (; specs && specs->name; specs++)
                put_option(specs);
            help += 9;
        } else if ((len = cli_engine_list_at(help, &caps))) {
            put_words(cli_engines_with(caps, names, sizeof names), &col);
            help += len;
        } else {
            col = *help == '\n' ? 0 : col + columns_of(help);
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

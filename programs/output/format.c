/*
 * format.c - the board formats of `solve`.
 *
 * grid and dots reproduce byte for byte what the seed programs print, so
 * their output can be compared with the originals; array is for programs;
 * unicode is for people at a terminal.
 */
#include <string.h>

#include "format.h"

/* "+-+-+...+" as seed 000 draws it between rows. */
static void grid_rule(FILE *out, int n)
{
    fputc('+', out);
    for (int i = 0; i < n; i++)
        fputs("-+", out);
    fputc('\n', out);
}

/* Seed 000 (the Python backtracking program): the 1-based solution number,
 * the array with a space before each entry, then the board.  The seed draws
 * square (i, j) as a queen when cols[j] == i, i.e. the array index runs
 * across the picture; this keeps that. */
static void write_grid(FILE *out, const int *cols, int n,
                       unsigned long long index)
{
    fprintf(out, "%llu\n", index + 1);
    for (int i = 0; i < n; i++)
        fprintf(out, " %d", cols[i]);
    fputc('\n', out);
    grid_rule(out, n);
    for (int i = 0; i < n; i++) {
        fputc('|', out);
        for (int j = 0; j < n; j++) {
            fputc(cols[j] == i ? 'O' : ' ', out);
            fputc('|', out);
        }
        fputc('\n', out);
        grid_rule(out, n);
    }
    fputc('\n', out);
}

/* Seed 002 (the C placement-flags program): "Answer No. k" from 0, then one
 * line per row with Q for the queen. */
static void write_dots(FILE *out, const int *cols, int n,
                       unsigned long long index)
{
    fprintf(out, "Answer No. %llu ==========\n", index);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++)
            fputc(cols[y] == x ? 'Q' : '.', out);
        fputc('\n', out);
    }
}

int cli_format_base;

/* Digits by hand through a buffer, not printf per number: find prints
 * boards of ten million queens, and this is where their time would go. */
void cli_write_cols(FILE *out, const int *cols, int n, char sep, int base)
{
    char buf[1 << 16];
    size_t len = 0;
    for (int r = 0; r < n; r++) {
        char digits[12];
        int k = 0, v = cols[r] + base;
        do
            digits[k++] = (char)('0' + v % 10);
        while ((v /= 10) > 0);
        if (r)
            buf[len++] = sep;
        while (k > 0)
            buf[len++] = digits[--k];
        if (len > sizeof buf - 16) {
            fwrite(buf, 1, len, out);
            len = 0;
        }
    }
    fwrite(buf, 1, len, out);
}

/* The plainest board, for programs and pipes: its columns on one line. */
static void write_array(FILE *out, const int *cols, int n,
                        unsigned long long index)
{
    (void)index;
    cli_write_cols(out, cols, n, ' ', cli_format_base);
    fputc('\n', out);
}

/* "  +-------------------+" between the rows of the seed diagram. */
static void seed_rule(FILE *out, int n)
{
    fputs("  +", out);
    for (int i = 0; i < 4 * n - 1; i++)
        fputc('-', out);
    fputs("+\n", out);
}

/* The board diagram of the seed series' chapters (seed 000's backtracking
 * pictures): columns numbered right to left, column 0 on the right; each
 * row "|---|-Q-|...|" with its number to the right, rows ruled apart;
 * "column(列)" above and "row(行)" beside the middle row.  Boards are
 * separated by a blank line. */
static void write_seed(FILE *out, const int *cols, int n,
                       unsigned long long index)
{
    int pad = (4 * n + 1 - 10) / 2 + 3;
    fprintf(out, "%s%*scolumn(\u5217)\n   ", index ? "\n" : "",
            pad > 0 ? pad : 0, "");
    for (int c = n - 1; c >= 0; c--) {
        int label = c + cli_format_base;
        fprintf(out, label < 10 ? "_%d_" : "%d_", label);
        if (c)
            fputc('_', out);
    }
    fputc('\n', out);
    for (int r = 0; r < n; r++) {
        fputs("  |", out);
        for (int c = n - 1; c >= 0; c--)
            fputs(cols[r] == c ? "-Q-|" : "---|", out);
        fprintf(out, "%d%s\n", r + cli_format_base,
                r == n / 2 ? " row(\u884c)" : "");
        seed_rule(out, n);
    }
}

static void unicode_border(FILE *out, int n, const char *l, const char *r)
{
    fputs(l, out);
    for (int i = 0; i < 2 * n; i++)
        fputs("\u2500", out);
    fputs(r, out);
    fputc('\n', out);
}

/* Two terminal cells per square: dark squares shaded, queens as a black
 * queen glyph; (0,0) is light, as a1 is dark seen from the other side. */
static void write_unicode(FILE *out, const int *cols, int n,
                          unsigned long long index)
{
    fprintf(out, "#%llu: ", index + 1);
    write_array(out, cols, n, index); /* --one-based too */
    unicode_border(out, n, "\u250c", "\u2510");
    for (int r = 0; r < n; r++) {
        fputs("\u2502", out);
        for (int c = 0; c < n; c++) {
            if (cols[r] == c)
                fputs("\u265b ", out);
            else
                fputs((r + c) % 2 ? "\u2591\u2591" : "  ", out);
        }
        fputs("\u2502\n", out);
    }
    unicode_border(out, n, "\u2514", "\u2518");
}

/* JSON Lines: one object per board, written as it comes, so a listing of
 * millions streams in constant memory and every line parses on its own:
 * {"type":"solution","n":8,"number":1,"queens":[0,4,7,5,2,6,1,3]}.
 * The columns count from 0 whatever --one-based says (JSON is for
 * programs); the summary line after the last board is the listing's
 * (listing.c), for it knows the command's own members. */
static void write_json(FILE *out, const int *cols, int n,
                       unsigned long long index)
{
    fprintf(out, "{\"type\":\"solution\",\"n\":%d,\"number\":%llu,"
            "\"queens\":[", n, index + 1);
    cli_write_cols(out, cols, n, ',', 0);
    fputs("]}\n", out);
}

static const cli_format formats[] = {
    {"grid", "the +-+ board of the seed's Python program", 0, NULL,
     write_grid, NULL},
    {"dots", "Q and . rows as the seed's C program prints them", 0, NULL,
     write_dots, NULL},
    {"array", "one solution a line: the column of each row", 0, NULL,
     write_array, NULL},
    {"seed", "the board diagram of the seed chapters, column 0 on the right",
     0, NULL, write_seed, NULL},
    {"unicode", "a shaded board for terminals", 0, NULL, write_unicode, NULL},
    {"svg", "a picture: chessboards in one SVG document", NQ_SVG_MAX_BOARDS,
     cli_svg_begin, cli_svg_board, cli_svg_end},
    {"json", "JSON Lines: an object per solution, then a summary object", 0,
     NULL, write_json, NULL},
};

const cli_format *cli_format_find(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

const char *cli_format_names(void)
{
    static char names[128];
    if (!names[0])
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
            if (i)
                strcat(names, ", ");
            strcat(names, formats[i].name);
        }
    return names;
}

/*
 * json.c - the programs' one JSON writer: strings quoted and escaped
 * (every string of the CLI's JSON goes through cli_json_quoted, none is
 * put between quotes by hand), and numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

void cli_json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.6g", v);
    else
        fputs("null", out); /* JSON has no infinity */
}

void cli_json_quoted(FILE *out, const char *s, const char *also)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out); /* a multi-line text stays readable */
        else if (c < 0x20 || strchr(also, c))
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void cli_json_string(FILE *out, const char *s)
{
    cli_json_quoted(out, s, "");
}

/* Text put together before it is printed (a listing's summary members)
 * quotes its strings with the same writer, through a memory stream, so
 * that there is one escaping rule; a string that does not fit becomes
 * null, never a cut one that would leave its line unparsable. */
const char *cli_json_text(char *buf, size_t size, const char *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int ok = m != NULL;
    if (m) {
        cli_json_string(m, s);
        ok = fclose(m) == 0;
    }
    snprintf(buf, size, "%s", ok && text && len < size ? text : "null");
    free(text);
    return buf;
}

/*
 * values.c - the values of arguments and options, checked strictly: a
 * board N or a range A-B, whole numbers, --threads, --part K/M, the
 * journals of merge and verify.  "12x", "+5", " 7", a number past 64
 * bits and an empty string are all refused, with a message that says
 * what was given and what would be accepted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

int cli_parse_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    if (!*text)
        return -1;
    for (const char *s = text; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_size(const char *text, int *n)
{
    uint64_t v;
    if (cli_parse_uint(text, 1, NQ_MAX_N, &v) != 0)
        return cli_error(CLI_USAGE,
                         "N must be a whole number from 1 to %d, not '%s'",
                         NQ_MAX_N, text);
    *n = (int)v;
    return CLI_OK;
}

int cli_parse_sizes(const char *text, int *lo, int *hi)
{
    const char *dash = strchr(text, '-');
    char first[32];
    int rc;
    if (!dash || dash == text) {
        if ((rc = parse_size(text, lo)) != CLI_OK)
            return rc;
        *hi = *lo;
        return CLI_OK;
    }
    if ((size_t)(dash - text) >= sizeof first)
        return cli_error(CLI_USAGE, "N must be a whole number from 1 to %d, "
                         "or a range A-B, not '%s'", NQ_MAX_N, text);
    memcpy(first, text, (size_t)(dash - text));
    first[dash - text] = '\0';
    if ((rc = parse_size(first, lo)) != CLI_OK ||
        (rc = parse_size(dash + 1, hi)) != CLI_OK)
        return rc;
    if (*lo > *hi)
        return cli_error(CLI_USAGE, "range %s is empty: A must not exceed B "
                         "in A-B", text);
    return CLI_OK;
}

int cli_parse_board(const char *command, const char *help, const cli_spec *specs,
                    int argc, char **argv, int range, int *lo, int *hi)
{
    const char *pos[1];
    int npos, rc = cli_parse(command, help, specs, argc, argv, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc;
    if (npos == 0)
        return cli_error(CLI_USAGE, "%s: missing N (see '%s %s --help')",
                         command, cli_program, command);
    if ((rc = cli_parse_sizes(pos[0], lo, hi)) != CLI_OK)
        return rc;
    if (!range && *hi != *lo)
        return cli_error(CLI_USAGE, "%s takes one N, not a range '%s'",
                         command, pos[0]);
    return CLI_OK;
}

int cli_parse_journals(const char *command, const char *help,
                       const char *usage, const cli_spec *specs, int argc,
                       char **argv, const char *const *list,
                       const char ***paths, int *count)
{
    const char **pos = calloc((size_t)argc + 1, sizeof *pos);
    *paths = pos;
    if (!pos)
        return cli_error(CLI_FAIL, "out of memory");
    /* argc + 1: room for the board `--completion` gives a command with
     * --engine (cli_parse), which has no arguments then */
    int rc = cli_parse(command, help, specs, argc, argv, pos, argc + 1, count);
    if (rc == CLI_OK && list && *list)
        rc = cli_add_listed(*list, paths, count);
    if (rc == CLI_OK && *count == 0)
        rc = cli_error(CLI_USAGE, "%s: no journals given (usage: nqueens %s "
                       "%s)", command, command, usage);
    return rc;
}

int cli_parse_threads(const char *text, int *threads)
{
    uint64_t t = 0;
    if (text && cli_parse_uint(text, 1, CLI_MAX_THREADS, &t) != 0)
        return cli_error(CLI_USAGE, "--threads takes a whole number from 1 "
                         "to %d, not '%s'", CLI_MAX_THREADS, text);
    *threads = (int)t;
    return CLI_OK;
}

int cli_parse_part(const char *text, uint32_t *part, uint32_t *parts)
{
    uint64_t k, m;
    const char *slash = text ? strchr(text, '/') : NULL;
    char first[32];
    if (!slash || (size_t)(slash - text) >= sizeof first)
        return cli_error(CLI_USAGE, "--part takes K/M with 1 <= K <= M, not "
                         "'%s'", text ? text : "");
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    if (cli_parse_uint(first, 1, 1000000, &k) || cli_parse_uint(slash + 1, 1,
        1000000, &m) || k > m)
        return cli_error(CLI_USAGE, "--part takes K/M with 1 <= K <= M "
                         "<= 1000000, not '%s'", text);
    *part = (uint32_t)k, *parts = (uint32_t)m;
    return CLI_OK;
}

int cli_parse_unit_seconds(const char *text, double *out)
{
    char *end;
    double s = text && *text ? strtod(text, &end) : -1;
    if (!text)
        return CLI_OK; /* not given: the library's default (0) */
    if (!*text || *end || !(s >= 0 && s <= CLI_MAX_UNIT_SECONDS) ||
        (s > 0 && s < 1e-6))
        return cli_error(CLI_USAGE, "--max-unit-seconds takes seconds from "
                         "0.000001 to %.0f, or 0 for units never cut, not "
                         "'%s'", CLI_MAX_UNIT_SECONDS, text);
    *out = s == 0 ? -1 : s;
    return CLI_OK;
}

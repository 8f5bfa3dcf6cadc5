/*
 * args.c - parsing the CLI's arguments strictly.
 *
 * Options go through getopt_long, so they behave as in every GNU tool:
 * short forms (-e, -t, -q, -l, -f, -j, -h), bundling (-qt2), --opt=value
 * and --opt value, options before or after the board, and -- to end them.
 * Bad input must never turn into a wrong run: "12x", "+5", " 7", a number
 * past 64 bits and an empty string are all refused, with a message that
 * says what was given and what would be accepted.
 */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_progress_shown;
const char *cli_program = "nqueens";
int cli_describing, cli_describe_pending;

void cli_clear_progress(void)
{
    if (cli_progress_shown)
        fputs("\r\033[K", stderr);
    cli_progress_shown = 0;
}

/* The length of the valid UTF-8 sequence at s (at most len bytes), or 0:
 * a stray continuation byte, a truncated or overlong sequence, a
 * surrogate or a code point past U+10FFFF is not one. */
static int utf8_length(const unsigned char *s, int len)
{
    int k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (k == 0 || s[0] > 0xf4 || k > len)
        return 0;
    for (int i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((k == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||   /* overlong */
        (k == 3 && s[0] == 0xed && s[1] >= 0xa0) ||  /* surrogate */
        (k == 4 && s[0] == 0xf0 && s[1] < 0x90) ||   /* overlong */
        (k == 4 && s[0] == 0xf4 && s[1] >= 0x90))    /* past U+10FFFF */
        return 0;
    return k;
}

/* The characters of a message from i on: one at a time, control
 * characters and bytes that are not UTF-8 escaped, so that an argument
 * holding a newline cannot split the line, nor one in another encoding
 * garble the terminal.  Returns the bytes used. */
static int put_clean(const char *msg, int i, int len)
{
    const unsigned char *s = (const unsigned char *)msg + i;
    int k = s[0] >= 0x80 ? utf8_length(s, len - i) : 1;
    if (k > 1 || (s[0] >= 0x20 && s[0] < 0x7f)) {
        fwrite(s, 1, (size_t)k, stderr);
        return k;
    }
    fprintf(stderr, s[0] == '\n' ? "\\n" : s[0] == '\t' ? "\\t" : "\\x%02x",
            s[0]);
    return 1;
}

/* Messages past this keep their start and end (the reason comes last). */
enum { ERROR_HEAD = 240, ERROR_TAIL = 200 };

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    char small[512], *msg = small;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1))) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    len = msg == small && len >= (int)sizeof small ? (int)sizeof small - 1 : len;
    cli_clear_progress();
    fflush(stdout); /* what was printed before the error comes before it */
    fprintf(stderr, "%s: ", cli_program);
    for (int i = 0; i < len;) {
        if (len > ERROR_HEAD + ERROR_TAIL && i >= ERROR_HEAD &&
            i < len - ERROR_TAIL) {
            fputs(" [...] ", stderr);
            i = len - ERROR_TAIL;
            while (i < len && ((unsigned char)msg[i] & 0xc0) == 0x80)
                i++; /* not in the middle of a character */
        }
        i += put_clean(msg, i, len);
    }
    fputc('\n', stderr);
    if (msg != small)
        free(msg);
    return code;
}

int cli_is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9');
}

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

/* The short forms, the same letter for the same option in every
 * command that has it (as coreutils and ripgrep do). */
static const struct {
    const char *name;
    char letter;
} short_forms[] = {
    {"--engine", 'e'}, {"--threads", 't'}, {"--quiet", 'q'},
    {"--limit", 'l'},  {"--format", 'f'},  {"--json", 'j'},
};

static char letter_of(const char *name)
{
    for (size_t i = 0; i < sizeof short_forms / sizeof short_forms[0]; i++)
        if (!strcmp(short_forms[i].name, name))
            return short_forms[i].letter;
    return 0;
}

enum { MAX_SPECS = 32, LONG_BASE = 256 };

/* getopt_long's tables from the specs: each option's long name (without
 * its dashes), its letter if it has one, and --help / -h. */
static int build_options(const cli_spec *specs, struct option *longs,
                         char *shorts)
{
    int k = 0;
    char *s = shorts;
    *s++ = ':'; /* a missing value is reported as ':' */
    for (; specs[k].name && k < MAX_SPECS; k++) {
        char letter = letter_of(specs[k].name);
        longs[k] = (struct option){specs[k].name + 2,
                                   specs[k].value ? required_argument
                                                  : no_argument,
                                   NULL, letter ? letter : LONG_BASE + k};
        if (letter) {
            *s++ = letter;
            if (specs[k].value)
                *s++ = ':';
        }
    }
    longs[k++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[k] = (struct option){NULL, 0, NULL, 0};
    strcpy(s, "h");
    return k;
}

/* The spec getopt_long's answer c stands for, or NULL. */
static const cli_spec *spec_of(const cli_spec *specs, int c)
{
    for (int k = 0; specs[k].name; k++)
        if (c == LONG_BASE + k || (c < LONG_BASE && c == letter_of(specs[k].name)))
            return &specs[k];
    return NULL;
}

/* Store an option; a value that is itself an option ("--checkpoint
 * --json") is a forgotten value, not a file name. */
static int take(const cli_spec *s, const char *value)
{
    if (!s->value) {
        *s->flag = 1;
        return CLI_OK;
    }
    if (cli_is_option(value) && value[1] == '-')
        return cli_error(CLI_USAGE, "option %s needs a value", s->name);
    *s->value = value;
    return CLI_OK;
}

/* getopt_long's complaint, in our words: the option as it was written. */
static int refuse(const char *command, char *const *argv, int c)
{
    const char *arg = argv[optind - 1];
    char shown[3] = {'-', (char)optopt, '\0'};
    int is_short = arg && arg[0] == '-' && arg[1] != '-';
    const char *name = is_short && optopt ? shown : arg;
    if (c == ':')
        return cli_error(CLI_USAGE, "option %s needs a value", name);
    return cli_bad_argument(command, name);
}

/* A negative number ("-1", "-3-5", "-1:2") is an argument, never an
 * option: no option is a digit, and getopt would read "-1" as the unknown
 * option -1, so that `count -1` got another message than `count 0`. */
static int is_negative_number(const char *arg)
{
    return arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9';
}

/* Negative numbers are shown to getopt as empty strings (which it takes
 * for arguments), each at its own address in blanks, so that
 * shown_as_given can put the argument back wherever getopt moved it. */
static void hide_negative_numbers(char **args, int count, char *blanks)
{
    for (int i = 1; i < count; i++)
        if (is_negative_number(args[i]))
            args[i] = blanks + i;
}

/* The argument as given, for one getopt handed back (a value or a
 * positional): argv holds the originals, args[i] being argv[i - 1]. */
static const char *shown_as_given(const char *arg, const char *blanks,
                                  int argc, char **argv)
{
    return arg >= blanks && arg <= blanks + argc ? argv[arg - blanks - 1]
                                                 : arg;
}

/* An argument past the positionals a command takes.  It is never an
 * unknown option: getopt has reported those, so what looks like one here
 * came after "--", which makes everything an argument. */
static int unexpected(const char *command, const char *arg)
{
    return cli_error(CLI_USAGE, "%s: unexpected argument '%s' (see '%s %s "
                     "--help')", command, arg, cli_program, command);
}

/* The options, through getopt_long (its own copy of the arguments, which
 * it reorders: argv stays as given). */
static int parse_options(const char *command, const char *help,
                         const cli_spec *specs, int argc, char **argv,
                         char **args, const char *blanks)
{
    struct option longs[MAX_SPECS + 2];
    char shorts[3 * MAX_SPECS + 4];
    int c, rc = CLI_OK;
    build_options(specs, longs, shorts);
    optind = 0; /* a fresh scan (GNU), whatever parsed before */
    opterr = 0;
    while (rc == CLI_OK &&
           (c = getopt_long(argc + 1, args, shorts, longs, NULL)) != -1) {
        const cli_spec *s = spec_of(specs, c);
        if (c == 'h' && !s) {
            cli_print_help(help);
            rc = CLI_HELP_SHOWN;
        } else {
            rc = s ? take(s, shown_as_given(optarg, blanks, argc, argv))
                   : refuse(command, args, c);
        }
    }
    return rc;
}

/* `nqueens --completion COMMAND`: the options as the tables hold them
 * (getopt_long's are built from the same), one a line: the long name,
 * with "=" if it takes a value, then its short form.  A command that
 * takes an engine is then let go on, with a board of 4, to its engine
 * check, which lists the engines it accepts and stops it; any other
 * stops here. */
static int describe_options(const cli_spec *specs, const char **pos,
                            int max_pos, int *npos)
{
    int engine = 0;
    for (int k = 0; specs[k].name; k++) {
        char letter = letter_of(specs[k].name);
        printf("%s%s", specs[k].name, specs[k].value ? "=" : "");
        printf(letter ? " -%c\n" : "\n", letter);
        engine |= !strcmp(specs[k].name, "--engine");
    }
    puts("--help -h");
    *npos = 0;
    if (!engine)
        return CLI_HELP_SHOWN;
    if (max_pos > 0)
        pos[(*npos)++] = "4";
    cli_describe_pending = 1;
    return CLI_OK;
}

int cli_parse(const char *command, const char *help, const cli_spec *specs,
              int argc, char **argv, const char **pos, int max_pos,
              int *npos)
{
    if (cli_describing)
        return describe_options(specs, pos, max_pos, npos);
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    char *blanks = calloc((size_t)argc + 2, 1);
    int rc = CLI_OK;
    if (!args || !blanks) {
        free(args);
        free(blanks);
        return cli_error(CLI_FAIL, "out of memory");
    }
    args[0] = (char *)command;
    memcpy(args + 1, argv, (size_t)argc * sizeof *args);
    args[argc + 1] = NULL;
    hide_negative_numbers(args, argc + 1, blanks);
    *npos = 0;
    rc = parse_options(command, help, specs, argc, argv, args, blanks);
    for (int i = optind; rc == CLI_OK && i <= argc; i++) {
        const char *arg = shown_as_given(args[i], blanks, argc, argv);
        if (*npos == max_pos)
            rc = unexpected(command, arg);
        else
            pos[(*npos)++] = arg;
    }
    free(args);
    free(blanks);
    return rc;
}

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

/* What an engine lacking a capability cannot do, for the message. */
static const char *cannot(unsigned caps)
{
    return caps & NQ_CAP_FLAG_ARRAYS ? "keeps no flag arrays to show"
         : caps & NQ_CAP_EVENTS ? "cannot show its search step by step"
         : caps & NQ_CAP_UNITS ? "does not split the board into units"
                               : "cannot list solutions";
}

/* `nqueens --completion COMMAND`: instead of checking one engine, the
 * engines this check accepts ("engine NAME" lines), whatever the board
 * (which only bounds each engine's N); the command stops there. */
static int describe_engines(unsigned caps)
{
    for (int i = 0; i < nq_engine_count(); i++)
        if ((nq_engine_caps(nq_engine_at(i)) & caps) == caps)
            printf("engine %s\n", nq_engine_name(nq_engine_at(i)));
    cli_describe_pending = 0;
    return CLI_HELP_SHOWN;
}

int cli_check_engine(const char *name, int lo, int hi, unsigned caps)
{
    char names[512];
    if (cli_describing)
        return describe_engines(caps);
    const nq_engine *e = nq_engine_find(name);
    cli_engines_with(caps, names, sizeof names);
    if (!e)
        return cli_error(CLI_USAGE, "unknown engine '%s' (engines: %s)", name,
                         names);
    if ((nq_engine_caps(e) & caps) != caps)
        return cli_error(CLI_USAGE, "engine '%s' %s (engines that can: %s)",
                         name, cannot(caps), names);
    if (lo < 1 || hi > nq_engine_max_n(e))
        return cli_error(CLI_USAGE, "engine '%s' takes N from 1 to %d, not %d",
                         name, nq_engine_max_n(e), hi);
    return CLI_OK;
}

int cli_bad_argument(const char *command, const char *arg)
{
    if (cli_is_option(arg))
        return cli_error(CLI_USAGE, "%s: unknown option '%s' (see '%s %s "
                         "--help')", command, arg, cli_program, command);
    return cli_error(CLI_USAGE, "%s: unexpected argument '%s' (see '%s %s "
                     "--help')", command, arg, cli_program, command);
}

int cli_json_format(const char *command, int json, const char **format,
                    const char *fallback)
{
    if (json && *format && strcmp(*format, "json"))
        return cli_error(CLI_USAGE, "%s: --json and --format %s ask for two "
                         "formats: give one", command, *format);
    if (json)
        *format = "json";
    else if (!*format)
        *format = fallback;
    return CLI_OK;
}

int cli_finish_output(int rc)
{
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == CLI_OK)
        return cli_error(CLI_FAIL, "cannot write the output: %s",
                         strerror(errno ? errno : EIO));
    return rc;
}

int cli_parse_journals(const char *command, const char *help,
                       const char *usage, const cli_spec *specs, int argc,
                       char **argv, const char ***paths, int *count)
{
    const char **pos = calloc((size_t)argc + 1, sizeof *pos);
    *paths = pos;
    if (!pos)
        return cli_error(CLI_FAIL, "out of memory");
    int rc = cli_parse(command, help, specs, argc, argv, pos, argc, count);
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

/* name added to the list "a, b, ..." in buf (cut short if it is full). */
static void add_name(char *buf, size_t size, size_t *len, const char *name)
{
    if (*len >= size)
        return;
    int k = snprintf(buf + *len, size - *len, "%s%s", *len ? ", " : "", name);
    *len += k > 0 ? (size_t)k : 0;
}

const char *cli_engines_with(unsigned caps, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        if ((nq_engine_caps(e) & caps) == caps)
            add_name(buf, size, &len, nq_engine_name(e));
    }
    return buf;
}

/* "scalar, sse4, avx2, avx512": the kernels built in, or those this CPU
 * runs. */
static const char *kernel_names(char *buf, size_t size, int only_supported)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < nq_kernel_count(); i++)
        if (!only_supported || nq_kernel_supported(nq_kernel_at(i)))
            add_name(buf, size, &len, nq_kernel_at(i));
    return buf;
}

/* What nq_select_kernel would say of the name, without selecting it. */
static nq_status kernel_status(const char *name)
{
    for (int i = 0; i < nq_kernel_count(); i++)
        if (!strcmp(nq_kernel_at(i), name))
            return nq_kernel_supported(name) ? NQ_OK : NQ_ERR_UNSUPPORTED;
    return NQ_ERR_ARG;
}

/* A kernel refused, said (from: "--kernel" or "NQ_KERNEL"). */
static int kernel_error(nq_status st, const char *name, const char *from)
{
    char names[128];
    if (st == NQ_ERR_ARG)
        return cli_error(CLI_USAGE, "%s: unknown kernel '%s' (kernels: %s)",
                         from, name, kernel_names(names, sizeof names, 0));
    if (st == NQ_ERR_UNSUPPORTED)
        return cli_error(CLI_USAGE, "%s: this CPU lacks %s (it runs: %s)",
                         from, name, kernel_names(names, sizeof names, 1));
    return CLI_OK;
}

int cli_check_kernel(const char *name, const char *from)
{
    return kernel_error(kernel_status(name), name, from);
}

int cli_kernel_from_environment(void)
{
    const char *name = getenv("NQ_KERNEL");
    return name && *name ? kernel_error(nq_select_kernel(name), name,
                                        "NQ_KERNEL") : CLI_OK;
}

void cli_print_version(const char *program)
{
    char names[128];
    char gpus[1024];
    printf("%s %s\nkernels: %s (this CPU: %s)\n", program, nq_get_version(),
           kernel_names(names, sizeof names, 0), nq_kernel_best());
    for (int i = 0; i < nq_engine_count(); i++)
        if (nq_engine_devices(nq_engine_at(i), gpus, sizeof gpus)) {
            printf("engine %s:\n", nq_engine_name(nq_engine_at(i)));
            for (char *line = strtok(gpus, "\n"); line;
                 line = strtok(NULL, "\n"))
                printf("  %s\n", line);
        }
}

const char *cli_strerror(nq_status st, char *buf, size_t size)
{
    char device[192];
    if (st == NQ_ERR_DEVICE && nq_device_error(device, sizeof device))
        snprintf(buf, size, "%s (%s)", nq_strerror(st), device);
    else
        snprintf(buf, size, "%s", nq_strerror(st));
    return buf;
}

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

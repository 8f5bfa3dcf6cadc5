/*
 * options.c - parsing a command's options and arguments strictly.
 *
 * Options go through getopt_long, so they behave as in every GNU tool:
 * short forms (-e, -t, -q, -l, -f, -j, -h), bundling (-qt2), --opt=value
 * and --opt value, options before or after the board, and -- to end them.
 * Bad input must never turn into a wrong run: an unknown option, a
 * forgotten value, an argument too many are each refused with a message
 * that says what was given (values.c checks the values themselves).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

int cli_is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9');
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
        char letter = cli_short_form(specs[k].name);
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
        if (c == LONG_BASE + k ||
            (c < LONG_BASE && c == cli_short_form(specs[k].name)))
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
            cli_print_help(help, specs);
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
        char letter = cli_short_form(specs[k].name);
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
    if (cli_describing == CLI_DESCRIBE_OPTIONS)
        return describe_options(specs, pos, max_pos, npos);
    if (cli_describing) {
        cli_man_command(help, specs);
        return CLI_HELP_SHOWN;
    }
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

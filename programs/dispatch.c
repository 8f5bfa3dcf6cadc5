/*
 * dispatch.c - the nqueens command line: dispatch to a command.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char main_intro[] = N_(
    "usage: nqueens COMMAND [options] [arguments]\n"
    "\n"
    "Count and list the solutions of the N-Queens problem, with every\n"
    "classic algorithm from brute force to symmetry elimination.\n"
    "\n"
    "commands:\n");

static const char main_outro[] = N_(
    "\n"
    "  nqueens help COMMAND      the options of one command (also\n"
    "                            nqueens COMMAND --help)\n"
    "  nqueens --version         the version and the kernels\n"
    "\n"
    "exit status: 0 done, 1 the run failed (I/O, a failed check), 2 bad\n"
    "usage or input, 130/143 stopped by SIGINT/SIGTERM (the journal kept).\n");

/* The commands: `nqueens --help` is made from this table. */
static const struct {
    const char *name, *args, *summary;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"count", "N|A-B", N_("count solutions: total and unique, one row per N"),
     cmd_count},
    {"solve", "N", N_("list the solutions, in several board formats"),
     cmd_solve},
    {"engines", "", N_("list the engines (algorithms) and what they teach"),
     cmd_engines},
    {"units", "N", N_("list the work units a count of N is split into"),
     cmd_units},
    {"estimate", "N|A-B", N_("how long a count would take here, measured"),
     cmd_estimate},
    {"merge", "J...", N_("the count from the journals of a split run"),
     cmd_merge},
    {"verify", "J...", N_("recount a sample of journals' units to check them"),
     cmd_verify},
    {"tree", "N", N_("draw the search tree an engine walks"), cmd_tree},
    {"trace", "N", N_("print an engine's search step by step"), cmd_trace},
    {"compare", "N", N_("every engine on one board: time, nodes, speed-up"),
     cmd_compare},
    {"find", "N", N_("one solution, for boards up to 10^8"), cmd_find},
    {"complete", "N", N_("the solutions extending queens given in advance"),
     cmd_complete},
};
#define COMMANDS (sizeof commands / sizeof commands[0])

static void print_main_help(void)
{
    fputs(_(main_intro), stdout);
    for (size_t i = 0; i < COMMANDS; i++) {
        char head[32];
        snprintf(head, sizeof head, "%s %s", commands[i].name,
                 commands[i].args);
        printf("  %-16s%s\n", head, _(commands[i].summary));
    }
    fputs(_(main_outro), stdout);
}

/* The main page: for --help, -h and `help` alone, and for help's own
 * help (`help help`, `help --help`), which is this page. */
static int asks_main_help(int argc, char **argv)
{
    const char *cmd = argv[1], *topic = argc > 2 ? argv[2] : NULL;
    int help = !strcmp(cmd, "help");
    return !strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
           (help && (!topic || !strcmp(topic, "help") ||
                     !strcmp(topic, "--help") || !strcmp(topic, "-h")));
}

/* `help CMD` is `CMD --help`: one page, printed by the command. */
static int run_command(const char *name, int argc, char **argv)
{
    for (size_t i = 0; i < COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return cli_finish_output(commands[i].run(argc, argv));
    if (cli_is_option(name))
        return cli_error(CLI_USAGE, "unknown option '%s' (try 'nqueens "
                         "--help')", name);
    char names[256] = "";
    for (size_t i = 0; i < COMMANDS; i++) {
        strcat(names, i ? ", " : "");
        strcat(names, commands[i].name);
    }
    return cli_error(CLI_USAGE, "unknown command '%s' (commands: %s)", name,
                     names);
}

/* `nqueens --completion [COMMAND]`, what the bash completion asks the
 * program it completes (a developer interface, left out of --help): alone,
 * the commands, one a line, from the table above; with a command, its
 * options and the engines it accepts, from its own option table and
 * engine check (cli_describing).  So the completion cannot lag behind the
 * parser, and a new command or option is completed by itself. */
static int print_completion(int argc, char **argv)
{
    if (argc < 3) {
        for (size_t i = 0; i < COMMANDS; i++)
            puts(commands[i].name);
        return cli_finish_output(CLI_OK);
    }
    for (size_t i = 0; i < COMMANDS; i++)
        if (!strcmp(commands[i].name, argv[2])) {
            cli_describing = CLI_DESCRIBE_OPTIONS;
            int rc = commands[i].run(0, argv + 3);
            if (cli_describe_pending) /* it went on, and checked no engine */
                return cli_error(CLI_FAIL, "--completion: command %s takes "
                                 "--engine but checked none", argv[2]);
            return cli_finish_output(rc == CLI_HELP_SHOWN ? CLI_OK : rc);
        }
    return cli_finish_output(CLI_OK); /* help, or no command: no options */
}

/* Each command's part of the man page (mode CLI_DESCRIBE_MANPAGE) or its
 * synopsis line (CLI_DESCRIBE_SYNOPSIS), printed by cli_parse from the
 * command's own help page and option table; only the command named
 * `only`, if not NULL.  Returns how many were printed. */
static int describe_commands(int mode, const char *only, char **none)
{
    int printed = 0;
    cli_describing = mode;
    for (size_t i = 0; i < COMMANDS; i++)
        if (!only || !strcmp(only, commands[i].name))
            commands[i].run(0, none), printed++;
    cli_describing = 0;
    return printed;
}

/* `nqueens --manpage [PART]`, what the build asks for the man page
 * (mk/manpage.sh; a developer interface, left out of --help): the
 * synopsis, a command's section, the engine table or the kernels, in
 * roff, each from the tables the program itself runs by, so that the man
 * page cannot lag behind them; with no PART, all of them. */
static int print_manpage(int argc, char **argv)
{
    const char *part = argc > 2 ? argv[2] : NULL;
    int all = !part, printed = 0;
    if (all || !strcmp(part, "synopsis"))
        printed += describe_commands(CLI_DESCRIBE_SYNOPSIS, NULL, argv + argc);
    printed += describe_commands(CLI_DESCRIBE_MANPAGE, part, argv + argc);
    if (all || !strcmp(part, "engine-table"))
        cli_man_engines(), printed++;
    if (all || !strcmp(part, "kernels"))
        cli_man_kernels(), printed++;
    if (!printed)
        return cli_error(CLI_USAGE, "--manpage: no part '%s' (parts: "
                         "synopsis, a command, engine-table, kernels)", part);
    return cli_finish_output(CLI_OK);
}

int cli_main(int argc, char **argv)
{
    static char help_flag[] = "--help";
    cli_catch_from_start(argc, argv); /* first: a Ctrl-C at once is said */
    /* The man page and the completion are made from the same tables at
     * build time: English whatever LANG says. */
    if (argc < 2 || (strcmp(argv[1], "--manpage") &&
                     strcmp(argv[1], "--completion")))
        cli_nls_init();
    /* Past `ulimit -f` a write fails with EFBIG, said like a full disk,
     * instead of the signal ending the run mid-line without a word. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2)
        return cli_error(CLI_USAGE, "missing command (try 'nqueens --help')");
    const char *cmd = argv[1];
    if (asks_main_help(argc, argv)) {
        print_main_help();
        return cli_finish_output(CLI_OK);
    }
    if (!strcmp(cmd, "--completion"))
        return print_completion(argc, argv);
    if (!strcmp(cmd, "--manpage"))
        return print_manpage(argc, argv);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        cli_print_version("nqueens");
        return cli_finish_output(CLI_OK);
    }
    int rc = cli_kernel_from_environment();
    if (rc != CLI_OK)
        return rc;
    if (!strcmp(cmd, "help")) {
        char *args[] = {help_flag, NULL};
        return run_command(argv[2], 1, args);
    }
    return run_command(cmd, argc - 2, argv + 2);
}

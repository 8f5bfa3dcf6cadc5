/*
 * main.c - the nqueens command line: dispatch to a command.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char main_help[] =
    "usage: nqueens COMMAND [arguments]\n"
    "\n"
    "Count and list the solutions of the N-Queens problem, with every\n"
    "classic algorithm from brute force to symmetry elimination.\n"
    "\n"
    "commands:\n"
    "  count N|A-B     count solutions: total and unique, one row per N\n"
    "  solve N         list the solutions, in several board formats\n"
    "  engines         list the engines (algorithms) and what they teach\n"
    "  units N         list the work units a count of N is split into\n"
    "  merge J...      the count from the journals of a split run\n"
    "\n"
    "  nqueens COMMAND --help    options of one command\n"
    "  nqueens --version         the version\n";

static const char engines_help[] =
    "usage: nqueens engines\n"
    "\n"
    "List the engines: name, the largest N each takes, whether it can list\n"
    "solutions, and what it does.\n";

int cmd_engines(int argc, char **argv)
{
    static const cli_spec none[] = {{NULL, NULL, NULL}};
    int npos, rc = cli_parse("engines", engines_help, none, argc, argv, NULL,
                             0, &npos);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    printf("%-10s %5s  %-5s  %s\n", "engine", "max N", "lists", "what it does");
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        printf("%-10s %5d  %-5s  %s\n", nq_engine_name(e), nq_engine_max_n(e),
               nq_engine_caps(e) & NQ_CAP_ENUMERATE ? "yes" : "no",
               nq_engine_summary(e));
    }
    return CLI_OK;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"count", cmd_count},
    {"solve", cmd_solve},
    {"engines", cmd_engines},
    {"units", cmd_units},
    {"merge", cmd_merge},
    {"tree", cmd_tree},
    {"trace", cmd_trace},
    {"compare", cmd_compare},
    {"find", cmd_find},
    {"complete", cmd_complete},
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_error(CLI_USAGE, "missing command (try 'nqueens --help')");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return cli_finish_output(CLI_OK);
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        cli_print_version("nqueens");
        return cli_finish_output(CLI_OK);
    }
    int rc = cli_kernel_from_environment();
    if (rc != CLI_OK)
        return rc;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, cmd) == 0)
            return cli_finish_output(commands[i].run(argc - 2, argv + 2));
    if (cli_is_option(cmd))
        return cli_error(CLI_USAGE, "unknown option '%s' (try 'nqueens "
                         "--help')", cmd);
    char names[256] = "";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        strcat(names, i ? ", " : "");
        strcat(names, commands[i].name);
    }
    return cli_error(CLI_USAGE, "unknown command '%s' (commands: %s)", cmd,
                     names);
}

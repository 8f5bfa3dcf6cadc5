/*
 * engines.c - `nqueens engines`: the engines, what each takes and does.
 */
#include <stdio.h>

#include "../cli.h"

static const char engines_help[] =
    "usage: nqueens engines [--json]\n"
    "\n"
    "List the engines: name, the largest N each takes, whether it can list\n"
    "solutions, and what it does.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens engines\n"
    "  nqueens engines --json\n";

int cmd_engines(int argc, char **argv)
{
    int json = 0;
    const cli_spec specs[] = {
        {.name = "--json", .flag = &json,
         .help = "one object per engine (engine, max_n, lists, units, "
                 "events, summary)"},
        {0},
    };
    int npos, rc = cli_parse("engines", engines_help, specs, argc, argv, NULL,
                             0, &npos);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if (!json)
        printf("%-10s %5s  %-5s  %s\n", "engine", "max N", "lists",
               "what it does");
    for (int i = 0; i < nq_engine_count(); i++) {
        const nq_engine *e = nq_engine_at(i);
        unsigned caps = nq_engine_caps(e);
        if (json) {
            fputs("{\"engine\":", stdout);
            cli_json_string(stdout, nq_engine_name(e));
            printf(",\"max_n\":%d,\"lists\":%s,"
                   "\"units\":%s,\"events\":%s,\"summary\":",
                   nq_engine_max_n(e),
                   caps & NQ_CAP_ENUMERATE ? "true" : "false",
                   caps & NQ_CAP_UNITS ? "true" : "false",
                   caps & NQ_CAP_EVENTS ? "true" : "false");
            cli_json_string(stdout, nq_engine_summary(e));
            fputs("}\n", stdout);
        } else {
            printf("%-10s %5d  %-5s  %s\n", nq_engine_name(e),
                   nq_engine_max_n(e), caps & NQ_CAP_ENUMERATE ? "yes" : "no",
                   nq_engine_summary(e));
        }
    }
    return CLI_OK;
}

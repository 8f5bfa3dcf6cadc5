/*
 * engines.c - `nqueens engines`: the engines, what each takes and does.
 */
#include <stdio.h>

#include "../cli.h"

static const char engines_help[] = N_(
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
    "  nqueens engines --json\n");

int cmd_engines(int argc, char **argv)
{
    int json = 0;
    const cli_spec specs[] = {
        {.name = "--json", .flag = &json,
         .help = N_("one object per engine (engine, max_n, lists, units, "
                    "events, summary)")},
        {0},
    };
    int npos, rc = cli_parse("engines", engines_help, specs, argc, argv, NULL,
                             0, &npos);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    /* TRANSLATORS: the headings of `nqueens engines`: the engine's name
     * (10 columns), the largest board (5), whether it lists solutions (5:
     * "yes" or "no"), its summary (which stays English: the library's) */
    const char *head[] = {_("engine"), _("max N"), _("lists"),
                          _("what it does")};
    if (!json)
        printf("%-*s %*s  %-*s  %s\n", cli_field(head[0], 10), head[0],
               cli_field(head[1], 5), head[1], cli_field(head[2], 5),
               head[2], head[3]);
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
            const char *lists = caps & NQ_CAP_ENUMERATE ? _("yes") : _("no");
            printf("%-10s %5d  %-*s  %s\n", nq_engine_name(e),
                   nq_engine_max_n(e), cli_field(lists, 5), lists,
                   nq_engine_summary(e));
        }
    }
    return CLI_OK;
}

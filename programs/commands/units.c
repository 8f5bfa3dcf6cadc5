/*
 * units.c - `nqueens units N`: the work units of a unit engine.
 */
#include <stdio.h>

#include "../cli.h"

static const char units_help[] =
    "usage: nqueens units N [--engine NAME] [--json]\n"
    "\n"
    "List the work units a count of N is split into, one per line: the\n"
    "unit's id, then its pre-placed queens (row:column, from 0) and its\n"
    "weight (how many solutions of the whole board each solution found in\n"
    "the unit stands for).  The list is deterministic: the same on every\n"
    "machine and in every run, which is what lets threads, checkpoints and\n"
    "split runs share it.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens units 8\n"
    "  nqueens units 16 --engine carry\n";

int cmd_units(int argc, char **argv)
{
    const char *engine = nq_default_count_engine();
    int n, hi, rc, json = 0;
    const cli_spec specs[] = {
        {.name = "--engine", .value = &engine, .arg = "NAME",
         .help = "an engine that splits the board into units (default: "
                 "the count's, fast; carry's plan is made in minutes and "
                 "lists gigabytes from N = 20): {units}"},
        {.name = "--json", .flag = &json,
         .help = "one object per unit (n, engine, unit, queens)"},
        {0},
    };
    rc = cli_parse_board("units", units_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = cli_check_engine(engine, n, n, NQ_CAP_UNITS)) != CLI_OK)
        return rc;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = engine};
    nq_plan *plan;
    nq_status st = nq_plan_create(&req, &plan);
    char units[256];
    if (st == NQ_ERR_UNSUPPORTED)
        return cli_error(CLI_USAGE, "engine '%s' does not split the board "
                         "into units (engines that do: %s)", engine,
                         cli_engines_with(NQ_CAP_UNITS, units, sizeof units));
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "units %d: %s", n, nq_strerror(st));
    uint64_t count = nq_plan_units(plan);
    if (!json)
        printf("# %llu units of engine %s for N=%d: id, pre-placed queens "
               "(row:column), weight\n", (unsigned long long)count, engine, n);
    for (uint64_t i = 0; i < count; i++) {
        char text[512];
        nq_plan_describe(plan, i, text, sizeof text);
        if (json) {
            printf("{\"n\":%d,\"engine\":", n);
            cli_json_string(stdout, engine);
            printf(",\"unit\":%llu,\"queens\":", (unsigned long long)i);
            cli_json_string(stdout, text);
            fputs("}\n", stdout);
        } else {
            printf("%llu\t%s\n", (unsigned long long)i, text);
        }
    }
    nq_plan_free(plan);
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "units: cannot write the output");
    return CLI_OK;
}

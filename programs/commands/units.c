/*
 * units.c - `nqueens units N`: the work units of a unit engine.
 */
#include <stdio.h>

#include "../cli.h"

static const char units_help[] = N_(
    "usage: nqueens units N [--engine NAME] [--max-unit-seconds S] [--json]\n"
    "\n"
    "List the work units a count of N is split into, one per line: the\n"
    "unit's id, then its pre-placed queens (row:column, from 0) and its\n"
    "weight (how many solutions of the whole board each solution found in\n"
    "the unit stands for), then, for engines that estimate them, its\n"
    "estimated seconds on the plan's reference core.  A unit estimated\n"
    "over --max-unit-seconds is listed as its pieces: more queens placed,\n"
    "and the columns the next row may take ('| row R in 3,4,7').  The\n"
    "list is deterministic: the same on every machine and in every run,\n"
    "which is what lets threads, checkpoints and split runs share it.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens units 8\n"
    "  nqueens units 16 --engine carry\n"
    "  nqueens units 18 --max-unit-seconds 0.0001\n");

/* One unit: its words, and its estimate where the engine has one. */
static void print_unit(const nq_plan *plan, int n, const char *engine,
                       uint64_t i, int json)
{
    char text[512];
    double sec = nq_plan_unit_seconds(plan, i);
    nq_plan_describe(plan, i, text, sizeof text);
    if (!json) {
        printf("%llu\t%s", (unsigned long long)i, text);
        printf(sec >= 0 ? "\t%.3g s\n" : "\n", sec);
        return;
    }
    printf("{\"n\":%d,\"engine\":", n);
    cli_json_string(stdout, engine);
    printf(",\"unit\":%llu,\"queens\":", (unsigned long long)i);
    cli_json_string(stdout, text);
    fputs(",\"seconds\":", stdout);
    if (sec >= 0)
        cli_json_number(stdout, sec);
    else
        fputs("null", stdout);
    fputs("}\n", stdout);
}

int cmd_units(int argc, char **argv)
{
    const char *engine = nq_default_count_engine(), *max_unit = NULL;
    int n, hi, rc, json = 0;
    const cli_spec specs[] = {
        {.name = "--engine", .value = &engine, .arg = "NAME",
         .help = N_("an engine that splits the board into units (default: "
                    "the count's, fast; carry's plan is made in minutes and "
                    "lists gigabytes from N = 20): {units}")},
        CLI_SPEC_MAX_UNIT_SECONDS(&max_unit),
        {.name = "--json", .flag = &json,
         .help = N_("one object per unit (n, engine, unit, queens, seconds: "
                    "the estimate, null where none)")},
        {0},
    };
    rc = cli_parse_board("units", units_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = cli_check_engine(engine, n, n, NQ_CAP_UNITS)) != CLI_OK)
        return rc;
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = engine};
    if ((rc = cli_parse_unit_seconds(max_unit, &req.max_unit_seconds)))
        return rc;
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
        printf("# %llu units of engine %s for N=%d (plan %s): id, pre-placed "
               "queens (row:column), weight, estimated seconds\n",
               (unsigned long long)count, engine, n, nq_plan_split(plan));
    for (uint64_t i = 0; i < count; i++)
        print_unit(plan, n, engine, i, json);
    nq_plan_free(plan);
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "units: cannot write the output");
    return CLI_OK;
}

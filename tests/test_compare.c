/*
 * test_compare.c - the compare command: every engine on one board, side by
 * side, agreeing on the counts.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* compare: a row per engine, the counts agreed and right. */
static void compare_table(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("compare", "8", "--budget", "1"));
    T_BAIL();
    int agreed = strstr(p.out, "agrees: 92 solutions, 12 unique") != NULL;
    int missing = -1;
    for (int i = 0; i < nq_engine_count() && missing < 0; i++) {
        char row[32];
        const char *name = nq_engine_name(nq_engine_at(i));
        snprintf(row, sizeof row, "\n%-10s ", name);
        if (strcmp(name, "cuda") != 0 && !strstr(p.out, row))
            missing = i;
    }
    t_proc_free(&p);
    CHECK(agreed);
    CHECKF(missing < 0, "no row for %s", nq_engine_name(nq_engine_at(missing)));
}

/* compare has one test: its table. */
void tests_compare(void)
{
    t_case(compare_table, NULL, "compare/table");
}

/*
 * test_record_rows.c - the rows a record hunter reads: `merge` of a
 * journal for N = 23..27, made up here so that its units add up to the
 * OEIS counts (A000170, A002562) without a week of counting, prints the
 * total and the unique count as separate numbers under their headings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../src/engines/engine.h"
#include "../src/journal/journal_format.h"

/* A whole journal of fast's plan for n whose records the plan allows and
 * whose sum is T = the OEIS total, with P = 8U - T solutions fixed by the
 * half turn and R = 0 (so that Burnside's (T + P + 2R) / 8 is U): all of
 * T on the first ring unit whose orbit sizes allow it.  0 on failure. */
static int synthetic_journal(const char *path, int n)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = "fast"};
    nq_plan *plan;
    if (nq_plan_create(&req, &plan) != NQ_OK)
        return 0;
    nq_journal_header h = {.version = NQ_JOURNAL_VERSION, .n = n,
                           .engine = "fast",
                           .units = nq_plan_units(plan),
                           .identity = nq_plan_identity(plan), .part = 1,
                           .parts = 1, .key = {0x5eed, 0xf00d}};
    snprintf(h.plan, sizeof h.plan, "%s", nq_plan_split(plan));
    nq_u128 total = t_oeis_total(n), p = 8 * t_oeis_unique(n) - total;
    char line[NQ_JOURNAL_LINE_MAX];
    FILE *f = fopen(path, "wb");
    int placed = 0;
    if (f) {
        nq_jf_header_line(line, sizeof line, &h);
        fputs(line, f);
    }
    for (uint64_t u = 0; f && u < h.units; u++) {
        nq_tally t = {.fixed180 = u == 0 ? p : 0};
        if (u >= 2 && !placed) {
            t.total = total;
            placed = nq_plan_record_flaw(plan, u, &t) == NULL;
            t.total = placed ? total : 0;
        }
        nq_jf_record_line(line, sizeof line, &h, u, &t);
        fputs(line, f);
    }
    nq_plan_free(plan);
    return f && fclose(f) == 0 && placed;
}

/* The column where `word` ends in line, or -1. */
static long end_of(const char *line, const char *word)
{
    const char *at = strstr(line, word);
    return at ? (long)(at - line) + (long)strlen(word) : -1;
}

static void merged_row(void *arg)
{
    int n = *(const int *)arg;
    char path[64], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    snprintf(path, sizeof path, "/tmp/nq-rows-%d-%d.journal", (int)getpid(),
             n);
    CHECK(n <= t_oeis_max);
    CHECK(synthetic_journal(path, n));
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", path)) == 0);
    unlink(path);
    nq_format_u128(t_oeis_total(n), total);
    nq_format_u128(t_oeis_unique(n), unique);
    const char *row = strchr(p.out, '\n');
    char got[2][64];
    int k = -1;
    int ok = p.exit_code == 0 && row &&
             sscanf(row + 1, "%d: %63s %63s", &k, got[0], got[1]) == 3 &&
             k == n && !strcmp(got[0], total) && !strcmp(got[1], unique);
    int aligned = ok && end_of(p.out, "Total") == end_of(row + 1, total) &&
                  end_of(p.out, "Unique") == end_of(row + 1, unique);
    char shown[256];
    snprintf(shown, sizeof shown, "%s", p.out);
    t_proc_free(&p);
    CHECKF(ok, "merge printed no row '%d: %s %s':\n%s", n, total, unique,
           shown);
    CHECKF(aligned, "the numbers do not end under their headings:\n%s",
           shown);
}

void tests_record_rows(void)
{
    static const int sizes[] = {23, 24, 25, 26, 27};
    for (int i = 0; i < 5; i++)
        t_case(merged_row, (void *)&sizes[i],
               "rows/merge-of-a-synthetic-journal-prints-N=%d", sizes[i]);
}

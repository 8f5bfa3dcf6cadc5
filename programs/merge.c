/*
 * merge.c - `nqueens merge J1 J2 ...`: the count from the journals of a
 * split (or interrupted, or repeated) run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char merge_help[] =
    "usage: nqueens merge JOURNAL... [--verify [--sample P | --all]] [--json]\n"
    "\n"
    "Combine the journals of one count (the parts of a split run, copies,\n"
    "or the journal of an interrupted run) and print the count's row once\n"
    "every unit is covered.  A unit recorded with different counts in two\n"
    "journals, or journals of different counts, are refused; missing units\n"
    "are listed.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens merge p1 p2 p3\n"
    "  nqueens merge n23.part* --json\n"
    "  nqueens merge --verify n23.part*\n";

/* "a, b-c, ..." of the first missing units (runs of them), to stderr. */
static void list_missing(const unsigned char *done, uint64_t units)
{
    enum { SHOW = 12 };
    int shown = 0;
    for (uint64_t u = 0; u < units; u++) {
        if (done[u / 8] >> (u % 8) & 1)
            continue;
        if (shown == SHOW) { /* one more run than shown: say so */
            fputs(", ...", stderr);
            break;
        }
        uint64_t v = u;
        while (v + 1 < units && !(done[(v + 1) / 8] >> ((v + 1) % 8) & 1))
            v++;
        fprintf(stderr, v > u ? "%s%llu-%llu" : "%s%llu", shown ? ", " : "",
                (unsigned long long)u, (unsigned long long)v);
        shown++;
        u = v;
    }
    fputc('\n', stderr);
}

/* merge --verify: the recount first; the sum only if it agrees. */
static int merge_verified(const char **pos, int npos, const char *sample,
                          int all, int json)
{
    cli_verify_args a = {.json = json};
    int rc = cli_verify_options(sample, all, NULL, NULL, &a);
    return rc == CLI_OK ? cli_verify_journals(pos, npos, &a) : rc;
}

int cmd_merge(int argc, char **argv)
{
    int json = 0, verify = 0, all = 0, npos, rc;
    const char *sample = NULL, **pos;
    const cli_spec specs[] = {
        {.name = "--verify", .flag = &verify,
         .help = "first recount units as 'nqueens verify' does (a random "
                 "sample, the records that stand out by size, the fixed "
                 "points), on the CPU, and add up only if every recount "
                 "agrees with its record"},
        {.name = "--sample", .value = &sample, .arg = "P",
         .help = "the sample for --verify: P percent of the recorded units, "
                 "at least 16 (default: 1)"},
        {.name = "--all", .flag = &all,
         .help = "the sample for --verify: every recorded unit"},
        {.name = "--json", .flag = &json,
         .help = "the count as one JSON object: n, total, unique, nodes, "
                 "engine, threads (the most any run of the journals used; "
                 "null if they recorded none), seconds; no kernel (merge "
                 "counts nothing itself)"},
        {0},
    };
    rc = cli_parse_journals("merge", merge_help, "JOURNAL... [--verify] "
                            "[--json]", specs, argc, argv, &pos, &npos);
    if (rc == CLI_OK && (sample || all) && !verify)
        rc = cli_error(CLI_USAGE, "%s chooses the sample of --verify; add "
                       "--verify", sample ? "--sample" : "--all");
    if (rc == CLI_OK && verify)
        rc = merge_verified(pos, npos, sample, all, json);
    if (rc != CLI_OK) {
        free(pos);
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    }
    nq_journal_header h;
    nq_journal_state s;
    nq_counts c;
    unsigned char *done;
    char why[4096] = "";
    volatile sig_atomic_t *stop = cli_catch_stop_signals("merge");
    cli_stop_waits(1); /* reading and planning watch the flag */
    nq_status st = nq_journal_merge_ext(pos, npos, stop, &h, &s, &done, &c,
                                        why, sizeof why);
    free(pos);
    if (st == NQ_ERR_STOPPED)
        return cli_report_stopped();
    if (st != NQ_OK) /* a journal of another format is bad input */
        return cli_error(st == NQ_ERR_VERSION ? CLI_USAGE : CLI_FAIL, "%s",
                         why[0] ? why : nq_strerror(st));
    if (s.units_done < h.units) { /* one line, the crash note folded in */
        cli_clear_progress();
        fprintf(stderr, "nqueens: N=%d engine %s: %llu of %llu units "
                "missing%s: ", h.n, h.engine,
                (unsigned long long)(h.units - s.units_done),
                (unsigned long long)h.units, s.dropped_tail
                ? " (a journal ends with a half-written line: a crash)" : "");
        list_missing(done, h.units);
        free(done);
        return CLI_FAIL;
    }
    free(done);
    if (s.dropped_tail) /* harmless once every unit is there */
        fprintf(stderr, "nqueens: warning: a journal ends with a half-written "
                "line (a crash); its unit was found in another journal\n");
    /* the time and the most threads the journals' runs recorded (none in
     * journals older than run lines: null); no kernel, for none ran here */
    cli_count_table t = cli_count_table_for(h.n, json);
    cli_print_counts(&t, h.n, &c, h.engine, NULL, s.threads, s.seconds);
    return CLI_OK;
}

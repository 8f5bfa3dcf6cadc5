/*
 * merge.c - `nqueens merge J1 J2 ...`: the count from the journals of a
 * split (or interrupted, or repeated) run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

static const char merge_help[] = N_(
    "usage: nqueens merge JOURNAL... [--list FILE] [--output FILE] [options]\n"
    "       nqueens merge --verified JOURNAL... VERDICT... [--json]\n"
    "\n"
    "Combine the journals of one count (the parts of a split run, copies,\n"
    "or the journal of an interrupted run) and print the count's row once\n"
    "every unit is covered.  A unit recorded with different counts in two\n"
    "journals, or journals of different counts, are refused; missing units\n"
    "are listed.  With --output the journals' union is also written as one\n"
    "journal, which a later merge takes like any other: merge a record\n"
    "run's parts in groups, then the groups' journals.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens merge --verify n23.part*\n"
    "  nqueens merge --list parts.txt -o n23.all\n"
    "  nqueens merge --verified n27.part* n27.verdict*\n");

static int bit(const unsigned char *set, uint64_t u)
{
    return set[u / 8] >> (u % 8) & 1;
}

/* "a, b-c, ..." of the first missing units (runs of them) that are not
 * in a whole part listed already (whole[k]: part k+1 of m is missing),
 * to stderr after `sep`. */
static void list_missing(const unsigned char *done, uint64_t units,
                         const unsigned char *whole, uint32_t m,
                         const char *sep)
{
    enum { SHOW = 12 };
    int shown = 0;
    for (uint64_t u = 0; u < units; u++) {
        if (bit(done, u) || (whole && whole[u % m]))
            continue;
        if (shown == SHOW) { /* one more run than shown: say so */
            fputs(", ...", stderr);
            break;
        }
        uint64_t v = u;
        while (v + 1 < units && !bit(done, v + 1) &&
               !(whole && whole[(v + 1) % m]))
            v++;
        fprintf(stderr, v > u ? "%s%llu-%llu" : "%s%llu", shown ? ", " : sep,
                (unsigned long long)u, (unsigned long long)v);
        shown++;
        u = v;
    }
}

/* Which parts of m (the journals' split) are missing whole, into
 * whole[]; how many.  A part with no unit of it recorded is one no
 * journal given holds: naming it says which task to run, where its
 * units listed one by one would be a thousand numbers. */
static uint32_t whole_parts(const unsigned char *done, uint64_t units,
                            uint32_t m, unsigned char *whole)
{
    uint32_t k = 0;
    memset(whole, 1, m);
    for (uint64_t u = 0; u < units; u++)
        if (bit(done, u))
            whole[u % m] = 0;
    for (uint32_t p = 0; p < m; p++)
        k += whole[p] && p < units;
    return k;
}

/* The parts missing whole named at most: the others are counted. */
#define SHOW_PARTS 12

/* The missing units, one line on stderr: the parts missing whole by
 * name (the first SHOW_PARTS), then the others by number. */
static void say_missing(const cli_merged *m)
{
    uint32_t parts = m->h.parts > 1 ? m->h.parts : 0, k = 0;
    unsigned char *whole = parts ? calloc(parts, 1) : NULL;
    if (whole)
        k = whole_parts(m->done, m->h.units, parts, whole);
    cli_clear_progress();
    fprintf(stderr, "nqueens: N=%d engine %s: %llu of %llu units missing%s",
            m->h.n, m->h.engine,
            (unsigned long long)(m->h.units - m->s.units_done),
            (unsigned long long)m->h.units, m->s.dropped_tail & 1
            ? " (a journal ends with a half-written record: a crash)" : "");
    const char *sep = ": ";
    uint32_t named = 0;
    for (uint32_t p = 0; whole && p < parts && named < SHOW_PARTS; p++)
        if (whole[p] && p < m->h.units) {
            fprintf(stderr, "%spart %u/%u", sep, p + 1, parts);
            sep = ", ", named++;
        }
    if (named < k) /* a record run's thousands: one line still */
        fprintf(stderr, ", ... (%u parts in all)", k);
    if (k)
        fprintf(stderr, " (no journal of %s given)", k > 1 ? "them" : "it");
    if (m->h.units - m->s.units_done > (uint64_t)0)
        list_missing(m->done, m->h.units, k ? whole : NULL, parts,
                     k ? "; and units " : ": ");
    fputc('\n', stderr);
    free(whole);
}

/* What merge prints of the journals read: the missing units (exit 1),
 * or the count's row. */
static int print_merged(const cli_merged *m, int json)
{
    if (m->s.units_done < m->h.units) {
        say_missing(m);
        return CLI_FAIL;
    }
    if (m->s.dropped_tail) /* harmless once every unit is there */
        fprintf(stderr, "nqueens: warning: %s\n", m->s.dropped_tail & 1
                ? "a journal ends with a half-written record (a crash); its "
                  "unit was found in another journal"
                : "a journal ends with a half-written run line (a crash as "
                  "its run ended): that run's time is not in the sum");
    /* the time and the most threads the journals' runs recorded (none in
     * journals older than run lines: null); no kernel, for none ran here */
    cli_count_table t = cli_count_table_for(m->h.n, json);
    cli_print_counts(&t, m->h.n, &m->c, m->h.engine, NULL, m->s.threads,
                     m->s.seconds);
    return CLI_OK;
}

/* merge --verify: the recount first, then the sum of the reading it
 * checked, only if every recount agrees. */
static int merge_verified(const char **pos, int npos, const char *sample,
                          int all, int json)
{
    cli_verify_args a = {.json = json};
    cli_merged m = {.done = NULL};
    int rc = cli_verify_options(sample, all, NULL, NULL, NULL, &a);
    if (rc == CLI_OK && (rc = cli_verify_journals(pos, npos, &a, &m)) ==
        CLI_OK)
        rc = print_merged(&m, json);
    free(m.done);
    return rc;
}

/* What merge -o says of a combined journal that does not cover every
 * unit yet (a stage of a staged merge): no row, its units, exit 0. */
static int print_staged(const cli_merged *m, const char *output)
{
    printf("N=%d plan %s: %llu of %llu units in %s; merge it with the "
           "journals of the rest\n", m->h.n, m->h.plan,
           (unsigned long long)m->s.units_done,
           (unsigned long long)m->h.units, output);
    return CLI_OK;
}

/* The journals read, and with -o their union written; printed. */
static int merge_plain(const char **pos, int npos, const char *output,
                       int json)
{
    cli_merged m = {.done = NULL};
    char why[4096] = "";
    volatile sig_atomic_t *stop = cli_catch_stop_signals("merge");
    cli_stop_waits(1); /* reading and planning watch the flag */
    nq_status st = nq_journal_merge_into(pos, npos, output, stop, &m.h, &m.s,
                                         &m.done, &m.c, why, sizeof why);
    if (st == NQ_ERR_STOPPED)
        return cli_report_stopped();
    /* a journal of another format, or an output that is an input: bad
     * input */
    if (st != NQ_OK)
        return cli_error(st == NQ_ERR_VERSION || st == NQ_ERR_ARG ? CLI_USAGE
                         : CLI_FAIL, "%s", why[0] ? why : nq_strerror(st));
    int rc = output && m.s.units_done < m.h.units ? print_staged(&m, output)
                                                  : print_merged(&m, json);
    free(m.done);
    return rc;
}

/* 1 if the file at path begins as a part's verdict does (verify
 * --output), not as a journal. */
static int is_verdict(const char *path)
{
    static const char magic[] = "nqueens-verdict ";
    char head[sizeof magic] = "";
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof magic - 1, f) : 0;
    if (f)
        fclose(f);
    return got == sizeof magic - 1 && !memcmp(head, magic, got);
}

/* merge --verified: the parts' verdicts put together with the journals
 * (the files named, told apart by their first line), then the sum of
 * the journals, only if the check is complete and all agree. */
static int merge_parts(const char **pos, int npos, int json)
{
    const char **verdicts = malloc((size_t)npos * sizeof *verdicts);
    const char **journals = malloc((size_t)npos * sizeof *journals);
    int nv = 0, nj = 0, rc = CLI_OK;
    for (int i = 0; verdicts && journals && i < npos; i++)
        if (is_verdict(pos[i]))
            verdicts[nv++] = pos[i];
        else
            journals[nj++] = pos[i];
    if (!verdicts || !journals)
        rc = cli_error(CLI_FAIL, "out of memory");
    else if (!nv || !nj)
        rc = cli_error(CLI_USAGE, "--verified takes the journals and the "
                       "parts' verdicts ('verify --part K/M --seed S "
                       "--output FILE'); %s", nv ? "no journal given" :
                       "no verdict given");
    cli_merged m = {.done = NULL};
    nq_verify_report r;
    char why[4096] = "";
    nq_verify_options o = {.stop = cli_catch_stop_signals("merge")};
    cli_stop_waits(1);
    nq_status st = rc != CLI_OK ? NQ_OK :
        nq_journal_verify_combine(journals, nj, verdicts, nv, &o, &m.h, &r,
                                  &m.s, &m.done, &m.c, why, sizeof why);
    if (rc == CLI_OK && st == NQ_ERR_STOPPED)
        rc = cli_report_stopped();
    else if (rc == CLI_OK && st != NQ_OK)
        rc = cli_error(CLI_FAIL, "merge --verified: %s",
                       why[0] ? why : nq_strerror(st));
    if (rc == CLI_OK)
        cli_print_parts(&m.h, &r, "verified", json);
    if (rc == CLI_OK)
        rc = print_merged(&m, json);
    free(m.done), free(verdicts), free(journals);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    int json = 0, verify = 0, verified = 0, all = 0, npos, rc;
    const char *sample = NULL, *list = NULL, *output = NULL, **pos;
    const cli_spec specs[] = {
        {.name = "--list", .value = &list, .arg = "FILE",
         .help = CLI_LIST_HELP},
        {.name = "--output", .value = &output, .arg = "FILE",
         .help = N_("also write the journals' union to FILE as one journal "
                    "(part 1/1, a key of its own, each unit once, their runs' "
                    "time), which merge, verify and count --checkpoint read "
                    "like any other: a staged merge.  Written whole or not at "
                    "all (a temporary file beside it, renamed into place); "
                    "never one of the journals.  With units missing it is "
                    "written all the same, and exit status 0 says so, with "
                    "its units instead of the row")},
        {.name = "--verify", .flag = &verify,
         .help = N_("first recount units as 'nqueens verify' does (a random "
                    "sample, the records that stand out by size, the fixed "
                    "points), on the CPU, and add up only if every recount "
                    "agrees with its record")},
        {.name = "--sample", .value = &sample, .arg = "P",
         .help = N_("the sample for --verify: P percent of the recorded units, "
                    "at least 16 (default: 1)")},
        {.name = "--all", .flag = &all,
         .help = N_("the sample for --verify: every recorded unit")},
        {.name = "--verified", .flag = &verified,
         .help = N_("put the verdicts of a check run in parts ('verify --part "
                    "K/M --seed S --output FILE', named among the journals) "
                    "together with the journals, and add up only if every part "
                    "is there once, all chose the same units from these "
                    "journals, each recounted its share, all agree and no "
                    "stratum of the journals' records strays past its bound "
                    "(weighed here, as 'nqueens verify' weighs them)")},
        {.name = "--json", .flag = &json,
         .help = N_("the count as one JSON object: n, total, unique, nodes, "
                    "engine, threads (the most any run of the journals used; "
                    "null if they recorded none), seconds; no kernel (merge "
                    "counts nothing itself)")},
        {0},
    };
    rc = cli_parse_journals("merge", merge_help, "JOURNAL... [--list FILE] "
                            "[--verify] [--json]", specs, argc, argv, &list,
                            &pos, &npos);
    if (rc == CLI_OK && (sample || all) && !verify)
        rc = cli_error(CLI_USAGE, "%s chooses the sample of --verify; add "
                       "--verify", sample ? "--sample" : "--all");
    if (rc == CLI_OK && output && verify)
        rc = cli_error(CLI_USAGE, "--output writes what the journals hold "
                       "as read; verify them first (nqueens verify), or the "
                       "combined journal after");
    if (rc == CLI_OK && output && !output[0])
        rc = cli_error(CLI_USAGE, "--output needs a file name");
    if (rc == CLI_OK && verified && (verify || sample || all || output))
        rc = cli_error(CLI_USAGE, "--verified adds up a check made in parts; "
                       "%s: choose one", verify ? "--verify recounts here" :
                       sample ? "--sample recounts here" : all ?
                       "--all recounts here" : "--output writes a journal");
    if (rc == CLI_OK)
        rc = verified ? merge_parts(pos, npos, json)
             : verify ? merge_verified(pos, npos, sample, all, json)
                      : merge_plain(pos, npos, output, json);
    free(pos);
    return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
}

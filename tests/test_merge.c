/*
 * test_merge.c - merge at a record run's scale (issue 55): journals named
 * in a list (--list FILE, or standard input), a combined journal written
 * whole (--output), staged merges that print what one merge of every
 * journal prints, a combined journal resumed as the whole count it is;
 * and the small costs a job array multiplies: count --part and -q sample
 * no estimate, units lists the count's engine's units.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "../src/journal/journal_format.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The parts of count N split M ways, each its journal part<K>; their
 * paths into path[]. */
static void count_parts(const char *n, int m, const char **path)
{
    for (int k = 0; k < m; k++) {
        char share[16], name[16];
        t_proc p;
        snprintf(share, sizeof share, "%d/%d", k + 1, m);
        snprintf(name, sizeof name, "part%d", k + 1);
        path[k] = t_file(name);
        CHECK(t_run_cli(&p, ARGS("count", n, "--part", share, "-q",
                                 "--checkpoint", path[k])) == 0);
        int ok = p.exit_code == 0;
        t_proc_free(&p);
        CHECKF(ok, "part %s of N=%s did not finish", share, n);
    }
}

/* What a command prints (stdout), which must exit `code` with nothing on
 * stderr if it exits 0; to free. */
static char *output_of(const char *const *args, int code)
{
    t_proc p;
    if (t_run_cli(&p, args) != 0)
        return NULL;
    char *out = p.exit_code == code && (code || !p.err_len) ? p.out : NULL;
    if (!out)
        fprintf(stderr, "%s exited %d: %s", args[0], p.exit_code, p.err);
    p.out = NULL;
    t_proc_free(&p);
    return out;
}

/* --list: paths from a file (blank lines, spaces-only lines left out)
 * after those given as arguments, and from standard input ("-"). */
static void list_file_and_stdin(void *arg)
{
    (void)arg;
    const char *part[3], *list = t_file("list");
    char text[1400], cmd[1600];
    count_parts("12", 3, part);
    T_BAIL();
    snprintf(text, sizeof text, "%s\n\n   \n%s\n", part[0], part[1]);
    write_text(list, text);
    char *out = output_of(ARGS("merge", "--list", list, part[2]), 0);
    int ok = t_row_is_oeis(out, 12);
    free(out);
    CHECKF(ok, "merge --list LIST JOURNAL did not give N=12's row");
    out = output_of(ARGS("merge", "--list", list), 1);
    free(out);
    CHECKF(out, "a list of two of three parts was not refused as "
           "incomplete");
    snprintf(cmd, sizeof cmd, "printf '%%s\\n' '%s' '%s' | \"$NQ_CLI\" merge "
             "--list - '%s'", part[0], part[2], part[1]);
    t_proc p;
    CHECK(t_run_signalled(&p, "sh", ARGS("sh", "-c", cmd), 0, 0) == 0);
    ok = p.exit_code == 0 && t_row_is_oeis(p.out, 12);
    char err[300];
    snprintf(err, sizeof err, "%s", p.err ? p.err : "");
    t_proc_free(&p);
    CHECKF(ok, "merge --list - (standard input): %s", err);
}

/* A list that cannot be read, a line longer than any path or holding a
 * NUL byte: one line naming the list (and the line), exit 1; a list of
 * blank lines alone gives no journal: the usage line, exit 2. */
static void list_refusals(void *arg)
{
    (void)arg;
    const char *missing = t_file("no-such-list"), *long_line = t_file("long"),
               *nul = t_file("nul"), *blanks = t_file("blanks");
    char big[5000];
    memset(big, 'x', sizeof big - 2);
    big[sizeof big - 2] = '\n', big[sizeof big - 1] = '\0';
    write_text(long_line, big);
    FILE *f = fopen(nul, "w");
    CHECK(f);
    fwrite("a\nb\0c\n", 1, 6, f);
    fclose(f);
    write_text(blanks, "\n \n\t\n");
    static const char *const want[4][2] = {
        {"cannot read the list ", "No such file"},
        {" line 1: over 4095 bytes", ""},
        {" line 2 holds a NUL byte", ""},
        {"no journals given (usage: nqueens merge", ""}};
    const char *lists[4] = {missing, long_line, nul, blanks};
    for (int i = 0; i < 4; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, ARGS("merge", "--list", lists[i])) == 0);
        int ok = p.exit_code == (i == 3 ? 2 : 1) && p.out_len == 0 &&
                 strchr(p.err, '\n') == p.err + p.err_len - 1 &&
                 strstr(p.err, want[i][0]) && strstr(p.err, want[i][1]) &&
                 (i == 3 || strstr(p.err, lists[i]));
        char err[600];
        snprintf(err, sizeof err, "exit %d: %s", p.exit_code, p.err);
        t_proc_free(&p);
        CHECKF(ok, "list %d: %s", i, err);
    }
}

/* 1 if the folder holds a file whose name has `part` in it. */
static int folder_has(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        found |= strstr(e->d_name, part) != NULL;
    if (d)
        closedir(d);
    return found;
}

/* -o: the union of the parts and a copy of one, as one journal of the
 * current format (part 1/1, a new key), which merge takes alone to the
 * same output, byte for byte (the copy's time counted once in both), and
 * verify --all finds right; no temporary file is left. */
static void output_read_by_merge_and_verify(void *arg)
{
    (void)arg;
    const char *part[3], *copy = t_file("copy"), *all = t_file("all");
    count_parts("13", 3, part);
    T_BAIL();
    size_t len;
    char *text = t_read_file(part[1], &len);
    CHECK(text);
    write_text(copy, text);
    free(text);
    char *want = output_of(ARGS("merge", part[0], part[1], copy, part[2]), 0);
    char *got = output_of(ARGS("merge", part[0], part[1], copy, part[2],
                               "-o", all), 0);
    int same = want && got && !strcmp(want, got) && t_row_is_oeis(want, 13);
    free(got);
    CHECKF(same, "merge -o printed another row than merge");
    nq_journal_header h;
    CHECK(t_read_journal_header(all, &h));
    CHECKF(h.part == 1 && h.parts == 1 && h.version == 4,
           "the combined journal says part %u/%u, version %d", h.part,
           h.parts, h.version);
    got = output_of(ARGS("merge", all), 0);
    same = got && !strcmp(want, got);
    free(got);
    CHECKF(same, "the combined journal merged alone printed another row");
    got = output_of(ARGS("verify", "--all", "-q", all), 0);
    int agree = got && strstr(got, "all agree");
    free(got);
    free(want);
    CHECKF(agree, "verify --all did not accept the combined journal");
    CHECKF(!folder_has(t_case_dir(), ".partial-"),
           "a temporary file was left beside the combined journal");
}

/* A staged merge (groups of journals each combined with -o, then the
 * groups' journals, and those combined again) prints what one merge of
 * every journal prints, byte for byte, in the table and in JSON: the
 * time column too, which a combined journal's run line carries in whole
 * microseconds. */
static void staged_equals_one_shot(void *arg)
{
    (void)arg;
    const char *part[12], *stage[4], *outer = t_file("outer");
    char name[16];
    count_parts("14", 12, part);
    T_BAIL();
    for (int g = 0; g < 4; g++) {
        snprintf(name, sizeof name, "stage%d", g);
        stage[g] = t_file(name);
        char *out = output_of(ARGS("merge", part[3 * g], part[3 * g + 1],
                                   part[3 * g + 2], "--output", stage[g]), 0);
        int staged = out && strstr(out, " units in ") &&
                     strstr(out, "merge it with the journals of the rest");
        free(out);
        CHECKF(staged, "stage %d did not say what it holds", g);
    }
    char *out = output_of(ARGS("merge", stage[2], stage[3], "-o", outer), 0);
    free(out);
    CHECK(out);
    const char *every[16] = {"merge"}, *staged[6] = {"merge", stage[0],
                                                     stage[1], outer};
    memcpy(every + 1, part, sizeof part);
    for (int json = 0; json < 2; json++) {
        every[13] = staged[4] = json ? "--json" : NULL;
        char *want = output_of(every, 0), *got = output_of(staged, 0);
        int same = want && got && !strcmp(want, got) &&
                   (json || t_row_is_oeis(want, 14));
        char shown[400];
        snprintf(shown, sizeof shown, "%s / %s", want ? want : "",
                 got ? got : "");
        free(want);
        free(got);
        CHECKF(same, "staged and one-shot merges differ: %s", shown);
    }
}

/* A combined journal of parts 1 and 2 of 3 is a whole count not yet
 * finished: count --checkpoint resumes it and counts exactly the units
 * of part 3, each once, to OEIS's row. */
static void combined_resumes_only_the_rest(void *arg)
{
    (void)arg;
    const char *part[3], *combined = t_file("combined");
    count_parts("13", 3, part);
    T_BAIL();
    char *out = output_of(ARGS("merge", part[0], part[1], "-o", combined), 0);
    free(out);
    CHECK(out);
    out = output_of(ARGS("count", "13", "-q", "--checkpoint", combined), 0);
    int right = t_row_is_oeis(out, 13);
    free(out);
    CHECKF(right, "the resumed combined journal did not count N=13");
    size_t len;
    char *text = t_read_file(combined, &len), *save = NULL;
    CHECK(text);
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *plan;
    req.n = 13;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    uint64_t units = nq_plan_units(plan);
    nq_plan_free(plan);
    unsigned char *seen = calloc(units, 1);
    int runs = 0, bad = !seen;
    uint64_t after_run = 0, off_share = 0;
    for (char *l = strtok_r(text, "\n", &save); l && !bad;
         l = strtok_r(NULL, "\n", &save)) {
        unsigned long long u;
        if (!strncmp(l, "run seconds=", 12)) { /* a session's end */
            runs++;
        } else if (sscanf(l, "unit %llu ", &u) == 1) {
            bad |= u >= units || seen[u]++;
            if (runs) { /* recorded by the resumed count */
                after_run++;
                off_share += u % 3 != 2;
            }
        }
    }
    uint64_t rest = units / 3; /* the units u % 3 == 2 of [0, units) */
    for (uint64_t u = 0; u < units && !bad; u++)
        bad |= !seen[u];
    free(seen);
    free(text);
    CHECKF(!bad && runs == 2 && after_run == rest && off_share == 0,
           "resumed: %d run lines, %llu units recorded (%llu outside part "
           "3), part 3 has %llu", runs, (unsigned long long)after_run,
           (unsigned long long)off_share, (unsigned long long)rest);
}

/* -o never replaces one of the journals, by its name or another (a hard
 * link): exit 2, the file as it was. */
static void output_never_an_input(void *arg)
{
    (void)arg;
    const char *part[2], *link_path = t_file("link");
    count_parts("12", 2, part);
    T_BAIL();
    CHECK(link(part[0], link_path) == 0);
    size_t before, after;
    char *was = t_read_file(part[0], &before);
    const char *outputs[2] = {part[0], link_path};
    for (int i = 0; i < 2; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1], "-o",
                                 outputs[i])) == 0);
        int refused = p.exit_code == 2 && p.out_len == 0 &&
                      strstr(p.err, "is one of the journals merged");
        t_proc_free(&p);
        char *now = t_read_file(part[0], &after);
        int kept = was && now && before == after && !memcmp(was, now, after);
        free(now);
        CHECKF(refused && kept, "-o %s: refused %d, kept %d", outputs[i],
               refused, kept);
    }
    free(was);
}

/* A merge that fails after writing part of the combined journal (a later
 * journal disagrees on a unit) leaves the output as it was and no
 * temporary file: it is written whole or not at all.  An output in a
 * folder that does not exist: one line, exit 1. */
static void output_whole_or_not_at_all(void *arg)
{
    (void)arg;
    const char *part[2], *bad = t_file("bad"), *out = t_file("out");
    count_parts("12", 2, part);
    T_BAIL();
    size_t len;
    char *text = t_read_file(part[0], &len);
    CHECK(text);
    nq_journal_header h;
    CHECK(t_read_journal_header(part[0], &h));
    /* a unit with a total (units 0 and 1 hold fixed points only) */
    char line[512], *body = strchr(text, '\n') + 1, *rec = body;
    unsigned long long u = 0;
    while (rec && (sscanf(rec, "unit %llu ", &u) != 1 || u < 2))
        rec = (rec = strchr(rec, '\n')) ? rec + 1 : NULL;
    CHECK(rec);
    nq_tally wrong = {.total = 8000}; /* a total the plan allows */
    FILE *f = fopen(bad, "w");
    CHECK(f);
    fwrite(text, 1, (size_t)(body - text), f);
    fwrite(line, 1, (size_t)nq_jf_record_line(line, sizeof line, &h, u,
                                               &wrong), f);
    fclose(f);
    free(text);
    write_text(out, "what was there before\n");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1], bad, "-o", out)) == 0);
    int refused = p.exit_code == 1 && strstr(p.err, "different counts");
    t_proc_free(&p);
    char *now = t_read_file(out, &len);
    int kept = now && !strcmp(now, "what was there before\n");
    free(now);
    CHECKF(refused && kept, "refused %d, output kept %d", refused, kept);
    CHECKF(!folder_has(t_case_dir(), ".partial-"),
           "a failed merge left its temporary file");
    CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1], "-o",
                             "/nonexistent-dir/out")) == 0);
    int said = p.exit_code == 1 && strstr(p.err, "cannot write "
                                          "/nonexistent-dir/out") &&
               strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECK(said);
}

/* nq-bench-merge-gen's journals are journals merge takes: 60 of N = 8's
 * (one unit each of its 45, a part given twice now and then, each
 * journal with its own key), to OEIS's row. */
static void generated_journals_merge(void *arg)
{
    (void)arg;
    const char *gen = t_bench_program("nq-bench-merge-gen");
    if (!gen)
        return;
    t_proc p;
    CHECK(t_run_signalled(&p, gen, ARGS(gen, "8", "60", t_case_dir()), 0,
                          0) == 0);
    int ok = p.exit_code == 0;
    t_proc_free(&p);
    CHECK(ok);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -d '%s'/0* | \"$NQ_CLI\" merge --list -",
             t_case_dir());
    CHECK(t_run_signalled(&p, "sh", ARGS("sh", "-c", cmd), 0, 0) == 0);
    ok = p.exit_code == 0 && t_row_is_oeis(p.out, 8);
    t_proc_free(&p);
    CHECK(ok);
}

/* units without --engine lists the count's engine's units (fast's), not
 * carry's (3.3 GB of them at N = 20). */
static void units_default_engine(void *arg)
{
    (void)arg;
    char want[128];
    nq_request req = NQ_REQUEST_INIT;
    nq_plan *plan;
    req.n = 10;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    snprintf(want, sizeof want, "# %llu units of engine %s for N=10 (",
             (unsigned long long)nq_plan_units(plan),
             nq_default_count_engine());
    nq_plan_free(plan);
    char *out = output_of(ARGS("units", "10"), 0);
    int ok = out && !strncmp(out, want, strlen(want));
    char shown[200];
    snprintf(shown, sizeof shown, "%s", out ? out : "");
    free(out);
    CHECKF(ok, "units 10 began '%.80s', not '%s'", shown, want);
}

/* count --part samples no estimate (said once for the whole count by
 * nqueens estimate): no estimate line; a part or a --quiet count that no
 * machine could finish is still refused, on the bound timed on smaller
 * boards ("over ... at this machine's rate"), not on a sampled estimate
 * ("about ..."), which takes seconds. */
static void part_and_quiet_sample_nothing(void *arg)
{
    (void)arg;
    const char *j = t_file("p1"), *k = t_file("p2");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "20", "-t", "1", "--part", "1/200",
                             "--checkpoint", j, "--max-units", "1")) == 0);
    int ok = p.exit_code == 1 && !strstr(p.err, "estimated in") &&
             !strstr(p.err, "about") && strstr(p.err, "stopped with 1 of");
    char err[400];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(ok, "count 20 --part 1/200: %s", err);
    const char *const *runs[2] = {ARGS("count", "32", "-q", "-t", "1"),
                                  ARGS("count", "32", "--part", "1/4", "-t",
                                       "1", "--checkpoint", k)};
    for (int i = 0; i < 2; i++) {
        CHECK(t_run_cli(&p, runs[i]) == 0);
        ok = p.exit_code == 2 && strstr(p.err, "would take over ") &&
             strstr(p.err, "at this machine's rate") && !strstr(p.err, "about");
        snprintf(err, sizeof err, "%s", p.err);
        t_proc_free(&p);
        CHECKF(ok, "run %d: %s", i, err);
    }
    CHECKF(access(k, F_OK) != 0, "a refused part wrote its journal");
}

void tests_merge(void)
{
    t_case(list_file_and_stdin, NULL, "merge/list-file-and-stdin");
    t_case(list_refusals, NULL, "merge/list-unreadable-or-bad-lines-refused");
    t_case(output_read_by_merge_and_verify, NULL,
           "merge/output-read-by-merge-and-verify");
    t_case(staged_equals_one_shot, NULL,
           "merge/output-staged-prints-the-one-shot-merge");
    t_case(combined_resumes_only_the_rest, NULL,
           "merge/output-resumed-counts-only-the-rest");
    t_case(output_never_an_input, NULL, "merge/output-never-an-input");
    t_case(output_whole_or_not_at_all, NULL,
           "merge/output-whole-or-not-at-all");
    t_case(generated_journals_merge, NULL,
           "merge/bench-generator-journals-merge");
    t_case(units_default_engine, NULL, "units/default-engine-is-count's");
    t_case(part_and_quiet_sample_nothing, NULL,
           "estimate/count-part-and-quiet-sample-none");
}

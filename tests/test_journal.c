/*
 * test_journal.c - runs that outlive the process: checkpoint journals,
 * resume after kills and interruptions, damaged and foreign journals,
 * split runs and merges, 128-bit sums, and MPI when it is installed.
 */
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "../src/core/core.h"
#include "../src/journal/journal.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

/* The journal's records: 1 if each unit of [0, units) appears exactly once
 * (or, with `partial`, at most once) and every line is a header or a
 * record. */
static int records_once(const char *path, uint64_t units, int partial,
                        uint64_t *seen_out)
{
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    unsigned char *seen = calloc(units / 8 + 1, 1);
    uint64_t seen_count = 0;
    int ok = text && seen && strncmp(text, "nqueens-journal ", 16) == 0;
    for (char *line = ok ? strtok_r(text, "\n", &save) : NULL; line && ok;
         line = strtok_r(NULL, "\n", &save)) {
        unsigned long long u;
        if (!strncmp(line, "nqueens-journal ", 16) ||
            !strncmp(line, "run ", 4)) /* a run line: a session's */
            continue;
        if (sscanf(line, "unit %llu ", &u) != 1 || u >= units ||
            (seen[u / 8] >> (u % 8) & 1))
            ok = 0;
        else
            seen[u / 8] |= (unsigned char)(1u << (u % 8)), seen_count++;
    }
    if (ok && !partial && seen_count != units)
        ok = 0;
    if (seen_out)
        *seen_out = seen_count;
    free(text);
    free(seen);
    return ok;
}

/* The header a run of engine on N (whole count) gives its journal. */
static void plan_header(const char *engine, int n, nq_journal_header *h)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = engine};
    nq_plan *p;
    memset(h, 0, sizeof *h);
    if (nq_plan_create(&req, &p) != NQ_OK)
        return;
    h->version = 2, h->n = n, h->units = nq_plan_units(p);
    h->identity = nq_plan_identity(p), h->part = h->parts = 1;
    snprintf(h->plan, sizeof h->plan, "%s", nq_plan_split(p));
    snprintf(h->engine, sizeof h->engine, "%s", engine);
    h->key[0] = 0x0123456789abcdefull, h->key[1] = 42;
    h->version = NQ_JOURNAL_VERSION;
    nq_plan_free(p);
}

int t_read_journal_header(const char *path, nq_journal_header *h)
{
    char line[NQ_JOURNAL_LINE_MAX + 2];
    FILE *f = fopen(path, "r");
    int ok = f && fgets(line, sizeof line, f) && strchr(line, '\n');
    if (f)
        fclose(f);
    if (ok)
        *strchr(line, '\n') = '\0';
    return ok && nq_jf_parse_header(line, h);
}

/* Units of engine's plan for n, cut at max_unit_seconds. */
static uint64_t units_cut(const char *engine, int n, double max_unit_seconds)
{
    nq_request req = {.size = sizeof(nq_request), .n = n, .engine = engine,
                      .max_unit_seconds = max_unit_seconds};
    nq_plan *p;
    uint64_t u = 0;
    if (nq_plan_create(&req, &p) == NQ_OK) {
        u = nq_plan_units(p);
        nq_plan_free(p);
    }
    return u;
}

static uint64_t plan_units(const char *engine, int n)
{
    return units_cut(engine, n, 0);
}

/* Units of fast's plan for n, none cut: the units of a count given
 * --max-unit-seconds 0, hours long on a big board. */
static uint64_t whole_units(int n)
{
    return units_cut("fast", n, -1);
}

int t_row_is_oeis(const char *out, int n)
{
    char want[128], total[NQ_U128_DIGITS], unique[NQ_U128_DIGITS];
    snprintf(want, sizeof want, "\n%2d:%13s%13s", n,
             nq_format_u128(t_oeis_total(n), total),
             nq_format_u128(t_oeis_unique(n), unique));
    return out && strstr(out, want) != NULL;
}

static void checkpoint_and_rerun(void *arg)
{
    (void)arg;
    const char *j = t_file("plain.journal");
    t_proc p;
    for (int run = 0; run < 2; run++) {
        CHECK(t_run_cli(&p, ARGS("count", "14", "--checkpoint", j)) == 0);
        int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 14) && p.err_len == 0;
        t_proc_free(&p);
        CHECKF(ok, "run %d: not the OEIS row", run + 1);
    }
    CHECK(records_once(j, plan_units("fast", 14), 0, NULL));
}

/* A stop after K units, then the rest. */
static void resume_after_budget(void *arg)
{
    const char *engine = arg, *j = t_file(engine);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "13", "--engine", engine, "--checkpoint",
                             j, "--max-units", "40")) == 0);
    int stopped = p.exit_code == 1 && strstr(p.err, "resume") &&
                  strstr(p.err, "40 of") && p.out_len == 0;
    t_proc_free(&p);
    CHECKF(stopped, "the budgeted run did not stop with a resume message");
    uint64_t seen;
    CHECK(records_once(j, plan_units(engine, 13), 1, &seen) && seen == 40);
    CHECK(t_run_cli(&p, ARGS("count", "13", "--engine", engine, "--checkpoint",
                             j)) == 0);
    int done = p.exit_code == 0 && t_row_is_oeis(p.out, 13);
    t_proc_free(&p);
    CHECK(done);
    CHECK(records_once(j, plan_units(engine, 13), 0, NULL));
}

/* The first and the last progress report of a run. */
typedef struct {
    nq_progress first, last;
    int calls;
} progress_seen;

static void see_progress(void *ctx, const nq_progress *pr)
{
    progress_seen *s = ctx;
    if (s->calls++ == 0)
        s->first = *pr;
    s->last = *pr;
}

/* A resumed run reports the progress of the whole count: the units the
 * journal already held are done from its first report on, and its total
 * is the plan's, not what is left. */
static void resumed_progress_whole(void *arg)
{
    (void)arg;
    const char *j = t_file("progress.journal");
    progress_seen seen = {0};
    nq_request req = {.size = sizeof(nq_request), .n = 13, .threads = 1};
    nq_resume_options o = {.size = sizeof o, .journal = j, .max_units = 40};
    nq_run_report r = NQ_RUN_REPORT_INIT;
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_ERR_STOPPED);
    req.progress = see_progress, req.progress_ctx = &seen, o.max_units = 0;
    CHECK(nq_count_resumable(&req, &o, &r) == NQ_OK);
    uint64_t units = plan_units("fast", 13);
    CHECKF(seen.calls > 0 && seen.first.units_before == 40 &&
           seen.first.units_done >= 40 && seen.first.units_total == units,
           "first report: %llu done, %llu before, of %llu",
           (unsigned long long)seen.first.units_done,
           (unsigned long long)seen.first.units_before,
           (unsigned long long)seen.first.units_total);
    CHECK(seen.last.units_done == units && seen.last.units_total == units);
}

/* Lines in a file (a journal being written). */
static uint64_t lines_in(const char *path)
{
    size_t len;
    char *text = t_read_file(path, &len);
    uint64_t k = 0;
    for (size_t i = 0; text && i < len; i++)
        k += text[i] == '\n';
    free(text);
    return k;
}

typedef struct {
    const char *path;
    uint64_t until;
} growth;

static int grown(void *ctx)
{
    const growth *g = ctx;
    return lines_in(g->path) >= g->until;
}

/* A count killed whenever its journal holds `step` more records: kills
 * at the same moments on every machine (one thread). */
typedef struct {
    const char *bound;          /* --max-unit-seconds */
    uint64_t step;
} kill_case;

/* SIGKILL whenever the journal has grown by step more records; each time
 * the run resumes from it, losing only the units (or pieces: a tiny
 * bound at N = 18 makes 27,918 of 6,813 units) it was counting: the
 * journal checks out, no unit twice, none lost.  At least three kills
 * must land before the count completes, with OEIS's numbers. */
static void survives_kills(void *arg)
{
    const kill_case *c = arg;
    const char *j = t_file("killed.journal");
    uint64_t units = units_cut("fast", 18, atof(c->bound)), before = 0, seen;
    t_proc p;
    int killed = 0, finished = 0;
    for (int k = 0; k < 30 && !finished; k++) {
        growth g = {j, lines_in(j) + c->step};
        CHECK(t_run_when(&p, ARGS("count", "18", "--threads", "1",
                                  "--max-unit-seconds", c->bound,
                                  "--checkpoint", j, "--quiet"), grown, &g,
                         SIGKILL) == 0);
        finished = p.exit_code == 0;
        killed += p.exit_code == -1;
        int right = !finished || t_row_is_oeis(p.out, 18);
        t_proc_free(&p);
        CHECKF(right, "run %d finished with wrong numbers", k + 1);
        CHECKF(records_once(j, units, 1, &seen) && seen >= before,
               "after run %d: a unit recorded twice, lost or a bad line",
               k + 1);
        before = seen;
    }
    CHECKF(finished && killed >= 3, "%d kills mid-run, finished: %d", killed,
           finished);
    CHECK(records_once(j, units, 0, NULL));
}

/* A count cut into pieces journals them under a split that says its
 * bound; verify recounts them, its parts merge to OEIS's count, and a
 * piece missing or edited is caught by merge. */
static void pieces_journal_verify_merge(void *arg)
{
    (void)arg;
    const char *j = t_file("pieces.journal"), *part[2] = {t_file("pp1"),
                                                        t_file("pp2")};
    nq_journal_header h;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "17", "--max-unit-seconds", "0.0001",
                             "--checkpoint", j, "-q")) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 17);
    t_proc_free(&p);
    CHECKF(ok, "count 17 cut at 100 us: not OEIS's row");
    CHECK(t_read_journal_header(j, &h) &&
          !strcmp(h.plan, "fast-ring/1,max=100us") &&
          h.units == units_cut("fast", 17, 1e-4));
    CHECK(records_once(j, h.units, 0, NULL));
    CHECK(t_run_cli(&p, ARGS("verify", j)) == 0);
    ok = p.exit_code == 0 && strstr(p.out, "all agree");
    t_proc_free(&p);
    CHECKF(ok, "verify of a journal of pieces failed");
    for (int k = 0; k < 2; k++) {
        CHECK(t_run_cli(&p, ARGS("count", "17", "--max-unit-seconds",
                                 "0.0001", "--part", k ? "2/2" : "1/2",
                                 "--checkpoint", part[k], "-q")) == 0);
        ok = p.exit_code == 0;
        t_proc_free(&p);
        CHECKF(ok, "part %d/2 did not finish", k + 1);
    }
    CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1])) == 0);
    ok = p.exit_code == 0 && t_row_is_oeis(p.out, 17);
    t_proc_free(&p);
    CHECKF(ok, "the parts' pieces did not merge to OEIS's row");
    /* the second part without its last record: a piece missing */
    size_t len;
    char *text = t_read_file(part[1], &len);
    CHECK(text && len > 2);
    char *last = text + len - 2;
    while (last > text && last[-1] != '\n')
        last--;
    if (!strncmp(last, "run ", 4)) { /* the run line: the record before */
        char *end = last - 1;
        for (last = end; last > text && last[-1] != '\n'; last--)
            ;
        memmove(last, end + 1, (size_t)(text + len - end - 1));
        len -= (size_t)(end + 1 - last);
    } else {
        len = (size_t)(last - text);
    }
    write_text(part[1], text, len);
    free(text);
    CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1])) == 0);
    ok = p.exit_code == 1 && strstr(p.err, "missing") && p.out_len == 0;
    t_proc_free(&p);
    CHECKF(ok, "a missing piece was not refused");
}

/* A journal resumes with the pieces it was written with: left to the
 * default, the bound is the journal's (a cut one's, or none for one of
 * whole units, as every journal before pieces is); another bound is
 * refused, naming both plans. */
static void pieces_resume_as_written(void *arg)
{
    (void)arg;
    const char *cut = t_file("cut.journal"), *whole = t_file("whole.journal");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "17", "--max-unit-seconds", "0.0001",
                             "--checkpoint", cut, "--max-units", "500",
                             "-q")) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "17", "--checkpoint", cut, "-q")) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 17);
    t_proc_free(&p);
    CHECKF(ok, "a journal of pieces did not resume with its own bound");
    CHECK(records_once(cut, units_cut("fast", 17, 1e-4), 0, NULL));
    CHECK(t_run_cli(&p, ARGS("count", "17", "--max-unit-seconds", "0",
                             "--checkpoint", whole, "--max-units", "300",
                             "-q")) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "17", "--max-unit-seconds", "0.0001",
                             "--checkpoint", whole, "-q")) == 0);
    ok = p.exit_code == 1 && strstr(p.err, "plan fast-ring/1 part") &&
         strstr(p.err, "fast-ring/1,max=100us") &&
         strstr(p.err, "--max-unit-seconds resumes") &&
         strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECKF(ok, "a journal of whole units resumed with another bound");
    CHECK(t_run_cli(&p, ARGS("count", "17", "--checkpoint", whole, "-q")) == 0);
    ok = p.exit_code == 0 && t_row_is_oeis(p.out, 17);
    t_proc_free(&p);
    CHECKF(ok, "a journal of whole units did not resume whole");
    CHECK(records_once(whole, whole_units(17), 0, NULL));
}

/* SIGINT and SIGTERM stop the run: the shell's status for the signal
 * (130, 143), one line naming the signal and saying how to resume, a
 * journal that checks out; then the rest. */
static void stops_cleanly(void *arg)
{
    int sig = *(const int *)arg;
    const char *j = t_file(sig == SIGINT ? "int.journal" : "term.journal");
    growth g = {j, 300};
    t_proc p;
    CHECK(t_run_when(&p, ARGS("count", "18", "--threads", "1", "--checkpoint",
                              j, "--quiet"), grown, &g, sig) == 0);
    int clean = p.exit_code == 128 + sig &&
                strstr(p.err, sig == SIGINT ? "by SIGINT" : "by SIGTERM") &&
                strstr(p.err, "run the same command") &&
                strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECKF(clean, "no clean stop");
    uint64_t seen;
    CHECK(records_once(j, plan_units("fast", 18), 1, &seen) && seen >= 299 &&
          seen < plan_units("fast", 18));
    CHECK(t_run_cli(&p, ARGS("count", "18", "--checkpoint", j, "--quiet")) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 18) && p.err_len == 0;
    t_proc_free(&p);
    CHECK(ok);
}

/* At N=30 a single unit runs for hours; a stop must not wait for it.  The
 * units cut short are not recorded (the journal checks out) and run again
 * on resume.  The 30 s bound is slack for sanitizer builds, not a speed
 * claim: without the in-unit stop this run would not end for days. */
static void stops_inside_units(void *arg)
{
    (void)arg;
    const char *j = t_file("big.journal");
    t_proc p;
    double t0 = nq_clock_seconds();
    CHECK(t_run_signalled(&p, NULL, ARGS("count", "30", "--force", "--checkpoint", j,
                                         "--quiet", "--max-unit-seconds",
                                         "0"), 1.0, SIGINT) == 0);
    double took = nq_clock_seconds() - t0;
    int clean = p.exit_code == 130 && strstr(p.err, "run the same command");
    t_proc_free(&p);
    CHECKF(clean, "no clean stop");
    CHECKF(took < 30, "took %.1f s to stop", took);
    uint64_t seen, units = whole_units(30);
    CHECK(records_once(j, units, 1, &seen) && seen < units);
}

/* A record cut short (the crash case) is dropped with a warning and its
 * unit counted again. */
static void truncated_tail(void *arg)
{
    (void)arg;
    const char *j = t_file("tail.journal");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", j, "--max-units",
                             "50")) == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(j, &len);
    CHECK(text && len > 20);
    write_text(j, text, len - 9); /* cut into the last record */
    free(text);
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", j)) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 12) &&
             strstr(p.err, "half-written");
    t_proc_free(&p);
    CHECK(ok);
    CHECK(records_once(j, plan_units("fast", 12), 0, NULL));
}

/* A finished journal whose last line, a run line, is cut short (a crash
 * as the run ended): resuming and merging say a run line was cut, and
 * that its run's time is lost; no unit is (merge said "its unit was found
 * in another journal" before issue 49). */
static void cut_run_line(void *arg)
{
    (void)arg;
    const char *j = t_file("cut-run.journal");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "12", "-q", "--checkpoint", j)) == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(j, &len), *run = text ? strstr(text,
                                                            "\nrun seconds")
                                                    : NULL;
    CHECK(run && run[strcspn(run + 1, "\n") + 2] == '\0');
    write_text(j, text, (size_t)(run - text) + 12); /* "\nrun seconds" */
    free(text);
    const char *const *cmds[] = {ARGS("merge", j),
                                 ARGS("count", "12", "--checkpoint", j)};
    for (int c = 0; c < 2; c++) {
        CHECK(t_run_cli(&p, cmds[c]) == 0);
        int said = p.exit_code == 0 && t_row_is_oeis(p.out, 12) &&
                   strstr(p.err, "half-written run line") &&
                   strstr(p.err, "time") && !strstr(p.err, "unit was found") &&
                   !strstr(p.err, "counted again");
        char err[300];
        snprintf(err, sizeof err, "%s", p.err);
        t_proc_free(&p);
        CHECKF(said, "%s: %s", cmds[c][0], err);
    }
}

/* A journal cut in the middle of a line by another program (half its
 * records gone): the warning says how many units were kept and that the
 * rest are counted again, never that nothing was lost. */
static void cut_in_half(void *arg)
{
    (void)arg;
    const char *j = t_file("half.journal");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", j)) == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(j, &len);
    CHECK(text && len > 1000);
    size_t cut = len / 2;
    while (text[cut - 1] == '\n') /* mid-line */
        cut++;
    write_text(j, text, cut);
    int kept = 0; /* whole records before the cut */
    for (char *line = text, *end; (end = memchr(line, '\n', cut -
         (size_t)(line - text))) != NULL; line = end + 1)
        kept += !strncmp(line, "unit ", 5);
    free(text);
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", j)) == 0);
    char says[64];
    snprintf(says, sizeof says, "kept the %d units recorded", kept);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 12) &&
             strstr(p.err, says) && strstr(p.err, "counted again") &&
             !strstr(p.err, "nothing recorded was lost");
    char err[400];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(ok, "expected '%s': %s", says, err);
}

/* Damage, a foreign journal, garbage: exit 1, one line naming the problem,
 * the file left exactly as it was. */
typedef struct {
    const char *name, *content_from; /* journal to start from (or NULL) */
    void (*spoil)(char *text, size_t *len);
    const char *args[10];
    const char *mentions;
} bad_journal;

static void flip_digit(char *text, size_t *len)
{
    char *line = strstr(text, "\nunit 3 ");
    (void)len;
    if (line) {
        char *num = strchr(line + 8, ' ') - 1; /* last digit of the total */
        *num = *num == '1' ? '2' : '1';
    }
}

static void garbage(char *text, size_t *len)
{
    strcpy(text, "this is not a journal\n");
    *len = strlen(text);
}

static void keep(char *text, size_t *len)
{
    (void)text, (void)len;
}

static void notes(char *text, size_t *len)
{
    strcpy(text, "my precious notes, no newline");
    *len = strlen(text);
}

static void junk_tail(char *text, size_t *len)
{
    memcpy(text + *len, "GARBAGE", 7);
    *len += 7;
}

static void refuses_bad_journal(void *arg)
{
    const bad_journal *b = arg;
    const char *j = t_file(b->name);
    t_proc p;
    char *text = NULL;
    size_t len = 0;
    if (b->content_from) {
        CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", j)) == 0);
        t_proc_free(&p);
    }
    text = t_read_file(j, &len);
    if (!text)
        text = calloc(64, 1);
    CHECK(text);
    text = realloc(text, len + 64);
    b->spoil(text, &len);
    write_text(j, text, len);
    const char *args[12];
    int k = 0;
    for (; b->args[k]; k++)
        args[k] = strcmp(b->args[k], "@") ? b->args[k] : j;
    args[k] = NULL;
    CHECK(t_run_cli(&p, args) == 0);
    size_t after_len;
    char *after = t_read_file(j, &after_len);
    int untouched = after && after_len == len && !memcmp(after, text, len);
    int one_line = p.exit_code == 1 && p.out_len == 0 &&
                   strchr(p.err, '\n') == p.err + p.err_len - 1 &&
                   strstr(p.err, b->mentions);
    char err[300];
    snprintf(err, sizeof err, "%s", p.err);
    free(after);
    free(text);
    t_proc_free(&p);
    CHECKF(one_line, "exit or message wrong: %s", err);
    CHECK(untouched);
}

/* A journal in use by a run is refused to a second run, and left intact. */
static int any_record(void *ctx)
{
    return lines_in(ctx) > 5;
}

static void one_run_per_journal(void *arg)
{
    (void)arg;
    const char *j = t_file("busy.journal");
    t_proc first, second;
    pid_t pid = fork();
    if (pid == 0) { /* the first run, stopped by its unit budget */
        t_proc p;
        t_run_cli(&p, ARGS("count", "18", "--threads", "1", "--checkpoint", j,
                           "--max-units", "3000", "--quiet"));
        _exit(0);
    }
    int waited = 0; /* 60 s at most: a first run that died leaves none */
    while (!any_record((void *)j) && waited++ < 30000)
        usleep(2000);
    if (!any_record((void *)j)) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        CHECKF(0, "the first run recorded nothing in 60 s");
    }
    CHECK(t_run_cli(&second, ARGS("count", "18", "--checkpoint", j)) == 0);
    int refused = second.exit_code == 1 && strstr(second.err, "in use");
    t_proc_free(&second);
    waitpid(pid, NULL, 0);
    CHECK(refused);
    CHECK(t_run_cli(&first, ARGS("count", "18", "--checkpoint", j, "--quiet")) == 0);
    int ok = first.exit_code == 0 && t_row_is_oeis(first.out, 18);
    t_proc_free(&first);
    CHECK(ok);
    CHECK(records_once(j, plan_units("fast", 18), 0, NULL));
}

/* Recording a unit twice writes it once and adds it once. */
static void record_once(void *arg)
{
    (void)arg;
    const char *j = t_file("twice.journal");
    nq_journal_header h;
    nq_journal *jn;
    char why[256];
    plan_header("fast", 9, &h);
    CHECK(nq_journal_open(j, &h, NULL, NULL, &jn, why, sizeof why) == NQ_OK);
    nq_tally t = {.total = 5};
    int ok = nq_journal_record(jn, 3, &t) == NQ_OK &&
             nq_journal_record(jn, 3, &t) == NQ_OK &&
             nq_journal_record(jn, h.units, &t) == NQ_ERR_ARG &&
             nq_journal_state_get(jn)->sum.total == 5 &&
             nq_journal_state_get(jn)->units_done == 1;
    ok &= nq_journal_close(jn, why, sizeof why) == NQ_OK;
    CHECK(ok);
    CHECK(lines_in(j) == 2);
}

/* A journal that cannot be written or read: exit 1, one line. */
static void unusable_paths(void *arg)
{
    (void)arg;
    /* A FIFO would block the open (or feed garbage); /dev/null would
     * swallow the records: only regular files are journals. */
    const char *paths[] = {"/nonexistent-dir/x.journal", t_case_dir(),
                           t_file("fifo"), "/dev/null"};
    t_proc p;
    CHECK(mkfifo(paths[2], 0600) == 0);
    for (int i = 0; i < 4; i++) {
        CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", paths[i])) == 0);
        int ok = p.exit_code == 1 && p.out_len == 0 &&
                 strchr(p.err, '\n') == p.err + p.err_len - 1 &&
                 strstr(p.err, paths[i]);
        t_proc_free(&p);
        CHECKF(ok, "path %s not refused in one line", paths[i]);
    }
    CHECK(t_run_cli(&p, ARGS("merge", "/nonexistent-dir/x.journal")) == 0);
    int ok = p.exit_code == 1 && strstr(p.err, "cannot read");
    t_proc_free(&p);
    CHECK(ok);
    CHECK(t_run_cli(&p, ARGS("merge", paths[2])) == 0);
    ok = p.exit_code == 1 && strstr(p.err, "not a regular file");
    t_proc_free(&p);
    CHECKF(ok, "merge of a FIFO not refused");
}

/* The three parts of a split run, merged; two of them are not enough. */
static void split_and_merge(void *arg)
{
    (void)arg;
    t_proc p;
    const char *part[3] = {t_file("part1"), t_file("part2"), t_file("part3")};
    for (int k = 0; k < 3; k++) {
        char kk[16];
        snprintf(kk, sizeof kk, "%d/3", k + 1);
        CHECK(t_run_cli(&p, ARGS("count", "15", "--part", kk, "--checkpoint",
                                 part[k])) == 0);
        int ok = p.exit_code == 0 && strstr(p.out, "nqueens merge");
        t_proc_free(&p);
        CHECKF(ok, "part %d did not finish", k + 1);
    }
    CHECK(t_run_cli(&p, ARGS("merge", part[0], part[1])) == 0);
    /* a part missing whole is named as the part, not as its units (895
     * numbers, the first 12 shown, before issue 49) */
    int incomplete = p.exit_code == 1 && p.out_len == 0 &&
                     strstr(p.err, "895 of 2685 units missing: part 3/3 "
                            "(no journal of it given)\n") &&
                     strchr(p.err, '\n') == p.err + p.err_len - 1;
    char err[300];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(incomplete, "an incomplete merge was not refused naming part "
           "3/3: %s", err);
    CHECK(t_run_cli(&p, ARGS("merge", part[2], part[0], part[1], part[0])) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 15);
    t_proc_free(&p);
    CHECK(ok);
}

/* Two journals that disagree on a unit's count: refused.  The second
 * journal's record is edited and its checksum recomputed, as a bug (not
 * disk damage) would have written it. */
static void merge_refuses_conflict(void *arg)
{
    (void)arg;
    const char *a = t_file("conflict-a"), *b = t_file("conflict-b");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "11", "--checkpoint", a)) == 0);
    t_proc_free(&p);
    nq_journal_header h;
    CHECK(t_read_journal_header(a, &h));
    size_t len;
    char *text = t_read_file(a, &len), line[256];
    CHECK(text);
    char *header_end = strchr(text, '\n') + 1;
    nq_tally wrong = {.total = 1000}; /* a total the plan allows */
    int k = nq_jf_record_line(line, sizeof line, &h, 5, &wrong);
    FILE *f = fopen(b, "wb");
    fwrite(text, 1, (size_t)(header_end - text), f);
    fwrite(line, 1, (size_t)k, f);
    fclose(f);
    free(text);
    CHECK(t_run_cli(&p, ARGS("merge", a, b)) == 0);
    int refused = p.exit_code == 1 && strstr(p.err, "different counts");
    t_proc_free(&p);
    CHECK(refused);
}

/* Counts past 2^64 survive the journal: records crafted with totals of
 * 2^62 each (and valid checksums) sum exactly, in 128 bits.  Units 0 and
 * 1 of a fast plan count the symmetric solutions and hold no total, which
 * merge checks: they are recorded empty. */
static void sums_past_64_bits(void *arg)
{
    (void)arg;
    const char *j = t_file("huge.journal");
    nq_journal_header h;
    plan_header("fast", 8, &h);
    uint64_t units = h.units;
    char line[512];
    nq_u128 each = (nq_u128)1 << 62, want = each * (units - 2);
    FILE *f = fopen(j, "wb");
    CHECK(f);
    nq_jf_header_line(line, sizeof line, &h);
    fputs(line, f);
    for (uint64_t u = 0; u < units; u++) {
        nq_tally t = {.total = u < 2 ? 0 : each, .nodes = 1};
        nq_jf_record_line(line, sizeof line, &h, u, &t);
        fputs(line, f);
    }
    fclose(f);
    nq_journal_header hd;
    nq_journal_state st;
    unsigned char *done;
    char why[256];
    const char *paths[1] = {j};
    CHECK(nq_journal_merge(paths, 1, NULL, &hd, &st, &done, NULL, why,
                           sizeof why) == NQ_OK);
    free(done);
    CHECK(want > ((nq_u128)1 << 64) && st.sum.total == want);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", j, "--json")) == 0);
    char expect[80], wt[NQ_U128_DIGITS];
    snprintf(expect, sizeof expect, "\"total\":%s,", nq_format_u128(want, wt));
    int printed = p.exit_code == 0 && strstr(p.out, expect);
    t_proc_free(&p);
    CHECKF(printed, "merge did not print the 128-bit total %s", wt);
}

/* MPI: three ranks, stopped after some units, resumed; the same journal
 * format as the threaded run, each unit once. */
static void mpi_count_and_resume(void *arg)
{
    (void)arg;
    const char *mpi = getenv("NQ_MPI"), *j = t_file("mpi.journal");
    t_proc p;
    CHECK(t_run_signalled(&p, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", mpi, "count", "13", "--checkpoint", j, "--max-units",
          "100"), 0, 0) == 0);
    int stopped = p.exit_code != 0 && strstr(p.err, "resume");
    t_proc_free(&p);
    CHECKF(stopped, "the budgeted MPI run did not stop");
    uint64_t seen;
    CHECK(records_once(j, plan_units("fast", 13), 1, &seen) && seen >= 100);
    CHECK(t_run_signalled(&p, "mpirun", ARGS("mpirun", "--oversubscribe", "-np",
          "3", mpi, "count", "13", "--checkpoint", j), 0, 0) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 13);
    t_proc_free(&p);
    CHECK(ok);
    CHECK(records_once(j, plan_units("fast", 13), 0, NULL));
    /* the threaded CLI reads the MPI run's journal: nothing left to do */
    CHECK(t_run_cli(&p, ARGS("count", "13", "--checkpoint", j)) == 0);
    ok = p.exit_code == 0 && t_row_is_oeis(p.out, 13);
    t_proc_free(&p);
    CHECK(ok);
}

/* The journal has grown to g->until lines, and a second or two has passed
 * since (rank 0 catches signals right after writing the header; the
 * workers are by then deep in their first units). */
static int settled(void *ctx)
{
    static double seen;
    double now = nq_clock_seconds();
    if (!grown(ctx)) {
        seen = 0;
        return 0;
    }
    if (!seen)
        seen = now;
    return now - seen >= 2;
}

/* SIGINT to mpirun reaches rank 0, which tells the workers; their units
 * of N=30 (hours each) give up and are not recorded.  The bound is slack
 * for a loaded machine: without the stop message the run would not end
 * for days. */
static void mpi_stops_inside_units(void *arg)
{
    (void)arg;
    const char *mpi = getenv("NQ_MPI"), *j = t_file("mpi30.journal");
    t_proc p;
    growth g = {j, 1}; /* the header: rank 0 has the plan and the journal */
    double t0 = nq_clock_seconds();
    CHECK(t_run_prog_when(&p, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", mpi, "count", "30", "--force", "--checkpoint", j,
          "--max-unit-seconds", "0"),
          settled, &g, SIGINT) == 0);
    double took = nq_clock_seconds() - t0;
    /* OpenMPI's mpirun passes a SIGINT on as SIGTERM and then exits 1 by
     * itself, whatever the ranks return */
    int stopped = p.exit_code != 0 && strstr(p.err, "run the same command");
    t_proc_free(&p);
    CHECKF(stopped, "the MPI run did not stop cleanly");
    CHECKF(took < 60, "took %.1f s to stop", took);
    uint64_t seen, units = whole_units(30);
    CHECK(records_once(j, units, 1, &seen) && seen < units);
}

/* The process that has `path` open: rank 0, the journal's only writer. */
static pid_t holder_of(const char *path)
{
    DIR *proc = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (proc && !found && (e = readdir(proc))) {
        char dir[300], link[600], target[512];
        snprintf(dir, sizeof dir, "/proc/%s/fd", e->d_name);
        DIR *fds = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? opendir(dir)
                                                               : NULL;
        struct dirent *fd;
        while (fds && !found && (fd = readdir(fds))) {
            snprintf(link, sizeof link, "%s/%s", dir, fd->d_name);
            ssize_t k = readlink(link, target, sizeof target - 1);
            if (k > 0 && (target[k] = '\0', !strcmp(target, path)))
                found = (pid_t)atoi(e->d_name);
        }
        if (fds)
            closedir(fds);
    }
    if (proc)
        closedir(proc);
    return found;
}

/* Once settled, SIGINT to rank 0 itself (as `kill` or a batch system
 * signalling the program would send it); 1 once sent. */
static int rank0_interrupted(void *ctx)
{
    const growth *g = ctx;
    pid_t pid = settled(ctx) ? holder_of(g->path) : 0;
    return pid > 0 && kill(pid, SIGINT) == 0;
}

/* Rank 0 stopped by SIGINT: the job ends with the single-process
 * program's status for it, 130, which mpirun passes on. */
static void mpi_rank0_sigint_status(void *arg)
{
    (void)arg;
    const char *mpi = getenv("NQ_MPI"), *j = t_file("mpi30b.journal");
    t_proc p;
    growth g = {j, 1};
    CHECK(t_run_prog_when(&p, "mpirun", ARGS("mpirun", "--oversubscribe",
          "-np", "3", mpi, "count", "30", "--force", "--checkpoint", j,
          "--max-unit-seconds", "0"),
          rank0_interrupted, &g, 0) == 0);
    int code = p.exit_code, named = strstr(p.err, "by SIGINT") != NULL;
    t_proc_free(&p);
    CHECKF(code == 130 && named, "exit %d, SIGINT named: %d", code, named);
}

/* A copy of a journal under tests/data in the scratch directory. */
static int copy_sample(const char *name, const char *to)
{
    size_t len;
    char *text = t_read_file(t_data_path(name), &len);
    if (text)
        write_text(to, text, len);
    free(text);
    return text != NULL;
}

/* The journals committed by the releases that introduced formats 2 and 3
 * (part 1 of 2 of N=12, six units done): every later release resumes
 * them, counts the other part, and merges the two to OEIS's numbers. */
static void sample_resumes_and_merges(void *arg)
{
    const char *name = arg;
    const char *a = t_file("sample-part1"), *b = t_file("sample-part2");
    t_proc p;
    remove(a), remove(b);
    CHECK(copy_sample(name, a));
    CHECK(t_run_cli(&p, ARGS("merge", a)) == 0);
    int missing = p.exit_code == 1 && strstr(p.err, "missing");
    t_proc_free(&p);
    CHECKF(missing, "the incomplete sample merged alone");
    CHECK(t_run_cli(&p, ARGS("count", "12", "--part", "1/2", "--checkpoint",
                             a)) == 0);
    int resumed = p.exit_code == 0 && strstr(p.out, "part 1/2");
    t_proc_free(&p);
    CHECKF(resumed, "the sample did not resume");
    CHECK(t_run_cli(&p, ARGS("count", "12", "--part", "2/2", "--checkpoint",
                             b)) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("merge", b, a)) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 12);
    t_proc_free(&p);
    CHECK(ok);
}

/* Version 3's record key, computed here from doc/journal-format.md's
 * list of bytes (not by the library's code), checks the committed
 * sample's first record: the document and the code say the same. */
static void v3_tag_as_documented(void *arg)
{
    (void)arg;
    nq_journal_header h;
    unsigned char buf[128], *b = buf;
    const char *path = t_data_path("journal-v3-n12-part1of2.txt");
    size_t len;
    char *text = t_read_file(path, &len);
    CHECK(text && t_read_journal_header(path, &h) && h.version == 3);
    char *rec = strchr(text, '\n') + 1, *tag = strstr(rec, " tag=");
    CHECK(tag && !strncmp(rec, "unit ", 5));
    memcpy(b, "nqueens-record-key", 19), b += 19;
    uint64_t fields[6][2] = {{3, 4}, {(uint64_t)h.n, 4}, {h.units, 8},
                             {h.identity, 8}, {h.part, 4}, {h.parts, 4}};
    for (int f = 0; f < 6; f++) {
        for (uint64_t i = 0; i < fields[f][1]; i++)
            *b++ = (unsigned char)(fields[f][0] >> (8 * i));
        if (f == 1) { /* the plan's name and its zero byte, after N */
            memcpy(b, h.plan, strlen(h.plan) + 1);
            b += strlen(h.plan) + 1;
        }
    }
    uint64_t k[2];
    for (int w = 0; w < 2; w++) {
        *b = (unsigned char)w;
        k[w] = nq_siphash(h.key[0], h.key[1], buf, (size_t)(b + 1 - buf));
    }
    unsigned long long want = strtoull(tag + 5, NULL, 16);
    uint64_t got = nq_siphash(k[0], k[1], rec, (size_t)(tag - rec));
    free(text);
    CHECKF(got == want, "tag %016llx, documented key gives %016llx", want,
           (unsigned long long)got);
}

static char *finished_journal(const char *path, const char *n,
                              nq_journal_header *h, size_t *len);

/* Records moved between journals by editing a header alone: N=12's
 * records under an N=13 header whose key is chosen to cancel the plan
 * identities (k0 ^ id12 ^ id13, which made version 2's tags check out),
 * and the header's CRC redone.  Version 3 derives the record key from
 * the whole header, so every record is refused, and merge refuses too. */
static void transplant_refused(void *arg)
{
    (void)arg;
    const char *j12 = t_file("j12.journal"), *j13 = t_file("j13.journal");
    const char *moved = t_file("moved.journal");
    nq_journal_header h12, h13;
    size_t len12, len13;
    char *t12 = finished_journal(j12, "12", &h12, &len12);
    char *t13 = finished_journal(j13, "13", &h13, &len13);
    CHECK(t12 && t13);
    free(t13);
    nq_journal_header h = h12;
    h.n = 13, h.units = h13.units, h.identity = h13.identity;
    h.key[0] = h12.key[0] ^ h12.identity ^ h13.identity;
    char line[NQ_JOURNAL_LINE_MAX];
    int hl = nq_jf_header_line(line, sizeof line, &h);
    FILE *f = fopen(moved, "wb");
    CHECK(f);
    fwrite(line, 1, (size_t)hl, f);
    fwrite(strchr(t12, '\n') + 1, 1, len12 - (size_t)(strchr(t12, '\n') + 1 - t12), f);
    fclose(f);
    free(t12);
    t_proc p;
    int refused = 1;
    for (int r = 0; r < 2; r++) {
        CHECK(t_run_cli(&p, r ? ARGS("merge", moved) : ARGS("count", "13",
                        "--checkpoint", moved)) == 0);
        refused &= p.exit_code == 1 && !p.out_len &&
                   strstr(p.err, "does not check out");
        t_proc_free(&p);
    }
    CHECKF(refused, "N=12's records were taken under an N=13 header");
}

/* Journals of another format version are refused by version: exit 2,
 * the message naming the versions read, the file untouched.  Version 1 is
 * a real journal of nqueens 0.1.0; version 5 a sample relabelled. */
static void refuse_version(const char *path, const char *version)
{
    const char *const runs[2][6] = {
        {"count", "12", "--part", "1/2", "--checkpoint", path},
        {"merge", path, NULL}};
    size_t len, after_len;
    char *before = t_read_file(path, &len), want[128];
    snprintf(want, sizeof want, "journal format version %s is not supported "
             "(this release reads 2..4)", version);
    for (int r = 0; r < 2 && before; r++) {
        t_proc p;
        CHECK(t_run_cli(&p, runs[r][2] ? (const char *const[]){runs[r][0],
                  runs[r][1], runs[r][2], runs[r][3], runs[r][4], runs[r][5],
                  NULL} : ARGS(runs[r][0], runs[r][1])) == 0);
        int refused = p.exit_code == 2 && strstr(p.err, want) && !p.out_len;
        t_proc_free(&p);
        char *after = t_read_file(path, &after_len);
        int same = after && after_len == len && !memcmp(after, before, len);
        free(after);
        if (!refused || !same)
            free(before);
        CHECKF(refused, "%s: version %s not refused", runs[r][0], version);
        CHECKF(same, "%s: the journal was changed", runs[r][0]);
    }
    free(before);
}

static void other_versions_refused(void *arg)
{
    (void)arg;
    const char *v1 = t_file("v1"), *v5 = t_file("v5");
    CHECK(copy_sample("journal-v1-n12-part1of2.txt", v1));
    refuse_version(v1, "1");
    T_BAIL();
    size_t len;
    char *text = t_read_file(t_data_path("journal-v3-n12-part1of2.txt"), &len);
    CHECK(text && !strncmp(text, "nqueens-journal 3 ", 18));
    text[16] = '5';
    write_text(v5, text, len);
    free(text);
    refuse_version(v5, "5");
}

/* ---- failures that must be loud (issue: a journal that cannot lie) ---- */

/* A finished journal of N at path: its header, and its text (to free;
 * NULL if the count or the reading failed). */
static char *finished_journal(const char *path, const char *n,
                              nq_journal_header *h, size_t *len)
{
    t_proc p;
    if (t_run_cli(&p, ARGS("count", n, "--checkpoint", path)) != 0)
        return NULL;
    int ok = p.exit_code == 0;
    t_proc_free(&p);
    return ok && t_read_journal_header(path, h) ? t_read_file(path, len) : NULL;
}

/* Rewrite record k (1-based line k+1) of the journal with the counts t,
 * tagged with `tag_key0` in place of the header's first key word: the
 * header's own key makes an edit that checks out, any other one an edit
 * by someone who redid a checksum but not the tag. */
/* Line k of text (0: the header), opening run lines ("run id=", which
 * say which run wrote the records after them) not counted; NULL past
 * the end. */
static char *nth_line(char *text, int k)
{
    char *line = text;
    for (int i = 0; i < k && line; i++) {
        line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
        while (line && !strncmp(line, "run id=", 7))
            line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
    }
    return line;
}

static int rewrite_record(const char *path, int k, nq_tally *t,
                          uint64_t tag_key0)
{
    nq_journal_header h;
    size_t len;
    char *text = t_read_file(path, &len), line[NQ_JOURNAL_LINE_MAX];
    char *start = text, *end;
    unsigned long long unit;
    if (!text || !t_read_journal_header(path, &h)) {
        free(text);
        return 0;
    }
    start = nth_line(text, k);
    end = start ? strchr(start, '\n') : NULL;
    int ok = end && sscanf(start, "unit %llu ", &unit) == 1;
    if (ok) {
        h.key[0] = tag_key0;
        int n = nq_jf_record_line(line, sizeof line, &h, unit, t);
        FILE *f = fopen(path, "wb");
        fwrite(text, 1, (size_t)(start - text), f);
        fwrite(line, 1, (size_t)n, f);
        fwrite(end + 1, 1, len - (size_t)(end + 1 - text), f);
        fclose(f);
    }
    free(text);
    return ok;
}

/* Forge record k (1-based) of the journal: its total raised by 8 (which
 * keeps the final check's division exact; the symmetric counts of a fast
 * plan, units 0 and 1, hold no total: their fixed points instead) and
 * the line retagged with the header's key, as anyone who reads the
 * format can.  0 if line k is not a record. */
static int forge_record(const char *path, int k)
{
    size_t len;
    char *text = t_read_file(path, &len), *line = text ? nth_line(text, k)
                                                       : NULL;
    unsigned long long v[6];
    int ok = line && sscanf(line, "unit %llu %llu %llu %llu %llu %llu", &v[0],
                            &v[1], &v[2], &v[3], &v[4], &v[5]) == 6;
    nq_journal_header h;
    free(text);
    if (!ok || !t_read_journal_header(path, &h))
        return 0;
    int sym = v[0] < 2 && !strcmp(h.plan, "fast-ring/1");
    nq_tally t = {v[1] + 8 * !sym, v[2], v[3] + 8 * (sym && v[0] == 0),
                  v[4] + 8 * (sym && v[0] == 1), v[5]};
    return rewrite_record(path, k, &t, h.key[0]);
}

/* One record forged so that its tag checks out and the final check
 * passes: merge adds it up (the tag cannot tell), verify --all names
 * its unit and exits 1, and merge --verify refuses to add up. */
static void verify_finds_one_forgery(void *arg)
{
    (void)arg;
    const char *j = t_file("forged-one.journal");
    nq_journal_header h;
    size_t len;
    free(finished_journal(j, "12", &h, &len));
    CHECK(forge_record(j, 5));
    char unit[64];
    size_t tlen;
    char *text = t_read_file(j, &tlen), *line = nth_line(text, 5);
    snprintf(unit, sizeof unit, "unit %llu disagrees", strtoull(line + 5,
             NULL, 10));
    free(text);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", j)) == 0);
    int fooled = p.exit_code == 0 && strstr(p.out, "14208");
    t_proc_free(&p);
    CHECKF(fooled, "merge did not add the forged record up: the test forges "
           "wrongly");
    CHECK(t_run_cli(&p, ARGS("verify", "--all", j)) == 0);
    int found = p.exit_code == 1 && strstr(p.out, unit) &&
                strstr(p.err, "1 of the 818 units recounted disagree");
    t_proc_free(&p);
    CHECKF(found, "verify --all did not name %s", unit);
    CHECK(t_run_cli(&p, ARGS("merge", "--verify", "--all", j)) == 0);
    int refused = p.exit_code == 1 && !strstr(p.out, "14208");
    t_proc_free(&p);
    CHECKF(refused, "merge --verify added the forged record up");
}

/* Every record forged: the default sample (1%, at least 16 units) finds
 * every unit it recounts wrong. */
static void verify_sample_finds_all_forged(void *arg)
{
    (void)arg;
    const char *j = t_file("forged-all.journal");
    nq_journal_header h;
    size_t len;
    free(finished_journal(j, "12", &h, &len));
    int forged = 0;
    while (forge_record(j, forged + 1))
        forged++;
    CHECK(forged == 818);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("verify", "--json", j)) == 0);
    int disagree = 0;
    for (const char *s = p.out; (s = strstr(s, "\"type\":\"disagree\"")); s++)
        disagree++;
    int found = p.exit_code == 1 && disagree >= 16 &&
                strstr(p.out, "\"sampled\":16,");
    t_proc_free(&p);
    CHECKF(found, "exit or disagreements wrong (%d named)", disagree);
}

/* The sample: 1% of 818 is under 16, so 16 are drawn; 50% draws 409;
 * the same seed draws the same units; units with fixed points are added
 * (N=12 has some), and those whose records stand out by size, and the
 * recount covers exactly drawn + added. */
static void verify_sample_sizes(void *arg)
{
    (void)arg;
    const char *j = t_file("sampled.journal");
    nq_journal_header h;
    size_t len;
    free(finished_journal(j, "12", &h, &len));
    CHECK(forge_record(j, 3) && forge_record(j, 400) && forge_record(j, 700));
    const char *seeds[2] = {"7", "7"};
    char out[2][4096];
    t_proc p;
    for (int i = 0; i < 2; i++) {
        CHECK(t_run_cli(&p, ARGS("verify", "--sample", "50", "--seed",
                                 seeds[i], j)) == 0);
        snprintf(out[i], sizeof out[i], "%s", p.out);
        t_proc_free(&p);
    }
    CHECKF(!strcmp(out[0], out[1]), "one seed, two samples");
    CHECK(strstr(out[0], "409 drawn at random (seed 7)"));
    CHECK(t_run_cli(&p, ARGS("verify", "--json", "-q", "--seed", "3", j)) == 0);
    unsigned long long sampled, fixed, checked, size, by_run, weighted;
    const char *sum = strstr(p.out, "\"type\":\"summary\"");
    const char *run = sum ? strstr(sum, "\"by_run\":") : NULL;
    const char *w = sum ? strstr(sum, "\"by_weight\":") : NULL;
    int read = run && w && sscanf(strstr(sum, "\"checked\""),
                                  "\"checked\":%llu,\"sampled\":%llu,"
                                  "\"fixed_points\":%llu,\"by_size\":%llu",
                                  &checked, &sampled, &fixed, &size) == 4 &&
               sscanf(run, "\"by_run\":%llu", &by_run) == 1 &&
               sscanf(w, "\"by_weight\":%llu", &weighted) == 1;
    t_proc_free(&p);
    /* about 64 by total and 64 by work, some of them the same units or
       chosen otherwise */
    CHECK(read && sampled == 16 && fixed > 0 && size > 0 && weighted > 32 &&
          weighted < 160 &&
          checked == sampled + fixed + size + by_run + weighted);
}

/* Which records verify recounts for their size is the journal's to say,
 * not the order its lines were written in (the order a run's threads
 * finished): the same records shuffled between their run's lines (the
 * opening and closing lines stay where any run writes them), the same
 * recount, word for word.
 * Before ties were broken by unit, N = 12's records (many of equal
 * totals) gave "25 for their size" or "26" by their order, and README's
 * example failed when the count ran beside other work. */
static void verify_order_blind(void *arg)
{
    (void)arg;
    const char *j = t_file("ordered.journal"), *mixed = t_file("mixed.journal");
    size_t len;
    nq_journal_header h;
    char *text = finished_journal(j, "12", &h, &len);
    CHECK(text);
    char *lines[1024], *runs[8];
    int k = 0, nruns = 0;
    for (char *save, *l = strtok_r(strchr(text, '\n') + 1, "\n", &save);
         l && k < 1024 && nruns < 8; l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, "unit ", 5))
            lines[k++] = l;
        else
            runs[nruns++] = l;
    /* one run: its opening line, every record, its closing line */
    CHECK(nruns == 2 && !strncmp(runs[0], "run id=", 7));
    char first[4096] = "";
    uint64_t x = 88172645463325252ull; /* xorshift64: the same shuffles */
    for (int round = 0; round < 6 && !t_failed(); round++) {
        const char *path = round ? mixed : j;
        if (round) {
            for (int i = k - 1; i > 0; i--) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                int r = (int)(x % (uint64_t)(i + 1));
                char *t = lines[i];
                lines[i] = lines[r], lines[r] = t;
            }
            FILE *f = fopen(mixed, "wb");
            CHECK(f);
            fprintf(f, "%.*s\n%s\n", (int)(strchr(text, '\n') - text), text,
                    runs[0]);
            for (int i = 0; i < k; i++)
                fprintf(f, "%s\n", lines[i]);
            fprintf(f, "%s\n", runs[1]);
            CHECK(fclose(f) == 0);
        }
        t_proc p;
        CHECK(t_run_cli(&p, ARGS("verify", "--seed", "7", path)) == 0);
        p.out[strcspn(p.out, "\n")] = '\0'; /* one line */
        int ok = p.exit_code == 0 && strstr(p.out, "all agree");
        if (!round)
            snprintf(first, sizeof first, "%s", p.out);
        int same = !strcmp(first, p.out);
        char out[600];
        snprintf(out, sizeof out, "%s", p.out);
        t_proc_free(&p);
        CHECKF(ok && same, "shuffle %d: '%s', in order '%s'", round, out,
               first);
    }
    free(text);
}

/* Bad requests: one line, exit 2; a missing file 1; a journal of an old
 * format refused by version. */
static void verify_refusals(void *arg)
{
    (void)arg;
    const char *v1 = t_file("verify-v1");
    static const struct {
        const char *args[5];
        int code;
        const char *says;
    } runs[] = {
        {{"verify"}, 2, "no journals given"},
        {{"verify", "--sample", "0", "x"}, 2, "--sample takes a percentage"},
        {{"verify", "--sample", "5", "--all", "x"}, 2, "choose one"},
        {{"verify", "--seed", "0", "x"}, 2, "--seed takes"},
        {{"verify", "--weighted", "-1", "x"}, 2, "--weighted takes"},
        {{"verify", "--weighted", "many", "x"}, 2, "--weighted takes"},
        {{"verify", "/nonexistent/j"}, 1, "/nonexistent/j"},
        {{"merge", "--all", "x"}, 2, "add --verify"},
        {{"verify", "@v1"}, 2, "journal format version 1"},
    };
    CHECK(copy_sample("journal-v1-n12-part1of2.txt", v1));
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *a[6] = {0};
        for (int k = 0; k < 5 && runs[i].args[k]; k++)
            a[k] = strcmp(runs[i].args[k], "@v1") ? runs[i].args[k] : v1;
        t_proc p;
        CHECK(t_run_cli(&p, a) == 0);
        int ok = p.exit_code == runs[i].code && strstr(p.err, runs[i].says) &&
                 strchr(p.err, '\n') == p.err + p.err_len - 1 && !p.out_len;
        t_proc_free(&p);
        CHECKF(ok, "%s %s: not a one-line refusal with exit %d",
               runs[i].args[0], runs[i].args[1] ? runs[i].args[1] : "",
               runs[i].code);
    }
}

/* A complete journal whose records check out but whose counts fail the
 * final check (Burnside's division leaves a remainder): exit 1, never a
 * printed row. */
static void failed_final_check_exits_1(void *arg)
{
    (void)arg;
    const char *j = t_file("burnside.journal");
    t_proc p;
    nq_journal_header h;
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", j)) == 0);
    t_proc_free(&p);
    CHECK(t_read_journal_header(j, &h));
    /* the first record is unit 0's, P (12 at N = 10): 14 is a record the
     * plan allows (an even number of its own turn's fixed points), and
     * (T + P + 2R) / 8 then has a remainder */
    nq_tally odd = {.fixed180 = 14};
    CHECK(rewrite_record(j, 1, &odd, h.key[0]));
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", j)) == 0);
    int refused = p.exit_code == 1 && p.out_len == 0 &&
                  strstr(p.err, "failed its final check");
    t_proc_free(&p);
    CHECKF(refused, "a count failing its check was printed or exited 0");
    /* merge refuses it, and verify with the same line (it said "all
     * agree", exit 0, before issue 49) */
    char said[2][400];
    const char *const *cmds[] = {ARGS("merge", j), ARGS("verify", "-q", j)};
    for (int c = 0; c < 2; c++) {
        CHECK(t_run_cli(&p, cmds[c]) == 0);
        snprintf(said[c], sizeof said[c], "%s", p.err);
        refused = p.exit_code == 1 && p.out_len == 0 &&
                  strstr(p.err, "add up to no count of N=10");
        t_proc_free(&p);
        CHECKF(refused, "%s did not refuse: %s", cmds[c][0], said[c]);
    }
    CHECKF(!strcmp(said[0], said[1]), "merge and verify said: %s and %s",
           said[0], said[1]);
}

/* nqueens run with the open_swap shim (tests/open_swap.c): before the
 * second open of `path`, `from` is renamed over it. */
static int run_swapped(t_proc *p, const char *const *args, const char *path,
                       const char *from)
{
    const char *shim = getenv("NQ_OPEN_SWAP");
    setenv("LD_PRELOAD", shim, 1);
    setenv("NQ_SWAP_PATH", path, 1), setenv("NQ_SWAP_FROM", from, 1);
    setenv("NQ_SWAP_AT", "2", 1);
    /* the sanitizer build's runtime would refuse a library before it */
    setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 1);
    int rc = t_run_cli(p, args);
    unsetenv("LD_PRELOAD");
    return rc;
}

/* verify and merge --verify read a journal twice (once to add up, once
 * to collect the units to recount); a journal replaced in between (by
 * another count's, or by a copy with one record forged) is refused,
 * named, before anything is recounted or printed: what they print is
 * what they checked.  Before issue 49 the first was a heap read out of
 * bounds (AddressSanitizer: SEGV in take()), the second "all agree", and
 * merge --verify --all printed a total it had not checked. */
static void changed_between_reads(void *arg)
{
    (void)arg;
    const char *j = t_file("swapped"), *n12 = t_file("n12"),
               *n13 = t_file("n13");
    const char *forged = t_file("forged"), *from = t_file("swap-from");
    t_proc p;
    if (!getenv("NQ_OPEN_SWAP")) {
        t_skip("no NQ_OPEN_SWAP (make test builds the shim)");
        return;
    }
    CHECK(t_run_cli(&p, ARGS("count", "12", "-q", "--checkpoint", n12)) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "13", "-q", "--checkpoint", n13)) == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(n12, &len);
    CHECK(text);
    write_text(forged, text, len);
    free(text);
    CHECK(forge_record(forged, 40));
    const char *const *cmds[] = {ARGS("verify", "-q", j),
                                 ARGS("verify", "-q", j),
                                 ARGS("merge", "--verify", "--all", j)};
    const char *instead[] = {n13, forged, forged};
    for (int c = 0; c < 3; c++) {
        size_t n;
        char *a = t_read_file(n12, &n), *b = t_read_file(instead[c], &len);
        CHECK(a && b);
        write_text(j, a, n), write_text(from, b, len);
        free(a), free(b);
        CHECK(run_swapped(&p, cmds[c], j, from) == 0);
        int refused = p.exit_code == 1 && p.out_len == 0 &&
                      strstr(p.err, "changed while verify read it") &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        char err[300];
        snprintf(err, sizeof err, "exit %d, out '%.60s', err %s", p.exit_code,
                 p.out, p.err);
        t_proc_free(&p);
        CHECKF(refused, "%s with %s swapped in: %s", cmds[c][0],
               c ? "a forged copy" : "N=13's journal", err);
    }
}

/* 256 edits of records, each a count changed and the line re-tagged
 * without the journal's key (what a checksum fix-up would do): every one
 * refused, naming its unit.  Through the library for speed, and once
 * through the CLI for the message and the exit. */
static void edited_records_refused(void *arg)
{
    (void)arg;
    const char *j = t_file("edit.journal"), *e = t_file("edited.journal");
    t_proc p;
    nq_journal_header h;
    size_t len;
    char *clean = finished_journal(j, "9", &h, &len);
    CHECK(clean);
    int refused = 0, records = (int)lines_in(j) - 3; /* less header, runs */
    for (int i = 0; i < 256; i++) {
        nq_tally t = {.total = (nq_u128)(1 + i), .fixed180 = (nq_u128)(i % 3)};
        write_text(e, clean, len);
        if (!rewrite_record(e, 1 + i % records, &t, h.key[0] ^ (uint64_t)(i + 1)))
            break;
        nq_journal_header hd;
        nq_journal_state st;
        unsigned char *done = NULL;
        char why[512] = "";
        const char *paths[1] = {e};
        if (nq_journal_merge(paths, 1, NULL, &hd, &st, &done, NULL, why,
                             sizeof why) ==
                NQ_ERR_CORRUPT && strstr(why, "does not check out"))
            refused++;
        free(done);
    }
    free(clean);
    CHECKF(refused == 256, "%d of 256 edits refused", refused);
    CHECK(t_run_cli(&p, ARGS("merge", e)) == 0);
    int loud = p.exit_code == 1 && strstr(p.err, "the record of unit") &&
               strstr(p.err, "edited");
    t_proc_free(&p);
    CHECK(loud);
}

/* Once the journal has some records, do something to it behind the run's
 * back; 1 when done. */
typedef struct {
    growth g;
    int truncate; /* else remove */
} sabotage;

static int sabotaged(void *ctx)
{
    const sabotage *s = ctx;
    if (!grown((void *)&s->g))
        return 0;
    return s->truncate ? truncate(s->g.path, 0) == 0 : unlink(s->g.path) == 0;
}

/* The journal removed, or cut to nothing, while the run writes it: the
 * run stops, saying so, exit 1 (not 0 with the work gone). */
static void journal_pulled_away(void *arg)
{
    int truncating = *(const int *)arg;
    const char *j = t_file(truncating ? "cut.journal" : "gone.journal");
    sabotage s = {{j, 50}, truncating};
    t_proc p;
    CHECK(t_run_when(&p, ARGS("count", "18", "--threads", "1", "--checkpoint",
                              j, "--quiet"), sabotaged, &s, 0) == 0);
    int loud = p.exit_code == 1 && p.out_len == 0 &&
               strstr(p.err, truncating ? "was truncated" :
                      "was removed or replaced while running");
    char err[300];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(loud, "not stopped loudly: %s", err);
}

/* A small file system of its own (tmpfs, when this process may mount):
 * the disk-full and read-only cases are real there. */
static int mount_small(const char *where, const char *size)
{
    char cmd[512];
    mkdir(where, 0700);
    snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=%s tmpfs '%s' "
             "2>/dev/null", size, where);
    return system(cmd) == 0;
}

static void unmount(const char *where)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "umount '%s' 2>/dev/null", where);
    if (system(cmd) == 0)
        rmdir(where);
}

static int remount(const char *where, const char *opts)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mount -o remount,%s '%s' 2>/dev/null", opts,
             where);
    return system(cmd) == 0;
}

/* Disk full: every record that fits is kept (the journal checks out),
 * the cause is named, exit 1; with space again the run resumes to the
 * right totals.  On a 16 KiB tmpfs where mounting is allowed (CI runs as
 * root), else with the file size limit (RLIMIT_FSIZE: "File too large"). */
static void disk_full(void *arg)
{
    (void)arg;
    const char *fs = t_file("small-fs");
    int mounted = mount_small(fs, "16k");
    char j[512];
    snprintf(j, sizeof j, "%s/j", mounted ? fs : t_case_dir());
    struct rlimit old, small = {12000, 12000};
    getrlimit(RLIMIT_FSIZE, &old);
    small.rlim_max = old.rlim_max;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    if (!mounted)
        setrlimit(RLIMIT_FSIZE, &small);
    t_proc p;
    int ran = t_run_cli(&p, ARGS("count", "16", "--checkpoint", j, "--quiet"));
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    printf("     (disk full by %s)\n", mounted ? "a 16 KiB tmpfs" :
           "RLIMIT_FSIZE: no mount allowed here");
    int loud = ran == 0 && p.exit_code == 1 &&
               strstr(p.err, mounted ? "No space left on device" :
                      "File too large");
    t_proc_free(&p);
    uint64_t seen = 0;
    int kept = records_once(j, plan_units("fast", 16), 1, &seen) && seen > 100;
    if (mounted)
        remount(fs, "size=2m");
    CHECK(t_run_cli(&p, ARGS("count", "16", "--checkpoint", j)) == 0);
    int resumed = p.exit_code == 0 && t_row_is_oeis(p.out, 16);
    t_proc_free(&p);
    if (mounted)
        unmount(fs);
    CHECKF(loud, "a full disk was not reported with its cause");
    CHECKF(kept, "the records that fit were not kept (%llu)",
           (unsigned long long)seen);
    CHECK(resumed);
}

/* A finished journal on a read-only file system is read and reported; an
 * unfinished one is refused, saying why, exit 1. */
static void read_only_journal(void *arg)
{
    (void)arg;
    const char *fs = t_file("ro-fs");
    char done[512], part[512];
    t_proc p;
    if (!mount_small(fs, "1m")) {
        t_skip("no mount allowed here");
        return;
    }
    snprintf(done, sizeof done, "%s/done", fs);
    snprintf(part, sizeof part, "%s/part", fs);
    t_run_cli(&p, ARGS("count", "12", "--checkpoint", done));
    t_proc_free(&p);
    t_run_cli(&p, ARGS("count", "12", "--checkpoint", part, "--max-units", "9"));
    t_proc_free(&p);
    int ro = remount(fs, "ro");
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", done)) == 0);
    int read_back = p.exit_code == 0 && t_row_is_oeis(p.out, 12);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "12", "--checkpoint", part)) == 0);
    int refused = p.exit_code == 1 && strstr(p.err, "read-only") &&
                  strstr(p.err, "left to count");
    t_proc_free(&p);
    unmount(fs);
    CHECK(ro);
    CHECKF(read_back, "a finished journal on a read-only file system");
    CHECKF(refused, "an unfinished one on a read-only file system");
}

/* The moment a count with --force is planning: it catches signals (its
 * handlers are in), and its journal, opened once the plan is made, is
 * not there yet.  Whatever the machine's speed, a signal then meets the
 * plan: the planning count, or the check of the stop flag after it. */
typedef struct {
    const char *journal;
    int journal_there;
    double caught;
} planning;

/* Half a second after the program catches signals, which it does from
 * main's first line: then it is making the plan (a minute of it), past
 * parsing its arguments even in a sanitizer's build. */
static int is_planning(void *ctx)
{
    planning *pl = ctx;
    double now = nq_clock_seconds();
    if (pl->caught < 0 && t_catches_signals(t_run_pid()))
        pl->caught = now;
    if (pl->caught < 0 || now - pl->caught < 0.5)
        return 0;
    pl->journal_there = access(pl->journal, F_OK) == 0;
    return 1;
}

/* A signal while a big plan is made (carry, N=20: half a minute here):
 * the program ends at once with the signal's status, saying what it was
 * doing.  --force: no estimate before the plan, so nothing but the plan
 * lies between the handlers and the journal. */
static void interrupted_while_planning(void *arg)
{
    int sig = *(const int *)arg;
    planning pl = {t_file("plan.journal"), 0, -1};
    t_proc p;
    double t0 = nq_clock_seconds();
    CHECK(t_run_when(&p, ARGS("count", "20", "--engine", "carry", "--force",
                              "--checkpoint", pl.journal, "--quiet"),
                     is_planning, &pl, sig) == 0);
    double took = nq_clock_seconds() - t0;
    int loud = p.exit_code == 128 + sig &&
               strstr(p.err, "interrupted while making the plan") &&
               strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECKF(!pl.journal_there, "the journal was there when signalled: the "
           "plan was made already");
    CHECKF(loud, "no one-line stop with status %d", 128 + sig);
    CHECKF(took < 20, "took %.1f s", took);
}

/* The engine named in the header is for people: a journal whose engine
 * was renamed (or is not built here, like cuda) still merges and resumes,
 * by its plan. */
static void renamed_engine_still_read(void *arg)
{
    (void)arg;
    const char *j = t_file("renamed.journal");
    t_proc p;
    nq_journal_header h;
    char line[NQ_JOURNAL_LINE_MAX];
    size_t len;
    char *text = finished_journal(j, "11", &h, &len);
    CHECK(text);
    snprintf(h.engine, sizeof h.engine, "cuda");
    int k = nq_jf_header_line(line, sizeof line, &h);
    FILE *f = fopen(j, "wb");
    fwrite(line, 1, (size_t)k, f);
    fputs(strchr(text, '\n') + 1, f);
    fclose(f);
    free(text);
    CHECK(t_run_cli(&p, ARGS("merge", j)) == 0);
    int merged = p.exit_code == 0 && t_row_is_oeis(p.out, 11);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "11", "--checkpoint", j)) == 0);
    int resumed = p.exit_code == 0 && t_row_is_oeis(p.out, 11);
    t_proc_free(&p);
    CHECK(merged && resumed);
}

/* A header cut short by a crash anywhere, even inside its random key, is
 * the remains of a first write: dropped, and the count starts afresh. */
static void header_cut_in_key(void *arg)
{
    (void)arg;
    const char *j = t_file("cut-header.journal");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", j)) == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(j, &len), *key = text ? strstr(text, " key=")
                                                   : NULL;
    CHECK(key);
    write_text(j, text, (size_t)(key - text) + 5 + 20); /* 20 key digits */
    free(text);
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", j)) == 0);
    int ok = p.exit_code == 0 && t_row_is_oeis(p.out, 10) &&
             strstr(p.err, "half-written");
    t_proc_free(&p);
    CHECK(ok);
}

/* Removed after its last write, then stopped: the run still finds out,
 * at the end, and says so (exit 1), not "run the same command". */
static int removed_then(void *ctx)
{
    const growth *g = ctx;
    return grown(ctx) && unlink(g->path) == 0 && usleep(100000) == 0;
}

static void removed_before_the_end(void *arg)
{
    (void)arg;
    const char *j = t_file("gone-late.journal");
    growth g = {j, 20};
    t_proc p;
    CHECK(t_run_when(&p, ARGS("count", "21", "--threads", "1", "--checkpoint",
                              j, "--quiet"), removed_then, &g, SIGINT) == 0);
    int loud = p.exit_code == 1 && strstr(p.err, "was removed or replaced");
    char err[300];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(loud, "not reported: %s", err);
}

/* Each session leaves a run line (its seconds and threads): merge reports
 * the run's recorded time and the most threads, not zeros; an edited run
 * line is refused like an edited record. */
static void merge_reports_run_time(void *arg)
{
    (void)arg;
    const char *a = t_file("timed-1"), *b = t_file("timed-2");
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "13", "--part", "1/2", "-t", "1",
                             "--checkpoint", a)) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "13", "--part", "2/2", "-t", "2",
                             "--checkpoint", b)) == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("merge", a, b, "--json")) == 0);
    double seconds = -1;
    const char *at = strstr(p.out, "\"seconds\":");
    if (at)
        seconds = atof(at + 10);
    int timed = p.exit_code == 0 && strstr(p.out, "\"threads\":2,") &&
                seconds > 0;
    t_proc_free(&p);
    CHECKF(timed, "merge did not report the recorded time and threads");
    size_t len;
    char *text = t_read_file(b, &len), *run = text ? strstr(text, "\nrun ")
                                                    : NULL;
    CHECK(run);
    run[13] = run[13] == '9' ? '8' : '9'; /* the seconds' first digit */
    write_text(b, text, len);
    free(text);
    CHECK(t_run_cli(&p, ARGS("merge", a, b)) == 0);
    int refused = p.exit_code == 1 && strstr(p.err, "run line");
    t_proc_free(&p);
    CHECK(refused);
}

/* The opening run line's optional rank= (an nqueens-mpi worker rank's
 * run): a process's own line has none, as before it existed; the line
 * with " rank=2" (tagged) is read by merge and verify, which names the
 * rank; any other ending (rank 0, a sign, a leading zero, ten digits,
 * words after it, an empty value), tagged as well, is refused as a run
 * line that does not check out. */
static void run_line_rank_field(void *arg)
{
    (void)arg;
    const char *j = t_file("ranked.journal");
    static const char *const bad[] = {" rank=0", " rank=-1", " rank=+1",
                                      " rank=01", " rank=1234567890",
                                      " rank=2 x", " rank=", " rank=2x",
                                      " ranks=2", "  rank=2"};
    t_proc p;
    unlink(j);
    CHECK(t_run_cli(&p, ARGS("count", "11", "--checkpoint", j, "-q")) == 0 &&
          p.exit_code == 0);
    t_proc_free(&p);
    size_t len;
    char *text = t_read_file(j, &len);
    CHECK(text);
    char *open = strstr(text, "\nrun id="), *end = open ? strchr(open + 1,
                                                                  '\n') : NULL;
    char *tag = open ? strstr(open, " tag=") : NULL;
    CHECKF(open && end && tag && tag < end && !strstr(text, "rank="),
           "a threaded journal's opening run line changed: %.120s",
           open ? open + 1 : text);
    char body[NQ_JOURNAL_LINE_MAX], line[NQ_JOURNAL_LINE_MAX + 32];
    for (int k = -1; k < (int)(sizeof bad / sizeof *bad) && !t_failed(); k++) {
        snprintf(body, sizeof body, "%.*s%s", (int)(tag - open - 1), open + 1,
                 k < 0 ? " rank=2" : bad[k]);
        CHECK(t_tagged_line(j, body, line, sizeof line));
        FILE *f = fopen(j, "wb");
        CHECK(f);
        fprintf(f, "%.*s%s%s", (int)(open + 1 - text), text, line, end);
        CHECK(fclose(f) == 0);
        if (k < 0) {
            CHECK(t_run_cli(&p, ARGS("verify", "--json", "-q", j)) == 0);
            int read = p.exit_code == 0 && strstr(p.out, "\"runs\":1,");
            t_proc_free(&p);
            CHECKF(read, "verify refused a run line with rank=2");
            continue;
        }
        CHECK(t_run_cli(&p, ARGS("merge", j)) == 0);
        int refused = p.exit_code == 1 && strstr(p.err, "line 2: a run line "
                                                 "that does not check out");
        t_proc_free(&p);
        CHECKF(refused, "merge took a run line ending '%s'", bad[k]);
    }
    free(text);
}

/* The sum of a journal's run lines' seconds, -1 if it has none. */
static double run_lines_seconds(const char *path)
{
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    double sum = -1;
    for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        double s;
        if (sscanf(l, "run seconds=%lf ", &s) == 1)
            sum = (sum < 0 ? 0 : sum) + s;
    }
    free(text);
    return sum;
}

/* The "seconds" member of a JSON line, -1 if it has none. */
static double json_seconds(const char *out)
{
    const char *at = strstr(out, "\"seconds\":");
    return at ? atof(at + 10) : -1;
}

/* The time column is the count's: every run its journal records, summed,
 * whether the count finishes in this run, was finished before (nothing
 * left to run), or is added up by merge (issue 49: a resumed count showed
 * its last run alone, a finished journal 0). */
static void time_column_sums_runs(void *arg)
{
    (void)arg;
    const char *j = t_file("timed-runs");
    double said[3];
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "15", "-t", "1", "--quiet",
                             "--max-units", "600", "--checkpoint", j)) == 0);
    t_proc_free(&p);
    double first = run_lines_seconds(j);
    const char *const runs[3][9] = {
        {"count", "15", "--json", "--quiet", "--checkpoint", j, NULL},
        {"count", "15", "--json", "--quiet", "--checkpoint", j, NULL},
        {"merge", j, "--json", NULL},
    };
    for (int i = 0; i < 3; i++) {
        CHECK(t_run_cli(&p, runs[i]) == 0);
        said[i] = p.exit_code == 0 ? json_seconds(p.out) : -1;
        t_proc_free(&p);
    }
    double all = run_lines_seconds(j);
    CHECKF(first > 0 && all > first, "run lines: %.6f s after the first run, "
           "%.6f s in all", first, all);
    for (int i = 0; i < 3; i++)
        CHECKF(said[i] > all - 2e-6 && said[i] < all + 2e-6, "%s said %.6f "
               "s, the runs took %.6f s", i == 0 ? "the resumed count" :
               i == 1 ? "the count of the finished journal" : "merge",
               said[i], all);
}

/* ---- shares, and files without a header (issue 36) ---- */

/* Rewrite the journal at path as part `part` of its split (the header's
 * crc redone), its records copied as they are or, with retag, retagged
 * under the new header as a writer holding the key could; run lines are
 * left out when retagging.  0 if it could not be read or rewritten. */
static int reshare(const char *path, unsigned part, int retag)
{
    nq_journal_header h;
    size_t len;
    char *text = t_read_file(path, &len), line[NQ_JOURNAL_LINE_MAX], *save;
    FILE *f = text && t_read_journal_header(path, &h) ? fopen(path, "wb") : NULL;
    int ok = f != NULL;
    h.part = part;
    if (f)
        fwrite(line, 1, (size_t)nq_jf_header_line(line, sizeof line, &h), f);
    for (char *l = f ? strtok_r(strchr(text, '\n') + 1, "\n", &save) : NULL;
         l; l = strtok_r(NULL, "\n", &save)) {
        unsigned long long v[6];
        if (!retag) {
            fprintf(f, "%s\n", l);
        } else if (sscanf(l, "unit %llu %llu %llu %llu %llu %llu", &v[0],
                          &v[1], &v[2], &v[3], &v[4], &v[5]) == 6) {
            nq_tally t = {v[1], v[2], v[3], v[4], v[5]};
            fwrite(line, 1, (size_t)nq_jf_record_line(line, sizeof line, &h,
                                                      v[0], &t), f);
        }
    }
    if (f)
        ok &= fclose(f) == 0;
    free(text);
    return ok;
}

/* A finished part 1/2 of N = 12 (the committed sample of a format version,
 * resumed to its end) edited to say part 2/2.  Version 2's tags do not
 * cover part=, so the records still check out (version 3's are retagged,
 * as a writer with the key could): resuming part 2/2 on it must not call
 * the share done with part 2 never counted.  Refused, by resume and
 * merge alike, in one line naming the file, the line and the unit; the
 * file left as it was. */
typedef struct {
    const char *sample;
    int retag;
} reshared;

static void other_share_refused(void *arg)
{
    const reshared *r = arg;
    const char *j = t_file("reshared.journal");
    t_proc p;
    remove(j);
    CHECK(copy_sample(r->sample, j));
    CHECK(t_run_cli(&p, ARGS("count", "12", "--part", "1/2", "--checkpoint",
                             j)) == 0);
    int finished = p.exit_code == 0 && strstr(p.out, "done: 409 of");
    t_proc_free(&p);
    CHECKF(finished, "part 1/2 of the sample did not finish");
    CHECK(reshare(j, 2, r->retag));
    size_t len, after_len;
    char *before = t_read_file(j, &len), want[512], err[2][512];
    unsigned long long unit = 0;
    CHECK(before && sscanf(strchr(before, '\n') + 1, "unit %llu", &unit) == 1);
    snprintf(want, sizeof want, "nqueens: %s line 2: unit %llu is outside "
             "the journal's share, part 2/2", j, unit);
    for (int k = 0; k < 2; k++) {
        CHECK(t_run_cli(&p, k ? ARGS("merge", j) : ARGS("count", "12",
                        "--part", "2/2", "--checkpoint", j)) == 0);
        int refused = p.exit_code == 1 && p.out_len == 0 &&
                      !strncmp(p.err, want, strlen(want)) &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        snprintf(err[k], sizeof err[k], "%s%s", p.out, p.err);
        t_proc_free(&p);
        CHECKF(refused, "%s: %s", k ? "merge" : "count", err[k]);
    }
    CHECKF(!strcmp(err[0], err[1]), "count and merge say different things: "
           "%s / %s", err[0], err[1]);
    char *after = t_read_file(j, &after_len);
    int same = after && after_len == len && !memcmp(after, before, len);
    free(after);
    free(before);
    CHECK(same);
}

/* A journal records its own share only: a unit of another share (which
 * no run of the share finishes) is refused, and not counted. */
static void records_only_its_share(void *arg)
{
    (void)arg;
    const char *j = t_file("share.journal");
    nq_journal_header h;
    nq_journal *jn;
    char why[256];
    plan_header("fast", 9, &h);
    h.part = 2, h.parts = 3;
    CHECK(nq_journal_open(j, &h, NULL, NULL, &jn, why, sizeof why) == NQ_OK);
    nq_tally t = {.total = 5};
    int ok = nq_journal_record(jn, 4, &t) == NQ_OK &&
             nq_journal_record(jn, 3, &t) == NQ_ERR_ARG &&
             nq_journal_record(jn, 5, &t) == NQ_ERR_ARG &&
             nq_journal_state_get(jn)->units_done == 1;
    ok &= nq_journal_close(jn, why, sizeof why) == NQ_OK;
    CHECK(ok);
    CHECK(lines_in(j) == 2);
}

/* Files without a header that checks out, each made at path. */
static void no_bytes(const char *path)
{
    write_text(path, "", 0);
}

/* The header a count of N = 11 writes, cut inside its key, as a crash
 * while creating the journal leaves it: of another count than the one
 * the test resumes (N = 10), which restarts it all the same, as the words
 * say (it holds no record). */
static void half_header_file(const char *path)
{
    nq_journal_header h;
    char line[NQ_JOURNAL_LINE_MAX];
    plan_header("fast", 11, &h);
    nq_jf_header_line(line, sizeof line, &h);
    write_text(path, line, (size_t)(strstr(line, " key=") + 5 + 9 - line));
}

/* A whole journal of N = 10 whose header says N = 11, its crc not redone
 * (a flipped bit): damage, the record after it intact. */
static void damaged_header_file(const char *path)
{
    nq_journal_header h;
    nq_tally t = {.total = 4};
    char line[2][NQ_JOURNAL_LINE_MAX];
    plan_header("fast", 10, &h);
    int k = nq_jf_header_line(line[0], sizeof line[0], &h);
    int r = nq_jf_record_line(line[1], sizeof line[1], &h, 0, &t);
    memcpy(strstr(line[0], " n=10 "), " n=11 ", 6);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(line[0], 1, (size_t)k, f);
        fwrite(line[1], 1, (size_t)r, f);
        fclose(f);
    }
}

static void notes_file(const char *path)
{
    static const char text[] = "shopping\neggs\n";
    write_text(path, text, sizeof text - 1);
}

static void note_without_newline(const char *path)
{
    static const char text[] = "nqueens: try N = 27";
    write_text(path, text, sizeof text - 1);
}

typedef struct {
    const char *name;
    void (*make)(const char *path);
    const char *says;
    int restarts; /* count --checkpoint starts the journal afresh */
} headless_file;

/* One file met by merge, verify and count --checkpoint: merge and verify
 * refuse it in one line (exit 1), the same line; the count says that
 * line too (the file left as it was), or, for a file that holds no
 * record, starts the journal afresh and counts N = 10 whole. */
static void headless_same_words(void *arg)
{
    const headless_file *hf = arg;
    const char *j = t_file("headless.journal");
    const char *const *runs[3] = {ARGS("merge", j), ARGS("verify", j),
                                  ARGS("count", "10", "--checkpoint", j)};
    char first[512] = "";
    size_t len, after_len;
    remove(j);
    hf->make(j);
    char *before = t_read_file(j, &len);
    CHECK(before);
    free(before);
    for (int r = 0; r < 3; r++) {
        t_proc p;
        before = t_read_file(j, &len);
        CHECK(t_run_cli(&p, runs[r]) == 0);
        char *after = t_read_file(j, &after_len);
        int same = after && before && after_len == len &&
                   !memcmp(after, before, len);
        free(after), free(before);
        int refused = p.exit_code == 1 && !p.out_len && strstr(p.err,
                      hf->says) && strchr(p.err, '\n') == p.err + p.err_len - 1
                      && (!r || !strcmp(p.err, first));
        int restarted = r == 2 && hf->restarts && p.exit_code == 0 &&
                        t_row_is_oeis(p.out, 10);
        char err[512];
        snprintf(err, sizeof err, "%s", p.err);
        if (!r)
            snprintf(first, sizeof first, "%s", p.err);
        t_proc_free(&p);
        CHECKF(restarted || (refused && same), "%s: exit or words wrong: %s "
               "(merge said: %s)", runs[r][0], err, first);
    }
    if (hf->restarts)
        CHECK(records_once(j, plan_units("fast", 10), 0, NULL));
}

void tests_journal(void)
{
    static const int sigint = SIGINT, sigterm = SIGTERM, no = 0, yes = 1;
    static const bad_journal bad[] = {
        {"damaged", "count", flip_digit, {"count", "12", "--checkpoint", "@"},
         "unit 3 does not check out"},
        {"damaged-merge", "count", flip_digit, {"merge", "@"},
         "unit 3 does not check out"},
        {"other-n", "count", keep, {"count", "13", "--checkpoint", "@"},
         "not of this count"},
        {"other-engine", "count", keep, {"count", "12", "--engine", "carry",
         "--checkpoint", "@"}, "not of this count"},
        {"other-part", "count", keep, {"count", "12", "--part", "1/2",
         "--checkpoint", "@"}, "not of this count"},
        {"garbage", NULL, garbage, {"count", "12", "--checkpoint", "@"},
         "not an nqueens journal"},
        {"garbage-merge", NULL, garbage, {"merge", "@"}, "not an nqueens journal"},
        {"text-without-newline", NULL, notes, {"count", "10", "--checkpoint",
         "@"}, "not an nqueens journal"},
        {"junk-after-last-line", "count", junk_tail, {"count", "12",
         "--checkpoint", "@"}, "cut short"},
    };
    t_case(checkpoint_and_rerun, NULL, "journal/checkpoint-then-rerun");
    t_case(resume_after_budget, "fast", "journal/fast/stop-after-40-resume");
    t_case(resume_after_budget, "carry", "journal/carry/stop-after-40-resume");
    t_case(resume_after_budget, "subunits",
           "journal/subunits/stop-after-40-resume");
    t_case(resumed_progress_whole, NULL,
           "journal/resumed-run-shows-the-whole-run's-progress");
    static const kill_case whole = {"3600", 1500}, cut = {"0.0001", 2000};
    t_full_case(survives_kills, (void *)&whole,
                "journal/sigkill-mid-run-repeatedly-resume");
    t_full_case(survives_kills, (void *)&cut,
                "journal/pieces/sigkill-loses-only-pieces-under-way");
    t_full_case(stops_cleanly, (void *)&sigint, "journal/sigint-stops-cleanly");
    t_full_case(stops_cleanly, (void *)&sigterm, "journal/sigterm-stops-cleanly");
    t_case(stops_inside_units, NULL, "journal/sigint-inside-hour-long-units");
    t_case(pieces_journal_verify_merge, NULL,
           "journal/pieces/verify-merge-and-a-missing-piece");
    t_case(pieces_resume_as_written, NULL,
           "journal/pieces/resume-with-the-pieces-written");
    t_case(truncated_tail, NULL, "journal/half-written-record-dropped");
    t_case(cut_in_half, NULL, "journal/cut-mid-line-says-what-was-kept");
    t_case(cut_run_line, NULL, "journal/cut-run-line-named-as-a-run-line");
    t_case(changed_between_reads, NULL, "journal/verify-and-merge-verify-"
           "refuse-a-journal-changed-between-their-reads");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        t_case(refuses_bad_journal, (void *)&bad[i], "journal/refuses/%s",
               bad[i].name);
    t_case(unusable_paths, NULL, "journal/unwritable-directory-fifo-or-device-path");
    t_full_case(one_run_per_journal, NULL, "journal/second-run-on-a-journal-refused");
    t_case(record_once, NULL, "journal/unit-recorded-once");
    t_case(split_and_merge, NULL, "journal/split-3-ways-and-merge");
    t_case(merge_refuses_conflict, NULL, "journal/merge-refuses-conflict");
    t_case(sums_past_64_bits, NULL, "journal/sums-past-2^64");
    t_case(sample_resumes_and_merges, (void *)"journal-v2-n12-part1of2.txt",
           "journal/committed-v2-sample-resumes-and-merges");
    t_case(sample_resumes_and_merges, (void *)"journal-v3-n12-part1of2.txt",
           "journal/committed-v3-sample-resumes-and-merges");
    t_case(v3_tag_as_documented, NULL, "journal/v3-record-key-as-documented");
    t_case(transplant_refused, NULL,
           "journal/records-moved-by-a-header-edit-refused");
    t_case(other_versions_refused, NULL,
           "journal/versions-1-and-5-refused-by-version");
    t_case(failed_final_check_exits_1, NULL, "journal/failed-final-check-exits-1");
    t_case(verify_finds_one_forgery, NULL,
           "journal/verify-all-finds-a-retagged-record-changed-by-8");
    t_case(verify_sample_finds_all_forged, NULL,
           "journal/verify-sample-finds-a-journal-all-forged");
    t_case(verify_sample_sizes, NULL, "journal/verify-sample-sizes-and-seed");
    t_case(verify_order_blind, NULL,
           "journal/verify-recounts-the-same-whatever-the-record-order");
    t_case(verify_refusals, NULL, "journal/verify-refusals");
    t_case(edited_records_refused, NULL,
           "journal/256-records-edited-without-the-key-refused");
    t_case(journal_pulled_away, (void *)&no, "journal/removed-while-running");
    t_case(journal_pulled_away, (void *)&yes, "journal/truncated-while-running");
    t_case(disk_full, NULL, "journal/disk-full-keeps-records-and-resumes");
    t_case(read_only_journal, NULL, "journal/read-only-file-system");
    t_case(renamed_engine_still_read, NULL,
           "journal/engine-renamed-or-absent-still-merged-and-resumed");
    t_case(header_cut_in_key, NULL, "journal/header-cut-inside-its-key-dropped");
    t_case(time_column_sums_runs, NULL,
           "journal/time-column-sums-every-run-resumed-finished-merged");
    t_case(merge_reports_run_time, NULL,
           "journal/run-lines-give-merge-its-time-and-threads");
    t_case(run_line_rank_field, NULL,
           "journal/run-line-rank-field-read-or-refused");
    static const reshared v2_edit = {"journal-v2-n12-part1of2.txt", 0},
                          v3_retag = {"journal-v3-n12-part1of2.txt", 1};
    t_case(other_share_refused, (void *)&v2_edit,
           "journal/v2-part-edited-to-2of2-refused-not-done");
    t_case(other_share_refused, (void *)&v3_retag,
           "journal/v3-records-retagged-under-part-2of2-refused-not-done");
    t_case(records_only_its_share, NULL, "journal/records-only-its-share");
    static const headless_file headless[] = {
        {"empty-file", no_bytes, "an empty file, no journal yet", 1},
        {"half-written-header", half_header_file, "a half-written journal "
         "header and nothing more (a crash while the journal was being "
         "created", 1},
        {"damaged-header", damaged_header_file, "the journal's header (line "
         "1) is damaged", 0},
        {"not-a-journal", notes_file, "not an nqueens journal", 0},
        {"not-a-journal-no-newline", note_without_newline,
         "not an nqueens journal", 0},
    };
    for (size_t i = 0; i < sizeof headless / sizeof headless[0]; i++)
        t_case(headless_same_words, (void *)&headless[i],
               "journal/headless/%s-same-words-in-merge-verify-count",
               headless[i].name);
    t_full_case(removed_before_the_end, NULL,
           "journal/removed-after-the-last-write-then-stopped");
    t_case(interrupted_while_planning, (void *)&sigint,
           "journal/sigint-while-planning-exits-130");
    t_case(interrupted_while_planning, (void *)&sigterm,
           "journal/sigterm-while-planning-exits-143");
    if (getenv("NQ_MPI")) {
        /* for every MPI case (each runs in a child of this process): as
         * root in a container, over shared memory */
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        setenv("OMPI_MCA_btl", "self,vader", 1);
    }
    t_skip_cases(getenv("NQ_MPI") ? NULL : "no mpirun");
    t_full_case(mpi_count_and_resume, NULL, "journal/mpi-3-ranks-stop-resume");
    t_full_case(mpi_stops_inside_units, NULL,
                "journal/mpi-sigint-inside-hour-long-units");
    t_full_case(mpi_rank0_sigint_status, NULL,
                "journal/mpi-rank-0-sigint-exits-130");
    t_skip_cases(NULL);
}

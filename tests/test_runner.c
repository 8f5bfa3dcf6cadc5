/*
 * test_runner.c - the runner's own name filter and count of skips:
 * `nq-tests WORD...` runs only the tests whose name contains a WORD, a
 * WORD (or -WORD) that names nothing fails the run instead of passing it
 * empty, and a group skipped whole counts each of its cases; cases run
 * side by side (NQ_JOBS) are listed as a serial run lists them, each in a
 * folder of its own.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

/* One question to t_name_selected and its right answer. */
typedef struct {
    const char *name;
    char *filters[3];
    int nfilters;
    int want;
} select_case;

typedef struct {
    const select_case *cases;
    size_t count;
} select_table;

#define TABLE(a) {(a), sizeof(a) / sizeof(a)[0]}

/* Each case of the table gets the answer it expects. */
static void select_answers(void *arg)
{
    const select_table *t = arg;
    for (size_t i = 0; i < t->count; i++) {
        const select_case *c = &t->cases[i];
        int got = t_name_selected(c->name, c->filters, c->nfilters);
        CHECKF(got == c->want, "case %zu: '%s' with %d filter(s), first '%s':"
               " %d, not %d", i, c->name, c->nfilters,
               c->nfilters ? c->filters[0] : "", got, c->want);
    }
}

/* No filter words: every name runs, the empty one too. */
static const select_case no_filters[] = {
    {"find/seeds", {NULL}, 0, 1},
    {"runner/select/no-filters-select-all", {NULL}, 0, 1},
    {"", {NULL}, 0, 1},
};

/* A word anywhere in the name selects it: prefix, middle, end, whole. */
static const select_case matches[] = {
    {"find/cli/search", {"find"}, 1, 1},
    {"find/cli/search", {"cli/se"}, 1, 1},
    {"find/cli/search", {"search"}, 1, 1},
    {"find/cli/search", {"find/cli/search"}, 1, 1},
    {"tree/svg", {""}, 1, 1},
};

/* No match: another word, other case, longer than the name. */
static const select_case no_match[] = {
    {"find/seeds", {"complete"}, 1, 0},
    {"find/seeds", {"FIND"}, 1, 0},
    {"find/seeds", {"find/seeds/"}, 1, 0},
    {"find/seeds", {"finds"}, 1, 0},
};

/* Several words: any one of them selects the test. */
static const select_case several[] = {
    {"find/seeds", {"tree", "find"}, 2, 1},
    {"tree/dot", {"tree", "find"}, 2, 1},
    {"trace/summary", {"tree", "find", "mary"}, 3, 1},
    {"compare/table", {"tree", "find", "formats"}, 3, 0},
};

/* "-WORD" leaves out what holds WORD, whatever selects it; alone, it
 * keeps everything else; a lone "-" is an ordinary word. */
static const select_case excluded[] = {
    {"journal/disk-full", {"-journal"}, 1, 0},
    {"find/seeds", {"-journal"}, 1, 1},
    {"journal/mpi-rank", {"journal", "-mpi"}, 2, 0},
    {"journal/sample", {"journal", "-mpi"}, 2, 1},
    {"core/u128", {"journal", "-mpi"}, 2, 0},
    {"a-b", {"-"}, 1, 1},
};

static const select_table tables[] = {
    TABLE(no_filters), TABLE(matches), TABLE(no_match), TABLE(several),
    TABLE(excluded),
};

/* 1 if the last line of text is exactly line (with its newline): the
 * summary is checked there, whatever a group prints outside its tests (a
 * skipped group's note, say). */
static int last_line_is(const char *text, const char *line)
{
    size_t n = strlen(text), k = strlen(line);
    return n >= k && strcmp(text + n - k, line) == 0 &&
           (n == k || text[n - k - 1] == '\n');
}

/* How many tests a run of the runner printed as passed. */
static int ok_lines(const char *out)
{
    int k = 0;
    for (const char *s = out; (s = strstr(s, "ok   ")); s++)
        k += s == out || s[-1] == '\n';
    return k;
}

/* Run the runner again with words; a failure unless it could be run. */
static void run_self(t_proc *p, const char *const *args)
{
    CHECKF(t_run_signalled(p, t_runner_path(), args, 0, 0) == 0,
           "could not run %s", t_runner_path());
}

/* The command line end to end: a word (or a -WORD) that names no test
 * fails the run (exit 1, the message on stderr), alone or beside one that
 * matches; a word that matches runs just those tests. */
static void command_line(void *arg)
{
    (void)arg;
    const char *self = t_runner_path();
    t_proc p;
    run_self(&p, ARGS(self, "nosuchtest"));
    T_BAIL();
    int none = p.exit_code == 1 && ok_lines(p.out) == 0 &&
               last_line_is(p.out, "0 passed, 0 failed, 0 skipped\n") &&
               strcmp(p.err, "no test matches 'nosuchtest'\n") == 0;
    t_proc_free(&p);
    CHECK(none);
    run_self(&p, ARGS(self, "runner/select/", "zzz-no-such"));
    T_BAIL();
    int one_bad = p.exit_code == 1 && ok_lines(p.out) == 5 &&
                  last_line_is(p.out, "5 passed, 0 failed, 0 skipped\n") &&
                  strcmp(p.err, "no test matches 'zzz-no-such'\n") == 0;
    t_proc_free(&p);
    CHECK(one_bad);
    run_self(&p, ARGS(self, "runner/select/no-"));
    T_BAIL();
    int two = p.exit_code == 0 && p.err_len == 0 && ok_lines(p.out) == 2 &&
              strstr(p.out, "ok   runner/select/no-filters-select-all\n"
                            "ok   runner/select/no-match\n") &&
              last_line_is(p.out, "2 passed, 0 failed, 0 skipped\n");
    t_proc_free(&p);
    CHECK(two);
    run_self(&p, ARGS(self, "runner/select/no-", "-zzz-no-such"));
    T_BAIL();
    int stale = p.exit_code == 1 && ok_lines(p.out) == 2 &&
                strcmp(p.err, "no test matches '-zzz-no-such'\n") == 0;
    t_proc_free(&p);
    CHECKF(stale, "a -WORD that leaves out nothing was not reported");
}

/* How many lines of out start with `start`. */
static int lines_starting(const char *out, const char *start)
{
    int k = 0;
    for (const char *s = out; (s = strstr(s, start)); s++)
        k += s == out || s[-1] == '\n';
    return k;
}

/* A group skipped whole (its tool missing: MPI, tmux) counts each of its
 * cases, by name, as skipped, and a word naming one case of it selects
 * that one: the runner run again without NQ_MPI and NQ_CLI. */
static void skipped_cases_counted(void *arg)
{
    (void)arg;
    const char *self = t_runner_path();
    char summary[64];
    t_proc p;
    unsetenv("NQ_MPI"); /* this case's own process */
    unsetenv("NQ_CLI");
    run_self(&p, ARGS(self, "mpi/", "progress/"));
    T_BAIL();
    int mpi = lines_starting(p.out, "skip mpi/"),
        progress = lines_starting(p.out, "skip progress/tmux-");
    snprintf(summary, sizeof summary, "0 passed, 0 failed, %d skipped\n",
             lines_starting(p.out, "skip "));
    int whole = p.exit_code == 0 && mpi >= 4 && progress >= 3 &&
                lines_starting(p.out, "skip ") == mpi + progress &&
                strstr(p.out, "skip mpi/2-ranks-count-10 (no NQ_MPI") &&
                last_line_is(p.out, summary);
    t_proc_free(&p);
    CHECKF(whole, "mpi/ and progress/ skipped: %d and %d skip lines, or the "
           "summary is not their sum", mpi, progress);
    run_self(&p, ARGS(self, "mpi/2-ranks-count-10"));
    T_BAIL();
    int one = p.exit_code == 0 && p.err_len == 0 &&
              lines_starting(p.out, "skip mpi/2-ranks-count-10 (") == 1 &&
              last_line_is(p.out, "0 passed, 0 failed, 1 skipped\n");
    t_proc_free(&p);
    CHECKF(one, "one case of a skipped group, named, is not one skip");
}

/* A case's own folder (t_case_dir): there, empty, writable, the same
 * folder when asked again; the case prints its path, a line of its own
 * that the runner must print with the case's outcome (checked by
 * side_by_side, which also finds the folder gone once the case ended). */
static void prints_its_folder(void *arg)
{
    (void)arg;
    const char *dir = t_case_dir();
    char path[256];
    struct stat st;
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    CHECKF(d && entries == 0, "%s: %d entries when first asked for", dir,
           entries);
    snprintf(path, sizeof path, "%s/sub", dir);
    CHECK(mkdir(path, 0500) == 0); /* read-only: still removed */
    snprintf(path, sizeof path, "%s/x", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fclose(f) == 0);
    CHECK(t_case_dir() == dir);
    printf("     (folder %s)\n", dir);
}

/* A run's listing with what differs from run to run masked: the times
 * of slow cases (" (0.3 s)") and the folder's path. */
static void mask_run(char *out)
{
    char *w = out;
    for (const char *s = out; *s;) {
        double t;
        int used = 0;
        if (s[0] == ' ' && s[1] == '(' &&
            sscanf(s, " (%lf s)%n", &t, &used) == 1 && used > 0) {
            s += used;
            continue;
        }
        if (!strncmp(s, "(folder ", 8)) { /* w is never past s */
            size_t len = strcspn(s, ")");
            s += len + (s[len] == ')');
            memcpy(w, "(folder)", 8), w += 8;
            continue;
        }
        *w++ = *s++;
    }
    *w = '\0';
}

/* The same cases with NQ_JOBS=1 (one after another) and NQ_JOBS=4 (side
 * by side): the same listing, in the order declared, a case's own
 * output just before its outcome; the case's folder is gone after it;
 * an NQ_JOBS that is not a number of jobs fails the run at once. */
static void side_by_side(void *arg)
{
    (void)arg;
    const char *self = t_runner_path();
    char *out[2] = {NULL, NULL}, folder[256] = "";
    static const char *const jobs[2] = {"1", "4"};
    for (int i = 0; i < 2; i++) {
        t_proc p;
        CHECK(setenv("NQ_JOBS", jobs[i], 1) == 0); /* this case's own */
        run_self(&p, ARGS(self, "runner/select/", "runner/prints-its-folder"));
        T_BAIL();
        const char *at = strstr(p.out, "     (folder ");
        if (at)
            sscanf(at, "     (folder %255[^)])", folder);
        int ok = p.exit_code == 0 && p.err_len == 0 && at &&
                 !strncmp(strchr(at, '\n') + 1,
                          "ok   runner/prints-its-folder", 29) &&
                 last_line_is(p.out, "6 passed, 0 failed, 0 skipped\n");
        out[i] = p.out;
        free(p.err);
        struct stat st;
        CHECKF(ok, "NQ_JOBS=%s: not 6 passed, or the case's line not "
               "before its outcome:\n%s", jobs[i], out[i]);
        CHECKF(stat(folder, &st) != 0, "%s left behind", folder);
        mask_run(out[i]);
    }
    int same = !strcmp(out[0], out[1]);
    if (!same)
        fprintf(stderr, "NQ_JOBS=1:\n%sNQ_JOBS=4:\n%s", out[0], out[1]);
    free(out[0]), free(out[1]);
    CHECKF(same, "the listings of NQ_JOBS=1 and 4 differ");
    t_proc p;
    CHECK(setenv("NQ_JOBS", "0", 1) == 0);
    run_self(&p, ARGS(self, "runner/select/"));
    T_BAIL();
    int refused = p.exit_code == 1 && strstr(p.err, "NQ_JOBS='0'") &&
                  ok_lines(p.out) == 0;
    t_proc_free(&p);
    CHECKF(refused, "NQ_JOBS=0 was not refused");
}

/* The pure selection first, then the runner run for real. */
void tests_runner(void)
{
    static const char *const names[] = {
        "no-filters-select-all", "substring-match", "no-match",
        "several-filters-any", "minus-word-leaves-out",
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        t_case(select_answers, (void *)&tables[i], "runner/select/%s",
               names[i]);
    t_case(command_line, NULL, "runner/command-line-filter");
    t_case(skipped_cases_counted, NULL, "runner/skipped-group-counts-each-case");
    t_case(prints_its_folder, NULL, "runner/prints-its-folder");
    t_case(side_by_side, NULL, "runner/side-by-side-listed-as-in-order");
}

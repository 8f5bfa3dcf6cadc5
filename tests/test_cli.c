/*
 * test_cli.c - the nqueens command as a user meets it: golden outputs from
 * the seed programs, tables and JSON checked against OEIS, and bad input
 * refused with one line and exit 2.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "../programs/output/duration.h"
#include "../programs/output/table.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The CLI ran, exited 0 and wrote nothing on stderr. */
static void run_ok(t_proc *p, const char *const *args)
{
    CHECKF(t_run_cli(p, args) == 0, "could not run %s", getenv("NQ_CLI"));
    CHECKF(p->exit_code == 0, "exit %d, stderr: %s", p->exit_code, p->err);
    CHECKF(p->err_len == 0, "unexpected stderr: %s", p->err);
}

/* A command's whole output, byte for byte, against a file. */
typedef struct {
    const char *file;
    const char *args[8];
} golden_run;

/* tests/data/solve5-grid.txt is what seed 000's Python program prints
 * (backTracking(0,5)); tests/data/solve8-dots.txt what seed 002's C program
 * prints (N=8).  Both were produced by running those programs.
 * tests/data/trace4-seed.txt is seed 003's walk of its Python program
 * through the 4-queens board, in its notation, to the end (the seed
 * stops after the first few rows; the lines it shows are checked
 * literally in seed_trace_lines). */
static void golden_command(void *arg)
{
    const golden_run *g = arg;
    size_t len;
    t_proc p;
    char *want = t_read_file(t_data_path(g->file), &len);
    CHECKF(want, "cannot read %s", t_data_path(g->file));
    run_ok(&p, g->args);
    int same = !t_failed() && p.out_len == len && memcmp(p.out, want, len) == 0;
    free(want);
    t_proc_free(&p);
    T_BAIL();
    CHECKF(same, "output differs from %s", g->file);
}

/* The lines of seed 003's walk-through, as the seed writes them (its
 * "FB[row-i+(size-1)->" lacks a bracket, and its row=2,i=3 says FB[2]==0
 * where the array it has just printed holds 1: those two are ours). */
static void seed_trace_lines(void *arg)
{
    (void)arg;
    static const char *const lines[] = {
        "row=1,i=2\nFA[i]->FA[2]==0\n"
        "FB[row-i+(size-1)]->FB[1-2+(4-1)]->FB[2]==0\n"
        "FC[row+i]->FC[1+2]->FC[3]==0\n",
        "FA\nFA[0]=1\nFA[1]=0\nFA[2]=1\nFA[3]=0\n"
        "FB\nFB[0]=0\nFB[1]=0\nFB[2]=1\nFB[3]=1\nFB[4]=0\nFB[5]=0\n"
        "FB[6]=0\nFC\nFC[0]=1\nFC[1]=0\nFC[2]=0\nFC[3]=1\nFC[4]=0\n"
        "FC[5]=0\nFC[6]=0\n",
        "row=2,i=1\nFA[i]->FA[1]==0\n"
        "FB[row-i+(size-1)]->FB[2-1+(4-1)]->FB[4]==0\n"
        "FC[row+i]->FC[2+1]->FC[3]==1\n",
        "FA[2]=1-->FA[2]=0\n", "FB[2]=1-->FB[2]=0\n", "FC[3]=1-->FC[3]=0\n",
        "row=1,i=3\nFA[i]->FA[3]==0\n"
        "FB[row-i+(size-1)]->FB[1-3+(4-1)]->FB[1]==0\n"
        "FC[row+i]->FC[1+3]->FC[4]==0\n",
    };
    t_proc p;
    run_ok(&p, ARGS("trace", "4", "--style", "seed"));
    T_BAIL();
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (!strstr(p.out, lines[i])) {
            t_proc_free(&p);
            CHECKF(0, "no seed lines: %.40s...", lines[i]);
        }
    t_proc_free(&p);
}

/* " N:  total  unique  time" rows, checked against OEIS. */
static void count_table(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("count", "4-10", "--engine", "bitmap"));
    T_BAIL();
    char *save = NULL, *line = strtok_r(p.out, "\n", &save);
    int rows = 0;
    if (!line || strcmp(line, " N:        Total       Unique        hh:mm:ss.ms"))
        t_fail(__FILE__, __LINE__, "bad header: %s", line ? line : "(none)");
    while (!t_failed() && (line = strtok_r(NULL, "\n", &save))) {
        int n, h, m, s, ms;
        unsigned long long total, unique;
        if (sscanf(line, "%d:%llu%llu %d:%d:%d.%d", &n, &total, &unique, &h, &m,
                   &s, &ms) != 7 || n != 4 + rows ||
            total != (unsigned long long)t_oeis_total(n) ||
            unique != (unsigned long long)t_oeis_unique(n) || strlen(line) != 48)
            t_fail(__FILE__, __LINE__, "bad row: '%s'", line);
        rows++;
    }
    t_proc_free(&p);
    T_BAIL();
    CHECKF(rows == 7, "%d rows for 4-10", rows);
}

/* Where a table line's columns end: the N's colon, then each of the
 * words after it (blank-separated); returns how many words (at most
 * `most`), each copied into words[i] when words is given. */
static int column_ends(const char *line, int *ends, char (*words)[64],
                       int most)
{
    const char *colon = strchr(line, ':'), *s = colon;
    int k = 0;
    if (!colon)
        return -1;
    ends[0] = (int)(colon - line) + 1;
    for (s++; k < most; k++) {
        s += strspn(s, " ");
        size_t len = strcspn(s, " \n");
        if (!len)
            break;
        if (words)
            snprintf(words[k], sizeof words[k], "%.*s", (int)len, s);
        s += len;
        ends[k + 1] = (int)(s - line);
    }
    return k;
}

/* Every line of a table ends its columns where its header does: the
 * N's colon, then Total, Unique and hh:mm:ss.ms right-aligned. */
static void check_aligned(const char *header, const char *row)
{
    int want[4], got[4];
    CHECKF(column_ends(header, want, NULL, 3) == 3, "header '%s'", header);
    CHECKF(column_ends(row, got, NULL, 3) == 3, "not 3 columns apart after "
           "N: '%s'", row);
    CHECKF(!memcmp(want, got, sizeof want), "'%s' is not aligned under "
           "'%s'", row, header);
}

/* The rows of OEIS's record sizes (A000170 totals, A002562 uniques,
 * N = 23..27), in a table as wide as its largest N asks: each number in a
 * column of its own, equal to OEIS's, and aligned under the header.
 * Before the columns widened, N = 23 printed
 * "23:242339376844403029242658210". */
static void table_record_rows(void *arg)
{
    (void)arg;
    enum { LO = 23, HI = 27 };
    char header[CLI_TABLE_LINE], row[CLI_TABLE_LINE], w[3][64];
    char want[2][NQ_U128_DIGITS];
    int ends[4];
    CHECKF(t_oeis_max >= HI, "tests/data/oeis.tsv stops at N = %d",
           t_oeis_max);
    int width = cli_table_width(HI);
    cli_table_header(header, sizeof header, width);
    for (int n = LO; n <= HI && !t_failed(); n++) {
        cli_table_row(row, sizeof row, width, n, t_oeis_total(n),
                      t_oeis_unique(n), 3600.0 * n);
        nq_format_u128(t_oeis_total(n), want[0]);
        nq_format_u128(t_oeis_unique(n), want[1]);
        CHECKF(column_ends(row, ends, w, 3) == 3 && atoi(row) == n &&
               !strcmp(w[0], want[0]) && !strcmp(w[1], want[1]),
               "N=%d: '%s' is not %s and %s apart", n, row, want[0], want[1]);
        check_aligned(header, row);
    }
}

/* Durations in words, as estimates and refusals print them: the largest
 * unit the time holds twice, two significant digits (more where an
 * interval's ends would read as the estimate), singular for exactly one
 * ("over 1 years" before issue 49). */
static void durations_in_words(void *arg)
{
    (void)arg;
    const double minute = 60, hour = 3600, day = 86400, year = 365.2425 * day;
    const double month = year / 12;
    const struct {
        double s, lo, hi;
        const char *want;
    } cases[] = {
        {1, -1, -1, "1 second"},
        {0.25, -1, -1, "0.25 seconds"},
        {100, -1, -1, "100 seconds"},
        {130, -1, -1, "2.2 minutes"},
        {hour, -1, -1, "60 minutes"},
        {2 * hour, -1, -1, "2 hours"},
        {36 * hour, -1, -1, "36 hours"},
        {3 * day, -1, -1, "3 days"},
        {4 * month, 3 * month, 5 * month, "4 months (3-5)"},
        {1.2 * year, -1, -1, "14 months"},
        {2 * year, 1.9 * year, 2.1 * year, "2 years (1.9-2.1)"},
        {15.8 * hour, 15.5 * hour, 16.1 * hour, "15.8 hours (15.5-16.1)"},
        {596 * year, 353 * year, 839 * year, "596 years (353-839)"},
        {1.4e7 * year, 0.75e7 * year, 2.1e7 * year,
         "1.4 x 10^7 years (0.75-2.1 x 10^7)"},
        {1e4 * year, -1, -1, "1 x 10^4 years"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[128];
        cli_format_estimate(cases[i].s, cases[i].lo, cases[i].hi, got,
                            sizeof got);
        CHECKF(!strcmp(got, cases[i].want), "%g s: '%s', not '%s'",
               cases[i].s, got, cases[i].want);
    }
    char one[64];
    cli_format_duration(year, one, sizeof one);
    CHECKF(!strcmp(one, "12 months"), "a year: '%s'", one);
    cli_format_duration(2 * year, one, sizeof one);
    CHECKF(!strcmp(one, "2 years"), "two years: '%s'", one);
    (void)minute;
}

/* Up to N = 22 the table is the seed's own: its header, and rows as
 * "%2d:%13s%13s%19s" prints them, N = 22's 13-digit total included. */
static void table_seed_look(void *arg)
{
    (void)arg;
    char line[CLI_TABLE_LINE], want[CLI_TABLE_LINE], t[NQ_U128_DIGITS],
        u[NQ_U128_DIGITS];
    int width = cli_table_width(t_oeis_max < 22 ? t_oeis_max : 22);
    cli_table_header(line, sizeof line, width);
    CHECKF(!strcmp(line, " N:        Total       Unique        hh:mm:ss.ms\n"),
           "header '%s'", line);
    for (int n = 1; n <= 22 && n <= t_oeis_max && !t_failed(); n++) {
        cli_table_row(line, sizeof line, width, n, t_oeis_total(n),
                      t_oeis_unique(n), 61.5);
        snprintf(want, sizeof want, "%2d:%13s%13s%19s\n", n,
                 nq_format_u128(t_oeis_total(n), t),
                 nq_format_u128(t_oeis_unique(n), u), "00:01:01.500");
        CHECKF(!strcmp(line, want), "'%s', not the seed's '%s'", line, want);
    }
}

/* The largest 128-bit counts (39 digits) overflow any column a board up
 * to NQ_MAX_N asks for, and still stand a blank apart, whole. */
static void table_widest_counts(void *arg)
{
    (void)arg;
    char line[CLI_TABLE_LINE], w[3][64], most[NQ_U128_DIGITS];
    int ends[4];
    nq_u128 top = ~(nq_u128)0;
    nq_format_u128(top, most);
    CHECK(strlen(most) == 39);
    const int widths[] = {cli_table_width(1), cli_table_width(NQ_MAX_N)};
    for (int i = 0; i < 2; i++) {
        cli_table_row(line, sizeof line, widths[i], NQ_MAX_N, top, top - 1,
                      1e6);
        most[38] = '5';
        int apart = column_ends(line, ends, w, 3) == 3 && !strcmp(w[0], most);
        most[38] = '4';
        apart = apart && !strcmp(w[1], most) && !strcmp(w[2], "277:46:40.000");
        CHECKF(apart && line[strlen(line) - 1] == '\n', "width %d: '%s'",
               widths[i], line);
    }
}

/* count over a range, through the binary: every row under the header. */
static void count_range_aligned(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("count", "1-12", "--engine", "bitmap"));
    T_BAIL();
    char *save = NULL, *header = strtok_r(p.out, "\n", &save), *line;
    int rows = 0;
    while (header && !t_failed() && (line = strtok_r(NULL, "\n", &save))) {
        check_aligned(header, line);
        rows++;
    }
    t_proc_free(&p);
    T_BAIL();
    CHECKF(rows == 12, "%d rows for 1-12", rows);
}

/* The value of "key" in a flat JSON object line, or NULL. */
static const char *json_value(const char *line, const char *key, char *buf,
                              size_t size)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    if (!at)
        return NULL;
    at += strlen(pattern);
    size_t n = strcspn(at, ",}");
    if (n >= size)
        return NULL;
    memcpy(buf, at, n);
    buf[n] = '\0';
    return buf;
}

/* verify --all recounts every recorded unit and draws none at random:
 * its summary says "all" of them (as many as the JSON summary says are
 * recorded) and names no seed, where it once said "818 drawn at random";
 * a sample still says how many it drew, and from which seed. */
static void verify_all_says_all(void *arg)
{
    (void)arg;
    char journal[64], v[32], want[96], sample[4096] = "";
    snprintf(journal, sizeof journal, "/tmp/nq-cli-verify-%d", (int)getpid());
    unlink(journal);
    t_proc p;
    run_ok(&p, ARGS("count", "12", "--checkpoint", journal, "--quiet"));
    t_proc_free(&p);
    run_ok(&p, ARGS("verify", "--all", "--json", "-q", journal));
    const char *recorded = t_failed() ? NULL
                           : json_value(p.out, "recorded", v, sizeof v);
    snprintf(want, sizeof want, "recounted all %s recorded units; all agree",
             recorded ? recorded : "?");
    t_proc_free(&p);
    run_ok(&p, ARGS("verify", "--all", "-q", journal));
    int honest = !t_failed() && recorded && strstr(p.out, want) &&
                 !strstr(p.out, "random") && !strstr(p.out, "seed");
    char all[4096];
    snprintf(all, sizeof all, "%s", p.out ? p.out : "");
    t_proc_free(&p);
    run_ok(&p, ARGS("verify", "--seed", "5", "-q", journal));
    if (p.out)
        snprintf(sample, sizeof sample, "%s", p.out);
    t_proc_free(&p);
    unlink(journal);
    T_BAIL();
    CHECKF(honest, "verify --all said '%s', not '%s'", all, want);
    CHECKF(strstr(sample, "drawn at random (seed 5)"), "a sample said '%s'",
           sample);
}

static void count_json(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("count", "4-9", "--engine", "flags", "--json"));
    T_BAIL();
    char *save = NULL, *line;
    int n = 4;
    for (line = strtok_r(p.out, "\n", &save); line && !t_failed();
         line = strtok_r(NULL, "\n", &save), n++) {
        char v[64], want[NQ_U128_DIGITS];
        const char *keys[] = {"n", "total", "unique", "nodes", "engine",
                              "threads", "seconds"};
        if (line[0] != '{' || line[strlen(line) - 1] != '}')
            t_fail(__FILE__, __LINE__, "not an object: %s", line);
        for (int k = 0; k < 7; k++)
            if (!json_value(line, keys[k], v, sizeof v))
                t_fail(__FILE__, __LINE__, "no key %s in %s", keys[k], line);
        if (t_failed())
            break;
        if (atoi(json_value(line, "n", v, sizeof v)) != n ||
            strcmp(json_value(line, "total", v, sizeof v),
                   nq_format_u128(t_oeis_total(n), want)) ||
            strcmp(json_value(line, "unique", v, sizeof v),
                   nq_format_u128(t_oeis_unique(n), want)) ||
            strcmp(json_value(line, "nodes", v, sizeof v),
                   nq_format_u128(t_tree_nodes(n), want)) ||
            strcmp(json_value(line, "engine", v, sizeof v), "\"flags\"") ||
            atof(json_value(line, "seconds", v, sizeof v)) < 0)
            t_fail(__FILE__, __LINE__, "wrong values: %s", line);
    }
    t_proc_free(&p);
    T_BAIL();
    CHECKF(n == 10, "%d lines for 4-9", n - 4);
}

/* Each line of `solve --format array` parsed and checked. */
static int array_lines(const char *out, int n, int *valid)
{
    int lines = 0;
    *valid = 1;
    for (const char *s = out; *s; lines++) {
        int cols[NQ_MAX_N], k = 0, used;
        while (k < n && sscanf(s, "%d%n", &cols[k], &used) == 1)
            s += used, k++;
        if (k != n || *s != '\n' || nq_check_placement(cols, n) != NQ_OK)
            *valid = 0;
        s += strcspn(s, "\n") + (*s != '\0');
    }
    return lines;
}

typedef struct {
    const char *args[8];
    int lines;
} array_case;

static void solve_array(void *arg)
{
    const array_case *c = arg;
    t_proc p;
    int valid;
    run_ok(&p, c->args);
    T_BAIL();
    int lines = array_lines(p.out, atoi(c->args[1]), &valid);
    t_proc_free(&p);
    CHECKF(valid, "a line is not a valid solution");
    CHECKF(lines == c->lines, "%d lines, expected %d", lines, c->lines);
}

static void solve_unicode(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("solve", "8", "--format", "unicode", "--limit", "3"));
    T_BAIL();
    int queens = 0, boards = 0;
    for (const char *s = p.out; (s = strstr(s, "\u265b")); s++)
        queens++;
    for (const char *s = p.out; (s = strstr(s, "\u250c")); s++)
        boards++;
    int shaded = strstr(p.out, "\u2591") != NULL;
    t_proc_free(&p);
    CHECKF(queens == 24 && boards == 3, "%d queens on %d boards", queens, boards);
    CHECK(shaded);
}

/* `units`: a header, then one line per unit, ids 0, 1, ... in order, as
 * many as the plan has. */
static void units_listing(void *arg)
{
    const char *engine = arg;
    t_proc p;
    nq_plan *plan;
    nq_request req = {.size = sizeof(nq_request), .n = 10, .engine = engine};
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    uint64_t units = nq_plan_units(plan);
    nq_plan_free(plan);
    run_ok(&p, ARGS("units", "10", "--engine", engine));
    T_BAIL();
    char *save = NULL, *line = strtok_r(p.out, "\n", &save);
    uint64_t lines = 0;
    int header = line && line[0] == '#' && strstr(line, engine);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL && !t_failed()) {
        char *tab = strchr(line, '\t');
        if (!tab || strtoull(line, NULL, 10) != lines || strlen(tab) < 3)
            t_fail(__FILE__, __LINE__, "bad unit line: %s", line);
        lines++;
    }
    t_proc_free(&p);
    T_BAIL();
    CHECK(header);
    CHECKF(lines == units, "%llu lines for %llu units",
           (unsigned long long)lines, (unsigned long long)units);
}

/* --threads reaches the JSON; --quiet and a non-terminal stderr: nothing
 * on stderr (run_ok checks). */
static void threads_option(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("count", "11", "--threads", "3", "--json", "--quiet"));
    T_BAIL();
    int three = strstr(p.out, "\"threads\":3") != NULL &&
                strstr(p.out, "\"total\":2680") != NULL;
    t_proc_free(&p);
    CHECK(three);
    run_ok(&p, ARGS("count", "12", "--engine", "carry", "--threads=1"));
    T_BAIL();
    int row = strstr(p.out, "12:        14200         1787") != NULL;
    t_proc_free(&p);
    CHECK(row);
}

static void help_and_version(void *arg)
{
    (void)arg;
    const char *const *cases[] = {
        ARGS("--help"), ARGS("help"), ARGS("help", "help"),
        ARGS("help", "--help"), ARGS("count", "--help"),
        ARGS("solve", "--help"), ARGS("engines", "--help"),
        ARGS("units", "--help"), ARGS("tree", "--help"),
        ARGS("trace", "--help"), ARGS("compare", "--help"),
        ARGS("find", "--help"), ARGS("complete", "--help"),
    };
    t_proc p;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_ok(&p, cases[i]);
        T_BAIL();
        int usage = strncmp(p.out, "usage: nqueens", 14) == 0;
        t_proc_free(&p);
        CHECKF(usage, "help %zu does not start with usage", i);
    }
    run_ok(&p, ARGS("--version"));
    T_BAIL();
    char want[128];
    snprintf(want, sizeof want, "nqueens " NQ_VERSION_STRING "\nkernels: ");
    int version = strncmp(p.out, want, strlen(want)) == 0;
    snprintf(want, sizeof want, "(this CPU: %s)\n", nq_kernel_best());
    int chosen = strstr(p.out, want) != NULL;
    t_proc_free(&p);
    CHECK(version && chosen);
}

/* --kernel and NQ_KERNEL: each kernel this CPU runs counts right and is
 * named in the JSON; an unknown one is refused naming the choices. */
static void kernel_option(void *arg)
{
    (void)arg;
    t_proc p;
    for (int i = 0; i < nq_kernel_count(); i++) {
        const char *k = nq_kernel_at(i);
        char want[64];
        if (!nq_kernel_supported(k))
            continue;
        CHECK(t_run_cli(&p, ARGS("count", "11", "--json", "--kernel", k)) == 0);
        snprintf(want, sizeof want, "\"kernel\":\"%s\"", k);
        int ok = p.exit_code == 0 && strstr(p.out, "\"total\":2680,") &&
                 strstr(p.out, want);
        t_proc_free(&p);
        CHECKF(ok, "--kernel %s", k);
    }
    CHECK(t_run_cli(&p, ARGS("count", "8", "--kernel", "mmx")) == 0);
    int refused = p.exit_code == 2 && strstr(p.err, "unknown kernel 'mmx'") &&
                  strstr(p.err, "scalar");
    t_proc_free(&p);
    CHECK(refused);
    setenv("NQ_KERNEL", "mmx", 1);
    CHECK(t_run_cli(&p, ARGS("count", "8")) == 0);
    unsetenv("NQ_KERNEL");
    refused = p.exit_code == 2 && strstr(p.err, "NQ_KERNEL: unknown kernel");
    t_proc_free(&p);
    CHECK(refused);
    /* NQ_KERNEL is the process default; --kernel, the count's, wins */
    setenv("NQ_KERNEL", "scalar", 1);
    char best[64];
    snprintf(best, sizeof best, "\"kernel\":\"%s\"", nq_kernel_best());
    CHECK(t_run_cli(&p, ARGS("count", "10", "--json", "--kernel",
                             nq_kernel_best())) == 0);
    int count_wins = p.exit_code == 0 && strstr(p.out, "\"total\":724,") &&
                     strstr(p.out, best);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "10", "--json")) == 0);
    unsetenv("NQ_KERNEL");
    int default_used = p.exit_code == 0 && strstr(p.out, "\"kernel\":\"scalar\"");
    t_proc_free(&p);
    CHECK(count_wins && default_used);
}

/* Help pages and messages name engines from the table: each engine with
 * the capability appears, each without it does not. */
static void engine_names_from_table(void *arg)
{
    (void)arg;
    const struct {
        const char *const *args;
        unsigned caps;
        int on_stderr;
    } pages[] = {
        {ARGS("trace", "--help"), NQ_CAP_EVENTS, 0},
        {ARGS("tree", "--help"), NQ_CAP_EVENTS, 0},
        {ARGS("solve", "--help"), NQ_CAP_ENUMERATE, 0},
        {ARGS("count", "9", "--engine", "bitmap", "--checkpoint", "x"),
         NQ_CAP_UNITS, 1},
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        t_proc p;
        CHECK(t_run_cli(&p, pages[k].args) == 0);
        const char *text = pages[k].on_stderr ? p.err : p.out;
        char list[512] = "";
        for (int i = 0; i < nq_engine_count(); i++) {
            const nq_engine *e = nq_engine_at(i);
            if (nq_engine_caps(e) & pages[k].caps)
                snprintf(list + strlen(list), sizeof list - strlen(list),
                         "%s%s", list[0] ? ", " : "", nq_engine_name(e));
        }
        int named = strstr(text, list) != NULL;
        t_proc_free(&p);
        CHECKF(named, "page %zu does not list exactly: %s", k, list);
    }
}

/* getopt_long conventions: short forms, bundling, --opt=value, options
 * after the board, and -- ending the options. */
static void option_conventions(void *arg)
{
    (void)arg;
    const char *const *same[] = {
        ARGS("count", "-qjt1", "-e", "fast", "10"),
        ARGS("count", "10", "--json", "--threads=1", "--quiet"),
        ARGS("count", "-j", "--threads", "1", "--engine=fast", "--", "10"),
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, same[i]) == 0);
        int ok = p.exit_code == 0 && strstr(p.out, "\"total\":724,") &&
                 strstr(p.out, "\"threads\":1,") && p.err_len == 0;
        t_proc_free(&p);
        CHECKF(ok, "form %zu", i);
    }
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "-x", "8")) == 0);
    int refused = p.exit_code == 2 && strstr(p.err, "unknown option '-x'");
    t_proc_free(&p);
    CHECK(refused);
    CHECK(t_run_cli(&p, ARGS("count", "8", "-e")) == 0);
    refused = p.exit_code == 2 && strstr(p.err, "needs a value");
    t_proc_free(&p);
    CHECK(refused);
}

/* Lines of a help page's closing "examples:" block, each a command; -1
 * if anything else follows the heading. */
static int examples(const char *page)
{
    const char *at = strstr(page, "\nexamples:\n");
    int k = 0;
    if (!at)
        return -1;
    for (at += 11; *at; k++) {
        const char *nl = strchr(at, '\n');
        if (!nl || strncmp(at, "  nqueens ", 10))
            return -1;
        at = nl + 1;
    }
    return k;
}

/* nqueens --help lists every command; help CMD is CMD --help, ending
 * with two or three examples. */
static void help_from_the_table(void *arg)
{
    (void)arg;
    static const char *const names[] = {"count", "solve", "engines", "units",
        "merge", "tree", "trace", "compare", "find", "complete"};
    t_proc all, a, b;
    CHECK(t_run_cli(&all, ARGS("--help")) == 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "\n  %s ", names[i]);
        int listed = strstr(all.out, line) != NULL;
        int same = t_run_cli(&a, ARGS("help", names[i])) == 0 &&
                   t_run_cli(&b, ARGS(names[i], "--help")) == 0 &&
                   a.exit_code == 0 && !strcmp(a.out, b.out) &&
                   !strncmp(a.out, "usage: nqueens ", 15) &&
                   examples(a.out) >= 2 && examples(a.out) <= 3;
        t_proc_free(&a);
        t_proc_free(&b);
        if (!listed || !same)
            t_proc_free(&all);
        CHECKF(listed && same, "command %s: listed %d, same page %d",
               names[i], listed, same);
    }
    int codes = strstr(all.out, "exit status") != NULL;
    t_proc_free(&all);
    CHECK(codes);
}

/* The seed diagram is the seed chapters' own: their column header and
 * rule lines for N = 5, written here as seed 000 prints them; --one-based
 * numbers from 1 (Gauss's 4 7 3 8 2 5 1 6 among the arrays of N = 8). */
static void seed_pictures(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("solve", "5", "--format", "seed", "--limit", "1"));
    T_BAIL();
    int seed = strstr(p.out, "        column(\u5217)\n"
                             "   _4___3___2___1___0_\n") &&
               strstr(p.out, "\n  +-------------------+\n") &&
               strstr(p.out, "|2 row(\u884c)\n");
    t_proc_free(&p);
    CHECK(seed);
    run_ok(&p, ARGS("solve", "8", "--one-based"));
    T_BAIL();
    int gauss = strstr(p.out, "\n4 7 3 8 2 5 1 6\n") != NULL;
    t_proc_free(&p);
    CHECK(gauss);
    run_ok(&p, ARGS("solve", "5", "-f", "seed", "--one-based", "-l", "1"));
    T_BAIL();
    size_t len;
    char *want = t_read_file(t_data_path("solve5-seed-one-based.txt"), &len);
    int same = want && len == p.out_len && !memcmp(want, p.out, len);
    free(want);
    t_proc_free(&p);
    CHECK(same);
}

/* Arguments that are not UTF-8 are printed escaped (one line, no raw
 * bytes that would garble a terminal); valid UTF-8 passes as it is. */
static void messages_escaped(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "\xff\xfe" "8", "-e", "caf\xc3\xa9")) == 0);
    int ok = p.exit_code == 2 && strstr(p.err, "'\\xff\\xfe8'") &&
             !memchr(p.err, 0xff, p.err_len) &&
             !strncmp(p.err, "nqueens: ", 9);
    t_proc_free(&p);
    CHECK(ok);
    CHECK(t_run_cli(&p, ARGS("count", "8", "-e", "caf\xc3\xa9")) == 0);
    ok = p.exit_code == 2 && strstr(p.err, "'caf\xc3\xa9'");
    t_proc_free(&p);
    CHECK(ok);
}

/* Counts no machine could finish are refused up front with an estimate,
 * at once (not after hours), exit 2; --force would run them. */
static void hopeless_counts_refused(void *arg)
{
    (void)arg;
    const char *const *cases[] = {
        ARGS("count", "26", "--engine", "brute"),
        ARGS("count", "27", "--engine", "backtrack"),
        ARGS("count", "31", "--engine", "mirror"),
        ARGS("count", "3-32"),
        ARGS("complete", "27"),
        ARGS("complete", "30", "--given", "0:1", "--all"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        double t0 = nq_clock_seconds();
        CHECK(t_run_cli(&p, cases[i]) == 0);
        double took = nq_clock_seconds() - t0;
        int refused = p.exit_code == 2 && p.out_len == 0 &&
                      strstr(p.err, " years") && strstr(p.err, "--force") &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        CHECKF(refused && took < 30, "case %zu: refused %d in %.1f s", i,
               refused, took);
    }
    /* what stops early is not refused: two completions of N = 27 */
    t_proc p;
    run_ok(&p, ARGS("complete", "27", "--all", "--limit", "2"));
    T_BAIL();
    int two = p.out_len > 0 && strchr(p.out, '\n') &&
              strchr(strchr(p.out, '\n') + 1, '\n') == p.out + p.out_len - 1;
    t_proc_free(&p);
    CHECKF(two, "complete 27 --all --limit 2 did not list two boards");
}

/* A count past what even a journaled run may take (a century) is sent
 * to a cluster at once: suggesting --checkpoint would only earn a second
 * refusal. */
static void hopeless_count_advice(void *arg)
{
    (void)arg;
    const char *const *cases[] = {ARGS("count", "32"),
                                  ARGS("count", "32", "--checkpoint", "x")};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_proc p;
        CHECK(t_run_cli(&p, cases[i]) == 0);
        int cluster = p.exit_code == 2 && strstr(p.err, "a cluster") &&
                      strstr(p.err, "nqueens-mpi") &&
                      !strstr(p.err, "for a long run");
        t_proc_free(&p);
        CHECKF(cluster, "case %zu does not suggest a cluster at once", i);
    }
}

/* The widest line of text, in characters (UTF-8 continuation bytes
 * take no column). */
static int widest_line(const char *text)
{
    int most = 0, col = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        if (*s == '\n')
            col = 0;
        else if ((*s & 0xc0) != 0x80 && ++col > most)
            most = col;
    }
    return most;
}

/* Every help page fits an 80-column terminal: the main page and each
 * command's, the commands read from the main page (so a new one is held
 * to it too), engine lists put in included. */
static void help_fits_80_columns(void *arg)
{
    (void)arg;
    char names[64][32];
    t_proc p;
    run_ok(&p, ARGS("--help"));
    T_BAIL();
    int k = t_listed_commands(p.out, names, 64), wide = widest_line(p.out);
    t_proc_free(&p);
    CHECKF(wide <= 80, "nqueens --help has a line of %d columns", wide);
    CHECKF(k >= 10, "only %d commands read from nqueens --help", k);
    for (int i = 0; i < k; i++) {
        run_ok(&p, ARGS(names[i], "--help"));
        T_BAIL();
        wide = widest_line(p.out);
        t_proc_free(&p);
        CHECKF(wide <= 80, "%s --help has a line of %d columns", names[i],
               wide);
    }
}

/* What differs from run to run and machine to machine, masked in place:
 * every number holding a '.' (times, seconds, rates: "00:00:00.197",
 * "0.071564") becomes "#", and the value of a JSON "kernel" key (the
 * CPU's) becomes "K". */
static void mask_measured(char *text)
{
    char *out = text;
    for (char *s = text; *s;) {
        size_t len = strspn(s, "0123456789.:e+-");
        if (len && memchr(s, '.', len) && strpbrk(s, "0123456789") < s + len) {
            *out++ = '#', s += len;
        } else if (!strncmp(s, "\"kernel\":\"", 10)) {
            memcpy(out, "\"kernel\":K", 10), out += 10, s += 10;
            s += strcspn(s, "\"") + (strchr(s, '"') != NULL);
        } else {
            size_t k = len ? len : 1;
            memmove(out, s, k), out += k, s += k;
        }
    }
    *out = '\0';
}

/* One of README's examples: "$ build/nqueens ..." lines, each followed by
 * the output it shows, run in order in a fresh directory (the merge
 * example needs the journals of the counts before it). */
typedef struct {
    char *text; /* the fenced block, from its first "$ " line */
    size_t len;
} readme_example;

/* Run one "$ command" of an example in dir, where build/nqueens is the
 * CLI under test, and compare stdout and stderr together with the lines
 * shown under it, measured numbers masked. */
static void readme_command(const char *dir, const char *command,
                           const char *shown, size_t shown_len)
{
    char script[1024], *want = strndup(shown, shown_len);
    snprintf(script, sizeof script, "cd '%s' && { %s\n} 2>&1", dir, command);
    t_proc p;
    CHECK(want && t_run_signalled(&p, "sh", ARGS("sh", "-c", script), 0, 0) == 0);
    mask_measured(want);
    mask_measured(p.out);
    int same = !strcmp(p.out, want);
    if (!same)
        fprintf(stderr, "README shows:\n%sthe command printed:\n%s", want,
                p.out);
    free(want);
    t_proc_free(&p);
    CHECKF(same, "'%s' does not print what README shows", command);
}

static void readme_example_runs(void *arg)
{
    const readme_example *x = arg;
    char dir[] = "/tmp/nq-readme.XXXXXX", link[128], cli[4096], clean[256];
    CHECK(mkdtemp(dir) && realpath(getenv("NQ_CLI"), cli));
    snprintf(link, sizeof link, "%s/build", dir);
    CHECK(mkdir(link, 0700) == 0);
    strcat(link, "/nqueens");
    CHECK(symlink(cli, link) == 0);
    const char *s = x->text, *end = x->text + x->len;
    while (s < end && !t_failed()) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *out = nl ? nl + 1 : end, *next = out;
        while (next < end && strncmp(next, "$ ", 2))
            next = memchr(next, '\n', (size_t)(end - next)) + 1;
        char *command = strndup(s + 2, (size_t)(out - s - 3));
        readme_command(dir, command, out, (size_t)(next - out));
        free(command);
        s = next;
    }
    snprintf(clean, sizeof clean, "rm -rf '%s'", dir);
    if (system(clean) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* README's examples that are not run: a Ctrl-C cannot be typed here, and
 * compare's table is timings (and takes a minute at N = 14). */
static int readme_example_skipped(const char *text, size_t len)
{
    char *block = strndup(text, len);
    int skip = !block || strstr(block, "^C") ||
               strstr(block, "$ build/nqueens compare");
    free(block);
    return skip;
}

/* Every fenced block of README.md that starts "$ build/nqueens", as a
 * test of its own. */
static void readme_examples(void)
{
    static readme_example xs[64];
    static char *readme;
    size_t len, k = 0;
    readme = t_read_file(t_data_path("../../README.md"), &len);
    for (char *s = readme; s && (s = strstr(s, "\n```\n$ build/nqueens"))
         && k < 64;) {
        char *end = strstr(s + 5, "\n```\n");
        if (!end)
            break;
        xs[k] = (readme_example){s + 5, (size_t)(end + 1 - (s + 5))};
        if (!readme_example_skipped(xs[k].text, xs[k].len)) {
            size_t name = strcspn(xs[k].text + 16, "\n|>#");
            t_case(readme_example_runs, &xs[k], "cli/readme-example/%.*s",
                   (int)(name < 40 ? name : 40), xs[k].text + 16);
            k++;
        }
        s = end;
    }
}

/* README.md is the front door: at most 300 lines, opening with the two
 * commands a newcomer runs (make run, make test) in its first fenced
 * block, before any prose a screen down. */
static void readme_is_a_front_door(void *arg)
{
    (void)arg;
    size_t len, lines = 0;
    char *readme = t_read_file(t_data_path("../../README.md"), &len);
    CHECKF(readme, "README.md cannot be read");
    if (!readme)
        return;
    for (size_t i = 0; i < len; i++)
        lines += readme[i] == '\n';
    CHECKF(lines <= 300, "README.md has %zu lines; the front door keeps to "
           "300 (history goes to bench/RESULTS.md)", lines);
    const char *block = strstr(readme, "```");
    const char *end = block ? strstr(block + 3, "```") : NULL;
    CHECKF(block && block - readme < 200 && end, "README.md does not open "
           "with a fenced block of commands");
    if (end) {
        char *run = strstr(block, "make run"), *test = strstr(block, "make test");
        CHECKF(run && run < end && test && test < end,
               "README.md's first block lacks make run or make test");
    }
    free(readme);
}

/* The Slurm recipes are shown as they are: each file of examples/slurm/
 * (which tests/slurm.sh submits to a real Slurm) in a "```sh" block of
 * README.md or doc/cluster.md, byte for byte (README's are one block, a
 * blank line between two, in name order).  Where a file is not, the
 * first line of it neither page has is named. */
static int not_hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

/* The first line of text that neither page holds, or NULL if both pages
 * hold every line (text is there, but not as one block). */
static const char *first_line_missing(const char *text, const char *a,
                                      const char *b)
{
    for (const char *line = text, *nl; (nl = strchr(line, '\n'));
         line = nl + 1) {
        char *one = strndup(line, (size_t)(nl + 1 - line));
        int shown = one && (strstr(a, one) || strstr(b, one));
        free(one);
        if (!shown)
            return line;
    }
    return NULL;
}

static void readme_shows_slurm_files(void *arg)
{
    (void)arg;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", t_data_path("../../examples/slurm"));
    char *readme = t_read_file(t_data_path("../../README.md"), NULL);
    char *cluster = t_read_file(t_data_path("../../doc/cluster.md"), NULL);
    struct dirent **names;
    int files = scandir(dir, &names, not_hidden, alphasort), shown = 0;
    CHECKF(readme && cluster && files > 0, "README.md, doc/cluster.md or "
           "the files of %s cannot be read", dir);
    for (int i = 0; i < files && !t_failed(); i++) {
        char path[2048], *block;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        size_t n;
        char *text = t_read_file(path, &n);
        CHECKF(text && (block = malloc(n + 16)), "%s cannot be read", path);
        sprintf(block, "```sh\n%s```\n", text);
        int in_readme = strstr(readme, text) != NULL;
        shown += in_readme;
        if (!in_readme && !strstr(cluster, block)) {
            const char *line = first_line_missing(text, readme, cluster);
            t_fail(__FILE__, __LINE__, "%s is not shown as it is in README.md "
                   "or doc/cluster.md (%s%.*s)", names[i]->d_name,
                   line ? "first line in neither: " : "its lines are there, "
                   "not as one sh block", line ? (int)strcspn(line, "\n") : 0,
                   line ? line : "");
        }
        free(text);
        free(block);
    }
    for (int i = 0; i < files; i++)
        free(names[i]);
    free(names);
    free(readme);
    free(cluster);
    CHECKF(shown >= 2, "README.md shows %d of the Slurm files (the array's "
           "and the MPI job's)", shown);
}

/* Lines of text that are each one JSON object holding every key. */
static int json_lines(const char *text, const char *const *keys)
{
    int lines = 0;
    for (const char *s = text; *s; lines++) {
        const char *nl = strchr(s, '\n');
        if (!nl || s[0] != '{' || nl[-1] != '}')
            return -1;
        for (const char *const *k = keys; *k; k++) {
            char quoted[64];
            snprintf(quoted, sizeof quoted, "\"%s\":", *k);
            const char *at = strstr(s, quoted);
            if (!at || at > nl)
                return -1;
        }
        s = nl + 1;
    }
    return lines;
}

/* engines and units in JSON: one object per engine, per unit. */
static void json_listings(void *arg)
{
    (void)arg;
    static const char *const engine_keys[] = {"engine", "max_n", "lists",
                                              "units", "events", "summary",
                                              NULL};
    static const char *const unit_keys[] = {"n", "engine", "unit", "queens",
                                            NULL};
    t_proc p;
    run_ok(&p, ARGS("engines", "--json"));
    T_BAIL();
    int engines = json_lines(p.out, engine_keys);
    t_proc_free(&p);
    CHECKF(engines == nq_engine_count(), "%d engine objects", engines);
    run_ok(&p, ARGS("units", "9", "-j", "-e", "fast"));
    T_BAIL();
    int units = json_lines(p.out, unit_keys);
    t_proc_free(&p);
    nq_request req = {.size = sizeof(nq_request), .n = 9, .engine = "fast"};
    nq_plan *plan;
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    int want = (int)nq_plan_units(plan);
    nq_plan_free(plan);
    CHECKF(units == want, "%d unit objects, not %d", units, want);
    static const char *const count_keys[] = {"n", "given", "total", "nodes",
                                             "threads", "seconds", NULL};
    run_ok(&p, ARGS("complete", "8", "--given", "0:0", "-j"));
    T_BAIL();
    int one = json_lines(p.out, count_keys) == 1 &&
              strstr(p.out, "\"total\":4,");
    t_proc_free(&p);
    CHECK(one);
    run_ok(&p, ARGS("find", "10", "--json"));
    T_BAIL();
    static const char *const found_keys[] = {"type", "n", NULL};
    static const char head[] = "{\"type\":\"solution\",\"n\":10,"
                               "\"number\":1,\"queens\":[",
                      tail[] = "\"solutions\":1,\"all\":false,\"method\":"
                               "\"formula\",\"seed\":1,\"verified\":false}\n";
    int found = json_lines(p.out, found_keys) == 2 &&
                !strncmp(p.out, head, strlen(head)) &&
                p.out_len > strlen(tail) &&
                !strcmp(p.out + p.out_len - strlen(tail), tail);
    t_proc_free(&p);
    CHECK(found);
}

/* Lines of text holding `needle`. */
static int lines_with(const char *text, const char *needle)
{
    int k = 0;
    for (const char *s = text; (s = strstr(s, needle)); s += strlen(needle))
        k++;
    return k;
}

/* compare and tree in JSON: one object per engine, with OEIS's counts
 * wherever an engine ran; one per node of the 4-queens tree (17 nodes,
 * its 2 solutions valid placements), then the totals. */
static void compare_tree_json(void *arg)
{
    (void)arg;
    static const char *const row_keys[] = {"n", "engine", "ran", "nodes",
                                           "seconds", "nodes_per_second",
                                           "vs_brute", "total", "unique", NULL};
    static const char *const typed[] = {"type", NULL};
    t_proc p;
    run_ok(&p, ARGS("compare", "8", "--budget", "1", "--json"));
    T_BAIL();
    int rows = json_lines(p.out, row_keys), ran = lines_with(p.out, "\"ran\":true");
    int right = lines_with(p.out, "\"total\":92,\"unique\":12}");
    t_proc_free(&p);
    CHECKF(rows >= nq_engine_count() - 1 && ran > 0 && right == ran,
           "%d rows, %d ran, %d with OEIS's counts", rows, ran, right);
    run_ok(&p, ARGS("tree", "4", "-j"));
    T_BAIL();
    int lines = json_lines(p.out, typed);
    int nodes = lines_with(p.out, "{\"type\":\"node\",\"id\":");
    const char *sol = strstr(p.out, "\"queens\":[1,3,0,2],\"solution\":true");
    const char *sol2 = strstr(p.out, "\"queens\":[2,0,3,1],\"solution\":true");
    int sums = strstr(p.out, "{\"type\":\"summary\",\"n\":4,\"engine\":"
                             "\"backtrack\",\"nodes\":17,\"solutions\":2,") != NULL;
    int solutions = lines_with(p.out, "\"solution\":true");
    t_proc_free(&p);
    CHECKF(lines == 18 && nodes == 17 && sol && sol2 && solutions == 2 &&
           sums, "%d lines, %d nodes, %d solutions", lines, nodes, solutions);
}

/* Boards with no solution: nothing on stdout, a note on stderr, exit 0. */
static void solve_nothing(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("solve", "2")) == 0);
    int ok = p.exit_code == 0 && p.out_len == 0 &&
             strstr(p.err, "N=2 has no solution");
    t_proc_free(&p);
    CHECK(ok);
    for (int k = 0; k < 2; k++) {
        CHECK(t_run_cli(&p, k ? ARGS("count", "4--8") : ARGS("count", "4-")) == 0);
        int refused = p.exit_code == 2 && p.out_len == 0;
        t_proc_free(&p);
        CHECKF(refused, "count %s", k ? "4--8" : "4-");
    }
}

static void engines_listed(void *arg)
{
    (void)arg;
    t_proc p;
    run_ok(&p, ARGS("engines"));
    T_BAIL();
    for (int i = 0; i < nq_engine_count() && !t_failed(); i++)
        if (!strstr(p.out, nq_engine_summary(nq_engine_at(i))))
            t_fail(__FILE__, __LINE__, "engine %s not listed",
                   nq_engine_name(nq_engine_at(i)));
    t_proc_free(&p);
}

/* Bad input: exit 2, nothing on stdout, one line on stderr that names the
 * offending text. */
typedef struct {
    const char *args[8];
    const char *mentions;
} bad_case;

static void bad_input(void *arg)
{
    const bad_case *c = arg;
    t_proc p;
    CHECK(t_run_cli(&p, c->args) == 0);
    int code = p.exit_code;
    int one_line = p.err_len > 10 && strncmp(p.err, "nqueens: ", 9) == 0 &&
                   strchr(p.err, '\n') == p.err + p.err_len - 1;
    int names = strstr(p.err, c->mentions) != NULL;
    size_t out_len = p.out_len;
    char err[256];
    snprintf(err, sizeof err, "%s", p.err);
    t_proc_free(&p);
    CHECKF(code == 2, "exit %d, expected 2", code);
    CHECKF(out_len == 0, "wrote %zu bytes to stdout", out_len);
    CHECKF(one_line, "stderr is not one 'nqueens: ' line: %s", err);
    CHECKF(names, "message does not mention '%s': %s", c->mentions, err);
}

/* Output that cannot be written (a full disk, here /dev/full) is a
 * runtime failure, exit 1 with one line saying so, never a silent 0. */
static void output_failure(void *arg)
{
    char script[512];
    snprintf(script, sizeof script, "exec \"$NQ_CLI\" %s >/dev/full",
             (const char *)arg);
    t_proc p;
    CHECK(t_run_signalled(&p, "sh", ARGS("sh", "-c", script), 0, 0) == 0);
    int code = p.exit_code;
    int said = strstr(p.err, "cannot write the output") != NULL &&
               strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECKF(code == 1, "exit %d, expected 1", code);
    CHECKF(said, "no one-line write error");
}

/* A message quoting a huge argument stays one line of bounded length. */
static void long_argument(void *arg)
{
    (void)arg;
    static char huge[20000];
    memset(huge, '7', sizeof huge - 1);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", huge)) == 0);
    int ok = p.exit_code == 2 && p.err_len < 600 &&
             strchr(p.err, '\n') == p.err + p.err_len - 1;
    t_proc_free(&p);
    CHECK(ok);
}

void tests_cli(void)
{
    static const golden_run runs[] = {
        {"solve5-grid.txt", {"solve", "5", "--format", "grid", "-e", "bitmap"}},
        {"solve5-grid.txt", {"solve", "5", "--format", "grid", "-e",
                             "backtrack", "--iterative"}},
        {"solve5-grid.txt", {"solve", "5", "--format", "grid", "-e", "brute"}},
        {"solve8-dots.txt", {"solve", "8", "--format", "dots", "-e", "flags"}},
        {"solve8-dots.txt", {"solve", "8", "--format", "dots", "-e", "flags",
                             "--iterative"}},
        {"solve8-dots.txt", {"solve", "8", "--format", "dots", "-e", "bitmap",
                             "--iterative"}},
        {"solve5-seed.txt", {"solve", "5", "--format", "seed", "-e", "bitmap"}},
        {"solve5-seed.txt", {"solve", "5", "--format", "seed", "-e",
                             "backtrack", "--iterative"}},
        {"trace4-seed.txt", {"trace", "4", "--style", "seed"}},
        {"trace4-seed.txt", {"trace", "4", "--style=seed", "--iterative"}},
        {"trace4-seed-one-based.txt",
         {"trace", "4", "--style", "seed", "--one-based", "-l", "8"}},
        {"trace4-one-based.txt", {"trace", "4", "--one-based", "-l12"}},
    };
    static const array_case arrays[] = {
        {{"solve", "8", NULL}, 92},
        {{"solve", "8", "--unique", NULL}, 12},
        {{"solve", "10", "--limit", "5", "--engine", "backtrack", NULL}, 5},
        {{"solve", "6", "--format=array", "--iterative", NULL}, 4},
        {{"solve", "1", NULL}, 1},
    };
    static const bad_case bad[] = {
        {{"count", "0"}, "'0'"},
        {{"count", "-3"}, "'-3'"},
        {{"count", "-1"}, "N must be a whole number from 1 to 32, not '-1'"},
        {{"count", "8", "-1"}, "unexpected argument '-1'"},
        {{"count", "--", "8", "--json"}, "unexpected argument '--json'"},
        {{"count", "8", "--kernel", "scalar", "--engine", "carry"},
         "engine 'carry' runs no kernel"},
        {{"count", "8", "--kernel", "scalar", "--engine", "bitmap"},
         "engines that do: fast"},
        {{"count", "99"}, "'99'"},
        {{"count", "abc"}, "'abc'"},
        {{"count", "5-3"}, "5-3"},
        {{"count", "1-99"}, "'99'"},
        {{"count", "99999999999999999999"}, "99999999999999999999"},
        {{"count", ""}, "''"},
        {{"count", "8x"}, "'8x'"},
        {{"count", "8", "--engine", "nope"}, "'nope'"},
        {{"count", "8", "--engine"}, "--engine"},
        {{"count", "8", "--bogus"}, "'--bogus'"},
        {{"tree", "4", "--json", "--format", "svg"}, "--format svg"},
        {{"count", "8", "--engine", "fast", "--devices", "0,1,0"}, "GPU 0 is listed twice"},
        {{"count", "8", "--engine", "fast", "--devices", "3,03"}, "GPU 3 is listed twice"},
        {{"solve", "5", "--format", "grid", "--json"}, "--format grid"},
        {{"find", "8", "--json", "--format", "dots"}, "--format dots"},
        {{"complete", "6", "--json", "--format", "grid"}, "--format grid"},
        {{"count", "8", "9"}, "'9'"},
        {{"count"}, "missing N"},
        {{"count", "27", "--engine", "brute"}, "brute"},
        {{"solve"}, "missing N"},
        {{"solve", "8", "--format", "nope"}, "'nope'"},
        {{"solve", "8", "--engine", "mirror"}, "mirror"},
        {{"solve", "8", "--limit", "0"}, "'0'"},
        {{"solve", "8", "--limit", "x"}, "'x'"},
        {{"solve", "4-6"}, "4-6"},
        {{"nope"}, "'nope'"},
        {{"--nope"}, "'--nope'"},
        {{"engines", "extra"}, "'extra'"},
        {{"count", "8", "--threads", "0"}, "'0'"},
        {{"count", "8", "--threads", "x"}, "'x'"},
        {{"count", "8", "--threads", "99999"}, "'99999'"},
        {{"units"}, "missing N"},
        {{"units", "4-6"}, "4-6"},
        {{"units", "33"}, "'33'"},
        {{"units", "8", "--engine", "bitmap"}, "bitmap"},
        {{"units", "8", "--engine", "nope"}, "'nope'"},
        {{"count", "12", "--part", "3/2", "--checkpoint", "/tmp/x"}, "'3/2'"},
        {{"count", "12", "--part", "0/0", "--checkpoint", "/tmp/x"}, "'0/0'"},
        {{"count", "12", "--part", "1/0", "--checkpoint", "/tmp/x"}, "'1/0'"},
        {{"count", "12", "--part", "x", "--checkpoint", "/tmp/x"}, "'x'"},
        {{"count", "12", "--part", "1/2"}, "--checkpoint"},
        {{"count", "12-13", "--checkpoint", "/tmp/x"}, "one N"},
        {{"count", "12", "--engine", "bitmap", "--checkpoint", "/tmp/x"},
         "bitmap"},
        {{"count", "12", "--max-units", "5"}, "--checkpoint"},
        {{"count", "12", "--max-units", "0", "--checkpoint", "/tmp/x"}, "'0'"},
        {{"merge"}, "no journals"},
        {{"merge", "--bogus"}, "'--bogus'"},
        {{"tree"}, "missing N"},
        {{"tree", "40"}, "'40'"},
        {{"tree", "8", "--format", "png"}, "'png'"},
        {{"tree", "8", "--engine", "fast"}, "fast"},
        {{"tree", "8", "--depth", "x"}, "'x'"},
        {{"trace", "4", "--limit", "0"}, "'0'"},
        {{"trace", "4", "--engine", "carry"}, "carry"},
        {{"trace", "4-6"}, "4-6"},
        {{"trace", "4", "--style", "pretty"}, "'pretty'"},
        {{"trace", "4", "--style", "seed", "--engine", "bitmap"}, "bitmap"},
        {{"compare"}, "missing N"},
        {{"compare", "8", "--budget", "0"}, "'0'"},
        {{"compare", "8", "--threads", "x"}, "'x'"},
        {{"find"}, "missing N"},
        {{"find", "0"}, "'0'"},
        {{"find", "100000001"}, "'100000001'"},
        {{"find", "8x"}, "'8x'"},
        {{"find", "8", "--method", "dfs"}, "'dfs'"},
        {{"find", "8", "--seed", "-1"}, "'-1'"},
        {{"find", "200", "--format", "grid"}, "grid"},
        {{"find", "8", "--format", "nope"}, "'nope'"},
        {{"complete", "8", "--given", "0:0,1:1"}, "attack each other"},
        {{"complete", "8", "--given", "0:0,3:0"}, "same column"},
        {{"complete", "8", "--given", "0:9"}, "0:9"},
        {{"complete", "8", "--given", "8:0"}, "8:0"},
        {{"complete", "8", "--given", "2:1,2:5"}, "row 2"},
        {{"complete", "8", "--given", "x"}, "'x'"},
        {{"complete", "8", "--given", "1:2,"}, "'1:2,'"},
        {{"complete", "8", "--given", "-1:2"}, "'-1:2'"},
        {{"complete", "8", "--first", "--all"}, "--all"},
        {{"complete", "8", "--limit", "3"}, "'3'"},
        {{"complete", "40"}, "'40'"},
        {{"count", "8\n9"}, "'8\\n9'"},
        {{"count", "8", "--engine", "--quiet"}, "--engine needs a value"},
        {{"solve", "8", "--limit", "--unique"}, "--limit needs a value"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char name[128] = "";
        for (int k = 2; runs[i].args[k]; k++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s",
                     k > 2 ? " " : "", runs[i].args[k]);
        t_case(golden_command, (void *)&runs[i], "cli/golden/%s/%s",
               runs[i].file, name);
    }
    t_case(seed_trace_lines, NULL, "cli/trace-seed-lines-as-seed-003");
    t_case(count_table, NULL, "cli/count-table");
    t_case(count_json, NULL, "cli/count-json");
    t_case(table_record_rows, NULL, "cli/table/oeis-rows-23-27-apart-aligned");
    t_case(table_seed_look, NULL, "cli/table/seed-look-up-to-22");
    t_case(durations_in_words, NULL, "cli/durations-in-words-plural-right");
    t_case(table_widest_counts, NULL, "cli/table/39-digit-counts-apart");
    t_case(count_range_aligned, NULL, "cli/table/count-range-aligned");
    t_case(verify_all_says_all, NULL, "cli/verify-all-draws-nothing-at-random");
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        t_case(solve_array, (void *)&arrays[i], "cli/solve-array/%s %s %s",
               arrays[i].args[1], arrays[i].args[2] ? arrays[i].args[2] : "",
               arrays[i].args[3] ? arrays[i].args[3] : "");
    t_case(solve_unicode, NULL, "cli/solve-unicode");
    t_case(units_listing, "carry", "cli/units/carry");
    t_case(units_listing, "fast", "cli/units/fast");
    t_case(threads_option, NULL, "cli/count-threads-and-quiet");
    t_case(help_and_version, NULL, "cli/help-and-version");
    t_case(engine_names_from_table, NULL, "cli/engine-names-from-the-table");
    t_case(kernel_option, NULL, "cli/kernel-option-and-NQ_KERNEL");
    t_case(option_conventions, NULL, "cli/options-short-bundled-equals-dashdash");
    t_case(help_from_the_table, NULL, "cli/help-lists-every-command");
    t_case(solve_nothing, NULL, "cli/solve-2-notes-count-4-dash-refused");
    t_case(seed_pictures, NULL, "cli/solve-seed-diagram-and-one-based");
    t_case(messages_escaped, NULL, "cli/messages-escape-what-is-not-utf-8");
    t_case(hopeless_counts_refused, NULL, "cli/hopeless-counts-refused-up-front");
    t_case(readme_is_a_front_door, NULL, "cli/readme-is-a-front-door");
    t_case(readme_shows_slurm_files, NULL, "cli/readme-shows-examples-slurm");
    readme_examples();
    t_case(hopeless_count_advice, NULL, "cli/hopeless-count-sent-to-a-cluster");
    t_case(help_fits_80_columns, NULL, "cli/help-pages-fit-80-columns");
    t_case(json_listings, NULL, "cli/engines-units-complete-find-json");
    t_case(compare_tree_json, NULL, "cli/compare-and-tree-json");
    t_case(engines_listed, NULL, "cli/engines");
    t_case(output_failure, "count 8", "cli/output-to-full-disk/count");
    t_case(output_failure, "solve 8", "cli/output-to-full-disk/solve");
    t_case(output_failure, "--help", "cli/output-to-full-disk/help");
    t_case(long_argument, NULL, "cli/bad-input/20000-character-N");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char title[128] = "";
        for (int k = 0; bad[i].args[k]; k++)
            snprintf(title + strlen(title), sizeof title - strlen(title),
                     "%s'%s'", k ? " " : "", bad[i].args[k]);
        for (char *c = title; *c; c++) /* keep the listing one line a test */
            if ((unsigned char)*c < ' ')
                *c = '?';
        t_case(bad_input, (void *)&bad[i], "cli/bad-input/%s", title);
    }
}

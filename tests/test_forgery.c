/*
 * test_forgery.c - what a journal's plan knows is checked: records the
 * plan rules out are refused by merge, every unit that can hold
 * solutions fixed by a turn is recounted by every verify whatever its
 * record says, a header that contradicts itself is refused before any
 * plan is made, and making a plan hears Ctrl-C.  The forger here reads
 * doc/journal-format.md and retags what it edits with the header's key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../src/engines/engine.h"
#include "../src/journal/journal_format.h"

static char dir[64];

static const char *file(const char *name)
{
    static char path[4][400];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

/* A finished journal of `engine` on N at path: 1 on success. */
static int count_into(const char *path, const char *n, const char *engine)
{
    t_proc p;
    unlink(path);
    if (t_run_cli(&p, ARGS("count", n, "--engine", engine, "--checkpoint",
                           path, "--quiet")) != 0)
        return 0;
    int ok = p.exit_code == 0;
    t_proc_free(&p);
    return ok;
}

/* Rewrite every record of the journal for which edit(unit, &tally, ctx)
 * returns 1, retagged with the header's own key as a forger would; the
 * number of records rewritten. */
typedef int (*record_edit)(uint64_t unit, nq_tally *t, void *ctx);

static int forge(const char *path, record_edit edit, void *ctx)
{
    nq_journal_header h;
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    FILE *out = text && t_read_journal_header(path, &h) ? fopen(path, "wb") : NULL;
    int forged = 0;
    for (char *l = out ? strtok_r(text, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        unsigned long long v[6];
        char line[NQ_JOURNAL_LINE_MAX];
        nq_tally t;
        if (sscanf(l, "unit %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5]) != 6 ||
            (t = (nq_tally){v[1], v[2], v[3], v[4], v[5]},
             !edit(v[0], &t, ctx))) {
            fprintf(out, "%s\n", l);
            continue;
        }
        nq_jf_record_line(line, sizeof line, &h, v[0], &t);
        fputs(line, out);
        forged++;
    }
    if (out)
        fclose(out);
    free(text);
    return forged;
}

/* The forgery of the issue: the symmetric counts of a fast plan (units 0
 * and 1) zeroed, which keeps (T + P + 2R) / 8 whole where P + 2R is a
 * multiple of 8, as at N = 12 and 16. */
static int zero_fixed_points(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit > 1 || !(t->fixed180 || t->fixed90))
        return 0;
    t->fixed180 = t->fixed90 = 0;
    return 1;
}

/* The unique count a table row of N says, or 0. */
static nq_u128 unique_printed(const char *out, int n)
{
    char total[64], unique[64];
    int row;
    nq_u128 v = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (sscanf(l, "%d: %63s %63s", &row, total, unique) == 3 && row == n &&
            nq_parse_u128(unique, &v) == NQ_OK)
            return v;
    return 0;
}

/* Fixed points zeroed and retagged: merge alone is fooled (it has no way
 * to know), and every sampled verify and merge --verify, on 100 seeds
 * each, recounts units 0 and 1 and exits 1 naming them. */
static void fixed_point_forgery_caught(void *arg)
{
    const char *n = arg, *j = file("fixed.journal");
    CHECK(count_into(j, n, "fast"));
    CHECK(forge(j, zero_fixed_points, NULL) == 2);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", j)) == 0);
    nq_u128 shown = unique_printed(p.out, atoi(n));
    int fooled = p.exit_code == 0 && shown && shown != t_oeis_unique(atoi(n));
    t_proc_free(&p);
    CHECKF(fooled, "merge did not print the forged unique count: the test "
           "forges wrongly");
    for (int s = 1; s <= 100; s++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", s);
        CHECK(t_run_cli(&p, ARGS("verify", "-q", "--seed", seed, j)) == 0);
        int caught = p.exit_code == 1 && strstr(p.out, "unit 0 disagrees") &&
                     strstr(p.out, "unit 1 disagrees");
        t_proc_free(&p);
        CHECKF(caught, "verify --seed %d passed the forged fixed points", s);
        CHECK(t_run_cli(&p, ARGS("merge", "--verify", j)) == 0);
        caught = p.exit_code == 1 && !unique_printed(p.out, atoi(n));
        t_proc_free(&p);
        CHECKF(caught, "merge --verify (run %d) added the forgery up", s);
    }
}

/* Records the plan rules out, each refused by merge with its line. */
typedef struct {
    const char *name, *engine, *n;
    record_edit edit;
    const char *says;
} bad_record;

static int fixed_in_a_ring_unit(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit != 7)
        return 0;
    t->fixed180 += 2;
    return 1;
}

static int total_off_the_grain(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit != 7)
        return 0;
    t->total += 1;
    return 1;
}

static int odd_fixed_points(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit != 0)
        return 0;
    t->fixed180 += 1;
    return 1;
}

static int total_in_a_symmetric_count(uint64_t unit, nq_tally *t, void *ctx)
{
    (void)ctx;
    if (unit != 1)
        return 0;
    t->total += 8;
    return 1;
}

static int carry_unique_off(uint64_t unit, nq_tally *t, void *ctx)
{
    const nq_plan *p = ctx;
    if (nq_plan_unit_forced(p, unit) || t->total == 0 || unit % 3)
        return 0;
    t->unique += 1; /* an asymmetric unit: unique is its total over 8 */
    return 1;
}

static void record_refused(void *arg)
{
    const bad_record *b = arg;
    const char *j = file("bad-record.journal");
    nq_request req = {.size = sizeof req, .n = atoi(b->n), .engine = b->engine};
    nq_plan *plan;
    CHECK(count_into(j, b->n, b->engine));
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    int forged = forge(j, b->edit, plan);
    nq_plan_free(plan);
    CHECK(forged > 0);
    const char *const *cmds[] = {ARGS("merge", j), ARGS("verify", "-q", j)};
    for (int c = 0; c < 2; c++) {
        t_proc p;
        CHECK(t_run_cli(&p, cmds[c]) == 0);
        int refused = p.exit_code == 1 && strstr(p.err, "cannot be right") &&
                      strstr(p.err, b->says) &&
                      strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        CHECKF(refused, "%s did not refuse the record", cmds[c][0]);
    }
}

/* carry's symmetric constellations carry their own unique counts, which
 * nothing but a recount checks: one of them raised by one, retagged, is
 * caught by every sampled verify. */
static int carry_symmetric_unique(uint64_t unit, nq_tally *t, void *ctx)
{
    const nq_plan *p = ctx;
    static int done;
    if (ctx == NULL) {
        done = 0;
        return 0;
    }
    if (done || !nq_plan_unit_forced(p, unit) || t->total == 0)
        return 0;
    t->unique += 1; /* within the bounds c/|H| .. 4c/|H| for c > 0 */
    if (nq_plan_record_flaw(p, unit, t)) {
        t->unique -= 1;
        return 0;
    }
    done = 1;
    return 1;
}

static void carry_symmetric_forgery_caught(void *arg)
{
    (void)arg;
    const char *j = file("carry-sym.journal");
    nq_request req = {.size = sizeof(nq_request), .n = 12, .engine = "carry"};
    nq_plan *plan;
    CHECK(count_into(j, "12", "carry"));
    CHECK(nq_plan_create(&req, &plan) == NQ_OK);
    carry_symmetric_unique(0, NULL, NULL);
    int forged = forge(j, carry_symmetric_unique, plan);
    nq_plan_free(plan);
    CHECK(forged == 1);
    for (int s = 1; s <= 20; s++) {
        char seed[16];
        t_proc p;
        snprintf(seed, sizeof seed, "%d", s);
        CHECK(t_run_cli(&p, ARGS("verify", "-q", "--seed", seed, j)) == 0);
        int caught = p.exit_code == 1 && strstr(p.out, "disagrees");
        t_proc_free(&p);
        CHECKF(caught, "verify --seed %d passed a forged symmetric unit", s);
    }
}

/* A header that checks out (CRC) claiming carry at N with units and id
 * that do not belong together: refused by the identity, before the plan
 * (half a minute at N = 20, minutes and gigabytes at N = 22). */
static void write_header(const char *path, int n, uint64_t units,
                         uint64_t identity)
{
    nq_journal_header h = {.version = NQ_JOURNAL_VERSION, .n = n,
                           .plan = "carry-frame/1", .engine = "carry",
                           .units = units, .identity = identity, .part = 1,
                           .parts = 1, .key = {0x1234, 0x5678}};
    char line[NQ_JOURNAL_LINE_MAX];
    int len = nq_jf_header_line(line, sizeof line, &h);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(line, 1, (size_t)len, f);
        fclose(f);
    }
}

static void bogus_header_refused_at_once(void *arg)
{
    int n = *(const int *)arg;
    const char *j = file("bogus-header.journal");
    write_header(j, n, 123456, 0x0123456789abcdefull);
    const char *const *cmds[] = {ARGS("merge", j), ARGS("verify", "-q", j),
                                 ARGS("merge", "--verify", j)};
    for (int c = 0; c < 3; c++) {
        t_proc p;
        double t0 = nq_clock_seconds();
        CHECK(t_run_cli(&p, cmds[c]) == 0);
        double took = nq_clock_seconds() - t0;
        int refused = p.exit_code == 1 && strstr(p.err, "the header was "
                      "edited") && strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        CHECKF(refused, "%s: not refused by the header's identity",
               cmds[c][0]);
        /* the words show no plan was made; the time is a loose bound for
         * slow runs (sanitizers, emulators) against the minutes of one */
        CHECKF(took < 3, "%s took %.1f s to refuse", cmds[c][0], took);
    }
}

/* The moment to signal: one second after the program catches signals
 * (the plan is then being made), noted for the latency. */
typedef struct {
    double caught, signalled;
} moment;

static int planning_a_second(void *ctx)
{
    moment *m = ctx;
    double now = nq_clock_seconds();
    if (m->caught < 0 && t_catches_signals(t_run_pid()))
        m->caught = now;
    if (m->caught < 0 || now - m->caught < 1)
        return 0;
    m->signalled = now;
    return 1;
}

/* A header whose identity fits its (wrong) unit count: only the plan can
 * tell, so the plan of carry at N = 20 is made, and Ctrl-C must end that
 * within a second, with one line and status 130, for every command that
 * reads journals. */
static void sigint_while_planning(void *arg)
{
    (void)arg;
    const char *j = file("planning.journal");
    const nq_engine *carry = nq_engine_find("carry");
    CHECK(carry);
    write_header(j, 20, 5, nq_split_identity(carry, 20, 5));
    const char *const *cmds[] = {ARGS("merge", j), ARGS("verify", "-q", j),
                                 ARGS("merge", "--verify", j)};
    for (int c = 0; c < 3; c++) {
        moment m = {-1, -1};
        t_proc p;
        CHECK(t_run_when(&p, cmds[c], planning_a_second, &m, SIGINT) == 0);
        double latency = nq_clock_seconds() - m.signalled;
        int loud = p.exit_code == 130 && strstr(p.err, "by SIGINT") &&
                   strchr(p.err, '\n') == p.err + p.err_len - 1;
        t_proc_free(&p);
        CHECKF(m.signalled > 0 && loud, "%s: no one-line stop with status "
               "130", cmds[c][0]);
        CHECKF(latency < 1, "%s took %.2f s to stop", cmds[c][0], latency);
    }
}

/* The same journal named twice, or a copy of it: its runs' time once. */
static double seconds_of(const char *const *args)
{
    t_proc p;
    double s = -1;
    if (t_run_cli(&p, args) == 0 && p.exit_code == 0) {
        const char *at = strstr(p.out, "\"seconds\":");
        if (at)
            s = atof(at + 10);
    }
    t_proc_free(&p);
    return s;
}

static void duplicates_not_doubled(void *arg)
{
    (void)arg;
    const char *j = file("twice.journal"), *copy = file("copy.journal");
    CHECK(count_into(j, "13", "fast"));
    size_t len;
    char *text = t_read_file(j, &len);
    CHECK(text);
    FILE *f = fopen(copy, "wb");
    CHECK(f);
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
    double once = seconds_of(ARGS("merge", "--json", j));
    double twice = seconds_of(ARGS("merge", "--json", j, j));
    double copied = seconds_of(ARGS("merge", "--json", j, copy));
    CHECKF(once > 0 && twice == once && copied == once,
           "seconds %.6f once, %.6f twice, %.6f with a copy", once, twice,
           copied);
}

/* The first record with solutions, its total doubled: still a multiple
 * of its orbit sizes, so only a recount can tell. */
static int first_total_doubled(uint64_t unit, nq_tally *t, void *ctx)
{
    int *left = ctx;
    (void)unit;
    if (!*left || t->total == 0)
        return 0;
    t->total *= 2, *left = 0;
    return 1;
}

/* nq-bench-record prices a part of a plan by counting it again: a whole
 * part agrees with its journal (exit 0), a forged record is caught
 * (DISAGREES, exit 1), and a part not wholly recorded is refused, said,
 * rather than priced as a different sample. */
static void bench_record_checks_parts(void *arg)
{
    const char *part = file("part.journal"), *cut = file("cut.journal");
    const char *prog = t_bench_program("nq-bench-record");
    t_proc p;
    int left = 1;
    (void)arg;
    if (!prog)
        return;
    unlink(part), unlink(cut);
    CHECK(t_run_cli(&p, ARGS("count", "13", "-e", "fast", "--part", "2/3",
                             "--checkpoint", part, "-q")) == 0 &&
          p.exit_code == 0);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "13", "-e", "fast", "--part", "2/3",
                             "--checkpoint", cut, "--max-units", "3",
                             "-q")) == 0);
    t_proc_free(&p);
    T_BAIL();
    CHECK(t_run_signalled(&p, prog, ARGS(prog, "--kernels", "scalar", part),
                          0, 0) == 0);
    CHECKF(p.exit_code == 0 && strstr(p.out, "scalar   13     2/3") &&
           strstr(p.out, " agrees\n") && strstr(p.out, "cycles per solution"),
           "exit %d: %s%s", p.exit_code, p.out, p.err);
    t_proc_free(&p);
    CHECK(t_run_signalled(&p, prog, ARGS(prog, "--kernels", "scalar", cut),
                          0, 0) == 0);
    CHECKF(p.exit_code == 1 && strstr(p.err, "not a whole part"),
           "a part cut short: exit %d: %s", p.exit_code, p.err);
    t_proc_free(&p);
    CHECK(forge(part, first_total_doubled, &left) == 1);
    CHECK(t_run_signalled(&p, prog, ARGS(prog, "--kernels", "scalar", part),
                          0, 0) == 0);
    CHECKF(p.exit_code == 1 && strstr(p.out, " DISAGREES\n"),
           "a forged record: exit %d: %s%s", p.exit_code, p.out, p.err);
    t_proc_free(&p);
}

void tests_forgery(void)
{
    static const int n20 = 20, n22 = 22;
    static const bad_record bad[] = {
        {"fixed-points-in-a-ring-unit", "fast", "12", fixed_in_a_ring_unit,
         "counts only a total"},
        {"ring-total-off-its-orbit-sizes", "fast", "12", total_off_the_grain,
         "no multiple"},
        {"odd-fixed-points", "fast", "12", odd_fixed_points, "odd number"},
        {"total-in-a-symmetric-count", "fast", "12",
         total_in_a_symmetric_count, "only the solutions fixed"},
        {"carry-unique-not-total-over-8", "carry", "11", carry_unique_off,
         "not its total over 8"},
    };
    snprintf(dir, sizeof dir, "/tmp/nq-forgery-XXXXXX");
    if (!mkdtemp(dir)) {
        printf("FAIL forgery tests: no temporary directory\n");
        return;
    }
    t_case(fixed_point_forgery_caught, (void *)"12",
           "forgery/fixed-points-zeroed-caught-by-100-sampled-verifies/12");
    t_full_case(fixed_point_forgery_caught, (void *)"16",
                "forgery/fixed-points-zeroed-caught-by-100-sampled-verifies/16");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        t_case(record_refused, (void *)&bad[i], "forgery/refused/%s",
               bad[i].name);
    t_case(carry_symmetric_forgery_caught, NULL,
           "forgery/carry-symmetric-unique-caught-by-sampled-verify");
    t_case(bogus_header_refused_at_once, (void *)&n20,
           "forgery/bogus-carry-header-refused-before-planning/20");
    t_case(bogus_header_refused_at_once, (void *)&n22,
           "forgery/bogus-carry-header-refused-before-planning/22");
    t_full_case(sigint_while_planning, NULL,
                "forgery/sigint-while-merge-and-verify-plan-carry-20");
    t_full_case(bench_record_checks_parts, NULL,
           "forgery/bench-record-recounts-a-part-and-catches-a-forged-one");
    t_case(duplicates_not_doubled, NULL,
           "forgery/journal-named-twice-or-copied-time-counted-once");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
}

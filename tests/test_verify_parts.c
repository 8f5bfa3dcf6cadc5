/*
 * test_verify_parts.c - a check run in parts (verify --part K/M --seed S
 * --output FILE) recounts, part by part, exactly the units the whole
 * check chooses, each once; merge --verified adds up only a complete,
 * agreeing set of verdicts and refuses every other in one line; verify
 * --estimate counts what the recount does.  The verdicts are read here
 * as doc/journal-format.md ("Verdicts") writes them, and the chosen
 * set's digest computed here from the units the parts list.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../src/core/core.h"

#define PARTS 3

/* A board and how its journal is counted. */
typedef struct {
    const char *n, *bound;      /* --max-unit-seconds, or NULL */
} board;

/* The finished journal of the board at path: 1 on success. */
static int journal_of(const board *b, const char *path)
{
    t_proc p;
    int ok = t_run_cli(&p, b->bound ?
                       ARGS("count", b->n, "--checkpoint", path, "--quiet",
                            "--max-unit-seconds", b->bound) :
                       ARGS("count", b->n, "--checkpoint", path, "--quiet"))
             == 0 && p.exit_code == 0;
    t_proc_free(&p);
    return ok;
}

/* verify --part K/3 --seed seed --output out on journal j: its exit. */
static int verify_part(const char *j, int k, const char *seed,
                       const char *out)
{
    char part[16];
    t_proc p;
    snprintf(part, sizeof part, "%d/%d", k, PARTS);
    if (t_run_cli(&p, ARGS("verify", "-q", j, "--part", part, "--seed",
                           seed, "--output", out)) != 0)
        return -1;
    int rc = p.exit_code;
    t_proc_free(&p);
    return rc;
}

/* A number or a "hex" string a JSON line holds, or 0 (-1 for a number
 * absent). */
static long long json_number(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *at = out ? strstr(out, key) : NULL;
    return at ? atoll(at + strlen(key)) : -1;
}

static uint64_t json_hex(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *at = out ? strstr(out, key) : NULL;
    return at ? strtoull(at + strlen(key), NULL, 16) : 0;
}

/* The units a verdict lists, in order, and the chosen set's digest its
 * header names: the count of units, or -1 if it is no verdict. */
static int read_units(const char *path, uint64_t *ids, int cap,
                      uint64_t *digest)
{
    size_t len;
    char *text = t_read_file(path, &len), *save = NULL;
    const char *d = text ? strstr(text, " digest=") : NULL;
    int n = d ? 0 : -1;
    if (d)
        *digest = strtoull(d + 8, NULL, 16);
    for (char *l = d ? strtok_r(text, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        unsigned long long u;
        if (sscanf(l, "unit %llu", &u) == 1 && n < cap)
            ids[n++] = u;
    }
    free(text);
    return n;
}

static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* FNV-1a over each id's 8 bytes, little-endian, in order: the chosen
 * set's digest as the format document defines it. */
static uint64_t documented_digest(const uint64_t *ids, int n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            h = (h ^ (unsigned char)(ids[i] >> (8 * b))) * 0x100000001b3ull;
    return h;
}

/* The whole check's choice by --estimate --json: its count and digest. */
static void whole_choice(const char *j, const char *seed, long long *chosen,
                         uint64_t *digest)
{
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("verify", "-q", j, "--seed", seed,
                             "--estimate", "--json")) == 0);
    *chosen = json_number(p.out, "chosen");
    *digest = json_hex(p.out, "chosen_digest");
    int ok = p.exit_code == 0 && *chosen > 0 && *digest;
    t_proc_free(&p);
    CHECKF(ok, "verify --estimate --json named no choice");
}

/* Parts 1..3 of one seed: disjoint, each non-empty, their union exactly
 * the whole check's choice (its size and its digest, computed here);
 * merge --verified adds them up to the board's OEIS total. */
static void parts_cover_the_choice(void *arg)
{
    const board *b = arg;
    const char *j = t_file("j"), *v[PARTS] = {
        t_file("v1"), t_file("v2"), t_file("v3")};
    enum { CAP = 4096 };
    static uint64_t ids[CAP];
    int total = 0;
    long long chosen = 0;
    uint64_t whole = 0, digest = 0;
    CHECK(journal_of(b, j));
    whole_choice(j, "11", &chosen, &whole);
    T_BAIL();
    for (int k = 1; k <= PARTS; k++) {
        CHECKF(verify_part(j, k, "11", v[k - 1]) == 0, "part %d/3 failed", k);
        int n = read_units(v[k - 1], ids + total, CAP - total, &digest);
        CHECKF(n > 0 && digest == whole, "part %d/3 listed %d units, digest "
               "%016" PRIx64 " (the whole's %016" PRIx64 ")", k, n, digest,
               whole);
        total += n;
    }
    qsort(ids, (size_t)total, sizeof *ids, ascending);
    for (int i = 1; i < total; i++)
        CHECKF(ids[i] != ids[i - 1], "unit %" PRIu64 " in two parts", ids[i]);
    CHECKF(total == chosen && documented_digest(ids, total) == whole,
           "the parts recounted %d units, the whole check chooses %lld",
           total, chosen);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("merge", "--verified", j, v[2], v[0], v[1],
                             "--json")) == 0);
    char want[64];
    snprintf(want, sizeof want, "\"total\":%llu",
             (unsigned long long)t_oeis_total(atoi(b->n)));
    int ok = p.exit_code == 0 && strstr(p.out, want) &&
             strstr(p.out, "\"type\":\"verified\"");
    t_proc_free(&p);
    CHECKF(ok, "merge --verified did not add the parts up");
}

/* A set of verdicts merge --verified must refuse, and what its line
 * says. */
typedef struct {
    const char *name, *says;
    void (*spoil)(const char *const *v, const char *j, char *files[5]);
} refusal;

/* The three verdicts of journal j under seed 5, into v. */
static int three_parts(const char *j, const char *const *v, const char *seed)
{
    for (int k = 1; k <= PARTS; k++)
        if (verify_part(j, k, seed, v[k - 1]) != 0)
            return 0;
    return 1;
}

static void all_three(const char *const *v, const char *j, char *f[5])
{
    f[0] = (char *)j, f[1] = (char *)v[0], f[2] = (char *)v[1];
    f[3] = (char *)v[2];
}

static void part_missing(const char *const *v, const char *j, char *f[5])
{
    f[0] = (char *)j, f[1] = (char *)v[0], f[2] = (char *)v[2];
}

static void part_twice(const char *const *v, const char *j, char *f[5])
{
    f[0] = (char *)j, f[1] = (char *)v[0], f[2] = (char *)v[1];
    f[3] = (char *)v[1], f[4] = (char *)v[2];
}

static void another_seed(const char *const *v, const char *j, char *f[5])
{
    const char *other = t_file("seed6");
    part_missing(v, j, f);
    if (verify_part(j, 2, "6", other) == 0)
        f[3] = (char *)other;
}

/* A journal of half the records: another journal set of the count. */
static const char *half_journal(const char *j)
{
    const char *half = t_file("half");
    size_t len;
    char *text = t_read_file(j, &len);
    FILE *out = text ? fopen(half, "wb") : NULL;
    if (out)
        fwrite(text, 1, strlen(text) / 2, out); /* a half line: dropped */
    if (out)
        fclose(out);
    free(text);
    return half;
}

static void another_journal_part(const char *const *v, const char *j,
                                 char *f[5])
{
    const char *other = t_file("other2");
    part_missing(v, j, f);
    if (verify_part(half_journal(j), 2, "5", other) == 0)
        f[3] = (char *)other;
}

static void journals_not_checked(const char *const *v, const char *j,
                                 char *f[5])
{
    const char *half = half_journal(j);
    all_three(v, half, f);
}

/* A byte of part 2's verdict changed, past its header. */
static void damaged(const char *const *v, const char *j, char *f[5])
{
    size_t len;
    char *text = t_read_file(v[1], &len);
    FILE *out = text && len > 20 ? fopen(v[1], "wb") : NULL;
    if (out) {
        char *at = strstr(text, "\nunit ") + 6;
        *at = *at == '9' ? '8' : (char)(*at + 1);
        fwrite(text, 1, len, out);
        fclose(out);
    }
    free(text);
    all_three(v, j, f);
}

/* Part 2's verdict cut short in the middle. */
static void cut_short(const char *const *v, const char *j, char *f[5])
{
    size_t len;
    char *text = t_read_file(v[1], &len);
    FILE *out = text ? fopen(v[1], "wb") : NULL;
    if (out) {
        fwrite(text, 1, len / 2, out);
        fclose(out);
    }
    free(text);
    all_three(v, j, f);
}

static void refused(void *arg)
{
    const refusal *r = arg;
    const char *j = t_file("j"), *v[PARTS] = {t_file("v1"), t_file("v2"),
                                            t_file("v3")};
    char *f[6] = {NULL};
    const board b = {"13", NULL};
    CHECK(journal_of(&b, j));
    CHECK(three_parts(j, v, "5"));
    r->spoil(v, j, f);
    t_proc p;
    const char *args[9] = {"merge", "--verified"};
    for (int i = 0; f[i]; i++)
        args[2 + i] = f[i];
    CHECK(t_run_cli(&p, args) == 0);
    const char *nl = strchr(p.err, '\n');
    int ok = p.exit_code == 1 && !strstr(p.out, "13:") && nl && !nl[1] &&
             strstr(p.err, r->says);
    CHECKF(ok, "merge --verified (%s) exited %d: %s%s", r->name, p.exit_code,
           p.out, p.err);
    t_proc_free(&p);
}

/* A verdict as a release before the weighted draws wrote it: its
 * header without " weighted=0", the CRC made again over the rest. */
static int as_older_release(const char *path)
{
    size_t len;
    char *text = t_read_file(path, &len), *at, *crc;
    if (!text || !(at = strstr(text, " weighted=0 ")) ||
        at > strchr(text, '\n')) {
        free(text);
        return 0;
    }
    memmove(at, at + 11, len - (size_t)(at + 11 - text) + 1);
    len -= 11;
    crc = strstr(text, " crc=");
    FILE *out = crc ? fopen(path, "wb") : NULL;
    if (out) {
        fwrite(text, 1, (size_t)(crc - text), out);
        fprintf(out, " crc=%08" PRIx32 "\n",
                nq_crc32(0, text, (size_t)(crc - text)));
        fclose(out);
    }
    free(text);
    return out != NULL;
}

/* Verdicts of a release before the weighted draws (no weighted= in
 * their header) are read as drawing none: three such parts, made with
 * --weighted 0, add up; a part with weighted draws beside them is of
 * another sample. */
static void older_verdicts_read(void *arg)
{
    (void)arg;
    const char *j = t_file("j"), *v[PARTS] = {t_file("v1"), t_file("v2"),
                                            t_file("v3")};
    const char *weighted = t_file("weighted");
    const board b = {"13", NULL};
    t_proc p;
    CHECK(journal_of(&b, j));
    for (int k = 1; k <= PARTS; k++) {
        char part[16];
        snprintf(part, sizeof part, "%d/%d", k, PARTS);
        CHECK(t_run_cli(&p, ARGS("verify", "-q", j, "--part", part, "--seed",
                                 "5", "--weighted", "0", "--output",
                                 v[k - 1])) == 0 && p.exit_code == 0);
        t_proc_free(&p);
        CHECKF(as_older_release(v[k - 1]), "part %d's verdict has no "
               "weighted=0 to strip", k);
    }
    T_BAIL();
    CHECK(t_run_cli(&p, ARGS("merge", "--verified", j, v[0], v[1], v[2])) ==
          0);
    CHECKF(p.exit_code == 0 && strstr(p.out, "13:") &&
           strstr(p.out, "73712"), "older verdicts: %s%s", p.out, p.err);
    t_proc_free(&p);
    CHECK(verify_part(j, 2, "5", weighted) == 0);
    CHECK(t_run_cli(&p, ARGS("merge", "--verified", j, v[0], weighted,
                             v[2])) == 0);
    CHECKF(p.exit_code == 1 && strstr(p.err, "another sample") &&
           !strstr(p.out, "13:"), "a part with weighted draws among "
           "older ones: %s%s", p.out, p.err);
    t_proc_free(&p);
}

/* --part without --seed: one line naming why, exit 2, before any
 * journal is read. */
static void part_needs_a_seed(void *arg)
{
    t_proc p;
    (void)arg;
    CHECK(t_run_cli(&p, ARGS("verify", "no-such-journal", "--part", "1/3"))
          == 0);
    const char *nl = strchr(p.err, '\n');
    int ok = p.exit_code == 2 && nl && !nl[1] && strstr(p.err, "--seed") &&
             strstr(p.err, "another sample");
    t_proc_free(&p);
    CHECKF(ok, "verify --part without --seed was not refused in one line");
}

/* --estimate's count is what the recount recounts, whole and part 2/3,
 * and the cost is above 0 from N = 16. */
static void estimate_matches(void *arg)
{
    const board *b = arg;
    const char *j = t_file("j");
    t_proc p;
    CHECK(journal_of(b, j));
    const char *const *runs[4] = {
        ARGS("verify", "-q", j, "--seed", "9", "--estimate", "--json"),
        ARGS("verify", "-q", j, "--seed", "9", "--json"),
        ARGS("verify", "-q", j, "--seed", "9", "--part", "2/3", "--estimate",
             "--json"),
        ARGS("verify", "-q", j, "--seed", "9", "--part", "2/3", "--json")};
    long long got[4];
    double hours = 0;
    for (int i = 0; i < 4; i++) {
        CHECK(t_run_cli(&p, runs[i]) == 0);
        got[i] = json_number(p.out, i % 2 ? "checked" :
                             i ? "share" : "chosen");
        if (i == 0 && strstr(p.out, "\"core_hours\":"))
            hours = atof(strstr(p.out, "\"core_hours\":") + 13);
        int ok = p.exit_code == 0 && got[i] > 0;
        t_proc_free(&p);
        CHECKF(ok, "verify run %d failed or counted nothing", i);
    }
    CHECKF(got[0] == got[1] && got[2] == got[3] && got[2] < got[0],
           "--estimate said %lld (part 2/3: %lld), the recount did %lld "
           "(%lld)", got[0], got[2], got[1], got[3]);
    CHECKF(atoi(b->n) < 16 || hours > 0, "no core-hours at N=%s", b->n);
}

void tests_verify_parts(void)
{
    static const board b13 = {"13", NULL}, b17 = {"17", "0.0001"},
                       b16 = {"16", NULL};
    static const refusal refusals[] = {
        {"a-part-missing", "no verdict given of 1 of its 3 parts",
         part_missing},
        {"a-part-twice", "are both part 2/3", part_twice},
        {"a-part-of-another-seed", "another seed", another_seed},
        {"a-part-of-other-journals", "another journals",
         another_journal_part},
        {"other-journals-than-checked", "checked other journals",
         journals_not_checked},
        {"a-damaged-verdict", "its CRC does not match", damaged},
        {"a-verdict-cut-short", "no closing line", cut_short},
    };
    t_case(parts_cover_the_choice, (void *)&b13,
           "verify/parts/three-parts-recount-the-whole-choice-once/13");
    t_full_case(parts_cover_the_choice, (void *)&b17,
                "verify/parts/three-parts-recount-the-whole-choice-once/"
                "17-in-pieces");
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        t_case(refused, (void *)&refusals[i],
               "verify/parts/merge-verified-refuses/%s", refusals[i].name);
    t_case(part_needs_a_seed, NULL, "verify/parts/part-without-seed-refused");
    t_case(older_verdicts_read, NULL,
           "verify/parts/verdicts-without-weighted-read-as-none");
    t_case(estimate_matches, (void *)&b13,
           "verify/parts/estimate-counts-what-is-recounted/13");
    t_case(estimate_matches, (void *)&b16,
           "verify/parts/estimate-counts-what-is-recounted/16");
}

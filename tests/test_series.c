/*
 * test_series.c - the pages for learners and teachers that name the
 * series nqueens follows: doc/series.md and doc/series.ja.md (each
 * chapter -> engine, command, lesson page), doc/worksheet.md and
 * doc/worksheet.ja.md (a class's exercises), README.ja.md.
 *
 * Every `nqueens ...` command they cite (in a code span, or a line of a
 * fenced block, "$ " before it or not) is run through the CLI built here
 * and must exit 0, print something and nothing on stderr; the Japanese
 * page of each pair cites the same commands as the English one, so that
 * the two never drift apart.  The worksheets' answer tables (rows
 * "| N | total | unique |") are checked against OEIS, every link to a
 * file of the repository must reach one, and the Japanese pages must use
 * the series' own terms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The pages, from the repository's root. */
static const char *const PAGES[] = {
    "doc/series.md", "doc/series.ja.md", "doc/worksheet.md",
    "doc/worksheet.ja.md", "README.ja.md",
};
enum { NPAGES = sizeof PAGES / sizeof *PAGES, MAX_CMDS = 256, MAX_ARGS = 32 };

/* The engines of the series, each of which the map must show at work. */
static const char *const SERIES_ENGINES[] = {
    "brute", "backtrack", "flags", "bitmap", "mirror", "symmetry", "carry",
};

/* The series' terms, which the Japanese pages use (issue 56). */
static const char *const JA_TERMS[] = {
    "クイーン", "効き筋", "バックトラック", "配置フラグ", "ビットマップ",
    "ミラー", "対称解除法", "キャリーチェーン", "ユニーク解", "総解",
};

typedef struct {
    char *text;
    char *cmds[MAX_CMDS];
    int ncmds, overflow;
} page;

static page pages[NPAGES];
static char *all_cmds[NPAGES * MAX_CMDS];
static int nall;

static const char *root_path(const char *rel)
{
    static char path[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", t_data_path("../.."), rel);
    return path[k];
}

/* Record s[0..len) as a command of pg if it is one: "nqueens ARGS"
 * ("$ " or "build/" before it dropped; in a fenced block, a "# comment"
 * after it too), spaces collapsed. */
static void take(page *pg, const char *s, size_t len, int fenced)
{
    while (len && (*s == ' ' || *s == '\t'))
        s++, len--;
    if (len > 2 && !strncmp(s, "$ ", 2))
        s += 2, len -= 2;
    if (len > 6 && !strncmp(s, "build/nqueens ", 14))
        s += 6, len -= 6;
    if (len < 9 || strncmp(s, "nqueens ", 8))
        return;
    for (size_t i = 0; fenced && i + 1 < len; i++)
        if (s[i] == ' ' && s[i + 1] == '#')
            len = i; /* a block's "# comment" */
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
        len--;
    char *c = malloc(len + 1), *o = c;
    if (!c)
        return;
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' || (o > c && o[-1] != ' '))
            *o++ = s[i];
    *o = '\0';
    for (int i = 0; i < pg->ncmds; i++)
        if (!strcmp(pg->cmds[i], c)) {
            free(c);
            return;
        }
    if (pg->ncmds == MAX_CMDS) {
        pg->overflow = 1;
        free(c);
        return;
    }
    pg->cmds[pg->ncmds++] = c;
}

/* The commands of a Markdown text: each line of a fenced block, each
 * code span outside them. */
static void extract(page *pg)
{
    int fenced = 0;
    for (const char *line = pg->text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len >= 3 && !strncmp(line, "```", 3)) {
            fenced = !fenced;
        } else if (fenced) {
            take(pg, line, len, 1);
        } else {
            for (const char *s = line, *end = line + len; s < end;) {
                const char *open = memchr(s, '`', (size_t)(end - s));
                if (!open)
                    break;
                const char *close = memchr(open + 1, '`', (size_t)(end - open - 1));
                if (!close)
                    break;
                take(pg, open + 1, (size_t)(close - open - 1), 0);
                s = close + 1;
            }
        }
        line = nl ? nl + 1 : line + len;
    }
}

/* Run one command: a plain one (no shell), which exits 0, prints
 * something and nothing on stderr. */
static void command_runs(void *arg)
{
    const char *cmd = arg;
    CHECKF(!strpbrk(cmd, "|;&<>$()`'\"*?\\"), "'%s' is not a plain command "
           "(the pages cite commands a learner types as they are)", cmd);
    char *copy = strdup(cmd), *save = NULL;
    const char *args[MAX_ARGS + 1];
    int n = 0;
    CHECK(copy);
    strtok_r(copy, " ", &save); /* "nqueens" */
    for (char *w; n < MAX_ARGS && (w = strtok_r(NULL, " ", &save));)
        args[n++] = w;
    args[n] = NULL;
    t_proc p;
    int ran = t_run_cli(&p, args) == 0;
    int ok = ran && p.exit_code == 0 && p.err_len == 0 && p.out_len > 0;
    if (ran && !ok)
        t_fail(__FILE__, __LINE__, "'%s': exit %d, %zu bytes out, stderr: "
               "%.200s", cmd, p.exit_code, p.out_len, p.err);
    if (ran)
        t_proc_free(&p);
    free(copy);
    CHECKF(ran, "could not run %s", getenv("NQ_CLI"));
}

static int has(const page *pg, const char *cmd)
{
    for (int i = 0; i < pg->ncmds; i++)
        if (!strcmp(pg->cmds[i], cmd))
            return 1;
    return 0;
}

/* The English page and its Japanese twin cite the same commands, at
 * least `min` of them. */
static void same_commands(void *arg)
{
    int e = *(const int *)arg, j = e + 1;
    const page *en = &pages[e], *ja = &pages[j];
    CHECKF(en->text && ja->text, "%s or %s cannot be read", PAGES[e], PAGES[j]);
    CHECKF(!en->overflow && !ja->overflow, "over %d commands in a page", MAX_CMDS);
    int min = e == 0 ? 20 : 3;
    CHECKF(en->ncmds >= min, "%s cites %d nqueens commands, fewer than %d: "
           "are its code spans still `nqueens ...`?", PAGES[e], en->ncmds, min);
    for (int i = 0; i < en->ncmds; i++)
        CHECKF(has(ja, en->cmds[i]), "%s cites '%s', %s does not", PAGES[e],
               en->cmds[i], PAGES[j]);
    for (int i = 0; i < ja->ncmds; i++)
        CHECKF(has(en, ja->cmds[i]), "%s cites '%s', %s does not", PAGES[j],
               ja->cmds[i], PAGES[e]);
}

/* The map shows each engine of the series at work: a command of it
 * names the engine (--engine NAME, -e NAME). */
static int names_engine(const char *cmd, const char *engine)
{
    char *copy = strdup(cmd), *save = NULL, *prev = NULL;
    int found = 0;
    for (char *w = copy ? strtok_r(copy, " ", &save) : NULL; w && !found;
         prev = w, w = strtok_r(NULL, " ", &save))
        found = prev && (!strcmp(prev, "--engine") || !strcmp(prev, "-e")) &&
                !strcmp(w, engine);
    free(copy);
    return found;
}

static void every_engine_mapped(void *arg)
{
    (void)arg;
    const page *pg = &pages[0];
    CHECKF(pg->text, "%s cannot be read", PAGES[0]);
    for (size_t k = 0; k < sizeof SERIES_ENGINES / sizeof *SERIES_ENGINES; k++) {
        int found = 0;
        for (int i = 0; i < pg->ncmds && !found; i++)
            found = names_engine(pg->cmds[i], SERIES_ENGINES[k]);
        CHECKF(found, "%s runs no command of the engine %s", PAGES[0],
               SERIES_ENGINES[k]);
    }
}

/* A number as the pages write it (1,234 or 1234) at *s, up to the end of
 * a table cell; -1 if the cell is not one. */
static long long cell_number(const char **s)
{
    const char *p = *s;
    long long v = 0;
    int digits = 0;
    while (*p == ' ')
        p++;
    for (; (*p >= '0' && *p <= '9') || (*p == ',' && digits); p++)
        if (*p != ',')
            v = v * 10 + (*p - '0'), digits++;
    while (*p == ' ')
        p++;
    if (!digits || *p != '|')
        return -1;
    *s = p + 1;
    return v;
}

/* The worksheets' answers: every table row of three numbers, N, its
 * total and its unique count, is OEIS's; at least 8 such rows. */
static void worksheet_answers(void *arg)
{
    int w = *(const int *)arg, rows = 0;
    const page *pg = &pages[w];
    CHECKF(pg->text, "%s cannot be read", PAGES[w]);
    for (const char *line = pg->text; line && *line;) {
        const char *s = line;
        if (*s == '|') {
            s++;
            long long n = cell_number(&s), total = n >= 0 ? cell_number(&s) : -1,
                      unique = total >= 0 ? cell_number(&s) : -1;
            if (unique >= 0 && (*s == '\n' || *s == '\0' || *s == '\r')) {
                CHECKF(n >= 1 && n <= t_oeis_max, "%s: a row for N = %lld",
                       PAGES[w], n);
                CHECKF((nq_u128)total == t_oeis_total((int)n) &&
                       (nq_u128)unique == t_oeis_unique((int)n),
                       "%s says N = %lld has %lld solutions, %lld unique; OEIS "
                       "says otherwise", PAGES[w], n, total, unique);
                rows++;
            }
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    CHECKF(rows >= 8, "%s has %d rows of answers (N | total | unique), "
           "fewer than 8", PAGES[w], rows);
}

/* Every link of a page to a file of the repository reaches one (no
 * picture or page promised that is not there). */
static void links_resolve(void *arg)
{
    int k = *(const int *)arg;
    const page *pg = &pages[k];
    CHECKF(pg->text, "%s cannot be read", PAGES[k]);
    char dir[256];
    snprintf(dir, sizeof dir, "%s", PAGES[k]);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    int links = 0;
    for (const char *s = pg->text; (s = strstr(s, "](")); s += 2) {
        const char *t = s + 2, *end = t + strcspn(t, ") \n#");
        if (!strncmp(t, "http://", 7) || !strncmp(t, "https://", 8) ||
            *t == '#' || end == t)
            continue;
        char rel[512];
        snprintf(rel, sizeof rel, "%s%.*s", dir, (int)(end - t), t);
        CHECKF(access(root_path(rel), F_OK) == 0, "%s links %s, which is not "
               "there", PAGES[k], rel);
        links++;
    }
    CHECKF(links >= 1, "%s links no file of the repository", PAGES[k]);
}

/* The Japanese pages speak the series' language. */
static void japanese_terms(void *arg)
{
    int k = *(const int *)arg;
    const page *pg = &pages[k];
    CHECKF(pg->text, "%s cannot be read", PAGES[k]);
    for (size_t i = 0; i < sizeof JA_TERMS / sizeof *JA_TERMS; i++)
        CHECKF(strstr(pg->text, JA_TERMS[i]), "%s never says %s", PAGES[k],
               JA_TERMS[i]);
}

/* README.ja.md is a front door as README.md is (its first fenced block
 * holds make run and make test); README.md links it and the map. */
static void front_doors(void *arg)
{
    (void)arg;
    const char *ja = pages[4].text;
    CHECKF(ja, "README.ja.md cannot be read");
    const char *block = strstr(ja, "```"), *end = block ? strstr(block + 3, "```") : NULL;
    CHECKF(block && block - ja < 300 && end, "README.ja.md does not open with "
           "a fenced block of commands");
    const char *run = strstr(block, "make run"), *test = strstr(block, "make test");
    CHECKF(run && run < end && test && test < end,
           "README.ja.md's first block lacks make run or make test");
    CHECKF(strstr(ja, "(README.md)") && strstr(ja, "(doc/series.ja.md)"),
           "README.ja.md links neither README.md nor doc/series.ja.md");
    char *readme = t_read_file(root_path("README.md"), NULL);
    CHECKF(readme, "README.md cannot be read");
    int linked = strstr(readme, "(README.ja.md)") && strstr(readme, "(doc/series.md)");
    free(readme);
    CHECKF(linked, "README.md does not link README.ja.md and doc/series.md");
}

/* The lesson page links the map in each language, by a path from the
 * page (web/lesson.html, build/nqueens.html: one folder down) to a file
 * that is there. */
static void page_links_map(void *arg)
{
    (void)arg;
    const char *const where[2][2] = {
        {"programs/web/lesson_top.html", "href=\"../doc/series.md\""},
        {"programs/web/lesson.js", "seriesHref: \"../doc/series.ja.md\""}};
    for (int i = 0; i < 2; i++) {
        char *text = t_read_file(root_path(where[i][0]), NULL);
        int has = text && strstr(text, where[i][1]);
        free(text);
        CHECKF(has, "%s lacks %s", where[i][0], where[i][1]);
        const char *target = strstr(where[i][1], "../") + 3;
        char path[64];
        snprintf(path, sizeof path, "%.*s", (int)strcspn(target, "\""), target);
        CHECKF(access(root_path(path), F_OK) == 0, "%s links %s, which is "
               "not there", where[i][0], path);
    }
}

void tests_series(void)
{
    static int pair0 = 0, pair2 = 2, ws_en = 2, ws_ja = 3;
    static int idx[NPAGES];
    for (int k = 0; k < NPAGES; k++) {
        idx[k] = k;
        pages[k].text = t_read_file(root_path(PAGES[k]), NULL);
        if (pages[k].text)
            extract(&pages[k]);
        for (int i = 0; i < pages[k].ncmds; i++) {
            int seen = 0;
            for (int j = 0; j < nall && !seen; j++)
                seen = !strcmp(all_cmds[j], pages[k].cmds[i]);
            if (!seen)
                all_cmds[nall++] = pages[k].cmds[i];
        }
    }
    t_case(same_commands, &pair0, "series/same-commands/series");
    t_case(same_commands, &pair2, "series/same-commands/worksheet");
    t_case(every_engine_mapped, NULL, "series/every-engine");
    t_case(worksheet_answers, &ws_en, "series/worksheet-answers/en");
    t_case(worksheet_answers, &ws_ja, "series/worksheet-answers/ja");
    for (int k = 0; k < NPAGES; k++)
        t_case(links_resolve, &idx[k], "series/links/%s", PAGES[k]);
    t_case(japanese_terms, &idx[1], "series/japanese-terms/%s", PAGES[1]);
    t_case(japanese_terms, &idx[4], "series/japanese-terms/%s", PAGES[4]);
    t_case(front_doors, NULL, "series/front-doors");
    t_case(page_links_map, NULL, "series/lesson-page-links-the-map");
    for (int i = 0; i < nall; i++)
        t_case(command_runs, all_cmds[i], "series/command/%s", all_cmds[i]);
}

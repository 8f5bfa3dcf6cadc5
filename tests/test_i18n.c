/*
 * test_i18n.c - the command line in the user's language (i18n/): under
 * LANG=ja_JP.UTF-8 (and LANGUAGE=ja) the words people read are Japanese,
 * the exit codes the same; under LANG=C and en_US.UTF-8 nothing changes;
 * JSON is the same bytes in every language; a locale that is not
 * installed leaves English without a word on stderr; po/ja.po translates
 * every message (msgfmt -c --statistics).  And tree --one-based (tree/).
 *
 * The Japanese cases need the ja_JP.UTF-8 locale (Debian: locales-all)
 * and the built catalogue (msgfmt): skipped, said, without either.
 */
#define _GNU_SOURCE /* setenv, unsetenv, popen */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The runner sets LC_MESSAGES=C for every case (main.c); a case here
 * names its locale itself. */
static void use_locale(const char *lang, const char *language)
{
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    setenv("LANG", lang, 1);
    if (language)
        setenv("LANGUAGE", language, 1);
    else
        unsetenv("LANGUAGE");
}

/* The catalogue beside the program under test (build/locale: i18n.c). */
static int have_catalogue(void)
{
    char path[4096];
    const char *cli = getenv("NQ_CLI"), *slash = cli ? strrchr(cli, '/') : 0;
    int len = slash ? (int)(slash - cli) : 1;
    snprintf(path, sizeof path, "%.*s/locale/ja/LC_MESSAGES/nqueens.mo", len,
             slash ? cli : ".");
    return access(path, R_OK) == 0;
}

/* Whether the Japanese cases can run here; if not, the case is skipped. */
static int japanese_here(void)
{
    if (!setlocale(LC_ALL, "ja_JP.UTF-8")) {
        t_skip("no ja_JP.UTF-8 locale here (Debian: locales-all)");
        return 0;
    }
    setlocale(LC_ALL, "C");
    if (!have_catalogue()) {
        t_skip("no built catalogue (msgfmt missing when it was built)");
        return 0;
    }
    use_locale("ja_JP.UTF-8", "ja");
    return 1;
}

static void ja_count(void *arg)
{
    (void)arg;
    t_proc p;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&p, ARGS("count", "8")) == 0);
    CHECKF(p.exit_code == 0 && strstr(p.out, "総解") &&
           strstr(p.out, "ユニーク解") &&
           strstr(p.out, " 8:           92           12"),
           "count 8 in Japanese printed:\n%s", p.out);
    /* the headings right-aligned by columns: "総解" (4 columns) ends
     * where "Total" ends in English, column 16 */
    const char *head = " N:         総解   ユニーク解    時:分:秒.ミリ秒\n";
    CHECKF(strncmp(p.out, head, strlen(head)) == 0,
           "heading not aligned: %s", p.out);
    t_proc_free(&p);
}

static void ja_solve(void *arg)
{
    (void)arg;
    t_proc ja, c;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&ja, ARGS("solve", "4")) == 0);
    use_locale("C", NULL);
    CHECK(t_run_cli(&c, ARGS("solve", "4")) == 0);
    CHECKF(ja.exit_code == 0 && !strcmp(ja.out, c.out),
           "solve 4's boards differ by language:\n%s", ja.out);
    t_proc_free(&ja);
    t_proc_free(&c);
    use_locale("ja_JP.UTF-8", "ja");
    CHECK(t_run_cli(&ja, ARGS("solve", "3")) == 0);
    CHECKF(ja.exit_code == 0 && strstr(ja.err, "N=3 には解がありません"),
           "solve 3's note: %s", ja.err);
    t_proc_free(&ja);
}

static void ja_trace(void *arg)
{
    (void)arg;
    t_proc p;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&p, ARGS("trace", "4", "-l", "3")) == 0);
    CHECKF(p.exit_code == 0 && strstr(p.out, "一手ずつ") &&
           strstr(p.out, "     2  却下      1 行 0 列  0 行 0 列のクイーンの"
                         "効き筋に入る（同じ列）") &&
           strstr(p.out, "3 ステップ：配置 1、却下 2"),
           "trace 4 in Japanese:\n%s", p.out);
    t_proc_free(&p);
    /* bitmap's removals say what the node has still to try, in words */
    CHECK(t_run_cli(&p, ARGS("trace", "4", "-e", "bitmap", "-l", "8")) == 0);
    int ok = p.exit_code == 0 && strstr(p.out, "取り除く  1 行 2 列  未試行 0001")
             && !strstr(p.out, "to try");
    CHECKF(ok, "bitmap's trace in Japanese:\n%s", p.out);
    t_proc_free(&p);
}

static void ja_error(void *arg)
{
    (void)arg;
    t_proc p;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&p, ARGS("count", "99")) == 0);
    CHECKF(p.exit_code == 2 && !p.out[0] &&
           !strcmp(p.err, "nqueens: N は 1 から 32 までの整数です（'99' は"
                          "使えません）\n"),
           "count 99 in Japanese: exit %d, %s", p.exit_code, p.err);
    t_proc_free(&p);
}

static void ja_help(void *arg)
{
    (void)arg;
    t_proc p;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&p, ARGS("--help")) == 0);
    CHECKF(p.exit_code == 0 && strstr(p.out, "使い方: nqueens COMMAND") &&
           strstr(p.out, "対称解除法") && strstr(p.out, "終了コード"),
           "--help in Japanese:\n%s", p.out);
    t_proc_free(&p);
}

/* A command's help page and a phrase its Japanese page must hold. */
typedef struct {
    const char *command, *phrase;
} help_case;

/* The first option name ("--x...") in s at or after *at, into name;
 * 0 when there is none. */
static int next_option(const char **at, char *name, size_t size)
{
    const char *s = *at;
    while ((s = strstr(s, "--")) &&
           !(s[2] >= 'a' && s[2] <= 'z' && (s == *at || s[-1] != '-')))
        s += 2;
    if (!s)
        return 0;
    size_t len = strspn(s + 2, "abcdefghijklmnopqrstuvwxyz0123456789-") + 2;
    snprintf(name, size, "%.*s", (int)(len < size ? len : size - 1), s);
    *at = s + len;
    return 1;
}

/* `help COMMAND` under ja: Japanese (the usage line, the options
 * heading, the phrase) and every option name the English page gives,
 * none left out by a translation; the exit code 0 both times. */
static void ja_command_help(void *arg)
{
    const help_case *h = arg;
    t_proc c, ja;
    char name[64], usage[64];
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&ja, ARGS("help", h->command)) == 0);
    use_locale("C", NULL);
    CHECK(t_run_cli(&c, ARGS("help", h->command)) == 0);
    snprintf(usage, sizeof usage, "使い方: nqueens %s", h->command);
    CHECKF(ja.exit_code == 0 && c.exit_code == 0 &&
           !strncmp(ja.out, usage, strlen(usage)) &&
           strstr(ja.out, "オプション:\n") && strstr(ja.out, h->phrase),
           "help %s in Japanese:\n%s", h->command, ja.out);
    for (const char *at = c.out; next_option(&at, name, sizeof name);)
        CHECKF(strstr(ja.out, name), "help %s in Japanese lacks %s:\n%s",
               h->command, name, ja.out);
    t_proc_free(&c);
    t_proc_free(&ja);
}

/* A time in words in Japanese: complete's refusal names its estimate
 * in years ("およそ 5.3 年"), not "years" inside a Japanese line. */
static void ja_duration(void *arg)
{
    (void)arg;
    t_proc p;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&p, ARGS("complete", "27", "--given", "0:0")) == 0);
    CHECKF(p.exit_code == 2 && strstr(p.err, "およそ ") &&
           strstr(p.err, " 年 かかります") && !strstr(p.err, "year"),
           "complete 27 in Japanese: exit %d, %s", p.exit_code, p.err);
    t_proc_free(&p);
}

/* English as before: the headings and a message, byte for byte. */
static void english_unchanged(void *arg)
{
    t_proc p;
    use_locale(arg, NULL);
    CHECK(t_run_cli(&p, ARGS("count", "8")) == 0);
    const char *want = " N:        Total       Unique        hh:mm:ss.ms\n"
                       " 8:           92           12       ";
    CHECKF(p.exit_code == 0 && !p.err[0] &&
           !strncmp(p.out, want, strlen(want)),
           "count 8 under LANG=%s:\n%s%s", (const char *)arg, p.out, p.err);
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("count", "99")) == 0);
    CHECKF(p.exit_code == 2 &&
           !strcmp(p.err, "nqueens: N must be a whole number from 1 to 32, "
                          "not '99'\n"), "count 99: %s", p.err);
    t_proc_free(&p);
}

/* "seconds":0.000123 made "seconds":0: the one member that differs
 * between two runs of the same count. */
static void mask_seconds(char *s)
{
    for (char *at = s; (at = strstr(at, "\"seconds\":")); ) {
        at += 10;
        char *end = at + strspn(at, "0123456789.e-");
        memmove(at + 1, end, strlen(end) + 1);
        *at = '0';
    }
}

/* The same command's JSON under C and in Japanese: the same bytes. */
static void json_same(void *arg)
{
    const char *const *args = arg;
    t_proc c, ja;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&ja, args) == 0);
    use_locale("C", NULL);
    CHECK(t_run_cli(&c, args) == 0);
    mask_seconds(c.out);
    mask_seconds(ja.out);
    CHECKF(c.exit_code == ja.exit_code && !strcmp(c.out, ja.out) &&
           c.out[0] == '{', "%s %s --json differs by language:\n%s\n%s",
           args[0], args[1], c.out, ja.out);
    t_proc_free(&c);
    t_proc_free(&ja);
}

/* A locale that is not installed: English, and not a word about it. */
static void missing_locale(void *arg)
{
    (void)arg;
    t_proc p;
    use_locale("xx_XX.UTF-8", "xx");
    CHECK(t_run_cli(&p, ARGS("count", "8")) == 0);
    CHECKF(p.exit_code == 0 && !p.err[0] && strstr(p.out, "Total"),
           "count 8 under LANG=xx_XX.UTF-8: %s%s", p.out, p.err);
    t_proc_free(&p);
}

/* The man page's parts are made at build time: English under any LANG. */
static void manpage_english(void *arg)
{
    (void)arg;
    t_proc c, ja;
    if (!japanese_here())
        return;
    CHECK(t_run_cli(&ja, ARGS("--manpage", "count")) == 0);
    use_locale("C", NULL);
    CHECK(t_run_cli(&c, ARGS("--manpage", "count")) == 0);
    CHECKF(!strcmp(c.out, ja.out) && ja.exit_code == 0,
           "--manpage count differs under LANG=ja_JP.UTF-8");
    t_proc_free(&c);
    t_proc_free(&ja);
}

/* Every message of po/ja.po translated, none fuzzy, formats checked, and
 * none of po/nqueens.pot left out (msgcmp). */
static void catalogue_complete(void *arg)
{
    (void)arg;
    char line[512] = "";
    if (system("command -v msgfmt >/dev/null 2>&1") != 0) {
        t_skip("no msgfmt here (Debian: gettext)");
        return;
    }
    FILE *f = popen("msgfmt -c --statistics -o /dev/null po/ja.po 2>&1 && "
                    "msgcmp po/ja.po po/nqueens.pot 2>&1 && echo cmp-ok", "r");
    CHECK(f != NULL);
    size_t len = fread(line, 1, sizeof line - 1, f);
    line[len] = '\0';
    int rc = pclose(f);
    CHECKF(rc == 0 && strstr(line, " translated messages.\n") &&
           !strstr(line, "untranslated") && !strstr(line, "fuzzy") &&
           !strstr(line, "warning") && strstr(line, "cmp-ok"),
           "po/ja.po: %s", line);
}

/* tree --one-based: the columns from 1, as solve --one-based prints
 * them; the JSON counts from 0 whatever it says. */
static void tree_one_based(void *arg)
{
    (void)arg;
    t_proc p, zero, json;
    t_run_ok(&p, ARGS("tree", "4", "--one-based"));
    T_BAIL();
    t_run_ok(&zero, ARGS("tree", "4"));
    T_BAIL();
    CHECKF(strstr(p.out, "\n\u251c\u2500\u2500 1\n") &&
           strstr(p.out, "2 4 1 3  \u2713 solution") &&
           strstr(p.out, "3 1 4 2  \u2713 solution") &&
           strstr(zero.out, "1 3 0 2  \u2713 solution") &&
           !strstr(p.out, " 0") && strstr(p.out, "17 nodes, 2 solutions"),
           "tree 4 --one-based:\n%s", p.out);
    t_run_ok(&json, ARGS("tree", "4", "--one-based", "--json"));
    T_BAIL();
    t_proc_free(&zero);
    t_run_ok(&zero, ARGS("tree", "4", "--json"));
    T_BAIL();
    CHECKF(!strcmp(json.out, zero.out), "tree --json changed by --one-based");
    t_proc_free(&p);
    t_proc_free(&zero);
    t_proc_free(&json);
}

void tests_i18n(void)
{
    static const char *const json_runs[][8] = {
        {"count", "8", "--json", NULL},
        {"solve", "6", "--json", NULL},
        {"trace", "4", "--json", "-l", "40", NULL},
        {"trace", "5", "--json", "-e", "bitmap", "-l", "40", NULL},
        {"tree", "5", "--json", NULL},
        {"engines", "--json", NULL},
    };
    t_case(ja_count, NULL, "i18n/ja/count-8-table-headings");
    t_case(ja_solve, NULL, "i18n/ja/solve-4-boards-same-3-note-japanese");
    t_case(ja_trace, NULL, "i18n/ja/trace-4-lines-and-summary");
    t_case(ja_error, NULL, "i18n/ja/count-99-error-exit-2");
    static const help_case helps[] = {
        {"count", "終わった大きさから 1 行ずつ印字します"},
        {"solve", "辞書順に"},
        {"trace", "1 ステップずつ印字します"},
        {"tree", "再帰の探索木を描きます"},
        {"compare", "すべてのエンジンを動かして比べます"},
        {"engines", "エンジンの一覧"},
        {"units", "作業単位を、1 行にひとつずつ示します"},
        {"estimate", "どれだけかかるかを N ごとに見積もり"},
        {"merge", "ジャーナル"},
        {"verify", "数え直して確かめます"},
        {"find", "解をひとつ印字します"},
        {"complete", "完成問題"},
    };
    t_case(ja_help, NULL, "i18n/ja/help-page");
    t_case(ja_duration, NULL, "i18n/ja/complete-27-duration-in-years");
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        t_case(ja_command_help, (void *)&helps[i],
               "i18n/ja/help-%s-japanese-every-option", helps[i].command);
    t_case(english_unchanged, "C", "i18n/english-unchanged/LANG=C");
    t_case(english_unchanged, "en_US.UTF-8",
           "i18n/english-unchanged/LANG=en_US.UTF-8");
    for (size_t i = 0; i < sizeof json_runs / sizeof json_runs[0]; i++)
        t_case(json_same, (void *)json_runs[i], "i18n/json-same-bytes/%s %s",
               json_runs[i][0], json_runs[i][1]);
    t_case(missing_locale, NULL, "i18n/missing-locale-english-silently");
    t_case(manpage_english, NULL, "i18n/manpage-english-under-ja");
    t_case(catalogue_complete, NULL, "i18n/ja-po-every-message-translated");
    t_case(tree_one_based, NULL, "tree/one-based-as-solve");
}

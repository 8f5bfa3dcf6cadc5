/*
 * test_manpage.c - the help pages and the man page against the parsers'
 * tables.
 *
 * Every option a command's parser takes (its table, as `nqueens
 * --completion COMMAND` prints it) must have its entry on the command's
 * help page and in the command's section of the man page, with its short
 * form, its value's name if it takes one, and a text; every engine of
 * `nqueens engines` and every kernel built in must be in the man page; the
 * generated roff must be escaped, and the whole page lint clean with
 * groff.  The page is built here as the Makefile builds it (mk/manpage.sh
 * from doc/nqueens.1.in and the program under test), so that a build for
 * another machine (tests/cross.sh) is checked the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

enum { MOST_OPTIONS = 32, MOST_COMMANDS = 32 };

/* One option of a parser's table. */
typedef struct {
    char name[40], letter;
    int value;
} table_option;

/* The man page as built (NULL until built, or if it could not be). */
static char *page;

/* Whether a program is on PATH (t_run_* look for it there). */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? path : ".", name);
        if (access(buf, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* The page, built once: mk/manpage.sh run on the program under test. */
static const char *built_page(void)
{
    char script[512], template[512];
    if (page)
        return page;
    snprintf(script, sizeof script, "%s", t_data_path("../../mk/manpage.sh"));
    snprintf(template, sizeof template, "%s",
             t_data_path("../../doc/nqueens.1.in"));
    t_proc p;
    if (t_run_signalled(&p, "sh", ARGS("sh", script, getenv("NQ_CLI"),
                                       template, NQ_VERSION_STRING), 0, 0))
        return NULL;
    if (p.exit_code == 0)
        page = p.out, p.out = NULL;
    else
        fprintf(stderr, "%s", p.err);
    t_proc_free(&p);
    return page;
}

/* The options of command's table (--help, which every command takes and
 * the man page documents once, left out), from `--completion COMMAND`:
 * "--name", "--name=" for a value, then " -x" for a short form. */
static int table_options(const char *command, table_option *o, int most)
{
    t_proc p;
    int k = 0;
    t_run_ok(&p, ARGS("--completion", command));
    if (t_failed())
        return 0;
    for (char *save, *l = strtok_r(p.out, "\n", &save); l && k < most;
         l = strtok_r(NULL, "\n", &save)) {
        size_t len = strcspn(l, "= ");
        if (strncmp(l, "--", 2) || (len == 6 && !strncmp(l, "--help", 6)))
            continue;
        snprintf(o[k].name, sizeof o[k].name, "%.*s", (int)len, l);
        o[k].value = l[len] == '=';
        const char *dash = strstr(l, " -");
        o[k++].letter = dash ? dash[2] : 0;
    }
    t_proc_free(&p);
    return k;
}

/* The entry as help.c lays it out: the head, then the value's name
 * (upper case) if the option takes one, then its text on the same line
 * or, after a head too wide for the page's column, on the next. */
int t_help_has_option(const char *help, const char *name, char letter,
                      int value)
{
    char head[64];
    if (letter)
        snprintf(head, sizeof head, "\n  -%c, %s", letter, name);
    else
        snprintf(head, sizeof head, "\n  %s", name);
    const char *at = strstr(help, head);
    while (at && at[strlen(head)] != ' ' && at[strlen(head)] != '\n')
        at = strstr(at + 1, head); /* --part, not --parts */
    if (!at)
        return 0;
    at += strlen(head);
    size_t arg = *at == ' ' ? strspn(at + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/:") : 0;
    if (value != (arg > 0))
        return 0;
    at += arg ? 1 + arg : 0;
    if (*at != ' ' && *at != '\n')
        return 0;
    /* its text: on the head's line, or on the next one under the page's
     * column when the head is too wide for it */
    at += *at == '\n';
    at += strspn(at, " ");
    return *at && *at != '\n';
}

/* The section of command in the page (from its .SS to the next .SS or
 * .SH), copied into buf; 0 if it has none. */
static int man_section(const char *command, char *buf, size_t size)
{
    char head[64];
    snprintf(head, sizeof head, "\n.SS \"%s", command);
    const char *at = page ? strstr(page, head) : NULL;
    while (at && (at[strlen(head)] != ' ' && at[strlen(head)] != '"'))
        at = strstr(at + 1, head); /* "count", not "counts" */
    if (!at)
        return 0;
    const char *ss = strstr(at + 1, "\n.SS "), *sh = strstr(at + 1, "\n.SH ");
    const char *end = ss && (!sh || ss < sh) ? ss : sh;
    size_t len = end ? (size_t)(end - at) : strlen(at);
    snprintf(buf, size, "%.*s", (int)len, at);
    return 1;
}

/* Whether a man page section has o's entry: .TP, the tag (short form,
 * name with each hyphen escaped, value in italics if it takes one), then
 * a line of text. */
static int man_has_option(const char *section, const table_option *o)
{
    char name[96] = "", tag[160];
    for (const char *c = o->name; *c; c++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s",
                 *c == '-' ? "\\-" : (char[]){*c, '\0'});
    if (o->letter)
        snprintf(tag, sizeof tag, "\n.TP\n\\fB\\-%c\\fR, \\fB%s\\fR%s",
                 o->letter, name, o->value ? " \\fI" : "\n");
    else
        snprintf(tag, sizeof tag, "\n.TP\n\\fB%s\\fR%s", name,
                 o->value ? " \\fI" : "\n");
    const char *at = strstr(section, tag);
    if (!at)
        return 0;
    at = strchr(at + strlen(tag) - 1, '\n');
    return at && at[1] && at[1] != '\n' && at[1] != '.';
}

/* Every option of the command's table has its entry on `COMMAND --help`
 * and in the command's section of the man page: an option added to a
 * table, or a help page that does not print its table, fails here. */
static void every_option_documented(void *arg)
{
    const char *command = arg;
    table_option o[MOST_OPTIONS];
    static char section[65536];
    int k = table_options(command, o, MOST_OPTIONS);
    T_BAIL();
    CHECKF(built_page(), "the man page could not be built");
    CHECKF(man_section(command, section, sizeof section),
           "the man page has no section for %s", command);
    t_proc p;
    t_run_ok(&p, ARGS(command, "--help"));
    T_BAIL();
    char *help = p.out;
    for (int i = 0; i < k; i++) {
        int in_help = t_help_has_option(help, o[i].name, o[i].letter,
                                        o[i].value);
        int in_page = man_has_option(section, &o[i]);
        if (!in_help || !in_page)
            t_proc_free(&p);
        CHECKF(in_help, "%s --help has no entry for %s", command, o[i].name);
        CHECKF(in_page, "the man page's %s has no entry for %s", command,
               o[i].name);
    }
    t_proc_free(&p);
}

/* Every engine `nqueens engines` lists has its entry (.B and its
 * summary) in the man page's ENGINES, and every kernel built in is named
 * in KERNELS. */
static void engines_and_kernels(void *arg)
{
    (void)arg;
    t_proc p;
    char want[128];
    CHECKF(built_page(), "the man page could not be built");
    const char *engines = strstr(page, "\n.SH ENGINES\n");
    const char *kernels = strstr(page, "\n.SH KERNELS\n");
    CHECKF(engines && kernels, "the man page has no ENGINES or KERNELS");
    t_run_ok(&p, ARGS("engines"));
    T_BAIL();
    int listed = 0;
    for (char *save, *l = strtok_r(strchr(p.out, '\n'), "\n", &save); l;
         l = strtok_r(NULL, "\n", &save), listed++) {
        snprintf(want, sizeof want, "\n.B %.*s\n", (int)strcspn(l, " "), l);
        const char *at = strstr(engines, want);
        if (!at || at > kernels || at[strlen(want)] == '.') {
            t_proc_free(&p);
            CHECKF(0, "the man page's ENGINES has no entry %s", want + 1);
        }
    }
    t_proc_free(&p);
    CHECKF(listed == nq_engine_count(), "%d engines listed", listed);
    for (int i = 0; i < nq_kernel_count(); i++) {
        snprintf(want, sizeof want, "\\fB%s\\fR", nq_kernel_at(i));
        const char *at = strstr(kernels, want), *next = strstr(kernels + 1,
                                                             "\n.SH ");
        CHECKF(at && (!next || at < next), "KERNELS does not name %s",
               nq_kernel_at(i));
    }
}

/* The page is whole: every command of the program has its section, each
 * part was put in (no line of the template is left alone), and the
 * version is this build's. */
static void page_whole(void *arg)
{
    (void)arg;
    t_proc p;
    char want[128], section[256];
    CHECKF(built_page(), "the man page could not be built");
    t_run_ok(&p, ARGS("--completion"));
    T_BAIL();
    int commands = 0;
    for (char *save, *c = strtok_r(p.out, "\n", &save); c;
         c = strtok_r(NULL, "\n", &save), commands++)
        if (!man_section(c, section, sizeof section)) {
            snprintf(want, sizeof want, "%s", c);
            t_proc_free(&p);
            CHECKF(0, "the man page has no section for %s", want);
        }
    t_proc_free(&p);
    CHECKF(commands >= 11, "only %d commands", commands);
    CHECK(strstr(page, "\n.TH NQUEENS 1 ") &&
          strstr(page, "\"nqueens " NQ_VERSION_STRING "\""));
    for (const char *m = page; (m = strstr(m, "\n.\\\" @manpage ")); m++) {
        const char *next = strchr(m + 1, '\n');
        CHECKF(next && next[1] && strncmp(next + 1, ".\\\"", 3),
               "a part of the man page is empty: %.40s", m + 1);
    }
}

/* The roff nqueens --manpage prints is escaped: every line that starts
 * with '.' is one of the requests it writes (a help text's line that
 * starts with '.' or '\'' is guarded), and every hyphen is \- (so an
 * option copied from the page is typed right). */
static void generated_roff_escaped(void *arg)
{
    (void)arg;
    static const char *const requests[] = {".SS \"", ".TP\n", ".TP 11\n",
                                           ".PP\n", ".br\n", ".B "};
    t_proc p;
    t_run_ok(&p, ARGS("--manpage"));
    T_BAIL();
    int lines = 0, bad = 0;
    for (const char *l = p.out, *line; *l && !bad; lines++) {
        line = l;
        int known = *l != '.' && *l != '\'';
        for (size_t i = 0; !known && i < sizeof requests / sizeof *requests;
             i++)
            known = !strncmp(l, requests[i], strlen(requests[i]));
        const char *nl = strchr(l, '\n');
        for (const char *c = l; c < nl && known; c++)
            known = *c != '-' || (c > l && c[-1] == '\\');
        bad = !known;
        l = nl ? nl + 1 : l + strlen(l);
        if (bad)
            fprintf(stderr, "unescaped: %.*s\n", (int)(l - line), line);
    }
    t_proc_free(&p);
    CHECKF(!bad && lines > 200, "%d lines, one unescaped", lines);
}

/* groff, warnings all on, has nothing to say of the page: typeset (arg
 * NULL) and as man shows it in a terminal 80 columns wide (arg "80"),
 * where long words once left lines it could not adjust. */
static void lints_clean(void *arg)
{
    const char *cols = arg;
    char width[32];
    char path[] = "/tmp/nq-manpage.XXXXXX";
    if (!on_path("groff")) {
        t_skip("no groff (the Debian package groff-base)");
        return;
    }
    CHECKF(built_page(), "the man page could not be built");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    size_t len = strlen(page);
    int written = write(fd, page, len) == (ssize_t)len;
    close(fd);
    t_proc p;
    snprintf(width, sizeof width, "-rLL=%sn", cols ? cols : "78");
    int ran = written &&
              t_run_signalled(&p, "groff",
                              cols ? ARGS("groff", "-man", "-Tutf8", width,
                                          "-ww", "-z", path)
                                   : ARGS("groff", "-man", "-ww", "-z", path),
                              0, 0) == 0;
    unlink(path);
    CHECK(ran);
    int clean = p.exit_code == 0 && p.err_len == 0 && p.out_len == 0;
    if (!clean)
        fprintf(stderr, "%s", p.err);
    t_proc_free(&p);
    CHECKF(clean, "groff -man -ww -z%s%s warns about the man page",
           cols ? " -Tutf8 " : "", cols ? width : "");
}

/* No command came from `--completion`: nothing would be checked, which
 * must not pass for a check (skipped where the suite has no CLI). */
static void commands_listed(void *arg)
{
    if (!getenv("NQ_CLI")) {
        t_skip("NQ_CLI is not set (make test sets it)");
        return;
    }
    CHECKF(*(const int *)arg > 0, "nqueens --completion listed no command");
}

void tests_manpage(void)
{
    static char names[MOST_COMMANDS][32];
    int k = 0;
    if (getenv("NQ_CLI")) {
        t_proc p;
        if (t_run_cli(&p, ARGS("--completion")) == 0) {
            for (char *save, *c = strtok_r(p.out, "\n", &save);
                 c && k < MOST_COMMANDS; c = strtok_r(NULL, "\n", &save))
                snprintf(names[k++], sizeof names[0], "%s", c);
            t_proc_free(&p);
        }
    }
    static int listed;
    listed = k;
    t_case(commands_listed, &listed, "manpage/commands-listed-by-completion");
    for (int i = 0; i < k; i++)
        t_case(every_option_documented, names[i],
               "manpage/every-option-in-help-and-page/%s", names[i]);
    t_case(engines_and_kernels, NULL, "manpage/every-engine-and-kernel");
    t_case(page_whole, NULL, "manpage/every-command-every-part-version");
    t_case(generated_roff_escaped, NULL, "manpage/generated-roff-escaped");
    t_case(lints_clean, NULL, "manpage/lints-clean-with-groff");
    t_case(lints_clean, "80", "manpage/lints-clean-at-80-columns");
}

/*
 * test_completion.c - the bash completion (completions/nqueens.bash) run
 * in bash as bash runs it, against what the program itself says and does:
 * the commands of nqueens --help, the options each command's help page
 * names and its parser takes, the engines it accepts when run, and the
 * choices its messages list for a bad value.
 *
 * The script asks the program for commands, options and engines
 * (`nqueens --completion`); these tests hold that answer to independent
 * witnesses, so that neither the script nor the help pages can lag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { MOST_WORDS = 16, REPLY = 4096 };

/* The words, split on blanks, sorted and joined by single spaces in out:
 * two sets compare as two strings. */
static void sorted_words(const char *text, char *out, size_t size)
{
    char copy[REPLY], *w[256], *save = NULL;
    int k = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *t = strtok_r(copy, " \t\n", &save); t && k < 256;
         t = strtok_r(NULL, " \t\n", &save))
        w[k++] = t;
    for (int i = 1; i < k; i++) /* insertion sort: a few dozen words */
        for (int j = i; j > 0 && strcmp(w[j - 1], w[j]) > 0; j--) {
            char *x = w[j];
            w[j] = w[j - 1], w[j - 1] = x;
        }
    out[0] = '\0';
    for (int i = 0; i < k; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "",
                 w[i]);
}

/* COMPREPLY for the command line `nqueens WORDS...` (NULL-terminated, the
 * last the word being completed), sorted into out: the script sourced in
 * bash, COMP_WORDS and COMP_CWORD set, its function called. */
static void complete_line(const char *const *words, char *out, size_t size)
{
    static const char script[] =
        ". \"$1\" || exit 1; shift; COMP_WORDS=(\"$@\"); "
        "COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}; "
        "_nqueens || exit 1; printf '%s\\n' \"${COMPREPLY[@]}\"";
    const char *args[MOST_WORDS + 6] = {"bash", "-c", script, "bash",
        t_data_path("../../completions/nqueens.bash"), getenv("NQ_CLI")};
    int k = 6;
    for (; *words && k < MOST_WORDS + 5; words++)
        args[k++] = *words;
    args[k] = NULL;
    t_proc p;
    char path[512];
    snprintf(path, sizeof path, "%s", args[4]); /* t_data_path's buffer */
    args[4] = path;
    CHECK(t_run_signalled(&p, "bash", args, 0, 0) == 0);
    int ok = p.exit_code == 0;
    sorted_words(p.out, out, size);
    t_proc_free(&p);
    CHECKF(ok, "the completion failed for %s", words[-1]);
}

/* The commands of nqueens --help, in names; their number. */
static int commands(char names[][32], int most)
{
    t_proc p;
    t_run_ok(&p, ARGS("--help"));
    if (t_failed())
        return 0;
    int k = t_listed_commands(p.out, names, most);
    t_proc_free(&p);
    return k;
}

/* `nqueens <TAB>` offers the commands of nqueens --help and help;
 * `nqueens help <TAB>` the commands. */
static void completes_commands(void *arg)
{
    (void)arg;
    char names[64][32], listed[REPLY] = "", want[REPLY], got[REPLY];
    int k = commands(names, 64);
    T_BAIL();
    for (int i = 0; i < k; i++)
        snprintf(listed + strlen(listed), sizeof listed - strlen(listed),
                 " %s", names[i]);
    sorted_words(listed, want, sizeof want);
    complete_line(ARGS("help", ""), got, sizeof got);
    T_BAIL();
    CHECKF(!strcmp(got, want), "help <TAB>: '%s', not '%s'", got, want);
    strcat(listed, " help");
    sorted_words(listed, want, sizeof want);
    complete_line(ARGS(""), got, sizeof got);
    T_BAIL();
    CHECKF(!strcmp(got, want), "<TAB>: '%s', not '%s'", got, want);
}

/* Whether command's parser takes the option (alone, with no board: it
 * stops at a missing value or a missing N, never runs long). */
static int takes_option(const char *command, const char *option)
{
    t_proc p;
    if (t_run_cli(&p, ARGS(command, option)) != 0)
        return 0;
    int unknown = strstr(p.err, "unknown option") != NULL;
    t_proc_free(&p);
    return !unknown;
}

/* The long options the help page of command names ("--word" anywhere in
 * it) that its parser takes, and --help (every command's, which the main
 * page documents), sorted into out. */
static void documented_options(const char *command, char *out, size_t size)
{
    t_proc p;
    char found[REPLY] = " --help ";
    t_run_ok(&p, ARGS(command, "--help"));
    T_BAIL();
    for (const char *s = p.out; (s = strstr(s, "--"));) {
        size_t len = 2 + strspn(s + 2, "abcdefghijklmnopqrstuvwxyz-");
        char option[64];
        snprintf(option, sizeof option, "%.*s", (int)len, s);
        s += len;
        char padded[70];
        snprintf(padded, sizeof padded, " %s ", option);
        if (len > 2 && !strstr(found, padded) && takes_option(command, option))
            snprintf(found + strlen(found), sizeof found - strlen(found),
                     " %s ", option);
    }
    t_proc_free(&p);
    sorted_words(found, out, size);
}

/* `nqueens COMMAND --<TAB>` offers exactly the options its help page
 * names and its parser takes: an option added to a command's table but
 * not to its help page, or the reverse, fails here. */
static void completes_options(void *arg)
{
    const char *command = arg;
    char want[REPLY], got[REPLY];
    documented_options(command, want, sizeof want);
    T_BAIL();
    complete_line(ARGS(command, "--"), got, sizeof got);
    T_BAIL();
    CHECKF(!strcmp(got, want), "%s --<TAB>: '%s'; its help and parser: '%s'",
           command, got, want);
}

/* The engines command takes, found by running it on a 4x4 board with
 * each engine of the table: refused ones are named in an exit-2 message. */
static void accepted_engines(const char *command, char *out, size_t size)
{
    char found[REPLY] = "";
    for (int i = 0; i < nq_engine_count(); i++) {
        const char *e = nq_engine_name(nq_engine_at(i));
        char named[64];
        t_proc p;
        CHECK(t_run_cli(&p, ARGS(command, "4", "--engine", e)) == 0);
        snprintf(named, sizeof named, "engine '%s'", e);
        int refused = p.exit_code == 2 && strstr(p.err, named);
        t_proc_free(&p);
        if (!refused)
            snprintf(found + strlen(found), sizeof found - strlen(found),
                     " %s", e);
    }
    sorted_words(found, out, size);
}

/* `nqueens COMMAND --engine <TAB>` and `-e <TAB>` offer exactly the
 * engines the command accepts (trace, tree and units take only some). */
static void completes_engines(void *arg)
{
    const char *command = arg;
    char want[REPLY], got[REPLY], options[REPLY];
    complete_line(ARGS(command, "--"), options, sizeof options);
    T_BAIL();
    if (!strstr(options, "--engine"))
        return; /* no engine to pick */
    accepted_engines(command, want, sizeof want);
    T_BAIL();
    const char *const *lines[] = {ARGS(command, "--engine", ""),
                                  ARGS(command, "-e", "")};
    for (int k = 0; k < 2; k++) {
        complete_line(lines[k], got, sizeof got);
        T_BAIL();
        CHECKF(!strcmp(got, want), "%s %s <TAB>: '%s'; it accepts '%s'",
               command, lines[k][1], got, want);
    }
}

/* The choices a message lists for a bad value ("... 'nope' (formats: a,
 * b, c)"), sorted into out; empty when it lists none. */
static void listed_choices(const char *message, char *out, size_t size)
{
    char list[REPLY] = "";
    const char *at = strstr(message, "'nope' (");
    const char *colon = at ? strchr(at, ':') : NULL;
    const char *end = colon ? strchr(colon, ')') : NULL;
    if (end)
        snprintf(list, sizeof list, "%.*s", (int)(end - colon - 1), colon + 1);
    for (char *c = list; *c; c++)
        *c = *c == ',' ? ' ' : *c;
    sorted_words(list, out, size);
}

/* The value options of command (other than --engine, tested above, and
 * --checkpoint, a file), from its completion: "--name " for each. */
static void value_options(const char *command, char *out, size_t size)
{
    t_proc p;
    t_run_ok(&p, ARGS("--completion", command));
    T_BAIL();
    out[0] = '\0';
    char *save = NULL;
    for (char *l = strtok_r(p.out, "\n", &save); l; l = strtok_r(NULL, "\n",
                                                                 &save)) {
        size_t len = strcspn(l, "= ");
        if (l[len] == '=' && strncmp(l, "--engine=", 9) &&
            strncmp(l, "--checkpoint=", 13))
            snprintf(out + strlen(out), size - strlen(out), "%.*s ", (int)len,
                     l);
    }
    t_proc_free(&p);
}

/* For each value option of a command, `COMMAND OPTION <TAB>` offers what
 * `COMMAND 4 OPTION nope` says the choices are (formats, styles, methods,
 * kernels), and nothing where it lists none (numbers, lists). */
static void completes_values(void *arg)
{
    const char *command = arg;
    char options[REPLY], want[REPLY], got[REPLY], *save = NULL;
    value_options(command, options, sizeof options);
    T_BAIL();
    for (char *o = strtok_r(options, " ", &save); o;
         o = strtok_r(NULL, " ", &save)) {
        t_proc p;
        CHECK(t_run_cli(&p, ARGS(command, "4", o, "nope")) == 0);
        listed_choices(p.err, want, sizeof want);
        t_proc_free(&p);
        complete_line(ARGS(command, o, ""), got, sizeof got);
        T_BAIL();
        CHECKF(!strcmp(got, want), "%s %s <TAB>: '%s'; its message lists "
               "'%s'", command, o, got, want);
    }
}

void tests_completion(void)
{
    static char names[64][32];
    static const struct {
        void (*fn)(void *);
        const char *what;
    } per_command[] = {{completes_options, "options"},
                       {completes_engines, "engines"},
                       {completes_values, "values"}};
    int k = 0;
    t_case(completes_commands, NULL, "completion/commands-and-help");
    if (getenv("NQ_CLI")) {
        t_proc p;
        if (t_run_cli(&p, ARGS("--help")) == 0) {
            k = t_listed_commands(p.out, names, 64);
            t_proc_free(&p);
        }
    }
    for (size_t t = 0; t < sizeof per_command / sizeof per_command[0]; t++)
        for (int i = 0; i < k; i++)
            t_case(per_command[t].fn, names[i], "completion/%s/%s",
                   per_command[t].what, names[i]);
}

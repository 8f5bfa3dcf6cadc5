/*
 * test_json.c - every command's --json output read back as JSON Lines by
 * a strict validator written here: each line one object that parses on
 * its own, a listing ended by its summary object, whose count is the
 * number of solution lines, even when nothing was found or the command
 * failed part way; and trace's steps drawn from the same events as its
 * text.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* ---- a strict JSON validator (RFC 8259, no extensions) ---- */

/* Nesting past this is refused rather than recursed into. */
#define JSON_MAX_DEPTH 64

static int json_value(const char **p, int depth);

/* JSON's four whitespace characters, and no others. */
static void skip_ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* A hex digit, of a "\\uXXXX" escape. */
static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

/* A string: no raw control characters, only the escapes JSON has.  Its
 * raw text (escapes left as written) is copied to out when out is given
 * and it fits, so a key can be compared. */
static int json_string(const char **p, char *out, size_t size)
{
    const char *s = *p, *start;
    if (*s++ != '"')
        return -1;
    start = s;
    for (; *s != '"'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20)
            return -1; /* the end of the text included */
        if (c != '\\')
            continue;
        s++;
        if (*s == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!is_hex(s[i]))
                    return -1;
            s += 4;
        } else if (!strchr("\"\\/bfnrt", *s) || !*s) {
            return -1;
        }
    }
    if (out) {
        size_t len = (size_t)(s - start);
        if (len >= size)
            return -1;
        memcpy(out, start, len);
        out[len] = '\0';
    }
    *p = s + 1;
    return 0;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char **p)
{
    const char *s = *p;
    s += *s == '-';
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return -1;
    if (*s == '.') {
        if (*++s < '0' || *s > '9')
            return -1;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        s += *s == '+' || *s == '-';
        if (*s < '0' || *s > '9')
            return -1;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    *p = s;
    return 0;
}

/* [v, v, ...] or {"k": v, ...}: no trailing comma, keys strings. */
static int json_container(const char **p, int depth, char close)
{
    (*p)++;
    skip_ws(p);
    if (**p == close) {
        (*p)++;
        return 0;
    }
    for (;;) {
        skip_ws(p);
        if (close == '}') {
            if (json_string(p, NULL, 0) != 0)
                return -1;
            skip_ws(p);
            if (*(*p)++ != ':')
                return -1;
        }
        if (json_value(p, depth + 1) != 0)
            return -1;
        skip_ws(p);
        if (**p == close) {
            (*p)++;
            return 0;
        }
        if (*(*p)++ != ',')
            return -1;
    }
}

/* Any value, nesting bounded so a hostile input cannot exhaust the stack. */
static int json_value(const char **p, int depth)
{
    static const char *const words[] = {"true", "false", "null"};
    if (depth > JSON_MAX_DEPTH)
        return -1;
    skip_ws(p);
    switch (**p) {
    case '{':
        return json_container(p, depth, '}');
    case '[':
        return json_container(p, depth, ']');
    case '"':
        return json_string(p, NULL, 0);
    }
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(*p, words[i], strlen(words[i]))) {
            *p += strlen(words[i]);
            return 0;
        }
    return json_number(p);
}

/* 0 if text is exactly one JSON object (whitespace around it allowed,
 * nothing else after it). */
static int json_object_check(const char *text)
{
    const char *p = text;
    skip_ws(&p);
    if (*p != '{' || json_value(&p, 0) != 0)
        return -1;
    skip_ws(&p);
    return *p ? -1 : 0;
}

/* Where the value of the top-level member `key` starts in a valid
 * object, or NULL. */
static const char *json_member(const char *object, const char *key)
{
    const char *p = object;
    char name[64];
    skip_ws(&p);
    if (*p++ != '{')
        return NULL;
    for (;;) {
        skip_ws(&p);
        if (json_string(&p, name, sizeof name) != 0)
            return NULL;
        skip_ws(&p);
        p++; /* ':' */
        skip_ws(&p);
        if (!strcmp(name, key))
            return p;
        if (json_value(&p, 1) != 0)
            return NULL;
        skip_ws(&p);
        if (*p++ != ',')
            return NULL;
    }
}

/* The member as a number (-1 if absent or not one). */
static long long member_number(const char *object, const char *key)
{
    const char *v = json_member(object, key);
    return v && *v >= '0' && *v <= '9' ? atoll(v) : -1;
}

/* 1 if the member is the string `want` (no escapes in it). */
static int member_is(const char *object, const char *key, const char *want)
{
    const char *v = json_member(object, key);
    size_t len = strlen(want);
    return v && v[0] == '"' && !strncmp(v + 1, want, len) && v[len + 1] == '"';
}

/* The validator itself refuses what it should: the document left open
 * by the old `complete --first --json` above all. */
static void validator(void *arg)
{
    (void)arg;
    static const char *const good[] = {
        "{}", " {\"a\":[]} ", "{\"a\":-0.5e+3,\"b\":\"\\u00e9\\n\\\"\\/\"}",
        "{\"c\":[true,false,null,{\"d\":{}},[[]],0,1E9,-12.25]}",
        "{\"n\":6,\"solutions\":[[1,3,5,0,2,4]],\"count\":1}",
    };
    static const char *const bad[] = {
        "", "{", "{\"n\":6,\"solutions\":[", "[1,2]", "\"s\"", "3",
        "{\"a\":1}x", "{\"a\":1}{\"b\":2}", "{\"a\":[1,2,]}", "{\"a\":1,}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}",
        "{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"tab\there\"}",
        "{\"a\":tru}", "{'a':1}", "{a:1}", "{\"a\" 1}", "{\"a\":nul}",
        "{\"a\":\"open}", "{\"a\":[1 2]}", "{\"a\":NaN}", "{\"a\":-}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECKF(json_object_check(good[i]) == 0, "refused %s", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(json_object_check(bad[i]) != 0, "accepted '%s'", bad[i]);
    CHECK(member_number("{\"a\":{\"solutions\":5},\"solutions\":7}",
                        "solutions") == 7);
    CHECK(member_is("{\"x\":[\"type\"],\"type\":\"summary\"}", "type",
                    "summary"));
}

/* ---- the commands ---- */

/* What a run's stdout must be: plain JSON lines; lines ending in a
 * summary; a listing (solution lines, then the summary counting them);
 * a trace (step lines, then the summary counting them); or nothing (a
 * usage error). */
typedef enum { PLAIN, SUMMARY, LISTING, STEPS, NOTHING } json_kind;

typedef struct {
    const char *args[12];
    int exit_code;
    json_kind kind;
    long long count; /* LISTING and STEPS: the count wanted (-1: any) */
} json_run;

/* A tree refused for its size walks 200 million nodes first: seconds, the
 * full tier's (make test). */
static int walks_to_the_limit(const json_run *r)
{
    return r->exit_code == 1 && !strcmp(r->args[0], "tree");
}

/* Every line one object; returns the number of lines, the last in *last
 * (NUL-terminated in place), or -1 after recording the failure. */
static int check_lines(char *out, size_t len, char **last)
{
    int lines = 0;
    *last = NULL;
    if (len && out[len - 1] != '\n') {
        t_fail(__FILE__, __LINE__, "stdout does not end in a newline");
        return -1;
    }
    for (char *s = out, *nl; *s; s = nl + 1, lines++) {
        nl = strchr(s, '\n');
        *nl = '\0';
        if (json_object_check(s) != 0) {
            t_fail(__FILE__, __LINE__, "line %d is not one JSON object: "
                   "%.200s", lines + 1, s);
            return -1;
        }
        *last = s;
    }
    return lines;
}

/* The lines before the summary are all of `type`, as many as the
 * summary's `key` says (and as many as wanted, unless -1). */
static void check_counted(const char *out, int lines, const char *last,
                          const char *type, const char *key, long long want)
{
    CHECKF(last && member_is(last, "type", "summary"),
           "the last line is not the summary");
    int typed = 0;
    for (const char *s = out; s != last; s += strlen(s) + 1)
        typed += member_is(s, "type", type);
    long long said = member_number(last, key);
    CHECKF(typed == lines - 1, "%d of %d lines before the summary are %s",
           typed, lines - 1, type);
    CHECKF(said == typed, "the summary says %s %lld, there are %d lines",
           key, said, typed);
    CHECKF(want < 0 || said == want, "%lld %s, not %lld", said, key, want);
}

/* One command run: its exit status, then its stdout read as JSON Lines
 * of the kind the case says. */
static void json_command(void *arg)
{
    const json_run *r = arg;
    t_proc p;
    char *last;
    CHECK(t_run_cli(&p, r->args) == 0);
    int lines = check_lines(p.out, p.out_len, &last);
    if (lines >= 0 && r->kind == LISTING)
        check_counted(p.out, lines, last, "solution", "solutions", r->count);
    else if (lines >= 0 && r->kind == STEPS)
        check_counted(p.out, lines, last, "step", "steps", r->count);
    else if (lines >= 0 && r->kind == SUMMARY && !(last &&
             member_is(last, "type", "summary")))
        t_fail(__FILE__, __LINE__, "the last line is not the summary");
    /* a failure after the listing began is carried in its summary */
    int error_said = !last || (json_member(last, "error") != NULL) ==
                     (r->exit_code != 0);
    int code = p.exit_code;
    size_t out_len = p.out_len;
    t_proc_free(&p);
    T_BAIL();
    CHECKF(code == r->exit_code, "exit %d, expected %d", code, r->exit_code);
    CHECKF(r->kind != NOTHING || out_len == 0, "%zu bytes on stdout after "
           "a usage error", out_len);
    CHECKF(r->kind == NOTHING || lines > 0, "no line at all");
    CHECKF(r->kind == PLAIN || error_said, "the summary's \"error\" does not "
           "match the exit status");
}

/* merge --json, from a journal a checkpointed count leaves. */
static void json_merge(void *arg)
{
    (void)arg;
    char journal[64], *last;
    snprintf(journal, sizeof journal, "/tmp/nq-json-merge-%d", (int)getpid());
    unlink(journal);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", journal,
                             "--json", "--quiet")) == 0);
    int lines = p.exit_code == 0 ? check_lines(p.out, p.out_len, &last) : -2;
    t_proc_free(&p);
    T_BAIL();
    CHECKF(lines == 1, "count --checkpoint --json: %d lines", lines);
    CHECK(t_run_cli(&p, ARGS("merge", journal, "--json")) == 0);
    lines = p.exit_code == 0 ? check_lines(p.out, p.out_len, &last) : -2;
    long long total = lines == 1 ? member_number(last, "total") : -1;
    t_proc_free(&p);
    T_BAIL();
    CHECKF(lines == 1 && total == 724, "merge --json: %d lines, total %lld",
           lines, total);
    /* verify's summary, then (merge --verify) the count's line */
    CHECK(t_run_cli(&p, ARGS("verify", "--all", journal, "--json")) == 0);
    lines = p.exit_code == 0 ? check_lines(p.out, p.out_len, &last) : -2;
    int summary = lines == 1 && member_is(last, "type", "summary") &&
                  member_number(last, "disagree") == 0;
    t_proc_free(&p);
    CHECK(t_run_cli(&p, ARGS("merge", "--verify", journal, "-j")) == 0);
    lines = p.exit_code == 0 ? check_lines(p.out, p.out_len, &last) : -2;
    total = lines == 2 ? member_number(last, "total") : -1;
    t_proc_free(&p);
    unlink(journal);
    CHECKF(summary, "verify --json: not one summary line");
    CHECKF(total == 724, "merge --verify --json: %d lines", lines);
}

/* count --json names a kernel only where one ran: the fast engine runs
 * one; carry and bitmap run none (they once said "kernel":"avx512"). */
static void count_kernel_where_one_ran(void *arg)
{
    (void)arg;
    static const struct {
        const char *engine;
        int kernel;
    } runs[] = {{"fast", 1}, {"carry", 0}, {"bitmap", 0}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        t_proc p;
        char *last;
        CHECK(t_run_cli(&p, ARGS("count", "9", "--engine", runs[i].engine,
                                 "--json")) == 0);
        int lines = p.exit_code == 0 ? check_lines(p.out, p.out_len, &last)
                                     : -2;
        const char *k = lines == 1 ? json_member(last, "kernel") : NULL;
        int right = lines == 1 && member_number(last, "total") == 352 &&
                    (runs[i].kernel ? k && *k == '"' : !k);
        t_proc_free(&p);
        T_BAIL();
        CHECKF(right, "count 9 --engine %s --json: %d lines, kernel %s",
               runs[i].engine, lines, k ? k : "absent");
    }
}

/* Copy a journal without its run lines, as journals of the formats
 * before them are; 0 on success. */
static int drop_run_lines(const char *from, const char *to)
{
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    char line[1024];
    int ok = in && out;
    while (ok && fgets(line, sizeof line, in))
        if (strncmp(line, "run ", 4))
            ok = fputs(line, out) >= 0;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

/* merge --json of one journal: its one line, parsed; NULL on failure
 * (recorded).  The caller frees p. */
static const char *merged_line(t_proc *p, const char *journal)
{
    char *last = NULL;
    if (t_run_cli(p, ARGS("merge", journal, "--json")) != 0) {
        t_fail(__FILE__, __LINE__, "could not run merge");
        return NULL;
    }
    int lines = p->exit_code == 0 ? check_lines(p->out, p->out_len, &last)
                                  : -2;
    if (lines != 1 && !t_failed())
        t_fail(__FILE__, __LINE__, "merge --json: exit %d, %d lines",
               p->exit_code, lines);
    return lines == 1 ? last : NULL;
}

/* merge --json: no kernel (merge runs none); threads the most the
 * journal's runs recorded (3 here), and null, not 0, for a journal that
 * recorded none. */
static void merge_threads_no_kernel(void *arg)
{
    (void)arg;
    char journal[64], bare[80];
    snprintf(journal, sizeof journal, "/tmp/nq-json-threads-%d",
             (int)getpid());
    snprintf(bare, sizeof bare, "%s-no-runs", journal);
    unlink(journal);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "10", "--checkpoint", journal, "-t",
                             "3", "--quiet")) == 0);
    int counted = p.exit_code == 0 && drop_run_lines(journal, bare) == 0;
    t_proc_free(&p);
    CHECK(counted);
    const char *line = merged_line(&p, journal);
    int recorded = line && member_number(line, "threads") == 3 &&
                   member_number(line, "total") == 724 &&
                   !json_member(line, "kernel");
    t_proc_free(&p);
    line = merged_line(&p, bare);
    const char *threads = line ? json_member(line, "threads") : NULL;
    int unknown = threads && !strncmp(threads, "null", 4) &&
                  member_number(line, "total") == 724 &&
                  !json_member(line, "kernel");
    t_proc_free(&p);
    unlink(journal);
    unlink(bare);
    T_BAIL();
    CHECKF(recorded, "merge --json: not threads 3 without a kernel");
    CHECKF(unknown, "merge --json of a journal without run lines: threads "
           "not null, or a kernel");
}

/* A JSON string's text with its escapes undone (\uXXXX only below 0x80,
 * enough for what the CLI escapes); 0 on success. */
static int json_unescape(const char *v, char *out, size_t size)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    size_t k = 0;
    if (*v++ != '"')
        return -1;
    for (; *v != '"' && k + 1 < size; v++) {
        unsigned code;
        const char *e;
        if (*v != '\\')
            out[k++] = *v;
        else if (v[1] == 'u' && sscanf(v + 2, "%4x", &code) == 1 &&
                 code < 0x80)
            out[k++] = (char)code, v += 5;
        else if (v[1] && (e = strchr(from, v[1])))
            out[k++] = to[e - from], v++;
        else
            return -1;
    }
    out[k] = '\0';
    return *v == '"' ? 0 : -1;
}

/* A checkpoint path is the user's and may hold anything: with a quote,
 * a backslash and a control character in it, count --part --json still
 * writes a line that parses, its "journal" reading back as the path
 * (it was once printed raw between quotes). */
static void checkpoint_path_escaped(void *arg)
{
    (void)arg;
    char journal[96], got[96], *last = NULL;
    snprintf(journal, sizeof journal, "/tmp/nq-json-\"q\\\001-%d",
             (int)getpid());
    unlink(journal);
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("count", "10", "--part", "1/2", "--checkpoint",
                             journal, "--json", "--quiet")) == 0);
    int code = p.exit_code;
    int lines = code == 0 ? check_lines(p.out, p.out_len, &last) : -2;
    const char *v = lines == 1 ? json_member(last, "journal") : NULL;
    int same = v && json_unescape(v, got, sizeof got) == 0 &&
               !strcmp(got, journal);
    t_proc_free(&p);
    unlink(journal);
    T_BAIL();
    CHECKF(lines == 1, "count --part --json: exit %d, %d lines", code, lines);
    CHECKF(same, "the journal member does not read back as the path");
}

/* The C sources under folder dir and its folders: how many were read
 * (-1 where dir cannot be), the first that quotes a string by hand in
 * bad. */
static int hand_quoted(const char *dir, char *bad, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[512];
    int sources = 0;
    if (!d)
        return -1;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            int more = hand_quoted(path, bad, size);
            sources += more > 0 ? more : 0;
            continue;
        }
        if (len < 3 || strcmp(de->d_name + len - 2, ".c"))
            continue;
        char *text = t_read_file(path, NULL);
        sources += text != NULL;
        if (text && strstr(text, "\\\"%s\\\"") && !bad[0])
            snprintf(bad, size, "%s", path);
        free(text);
    }
    closedir(d);
    return sources;
}

/* Every JSON string the CLI writes goes through its one escaping writer
 * (cli_json_quoted): no source of programs/ or its rooms puts a string
 * between quotes itself with "\"%s\"", as paths, engines and plans once
 * were. */
static void cli_sources_one_writer(void *arg)
{
    (void)arg;
    char bad[512] = "";
    int sources = hand_quoted("programs", bad, sizeof bad);
    CHECKF(sources >= 0, "cannot read programs/ (the runner runs in the "
           "repository)");
    CHECKF(sources >= 30, "read %d sources of programs/", sources);
    CHECKF(!bad[0], "%s quotes a JSON string with \\\"%%s\\\"", bad);
}

/* trace --json: each step's text is the text output's line, and its
 * board is the one the events build (a place adds its queen, a reject or
 * remove leaves the rows above, a solution or failed test all of them). */
static void trace_json_matches_text(void *arg)
{
    const char *engine = arg;
    t_proc text, json;
    t_run_ok(&text, ARGS("trace", "5", "--engine", engine, "-l", "3000"));
    T_BAIL();
    t_run_ok(&json, ARGS("trace", "5", "--engine", engine, "-l", "3000",
                         "--json"));
    if (t_failed()) {
        t_proc_free(&text);
        return;
    }
    char *last, *t = strchr(text.out, '\n') + 1, *s = json.out;
    int lines = check_lines(json.out, json.out_len, &last), bad = 0;
    for (int i = 0; i < lines - 1 && !bad; i++, s += strlen(s) + 1) {
        char want[256], *nl = strchr(t, '\n');
        snprintf(want, sizeof want, "\"%.*s\"}", (int)(nl - t), t);
        const char *v = json_member(s, "text");
        const char *q = json_member(s, "queens");
        long long row = member_number(s, "row"), col = member_number(s,
                                                                     "col");
        int filled = q && q[1] != ']' ? 1 : 0;
        for (const char *c = q; c && *c != ']'; c++)
            filled += *c == ',';
        int want_filled = member_is(s, "event", "place") ? (int)row + 1
                          : member_is(s, "event", "reject") ||
                            member_is(s, "event", "remove") ? (int)row : 5;
        const char *end = q ? strchr(q, ']') : NULL; /* the last queen */
        int placed = end && end - q >= 2 && end[-1] == '0' + col &&
                     (end[-2] == '[' || end[-2] == ',');
        bad = !v || strcmp(v, want) ? 1 : filled != want_filled ? 2
              : member_is(s, "event", "place") && !placed ? 3 : 0;
        if (bad)
            t_fail(__FILE__, __LINE__, "step %d (%s): %.200s", i + 1,
                   bad == 1 ? "text" : "board", s);
        t = nl + 1;
    }
    const char *said = lines > 0 ? json_member(last, "text") : NULL;
    int summary = !bad && said && strncmp(said + 1, t, strlen(t) - 1) == 0;
    t_proc_free(&text);
    t_proc_free(&json);
    T_BAIL();
    CHECKF(summary, "the summary's text is not the text's summary line");
}

/* A listing streams: the first line of solve 17 (95,815,104 solutions,
 * minutes of output) is a whole object that parses, read at once while
 * the search goes on; the reader then closes the pipe. */
static void listing_streams(void *arg)
{
    (void)arg;
    char command[512], line[512];
    snprintf(command, sizeof command, "exec \"%s\" solve 17 --json",
             getenv("NQ_CLI"));
    FILE *pipe = popen(command, "r");
    CHECK(pipe);
    int got = fgets(line, sizeof line, pipe) != NULL;
    pclose(pipe); /* the CLI ends on its next write */
    CHECK(got);
    line[strcspn(line, "\n")] = '\0';
    CHECKF(json_object_check(line) == 0 &&
           member_is(line, "type", "solution"), "first line: %s", line);
}

/* The most memory a run of the CLI held (KB): a child runs it and reads
 * its own children's peak, so earlier tests' children do not count. */
static long peak_kb(const char *const *args)
{
    int fds[2];
    long kb = -1;
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout); /* or the child would print the runner's buffer again */
    pid_t pid = fork();
    if (pid == 0) {
        t_proc p;
        struct rusage ru;
        long got = t_run_cli(&p, args) == 0 && p.exit_code == 0 &&
                   getrusage(RUSAGE_CHILDREN, &ru) == 0 ? ru.ru_maxrss : -1;
        if (write(fds[1], &got, sizeof got) != (ssize_t)sizeof got)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0 || read(fds[0], &kb, sizeof kb) != (ssize_t)sizeof kb)
        kb = -1;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return kb;
}

/* solve 14 --json (365,596 lines, 20 MB) holds no more memory than
 * solve 6 --json: nothing is collected before it is written. */
static void listing_constant_memory(void *arg)
{
    (void)arg;
    long small = peak_kb(ARGS("solve", "6", "--json"));
    long big = peak_kb(ARGS("solve", "14", "--json"));
    CHECKF(small > 0 && big > 0 && big < small + 4096,
           "solve 6: %ld KB, solve 14: %ld KB", small, big);
}

void tests_json(void)
{
#define L(...) {__VA_ARGS__}
    static const json_run runs[] = {
        {L("count", "4-9", "--json"), 0, PLAIN, -1},
        {L("count", "8", "--engine", "brute", "-j"), 0, PLAIN, -1},
        {L("solve", "8", "--json"), 0, LISTING, 92},
        {L("solve", "8", "--unique", "-j", "-e", "backtrack"), 0, LISTING, 12},
        {L("solve", "10", "--format", "json", "--limit", "5"), 0, LISTING, 5},
        {L("solve", "6", "--json", "--one-based"), 0, LISTING, 4},
        {L("solve", "1", "--json"), 0, LISTING, 1},
        {L("solve", "2", "--json"), 0, LISTING, 0},
        {L("solve", "3", "-j"), 0, LISTING, 0},
        {L("find", "10", "--json"), 0, LISTING, 1},
        {L("find", "1000", "--method", "search", "--verify", "-j"), 0,
         LISTING, 1},
        {L("find", "3", "--json"), 1, LISTING, 0},
        {L("complete", "8", "--given", "0:0", "--json"), 0, PLAIN, -1},
        {L("complete", "6", "--json"), 0, PLAIN, -1},
        {L("complete", "8", "--given", "0:0", "--all", "--json"), 0, LISTING,
         4},
        {L("complete", "10", "--given", "0:1,1:3", "--all", "--limit", "3",
           "-j"), 0, LISTING, 3},
        {L("complete", "6", "--given", "0:1", "--first", "--json"), 0,
         LISTING, 1},
        {L("complete", "6", "--given", "0:0", "--all", "--json"), 0, LISTING,
         0},
        {L("complete", "6", "--given", "0:0", "--first", "--json"), 1,
         LISTING, 0},
        {L("compare", "7", "--budget", "1", "--json"), 0, PLAIN, -1},
        {L("units", "8", "--json"), 0, PLAIN, -1},
        {L("units", "9", "-e", "fast", "-j"), 0, PLAIN, -1},
        {L("engines", "--json"), 0, PLAIN, -1},
        {L("tree", "4", "--json"), 0, SUMMARY, -1},
        {L("tree", "6", "--depth", "2", "--format", "json"), 0, SUMMARY, -1},
        /* refused once walking shows the tree too big: nothing written */
        {L("tree", "12", "--engine", "brute", "--depth", "3", "-j"), 1,
         NOTHING, -1},
        {L("trace", "4", "--json"), 0, STEPS, 78},
        {L("trace", "4", "--engine", "brute", "--json"), 0, STEPS, 936},
        {L("trace", "4", "--engine", "flags", "--style", "seed", "-j"), 0,
         STEPS, 78},
        {L("trace", "6", "--engine", "bitmap", "--iterative", "-j",
           "--one-based"), 0, STEPS, -1},
        {L("trace", "5", "--engine", "symmetry", "-j", "-l", "7"), 0, STEPS,
         7},
        /* refused before anything is written: stdout stays empty */
        {L("solve", "5", "--format", "grid", "--json"), 2, NOTHING, -1},
        {L("solve", "8", "--engine", "mirror", "--json"), 2, NOTHING, -1},
        {L("find", "0", "--json"), 2, NOTHING, -1},
        {L("complete", "8", "--given", "0:0,1:1", "--all", "-j"), 2, NOTHING,
         -1},
        {L("complete", "6", "--json", "--format", "grid"), 2, NOTHING, -1},
        {L("trace", "4", "--json", "--style", "pretty"), 2, NOTHING, -1},
        {L("trace", "4", "-j", "--engine", "carry"), 2, NOTHING, -1},
        {L("count", "99", "--json"), 2, NOTHING, -1},
        {L("tree", "40", "--json"), 2, NOTHING, -1},
        {L("units", "8", "--engine", "bitmap", "--json"), 2, NOTHING, -1},
    };
#undef L
    t_case(validator, NULL, "json/validator");
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char name[160] = "";
        for (int k = 0; runs[i].args[k]; k++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s",
                     k ? " " : "", runs[i].args[k]);
        (walks_to_the_limit(&runs[i]) ? t_full_case : t_case)(json_command,
            (void *)&runs[i], "json/lines/%s", name);
    }
    t_case(json_merge, NULL, "json/lines/merge");
    t_case(count_kernel_where_one_ran, NULL, "json/count-kernel-only-where-one-ran");
    t_case(merge_threads_no_kernel, NULL, "json/merge-threads-recorded-no-kernel");
    t_case(checkpoint_path_escaped, NULL, "json/checkpoint-path-escaped");
    t_case(cli_sources_one_writer, NULL, "json/cli-strings-through-one-writer");
    t_case(trace_json_matches_text, "backtrack",
           "json/trace-as-text/backtrack");
    t_case(trace_json_matches_text, "flags", "json/trace-as-text/flags");
    t_case(trace_json_matches_text, "brute", "json/trace-as-text/brute");
    t_case(trace_json_matches_text, "bitmap", "json/trace-as-text/bitmap");
    t_case(listing_streams, NULL, "json/solve-17-streams");
    t_case(listing_constant_memory, NULL, "json/solve-14-constant-memory");
}

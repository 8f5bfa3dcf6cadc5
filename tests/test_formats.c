/*
 * test_formats.c - solve's JSON and SVG output, read back and checked by
 * code written here, and the XML checker those checks rely on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* solve --format json: JSON Lines, one object per board numbered from 1,
 * all 92 boards of N=8 read back valid, distinct and in order, then the
 * summary counting them. */
static void solve_json(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("solve", "8", "--format", "json"));
    T_BAIL();
    t_board_reader r = {.n = 8};
    int cols[8], numbered = 1;
    static const char head[] = "{\"type\":\"solution\",\"n\":8,\"number\":";
    const char *s = p.out;
    for (; !strncmp(s, head, strlen(head)); s = strchr(s, '\n') + 1) {
        const char *q = strstr(s, ",\"queens\":[");
        numbered &= atoi(s + strlen(head)) == r.count + r.bad + 1;
        if (q && q < strchr(s, '\n') && t_read_cols(q + 11, cols, 8, ',') == 0
            && !strncmp(strchr(q, ']'), "]}\n", 3))
            t_reader_add(&r, cols);
        else
            r.bad++;
    }
    int summary = !strcmp(s, "{\"type\":\"summary\",\"command\":\"solve\","
                          "\"n\":8,\"solutions\":92,\"all\":true,\"engine\":"
                          "\"bitmap\",\"unique\":false}\n");
    t_proc_free(&p);
    CHECKF(r.count == 92 && r.bad == 0, "%d boards, %d bad", r.count, r.bad);
    CHECK(numbered);
    CHECK(summary);
}

/* solve --format svg: every board drawn, a --limit obeyed, and a board
 * with no solution giving a well-formed picture of none. */
static void solve_svg(void *arg)
{
    (void)arg;
    t_proc p;
    t_run_ok(&p, ARGS("solve", "6", "--format", "svg"));
    T_BAIL();
    t_check_svg_boards(p.out, 6, 4);
    t_proc_free(&p);
    T_BAIL();
    t_run_ok(&p, ARGS("solve", "10", "--format", "svg", "--limit", "30"));
    T_BAIL();
    t_check_svg_boards(p.out, 10, 30);
    t_proc_free(&p);
    T_BAIL();
    /* no solution: an empty document, and a note on stderr */
    CHECK(t_run_cli(&p, ARGS("solve", "3", "--format", "svg")) == 0);
    int noted = p.exit_code == 0 && strstr(p.err, "has no solution");
    if (noted)
        t_check_svg_boards(p.out, 3, 0);
    t_proc_free(&p);
    CHECK(noted);
}

/* Over 1000 boards is refused before anything is written. */
static void solve_svg_too_many(void *arg)
{
    (void)arg;
    t_proc p;
    CHECK(t_run_cli(&p, ARGS("solve", "12", "--format", "svg")) == 0);
    int ok = p.exit_code == 2 && p.out_len == 0 && strstr(p.err, "--limit");
    t_proc_free(&p);
    CHECK(ok);
}

/* The XML checker itself refuses what it should. */
static void xml_checker(void *arg)
{
    (void)arg;
    static const char *const good[] = {
        "<a/>", "<?xml version=\"1.0\"?>\n<a x='1' y=\"&amp;\">t&lt;</a>\n",
        "<!DOCTYPE a [<!ENTITY x \"y\">]><a><!-- c --><b/><![CDATA[<]]></a>",
    };
    static const char *const bad[] = {
        "", "<a>", "<a></b>", "<a/><b/>", "<a x=1/>", "<a x='1' x='2'/>",
        "<a>&nope;</a>", "<a><</a>", "text<a/>", "<a x='<'/>", "<a><!-- x</a>",
        "<a><b></a></b>",
    };
    char why[128];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECKF(t_xml_check(good[i], why, sizeof why) == 0, "refused %s: %s",
               good[i], why);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(t_xml_check(bad[i], why, sizeof why) != 0, "accepted '%s'",
               bad[i]);
}

/* The checker first: the picture tests trust it. */
void tests_formats(void)
{
    t_case(xml_checker, NULL, "formats/xml-checker");
    t_case(solve_json, NULL, "formats/solve-json");
    t_case(solve_svg, NULL, "formats/solve-svg");
    t_case(solve_svg_too_many, NULL, "formats/solve-svg-too-many");
}

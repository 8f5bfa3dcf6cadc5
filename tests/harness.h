/*
 * harness.h - the test runner's few parts.
 *
 * A test is a function run under a name; CHECK records the first failure
 * of the running test (file, line, what failed) and returns from the
 * function it is in.  Helpers that check things return void and are
 * followed by T_BAIL() so a failure deep in a helper ends the test.
 * The runner prints each test and ends with "N passed, N failed,
 * N skipped"; a skip is never a pass.  Each test runs in a child process
 * of its own, several at once (NQ_JOBS), printed in the order declared.
 */
#ifndef NQ_HARNESS_H
#define NQ_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

#include "nqueens.h"

int t_failed(void);
void t_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define CHECK(cond) do { if (!(cond)) { \
        t_fail(__FILE__, __LINE__, "%s", #cond); return; } } while (0)
#define CHECKF(cond, ...) do { if (!(cond)) { \
        t_fail(__FILE__, __LINE__, __VA_ARGS__); return; } } while (0)
#define T_BAIL() do { if (t_failed()) return; } while (0)

/* The running test cannot run here (a tool or permission missing): it
 * is reported and counted as skipped, with the reason, unless it has
 * already failed.  The test should return after it. */
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A group whose tool is missing here: until t_skip_cases(NULL), each case
 * declared (t_case, t_full_case) is not run but printed and counted as
 * skipped, by its own name and with `why`, when the filters select it;
 * so a group skipped whole counts every case it holds, as it would run. */
void t_skip_cases(const char *why);

/* Run fn(arg) as the test `name` (printf-style) and print its outcome;
 * a test whose name the command line's filters leave out is not run at
 * all and not counted. */
void t_case(void (*fn)(void *), void *arg, const char *name, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a case of the full tier only (seconds of work: MPI jobs,
 * terminals, long counts): `make check` (NQ_QUICK=1) reports it as
 * skipped without running it; `make test` runs it. */
void t_full_case(void (*fn)(void *), void *arg, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for a case that times itself (a stop within a second, a
 * page's latency) or whose programs share files of fixed names with
 * another case's: it runs with no other case beside it, where the rest
 * run side by side (NQ_JOBS at once, one per core by default). */
void t_case_alone(void (*fn)(void *), void *arg, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
void t_full_case_alone(void (*fn)(void *), void *arg, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
/* The running case's own folder, empty when first asked for and removed
 * with all in it when the case ends: where a case writes files of fixed
 * names, so that cases side by side never meet.  A case that cannot
 * have one fails there, by name. */
const char *t_case_dir(void);
/* A file of that folder by name (a path in one of 32 static buffers,
 * reused in turn). */
const char *t_file(const char *name);
/* 1 under `make check`, the quick tier (a case may then do less). */
int t_quick(void);

/* 1 if the test `name` runs under these filters (the runner's command-line
 * words): with none, every test runs; else those whose name contains any
 * of them (plain substring, case-sensitive). */
int t_name_selected(const char *name, char *const *filters, int nfilters);
/* The path the runner was started by (its argv[0]), to run it again. */
const char *t_runner_path(void);

/* Known answers from tests/data: OEIS totals/uniques for n <= t_oeis_max,
 * and backtracking tree sizes (0 where unknown). */
extern int t_oeis_max;
nq_u128 t_oeis_total(int n);
nq_u128 t_oeis_unique(int n);
nq_u128 t_tree_nodes(int n);

/* Run the CLI (NQ_CLI) with args (NULL-terminated), capturing its output.
 * A run over 60 s is killed (status then reports the signal). */
typedef struct {
    int exit_code;   /* -1 if killed by a signal */
    char *out, *err; /* NUL-terminated captured stdout and stderr */
    size_t out_len, err_len;
} t_proc;
int t_run_cli(t_proc *p, const char *const *args);
/* As t_run_cli, but send `sig` to the CLI after `seconds` (if still
 * running).  With prog non-NULL, run that program (found on PATH) with
 * args instead of the CLI. */
int t_run_signalled(t_proc *p, const char *prog, const char *const *args,
                    double seconds, int sig);
/* As t_run_cli, but send `sig` once ready(ctx) says so (polled every 2 ms
 * while the CLI runs). */
int t_run_when(t_proc *p, const char *const *args, int (*ready)(void *),
               void *ctx, int sig);
/* The same with prog (found on PATH) run instead of the CLI, as above. */
int t_run_prog_when(t_proc *p, const char *prog, const char *const *args,
                    int (*ready)(void *), void *ctx, int sig);
/* As t_run_cli, with `sig` sent as the CLI starts: blocked from before
 * fork through exec, so that it is pending when the program's own code
 * first unblocks it, the earliest moment any program could answer it
 * (one landing while the loader still runs would end it silently). */
int t_run_pending(t_proc *p, const char *const *args, int sig);
void t_proc_free(t_proc *p);
/* Whether the program pid catches SIGINT or SIGTERM yet (/proc/PID/status,
 * SigCgt): until then it is still being loaded, and a signal would end it
 * before any code of its own ran. */
int t_catches_signals(pid_t pid);
/* The process id of the program a t_run_* call runs now (for a ready()
 * callback that looks at it). */
pid_t t_run_pid(void);
char *t_read_file(const char *path, size_t *len); /* NULL if unreadable */
/* 1 if out (NULL: no) holds the table row of N as OEIS has it, the time
 * column aside (test_journal.c). */
int t_row_is_oeis(const char *out, int n);
#ifdef NQ_ADVANCED_API
/* The header of the journal at path, as this release reads it: 1 if its
 * first line is one (test_journal.c). */
int t_read_journal_header(const char *path, nq_journal_header *h);
#endif
const char *t_data_path(const char *name);        /* in a static buffer */
/* A benchmark program's path in NQ_BENCH_DIR, in a static buffer; NULL,
 * the case skipped, when the suite runs without it (make test sets it). */
const char *t_bench_program(const char *name);

/* 0 if text is well-formed XML; else -1 and the reason in why. */
int t_xml_check(const char *text, char *why, size_t size);

/* A NULL-terminated argument list for t_run_cli and friends. */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Helpers shared by the tree, formats, find and complete tests
 * (explore_util.c).  Each answer is checked by code written there, not by
 * the library's own checks. */
/* 1 if cols is a placement of n queens, none attacking another (O(n)). */
int t_own_valid(const int *cols, int n);
/* Run the CLI with args; a failure unless it exits 0 with empty stderr. */
void t_run_ok(t_proc *p, const char *const *args);
/* Read n numbers split by sep at s into cols; 0 on success. */
int t_read_cols(const char *s, int *cols, int n, char sep);
/* Boards read back from a listing: valid, distinct (strictly increasing,
 * as solve lists them), as many as expected. */
typedef struct {
    int n, count, prev[NQ_MAX_N], bad;
} t_board_reader;
void t_reader_add(t_board_reader *r, const int *cols);
/* A failure unless svg is well-formed and shows `expect` valid boards of
 * n queens, each queen where its title's array puts it. */
void t_check_svg_boards(const char *svg, int n, int expect);

/* The commands `nqueens --help` lists in page: the first word of each
 * line between "commands:" and the first blank line, at most `most` of
 * them, each cut to 31 characters; returns how many. */
int t_listed_commands(const char *page, char names[][32], int most);

/* Whether a help page has an option's entry, a line "  -x, --name ARG"
 * or "  --name" (ARG there if value) and its text (test_manpage.c). */
int t_help_has_option(const char *help, const char *name, char letter,
                      int value);

/* forge_util.c: rewrite every record of the journal at path for which
 * edit(unit, &tally, ctx) returns 1, retagged as a forger would: with
 * the key the header holds, derived as doc/journal-format.md says (not
 * by the library's code); the number of records rewritten. */
typedef int (*record_edit)(uint64_t unit, nq_tally *t, void *ctx);
int t_forge(const char *path, record_edit edit, void *ctx);
/* body (a line of the journal at path, without " tag=" or a newline)
 * with the tag a forger gives it under the key the journal's header
 * holds, into out; 0 if the file has no header of version 3 or later. */
int t_tagged_line(const char *path, const char *body, char *out,
                  size_t size);
/* An edit for t_forge: the symmetric counts of a fast plan (units 0 and
 * 1, which every check recounts) zeroed. */
int t_zero_fixed_points(uint64_t unit, nq_tally *t, void *ctx);

/* browser_util.c: pages in a real browser (headless Chromium, driven by
 * node over the DevTools pipe: tests/browser/cdp.mjs). */
/* Where the browser tests write pages and screenshots: beside the
 * build's objects (NQ_OBJ), build/browser for the plain build. */
const char *t_browser_dir(char *dir, size_t size);
/* node and Chromium on PATH, into the two buffers; 0, or -1 with the
 * case marked skipped (never passed) and why. */
int t_browser_tools(char *node, char *chromium, size_t size);
/* A browser script run to its end: it must exit 0, print `ok_mark` and
 * no FAIL line; the first FAIL line is what the failure says. */
void t_browser_script(t_proc *p, const char *ok_mark);

/* test_mpi.c: mpirun on PATH; the environment the MPI tests run in (as
 * root in a container, over shared memory). */
int t_have_mpirun(void);
void t_mpi_env(void);
/* mpirun's own end after a whole count or check (OpenMPI 4.1.4 with a
 * stopped rank: a crash in PMIx_server_finalize, or a hang its time
 * limit ended); callers check the result is whole first. */
int t_mpirun_failed_after(const t_proc *p);

/* The test groups. */
void tests_plans(void);
void tests_pieces(void);
void tests_schedule(void);
void tests_progress(void);
void tests_kernels(void);
void tests_bench(void);
void tests_request(void);
void tests_api(void);
void tests_edges(void);
void tests_estimate(void);
void tests_mpi(void);
void tests_mpi_verify(void);
void tests_layers(void);
void tests_core(void);
void tests_engines(void);
void tests_solutions(void);
void tests_units(void);
void tests_journal(void);
void tests_merge(void);
void tests_forgery(void);
void tests_underreport(void);
void tests_verify_parts(void);
void tests_record_rows(void);
void tests_signals(void);
void tests_gpu(void);
void tests_opencl(void);
void tests_wasm(void);
void tests_npm(void);
void tests_cli(void);
void tests_lesson(void);
void tests_series(void);
void tests_python(void);
void tests_runner(void);
void tests_tree(void);
void tests_i18n(void);
void tests_compare(void);
void tests_formats(void);
void tests_find(void);
void tests_complete(void);
void tests_json(void);
void tests_completion(void);
void tests_manpage(void);
void tests_trace_html(void);

#endif

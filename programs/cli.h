/*
 * cli.h - what the command line's files share, grouped by the file that
 * defines it: errors, options and their values, checks of engines and
 * kernels, help, JSON, progress, estimates, reports, the commands.
 *
 * Exit codes: 0 ok, 1 runtime failure, 2 usage error.  Every error is one
 * line on stderr starting with "nqueens: ".
 */
#ifndef NQ_CLI_H
#define NQ_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "i18n.h"
#include "nqueens.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* The most threads an option may ask for. */
#define CLI_MAX_THREADS 1024

/* errors.c: what went wrong, said. */

/* settings.c: the program's name in messages: "nqueens", or
 * "nqueens-mpi". */
extern const char *cli_program;
/* Print "nqueens: <message>" on stderr, on one line (control characters
 * in it escaped, a very long one cut in the middle, a progress bar cleared
 * first); returns code for `return cli_error(...)`. */
int cli_error(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* nq_strerror's words, and after them the library's own for this failure
 * (`words`: a request's or a report's why, the CUDA error's name and text
 * for a GPU's; NULL or empty: none); returns buf. */
#define CLI_ERROR_TEXT 256
const char *cli_strerror(nq_status st, const char *words, char *buf,
                         size_t size);
/* A command's exit code, made CLI_FAIL (with the error printed) if what
 * it wrote to stdout could not all be written: a full disk or a closed
 * pipe must not pass for success. */
int cli_finish_output(int rc);

/* options.c: a command's options and arguments. */

/* One option a command takes: a flag sets *flag to 1, an option with a
 * value stores it in *value ("--name value" or "--name=value").  The
 * same table documents it, so that neither the help page nor the man page
 * can leave it out: arg names its value ("FILE"; NULL for a flag), help
 * says what it does in one line (the printers wrap it; "\n" starts a new
 * line on the help page; "{list}" and the like name engines as
 * cli_print_help does), and group, on the first option of a group, is the
 * group's heading ("long runs (...):").  The short form is not here: one
 * letter means one option in every command (optable.c, cli_short_form). */
typedef struct {
    const char *name;
    const char **value;
    int *flag;
    const char *arg, *help, *group;
} cli_spec;

#define CLI_HELP_SHOWN (-1)

/* Parse a command's arguments against its specs (a NULL name ends them),
 * collecting up to max_pos positionals.  "--help" prints help and returns
 * CLI_HELP_SHOWN; anything unexpected prints an error and returns
 * CLI_USAGE. */
int cli_parse(const char *command, const char *help, const cli_spec *specs,
              int argc, char **argv, const char **pos, int max_pos,
              int *npos);
/* settings.c: set by `nqueens --completion COMMAND` (dispatch.c): cli_parse prints the
 * command's options instead of parsing, and cli_check_engine the engines
 * it accepts instead of checking one; pending from the first (for a
 * command with --engine) until the second.  Set to CLI_DESCRIBE_MANPAGE
 * or CLI_DESCRIBE_SYNOPSIS by `nqueens --manpage`: cli_parse prints the
 * command's part of the man page (manpage.c) and stops it. */
enum { CLI_DESCRIBE_OPTIONS = 1, CLI_DESCRIBE_MANPAGE, CLI_DESCRIBE_SYNOPSIS };
extern int cli_describing, cli_describe_pending;
/* optable.c: the letter of an option's short form ("--engine": 'e'), or
 * 0. */
char cli_short_form(const char *name);
/* An argument that looks like an option ("-x", "--x"), but not a negative
 * number, which is a bad positional. */
int cli_is_option(const char *arg);
/* An unexpected argument for `command`. */
int cli_bad_argument(const char *command, const char *arg);
/* --json is short for --format json; with another --format as well it is
 * a usage error, not a silent choice of one.  *format is NULL when no
 * --format was given, and becomes `fallback` then. */
int cli_json_format(const char *command, int json, const char **format,
                    const char *fallback);

/* values.c: the values of arguments and options, checked. */

/* Strict unsigned decimal in [lo, hi]; 0 on success. */
int cli_parse_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);
/* N or A-B for a board size; prints the error and returns CLI_USAGE if bad. */
int cli_parse_sizes(const char *text, int *lo, int *hi);
/* A command whose one positional is the board: parse the options, then N
 * (or, with `range`, N or A-B) into lo..hi.  Returns CLI_OK,
 * CLI_HELP_SHOWN, or an error code after printing. */
int cli_parse_board(const char *command, const char *help, const cli_spec *specs,
                    int argc, char **argv, int range, int *lo, int *hi);
/* A command whose positionals are journals (merge, verify): parse, with
 * *paths allocated (free it whatever the result), the journals a --list
 * names (*list, once parsed: see cli_add_listed) after the arguments',
 * and at least one in all (else the usage line is said); the result as
 * cli_parse's. */
int cli_parse_journals(const char *command, const char *help,
                       const char *usage, const cli_spec *specs, int argc,
                       char **argv, const char *const *list,
                       const char ***paths, int *count);
/* lists.c: the journals the file `list` names ("-": standard input), one
 * path a line, blank lines left out, added after the *count in *paths
 * (reallocated, the paths' text in the same block: one free).  A list
 * that cannot be read, a line longer than any path or one holding a NUL
 * byte is said, naming the list and the line: CLI_FAIL. */
int cli_add_listed(const char *list, const char ***paths, int *count);
/* --list FILE's entry in the option tables of merge and verify. */
#define CLI_LIST_HELP \
    N_("the journals named in FILE too, one path a line ('-': standard " \
       "input; blank lines left out), after those given as arguments: a " \
       "record run's thousands of parts, more than a command line holds")
/* --threads T: 1..CLI_MAX_THREADS into *threads (0 when text is NULL:
 * all cores); prints and returns CLI_USAGE if bad. */
int cli_parse_threads(const char *text, int *threads);
/* K/M with 1 <= K <= M; prints and returns CLI_USAGE if bad. */
int cli_parse_part(const char *text, uint32_t *part, uint32_t *parts);
/* --max-unit-seconds S into a request's max_unit_seconds: S seconds
 * (1e-6 to CLI_MAX_UNIT_SECONDS), 0 for units never cut (-1 to the
 * library), NULL (not given) leaves *out as it is; prints and returns
 * CLI_USAGE if bad. */
#define CLI_MAX_UNIT_SECONDS 4e6
int cli_parse_unit_seconds(const char *text, double *out);
/* The option's entry in a command's table (count, units, estimate). */
#define CLI_SPEC_MAX_UNIT_SECONDS(VALUE)                                    \
    {.name = "--max-unit-seconds", .value = (VALUE), .arg = "S",            \
     .help = N_("cut every unit estimated over S seconds (of the plan's " \
                "reference core, the same on every machine) into pieces, " \
                "each journaled as it ends (engines sharing fast's plan; " \
                "default 3600; 0: never cut); a journal resumes with the " \
                "pieces it was written with")}

/* checks.c: the engine and the kernel an option names. */

/* The engine named, checked for sizes lo..hi and the capabilities caps
 * (NQ_CAP_* bits: listing solutions, reporting events); prints the error
 * and returns CLI_USAGE if unfit. */
int cli_check_engine(const char *name, int lo, int hi, unsigned caps);
/* "a, b, c": the engines with every capability in caps, from the engine
 * table (so a new engine appears in messages by itself); returns buf. */
const char *cli_engines_with(unsigned caps, char *buf, size_t size);
/* Whether this CPU runs the named fast kernel (from: "--kernel", for the
 * message); an unknown one or one this CPU lacks is CLI_USAGE, said. */
int cli_check_kernel(const char *name, const char *from);
/* The kernel NQ_KERNEL names, if set, made the process default (the
 * same errors): every command's counts use it unless one names its own. */
int cli_kernel_from_environment(void);
/* "scalar, sse4, avx2, avx512": the kernels built in, or (only_supported)
 * those this CPU runs; returns buf. */
const char *cli_kernel_names(char *buf, size_t size, int only_supported);

/* help.c: help pages and --version. */

/* Print a help page, "{list}", "{events}" and "{units}" replaced by the
 * engines with that capability, from the engine table, and "{options}" by
 * the options of specs (NULL: none), one entry each, wrapped to 80
 * columns. */
void cli_print_help(const char *help, const cli_spec *specs);
/* optable.c: text with "{list}", "{events}" and "{units}" replaced,
 * into buf; returns buf. */
const char *cli_expand_engines(const char *text, char *buf, size_t size);
/* optable.c: the length of the engine-list token text starts with, its
 * engines' capabilities in *caps; 0 if none starts it. */
size_t cli_engine_list_at(const char *text, unsigned *caps);
/* "PROGRAM VERSION", then the kernels built in and the one chosen here. */
void cli_print_version(const char *program);

/* manpage.c: `nqueens --manpage`, the man page's generated parts. */

/* A command's part of the man page in roff, from its help page and
 * options (CLI_DESCRIBE_MANPAGE), or its usage line for the synopsis
 * (CLI_DESCRIBE_SYNOPSIS). */
void cli_man_command(const char *help, const cli_spec *specs);
/* The engine table's part (each engine, its summary and limits), and the
 * kernels built in. */
void cli_man_engines(void);
void cli_man_kernels(void);

/* json.c: the one JSON writer. */

/* s as a JSON string, quoted, with quotes, backslashes and control
 * characters escaped. */
void cli_json_string(FILE *out, const char *s);
/* The same with the characters of `also` escaped too (\u00XX): a page's
 * script escapes '<'.  Every string of the CLI's JSON (a path, an engine,
 * a plan, a key) goes through this one writer, never through "\"%s\"". */
void cli_json_quoted(FILE *out, const char *s, const char *also);
/* cli_json_string's text into buf (for JSON put together in a buffer);
 * null if it does not fit; returns buf. */
const char *cli_json_text(char *buf, size_t size, const char *s);
/* A measured number as JSON (%.6g), null if it is not finite. */
void cli_json_number(FILE *out, double v);

/* listing.c */

/* After a line of JSON Lines: flush stdout if a tenth of a second has
 * passed since the last flush (the first line at once), so lines stream
 * to a pipe without a system call for each. */
void cli_stream_line(void);

/* progress.c */

/* A progress bar is on stderr's current line (count's). */
extern int cli_progress_shown;
/* Erase it, if one is shown. */
void cli_clear_progress(void);

/* The progress of a count on stderr: on a terminal one line, redrawn in
 * place, never wider than the terminal, erased at the end; with `plain`,
 * a line every few seconds for a log.  Nothing for counts under a second. */
typedef struct {
    int n, plain;
    double last_plain;
} cli_progress;
void cli_draw_progress(void *ctx, const nq_progress *p);

/* estimate.c */

/* How a search grows with the board (estimate.c): the ratio of node
 * counts between the last two sizes (g), and how that ratio itself grew
 * (gg). */
typedef struct {
    double nodes[2], g, gg;
} cli_growth;
void cli_growth_add(cli_growth *gr, double nodes);
/* x scaled by the growth over the next k sizes. */
double cli_grown(const cli_growth *gr, double x, int k);
/* Seconds a count of n would take with engine on this machine (0 if the
 * engine cannot say), from timed runs at smaller sizes; or, as soon as a
 * generous bound shows it under `enough` seconds, that bound (a count
 * that is only checked against a limit need not time its way up).  The
 * timed counts watch `stop` (unit engines): a stop makes it -1. */
double cli_estimate_seconds(const char *engine, const char *kernel, int n,
                            int threads, double enough,
                            volatile sig_atomic_t *stop);
/* Seconds counting the completions of `given` would take on threads
 * here: the search's size estimated (Knuth's estimator), at the rate of a
 * timed count of a smaller empty board, measured the same way. */
double cli_estimate_completion_seconds(int n, const int *given, int threads);
/* What a count may take before it is refused up front: a week without a
 * journal, a century with one (a cluster's record run). */
#define CLI_FEASIBLE_SECONDS (7 * 86400.0)
#define CLI_FEASIBLE_JOURNALED (100 * 365.25 * 86400.0)
/* Whether engine's counts are estimated by sampling its plan
 * (nq_estimate_count: a unit engine on the CPU). */
int cli_estimate_samples(const char *engine);
/* nq_estimate_count of a count's request and options, budget seconds at
 * most (0: the library's), ended sooner once surely over `over` seconds
 * (0: never), less the units its journal, if it exists and is one of
 * this count, holds already.  time_only: the time alone is wanted (a
 * count's), so a whole count with nothing recorded is sampled on whole
 * units, planned in a moment at any N; else on the count's pieces
 * (e's largest_ and the units say them). */
nq_status cli_estimate_count(const nq_request *req,
                             const nq_resume_options *o, double budget,
                             double over, int time_only, nq_estimate *e);
/* "nqueens: WHAT: about 6.2 minutes (5.9-6.5) on 2 threads (estimated
 * ...)" on stderr, the wall time shared by `machines` like this one. */
void cli_say_estimate(const char *what, const nq_estimate *e, int machines);
/* Boards from which count says its estimate as it starts. */
#define CLI_ESTIMATE_FROM 20
/* A count of n with engine on one thread here, as `nqueens estimate N
 * --threads 1` makes it for an engine that samples its plan (from
 * CLI_ESTIMATE_FROM), else from its growth timed on smaller boards (a
 * bound once surely under `bound`, cli_estimate_seconds); *low and *high
 * its interval, -1 where there is none.  The lesson page's and the npm
 * package's check before a count. */
double cli_estimate_one_thread(const char *engine, int n, double bound,
                               double *low, double *high);

/* report.c */

/* Counts printed one after another: the seed's table (its columns as
 * wide as the largest N needs, table.c) or, with json, JSON lines. */
typedef struct {
    int json, width, rows;
} cli_count_table;
/* A table for boards up to max_n (a range's last N, a merge's N). */
cli_count_table cli_count_table_for(int max_n, int json);
/* One count's result: a table row (after the header, before the first
 * row) or a JSON line, flushed; -1 if it could not be written.  kernel:
 * the fast kernel that ran, NULL if none did (then JSON has no "kernel");
 * threads: 0 if unknown (then JSON has "threads":null). */
int cli_print_counts(cli_count_table *t, int n, const nq_counts *c,
                     const char *engine, const char *kernel, int threads,
                     double seconds);
/* The kernel a count of `engine` ran: `kernel` (the one it named) or the
 * process default, or NULL for an engine that runs no kernel. */
const char *cli_kernel_ran(const char *engine, const char *kernel);

/* count.c */

/* A count (count, nqueens-mpi): the request, with its kernel and GPUs
 * (NULL: the process default kernel, every visible GPU), the long count's
 * options, and how to print. */
typedef struct {
    nq_request req;
    nq_resume_options opt;
    int json;
} cli_long_count;

/* `count`'s options, parsed and checked the same way for nqueens and
 * nqueens-mpi (range 0: one N only). */
typedef struct {
    cli_long_count c;
    int lo, hi, iterative, quiet, progress, force;
    nq_estimate est;            /* the estimate of hi, once made by
                                   cli_check_feasible (estimated: 1) */
    int estimated;
} cli_count_args;
int cli_parse_count(const char *help, int argc, char **argv, int range,
                    cli_count_args *a);
/* CLI_OK, or (said) CLI_USAGE for a count that `machines` machines like
 * this one could not finish in a week (a century with a journal); --force
 * lets it run.  From N = CLI_ESTIMATE_FROM an engine that samples
 * (cli_estimate_samples) is estimated even with --force, the estimate
 * kept in a->est for the count to say. */
int cli_check_feasible(cli_count_args *a, int machines);
/* Say the estimate of count n (a->est for hi, else made now) unless
 * quiet, for engines that sample from N = CLI_ESTIMATE_FROM on; CLI_OK,
 * or stopped (said). */
int cli_say_count_estimate(cli_count_args *a, int n, int machines);
/* SIGINT and SIGTERM caught for the count a describes ("count 20"), its
 * request's stop flag set where its engine watches one; returns a. */
cli_count_args *cli_watch_stop(const char *command, cli_count_args *a);

/* (report.c) Print a long count's outcome (its row, a part's line, or
 * why it stopped or failed); the exit code. */
int cli_report_long_count(const cli_long_count *c, nq_status st,
                          const nq_run_report *r);

/* signals.c */

/* Stopping (signals.c).  Have SIGINT and SIGTERM set the returned flag
 * (nq_request.stop) while the work watches it (cli_stop_waits(1)); while
 * it does not, end the program at once with one line naming `what`
 * ("count 20") and the status 130 or 143.  It starts not watched. */
volatile sig_atomic_t *cli_catch_stop_signals(const char *what);
/* The same from main's first line, for the command argv names, with
 * SIGINT and SIGTERM unblocked: no moment of the program dies without its
 * line. */
void cli_catch_from_start(int argc, char **argv);
/* Whether the work from now on watches the flag; a signal that came while
 * it did and is left unanswered ends the program when it stops watching. */
void cli_stop_waits(int waits);
/* The signal that asked for a stop, or 0. */
int cli_stopped_by(void);
/* "<what> stopped by SIGINT": the line and the shell's status for it. */
int cli_report_stopped(void);


/* dispatch.c, and each command's file */

/* The nqueens command line (dispatch.c): what nqueens' main runs, and
 * nqueens-cuda's once it has added its engine. */
int cli_main(int argc, char **argv);

int cmd_count(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_engines(int argc, char **argv);
int cmd_units(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_find(int argc, char **argv);
int cmd_complete(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_estimate(int argc, char **argv);

/* verify.c */

/* Recounting journals (verify.c), for `verify` and `merge --verify`. */
typedef struct {
    double percent;
    uint64_t seed;
    int threads, quiet, progress, json;
    const char *engine;         /* NULL: the plan's CPU engine */
    uint32_t part, parts;       /* --part K/M (0/0: the whole check) */
    const char *output;         /* --output FILE: the verdict */
    int estimate;               /* --estimate: cost it, recount none */
    uint64_t run;               /* --run ID: that run's records too */
    uint64_t weighted;          /* --weighted K: the weighted draws */
    /* Who checks (NULL: nq_journal_verify on this machine's threads):
     * nqueens-mpi's rank 0 recounts over its job.  Not for merge. */
    nq_status (*check)(void *ctx, const char *const *paths, int count,
                       const nq_verify_options *o, nq_journal_header *h,
                       nq_verify_report *r, char *why, size_t wsize);
    void *check_ctx;
} cli_verify_args;
/* `verify`'s arguments (help: its text, {options} its table), the
 * journals into *paths (to free, whatever the result) and the rest into
 * a; the result as cli_parse's. */
int cli_parse_verify(const char *help, int argc, char **argv,
                     cli_verify_args *a, const char ***paths, int *count);
/* --sample P, --all, --seed S, --threads T, --weighted K (NULL: the
 * default), checked, into a; prints and returns CLI_USAGE if bad. */
int cli_verify_options(const char *sample, int all, const char *seed,
                       const char *threads, const char *weighted,
                       cli_verify_args *a);
/* What journals add up to (merge.c): the one reading of them that
 * merge prints and, with --verify, that verify checked. */
typedef struct {
    nq_journal_header h;
    nq_journal_state s;
    nq_counts c;                /* once every unit is covered */
    unsigned char *done;        /* a bit per unit covered; to free */
} cli_merged;
/* Recount a sample of the journals' units, naming each that disagrees;
 * CLI_OK only if all agree.  m, where not NULL, gets what the reading
 * the recount checked adds up to (merge --verify). */
int cli_verify_journals(const char *const *paths, int count,
                        cli_verify_args *a, cli_merged *m);
/* The one line of what a choice holds and costs, or of what a part
 * recounted (in words or JSON), after verify, verify --estimate and
 * merge --verified. */
void cli_print_parts(const nq_journal_header *h, const nq_verify_report *r,
                     const char *what, int json);

#endif

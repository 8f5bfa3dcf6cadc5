/*
 * count.c - `nqueens count`: the seed series' table, or JSON lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli.h"
#include "../output/duration.h"

static const char count_help[] = N_(
    "usage: nqueens count N|A-B [options]\n"
    "\n"
    "Count the solutions (total, and unique up to rotation and reflection)\n"
    "for each board size from A to B, one row per size, printed as soon as\n"
    "it is done.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens count 4-16\n"
    "  nqueens count 18 -t 2 --json\n"
    "  nqueens count 20 --checkpoint n20.journal\n");

/* The checkpoint options need one N and an engine with units. */
static int check_checkpoint(const cli_long_count *c, int lo, int hi,
                            const char *part)
{
    char units[256];
    if (!c->opt.journal)
        return part ? cli_error(CLI_USAGE, "--part needs --checkpoint FILE "
                                "(each part keeps its own journal)") : CLI_OK;
    if (lo != hi)
        return cli_error(CLI_USAGE, "--checkpoint takes one N, not a range");
    if (!(nq_engine_caps(nq_engine_find(c->req.engine)) & NQ_CAP_UNITS))
        return cli_error(CLI_USAGE, "engine '%s' cannot checkpoint: it does "
                         "not split the board into units (engines that do: "
                         "%s)", c->req.engine,
                         cli_engines_with(NQ_CAP_UNITS, units, sizeof units));
    if (!c->opt.journal[0])
        return cli_error(CLI_USAGE, "--checkpoint needs a file name");
    return CLI_OK;
}

/* count --checkpoint: the stop flag is watched from planning to the last
 * unit. */
static int count_long(cli_long_count *c)
{
    nq_run_report r = NQ_RUN_REPORT_INIT;
    nq_status st = nq_count_resumable(&c->req, &c->opt, &r);
    return cli_report_long_count(c, st, &r);
}

/* Numbers of the options, checked. */
static int count_numbers(const char *threads, const char *max_units,
                         cli_count_args *a)
{
    uint64_t max = 0;
    if (cli_parse_threads(threads, &a->c.req.threads) != CLI_OK)
        return CLI_USAGE;
    if (max_units && cli_parse_uint(max_units, 1, UINT64_MAX, &max) != 0)
        return cli_error(CLI_USAGE, "--max-units takes a whole number from 1, "
                         "not '%s'", max_units);
    a->c.opt.max_units = max;
    if (max_units && !a->c.opt.journal)
        return cli_error(CLI_USAGE, "--max-units needs --checkpoint FILE "
                         "(the units done must be recorded to go on later)");
    return CLI_OK;
}

/* --kernel names a kernel of the fast engine's search, this count's
 * (the request's, not the process's): with an engine that runs none it
 * would be silently ignored, so it is refused. */
static int count_kernel(const char *kernel, const char *engine)
{
    char names[256];
    if (!(nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_KERNEL))
        return cli_error(CLI_USAGE, "--kernel: engine '%s' runs no kernel "
                         "(engines that do: %s)", engine,
                         cli_engines_with(NQ_CAP_KERNEL, names, sizeof names));
    return cli_check_kernel(kernel, "--kernel");
}

/* The engine, its form and the kernel. */
static int count_engine(const char *kernel, cli_count_args *a)
{
    const char *engine = a->c.req.engine;
    int rc = cli_check_engine(engine, a->lo, a->hi, 0);
    if (rc == CLI_OK && kernel)
        rc = count_kernel(kernel, engine);
    if (rc == CLI_OK && a->iterative &&
        (nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS))
        rc = cli_error(CLI_USAGE, "--iterative: engine '%s' has one form "
                       "(the classic engines have a recursive and an "
                       "iterative one)", engine);
    return rc;
}

/* Whether a well-formed --devices list names a GPU twice (in *twice):
 * the CUDA runtime would then hand one GPU to two workers as two. */
static int repeated_device(const char *list, unsigned long *twice)
{
    unsigned long seen[64];
    int k = 0;
    for (const char *a = list; *a;) {
        char *end;
        unsigned long x = strtoul(a, &end, 10);
        for (int i = 0; i < k; i++)
            if (seen[i] == x)
                return *twice = x, 1;
        if (k < 64)
            seen[k++] = x;
        a = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* --devices: GPU numbers, for an engine that counts on GPUs, checked
 * here to be said well; the request carries them (the library checks
 * them again, as any caller's). */
static int count_devices(const char *devices, const char *engine)
{
    unsigned long twice;
    char gpus[256];
    size_t digits = strspn(devices, "0123456789,");
    if (!devices[0] || devices[digits] || devices[0] == ',' ||
        devices[strlen(devices) - 1] == ',' || strstr(devices, ",,"))
        return cli_error(CLI_USAGE, "--devices takes GPU numbers separated "
                         "by commas (0,2), not '%s'", devices);
    if (repeated_device(devices, &twice))
        return cli_error(CLI_USAGE, "--devices: GPU %lu is listed twice in "
                         "'%s'", twice, devices);
    if (!(nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_GPU))
        return cli_error(CLI_USAGE, "--devices: engine '%s' does not count "
                         "on GPUs (engines that do: %s)", engine,
                         cli_engines_with(NQ_CAP_GPU, gpus, sizeof gpus)[0]
                         ? gpus : "none in this build; 'make cuda' builds "
                         "nqueens-cuda, 'make opencl' nqueens-opencl");
    return CLI_OK;
}

int cli_parse_count(const char *help, int argc, char **argv, int range,
                    cli_count_args *a)
{
    const char *threads = NULL, *part = NULL, *max_units = NULL;
    const char *kernel = NULL, *devices = NULL, *max_unit = NULL;
    a->c.req.engine = nq_default_count_engine();
    const cli_spec specs[] = {
        {.name = "--engine", .value = &a->c.req.engine, .arg = "NAME",
         .help = N_("the algorithm (default: the fastest; see 'nqueens "
                    "engines')")},
        {.name = "--iterative", .flag = &a->iterative,
         .help = N_("use the engine's explicit-stack form, not recursion")},
        {.name = "--threads", .value = &threads, .arg = "T",
         .help = N_("threads for engines that split the board into units (see "
                    "'nqueens engines'; default: all online cores)")},
        {.name = "--quiet", .flag = &a->quiet,
         .help = N_("no progress bar (it is shown on stderr only when stderr "
                    "is a terminal and a count takes over a second), and from "
                    "N = 20 no estimate said or sampled: a script's count is "
                    "checked against the week (a century with --checkpoint) "
                    "by a bound timed on smaller boards instead")},
        {.name = "--progress", .flag = &a->progress,
         .help = N_("a plain progress line on stderr every 5 seconds, for logs "
                    "(stderr not a terminal)")},
        {.name = "--json", .flag = &a->c.json,
         .help = N_("one JSON object per line: n, total, unique, nodes, "
                    "engine, kernel (only for an engine that runs one), "
                    "threads, seconds")},
        {.name = "--force", .flag = &a->force,
         .help = N_("run even a count this machine could not finish in a week "
                    "(a century with --checkpoint), without estimating it: "
                    "without it such a count is refused up front, with the "
                    "estimate")},
        {.name = "--kernel", .value = &kernel, .arg = "K",
         .help = N_("the fast engine's inner kernel (no other engine runs "
                    "one): scalar, and sse4, avx2, avx512 on x86-64, neon on "
                    "aarch64 or simd128 in WebAssembly built with SIMD "
                    "(default: the widest this CPU runs; also "
                    "NQ_KERNEL=K; 'nqueens --version' lists those built in)")},
        {.name = "--devices", .value = &devices, .arg = "LIST",
         .help = N_("GPUs for a GPU engine, by number (0,2): the CUDA "
                    "runtime's for cuda, the order '--version' lists for "
                    "opencl; a number with no device is refused before any "
                    "unit is counted; default: every visible GPU (opencl: or, "
                    "with none, every OpenCL device)")},
        {.name = "--checkpoint", .value = &a->c.opt.journal, .arg = "FILE",
         .group = N_("long runs (engines that split the board into units, one "
                     "N):"),
         .help = N_("record each finished unit in FILE (created if absent); "
                    "run the same command again to resume after a crash, a "
                    "kill or Ctrl-C; Ctrl-C stops at once, and the units it "
                    "cut short are counted again on resume")},
        {.name = "--part", .value = &part, .arg = "K/M",
         .help = N_("run only the K-th of M disjoint shares of the units; "
                    "combine the parts' journals with 'nqueens merge'.  A part "
                    "samples no estimate of its own (the whole count's is "
                    "'nqueens estimate N', said once): it is checked against "
                    "a century by a bound timed on smaller boards")},
        {.name = "--max-units", .value = &max_units, .arg = "K",
         .help = N_("stop after K more units (resume later)")},
        CLI_SPEC_MAX_UNIT_SECONDS(&max_unit),
        {0},
    };
    int rc = cli_parse_board("count", help, specs, argc, argv, range, &a->lo,
                             &a->hi);
    if (rc != CLI_OK)
        return rc;
    a->c.req.size = sizeof a->c.req, a->c.opt.size = sizeof a->c.opt;
    a->c.req.n = a->lo;
    a->c.req.kernel = kernel, a->c.req.devices = devices;
    if ((rc = count_engine(kernel, a)) != CLI_OK ||
        (rc = count_numbers(threads, max_units, a)) != CLI_OK ||
        (rc = cli_parse_unit_seconds(max_unit, &a->c.req.max_unit_seconds)) ||
        (rc = check_checkpoint(&a->c, a->lo, a->hi, part)) != CLI_OK ||
        (devices && (rc = count_devices(devices, a->c.req.engine)) != CLI_OK))
        return rc;
    return part ? cli_parse_part(part, &a->c.opt.part, &a->c.opt.parts)
                : CLI_OK;
}

/* The signal handlers, before any work: a unit engine's count (its
 * estimate, plan, journal and units) watches the stop flag and stops
 * cleanly; any other engine's search never looks at it, so a signal ends
 * it at once, with a line.  Returns a. */
cli_count_args *cli_watch_stop(const char *command, cli_count_args *a)
{
    char what[64];
    int units = nq_engine_caps(nq_engine_find(a->c.req.engine)) & NQ_CAP_UNITS;
    snprintf(what, sizeof what, a->lo == a->hi ? "%s %d" : "%s %d-%d",
             command, a->lo, a->hi);
    cli_stop_waits(units != 0); /* first: a signal the handlers meet
                                   finds the flag already watched */
    volatile sig_atomic_t *stop = cli_catch_stop_signals(what);
    a->c.req.stop = units ? stop : NULL;
    return a;
}

/* What would make a refused count possible: the fast engine; else a
 * journal, unless the count is past what a journaled run may take too,
 * when only more machines help (suggesting --checkpoint first would lead
 * to a second refusal). */
static const char *feasible_advice(const cli_count_args *a, double est,
                                   int machines)
{
    if (strcmp(a->c.req.engine, nq_default_count_engine()))
        return _("--engine fast, or --force to run");
    if (!a->c.opt.journal && est <= CLI_FEASIBLE_JOURNALED)
        return _("--force to run, --checkpoint FILE to make it resumable");
    return machines > 1 ? _("more ranks, or --force to run")
                        : _("a cluster (nqueens-mpi, or --part K/M "
                            "--checkpoint FILE on many machines), or --force "
                            "to run");
}

/* "count 24" or "count 24 part 3/16". */
static void count_name(const cli_count_args *a, int n, char *buf,
                       size_t size)
{
    if (a->c.opt.parts)
        snprintf(buf, size, "count %d part %u/%u", n, a->c.opt.part,
                 a->c.opt.parts);
    else
        snprintf(buf, size, "count %d", n);
}

/* The refusal of a count estimated at `est` seconds (low and high: its
 * interval, or -1), with what would make it possible. */
static int refuse(const cli_count_args *a, double est, double low,
                  double high, int threads, int machines)
{
    char took[96], who[96], what[64];
    cli_format_estimate(est, low, high, took, sizeof took);
    count_name(a, a->hi, what, sizeof what);
    if (machines > 1)
        snprintf(who, sizeof who, _("%d workers like this machine"),
                 machines);
    else
        snprintf(who, sizeof who, ngettext("%d thread", "%d threads",
                                           (unsigned long)threads), threads);
    if (low >= 0)
        return cli_error(CLI_USAGE, "%s with engine %s would take about %s "
                         "on %s; %s", what, a->c.req.engine, took, who,
                         feasible_advice(a, est, machines));
    return cli_error(CLI_USAGE, "%s with engine %s would take over %s at "
                     "this machine's rate on %s; %s", what, a->c.req.engine,
                     took, who, feasible_advice(a, est, machines));
}

/* The estimate of count n by sampling its plan, into *e; sampling may
 * end once it is surely over `over` wall seconds (0: never). */
static int sample_count(const cli_count_args *a, int n, double over,
                        nq_estimate *e)
{
    char words[CLI_ERROR_TEXT], why[CLI_ERROR_TEXT], what[64];
    nq_request req = a->c.req;
    req.n = n, req.why = words, req.why_size = sizeof words;
    nq_status st = cli_estimate_count(&req, &a->c.opt, 0, over, 1, e);
    if (st == NQ_ERR_STOPPED)
        return cli_report_stopped();
    count_name(a, n, what, sizeof what);
    return st == NQ_OK ? CLI_OK : cli_error(CLI_FAIL, "%s: estimating its "
                                            "time: %s", what, cli_strerror(
                                            st, words, why, sizeof why));
}

/* Whether the count is worth its sampled estimate (nq_estimate_count:
 * 0.29 s at N = 20, 3 to 4.6 s at 22 and 23): a whole count run by a
 * person, who is told it.  A part's estimate belongs to the whole count
 * (nqueens estimate N says it once), where a job array of 10,000 parts
 * paid it 10,000 times; --quiet is a script's count, which says none. */
static int worth_sampling(const cli_count_args *a)
{
    return !a->quiet && !a->c.opt.parts &&
           cli_estimate_samples(a->c.req.engine);
}

/* The refusal on the sampled estimate of hi. */
static int sampled_check(cli_count_args *a, double limit, int machines)
{
    int rc = sample_count(a, a->hi, limit * machines, &a->est);
    if (rc != CLI_OK)
        return rc;
    a->estimated = 1;
    const nq_estimate *e = &a->est;
    if (e->seconds / machines <= limit)
        return CLI_OK;
    return refuse(a, e->seconds / machines, e->seconds_low / machines,
                  e->seconds_high / machines, e->threads, machines);
}

/* A count that could not end in any reasonable time is refused before it
 * starts, with this machine's estimate, rather than run silently for ever;
 * --force runs it all the same.  A share (--part K/M) is a Mth of the
 * work, and `machines` like this one share it (nqueens-mpi's workers).
 * Where sampling is not worth it (a part, --quiet), a sampling engine's
 * count from N = CLI_ESTIMATE_FROM is checked by the bound the other
 * engines' are, timed on smaller boards (milliseconds where it is far
 * under the limit, a tenth of a second at most). */
int cli_check_feasible(cli_count_args *a, int machines)
{
    double limit = a->c.opt.journal ? CLI_FEASIBLE_JOURNALED
                                    : CLI_FEASIBLE_SECONDS;
    int samples = cli_estimate_samples(a->c.req.engine);
    if (a->force) /* run as asked, without a word or a second's delay */
        return CLI_OK;
    if (a->hi >= CLI_ESTIMATE_FROM && worth_sampling(a))
        return sampled_check(a, limit, machines);
    if (a->hi < (samples ? CLI_ESTIMATE_FROM : 14))
        return CLI_OK;
    double share = (double)(a->c.opt.parts ? a->c.opt.parts : 1) * machines;
    double est = cli_estimate_seconds(a->c.req.engine, a->c.req.kernel,
                                      a->hi, a->c.req.threads, limit * share,
                                      a->c.req.stop) / share;
    if (est < 0)
        return cli_report_stopped();
    return est <= limit ? CLI_OK
                        : refuse(a, est, -1, -1,
                                 nq_request_threads(&a->c.req), machines);
}

int cli_say_count_estimate(cli_count_args *a, int n, int machines)
{
    char what[64];
    nq_estimate e;
    if (a->force || n < CLI_ESTIMATE_FROM || !worth_sampling(a))
        return CLI_OK;
    if (n == a->hi && a->estimated) {
        e = a->est;
    } else {
        int rc = sample_count(a, n, 0, &e);
        if (rc != CLI_OK)
            return rc;
    }
    count_name(a, n, what, sizeof what);
    cli_say_estimate(what, &e, machines);
    return CLI_OK;
}

int cmd_count(int argc, char **argv)
{
    cli_count_args a = {0};
    int rc = cli_parse_count(count_help, argc, argv, 1, &a);
    if (rc == CLI_OK)
        rc = cli_check_feasible(cli_watch_stop("count", &a), 1);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    cli_progress bar = {.n = a.lo, .plain = a.progress};
    if ((!a.quiet && isatty(2)) || a.progress)
        a.c.req.progress = cli_draw_progress, a.c.req.progress_ctx = &bar;
    if (a.c.opt.journal)
        return (rc = cli_say_count_estimate(&a, a.lo, 1)) != CLI_OK
                   ? rc : count_long(&a.c);
    const char *engine = a.c.req.engine;
    int units = nq_engine_caps(nq_engine_find(engine)) & NQ_CAP_UNITS;
    cli_count_table table = cli_count_table_for(a.hi, a.c.json);
    for (int n = a.lo; n <= a.hi; n++) {
        char words[CLI_ERROR_TEXT], why[CLI_ERROR_TEXT];
        nq_request req = a.c.req;
        req.n = n, req.iterative = a.iterative;
        req.why = words, req.why_size = sizeof words;
        bar.n = n;
        if ((rc = cli_say_count_estimate(&a, n, 1)) != CLI_OK)
            return rc;
        nq_counts c;
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, &c);
        double seconds = nq_clock_seconds() - t0;
        if (st == NQ_ERR_STOPPED)
            return cli_report_stopped();
        if (st != NQ_OK)
            return cli_error(CLI_FAIL, "count %d: %s", n,
                             cli_strerror(st, words, why, sizeof why));
        if (cli_print_counts(&table, n, &c, engine,
                             cli_kernel_ran(engine, a.c.req.kernel),
                             units ? nq_request_threads(&req) : 1, seconds))
            return CLI_OK; /* the caller reports the failed write */
    }
    return CLI_OK;
}

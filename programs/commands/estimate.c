/*
 * estimate.c - how long a count would take on this machine, before it
 * runs: `nqueens estimate` prints it, `count` says it as it starts and
 * refuses what could not finish in any reasonable time, `compare` prints
 * the teaching engines'.
 *
 * Engines with units that count on the CPU are estimated by the library,
 * which times samples of the count's own plan (nq_estimate_count).  The
 * others (the teaching engines, the GPU engines) are timed at growing
 * sizes until a run takes a noticeable time; the node counts of the last
 * sizes give the growth per size, which carries the last time to the
 * size asked for.  Node counts are exact, so unlike times they
 * extrapolate steadily.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli.h"
#include "../output/duration.h"

void cli_growth_add(cli_growth *gr, double nodes)
{
    double g = gr->nodes[1] > 0 ? nodes / gr->nodes[1] : 0;
    if (gr->g > 0 && g > 0) {
        gr->gg = g / gr->g;
        gr->gg = gr->gg < 1 ? 1 : gr->gg > 1.3 ? 1.3 : gr->gg;
    }
    gr->g = g;
    gr->nodes[0] = gr->nodes[1], gr->nodes[1] = nodes;
}

double cli_grown(const cli_growth *gr, double x, int k)
{
    double g = gr->g;
    for (int i = 0; i < k; i++) {
        g *= gr->gg;
        x *= g;
    }
    return x;
}

/* The growth needs sizes with nodes enough to be steady: from 8 on. */
#define FIRST_STEADY 8

/* A run of `t` seconds at a size whose nodes grew `g` times over the size
 * before, carried to `k` sizes more at twice that growth, and as if it had
 * taken a millisecond at least (small runs are mostly noise): more than
 * any search here grows, so a count under it is surely under it. */
static double bound(double t, double g, int k)
{
    double x = t > 1e-3 ? t : 1e-3;
    for (int i = 0; i < k; i++)
        x *= 2 * g;
    return x;
}

double cli_estimate_seconds(const char *engine, const char *kernel, int n,
                            int threads, double enough,
                            volatile sig_atomic_t *stop)
{
    cli_growth gr = {{0, 0}, 0, 1};
    double t = 0;
    int m = 4;
    for (; m < n; m++) {
        nq_request req = {.size = sizeof req, .n = m, .engine = engine,
                          .threads = threads, .stop = stop, .kernel = kernel};
        nq_counts c;
        double t0 = nq_clock_seconds();
        nq_status st = nq_count_solutions(&req, &c);
        if (st != NQ_OK)
            return st == NQ_ERR_STOPPED ? -1 : 0;
        t = nq_clock_seconds() - t0;
        cli_growth_add(&gr, (double)c.nodes);
        if (m >= FIRST_STEADY && t > 0.05)
            break;
        double most = bound(t, gr.g, n - m);
        if (m >= FIRST_STEADY && gr.g > 0 && most <= enough)
            return most;
    }
    gr.gg = 1; /* the growth of the growth, measured on small boards, would
                  compound over many sizes into a gross overestimate; without
                  it the estimate is low (searches grow ever faster), which
                  is the side to err on before refusing a run */
    return m >= n ? t : cli_grown(&gr, t, n - m);
}

/* Random paths for a completion's estimate: a millisecond's work. */
#define PROBES 2000

/* Below this many nodes a count is seconds on any machine: not timed. */
#define QUICK_NODES 1e9

double cli_estimate_completion_seconds(int n, const int *given, int threads)
{
    double nodes, ref_nodes, t = 0;
    int empty[NQ_MAX_N];
    if (nq_estimate_completion_nodes(n, given, PROBES, &nodes) != NQ_OK ||
        nodes < QUICK_NODES)
        return 0;
    for (int r = 0; r < NQ_MAX_N; r++)
        empty[r] = -1;
    for (int m = FIRST_STEADY; m < n; m++) {
        nq_request req = {.size = sizeof req, .n = m, .threads = threads};
        nq_counts c;
        double t0 = nq_clock_seconds();
        if (nq_count_completions(&req, empty, &c) != NQ_OK ||
            nq_estimate_completion_nodes(m, empty, PROBES, &ref_nodes) != NQ_OK)
            return 0;
        if ((t = nq_clock_seconds() - t0) > 0.05)
            return nodes / ref_nodes * t;
    }
    return 0; /* a board this small is counted sooner than timed */
}

/* ---- the estimate by sampling the count's own plan ---- */

/* The fast engine's: the record hunter's, whose plan is made in a
 * moment.  carry's plan takes a minute at N = 20, and a count would make
 * it twice; a GPU's time is not this CPU's. */
int cli_estimate_samples(const char *engine)
{
    unsigned caps = nq_engine_caps(nq_engine_find(engine));
    return (caps & NQ_CAP_UNITS) && (caps & NQ_CAP_KERNEL) &&
           !(caps & NQ_CAP_GPU);
}

/* The units a journal already holds, if the file is one of this count
 * (a bit each, to free): what is left is what a resumed count runs.
 * NULL when there is none, or it cannot be read (the count says why). */
static unsigned char *journal_done(const char *journal, nq_journal_header *h)
{
    nq_journal_state s;
    unsigned char *done = NULL;
    const char *paths[1] = {journal};
    if (!journal || access(journal, R_OK) != 0 ||
        nq_journal_merge(paths, 1, NULL, h, &s, &done, NULL, NULL,
                         0) != NQ_OK)
        return NULL;
    return done;
}

nq_status cli_estimate_count(const nq_request *req,
                             const nq_resume_options *o, double budget,
                             double over, int time_only, nq_estimate *e)
{
    nq_journal_header h;
    nq_request cut = *req;
    unsigned char *done = journal_done(o ? o->journal : NULL, &h);
    nq_estimate_options eo = {.seconds = budget, .done = done, .over = over};
    if (o)
        eo.part = o->part, eo.parts = o->parts;
    /* the units the journal holds are of its own pieces, as the count
     * resuming it takes them; the time of a whole count is its units'
     * whether they are cut or not, and whole units are planned in a
     * moment at any N (cutting N = 28 takes minutes) */
    if (done && !cut.max_unit_seconds)
        cut.max_unit_seconds = nq_split_max_unit_seconds(h.plan);
    else if (time_only && !done && !eo.parts)
        cut.max_unit_seconds = -1;
    nq_status st = nq_estimate_count(&cut, &eo, e);
    free(done);
    return st;
}

/* The line of a count's estimate: "about 6.2 minutes (5.9-6.5) on 2
 * threads (...)", scaled to `machines` like this one. */
void cli_say_estimate(const char *what, const nq_estimate *e, int machines)
{
    char took[96], who[96];
    cli_format_estimate(e->seconds / machines, e->seconds_low / machines,
                        e->seconds_high / machines, took, sizeof took);
    if (machines > 1)
        snprintf(who, sizeof who, ngettext("%d workers like this machine, "
                                           "%d thread each",
                                           "%d workers like this machine, "
                                           "%d threads each",
                                           (unsigned long)e->threads),
                 machines, e->threads);
    else
        snprintf(who, sizeof who, ngettext("%d thread", "%d threads",
                                           (unsigned long)e->threads),
                 e->threads);
    cli_clear_progress();
    fprintf(stderr, _("%s: %s: about %s on %s (estimated in %.1f s from %llu "
                      "timed samples of its units)\n"), cli_program, what,
            took, who, e->elapsed, (unsigned long long)e->samples);
    fflush(stderr);
}

/* ---- nqueens estimate ---- */

/* Its "80% interval" is no printf conversion. */
static const char estimate_help[] = N_(
    /* xgettext:no-c-format */
    "usage: nqueens estimate N|A-B [options]\n"
    "\n"
    "How long a count would take on this machine, before it runs, for each\n"
    "N: units of the count's own plan are drawn at random (each with a\n"
    "chance in proportion to the plan's estimate of its size) and counted,\n"
    "a long unit by a piece its kernel would count, on the count's threads\n"
    "at once, until the times add up to a steady estimate (or for the\n"
    "budget).  Each row gives the count's work in core-hours and its wall\n"
    "time on T threads, each with an 80% interval, and how many samples\n"
    "were timed in how long.  The wall time assumes the count's threads\n"
    "have their cores to themselves: on a busy machine (said, when the\n"
    "samples ran under 80% of their time) the count takes longer.  'count'\n"
    "prints the same estimate as it starts, from N = 20.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens estimate 18-21\n"
    "  nqueens estimate 24-27 --threads 64\n");

typedef struct {
    nq_request req;
    nq_resume_options opt;
    int lo, hi, json;
    double budget;
} estimate_args;

/* Core-hours to two significant digits, plainly up to a million. */
static void hours(double h, char *buf, size_t size)
{
    if (h >= 1e6)
        snprintf(buf, size, "%.2g", h);
    else if (h >= 100)
        snprintf(buf, size, "%.0f", h);
    else
        snprintf(buf, size, h >= 10 ? "%.1f" : h >= 1 ? "%.2f" : "%.2g", h);
}

static void print_json_estimate(int n, const estimate_args *a,
                                const nq_estimate *e)
{
    printf("{\"n\":%d,\"engine\":", n);
    cli_json_string(stdout, a->req.engine);
    const char *kernel = cli_kernel_ran(a->req.engine, a->req.kernel);
    if (kernel) {
        fputs(",\"kernel\":", stdout);
        cli_json_string(stdout, kernel);
    }
    printf(",\"threads\":%d,\"units\":%llu,\"core_hours\":", e->threads,
           (unsigned long long)e->units);
    cli_json_number(stdout, e->core_seconds / 3600);
    fputs(",\"core_hours_low\":", stdout);
    cli_json_number(stdout, e->low / 3600);
    fputs(",\"core_hours_high\":", stdout);
    cli_json_number(stdout, e->high / 3600);
    fputs(",\"seconds\":", stdout);
    cli_json_number(stdout, e->seconds);
    fputs(",\"seconds_low\":", stdout);
    cli_json_number(stdout, e->seconds_low);
    fputs(",\"seconds_high\":", stdout);
    cli_json_number(stdout, e->seconds_high);
    printf(",\"samples\":%llu,\"sampled_seconds\":%.3f,"
           "\"elapsed\":%.3f,\"pieces\":%llu,\"largest_piece_seconds\":",
           (unsigned long long)e->samples, e->sampled, e->elapsed,
           (unsigned long long)e->units);
    cli_json_number(stdout, e->largest_seconds);
    fputs(",\"largest_piece_reference_seconds\":", stdout);
    cli_json_number(stdout, e->largest_reference);
    fputs(",\"cpu_share\":", stdout);
    cli_json_number(stdout, e->cpu_share);
    fputs(",\"max_unit_seconds\":", stdout);
    cli_json_number(stdout, a->req.max_unit_seconds < 0
                                ? 0 : a->req.max_unit_seconds > 0
                                ? a->req.max_unit_seconds
                                : NQ_MAX_UNIT_SECONDS_DEFAULT);
    fputs("}\n", stdout);
}

/* The table's headings, padded by terminal columns (cli_field). */
static void print_heading(const char *threads)
{
    const char *units = _("units"), *core = _("core-hours (80%)");
    printf("%3s %*s  %*s  %*s  %s\n", "N:", cli_field(units, 8), units,
           cli_field(core, -26), core, cli_field(threads, -30), threads,
           _("samples timed"));
}

static void print_row(int n, const estimate_args *a, const nq_estimate *e,
                      int first)
{
    char core[3][32], wall[96], when[64], threads[48];
    if (a->json) {
        print_json_estimate(n, a, e);
        return;
    }
    hours(e->core_seconds / 3600, core[0], sizeof core[0]);
    hours(e->low / 3600, core[1], sizeof core[1]);
    hours(e->high / 3600, core[2], sizeof core[2]);
    cli_format_estimate(e->seconds, e->seconds_low, e->seconds_high, wall,
                        sizeof wall);
    snprintf(when, sizeof when, _("%llu in %.1f s"),
             (unsigned long long)e->samples, e->elapsed);
    snprintf(threads, sizeof threads,
             ngettext("wall, %d thread (80%%)", "wall, %d threads (80%%)",
                      (unsigned long)e->threads), e->threads);
    if (first)
        print_heading(threads);
    snprintf(core[0] + strlen(core[0]), sizeof core[0] - strlen(core[0]),
             " (%s-%s)", core[1], core[2]);
    /* widths in terminal columns: the wall time may be Japanese */
    printf("%2d: %8llu  %-26s  %*s  %s\n", n, (unsigned long long)e->units,
           core[0], cli_field(wall, -30), wall, when);
}

static int estimate_parse(int argc, char **argv, estimate_args *a)
{
    const char *threads = NULL, *kernel = NULL, *part = NULL,
               *budget = NULL, *max_unit = NULL;
    a->req.engine = nq_default_count_engine();
    const cli_spec specs[] = {
        {.name = "--engine", .value = &a->req.engine, .arg = "NAME",
         .help = N_("the engine the count would run (default: fast); one "
                    "that splits the board into units and counts on the CPU")},
        {.name = "--threads", .value = &threads, .arg = "T",
         .help = N_("the threads the count would run on (default: all online "
                    "cores); the samples are timed on as many at once")},
        {.name = "--kernel", .value = &kernel, .arg = "K",
         .help = N_("the fast kernel the count would run (default: the "
                    "widest this CPU runs)")},
        {.name = "--part", .value = &part, .arg = "K/M",
         .help = N_("the K-th of M shares of the units, as 'count --part'")},
        CLI_SPEC_MAX_UNIT_SECONDS(&max_unit),
        {.name = "--seconds", .value = &budget, .arg = "S",
         .help = N_("the most each N's sampling takes, in seconds (default: "
                    "10; it ends sooner once steady)")},
        {.name = "--json", .flag = &a->json,
         .help = N_("one JSON object per N: n, engine, kernel, threads, units, "
                    "core_hours and its _low and _high, seconds (wall) and its "
                    "_low and _high, samples, sampled_seconds, elapsed, "
                    "pieces (the share's units, pieces included), "
                    "largest_piece_seconds (on this machine, one thread) and "
                    "_reference_seconds (the plan's), cpu_share (of its "
                    "time the sampling ran: under 1, a busy machine), "
                    "max_unit_seconds")},
        {0},
    };
    int rc = cli_parse_board("estimate", estimate_help, specs, argc, argv, 1,
                             &a->lo, &a->hi);
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_check_engine(a->req.engine, a->lo, a->hi, NQ_CAP_UNITS)))
        return rc;
    if (nq_engine_caps(nq_engine_find(a->req.engine)) & NQ_CAP_GPU)
        return cli_error(CLI_USAGE, "estimate: engine '%s' counts on a GPU; "
                         "an estimate times units on this CPU",
                         a->req.engine);
    if (kernel && (rc = cli_check_kernel(kernel, "--kernel")) != CLI_OK)
        return rc;
    a->req.kernel = kernel;
    if (budget && (a->budget = strtod(budget, NULL), !(a->budget > 0 &&
                                                       a->budget <= 86400)))
        return cli_error(CLI_USAGE, "--seconds takes a number of seconds "
                         "above 0, not '%s'", budget);
    if ((rc = cli_parse_threads(threads, &a->req.threads)) != CLI_OK ||
        (rc = cli_parse_unit_seconds(max_unit, &a->req.max_unit_seconds)))
        return rc;
    return part ? cli_parse_part(part, &a->opt.part, &a->opt.parts) : CLI_OK;
}

/* Under this many samples the interval rests mostly on the library's
 * prior guess of their spread (run_estimate.c), not on what they show:
 * said, so that the width is not read as the machine's noise. */
#define FEW_SAMPLES 10

/* Under this share of their threads' time the samples ran on a busy
 * machine: the wall time assumes cores the count has to itself, which
 * held within 5% on a quiet machine and not at all under load
 * (bench/RESULTS.md, 2026-12-02), so the reader is told; only of
 * samples that took BUSY_SECONDS of CPU in all, which their threads'
 * start does not sway. */
#define BUSY_SHARE 0.8
#define BUSY_SECONDS 2.0

static void estimate_notes(int n, const nq_estimate *e)
{
    if (e->units && e->samples < FEW_SAMPLES)
        fprintf(stderr, ngettext("%s: estimate %d: only %llu sample in the "
                                 "budget: the interval is widened for it "
                                 "(--seconds to narrow it)\n",
                                 "%s: estimate %d: only %llu samples in the "
                                 "budget: the interval is widened for it "
                                 "(--seconds to narrow it)\n",
                                 (unsigned long)e->samples),
                cli_program, n, (unsigned long long)e->samples);
    if (e->units && e->cpu_share > 0 && e->cpu_share < BUSY_SHARE &&
        e->sampled >= BUSY_SECONDS)
        fprintf(stderr, _("%s: estimate %d: the machine is busy (the samples' "
                          "threads ran %.0f%% of the time): the wall time "
                          "assumes the count's threads have their cores to "
                          "themselves\n"), cli_program, n,
                100 * e->cpu_share);
}

int cmd_estimate(int argc, char **argv)
{
    estimate_args a = {.req = {.size = sizeof a.req},
                       .opt = {.size = sizeof a.opt}};
    int rc = estimate_parse(argc, argv, &a);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    a.req.stop = cli_catch_stop_signals("estimate");
    cli_stop_waits(1);
    for (int n = a.lo; n <= a.hi; n++) {
        char words[CLI_ERROR_TEXT], why[CLI_ERROR_TEXT];
        nq_estimate e;
        a.req.n = n, a.req.why = words, a.req.why_size = sizeof words;
        nq_status st = cli_estimate_count(&a.req, &a.opt, a.budget, 0, 0, &e);
        if (st == NQ_ERR_STOPPED)
            return cli_report_stopped();
        if (st == NQ_ERR_ARG && words[0]) /* a share of no unit: count's */
            return cli_error(CLI_FAIL, "%s", words);    /* words exactly */
        if (st != NQ_OK)
            return cli_error(CLI_FAIL, "estimate %d: %s", n,
                             cli_strerror(st, words, why, sizeof why));
        print_row(n, &a, &e, n == a.lo);
        estimate_notes(n, &e);
        if (fflush(stdout) != 0)
            return CLI_OK; /* the caller reports the failed write */
    }
    return CLI_OK;
}

double cli_estimate_one_thread(const char *engine, int n, double bound,
                               double *low, double *high)
{
    *low = *high = -1;
    if (cli_estimate_samples(engine) && n >= CLI_ESTIMATE_FROM) {
        char words[CLI_ERROR_TEXT];
        nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                          .threads = 1, .why = words,
                          .why_size = sizeof words};
        nq_estimate e;
        if (cli_estimate_count(&req, NULL, 0, 0, 1, &e) == NQ_OK) {
            *low = e.seconds_low, *high = e.seconds_high;
            return e.seconds;
        }
    }
    return cli_estimate_seconds(engine, NULL, n, 1, bound, NULL);
}

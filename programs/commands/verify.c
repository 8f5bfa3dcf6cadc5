/*
 * verify.c - `nqueens verify JOURNAL...`: recount a random sample of the
 * units that journals record and name every record that disagrees; also
 * what `merge --verify` runs before adding up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli.h"

static const char verify_help[] = N_(
    "usage: nqueens verify JOURNAL... [options]\n"
    "\n"
    "Check journals someone else wrote by counting again a random sample of\n"
    "the units they record (drawn afresh each run from a seed the summary\n"
    "names, so a writer cannot know which), the units of the 16 greatest\n"
    "totals and of the 16 greatest for the plan's estimate of their size (so\n"
    "no record raised past those escapes by luck of the draw), about 64\n"
    "records drawn in proportion to the total each claims and 64 in\n"
    "proportion to its unit's estimated work (so that wrong records that\n"
    "raise the total by k times the step the summary names, or hold k times\n"
    "its share of the work, escape with chance under e^-k, however they are\n"
    "spread), and every unit that the plan says can hold solutions fixed by\n"
    "a turn, whatever its record claims (they carry the unique count).\n"
    "Records lowered are sought too: the units of the 16 least totals for\n"
    "their estimate are recounted, and the records, sorted by estimate into\n"
    "up to 8 strata, must each stray from the rest's totals over estimates\n"
    "by at most 20% + 500%/sqrt(units), or the journals are refused (a bound\n"
    "calibrated with no false alarm on 5264 genuine journals).  Each run\n"
    "(journal format 4) has 3 of its records recounted; a run whose records\n"
    "disagree is named and every record it wrote refused.  The count is on a\n"
    "CPU engine of the journals' plan, whatever engine wrote them.  Each\n"
    "unit whose count disagrees with its record is named; any disagreement\n"
    "exits 1.  The journals are first checked as 'nqueens merge' checks\n"
    "them, each record against what the plan knows of its unit.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens verify n23.part*\n"
    "  nqueens verify --all part7.journal\n"
    "  nqueens verify --list parts.txt\n");

/* The least a sample recounts, whatever the percentage: a 1% sample of a
 * small journal would otherwise be a unit or two. */
#define AT_LEAST 16
/* The greatest records recounted whatever the draw, by total and by
 * total for the unit's estimated size: each a unit's work at most, and
 * past them no record can be raised unseen. */
#define BY_SIZE 16
/* About as many records drawn in proportion to their total, and as
 * many to their unit's estimated work: a raise of 1/64 of the claimed
 * total or a skip of 1/64 of the work escapes one draw with chance 1/e,
 * of 5% with chance e^-3.2 (bench/RESULTS.md, "verify's weighted
 * draws"). */
#define BY_WEIGHT 64

/* A tally as words, or as a JSON member named `name` (its name through
 * the one escaping writer, as every JSON string of the CLI). */
static void put_tally(FILE *out, const char *name, const nq_tally *t,
                      int json)
{
    char v[4][NQ_U128_DIGITS];
    nq_format_u128(t->total, v[0]), nq_format_u128(t->unique, v[1]);
    nq_format_u128(t->fixed180, v[2]), nq_format_u128(t->fixed90, v[3]);
    if (!json) {
        fprintf(out, "%s total %s unique %s fixed %s %s", name, v[0], v[1],
                v[2], v[3]);
        return;
    }
    cli_json_string(out, name);
    fprintf(out, ":{\"total\":%s,\"unique\":%s,\"fixed180\":%s,"
            "\"fixed90\":%s}", v[0], v[1], v[2], v[3]);
}

/* A disagreeing unit, as soon as its recount is done. */
static void on_disagree(void *ctx, uint64_t unit, const nq_tally *recorded,
                        const nq_tally *counted)
{
    const cli_verify_args *a = ctx;
    cli_clear_progress();
    printf(a->json ? "{\"type\":\"disagree\",\"unit\":%llu," :
           "unit %llu disagrees: ", (unsigned long long)unit);
    put_tally(stdout, "recorded", recorded, a->json);
    fputs(a->json ? "," : ", recounted", stdout);
    put_tally(stdout, a->json ? "counted" : "", counted, a->json);
    fputs(a->json ? "}\n" : "\n", stdout);
    fflush(stdout);
}

/* A GPU engine asked for that failed: one line, and the CPU counts on. */
static void on_fallback(void *ctx, const char *engine, const char *cpu,
                        const char *why)
{
    (void)ctx;
    cli_clear_progress();
    fprintf(stderr, "nqueens: verify: engine %s failed (%s); recounting the "
            "rest on %s\n", engine, why[0] ? why : "no words", cpu);
    fflush(stderr);
}

/* A run whose records disagree: named, with every record it wrote
 * refused (the words of its opening run line: host, pid, engine,
 * kernel). */
static void on_run(void *ctx, const nq_verify_run *run)
{
    const cli_verify_args *a = ctx;
    if (!run->disagree)
        return;
    cli_clear_progress();
    if (a->json) {
        printf("{\"type\":\"run\",\"id\":\"%016llx\",\"host\":",
               (unsigned long long)run->id);
        cli_json_string(stdout, run->host);
        printf(",\"pid\":%ld,", run->pid);
        if (run->rank > 0) /* an MPI worker rank's run */
            printf("\"rank\":%d,", run->rank);
        fputs("\"engine\":", stdout);
        cli_json_string(stdout, run->engine);
        fputs(",\"kernel\":", stdout);
        cli_json_string(stdout, run->kernel);
        printf(",\"records\":%llu,\"checked\":%llu,\"disagree\":%llu}\n",
               (unsigned long long)run->records,
               (unsigned long long)run->checked,
               (unsigned long long)run->disagree);
    } else {
        char rank[32] = "";
        if (run->rank > 0) /* an MPI worker rank's run */
            snprintf(rank, sizeof rank, ", rank %d", run->rank);
        printf("run %016llx (host %s, pid %ld%s, engine %s, kernel %s) wrote "
               "%llu records; %llu of its %llu recounted disagree: every "
               "record it wrote is refused (verify --run %016llx recounts "
               "them)\n", (unsigned long long)run->id, run->host, run->pid,
               rank, run->engine, run->kernel,
               (unsigned long long)run->records,
               (unsigned long long)run->disagree,
               (unsigned long long)run->checked,
               (unsigned long long)run->id);
    }
    fflush(stdout);
}

/* The bar names the board once the journals have said which it is. */
typedef struct {
    cli_progress bar;
    const nq_journal_header *h;
} verify_bar;

static void draw(void *ctx, const nq_progress *p)
{
    verify_bar *v = ctx;
    v->bar.n = v->h->n;
    cli_draw_progress(&v->bar, p);
}

/* What the weighted draws bound: a raise of k steps in all, or wrong
 * records holding k shares of the estimated work, escapes with chance
 * under e^-k. */
static void print_odds(const nq_verify_report *r)
{
    if (!r->claim_step && !r->work_share)
        return;
    fputs("; wrong records escape with chance under e^-k if they ", stdout);
    if (r->claim_step)
        printf("raise the total by k x %.3g%s", r->claim_step,
               r->work_share ? " or " : "");
    if (r->work_share)
        printf("hold k x %.3g%% of the estimated work", 100 * r->work_share);
}

/* The summary line: in words, what was recounted and how it was chosen
 * (with every unit recounted, as --all does, nothing was drawn at random
 * and no seed chose anything, so neither is said); in JSON the report's
 * numbers, whatever the choice. */
static void print_summary(const nq_journal_header *h,
                          const nq_verify_report *r, int json)
{
    char bound[NQ_U128_DIGITS];
    nq_format_u128(r->size_bound, bound);
    if (json) {
        printf("{\"type\":\"summary\",\"command\":\"verify\",\"n\":%d,"
               "\"plan\":", h->n);
        cli_json_string(stdout, h->plan); /* read from a file: escaped */
        printf(",\"units\":%llu,\"recorded\":%llu,"
               "\"checked\":%llu,\"sampled\":%llu,\"fixed_points\":%llu,"
               "\"by_size\":%llu,\"size_bound\":%s,\"disagree\":%llu,"
               "\"seed\":%llu,\"engine\":",
               (unsigned long long)r->units,
               (unsigned long long)r->recorded,
               (unsigned long long)r->checked, (unsigned long long)r->sampled,
               (unsigned long long)r->fixed_points,
               (unsigned long long)r->by_size, bound,
               (unsigned long long)r->disagree, (unsigned long long)r->seed);
        cli_json_string(stdout, r->engine);
        printf(",\"fell_back\":%s,\"seconds\":%.6f,\"low_ratio\":%.6g,"
               "\"strata\":%u,\"strata_off\":%u,\"runs\":%llu,\"by_run\":%llu,"
               "\"runs_disagree\":%llu,\"by_weight\":%llu,\"claim_step\":%.6g,"
               "\"work_share\":%.6g}\n",
               r->fell_back ? "true" : "false", r->seconds, r->low_ratio,
               r->strata, r->strata_off, (unsigned long long)r->runs,
               (unsigned long long)r->by_run,
               (unsigned long long)r->runs_disagree,
               (unsigned long long)r->by_weight, r->claim_step,
               r->work_share);
        return;
    }
    char of[64] = "";
    if (r->recorded < r->units)
        snprintf(of, sizeof of, " (of the plan's %llu)",
                 (unsigned long long)r->units);
    if (r->checked >= r->recorded) {
        printf("N=%d plan %s: recounted all %llu recorded units%s; %s\n",
               h->n, h->plan, (unsigned long long)r->recorded, of,
               r->disagree ? "some disagree" : "all agree");
        return;
    }
    char runs[96] = "";
    if (r->runs)
        snprintf(runs, sizeof runs, ", %llu more from the samples of its %llu "
                 "runs", (unsigned long long)r->by_run,
                 (unsigned long long)r->runs);
    printf("N=%d plan %s: recounted %llu of the %llu recorded units%s: "
           "%llu drawn at random (seed %llu), %llu more weighted by total or "
           "work, %llu for their size, %llu that can hold fixed points%s; "
           "%s; every total over %s recounted", h->n, h->plan,
           (unsigned long long)r->checked, (unsigned long long)r->recorded,
           of, (unsigned long long)r->sampled, (unsigned long long)r->seed,
           (unsigned long long)r->by_weight, (unsigned long long)r->by_size,
           (unsigned long long)r->fixed_points, runs,
           r->disagree ? "some disagree" : "all agree", bound);
    print_odds(r);
    putchar('\n');
}

/* The stratum that strays furthest from the rest, in words or JSON:
 * printed when any strays past its bound, which refuses the journals
 * whatever the recount found. */
static void print_stratum(const nq_verify_report *r, int json)
{
    if (json) {
        printf("{\"type\":\"stratum\",\"stratum\":%u,\"strata\":%u,"
               "\"units\":%llu,\"least_estimate\":%.6g,"
               "\"most_estimate\":%.6g,\"off\":%.6f,\"bound\":%.6f}\n",
               r->stratum, r->strata, (unsigned long long)r->stratum_units,
               r->stratum_least, r->stratum_most, r->stratum_off,
               r->stratum_bound);
        return;
    }
    printf("stratum %u of %u (%llu units estimated at %.4g to %.4g nodes) "
           "strays: its totals over its estimates are %.1f%% %s the rest's, "
           "past its bound of %.1f%% (20%% + 500%% / sqrt(units))\n",
           r->stratum, r->strata, (unsigned long long)r->stratum_units,
           r->stratum_least, r->stratum_most,
           100 * (r->stratum_off < 0 ? -r->stratum_off : r->stratum_off),
           r->stratum_off < 0 ? "below" : "above", 100 * r->stratum_bound);
}

/* The JSON of a choice, its part's share and their cost. */
static void print_parts_json(const nq_journal_header *h,
                             const nq_verify_report *r, const char *what)
{
    fputs("{\"type\":", stdout);
    cli_json_string(stdout, what);
    printf(",\"command\":\"verify\",\"n\":%d,\"plan\":", h->n);
    cli_json_string(stdout, h->plan);
    printf(",\"seed\":%llu,\"chosen\":%llu,\"sampled\":%llu,\"by_weight\":%llu,"
           "\"by_size\":%llu,\"fixed_points\":%llu,\"core_hours\":%.6g,"
           "\"unestimated\":%llu,\"part\":%u,\"parts\":%u,\"share\":%llu,"
           "\"share_sampled\":%llu,\"share_by_weight\":%llu,"
           "\"share_by_size\":%llu,\"share_fixed_points\":%llu,"
           "\"share_core_hours\":%.6g,\"share_unestimated\":%llu,"
           "\"checked\":%llu,\"disagree\":%llu,\"chosen_digest\":\"%016llx\","
           "\"records_digest\":\"%016llx\"}\n",
           (unsigned long long)r->seed, (unsigned long long)r->chosen,
           (unsigned long long)r->sampled, (unsigned long long)r->by_weight,
           (unsigned long long)r->by_size,
           (unsigned long long)r->fixed_points, r->chosen_seconds / 3600,
           (unsigned long long)r->unestimated, r->part, r->parts,
           (unsigned long long)r->share, (unsigned long long)r->share_sampled,
           (unsigned long long)r->share_by_weight,
           (unsigned long long)r->share_by_size,
           (unsigned long long)r->share_fixed_points,
           r->share_seconds / 3600, (unsigned long long)r->share_unestimated,
           (unsigned long long)r->checked, (unsigned long long)r->disagree,
           (unsigned long long)r->chosen_digest,
           (unsigned long long)r->records_digest);
}

/* "N units (a drawn at random with seed S, w more weighted, b for their
 * size, c that can hold fixed points)": of the choice (share 0) or of
 * the part's share. */
static void print_choice(const nq_verify_report *r, int share)
{
    printf("%llu units (%llu drawn at random with seed %llu, %llu more "
           "weighted, %llu for their size, %llu that can hold fixed points)",
           (unsigned long long)(share ? r->share : r->chosen),
           (unsigned long long)(share ? r->share_sampled : r->sampled),
           (unsigned long long)r->seed,
           (unsigned long long)(share ? r->share_by_weight : r->by_weight),
           (unsigned long long)(share ? r->share_by_size : r->by_size),
           (unsigned long long)(share ? r->share_fixed_points
                                      : r->fixed_points));
}

/* The cost of seconds on the reference core, with the units left out. */
static void print_cost(double seconds, uint64_t unestimated)
{
    printf(", %.4g core-hours on the plan's reference core", seconds / 3600);
    if (unestimated)
        printf(" (and %llu units it has no estimate for)",
               (unsigned long long)unestimated);
}

void cli_print_parts(const nq_journal_header *h, const nq_verify_report *r,
                     const char *what, int json)
{
    if (json) {
        print_parts_json(h, r, what);
        return;
    }
    printf("N=%d plan %s: ", h->n, h->plan);
    if (!strcmp(what, "verified")) {
        printf("verified in %u parts: %llu units recounted (seed %llu, chosen "
               "%016llx), all agree\n", r->parts,
               (unsigned long long)r->checked, (unsigned long long)r->seed,
               (unsigned long long)r->chosen_digest);
        return;
    }
    if (!strcmp(what, "part")) {
        printf("part %u/%u recounted %llu of the check's %llu units: %llu of "
               "the %llu drawn at random (seed %llu), %llu of the %llu more "
               "weighted, %llu of the %llu for their size, %llu of the %llu "
               "that can hold fixed points; %s; chosen %016llx, records "
               "%016llx\n", r->part, r->parts,
               (unsigned long long)r->checked, (unsigned long long)r->chosen,
               (unsigned long long)r->share_sampled,
               (unsigned long long)r->sampled, (unsigned long long)r->seed,
               (unsigned long long)r->share_by_weight,
               (unsigned long long)r->by_weight,
               (unsigned long long)r->share_by_size,
               (unsigned long long)r->by_size,
               (unsigned long long)r->share_fixed_points,
               (unsigned long long)r->fixed_points,
               r->disagree ? "some disagree" : "all agree",
               (unsigned long long)r->chosen_digest,
               (unsigned long long)r->records_digest);
        return;
    }
    printf("the check would recount ");
    print_choice(r, 0);
    print_cost(r->chosen_seconds, r->unestimated);
    if (r->parts > 1) {
        printf("; part %u/%u: ", r->part, r->parts);
        print_choice(r, 1);
        print_cost(r->share_seconds, r->share_unestimated);
    }
    putchar('\n');
}

int cli_verify_journals(const char *const *paths, int count,
                        cli_verify_args *a, cli_merged *m)
{
    nq_journal_header h = {0};
    nq_verify_report r;
    verify_bar bar = {{.plain = a->progress}, &h};
    char why[4096] = "";
    nq_verify_options o = {.percent = a->percent, .at_least = AT_LEAST,
                           .fixed_points = 1, .largest = BY_SIZE,
                           .seed = a->seed, .engine = a->engine,
                           .threads = a->threads, .on_disagree = on_disagree,
                           .on_fallback = on_fallback, .ctx = a,
                           .part = a->part, .parts = a->parts,
                           .estimate_only = a->estimate,
                           .verdict = a->output, .run = a->run,
                           .on_run = on_run, .weighted = a->weighted};
    o.stop = cli_catch_stop_signals("verify");
    cli_stop_waits(1);
    if ((!a->quiet && isatty(2)) || a->progress)
        o.progress = draw, o.progress_ctx = &bar;
    nq_status st = a->check && !m
        ? a->check(a->check_ctx, paths, count, &o, &h, &r, why, sizeof why)
        : nq_journal_verify(paths, count, &o, &h, &r, m ? &m->s : NULL,
                            m ? &m->done : NULL, m ? &m->c : NULL, why,
                            sizeof why);
    if (m)
        m->h = h;
    cli_clear_progress();
    if (st == NQ_ERR_STOPPED)
        return cli_report_stopped();
    if (st != NQ_OK) /* another format, or an engine of another plan: bad
                        input */
        return cli_error(st == NQ_ERR_VERSION || st == NQ_ERR_ARG ? CLI_USAGE
                         : CLI_FAIL, "%s", why[0] ? why : nq_strerror(st));
    if (a->estimate || a->parts)
        cli_print_parts(&h, &r, a->estimate ? "estimate" : "part", a->json);
    else
        print_summary(&h, &r, a->json);
    /* A part weighs the journals whole, as plain verify: a stratum past
     * its bound is said and refuses them (after the part's verdict is
     * written: its recount stands, and merge --verified weighs the
     * strata again itself); --estimate recounts and refuses nothing. */
    int strays = r.strata_off && !a->estimate;
    if (strays)
        print_stratum(&r, a->json);
    if (r.disagree && r.runs_disagree)
        return cli_error(CLI_FAIL, "verify: %llu of the %llu units recounted "
                         "disagree with their records; %llu runs wrote them, "
                         "and their %llu records are refused",
                         (unsigned long long)r.disagree,
                         (unsigned long long)r.checked,
                         (unsigned long long)r.runs_disagree,
                         (unsigned long long)r.run_records);
    if (r.disagree)
        return cli_error(CLI_FAIL, "verify: %llu of the %llu units recounted "
                         "disagree with their records",
                         (unsigned long long)r.disagree,
                         (unsigned long long)r.checked);
    if (strays && a->parts)
        return cli_error(CLI_FAIL, "verify: %u of the %u strata of the "
                         "journals' units stray from the plan's estimate "
                         "past their bounds: units lowered or raised; "
                         "'merge --verified' refuses these journals "
                         "whatever the parts recount",
                         r.strata_off, r.strata);
    if (strays)
        return cli_error(CLI_FAIL, "verify: %u of the %u strata of the "
                         "journals' units stray from the plan's estimate "
                         "past their bounds: units lowered or raised",
                         r.strata_off, r.strata);
    return CLI_OK;
}

int cli_verify_options(const char *sample, int all, const char *seed,
                       const char *threads, const char *weighted,
                       cli_verify_args *a)
{
    uint64_t s = 0;
    a->weighted = BY_WEIGHT;
    if (weighted && cli_parse_uint(weighted, 0, UINT64_MAX, &a->weighted))
        return cli_error(CLI_USAGE, "--weighted takes a whole number of "
                         "records from 0, not '%s'", weighted);
    char *end;
    a->percent = 1;
    if (sample && all)
        return cli_error(CLI_USAGE, "--sample and --all: choose one");
    if (sample && (a->percent = strtod(sample, &end), end == sample || *end ||
                   !(a->percent > 0 && a->percent <= 100)))
        return cli_error(CLI_USAGE, "--sample takes a percentage above 0 and "
                         "at most 100, not '%s'", sample);
    if (all)
        a->percent = 100;
    if (seed && cli_parse_uint(seed, 1, UINT64_MAX, &s) != 0)
        return cli_error(CLI_USAGE, "--seed takes a whole number from 1, not "
                         "'%s'", seed);
    a->seed = s;
    return cli_parse_threads(threads, &a->threads);
}

/* --part, --output and --estimate, checked together. */
static int verify_parts(const char *part, const char *seed,
                        cli_verify_args *a)
{
    if (part && !seed)
        return cli_error(CLI_USAGE, "--part needs --seed S: a seed drawn by "
                         "each part would give each part another sample");
    if (a->estimate && a->output)
        return cli_error(CLI_USAGE, "--estimate recounts nothing: there is "
                         "no verdict for --output to write");
    return part ? cli_parse_part(part, &a->part, &a->parts) : CLI_OK;
}

/* --run ID: a run line's 16 hex digits, not 0 (no run's). */
static int parse_run(const char *text, uint64_t *id)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 16);
    if (strlen(text) != 16 || *end || !v || strspn(text,
                                                  "0123456789abcdef") != 16)
        return cli_error(CLI_USAGE, "--run takes a run's id, the 16 hex "
                         "digits after 'run id=', not '%s'", text);
    *id = v;
    return CLI_OK;
}

int cmd_verify(int argc, char **argv)
{
    cli_verify_args a = {0};
    const char **pos;
    int npos, rc = cli_parse_verify(verify_help, argc, argv, &a, &pos, &npos);
    if (rc == CLI_OK)
        rc = cli_verify_journals(pos, npos, &a, NULL);
    free(pos);
    return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
}

int cli_parse_verify(const char *help, int argc, char **argv,
                     cli_verify_args *a, const char ***pos, int *npos)
{
    int all = 0, rc;
    const char *sample = NULL, *seed = NULL, *threads = NULL, *list = NULL;
    const char *part = NULL, *run = NULL, *weighted = NULL;
    const cli_spec specs[] = {
        {.name = "--list", .value = &list, .arg = "FILE",
         .help = CLI_LIST_HELP},
        {.name = "--sample", .value = &sample, .arg = "P",
         .help = N_("recount P percent of the recorded units, at least 16 "
                    "(default: 1)")},
        {.name = "--all", .flag = &all,
         .help = N_("recount every recorded unit (none drawn at random)")},
        {.name = "--weighted", .value = &weighted, .arg = "K",
         .help = N_("also draw about K records in proportion to the total "
                    "each claims, and about K in proportion to its unit's "
                    "estimated work, so that every solution claimed and every "
                    "part of the work has a like chance of a recount; 0: none "
                    "(default: 64)")},
        {.name = "--seed", .value = &seed, .arg = "S",
         .help = N_("draw the sample from seed S, to repeat a check (a run's "
                    "summary names its seed; default: one drawn at random: a "
                    "seed published in advance shows a forger which records "
                    "the draw leaves alone)")},
        {.name = "--engine", .value = &a->engine, .arg = "NAME",
         .help = N_("recount with NAME, an engine of the journals' plan "
                    "(default: the first that counts it on the CPU, fast for "
                    "fast, subunits, cuda and opencl journals; a GPU engine "
                    "that fails leaves the rest to it, with a line)")},
        {.name = "--threads", .value = &threads, .arg = "T",
         .help = N_("threads (default: all online cores)")},
        {.name = "--run", .value = &run, .arg = "ID",
         .help = N_("also recount every record that run ID wrote (the 16 hex "
                    "digits of its run line, which verify names when the run's "
                    "records disagree)")},
        {.name = "--part", .value = &part, .arg = "K/M",
         .help = N_("recount only part K of M of the chosen units (the choice "
                    "made whole, then dealt largest estimate first to the part "
                    "with the least work; needs --seed, so that every part "
                    "chooses alike), for a check run on M machines.  Each part "
                    "weighs the journals' strata whole: one past its bound is "
                    "named and exits 1, the verdict written all the same "
                    "(merge --verified weighs them again and refuses)"),
         .group = N_("a check in parts:")},
        {.name = "--output", .value = &a->output, .arg = "FILE",
         .help = N_("write the verdict (what was recounted, the choice's and "
                    "the records' digests, the units that disagree) to FILE, "
                    "for 'nqueens merge --verified'")},
        {.name = "--estimate", .flag = &a->estimate,
         .help = N_("say how many units the check would recount and their "
                    "core-hours by the plan's estimate (the part's too, with "
                    "--part), and recount none")},
        {.name = "--quiet", .flag = &a->quiet, .help = N_("no progress bar"),
         .group = N_("output:")},
        {.name = "--progress", .flag = &a->progress,
         .help = N_("a plain progress line every 5 seconds, for logs")},
        {.name = "--json", .flag = &a->json,
         .help = N_("JSON Lines: one object per disagreeing unit (type "
                    "\"disagree\"), then a summary (type \"summary\")")},
        {0},
    };
    rc = cli_parse_journals("verify", help, "JOURNAL... [--list FILE] "
                            "[--sample P | --all]", specs, argc, argv, &list,
                            pos, npos);
    if (rc == CLI_OK)
        rc = verify_parts(part, seed, a);
    if (rc == CLI_OK && (a->engine || cli_describing))
        rc = cli_check_engine(a->engine, 1, 1, NQ_CAP_UNITS);
    if (rc == CLI_OK)
        rc = cli_verify_options(sample, all, seed, threads, weighted, a);
    if (rc == CLI_OK && run)
        rc = parse_run(run, &a->run);
    return rc;
}
